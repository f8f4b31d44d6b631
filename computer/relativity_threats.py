"""Relativity strong's threat search: a trophy forced by a chain of threats.

Against a careful opponent a three-ply look ahead rarely finds a way through: every single
threat can be blocked. A chain of threats can still force one: each swap leaves a molecule
one swap away for us (and none for the opponent), so the opponent must block it, until a swap
leaves two threats that no single reply stops. Only these forcing swaps and every reply to
them are searched, so the chain can be several threats long (seven plies) within the budget.
The search is exhaustive over the opponent's replies (on the model of the rules), bounded by a
count of swaps tried, not a clock: deterministic.
"""

from __future__ import annotations

from .relativity_eval import Position


class _Budget(Exception):
    pass


class ThreatSearch:
    def __init__(self, nodes: int):
        self.nodes = nodes
        self.used = 0
        self.refuters: dict = {}   # per depth, the last reply that broke a chain: tried first

    def find(self, pos: Position, max_depth: int):
        """A swap for the player to move that forces a trophy for it within `max_depth` threats
        (the last one double), the opponent taking none first; None if none found."""
        if pos.threats(pos.role):
            return None   # a trophy to take now: the main search handles it
        me = pos.mover()
        try:
            for depth in range(1, max_depth + 1):
                move = self._attack(pos, depth, me)
                if move is not None:
                    return move
        except _Budget:
            pass
        return None

    def _tick(self):
        self.used += 1
        if self.used > self.nodes:
            raise _Budget

    def _safe_take(self, pos: Position, me: int) -> bool:
        """Whether `me` (to move) can take a trophy now without leaving one to take in reply."""
        for move in pos.finishing(pos.role):
            self._tick()
            token = pos.play(move)
            try:
                if pos.winner is not None:
                    if pos.winner == me:
                        return True
                elif pos.mover() == me or not pos.threats(pos.role):
                    return True
            finally:
                pos.undo(token)
        return False

    def _attack(self, pos: Position, depth: int, me: int):
        """A threat for `me` (to move) that every reply leaves with a safe trophy, directly or
        by `depth - 1` further threats; None if there is none."""
        role = pos.role
        counts = pos.counts[:]
        candidates = []
        for move in pos.moves():
            self._tick()
            token = pos.play(move)
            # (a threat that takes nothing yet and leaves the opponent nothing to take)
            if pos.winner is None and pos.counts == counts and pos.role != role \
                    and not pos.threats(pos.role):
                mine = pos.threats(role)
                if mine:
                    candidates.append((-len(mine), move))
            pos.undo(token)
        candidates.sort()
        for _, move in candidates:
            token = pos.play(move)
            try:
                if not self._escapes(pos, depth, me):
                    return move
            finally:
                pos.undo(token)
        return None

    def _escapes(self, pos: Position, depth: int, me: int) -> bool:
        """Whether the opponent (to move) has a reply after which `me` has neither a safe
        trophy nor a forcing chain of `depth - 1` threats."""
        replies = pos.moves()
        refuter = self.refuters.get(depth)
        if refuter in replies:
            replies.remove(refuter)
            replies.insert(0, refuter)
        counts = pos.counts[:]
        for reply in replies:
            self._tick()
            token = pos.play(reply)
            try:
                if pos.winner is not None or pos.counts != counts or pos.mover() != me:
                    held = pos.winner == me
                else:
                    held = self._safe_take(pos, me) or (
                        depth > 1 and self._attack(pos, depth - 1, me) is not None)
            finally:
                pos.undo(token)
            if not held:
                self.refuters[depth] = reply
                return True
        return False

    def traps(self, pos: Position, move) -> int | None:
        """How many of the opponent's answers to `move` leave its maker a trophy to force at
        once: one to take safely, or a swap leaving threats that no reply stops (answers that
        take a trophy themselves are trades, not counted). None once out of its budget."""
        try:
            return self._traps(pos, move)
        except _Budget:
            return None

    def _traps(self, pos: Position, move) -> int:
        me = pos.mover()
        token = pos.play(move)
        count = 0
        try:
            if pos.winner is not None or pos.mover() == me:
                return 0
            counts = pos.counts[:]
            for reply in pos.moves():
                self._tick()
                inner = pos.play(reply)
                try:
                    if pos.winner is None and pos.counts == counts and pos.mover() == me and (
                            self._safe_take(pos, me) or self._attack(pos, 1, me) is not None):
                        count += 1
                finally:
                    pos.undo(inner)
        finally:
            pos.undo(token)
        return count
