"""Slash commands and the handlers behind every button: the bot's conversation with players.

Every handler answers within Discord's 3 seconds: it defers before anything slow (drawing a
board, opening a thread). User mistakes get a short ephemeral message and change nothing;
unexpected errors are logged with the game id and answered with an apology.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

import engine

from . import computers as bot_computers
from . import options as option_checks
from . import texts, ui
from .components import DYNAMIC_ITEMS, build_view, component_ids, out_of_phase, phase
from . import delivery
from .daily import check_may_see
from .flow import StaleControls, UserError, parse_options
from .storage import Conflict
from .settings import DEADLINES

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side; nothing was changed. Please try again later."
UNKNOWN_CONTROLS = ("Those controls are not in use any more (or I cannot read them). Use the "
                    "newest ones in the game's thread, or `/board` and `/move`.")


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=engine.get_game(name).title, value=name)
            for name in engine.game_names()]


GAME_CHOICES = _game_choices()
DEADLINE_CHOICES = [
    app_commands.Choice(name="no deadline", value="none"),
    app_commands.Choice(name="1 day per move", value="1d"),
    app_commands.Choice(name="3 days per move", value="3d"),
    app_commands.Choice(name="7 days per move", value="7d"),
]
assert {c.value for c in DEADLINE_CHOICES} == set(DEADLINES)
COMPUTER_CHOICES = [app_commands.Choice(name=f"{level} computer players", value=level)
                    for level in bot_computers.LEVELS]

EVERYWHERE = dict(guilds=True, dms=True, private_channels=False)


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_messages or perms.administrator))


class BadOptions(app_commands.AppCommandError):
    """Options Discord would not send for the command as published (see bot.options)."""


class Tree(app_commands.CommandTree):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.definitions: dict = {}   # command -> its dict as published

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command's options (and autocomplete's) are checked here once, against the
        command's published definition, before discord.py reads them: a client of another
        release, an altered one or a proxy gets a plain refusal (see command_failed), never a
        command run on values of the wrong type or range."""
        data = interaction.data or {}
        if data.get("type", 1) != 1:
            return True
        name = str(data.get("name", ""))
        command = self.get_command(name) or (
            self.get_command(name, guild=interaction.guild) if interaction.guild else None)
        if command is None:
            return True   # discord.py says CommandNotFound
        problem = option_checks.problem(self.definition(command), data,
                                         autocomplete=interaction.type is discord.InteractionType.autocomplete)
        if problem:
            raise BadOptions(problem)
        return True

    def definition(self, command) -> dict:
        """The command as published (computed once per command)."""
        if command not in self.definitions:
            self.definitions[command] = command.to_dict(self)
        return self.definitions[command]


class Controller(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.lobby_locks: dict[int, asyncio.Lock] = {}

    @property
    def flow(self):
        return self.bot.flow

    # ---- answering -------------------------------------------------------------------------

    async def say(self, interaction: discord.Interaction, text: str, **kwargs) -> None:
        """An ephemeral answer, whether or not the interaction has been answered already."""
        kwargs.setdefault("ephemeral", True)
        text = texts.clip(text)
        if interaction.response.is_done():
            await interaction.followup.send(text, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)

    @contextlib.asynccontextmanager
    async def answering(self, interaction: discord.Interaction, game_id: int | None = None):
        try:
            yield
        except UserError as exc:
            await self._safe_say(interaction, str(exc))
        except Exception:
            # Only the command's name or the kind of component: their values may be secret.
            data = interaction.data or {}
            what = data.get("name") or ":".join(str(data.get("custom_id", "?")).split(":")[:2])
            log.exception("unexpected error in game %s (%s by user %s)", game_id, what,
                          interaction.user.id)
            await self._safe_say(interaction, APOLOGY)

    # ---- every interaction gets an answer ------------------------------------------------------

    async def component_used(self, interaction: discord.Interaction) -> None:
        """A button or menu was used: run the control its custom_id names (each holds no state:
        the id says everything), or say that those controls are not in use any more."""
        async with self.answering(interaction):
            custom_id = str((interaction.data or {}).get("custom_id", ""))
            for item_class in DYNAMIC_ITEMS:
                match = item_class.__discord_ui_compiled_template__.fullmatch(custom_id)
                if match:
                    item = await item_class.from_custom_id(interaction, None, match)
                    await self.check_in_place(interaction, item, custom_id)
                    await item.callback(interaction)
                    return
            # only the kind of control: the rest may name a secret choice
            log.info("controls %r unknown (user %s)", ":".join(custom_id.split(":")[:2])[:30],
                     interaction.user.id)
            raise UserError(UNKNOWN_CONTROLS)

    async def check_in_place(self, interaction: discord.Interaction, item, custom_id: str) -> None:
        """A control acts only on the message it was put on and in the phase of the game it
        was made for (bot.components); anything else (a forged or altered custom_id) is
        answered like controls that are out of date, and changes nothing."""
        message, game_id = interaction.message, getattr(item, "game_id", None)
        why = None
        # (an interaction that lacks its message, from a degraded Discord, is checked for its
        # phase only: test_bot_degraded)
        if message is not None and custom_id not in component_ids(message):
            why = "not on the message pressed"
        elif isinstance(game_id, int) and 0 < game_id < 2 ** 63:
            store = self.bot.store
            row = await store.get_game(game_id)   # (none: the handler says there is no such game)
            owner = await store.game_of_message(message.id) if message is not None else None
            if row is not None and owner not in (None, game_id):
                why = f"on a message of game {owner}"
            elif row is not None:
                now = phase(row, row.status == "lobby" and await store.rematch_of(row.id) is not None)
                if out_of_phase(item, now):
                    why = f"made for {'/'.join(getattr(item, 'phases', ()))}, pressed in {now}"
        if why:
            # only the kind of control: the rest may name a secret choice
            log.info("controls %r of game %s refused (user %s): %s",
                     ":".join(custom_id.split(":")[:2])[:30], game_id, interaction.user.id, why)
            raise UserError(UNKNOWN_CONTROLS)

    async def command_failed(self, interaction: discord.Interaction,
                             error: app_commands.AppCommandError) -> None:
        """What discord.py could not hand to a command: a command or options of another
        release (or altered), an option it cannot read. Our commands answer everything else
        themselves (see `answering`), so anything left here is unexpected."""
        odd_input = (app_commands.CommandSignatureMismatch, app_commands.CommandNotFound,
                     app_commands.TransformerError, app_commands.CheckFailure, BadOptions)
        if isinstance(error, odd_input):
            # (BadOptions names the option, never its value: a move may be secret)
            why = f"{type(error).__name__}: {error}" if isinstance(error, BadOptions) else type(error).__name__
            log.info("could not read /%s from user %s: %s", str((interaction.data or {}).get("name", "?"))[:32],
                     interaction.user.id, why)
            text = ("I could not read that command (perhaps from an older version of the bot): "
                    "pick it again from the list of commands.")
            if isinstance(error, BadOptions):
                text = f"I could not read that command: {error}. Pick it again from the list of commands."
        else:
            log.error("unexpected error in /%s", (interaction.data or {}).get("name", "?"),
                      exc_info=error)
            text = APOLOGY
        if interaction.type is discord.InteractionType.autocomplete:
            with contextlib.suppress(discord.HTTPException):
                if not interaction.response.is_done():
                    await interaction.response.autocomplete([])
            return
        await self._safe_say(interaction, text)

    async def _safe_say(self, interaction, text):
        # Whatever fails here is not worth more than a plain line: the error (a failed request
        # holding our answer, which may show a player's choice) must not reach the log.
        try:
            await self.say(interaction, text)
        except Exception:
            log.warning("could not answer interaction %s", interaction.id)

    async def board_files(self, *views: dict, names: dict) -> list[discord.File]:
        """PNGs of the views; a drawing error is logged and leaves the image out, so the
        player still gets the text and controls."""
        files = []
        for n, view in enumerate(views):
            try:
                png = await self.bot.renderer.png({"view": view, "names": names})
            except Exception:
                log.exception("could not draw a board of game %s", view.get("game"))
                continue
            name = delivery.BOARD_FILE if n == 0 else f"board-{n + 1}.png"
            files.append(discord.File(io.BytesIO(png), filename=name))
        return files

    # ---- /play and the lobby ---------------------------------------------------------------

    @app_commands.command(name="play", description="Open a lobby for a piecepack game")
    @app_commands.describe(game="Which game", opponent="Invite one player directly",
                           deadline="Time for each move (default: the server's setting)",
                           options="Game options as key=value pairs (type to see the game's)",
                           computers="Fill the empty seats with computer players of this level",
                           rematch="A finished game's number: play it again with the same players")
    @app_commands.choices(game=GAME_CHOICES, deadline=DEADLINE_CHOICES, computers=COMPUTER_CHOICES)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: Optional[str] = None,
                   opponent: Optional[discord.User] = None, deadline: Optional[str] = None,
                   options: Optional[str] = None, computers: Optional[str] = None,
                   rematch: Optional[int] = None):
        async with self.answering(interaction):
            if rematch is not None:   # (the old game says what, who and how: bot.history)
                await self.bot.get_cog("History").request_rematch(interaction, rematch)
                return
            if game not in engine.game_names():
                raise UserError("Choose a game from the list.")
            if interaction.guild_id is None:
                raise UserError("Use `/play` in a text channel of a server: each game gets its own thread there.")
            if getattr(interaction.channel, "type", None) in (
                    discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                    discord.ChannelType.news_thread):
                raise UserError("Use `/play` in a text channel: each game gets its own thread.")
            if opponent is not None and opponent.bot:
                raise UserError("Bots cannot play.")
            if opponent is not None and not isinstance(opponent, discord.Member):
                raise UserError("Invite someone who is a member of this server.")
            if computers is not None and computers not in bot_computers.LEVELS:
                raise UserError("Computer players are easy or strong.")
            if computers is not None and not bot_computers.plays(game):
                raise UserError(f"There is no computer player for {engine.get_game(game).title} yet.")
            row = await self.flow.open_lobby(
                game_name=game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                host_id=interaction.user.id, host_name=interaction.user.display_name,
                deadline=deadline, opponent_id=opponent.id if opponent else None,
                options=parse_options(options, example=next(iter(ui.adapter_for(game).option_hints), "")))
            if self.flow.game_of(row).max_players == 1:
                await self.start_solo(interaction, row)
                return
            if computers is not None:
                row = await self.flow.fill_with_computers(row.id, interaction.user.id, computers)
                if not row.invited_id:
                    # Every seat is taken: the game starts at once (its thread then opens on
                    # its own, and the message below says where it is).
                    self.flow.can_start(row, interaction.user.id)
                    row = await self.flow.start(row, self.create_thread)
            controls = build_view(self.flow.lobby_controls(row))   # (none: started already)
            response = await interaction.response.send_message(
                self.flow.lobby_text(row), **({"view": controls} if controls else {}),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False,
                    users=[discord.Object(row.invited_id)] if row.invited_id else False))
            message_id = await self.response_message_id(interaction, response)
            if message_id is None or row.status != "lobby":
                return   # the game's thread then starts without the lobby message
            try:
                await self.bot.store.commit(row.id, row.version, now=self.bot.now(),
                                            changes={"lobby_message_id": message_id})
            except Conflict:
                pass  # someone joined first; the game's thread will then start without the message

    async def start_solo(self, interaction: discord.Interaction, row) -> None:
        """A one-seat game: nobody to wait for, so no lobby; it starts at once in a thread on
        the answer to /play."""
        text = (f"**{texts.game_label(self.flow.game_of(row).title, row.id)}** for "
                f"{texts.mention(str(interaction.user.id))}: the game is in the thread.")
        response = await interaction.response.send_message(
            text, allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[interaction.user]))
        message_id = await self.response_message_id(interaction, response)
        if message_id is not None:
            await self.bot.store.commit(row.id, row.version, now=self.bot.now(),
                                        changes={"lobby_message_id": message_id})
        await self.flow.start(await self.flow.lobby(row.id), self.create_thread)

    @staticmethod
    async def response_message_id(interaction: discord.Interaction, response) -> int | None:
        """The id of the message an interaction response created: from the callback's answer,
        else asked for; None if Discord says neither."""
        message_id = getattr(response, "message_id", None)
        resource = getattr(response, "resource", None)
        if message_id is None and isinstance(resource, discord.InteractionMessage):
            message_id = resource.id
        if message_id is None:
            try:
                message_id = (await interaction.original_response()).id
            except discord.HTTPException as exc:
                log.warning("could not learn the id of the response to interaction %s: %s", interaction.id, exc)
        return message_id

    @play.autocomplete("options")
    async def options_autocomplete(self, interaction: discord.Interaction, current: str):
        name = getattr(interaction.namespace, "game", None)
        if name not in engine.game_names():
            return []
        hints = ui.adapter_for(name).option_hints
        return [app_commands.Choice(name=h, value=h) for h in hints if current.lower() in h.lower()][:25]

    async def lobby_pressed(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        async with self.answering(interaction, game_id):
            await interaction.response.defer()
            # One lobby change at a time in this process: two Start presses must not open two
            # threads (the version check would refuse the second start, but after its thread).
            # A lock per lobby, kept: dropping it while others wait would let a third run alone.
            async with self.lobby_locks.setdefault(game_id, asyncio.Lock()):
                row = await self._lobby_change(interaction, game_id, op)
            try:
                await interaction.edit_original_response(
                    content=self.flow.lobby_text(row), view=build_view(self.flow.lobby_controls(row)))
            except discord.HTTPException as exc:   # the change is stored; only the lobby text is stale
                log.warning("could not update the lobby message of game %s: %s", game_id, exc)

    async def _lobby_change(self, interaction: discord.Interaction, game_id: int, op: str):
        user = interaction.user
        if op == "join":
            row = await self.flow.join(game_id, user.id, user.display_name)
            row = await self.start_if_full(row)
        elif op == "leave":
            row = await self.flow.leave(game_id, user.id)
        elif op in ("cpu-easy", "cpu-strong"):
            row = await self.flow.add_computer(game_id, user.id, op[4:])
            row = await self.start_if_full(row)
        elif op == "cpu-remove":
            row = await self.flow.remove_computer(game_id, user.id)
        elif op == "cancel":
            row = await self.flow.cancel(game_id, user.id, is_moderator(interaction))
        else:
            row = await self.flow.lobby(game_id)
            self.flow.can_start(row, user.id)
            row = await self.flow.start(row, self.create_thread)
        return row

    async def start_if_full(self, row):
        """A game with a fixed number of seats starts as soon as they are all taken."""
        game = self.flow.game_of(row)
        if len(row.seats) == game.max_players == game.min_players:
            row = await self.flow.start(row, self.create_thread)
        return row

    async def create_thread(self, row, name: str) -> int | None:
        """The game's thread: on the lobby message, else a thread of its own (the lobby message
        was deleted, or threads on messages are refused); None when Discord opens neither (no
        permission, an outage): the game is then played in the lobby channel."""
        http = self.bot.http
        attempts = [lambda: http.start_thread_without_message(
            row.channel_id, name=name, auto_archive_duration=10080,
            type=discord.ChannelType.public_thread.value)]
        if row.lobby_message_id:
            attempts.insert(0, lambda: http.start_thread_with_message(
                row.channel_id, row.lobby_message_id, name=name, auto_archive_duration=10080))
        for attempt in attempts:
            try:
                return int((await attempt())["id"])
            except (discord.HTTPException, KeyError, TypeError, ValueError) as exc:
                log.warning("could not open a thread for game %s: %s", row.id, exc)
        return None

    # ---- moves -----------------------------------------------------------------------------

    @app_commands.command(name="move", description="Make a move (start typing to see your legal moves)")
    @app_commands.describe(move="The move in the game's notation", game="Game number (when not in its thread)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def move(self, interaction: discord.Interaction, move: str, game: Optional[int] = None):
        async with self.answering(interaction, game):
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.resolve(interaction, game)
            g, state, player = self.flow.game_of(row), self.flow.state_of(row), str(interaction.user.id)
            question = ui.adapter_for(row.game).confirm(g, state, player, move) \
                if player in g.to_act(state) else None
            if question:
                await self.send_board(interaction, row, g, state, player, header=question,
                                      specs=self.confirm_specs(row.id, g, state, player, move))
                return
            done = await self.flow.act(row.id, interaction.user.id, "move", move)
            if done.private:   # answered with the player's own board, and its controls
                await self.send_board(interaction, done.row, g, done.state, player,
                                      header=done.message, of_round=done.of_round)
                return
            await interaction.followup.send(done.message, ephemeral=True)

    @move.autocomplete("move")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        """The caller's own legal moves that fit what they typed; nothing for anyone else."""
        try:
            return await self._legal_choices(interaction, current)
        except UserError:
            return []
        except Exception:
            log.exception("autocomplete failed for user %s", interaction.user.id)
            return []

    async def _legal_choices(self, interaction: discord.Interaction, current: str):
        row = await self.resolve(interaction, getattr(interaction.namespace, "game", None))
        game = self.flow.game_of(row)
        state = self.flow.state_of(row)
        suggested = ui.adapter_for(row.game).suggestions(game, state, str(interaction.user.id), current)
        return [app_commands.Choice(name=label[:100], value=value) for value, label in suggested]

    async def action_chosen(self, interaction: discord.Interaction, game_id: int, action: str,
                            stamp: str | None, edit: bool = False) -> None:
        """A button or menu carrying an action was used. With `edit`, the (ephemeral) message
        holding the menu is replaced by the confirmation. Private controls that are out of date
        are answered with the current ones."""
        async with self.answering(interaction, game_id):
            if edit:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                done = await self.flow.act(game_id, interaction.user.id, "move", action, stamp=stamp)
            except StaleControls as exc:
                row, game, state, player = await self.acting_player(interaction, game_id)
                await self.send_controls(interaction, row, game, state, player, header=str(exc))
                return
            if edit:   # the menus' message: its board image is out of date too
                await interaction.edit_original_response(content=done.message, view=None, attachments=[])
            else:
                await interaction.followup.send(done.message, ephemeral=True)

    async def secret_chosen(self, interaction: discord.Interaction, game_id: int, round_: int,
                            action: str, stamp: str) -> None:
        """A secret choice's button of round `round_` was pressed (in a DM, or ephemeral). An
        earlier round's button is answered with the current controls."""
        async with self.answering(interaction, game_id):
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                done = await self.flow.act(game_id, interaction.user.id, "move", action,
                                           stamp=stamp, round_=round_)
            except StaleControls as exc:
                row, game, state, player = await self.acting_player(interaction, game_id)
                await self.send_controls(interaction, row, game, state, player, header=str(exc))
                return
            await interaction.followup.send(done.message, ephemeral=True)

    async def adapter_step(self, interaction: discord.Interaction, game_id: int, stamp: str, step,
                           *, new_message: bool = False) -> None:
        """An intermediate step of a game's own controls (e.g. a coin chosen, its partner next):
        `step(row, game, state, player)` returns the text and control specs to show. They replace
        the (ephemeral) message used, or with `new_message` (when the control sits on a public
        message) come as a new ephemeral message."""
        async with self.answering(interaction, game_id):
            row, game, state, player = await self.acting_player(interaction, game_id)
            if stamp != ui.stamp(game, state, player):
                raise UserError("Those controls are out of date: the game has moved on. "
                                "Use the latest ones, or `/move`.")
            content, specs = step(row, game, state, player)
            content = texts.clip(content)
            view = build_view(specs)
            if new_message:
                await interaction.response.send_message(content, view=view or discord.utils.MISSING,
                                                        ephemeral=True)
            else:
                await interaction.response.edit_message(content=content, view=view)

    # ---- private boards ----------------------------------------------------------------------

    @staticmethod
    def confirm_specs(game_id: int, game, state, player: str, action: str) -> list[list]:
        st = ui.stamp(game, state, player)
        return [["pb", game_id, st, f"!{action.strip().lower()}", "Yes, do it", "danger"],
                ["pb", game_id, st, "~", "No, go back", "secondary"]]

    async def board_parts(self, row, game, state, player: str, header: str = "",
                          specs: list[list] | None = None, of_round=None) -> dict:
        """The parts of a player's private board message: text, own board image, controls
        (`specs`, else the player's current ones); `of_round`: see flow.private_payload."""
        payload = self.flow.private_payload(row, game, state, player, row.names, of_round=of_round)
        files = await self.board_files(payload["board"]["view"], names=row.names)
        view = build_view(payload["controls"] if specs is None else specs)
        text = texts.clip((f"{header}\n" if header else "") + payload["content"])
        return {"content": text, "attachments": files, "view": view}

    async def send_board(self, interaction, row, game, state, player: str, header: str = "",
                         specs: list[list] | None = None, of_round=None) -> None:
        parts = await self.board_parts(row, game, state, player, header, specs, of_round)
        await interaction.followup.send(parts["content"], files=parts["attachments"],
                                        view=parts["view"] or discord.utils.MISSING, ephemeral=True)

    async def private_pressed(self, interaction: discord.Interaction, game_id: int, action: str,
                              stamp: str) -> None:
        """A button of a private board (in a DM, or an ephemeral message): the move is made and
        the same message is updated with the new board and fresh buttons. Done on a board
        that is not correct asks first; out-of-date buttons show the board as it is now."""
        async with self.answering(interaction, game_id):
            row = await self.flow.get_running(game_id)
            self.flow.check_seated(row, interaction.user.id)
            game, state, player = self.flow.game_of(row), self.flow.state_of(row), str(interaction.user.id)
            if player not in game.to_act(state):
                raise UserError("Your board is done for now; see the game's thread.")
            header, specs, of_round = "", None, None
            confirmed = action.startswith("!")
            move = action[1:] if confirmed else action
            if move == "~":
                pass
            elif stamp != ui.stamp(game, state, player):
                header = "That button was out of date; here is your board as it is now."
            else:
                question = None if confirmed else \
                    ui.adapter_for(row.game).confirm(game, state, player, move)
                if question:
                    header, specs = question, self.confirm_specs(row.id, game, state, player, move)
                else:
                    # In a DM the pressed message is the player's board: this answer updates it.
                    in_dm = interaction.guild_id is None
                    try:
                        done = await self.flow.act(game_id, interaction.user.id, "move", move,
                                                   stamp=stamp, in_place=in_dm)
                    except StaleControls as exc:
                        header = str(exc)
                        row = await self.flow.get_running(game_id)
                        state = self.flow.state_of(row)
                    else:
                        row, state, of_round = done.row, done.state, done.of_round
            parts = await self.board_parts(row, game, state, player, header, specs, of_round)
            await interaction.response.edit_message(content=parts["content"],
                                                    attachments=parts["attachments"],
                                                    view=parts["view"])

    async def acting_player(self, interaction: discord.Interaction, game_id: int):
        """(row, game, state, player) for a seated player who may act now, else UserError."""
        row = await self.flow.get_running(game_id)
        self.flow.check_seated(row, interaction.user.id)
        game = self.flow.game_of(row)
        state = self.flow.state_of(row)
        player = str(interaction.user.id)
        if player not in game.to_act(state):
            waiting = texts.name_list(list(game.awaited(state)), row.names)
            raise UserError(f"It is not your turn; waiting for {waiting}.")
        return row, game, state, player

    async def open_controls(self, interaction: discord.Interaction, game_id: int) -> None:
        """The presser's own choices, privately (also the fallback for closed DMs)."""
        async with self.answering(interaction, game_id):
            row, game, state, player = await self.acting_player(interaction, game_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.send_controls(interaction, row, game, state, player)

    async def send_controls(self, interaction, row, game, state, player: str, header: str = "") -> None:
        """The player's prompt, own board and controls as an ephemeral follow-up."""
        prompt = game.prompt(state, player)
        if prompt.kind == "private":
            await self.send_board(interaction, row, game, state, player, header)
            return
        specs, note = ui.adapter_for(row.game).player_controls(row.id, game, state, player, row.names)
        files = await self.board_files(game.view(state, player), names=row.names)
        text = (f"{header}\n" if header else "") + \
            f"**{texts.game_label(game.title, row.id)}**: {texts.with_names(prompt.text, row.names)}{note}"
        await interaction.followup.send(texts.clip(text), files=files,
                                        view=build_view(specs) or discord.utils.MISSING, ephemeral=True)

    # ---- looking ---------------------------------------------------------------------------

    @app_commands.command(name="board", description="Show a game's board (and what only you may see)")
    @app_commands.describe(game="Game number (when not in its thread)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def board(self, interaction: discord.Interaction, game: Optional[int] = None):
        async with self.answering(interaction, game):
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.resolve(interaction, game, require_running=False, require_seat=False)
            await check_may_see(self.bot.store, row, interaction.user.id)
            if row.status in ("lobby", "cancelled") or row.state is None:
                raise UserError(f"Game #{row.id} has no board (it {'has not started' if row.status == 'lobby' else 'was cancelled'}).")
            g = self.flow.game_of(row)
            state = self.flow.state_of(row)
            names = row.names
            public = g.view(state, None)
            views = [public]
            lines = [f"**{texts.game_label(g.title, row.id)}**"
                     + f" in <#{row.thread_id or row.channel_id}>"]
            player = str(interaction.user.id)
            if g.outcome(state) is not None:
                lines.append(self.flow.result_line(g, state, names))
            else:
                waiting = list(g.awaited(state))
                lines.append(f"Waiting for {texts.name_list(waiting, names)}.")
            if row.seat_of(interaction.user.id):
                own = g.view(state, player)
                if {k: v for k, v in own.items() if k != "viewer"} != \
                        {k: v for k, v in public.items() if k != "viewer"}:
                    views.append(own)
                    lines.append("The second image is your own view: only you see it.")
                prompt = g.prompt(state, player)
                if prompt is not None:
                    text = texts.with_names(prompt.text, names)
                    lines.append(f"Your turn: {text}" if player in g.awaited(state) else text)
            files = await self.board_files(*views, names=names)
            await interaction.followup.send(texts.clip("\n".join(lines)), files=files, ephemeral=True)

    @app_commands.command(name="games", description="Your games in this server and which wait on you")
    @app_commands.describe(status="active (default): running games and lobbies; finished: with their results; all")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def games(self, interaction: discord.Interaction,
                    status: Optional[Literal["active", "finished", "all"]] = None):
        async with self.answering(interaction):
            status = status or "active"
            rows = [] if status == "finished" else \
                await self.bot.store.games_of_user(interaction.user.id, interaction.guild_id)
            finished = [] if status == "active" else await self.bot.get_cog("History").finished_lines(
                interaction.user.id, interaction.guild_id, share=0.5 if status == "all" else 1.0)
            if not rows and not finished:
                raise UserError("You have no finished games here yet." if status == "finished" else
                                "You have no open games here. Start one with `/play`.")
            lines = []
            for row in rows:
                g = self.flow.game_of(row)
                others = [n for p, n in row.names.items() if p != str(interaction.user.id)]
                label = f"**{texts.game_label(g.title, row.id)}**"
                if others:
                    label += " with " + ", ".join(texts.display(n) for n in others)
                if row.status == "lobby":
                    lines.append(f"{label}: lobby, {len(row.seats)}/{g.max_players} seated.")
                    continue
                state = self.flow.state_of(row)
                waiting = g.awaited(state)
                if str(interaction.user.id) in waiting:
                    where = "⏳ **waits on you**"
                else:
                    where = f"waiting for {texts.name_list(list(waiting), row.names)}"
                timers = await self.bot.store.timers_of(row.id)
                deadline = timers.get("deadline")
                if deadline:
                    where += f", deadline {texts.timestamp(deadline.due_at)}"
                paused = self.flow.paused_until(timers, self.bot.now())
                if paused:   # (time away, bot.away)
                    where += f", ⏸️ clock paused until {texts.timestamp(paused)}"
                link = f" <#{row.thread_id or row.channel_id}>"  # no thread: played in the channel
                lines.append(f"{label}: {where}.{link}")
            if finished and rows:
                lines.append("**Finished:**")
            lines += finished
            await self.say(interaction, texts.clip("\n".join(lines)))

    # ---- leaving, draws, aborting ------------------------------------------------------------

    @app_commands.command(name="resign", description="Resign a game")
    @app_commands.describe(game="Game number (when not in its thread)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def resign(self, interaction: discord.Interaction, game: Optional[int] = None):
        await self._simple(interaction, game, "resign")

    @app_commands.command(name="draw", description="Offer, accept or decline a draw")
    @app_commands.describe(action="offer, accept or decline", game="Game number (when not in its thread)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def draw(self, interaction: discord.Interaction, action: Literal["offer", "accept", "decline"],
                   game: Optional[int] = None):
        await self._simple(interaction, game, action)

    async def draw_pressed(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        """Accept or Decline under a draw offer: for the players it waits on."""
        async with self.answering(interaction, game_id):
            row = await self.flow.get_running(game_id)
            self.flow.check_seated(row, interaction.user.id)
            offer = self.flow.game_of(row).view(self.flow.state_of(row), None)["draw_offer"]
            if offer is None:
                raise UserError("No draw offer is standing now.")
            if str(interaction.user.id) in offer["accepted"]:
                raise UserError("You have agreed to this draw already; it waits on the others."
                                + (" To withdraw your offer, use `/draw decline`." if op == "decline" else ""))
            await interaction.response.defer(ephemeral=True, thinking=True)
            done = await self.flow.act(game_id, interaction.user.id, op)
            await interaction.followup.send(done.message, ephemeral=True)

    async def _simple(self, interaction, game_id, op):
        async with self.answering(interaction, game_id):
            if op not in ("resign", "offer", "accept", "decline"):
                raise UserError("Choose offer, accept or decline.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.resolve(interaction, game_id)
            done = await self.flow.act(row.id, interaction.user.id, op)
            await interaction.followup.send(done.message, ephemeral=True)

    @app_commands.command(name="abort", description="End a game without a result (host or moderators)")
    @app_commands.describe(game="Game number (when not in its thread)")
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction, game: Optional[int] = None):
        async with self.answering(interaction, game):
            if interaction.guild_id is None:   # (a server command: the moderators are there)
                raise UserError("Use `/abort` in the game's thread.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.resolve(interaction, game, require_running=False, require_seat=False)
            row = await self.flow.abort(row.id, interaction.user.id, is_moderator(interaction))
            if row.state is None:   # a lobby: if it was a rematch request, that says so now
                await self.bot.get_cog("History").rematch_aborted(row, interaction.user.id)
            await interaction.followup.send(
                f"Game #{row.id} was {'aborted' if row.thread_id else 'cancelled'}.", ephemeral=True)

    # ---- help --------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="The rules of a game, with our rulings")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def rules(self, interaction: discord.Interaction, game: str):
        async with self.answering(interaction):
            if game not in engine.game_names():
                raise UserError("Choose a game from the list.")
            g = engine.get_game(game)
            text = getattr(g, "rules", "") or f"No rules text for {g.title} yet."
            for part in texts.chunks(text):
                await self.say(interaction, part)

    @app_commands.command(name="help", description="How to play with this bot")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def help(self, interaction: discord.Interaction):
        await self.say(interaction, texts.HELP)

    # ---- game option for commands ----------------------------------------------------------

    async def your_games(self, interaction: discord.Interaction, current: str):
        rows = await self.bot.store.games_of_user(interaction.user.id, interaction.guild_id)
        choices = []
        for row in rows:
            g = self.flow.game_of(row)
            others = [n for p, n in row.names.items() if p != str(interaction.user.id)]
            label = f"#{row.id} {g.title}" + (f" with {', '.join(others)}" if others else "")
            if current and current.lower() not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=row.id))
        return choices[:25]

    async def resolve(self, interaction: discord.Interaction, game_id: int | None, *,
                      require_running: bool = True, require_seat: bool = True):
        """The game the command is about (see GameFlow.resolve), checked to be running and to
        seat the caller unless told otherwise."""
        row = await self.flow.resolve(interaction.user.id, interaction.guild_id,
                                      interaction.channel_id, game_id)
        if require_running:
            self.flow.check_running(row)
        if require_seat:
            self.flow.check_seated(row, interaction.user.id)
        return row


for _command in (Controller.move, Controller.board, Controller.resign, Controller.draw, Controller.abort):
    _command.autocomplete("game")(Controller.your_games)
