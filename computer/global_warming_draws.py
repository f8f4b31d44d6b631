"""How a Global Warming computer answers a draw offer, from its seat's view only.

A draw by agreement needs everyone still afloat, so each judges its own chance of being the
last survivor against a fair share (1 / pawns afloat): clearly below it (by more than `EVEN`),
a draw is worth more than playing on, and it accepts. An even game it plays on: nothing stalls
in Global Warming (a tile sinks every turn), so a draw offered at the start would only let a
person end any game against it at once. easy reads the chance off
the tiles under the pawns now; strong plays this turn and the next out in worlds drawn from
its view, everyone playing as the easy player does but without pushing anyone (pushes made
32 playouts too unsteady to tell an even game from a lost one), and reads it off the tiles
there.
The reasons it gives speak only of what every player sees: the tiles and the line's coins.
"""

from __future__ import annotations

from engine import Rng

from .global_warming_board import GAME, Board, determinise

EVEN = 0.05     # a chance within 5 points of a fair share counts as even (the strong look's
                # estimate varies by about 2 points from one seed to another)
TURNS = 2       # the strong look: this turn and the next
PLAYOUTS = 32   # ... played out so many times (0.1-0.3 s)


def standing(board: Board) -> dict[str, float]:
    """{player afloat: chance to outlast the others} as the tiles under the pawns show: each
    weighs how unlikely its tile is to sink this turn, and half as much the next."""
    weight = {}
    for player, pos in board.pawns.items():
        code = board.tiles[pos]
        weight[player] = max(0.05, 1 - board.now.get(code, 0.0) - 0.5 * board.next.get(code, 0.0))
    total = sum(weight.values())
    return {p: w / total for p, w in weight.items()}


def playout_chance(view, rng: Rng, playouts: int, policy, turns: int = TURNS) -> float:
    """The viewer's chance to be the last survivor: the next `turns` turns played out in
    worlds drawn from the view (everyone as `policy`, the easy player without pushes: no face
    of this turn is known, its own included, so the answer does not tell what it chose), then
    `standing` there."""
    me = view["viewer"]
    total = 0.0
    for _ in range(playouts):
        state = determinise(dict(view, committed=[], own_commit=None), rng)
        stop = state["data"]["turn"] + turns
        while GAME.outcome(state) is None and state["data"]["turn"] < stop:
            player = GAME.awaited(state)[0]
            state = GAME.apply(state, player, policy.decide(GAME.view(state, player), rng))
        outcome = GAME.outcome(state)
        if outcome is not None:
            total += me in outcome.winners
        else:
            total += standing(Board.from_view(GAME.view(state, me))).get(me, 0.0)
    return total / playouts


def answer(view, chance: float | None) -> tuple[bool, str]:
    """Accept or not, and why. `chance`: the viewer's chance to outlast the others by the
    strong look, or None for the quick one (`standing` now)."""
    me = view["viewer"]
    board = Board.from_view(view)
    if me not in board.pawns:
        return True, "I accept: my pawn has drowned already."
    if chance is None:
        chance = standing(board)[me]
    fair = 1 / len(board.pawns)
    danger = {p: (board.now.get(board.tiles[pos], 0.0), board.next.get(board.tiles[pos], 0.0))
              for p, pos in board.pawns.items()}
    others = [p for p in board.pawns if p != me]
    if chance < fair - EVEN:
        if danger[me][0] > 0:
            return True, "I accept: my pawn stands on a tile that may sink this turn."
        who = "you stand" if len(others) == 1 else "the others stand"
        return True, f"I accept: as I see it {who} safer than I do."
    if chance <= fair + EVEN:
        # (even is not enough: the island sinks a tile every turn, nothing stalls)
        who = "neither of us is safer than the other" if len(others) == 1 else \
            "none of us is safer than the others"
        return False, f"No thanks: as I see it {who}, and the sea will decide soon enough."
    if danger[me] == (0.0, 0.0):
        for when, k in (("this turn", 0), ("next turn", 1)):
            exposed = [p for p in others if danger[p][k] > 0]
            if exposed:
                return False, (f"No thanks: my pawn stands on safe ground and "
                               f"{_whose(view, exposed, len(others))} may sink {when}.")
    return False, (f"No thanks: I like my chances of staying afloat longest: about "
                   f"{round(100 * chance)}%, where a fair share is {round(100 * fair)}%.")


def _whose(view, players, others: int) -> str:
    if others == 1:
        return "yours"
    names = [f"the {view['colours'][p]} pawn's" for p in players]
    tiles = " and ".join(names)
    return f"{tiles} tile" + ("s" if len(names) > 1 else "")

