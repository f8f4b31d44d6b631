"""The benchmark's simple Relativity player (issue 24): a two-ply search from its seat's view.

It tries each of its swaps and each answer of the opponent (minimax over the two plies), and
scores the position then reached, where it is to move again: trophies (100 each), plus 60 if
it could complete a molecule at once, minus 40 if only the opponent could. So it takes a
trophy when it can, never hands one over that a single reply would take, and keeps the
opponent from a molecule in one swap; ties are broken at random (seeded). It uses the
computer players' fast model of the rules (computer.relativity) but none of their search.
"""

from __future__ import annotations

import hashlib

from computer.relativity import Position, determinise, notation
from engine import Rng
from engine.relativity import OTHER_ROLE


class TwoPly:
    def __init__(self, seed: int):
        self.seed = seed

    def choose(self, view) -> str:
        key = f"baseline|{self.seed}|{view['viewer']}|{view['move_number']}"
        rng = Rng(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))
        pos = Position(determinise(view, rng))
        me = pos.mover()
        best, best_moves = None, []
        for move in rng.shuffled(pos.moves()):
            value = self._after_mine(pos, move, me)
            if best is None or value > best:
                best, best_moves = value, [move]
            elif value == best:
                best_moves.append(move)
        return notation(best_moves[0])

    def _after_mine(self, pos: Position, move, me: int) -> float:
        saved = pos.play(move)
        try:
            if pos.winner is not None:
                return 10_000 if pos.winner == me else -10_000
            if pos.mover() == me:   # a new round gave the move back: score it as it stands
                return self._score(pos, me)
            worst = None
            for reply in pos.moves():
                inner = pos.play(reply)
                value = (10_000 if pos.winner == me else -10_000) if pos.winner is not None \
                    else self._score(pos, me)
                pos.undo(inner)
                if worst is None or value < worst:
                    worst = value
            return worst
        finally:
            pos.undo(saved)

    @staticmethod
    def _score(pos: Position, me: int) -> float:
        score = 100 * (pos.counts[me] - pos.counts[1 - me])
        if pos.mover() != me:
            return score
        if pos.threats(pos.role):
            return score + 60
        other = OTHER_ROLE[pos.role]
        return score - 40 if pos.threats(other) else score


def baseline(seed: int) -> TwoPly:
    return TwoPly(seed)
