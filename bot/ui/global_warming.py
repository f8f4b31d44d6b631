"""Global Warming's controls: die-face buttons (in the DM, or ephemeral), then in the thread step
buttons (pawn owner, colour and direction) for a number, or a tile menu, a destination menu and
Pass for the null."""

from __future__ import annotations

from typing import Mapping

import discord
from discord.ui import DynamicItem, Select

from engine.piecepack import VALUE_NAMES

from .. import texts
from ..errors import UserError
from ..components import builds, controller, first_value
from . import SELECT_SIZE, Adapter, choice_specs, register, stamp

FACE_LABELS = {value: name.capitalize() for value, name in VALUE_NAMES.items()}
PAWN_MARKS = {"red": "🔴", "black": "⚫", "green": "🟢", "blue": "🔵"}
ARROWS = {"up": "↑", "down": "↓", "left": "←", "right": "→"}


def step_label(action: str, owners: Mapping[str, str]) -> str:
    """`black down` -> `bob ⚫ ↓` (whose pawn, its colour, the direction)."""
    colour, direction = action.split()
    owner = owners.get(colour, colour)
    return f"{owner} {PAWN_MARKS.get(colour, '')} {ARROWS.get(direction, direction)}".replace("  ", " ")


def pawn_owners(view: Mapping, names: Mapping[str, str]) -> dict[str, str]:
    """pawn colour -> its player's name."""
    return {colour: names.get(player, player) for player, colour in view.get("colours", {}).items()}


def tile_moves(actions: list[str]) -> dict[str, list[str]]:
    """source position -> destination positions, from actions written `2,3>6,3`."""
    out: dict[str, list[str]] = {}
    for action in actions:
        if ">" in action:
            src, dst = action.split(">")
            out.setdefault(src, []).append(dst)
    return out


def tile_names(view: Mapping) -> dict[str, str]:
    """position `x,y` -> the tile there, e.g. `ace of arms`."""
    return {f"{t['x']},{t['y']}": f"{VALUE_NAMES[t['value']]} of {t['suit']}"
            for t in view.get("island", [])}


class GlobalWarmingAdapter(Adapter):
    option_hints = ["variant=standard", "variant=orthogonal", "variant=diagonal"]
    deadline_scope = "turn's choice and each action"

    def secret_round(self, game, state):
        return game.view(state, None)["turn"]

    def continues(self, game, old, new, player):
        was, now = game.view(old, None), game.view(new, None)
        return (was["phase"] == now["phase"] == "act" and was["turn"] == now["turn"]
                and was["actor"] == now["actor"] == player)

    def players_in(self, game, view):
        return [p for p in super().players_in(game, view) if p not in view["drowned"]]

    def turn_controls(self, game_id, game, state, view, names):
        to_act = game.to_act(state)
        if not to_act:
            return []
        if view.get("phase") == "commit":
            return [["mine", game_id, "Open my private controls"]]
        (actor,) = to_act
        return self.act_controls(game_id, game, state, actor, view, names)

    def act_controls(self, game_id, game, state, player, view, names):
        st = stamp(game, state, player)
        actions = [str(a) for a in game.legal_actions(state, player)]
        if "pass" in actions or any(">" in a for a in actions):
            tiles = tile_names(view)
            sources = [[src, f"{src}: {tiles.get(src, '?')}"]
                       for src in sorted(tile_moves(actions))][:SELECT_SIZE]
            specs = [["gwtile", game_id, st, sources]] if sources else []
            return specs + [["act", game_id, st, "pass", "Pass (move no tile)"]]
        owners = pawn_owners(view, names)
        return [["act", game_id, st, a, step_label(a, owners)] for a in actions][:20]

    def player_controls(self, game_id, game, state, player, names):
        actions = [str(a) for a in game.legal_actions(state, player)]
        if not actions:
            return [], ""
        prompt = game.prompt(state, player)
        own = game.view(state, player)
        if prompt.kind == "secret":
            return choice_specs(game_id, stamp(game, state, player), actions, labels=FACE_LABELS,
                                round_=own["turn"], chosen=own["own_commit"]), ""
        return self.act_controls(game_id, game, state, player, own, names), ""

    def describe_action(self, game, state, player, action):
        if action in FACE_LABELS:
            return f"**{FACE_LABELS[action]}**"
        if ">" in action:
            src, dst = action.split(">")
            tile = tile_names(game.view(state, None)).get(src)
            if tile:
                return f"`{action}` (the {tile} to {dst})"
        return f"`{action}`"

    def standings(self, game, state, names):
        """The order in which players went out (the winner is said already)."""
        outcome = game.outcome(state)
        scores = game.scores(state)
        out = sorted((p for p in scores if p not in outcome.winners), key=lambda p: scores[p])
        if not out:
            return ""
        return f"Out, in this order: {texts.name_list(out, names)}."


register("global-warming", GlobalWarmingAdapter())


@builds("gwtile")
class TileSelect(DynamicItem[Select], template=r"pp:gwt:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8})"):
    """Null action, first step: which tile to move (on the public board; answers privately)."""

    def __init__(self, game_id: int, stamp_: str, options: list | None = None):
        select_options = [discord.SelectOption(label=label[:100], value=src)
                          for src, label in options or []] or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"pp:gwt:{game_id}:{stamp_}", options=select_options,
                                placeholder="Null: tile to move"))
        self.game_id, self.stamp = game_id, stamp_

    @classmethod
    def from_spec(cls, game_id, stamp_, options):
        return cls(int(game_id), stamp_, options)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"])

    async def callback(self, interaction: discord.Interaction):
        src = first_value(interaction)

        def destinations(row, game, state, player):
            moves = tile_moves([str(a) for a in game.legal_actions(state, player)])
            if src not in moves:
                raise UserError("That tile cannot move now; choose one from the menu.")
            dests = moves[src]
            pages = [dests[i:i + SELECT_SIZE] for i in range(0, len(dests), SELECT_SIZE)][:5]
            specs = [["gwdest", row.id, self.stamp, src, n, page] for n, page in enumerate(pages)]
            tile = tile_names(game.view(state, None)).get(src, "tile")
            return f"Move the {tile} at **{src}** to:", specs

        await controller(interaction).adapter_step(interaction, self.game_id, self.stamp,
                                                   destinations, new_message=True)


@builds("gwdest")
class DestinationSelect(DynamicItem[Select],
                        template=r"pp:gwd:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<src>-?\d+,-?\d+):(?P<n>\d)"):
    def __init__(self, game_id: int, stamp_: str, src: str, n: int, dests: list | None = None):
        select_options = [discord.SelectOption(label=d, value=d) for d in dests or []] \
            or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"pp:gwd:{game_id}:{stamp_}:{src}:{n}", options=select_options,
                                placeholder="Empty position" + (f" (more, {n + 1})" if n else "")))
        self.game_id, self.stamp, self.src = game_id, stamp_, src

    @classmethod
    def from_spec(cls, game_id, stamp_, src, n, dests):
        return cls(int(game_id), stamp_, src, int(n), dests)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], match["src"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction):
        dst = first_value(interaction)
        await controller(interaction).action_chosen(
            interaction, self.game_id, f"{self.src}>{dst}", self.stamp, edit=True)
