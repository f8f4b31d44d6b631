"""`/tournament` (issue 25): create, start, pause, resume, remove, end, standings; and the
buttons under the sign-up post (bot.ui.tournament). The course itself is bot.flow.tournament's."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from .. import texts
from ..components import build_view
from ..flow import UserError, parse_options
from ..flow.tournament import TournamentFlow
from ..flow.tournament_rounds import ROUND_DEADLINES, signup_controls, signup_text
from ..rendering import board_file
from ..storage import Conflict
from ..tournaments import pairing
from ..ui import tournament as _buttons  # noqa: F401  (registers the sign-up buttons)
from .common import DEADLINE_CHOICES, GAME_CHOICES

log = logging.getLogger("bot.tournaments")

FORMAT_CHOICES = [app_commands.Choice(name=label, value=value) for value, label in (
    ("swiss", "Swiss (Relativity, Galaxies)"), ("round-robin", "round robin (Relativity, Galaxies)"),
    ("tables", "tables of 3-4 (Global Warming)"), ("duplicate", "duplicate (Pack Solitaire, BYOP1)"))]
assert {c.value for c in FORMAT_CHOICES} == set(pairing.FORMATS)
LIVE = ("signup", "running", "paused", "finished")   # (not called off)
ROUND_DEADLINE_CHOICES = [app_commands.Choice(name=("no round deadline" if key == "none"
                                                    else f"{key[:-1]} days per round"), value=key)
                          for key in ROUND_DEADLINES]


def may_organise(interaction: discord.Interaction) -> bool:
    """A moderator of events: Manage Server, Manage Events (or an administrator)."""
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.manage_events or perms.administrator))


class Tournaments(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Tournaments in this server",
                                    guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.flow = TournamentFlow(bot.flow, self.create_thread)
        self.flow.wake = bot.wake
        self.flow.changed = self.refresh
        bot.flow.ended_hooks.append(self.flow.game_ended)
        bot.due_work.append(self.flow.run_due)

    @property
    def controller(self):
        return self.bot.controller

    async def create_thread(self, row, name: str, private: bool) -> int | None:
        if private:   # (a duplicate deal: the player's alone, as a daily puzzle's, who is added)
            return await self.bot.get_cog("Daily").private_thread(
                replace(row, host_id=int(row.player_ids[0])), name)
        return await self.controller.create_thread(row, name)

    # ---- the commands ------------------------------------------------------------------------

    @tournament.command(name="create", description="Open a tournament in this channel, with sign-up buttons")
    @app_commands.describe(game="Which game", format="How players are paired (the game decides which fit)",
                           rounds="Number of rounds (default: by the number of players)",
                           deadline="Time for each move of its games",
                           round_deadline="When a round ends at the latest (games still running are settled)",
                           start_in_hours="Start by itself after this many hours (default: when you press Start)",
                           options="Game options as key=value pairs")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES, deadline=DEADLINE_CHOICES,
                          round_deadline=ROUND_DEADLINE_CHOICES)
    async def create(self, interaction: discord.Interaction, game: str, format: Optional[str] = None,
                     rounds: Optional[app_commands.Range[int, 1, 30]] = None,
                     deadline: Optional[str] = None, round_deadline: Optional[str] = None,
                     start_in_hours: Optional[app_commands.Range[int, 1, 720]] = None,
                     options: Optional[str] = None):
        async with self.controller.answering(interaction):
            if getattr(interaction.channel, "type", None) not in (discord.ChannelType.text, None):
                raise UserError("Use `/tournament create` in a text channel: its games get threads there.")
            t = await self.flow.create(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                organiser_id=interaction.user.id, game=game, fmt=format, options=parse_options(options),
                rounds=rounds, deadline=deadline, round_deadline=round_deadline,
                starts_in_hours=start_in_hours)
            response = await interaction.response.send_message(
                signup_text(t), view=build_view(signup_controls(t)))
            message_id = await self.controller.response_message_id(interaction, response)
            if message_id is not None:
                try:
                    await self.bot.store.update_tournament(t.id, t.version, now=self.bot.now(),
                                                           changes={"message_id": message_id})
                except Conflict:
                    pass   # (changed at once: the post is then only refreshed on presses)

    @tournament.command(name="start", description="Start a tournament now (organiser or moderators)")
    @app_commands.describe(tournament="Tournament number (default: this channel's)")
    async def start(self, interaction: discord.Interaction, tournament: Optional[int] = None):
        await self._organise(interaction, tournament, "start")

    @tournament.command(name="pause", description="No new round starts until resumed (games in play go on)")
    @app_commands.describe(tournament="Tournament number (default: this channel's)")
    async def pause(self, interaction: discord.Interaction, tournament: Optional[int] = None):
        await self._organise(interaction, tournament, "pause")

    @tournament.command(name="resume", description="Resume a paused tournament")
    @app_commands.describe(tournament="Tournament number (default: this channel's)")
    async def resume(self, interaction: discord.Interaction, tournament: Optional[int] = None):
        await self._organise(interaction, tournament, "resume")

    @tournament.command(name="end", description="End a tournament now: the round in play is settled, the standings final")
    @app_commands.describe(tournament="Tournament number (default: this channel's)")
    async def end(self, interaction: discord.Interaction, tournament: Optional[int] = None):
        await self._organise(interaction, tournament, "end")

    @tournament.command(name="remove", description="Remove a player: their remaining games are forfeits")
    @app_commands.describe(player="Who", tournament="Tournament number (default: this channel's)")
    async def remove(self, interaction: discord.Interaction, player: discord.User,
                     tournament: Optional[int] = None):
        await self._organise(interaction, tournament, "remove", player.id)

    @tournament.command(name="standings", description="A tournament's standings now")
    @app_commands.describe(tournament="Tournament number (default: this channel's)")
    async def standings(self, interaction: discord.Interaction, tournament: Optional[int] = None):
        async with self.controller.answering(interaction):
            tid = await self.resolve(interaction, tournament, ("running", "paused", "finished"))
            await self.show_standings(interaction, tid)

    async def show_standings(self, interaction: discord.Interaction, tid: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        t, text, board = await self.flow.standings_now(tid)
        if t.status == "signup":
            raise UserError(f"Tournament #{t.id} has not started yet.")
        files = []
        try:
            files = [board_file(await self.bot.renderer.png(board), board, "standings.png")]
        except Exception:   # (the text says it all; the image is a courtesy)
            log.exception("could not draw the standings of tournament %s", tid)
        await interaction.followup.send(texts.clip(text), files=files, ephemeral=True)

    async def resolve(self, interaction: discord.Interaction, tid: int | None, statuses) -> int:
        """The tournament meant: the `tournament:` option, else this channel's newest one
        (of `statuses`; in a thread, its channel's: a game's thread), else the server's only
        one (or only one not over)."""
        if tid is not None:
            t = await self.flow.get(tid)
            if t.guild_id != interaction.guild_id:
                raise UserError(f"Tournament #{tid} is in another server.")
            return t.id
        found = await self.bot.store.tournaments_in(interaction.guild_id, statuses)
        if not found:
            # none in those states: the one there is (if any), whose own check then says why
            # not ("is not paused", "has not started yet") rather than that there is none
            found = await self.bot.store.tournaments_in(interaction.guild_id, LIVE)
        channels = {interaction.channel_id, getattr(interaction.channel, "parent_id", None)}
        here = [t for t in found if t.channel_id in channels]
        if here:
            return here[0].id
        live = [t for t in found if t.status != "finished"]
        if len(found) == 1 or len(live) == 1:
            return (live or found)[0].id
        if not found:
            raise UserError("There is no tournament here. `/tournament create` opens one.")
        raise UserError("There are several tournaments in this server ("
                        + ", ".join(f"#{t.id}" for t in found[:10]) + "): say which with `tournament:`.")

    async def _organise(self, interaction: discord.Interaction, tid: int | None, op: str,
                        who: int | None = None) -> None:
        async with self.controller.answering(interaction):
            statuses = {"start": ("signup",), "resume": ("paused",)}.get(op, ("signup", "running", "paused"))
            tid = await self.resolve(interaction, tid, statuses)
            await interaction.response.defer(ephemeral=True, thinking=True)
            user, moderator = interaction.user.id, may_organise(interaction)
            if op == "start":
                t = await self.flow.start(tid, user, moderator)
                said = f"Tournament #{t.id} has started: round 1 is paired."
            elif op == "pause":
                t = await self.flow.pause(tid, user, moderator)
                said = f"Tournament #{t.id} is paused."
            elif op == "resume":
                t = await self.flow.resume(tid, user, moderator)
                said = f"Tournament #{t.id} goes on."
            elif op == "end":
                t = await self.flow.end(tid, user, moderator)
                said = f"Tournament #{t.id} is over." if t.status == "finished" else f"Tournament #{t.id} was called off."
            else:
                t = await self.flow.remove(tid, user, moderator, who)
                said = f"{texts.mention(str(who))} is out of tournament #{t.id}."
            await interaction.followup.send(said, ephemeral=True)
            await self.refresh(t.id)

    # ---- the sign-up post's buttons -----------------------------------------------------------

    async def pressed(self, interaction: discord.Interaction, tid: int, op: str) -> None:
        async with self.controller.answering(interaction):
            if op == "standings":
                await self.show_standings(interaction, tid)
                return
            user = interaction.user
            if op == "join":
                t = await self.flow.join(tid, user.id, user.display_name)
                said = f"You are signed up for tournament #{t.id}."
            elif op == "leave" and (t := await self.flow.get(tid)).status in ("running", "paused"):
                # withdrawing cannot be undone: asked once more, privately (of a player only)
                self.flow.check_playing(t, user.id)
                await self.controller.say(
                    interaction, f"Leaving tournament #{tid} now withdraws you for good: your games in "
                    "play are forfeits and you are not paired again. Press **Withdraw** to confirm.",
                    view=build_view([["tour", tid, "withdraw"]]))
                return
            elif op in ("leave", "withdraw"):   # (its games are resigned: that takes a moment)
                await interaction.response.defer(ephemeral=True, thinking=True)
                t = await self.flow.leave(tid, user.id)
                said = (f"You have left tournament #{t.id}." if t.status == "signup" else
                        f"You have withdrawn from tournament #{t.id}; your remaining games are forfeits.")
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
                t = await self.flow.start(tid, user.id, may_organise(interaction))
                said = f"Tournament #{t.id} has started: round 1 is paired."
            await self.controller.say(interaction, said)
            await self.refresh(t.id)

    async def refresh(self, tid: int) -> None:
        """The sign-up post shows the tournament as it stands (best effort: the post only
        describes; everything it offers is checked when pressed)."""
        t = await self.bot.store.get_tournament(tid)
        if t is None or t.message_id is None:
            return
        view = build_view(signup_controls(t))
        try:
            with discord.http.handle_message_parameters(content=signup_text(t), view=view) as params:
                await self.bot.http.edit_message(t.channel_id, t.message_id, params=params)
        except discord.HTTPException as exc:
            log.info("could not refresh the sign-up post of tournament %s: %s", tid, exc)
