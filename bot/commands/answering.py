"""Every interaction gets an answer: user mistakes privately, unexpected errors with an
apology; the controls' single entry; the game a command is about."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from .. import delivery, texts
from ..components import DYNAMIC_ITEMS, component_ids, out_of_phase, phase
from ..flow import UserError
from ..rendering import board_file
from .common import APOLOGY, UNKNOWN_CONTROLS
from .tree import BadOptions

log = logging.getLogger("bot.commands")   # (one logger for the package, as before its split)


class Answering:
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
        the id says everything), or say that those controls are not in use any more. It waits
        for a turn on the loop, as commands do (bot.commands.tree.Turns)."""
        async with self.bot.tree.turns.turn(), self.answering(interaction):
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
            board = {"view": view, "names": names}
            try:
                png = await self.bot.renderer.png(board)
            except Exception:
                log.exception("could not draw a board of game %s", view.get("game"))
                continue
            name = delivery.BOARD_FILE if n == 0 else f"board-{n + 1}.png"
            files.append(board_file(png, board, name))
        return files

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

