"""A Game Played by Galaxies' controls: card buttons for the secret play (in the DM, or
ephemeral), then in the thread the resolving owner's target: cell buttons (System) or cell menus
(Form), or for Merge and Shift a stack menu and then a menu of where it goes; Pass always."""

from __future__ import annotations

from typing import Mapping

from discord.ui import DynamicItem, Select

from engine.galaxies import CARD_NAMES

from .. import texts
from ..components import DestinationMenu, SourceMenu, builds
from ..errors import UserError
from . import SELECT_SIZE, Adapter, choice_specs, register, stamp

PASS_LABEL = "Pass (no effect)"


def moves_by_source(actions: list[str]) -> dict[str, list[str]]:
    """source cell -> destination cells, from actions written `3,1>4,1`."""
    out: dict[str, list[str]] = {}
    for action in actions:
        if ">" in action:
            src, dst = action.split(">")
            out.setdefault(src, []).append(dst)
    return out


def cell_order(cell: str) -> tuple[int, int]:
    """Sort key of a cell `x,y`: by column then row, as numbers (`9,0` before `10,0`)."""
    x, y = map(int, cell.split(","))
    return x, y


def stack_sizes(view: Mapping) -> dict[str, int]:
    """cell `x,y` -> the number of systems in the stack there."""
    return {f"{s['x']},{s['y']}": s["count"] for s in view.get("stacks", [])}


def stack_label(cell: str, sizes: Mapping[str, int]) -> str:
    n = sizes.get(cell)
    return f"{cell}: stack of {n}" if n else cell


def distance(cell: str, hole: Mapping) -> int:
    """Steps (diagonals too) from the cell `x,y` to the hole."""
    x, y = map(int, cell.split(","))
    return max(abs(x - hole["x"]), abs(y - hole["y"]))


class GalaxiesAdapter(Adapter):
    deadline_scope = "turn's card and each target"

    def secret_round(self, game, state):
        return game.view(state, None)["turn"]

    def turn_controls(self, game_id, game, state, view, names):
        to_act = game.to_act(state)
        if not to_act:
            return []
        if view.get("phase") == "commit":
            return [["mine", game_id, "Open my private controls"]]
        (actor,) = to_act
        return self.target_controls(game_id, game, state, actor, view)

    def target_controls(self, game_id, game, state, player, view):
        """The resolving owner's targets: only legal ones, and Pass."""
        st = stamp(game, state, player)
        actions = [str(a) for a in game.legal_actions(state, player) if str(a) != "pass"]
        pass_button = [["act", game_id, st, "pass", PASS_LABEL]]
        moves = moves_by_source(actions)
        if moves:
            sizes = stack_sizes(view)
            sources = [[src, stack_label(src, sizes)] for src in sorted(moves, key=cell_order)][:SELECT_SIZE]
            return [["galsrc", game_id, st, sources]] + pass_button
        # System (up to 8 cells: buttons) or Form (the area's cells: menus of 25, the cells
        # nearest the player's own hole first)
        hole = view["holes"][player]
        actions.sort(key=lambda cell: distance(cell, hole))
        specs = choice_specs(game_id, st, actions, what="Form: cells", first_note=", nearest your hole")
        if specs and specs[0][0] == "pick":
            specs = specs[:4]        # the fifth row holds Pass (the Form area fills 4 menus)
        return specs + pass_button

    def player_controls(self, game_id, game, state, player, names):
        actions = [str(a) for a in game.legal_actions(state, player)]
        if not actions:
            return [], ""
        own = game.view(state, player)
        if game.prompt(state, player).kind == "secret":
            return choice_specs(game_id, stamp(game, state, player), actions, labels=CARD_NAMES,
                                round_=own["turn"], chosen=own["own_commit"]), ""
        return self.target_controls(game_id, game, state, player, own), ""

    def describe_action(self, game, state, player, action):
        if action in CARD_NAMES:
            return f"**{CARD_NAMES[action]}**"
        if action == "pass":
            return "`pass` (no effect)"
        if ">" in action:
            src, dst = action.split(">")
            return f"`{action}` (the stack at {src} to {dst})"
        return f"`{action}` (a system there)"

    def standings(self, game, state, names):
        scores = game.scores(state)
        text = "Score: " + ", ".join(f"{texts.display(names.get(p, p))} {n}"
                                     for p, n in scores.items()) + "."
        outcome = game.outcome(state)
        if outcome is not None and outcome.draw and "tie" in outcome.reason:
            text += " A tie: as the designer says, play another game (`/play game:galaxies`)!"
        return text


register("galaxies", GalaxiesAdapter())


@builds("galsrc")
class StackSelect(SourceMenu, DynamicItem[Select], template=r"pp:gls:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8})"):
    """Merge or Shift, first step: which stack."""

    id_prefix, placeholder = "pp:gls", "Stack to move"

    def next_step(self, src):
        def destinations(row, game, state, player):
            moves = moves_by_source([str(a) for a in game.legal_actions(state, player)])
            if src not in moves:
                raise UserError("That stack cannot move now; choose one from the menu.")
            dests = moves[src]
            sizes = stack_sizes(game.view(state, None))
            pages = [dests[i:i + SELECT_SIZE] for i in range(0, len(dests), SELECT_SIZE)][:5]
            specs = [["galdst", row.id, self.stamp, src, n, [[d, stack_label(d, sizes)] for d in page]]
                     for n, page in enumerate(pages)]
            return f"Move the {stack_label(src, sizes).split(': ')[-1]} at **{src}** to:", specs
        return destinations


@builds("galdst")
class WhereSelect(DestinationMenu, DynamicItem[Select],
                  template=r"pp:gld:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<src>-?\d+,-?\d+):(?P<n>\d)"):
    """Merge or Shift, second step: where the chosen stack goes."""

    id_prefix, placeholder = "pp:gld", "Where it goes"
