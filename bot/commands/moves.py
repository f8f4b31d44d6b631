"""/move and the buttons and menus that make moves."""

from __future__ import annotations

import logging
from typing import Optional

import discord
from discord import app_commands

from .. import texts, ui
from ..components import build_view
from ..flow import StaleControls, UserError
from .common import EVERYWHERE

log = logging.getLogger("bot.commands")   # (one logger for the package, as before its split)


class Moves:
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

