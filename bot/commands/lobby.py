"""/play and the lobby: its buttons, computer players, the game's thread."""

from __future__ import annotations

import asyncio
import logging
from typing import Optional

import discord
from discord import app_commands

import engine

from .. import computers as bot_computers
from .. import texts, ui
from ..components import build_view
from ..flow import UserError, parse_options
from ..storage import Conflict
from .common import COMPUTER_CHOICES, DEADLINE_CHOICES, GAME_CHOICES, is_moderator

log = logging.getLogger("bot.commands")   # (one logger for the package, as before its split)


class Lobby:
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

