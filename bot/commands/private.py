"""A player's own board and controls, privately (in a DM, or an ephemeral message)."""

from __future__ import annotations

import discord

from .. import texts, ui
from ..components import build_view
from ..flow import StaleControls, UserError


class PrivateBoards:
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

