"""Relativity's controls: "Pick a swap" under the board opens, for the player to act only, a menu
of the coins, then a menu of that coin's legal partners."""

from __future__ import annotations

import discord
from discord.ui import DynamicItem, Select

from engine.piecepack import VALUE_NAMES

from ..components import builds, controller, first_value
from ..errors import UserError
from . import Adapter, fits_notation, register, stamp


def partners(actions: list[str]) -> dict[str, list[str]]:
    """cell -> the cells it may swap with now, from actions written `d3#e3`."""
    out: dict[str, list[str]] = {}
    for action in actions:
        a, b = action.split("#")
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return {cell: sorted(cells) for cell, cells in sorted(out.items())}


class RelativityAdapter(Adapter):
    def turn_prompt(self, game, old, new, player):
        """The whole explanation at the start of each round; then only who plays which role
        and the swap that may not be undone."""
        view = game.view(new, None)
        if old is None or game.view(old, None)["round"] != view["round"]:
            return super().turn_prompt(game, old, new, player)
        role = next(r for r, p in view["roles"].items() if p == player)
        text = f"You are {role.capitalize()}."
        if view["last_swap"]:
            text += f" You may not reverse {'#'.join(view['last_swap'])}."
        return text

    def turn_controls(self, game_id, game, state, view, names):
        return [["mine", game_id, "Pick a swap"]] if game.to_act(state) else []

    def player_controls(self, game_id, game, state, player, names):
        actions = [str(a) for a in game.legal_actions(state, player)]
        if not actions:
            return [], ""
        coins = game.view(state, player)["coins"]
        options = [[cell, f"{cell}: {VALUE_NAMES[coins[cell]]}"] for cell in partners(actions)]
        return [["relcoin", game_id, stamp(game, state, player), options]], \
            "\nPick the coin to move, then the coin to swap it with."

    def matches(self, action, typed):
        a, b = action.split("#")
        return fits_notation(f"{a}#{b}", typed) or fits_notation(f"{b}#{a}", typed)

    def action_labels(self, game, state, player, actions):
        coins = game.view(state, player)["coins"]
        labels = []
        for action in actions:
            a, b = action.split("#")
            labels.append(f"{action}  ({VALUE_NAMES[coins[a]]} and {VALUE_NAMES[coins[b]]})")
        return labels


ADAPTER = RelativityAdapter()
register("relativity", ADAPTER)


@builds("relcoin")
class CoinSelect(DynamicItem[Select], template=r"pp:relc:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8})"):
    def __init__(self, game_id: int, stamp_: str, options: list | None = None, chosen: str | None = None):
        select_options = [discord.SelectOption(label=label, value=cell, default=cell == chosen)
                          for cell, label in options or []] or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"pp:relc:{game_id}:{stamp_}", options=select_options,
                                placeholder="Coin to move", row=0))
        self.game_id, self.stamp = game_id, stamp_

    @classmethod
    def from_spec(cls, game_id, stamp_, options, chosen=None):
        return cls(int(game_id), stamp_, options, chosen)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"])

    async def callback(self, interaction: discord.Interaction):
        cell = first_value(interaction)
        ctl = controller(interaction)

        def show_partners(row, game, state, player):
            actions = [str(a) for a in game.legal_actions(state, player)]
            if cell not in partners(actions):
                raise UserError("That coin cannot move now; choose one from the menu.")
            coins = game.view(state, player)["coins"]
            specs, _ = ADAPTER.player_controls(row.id, game, state, player, row.names)
            specs[0].append(cell)  # keep the coin menu, with this coin chosen
            specs.append(["relto", row.id, self.stamp, cell,
                          [[other, f"{other}: {VALUE_NAMES[coins[other]]}"]
                           for other in partners(actions).get(cell, [])]])
            return f"Swap **{cell}** ({VALUE_NAMES[coins[cell]]}) with:", specs

        await ctl.adapter_step(interaction, self.game_id, self.stamp, show_partners)


@builds("relto")
class PartnerSelect(DynamicItem[Select],
                    template=r"pp:relp:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<cell>[a-f][1-4])"):
    def __init__(self, game_id: int, stamp_: str, cell: str, options: list | None = None):
        select_options = [discord.SelectOption(label=label, value=other)
                          for other, label in options or []] or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"pp:relp:{game_id}:{stamp_}:{cell}", options=select_options,
                                placeholder=f"Swap {cell} with", row=1))
        self.game_id, self.stamp, self.cell = game_id, stamp_, cell

    @classmethod
    def from_spec(cls, game_id, stamp_, cell, options):
        return cls(int(game_id), stamp_, cell, options)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], match["cell"])

    async def callback(self, interaction: discord.Interaction):
        other = first_value(interaction)
        await controller(interaction).action_chosen(
            interaction, self.game_id, f"{self.cell}#{other}", self.stamp, edit=True)
