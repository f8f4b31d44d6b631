"""Global Warming with two pawns afloat, as the strong player plays it: the turn is a 6x6
game of simultaneous faces, each pair of faces judged exactly from the seat's view.

For a pair of faces: equal faces cancel; otherwise the actors act in rules order, the first
choosing its best action against the later actor's best reply (a number n: every placement of
both pawns reachable by exactly n steps, legality as the engine's, found by a small dynamic
programme over the placements; null: a tile move beside a pawn or away from one, or passing).
A placement is judged in exact expectation over the tile the leftmost coin may name (its shown
side is all anyone knows), then by the next turn's game from there (global_warming_ahead.py:
the same 6x6 game a turn later, on the island each tile move leaves, read cheaply). The
seat plays its best answer to the faces it expects of the other player (those shown in the
view's log, and before them the faces a naive player would pick, best against any face
alike) three times in four, and otherwise the equilibrium mix of that zero-sum matrix
(regret matching, a fixed number of rounds), so that it is never predictable.
Measured against the baseline: the equilibrium alone won 68% on deals 1040-1119, leaning on the
faces shown 78% (and 82-83% with later risks weighed less); with the naive guess and the lean
capped, 76.6% of 320 games on deals 1000-4039, the search it replaces 75.6%; judging what
follows by the next turn's game instead of a static guess: see the README.
No sampling of hidden parts at all: everything is read from the view's public part, so the
seat's decision is the same whatever it cannot see.
"""

from __future__ import annotations

from engine.global_warming import ACTION_ORDER, STEP_COUNT
from engine.piecepack import VALUES

from .global_warming_ahead import Ahead
from .global_warming_board import (Board, around, expected_faces, pawns_of, pick_face,
                                  placements, shown_faces, sink_chances, tiles_of)

ROUNDS = 1500                          # regret-matching rounds of the matrix


def _near(pos, steps=1):
    x, y = pos
    return {(x + dx, y + dy) for dx in range(-steps, steps + 1) for dy in range(-steps, steps + 1)
            if 0 < abs(dx) + abs(dy) <= steps}


class Duel:
    """The two-pawn position of `view` from the viewer's side (`me`) against `them`."""

    def __init__(self, view):
        self.me = view["viewer"]
        pawns = pawns_of(view)
        self.them = next(p for p in pawns if p != self.me)
        self.tiles = tiles_of(view)
        self.start = (pawns[self.me], pawns[self.them])
        chances = sink_chances(view) + [{}, {}, {}]
        self.now, self.next, self.third = chances[:3]
        self.colours = view["colours"]
        self.tables = {}

    def ahead(self, tiles) -> Ahead:
        """The next turn's table for the island `tiles` (a tile sure to sink this turn gone)."""
        key = id(tiles)   # each island (as moved by a tile move) is one dict for the whole turn
        found = self.tables.get(key)
        if found is None:
            kept = {p: c for p, c in tiles.items() if self.now.get(c, 0.0) < 0.999}
            found = self.tables[key] = (tiles, Ahead(kept, self.next, self.third))
        return found[1]

    # ---------------------------------------------------------------- judging a placement

    def value(self, tiles, cfg, cache) -> float:
        """My chance to win with the pawns at `cfg` (mine, theirs) once this turn's actions are
        done: exact over this turn's sink, a guess of the rest."""
        found = cache.get(cfg)
        if found is None:
            mine, theirs = cfg
            lose, win = self.now.get(tiles[mine], 0.0), self.now.get(tiles[theirs], 0.0)
            rest = 1.0 - lose - win   # (none when a pawn stands on a tile sure to sink)
            found = cache[cfg] = win + (rest * self.ahead(tiles).value(cfg) if rest > 1e-6 else 0.0)
        return found

    # ---------------------------------------------------------------- steps

    @staticmethod
    def moves(tiles, cfg):
        """The placements one step away (either pawn, onto a free tile)."""
        return ([(q, cfg[1]) for q in around(cfg[0]) if q in tiles and q != cfg[1]]
                + [(cfg[0], q) for q in around(cfg[1]) if q in tiles and q != cfg[0]])

    def best(self, tiles, cfg, steps, mine, memo, cache) -> float:
        """The value after `steps` steps chosen by me (`mine`) or by them (minimising), from
        `cfg`: the best over every placement exactly `steps` steps away (fewer when no pawn can
        step, as the engine rules)."""
        key = (cfg, steps, mine)
        found = memo.get(key)
        if found is None:
            after = self.moves(tiles, cfg) if steps else ()
            if not after:
                found = self.value(tiles, cfg, cache)
            else:
                values = [self.best(tiles, c, steps - 1, mine, memo, cache) for c in after]
                found = max(values) if mine else min(values)
            memo[key] = found
        return found

    def reachable(self, tiles, cfg, steps) -> set:
        frontier = {cfg}
        for _ in range(steps):
            following = set()
            for c in frontier:
                following.update(self.moves(tiles, c) or (c,))
            frontier = following
        return frontier

    # ---------------------------------------------------------------- tile moves

    def tile_moves(self):
        """Candidate tile moves as (src, dst), None for passing: a tile from beside a pawn (or
        two steps away) moved far off, or a far tile brought beside a pawn."""
        tiles, pawns = self.tiles, set(self.start)
        near = set().union(*(_near(p, 2) for p in pawns))

        def dsts(src):
            return [q for q in sorted({q for p in tiles for q in _near(p)} - set(tiles))
                    if any(r in tiles and r != src for r in _near(q))]

        def far(p):
            return min(abs(p[0] - q[0]) + abs(p[1] - q[1]) for q in pawns)
        sources = sorted(p for p in tiles if p not in pawns)
        out = [None]
        if not sources:
            return out
        remote = max(sources, key=lambda p: (far(p), p))
        for src in sources:
            if src in near:
                options = dsts(src)
                if options:
                    out.append((src, max(options, key=lambda q: (far(q), q))))
        out += [(remote, q) for q in dsts(remote) if q in near]
        return out

    @staticmethod
    def moved(tiles, move):
        if move is None:
            return tiles
        src, dst = move
        tiles = dict(tiles)
        tiles[dst] = tiles.pop(src)
        return tiles

    def null_values(self):
        """{(tile move, steps, mine): value of the number actor's best answer} for every
        candidate tile move and answer of 1..5 steps, mine meaning the answer is mine."""
        out = {}
        for move in self.tile_moves():
            tiles = self.moved(self.tiles, move)
            memo, cache = {}, {}
            for steps in (1, 2, 3, 4, 5):
                for mine in (True, False):
                    out[move, steps, mine] = self.best(tiles, self.start, steps, mine, memo, cache)
        return out

    # ---------------------------------------------------------------- the matrix

    def matrix(self) -> list[list[float]]:
        """payoff[i][j]: my value when I show VALUES[i] and they show VALUES[j]."""
        memo, cache = {}, {}
        tiles, start = self.tiles, self.start
        nulls = self.null_values()
        moves = {m for m, _, _ in nulls}
        here = {s: self.reachable(tiles, start, s) for s in (1, 2, 3, 4, 5)}
        rows = []
        for mine in VALUES:
            row = []
            for theirs in VALUES:
                if mine == theirs:
                    value = self.value(tiles, start, cache)
                elif mine == "n":
                    value = max(nulls[m, STEP_COUNT[theirs], False] for m in moves)
                elif theirs == "n":
                    value = min(nulls[m, STEP_COUNT[mine], True] for m in moves)
                elif ACTION_ORDER.index(mine) < ACTION_ORDER.index(theirs):   # I act first
                    value = max(self.best(tiles, c, STEP_COUNT[theirs], False, memo, cache)
                                for c in here[STEP_COUNT[mine]])
                else:
                    value = min(self.best(tiles, c, STEP_COUNT[mine], True, memo, cache)
                                for c in here[STEP_COUNT[theirs]])
                row.append(value)
            rows.append(row)
        return rows

    # ---------------------------------------------------------------- acting

    def act_steps(self, steps: int, answer: int | None) -> str | None:
        """My steps: the placement best against the later actor's answer of `answer` steps
        (None: nobody acts after me), as the engine's text."""
        memo, cache = {}, {}
        board = Board(self.tiles, {self.me: self.start[0], self.them: self.start[1]},
                      self.colours, ())
        found = placements(board, (self.me, self.them), steps)
        best, best_key = None, None
        for cfg, path in sorted(found.items()):
            if not path:
                continue
            value = (self.value(self.tiles, cfg, cache) if answer is None
                     else self.best(self.tiles, cfg, answer, False, memo, cache))
            if best_key is None or value > best_key:
                best, best_key = path, value
        return ", ".join(best) if best else None

    def act_null(self, answer: int | None) -> str:
        """My tile move (or "pass") best against the later actor's answer of `answer` steps."""
        best, best_value = "pass", None
        for move in self.tile_moves():
            tiles = self.moved(self.tiles, move)
            memo, cache = {}, {}
            value = (self.value(tiles, self.start, cache) if answer is None
                     else self.best(tiles, self.start, answer, False, memo, cache))
            if best_value is None or value > best_value + 1e-12:
                best_value = value
                best = "pass" if move is None else "{},{}>{},{}".format(*move[0], *move[1])
        return best


def solve(payoff, rounds: int = ROUNDS) -> tuple[list[float], float]:
    """The row player's (maximising) equilibrium mix of a zero-sum matrix game and its value,
    by regret matching+ with alternating updates and weighted averages (deterministic)."""
    rows, cols = len(payoff), len(payoff[0])
    reg_r, reg_c = [0.0] * rows, [0.0] * cols
    avg_r = [0.0] * rows

    def mix(regrets):
        total = sum(regrets)
        return [r / total for r in regrets] if total > 0 else [1.0 / len(regrets)] * len(regrets)
    y = mix(reg_c)
    for t in range(1, rounds + 1):
        u = [sum(payoff[i][j] * y[j] for j in range(cols)) for i in range(rows)]
        x = mix(reg_r)
        v = sum(x[i] * u[i] for i in range(rows))
        reg_r = [max(0.0, reg_r[i] + u[i] - v) for i in range(rows)]
        x = mix(reg_r)
        for i in range(rows):
            avg_r[i] += t * x[i]
        w = [sum(payoff[i][j] * x[i] for i in range(rows)) for j in range(cols)]
        v = sum(y[j] * w[j] for j in range(cols))
        reg_c = [max(0.0, reg_c[j] + v - w[j]) for j in range(cols)]   # the column minimises
        y = mix(reg_c)
    total = sum(avg_r)
    x = [a / total for a in avg_r]
    value = min(sum(payoff[i][j] * x[i] for i in range(rows)) for j in range(cols))
    return x, value


LEAN = 0.75  # the share of the best answer to the faces expected; the rest: the equilibrium


def choose_face(view, rng) -> str:
    duel = Duel(view)
    payoff = duel.matrix()
    mix, _ = solve(payoff)
    # The faces expected of them: those shown, after the faces a naive player would pick (the
    # best for them against any face of mine alike, a soft choice among the best few).
    theirs = [sum(1 - row[j] for row in payoff) / len(VALUES) for j in range(len(VALUES))]
    guess = expected_faces(shown_faces(view, duel.them), theirs)
    gains = [sum(row[j] * guess[j] for j in range(len(VALUES))) for row in payoff]
    top = max(range(len(VALUES)), key=lambda i: (gains[i], -i))
    mix = [(1 - LEAN) * m for m in mix]
    mix[top] += LEAN
    return pick_face(mix, rng)


def decide(view, rng) -> str:
    """The seat's action with two pawns afloat (its own among them)."""
    if view["phase"] == "commit":
        return choose_face(view, rng)
    duel = Duel(view)
    reveal = view["reveal"]
    order = reveal["order"]
    later = order[order.index(duel.me) + 1:]
    answer = STEP_COUNT.get(reveal["faces"][later[0]]) if later else None
    if reveal["faces"][duel.me] == "n":
        return duel.act_null(answer)
    text = duel.act_steps(view["steps_left"], answer)
    return text if text is not None else "pass"
