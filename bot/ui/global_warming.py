"""Global Warming's controls: die-face buttons (in the DM, or ephemeral), then in the thread step
buttons (pawn owner, colour and direction) for a number, or a tile menu, a destination menu and
Pass for the null."""

from __future__ import annotations

from typing import Mapping

from discord.ui import DynamicItem, Select

from engine.piecepack import VALUE_NAMES

from .. import texts
from ..errors import UserError
from ..components import DestinationMenu, SourceMenu, builds
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
        scores = game.scores(state)
        view = game.view(state, None)
        gone = set(view["drowned"]) | set(view["left"])   # (a draw leaves the others afloat)
        out = sorted((p for p in scores if p in gone), key=lambda p: scores[p])
        if not out:
            return ""
        return f"Out, in this order: {texts.name_list(out, names)}."


register("global-warming", GlobalWarmingAdapter())


@builds("gwtile")
class TileSelect(SourceMenu, DynamicItem[Select], template=r"pp:gwt:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8})"):
    """Null action, first step: which tile to move."""

    id_prefix, placeholder = "pp:gwt", "Null: tile to move"

    def next_step(self, src):
        def destinations(row, game, state, player):
            moves = tile_moves([str(a) for a in game.legal_actions(state, player)])
            if src not in moves:
                raise UserError("That tile cannot move now; choose one from the menu.")
            dests = moves[src]
            pages = [dests[i:i + SELECT_SIZE] for i in range(0, len(dests), SELECT_SIZE)][:5]
            specs = [["gwdest", row.id, self.stamp, src, n, page] for n, page in enumerate(pages)]
            tile = tile_names(game.view(state, None)).get(src, "tile")
            return f"Move the {tile} at **{src}** to:", specs
        return destinations


@builds("gwdest")
class DestinationSelect(DestinationMenu, DynamicItem[Select],
                        template=r"pp:gwd:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<src>-?\d+,-?\d+):(?P<n>\d)"):
    """Null action, second step: the empty position the tile goes to."""

    id_prefix, placeholder = "pp:gwd", "Empty position"
