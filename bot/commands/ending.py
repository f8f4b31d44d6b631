"""/resign, /draw (and its buttons), /abort."""

from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from ..flow import UserError
from .common import EVERYWHERE, is_moderator


class Ending:
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

