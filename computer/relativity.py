"""Relativity players. Everything is public except the Day board during Night, which a
determinisation samples (a fresh deal, as the rules make it).

easy:   completes a molecule when one swap does it, otherwise swaps at random.
strong: alpha-beta search (two plies by default) over a fast model of the rules, with an
        evaluation that counts trophies and the molecules each side could complete with one
        swap ("threats"). The search is bounded by a node count, not a clock, so it is
        deterministic; the default keeps a decision well under a second.
"""

from __future__ import annotations

from itertools import combinations
from typing import Mapping

import engine
from engine import Rng, freeze, thaw
from engine.piecepack import VALUES
from engine.relativity import (
    CELLS,
    ORTHOGONAL,
    ROUND_TROPHIES,
    ROWS,
    SPACE_PARTNERS,
    WINNING_TROPHIES,
    coins_to_layout,
    deal,
)

from .base import ComputerPlayer

GAME = engine.get_game("relativity")
NEXT = {v: VALUES[(i + 1) % 6] for i, v in enumerate(VALUES)}
PREV = {v: VALUES[(i - 1) % 6] for i, v in enumerate(VALUES)}


def _connected(cells) -> bool:
    cells = set(cells)
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        for j in ORTHOGONAL[stack.pop()]:
            if j in cells and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == len(cells)


# Every placement of four orthogonally connected cells (a molecule's shape), and for each
# three cells of one, the cells that would complete it.
MOLECULES = frozenset(frozenset(c) for c in combinations(range(len(CELLS)), 4)
                      if _connected(c) and max(c) - min(c) <= 3 * ROWS + 3)
COMPLETIONS: dict[frozenset, tuple[int, ...]] = {}
for _shape in MOLECULES:
    for _cell in _shape:
        _three = _shape - {_cell}
        COMPLETIONS[_three] = tuple(sorted(set(COMPLETIONS.get(_three, ())) | {_cell}))
SPACE_PAIRS = tuple((i, j) for i in range(len(CELLS)) for j in SPACE_PARTNERS[i] if j > i)
SPACE_PARTNER_SETS = tuple(frozenset(p) for p in SPACE_PARTNERS)


# --------------------------------------------------------------------------- view -> state


def determinise(view: Mapping, rng: Rng):
    """An engine state consistent with `view`: the view shows everything but the Day board
    during Night, which is dealt afresh from `rng`."""
    coins = "".join(view["coins"][c] for c in CELLS)
    day = coins_to_layout(deal(rng)) if view["round"] == "night" else view["layout"]
    state = thaw(GAME.new_game(view["players"], seed=0,
                               options={"layouts": [view["layout"], day]}))
    roles = view["roles"]
    data = state["data"]
    data.update({
        "round": view["round"],
        "coins": coins,
        "turn": "space" if view["turn"] == roles["space"] else "time",
        "last_swap": view["last_swap"],
        "trophies": view["trophies"],
        "molecules": view["molecules"],
    })
    state.update({"move_number": view["move_number"], "left": view["left"]})
    return freeze(state)


# --------------------------------------------------------------------------- fast model


class Position:
    """A mutable model of a Relativity position for search: swap/undo in place."""

    def __init__(self, state):
        data = state["data"]
        self.players = tuple(state["players"])
        self.coins = list(data["coins"])
        self.round = data["round"]
        self.day_board = data["boards"][1]
        self.role = data["turn"]
        self.last = None
        if data["last_swap"]:
            a, b = sorted(CELLS.index(c) for c in data["last_swap"])
            self.last = (a, b)
        self.claimed = {v: p is not None for v, p in data["trophies"][self.round].items()}
        self.counts = [0, 0]
        for by_value in data["trophies"].values():
            for p in by_value.values():
                if p is not None:
                    self.counts[self.players.index(p)] += 1
        self.won_this_round = sum(self.claimed.values())
        self.winner = None  # seat index once the game is over

    def mover(self) -> int:
        """Seat index of the player to move: seat 0 is Space at Night and Time by Day."""
        space = 0 if self.round == "night" else 1
        return space if self.role == "space" else 1 - space

    def moves(self) -> list[tuple[int, int]]:
        if self.role == "space":
            pairs = SPACE_PAIRS
        else:
            cells = {v: [] for v in VALUES}
            for i, v in enumerate(self.coins):
                cells[v].append(i)
            pairs = [(i, j) if i < j else (j, i)
                     for v in VALUES for i in cells[v] for j in cells[NEXT[v]]]
        return [p for p in pairs if p != self.last]

    def cells_of(self, value) -> list[int]:
        return [i for i, v in enumerate(self.coins) if v == value]

    def completing(self, value) -> bool:
        return frozenset(self.cells_of(value)) in MOLECULES

    def play(self, move):
        """Make the swap; return what `undo` needs."""
        a, b = move
        coins = self.coins
        saved = (self.coins[:], self.role, self.last, dict(self.claimed),
                 self.counts[:], self.won_this_round, self.round, self.winner)
        mover = self.mover()
        coins[a], coins[b] = coins[b], coins[a]
        self.last = move
        self.role = "time" if self.role == "space" else "space"
        for value in {coins[a], coins[b]}:
            if not self.claimed[value] and self.completing(value):
                self.claimed[value] = True
                self.counts[mover] += 1
                self.won_this_round += 1
        if max(self.counts) >= WINNING_TROPHIES or (
                self.round == "day" and self.won_this_round >= ROUND_TROPHIES):
            best = max(self.counts)
            self.winner = 0 if self.counts[0] == best else 1
        elif self.round == "night" and self.won_this_round >= ROUND_TROPHIES:
            self.round, self.coins, self.role, self.last = "day", list(self.day_board), "space", None
            self.claimed = {v: False for v in VALUES}
            self.won_this_round = 0
        return saved

    def undo(self, saved):
        (self.coins, self.role, self.last, self.claimed, self.counts, self.won_this_round,
         self.round, self.winner) = saved

    def threats(self, role) -> set:
        """Unclaimed values that `role` could complete with one swap now."""
        found = set()
        coins = self.coins
        for value in VALUES:
            if self.claimed[value]:
                continue
            cells = self.cells_of(value)
            for k, moving in enumerate(cells):
                rest = frozenset(cells[:k] + cells[k + 1:])
                for target in COMPLETIONS.get(rest, ()):
                    if role == "space":
                        ok = target in SPACE_PARTNER_SETS[moving]
                    else:
                        ok = coins[target] in (NEXT[value], PREV[value])
                    if ok and (moving, target) != self.last and (target, moving) != self.last:
                        found.add(value)
                        break
                if value in found:
                    break
        return found

    def togetherness(self, value) -> int:
        """Orthogonal contacts between coins of `value`: 3 or more when nearly a molecule."""
        cells = self.cells_of(value)
        return sum(1 for i in cells for j in ORTHOGONAL[i] if j > i and self.coins[j] == value)


WIN = 100_000


def evaluate(pos: Position, weights, root: int) -> float:
    """Score for the player to move (negamax convention).

    Besides trophies and threats, the root player (the one deciding) counts contacts between
    coins of unclaimed values as good for them, whoever is to move. That is not zero-sum on
    purpose: two careful players who only avoided giving threats would shuffle forever; this
    makes each build molecules and so makes games end (the search then decides who gets them).
    """
    me = pos.mover()
    if pos.winner is not None:
        return WIN if pos.winner == me else -WIN
    other_role = "time" if pos.role == "space" else "space"
    mine = pos.threats(pos.role)
    theirs = pos.threats(other_role) - mine
    score = weights["trophy"] * (pos.counts[me] - pos.counts[1 - me])
    if mine:
        score += weights["my_threat"] + weights["extra_threat"] * (len(mine) - 1)
    if theirs:
        score -= weights["their_threat"]
    together = sum(pos.togetherness(v) for v in VALUES if not pos.claimed[v])
    score += weights["together"] * together * (1 if me == root else -1)
    return score


DEFAULT_WEIGHTS = {"trophy": 100, "my_threat": 70, "extra_threat": 15, "their_threat": 50,
                   "together": 15}


class _Budget(Exception):
    pass


class Searcher:
    """Negamax with alpha-beta and iterative deepening, bounded by `nodes`."""

    def __init__(self, depth: int, nodes: int, weights=None):
        self.depth = depth
        self.nodes = nodes
        self.weights = weights or DEFAULT_WEIGHTS

    def best(self, pos: Position, rng: Rng):
        moves = pos.moves()
        order = rng.shuffled(moves)  # seeded tie-breaking
        # Moves that complete a molecule first: they are the likely best.
        order.sort(key=lambda m: -self._gain(pos, m))
        self.used = 0
        self.root = pos.mover()
        best = order[0]
        for depth in range(1, self.depth + 1):
            try:
                scored = self._root(pos, order, depth)
            except _Budget:
                break
            best = max(scored, key=lambda ms: ms[1])[0]
            order = [m for m, _ in sorted(scored, key=lambda ms: -ms[1])]
        return best

    def _gain(self, pos, move) -> int:
        """Trophies the move takes for its player (99 for a win)."""
        mover = pos.mover()
        before = pos.counts[mover]
        saved = pos.play(move)
        gain = 99 if pos.winner == mover else pos.counts[mover] - before
        pos.undo(saved)
        return gain

    def _root(self, pos, order, depth):
        scored = []
        alpha = -float("inf")
        for move in order:
            scored.append((move, self._child(pos, move, depth - 1, alpha, float("inf"))))
            alpha = max(alpha, scored[-1][1])
        return scored

    def _child(self, pos, move, depth, alpha, beta) -> float:
        """The value of `move` for the player making it."""
        mover = pos.mover()
        saved = pos.play(move)
        if pos.winner is not None:
            value = WIN if pos.winner == mover else -WIN
        elif pos.mover() == mover:  # a new round can give the same player the next move
            value = self._search(pos, depth, alpha, beta)
        else:
            value = -self._search(pos, depth, -beta, -alpha)
        pos.undo(saved)
        return value

    def _search(self, pos, depth, alpha, beta):
        self.used += 1
        if self.used > self.nodes:
            raise _Budget
        if depth == 0:
            return evaluate(pos, self.weights, self.root)
        best = -float("inf")
        for move in pos.moves():
            value = self._child(pos, move, depth - 1, alpha, beta)
            if value > best:
                best = value
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
        return best


# --------------------------------------------------------------------------- players


def _notation(move) -> str:
    a, b = move
    return f"{CELLS[a]}#{CELLS[b]}"


class RelativityPlayer(ComputerPlayer):
    game_name = "relativity"

    def decide(self, view, rng):
        state = determinise(view, rng)
        seat = view["viewer"]
        pos = Position(state)
        legal = {str(a) for a in GAME.legal_actions(state, seat)}
        assert pos.players[pos.mover()] == seat
        assert legal == {_notation(m) for m in pos.moves()}, "model and engine disagree"
        move = self.pick(pos, rng)
        return _notation(move)

    def pick(self, pos: Position, rng: Rng):
        raise NotImplementedError


class EasyRelativity(RelativityPlayer):
    level = "easy"

    def pick(self, pos, rng):
        moves = pos.moves()
        scoring = []
        for move in moves:
            saved = pos.play(move)
            if pos.counts != saved[4] or pos.winner is not None:
                scoring.append(move)
            pos.undo(saved)
        return rng.choice(scoring or moves)


class StrongRelativity(RelativityPlayer):
    level = "strong"
    depth = 2
    nodes = 20_000
    # After this many moves without a trophy, fear of giving the opponent a threat fades, so
    # two careful players cannot stall for ever.
    patience = 30

    def __init__(self, seed: int = 0, nodes: int | None = None):
        super().__init__(seed)
        if nodes is not None:
            self.nodes = nodes

    def decide(self, view, rng):
        since = view["move_number"] - max(
            [e["n"] for e in view["log"] if e.get("event") in ("trophy", "round")], default=0)
        fear = max(0.0, 1.0 - since / self.patience)
        self.weights = dict(DEFAULT_WEIGHTS, their_threat=DEFAULT_WEIGHTS["their_threat"] * fear)
        return super().decide(view, rng)

    def pick(self, pos, rng):
        return Searcher(self.depth, self.nodes, self.weights).best(pos, rng)


PLAYERS = {"easy": EasyRelativity, "strong": StrongRelativity}
