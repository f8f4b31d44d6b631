"""Relativity's alpha-beta search for the strong player (and the draw judgement's short look):
negamax with iterative deepening, a transposition table and history ordering over the fast
model of computer/relativity_eval.py, bounded by a node count (deterministic: no clock)."""

from __future__ import annotations

from engine import Rng

from .relativity_eval import BIT, DEFAULT_WEIGHTS, MOLECULE_MASKS, WIN, Position, evaluate


class _Budget(Exception):
    pass


EXACT, LOWER, UPPER = 0, 1, 2


class Searcher:
    """Negamax with alpha-beta and iterative deepening, bounded by `nodes`; a transposition
    table and history ordering. `seen`: positions (coins, role) met before in the round; a
    line that comes back to one scores `contempt` below even for the root player. With a
    `margin`, every root move within it of the best gets an exact value (in `scored`, best
    first), not only the best: for the player to choose among them."""

    def __init__(self, depth: int, nodes: int, weights=None, seen=(), contempt: float = 0,
                 margin: float = 0):
        self.depth = depth
        self.margin = margin
        self.nodes = nodes
        self.weights = weights or DEFAULT_WEIGHTS
        self.seen = set(seen)
        self.contempt = contempt
        self.table: dict = {}
        self.history: dict = {}

    def best(self, pos: Position, rng: Rng):
        """The best move, and its value for the player to move (of the deepest search done)."""
        order = rng.shuffled(pos.moves())  # seeded tie-breaking
        order.sort(key=lambda m: -self._completes(pos, m))
        self.used = 0
        self.scored = []
        self.root = pos.mover()
        best, value = order[0], 0.0
        for depth in range(1, self.depth + 1):
            try:
                scored = self._root(pos, order, depth)
            except _Budget:
                break
            scored.sort(key=lambda ms: -ms[1])   # (stable: ties keep the shuffled order)
            best, value = scored[0]
            self.scored = scored
            order = [m for m, _ in scored]
            if abs(value) >= WIN // 2:
                break   # a forced end is found: deeper search cannot change it
        return best, value

    @staticmethod
    def _completes(pos: Position, move) -> int:
        """How many unclaimed molecules the swap completes (without making it)."""
        a, b = move
        va, vb = pos.coins[a], pos.coins[b]
        if va == vb:
            return 0
        both = BIT[a] | BIT[b]
        return sum(1 for v in (va, vb)
                   if not pos.claimed[v] and pos.masks[v] ^ both in MOLECULE_MASKS)

    def _root(self, pos, order, depth):
        scored = []
        alpha = -float("inf")
        for move in order:
            # (each root move gets an exact value on its first depths, a bound later: enough)
            scored.append((move, self._child(pos, move, depth - 1, alpha, float("inf"))))
            alpha = max(alpha, scored[-1][1] - self.margin)
        return scored

    def _child(self, pos, move, depth, alpha, beta) -> float:
        """The value of `move` for the player making it."""
        mover = pos.mover()
        token = pos.play(move)
        try:
            if pos.winner is not None:
                return WIN if pos.winner == mover else -WIN
            if (pos.coins_key(), pos.role) in self.seen:
                return -self.contempt if mover == self.root else self.contempt
            if pos.mover() == mover:  # a new round can give the same player the next move
                return self._search(pos, depth, alpha, beta)
            return -self._search(pos, depth, -beta, -alpha)
        finally:
            pos.undo(token)

    def _search(self, pos, depth, alpha, beta):
        self.used += 1
        if self.used > self.nodes:
            raise _Budget
        if depth == 0:
            return evaluate(pos, self.weights, self.root)
        key = pos.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            d, value, flag, first = entry
            if d >= depth and (flag == EXACT or (flag == LOWER and value >= beta)
                               or (flag == UPPER and value <= alpha)):
                return value
        start_alpha = alpha
        moves = pos.moves()
        history = self.history
        finishing = pos.finishing(pos.role)
        moves.sort(key=lambda m: -(1000 if m in finishing else history.get(m, 0)))
        if first is not None and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best, best_move = -float("inf"), None
        path_key = (pos.coins_key(), pos.role)
        self.seen.add(path_key)   # (a line coming back here repeats too)
        try:
            for move in moves:
                value = self._child(pos, move, depth - 1, alpha, beta)
                if value > best:
                    best, best_move = value, move
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            history[move] = history.get(move, 0) + depth * depth
                            break
        finally:
            self.seen.discard(path_key)
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best
