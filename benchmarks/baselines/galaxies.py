"""The simple Galaxies player of issue 24: greedy targets, from its seat's view only.

Every target is judged by the final score it leads to (its own systems around its hole minus
the other's) if the holes took their remaining steps with no more cards. A card is chosen for
the best target it has now (the other's card is not guessed); the target is the best one when
the card resolves.
"""

from __future__ import annotations

from engine.galaxies import KINDS, targets

from computer.base import ComputerPlayer
from computer.galaxies import _effect, project


def _value(holes, stacks, turn, players, me) -> float:
    holes, stacks = project(holes, stacks, turn, players)
    value = 0.0
    for (x, y), n in stacks.items():
        for p, (hx, hy) in holes.items():
            if abs(hx - x) <= 1 and abs(hy - y) <= 1:
                value += n if p == me else -n
    return value


def _best(view, me, kind, rng):
    """(value, target text) of the best target of `kind` (pass included) for `me`."""
    holes = {p: (h["x"], h["y"]) for p, h in view["holes"].items()}
    stacks = {(s["x"], s["y"]): s["count"] for s in view["stacks"]}
    d = {"holes": {p: list(h) for p, h in holes.items()},
         "stacks": [[x, y, [me] * n] for (x, y), n in sorted(stacks.items())],
         "hands": {me: list(view["hand"])}}
    options = [str(a) for a in targets(d, me, kind)] + ["pass"]
    scored = [(_value(holes, _effect(stacks, me, t), view["turn"], view["players"], me), t)
              for t in rng.shuffled(options)]
    return max(scored, key=lambda vt: vt[0])


class BaselineGalaxies(ComputerPlayer):
    game_name = "galaxies"
    level = "baseline"

    def decide(self, view, rng):
        me = view["viewer"]
        if view["phase"] == "commit":
            kinds = [k for k in KINDS if k in view["hand"]]
            scored = [(_best(view, me, k, rng)[0], k) for k in rng.shuffled(kinds)]
            return max(scored, key=lambda vk: vk[0])[1]
        return _best(view, me, view["reveal"]["cards"][me], rng)[1]


def baseline(seed: int) -> BaselineGalaxies:
    return BaselineGalaxies(seed)
