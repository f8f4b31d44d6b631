"""Pack Solitaire (David Hassell): one player arranges sixteen three-coin tiles on a 4x4 grid so
that facing squares agree, and scores the matching pairs.

Geometry. A tile is a 2x2 block of squares. We list a tile's squares clockwise from the upper
left: UL, UR, LR, LL (positions 0-3). A dealt tile holds coins on UL, UR and LL and leaves LR
empty. Turning a tile a quarter clockwise moves the square at position p to p + 1, so at
orientation k the square at position p holds what position p - k held when dealt.

Two tiles side by side face each other with two pairs of squares: left UR / right UL and left
LR / right LL. Two tiles one above the other: upper LL / lower UL and upper LR / lower UR.

Values are ints inside: null 0, ace 1, 2-5, and EMPTY (6) for the empty square.

The second half of the module is the exact solver: the best score a deal allows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Mapping, Sequence

from .core import Game, GameError, IllegalAction, InvalidAction, Outcome, Prompt, Rng
from .piecepack import VALUES, value_name

COLUMNS = "abcd"
SIZE = 4
TILES = 16
EMPTY = 6
SQUARES = ("UL", "UR", "LR", "LL")   # clockwise positions 0-3
SQUARE_WORDS = {"UL": "upper-left", "UR": "upper-right", "LR": "lower-right", "LL": "lower-left"}
UL, UR, LR, LL = range(4)
# Cells in PPN order a1 a2 a3 a4 b1 ... d4 (alphabetical); index = col * 4 + row.
CELLS = tuple(f"{c}{r}" for c in COLUMNS for r in range(1, SIZE + 1))
CELL_INDEX = {cell: i for i, cell in enumerate(CELLS)}
POINTS_PER_PAIR = 2   # the text's procedure counts each matching pair from both tiles


def cell_at(col: int, row: int) -> int:
    """col 0-3 (a-d), row 0-3 (rows 1-4) -> cell index."""
    return col * SIZE + row


def cell_name(index: int) -> str:
    return CELLS[index]


def _facing_pairs() -> tuple[tuple[int, int, int, int], ...]:
    """Every pair of facing squares on the board: (cell, square, other cell, other square)."""
    pairs = []
    for col in range(SIZE):
        for row in range(SIZE):
            here = cell_at(col, row)
            if col + 1 < SIZE:  # right neighbour
                right = cell_at(col + 1, row)
                pairs += [(here, UR, right, UL), (here, LR, right, LL)]
            if row + 1 < SIZE:  # neighbour above
                up = cell_at(col, row + 1)
                pairs += [(up, LL, here, UL), (up, LR, here, UR)]
    return tuple(pairs)


FACING_PAIRS = _facing_pairs()
# cell -> the facing pairs it takes part in, written from its side: (square, other cell, other square)
NEIGHBOUR_PAIRS = tuple(
    tuple([(a_sq, b, b_sq) for a, a_sq, b, b_sq in FACING_PAIRS if a == cell]
          + [(b_sq, a, a_sq) for a, a_sq, b, b_sq in FACING_PAIRS if b == cell])
    for cell in range(len(CELLS))
)

_VALUE_INT = {v: i for i, v in enumerate(VALUES)}  # n 0, a 1, 2..5


def squares_of(tile: str, orientation: int) -> tuple[int, int, int, int]:
    """The four squares (UL, UR, LR, LL) of a tile written as its dealt UL, UR, LL values."""
    dealt = (_VALUE_INT[tile[0]], _VALUE_INT[tile[1]], EMPTY, _VALUE_INT[tile[2]])
    return tuple(dealt[(p - orientation) % 4] for p in range(4))


def pair_condition(x: int, y: int) -> int:
    """Which condition two facing squares meet: 1 (equal values, or both empty), 2 (coins adding
    up to 5), 3 (one square empty), or 0 (none: not allowed)."""
    if x == y:
        return 1
    if x == EMPTY or y == EMPTY:
        return 3
    if x + y == 5:
        return 2
    return 0


def square_text(value: int) -> str:
    return "empty" if value == EMPTY else value_name(VALUES[value])


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Place:
    """Put tile `tile` (1-16) on `cell` at `orientation` (0-3): from the tray, moved from another
    cell, or turned where it lies. Notation `7@b3/1`."""

    tile: int
    cell: str
    orientation: int

    def __str__(self) -> str:
        return f"{self.tile}@{self.cell}/{self.orientation}"


@dataclass(frozen=True)
class TakeBack:
    """Take tile `tile` off the grid, back to the tray. Notation `7@off`."""

    tile: int

    def __str__(self) -> str:
        return f"{self.tile}@off"


@dataclass(frozen=True)
class Done:
    """Finish: the layout is scored."""

    def __str__(self) -> str:
        return "done"


DONE = Done()
_ACTION_TEXT = re.compile(r"(\d+)\s*@\s*(?:(off|tray)|([a-z])\s*(\d+)\s*(?:[/\s]\s*(\d+))?)")


# --------------------------------------------------------------------------- deals


def deal(rng: Rng) -> list[str]:
    """Two coin sets; from each, eight tiles take three coins drawn at random (UL, UR, LL)."""
    tiles = []
    for _ in range(2):
        coins = rng.shuffled(VALUES * 4)
        tiles += ["".join(coins[i:i + 3]) for i in range(0, 24, 3)]
    return tiles


def check_tiles(tiles) -> list[str]:
    """The `tiles` option: sixteen 3-letter strings (UL, UR, LL at orientation 0)."""
    example = 'for example ["n25", "a34", ...]'
    if not isinstance(tiles, (list, tuple)) or len(tiles) != TILES:
        raise GameError(f"'tiles' is a list of sixteen 3-letter tiles, {example}.")
    out = []
    for i, tile in enumerate(tiles, 1):
        text = str(tile).strip().lower() if isinstance(tile, str) else ""
        if len(text) != 3 or any(ch not in VALUES for ch in text):
            raise GameError(f"Tile {i} ({tile!r}) must be three values from n a 2 3 4 5 "
                            f"(upper-left, upper-right, lower-left), {example}.")
        out.append(text)
    for first, name in ((0, "1-8"), (8, "9-16")):
        coins = "".join(out[first:first + 8])
        for v in VALUES:
            if coins.count(v) != 4:
                raise GameError(f"Tiles {name} come from one coin set, so they hold each value "
                                f"four times; they hold {coins.count(v)} of {value_name(v)}.")
    return out


# --------------------------------------------------------------------------- rules text


RULES = """\
# Pack Solitaire

*A solitaire for two piecepacks by David Hassell. Summary in our words.*

**The deal.** Sixteen tiles lie face down. From the first set of 24 coins, drawn at random, \
eight tiles each get three coins: upper-left, upper-right, lower-left; the lower-right square \
stays empty. The second set makes eight more. The tiles are numbered 1-16 in that order.

**Play.** Arrange as many tiles as you can on a 4x4 grid. You may place, move, turn (quarter \
turns) and take back tiles freely, but the coins stay on their squares. Where two tiles touch \
side by side or one above the other (not diagonally), their facing squares pair up, two pairs \
per shared edge, and every pair must meet one of three conditions:
1. **Match**: the same value, or both squares empty. Each match scores.
2. **Five**: two coins adding up to 5 (null 0 + 5, ace 1 + 4, 2 + 3).
3. **Wild**: one of the two squares is empty.

**Score.** When you finish, every tile is checked against each neighbour, so each matching pair \
is counted from both sides: **2 points per matching pair**. (That is how the author's example \
reaches 60.) Tiles left off the grid score nothing; empty cells are fine.

**Writing moves.** Cells a1-d4: columns a-d from the left, rows 1-4 from the bottom. A tile's \
turn is 0-3 quarter turns clockwise from how it was dealt (at 0 the empty square is lower-right, \
at 1 lower-left, at 2 upper-left, at 3 upper-right).
- `7@b3/1` puts tile 7 on b3 with turn 1: from the tray, moved from another cell, or turned \
where it lies.
- `7@off` takes tile 7 back to the tray.
- `done` finishes and scores your layout.

**The board picture.** Each tile shows its number and its coins; the empty square is a hollow. \
Between facing squares a mark shows the condition met: a bold bar for a match (it scores), a \
"5" for a five, a dot for a wild pair. Unplaced tiles wait in the tray below the grid.

**Our rulings.**
- A placement that breaks a condition is refused, and we tell you which pair fails.
- Without a turn (`7@b3`), a tile keeps its current turn (0 when it comes from the tray).
- When you finish, we also tell you the best score this deal allows (any tiles, any turns, \
empty cells allowed), found by an exhaustive search, and show one way to reach it.
- Option `tiles` fixes the deal: sixteen 3-letter tiles, upper-left, upper-right, lower-left \
(for example `n25`); tiles 1-8 and 9-16 each hold every value four times.
- You may give up at any time; the game then ends without a score.
"""


# --------------------------------------------------------------------------- the game


class PackSolitaire(Game):
    name = "pack-solitaire"
    title = "Pack Solitaire"
    min_players = 1
    max_players = 1
    allows_draw = False
    rules = RULES

    def _setup(self, players, rng, options):
        unknown = set(options) - {"tiles"}
        if unknown:
            raise GameError(f"Unknown Pack Solitaire option(s): {', '.join(sorted(unknown))}. "
                            "The only option is 'tiles'.")
        tiles = check_tiles(options["tiles"]) if "tiles" in options else deal(rng)
        return {
            "tiles": tiles,
            "board": [None] * len(CELLS),   # cell index -> [tile number, orientation] or None
            "done": False,
        }

    def _to_act(self, state):
        return () if state["data"]["done"] else tuple(state["players"])

    def _resample_hidden(self, s, viewer, rng):
        """Nothing is hidden: the whole deal is on the table."""

    # ---- moves ---------------------------------------------------------------------------

    def _legal_actions(self, state, player):
        data = state["data"]
        board = data["board"]
        where = _where(board)
        actions = []
        for tile in range(1, TILES + 1):
            own = where.get(tile)
            for cell in range(len(CELLS)):
                if board[cell] is not None and cell != own:
                    continue
                for orientation in range(4):
                    if own == cell and board[cell][1] == orientation:
                        continue
                    if _conflict(data, tile, cell, orientation) is None:
                        actions.append(Place(tile, CELLS[cell], orientation))
            if own is not None:
                actions.append(TakeBack(tile))
        actions.append(DONE)
        return actions

    def _parse(self, state, player, text):
        lowered = text.strip().lower()
        if lowered in ("done", "finish", "end"):
            return DONE
        match = _ACTION_TEXT.fullmatch(lowered)
        if match is None:
            raise InvalidAction(f"{text[:40]!r} is not a Pack Solitaire move. Write `7@b3/1` "
                                "(tile 7 on b3, turned once), `7@off` or `done`.")
        tile = int(match[1])
        if not 1 <= tile <= TILES:
            raise InvalidAction(f"There is no tile {tile}: tiles are numbered 1-16.")
        if match[2]:
            return TakeBack(tile)
        cell = f"{match[3]}{match[4]}"
        if cell not in CELL_INDEX:
            raise InvalidAction(f"{cell} is not a cell: columns a-d, rows 1-4 (for example b3).")
        if match[5] is None:
            lying = _where(state["data"]["board"]).get(tile)
            orientation = state["data"]["board"][lying][1] if lying is not None else 0
        else:
            orientation = int(match[5])
            if not 0 <= orientation <= 3:
                raise InvalidAction("A tile's turn is 0-3 (quarter turns clockwise).")
        return Place(tile, cell, orientation)

    def _check(self, state, player, action):
        data = state["data"]
        board = data["board"]
        if isinstance(action, Done):
            return
        if isinstance(action, TakeBack):
            if action.tile not in _where(board):
                raise IllegalAction(f"Tile {action.tile} is not on the grid.")
            return
        if not isinstance(action, Place):
            raise IllegalAction("Place a tile (`7@b3/1`), take one back (`7@off`) or finish (`done`).")
        if not 1 <= action.tile <= TILES or action.cell not in CELL_INDEX \
                or action.orientation not in range(4):
            raise IllegalAction("Tiles are 1-16, cells a1-d4, turns 0-3.")
        cell = CELL_INDEX[action.cell]
        occupant = board[cell]
        if occupant is not None and occupant[0] != action.tile:
            raise IllegalAction(f"{action.cell} already holds tile {occupant[0]}; "
                                f"take it back first (`{occupant[0]}@off`).")
        if occupant is not None and occupant[1] == action.orientation:
            raise IllegalAction(f"Tile {action.tile} already lies on {action.cell} "
                                f"with turn {action.orientation}.")
        problem = _conflict(data, action.tile, cell, action.orientation)
        if problem is not None:
            raise IllegalAction(problem)

    def _apply(self, s, player, action, rng):
        data = s["data"]
        board = data["board"]
        if isinstance(action, Done):
            data["done"] = True
            score = board_score(data["tiles"], board)
            self._log(s, f"{player} finished with {score} points.", event="done",
                      player=player, score=score)
            return
        lying = _where(board).get(action.tile)
        if lying is not None:
            board[lying] = None
        if isinstance(action, Place):
            board[CELL_INDEX[action.cell]] = [action.tile, action.orientation]
            self._log(s, f"{player} placed {action}.", event="place", player=player,
                      action=str(action))
        else:
            self._log(s, f"{player} took tile {action.tile} back.", event="take_back",
                      player=player, action=str(action))

    # ---- results and views -----------------------------------------------------------------

    def _scores(self, state):
        data = state["data"]
        return {p: board_score(data["tiles"], data["board"]) for p in state["players"]}

    def _result(self, state):
        data = state["data"]
        if not data["done"]:
            return None
        score = board_score(data["tiles"], data["board"])
        return Outcome(tuple(state["players"]), f"finished with {score} points")

    def _view(self, state, viewer):
        data = state["data"]
        board = data["board"]
        placed = {CELLS[i]: {"tile": b[0], "orientation": b[1],
                             "squares": _square_letters(data["tiles"][b[0] - 1], b[1])}
                  for i, b in enumerate(board) if b is not None}
        where = _where(board)
        pairs = []
        for a, a_sq, b, b_sq in FACING_PAIRS:
            if board[a] is None or board[b] is None:
                continue
            x = squares_of(data["tiles"][board[a][0] - 1], board[a][1])[a_sq]
            y = squares_of(data["tiles"][board[b][0] - 1], board[b][1])[b_sq]
            pairs.append({"cells": [CELLS[a], CELLS[b]], "squares": [SQUARES[a_sq], SQUARES[b_sq]],
                          "condition": pair_condition(x, y)})
        return {
            "tiles": list(data["tiles"]),
            "placed": placed,
            "tray": [t for t in range(1, TILES + 1) if t not in where],
            "pairs": pairs,
            "score": board_score(data["tiles"], board),
            "done": data["done"],
        }

    def _prompt(self, state, player):
        return Prompt(player, "public", "Place, move or turn a tile (e.g. `7@b3/1`), take one "
                                        "back (`7@off`), or finish (`done`).")

    # ---- the best possible score ---------------------------------------------------------------

    def best(self, state) -> "Solution":
        """The best score of this deal and one arrangement that reaches it (exact; cached by
        deal, about a second the first time: call it off the event loop)."""
        self._own(state)
        return solve(tuple(state["data"]["tiles"]))

    def best_score(self, state) -> int:
        return self.best(state).score


def _where(board) -> dict[int, int]:
    """tile number -> cell index, for the placed tiles."""
    return {b[0]: i for i, b in enumerate(board) if b is not None}


def _square_letters(tile: str, orientation: int) -> list[str]:
    """The squares UL, UR, LR, LL as value letters, '' for the empty one."""
    return ["" if v == EMPTY else VALUES[v] for v in squares_of(tile, orientation)]


def _conflict(data: Mapping, tile: int, cell: int, orientation: int) -> str | None:
    """Why tile `tile` cannot lie on `cell` at `orientation` (its own old place ignored), or None."""
    board = data["board"]
    mine = squares_of(data["tiles"][tile - 1], orientation)
    for square, other, other_square in NEIGHBOUR_PAIRS[cell]:
        occupant = board[other]
        if occupant is None or occupant[0] == tile:
            continue
        theirs = squares_of(data["tiles"][occupant[0] - 1], occupant[1])[other_square]
        if pair_condition(mine[square], theirs) == 0:
            return (f"Tile {tile} cannot go on {CELLS[cell]} with turn {orientation}: its "
                    f"{SQUARE_WORDS[SQUARES[square]]} square ({square_text(mine[square])}) would "
                    f"face the {SQUARE_WORDS[SQUARES[other_square]]} square of tile {occupant[0]} "
                    f"on {CELLS[other]} ({square_text(theirs)}): two coins that neither match nor "
                    f"add up to 5.")
    return None


def board_score(tiles: Sequence[str], board: Sequence) -> int:
    """Two points for every matching pair of facing squares (equal values, or both empty)."""
    matches = 0
    for a, a_sq, b, b_sq in FACING_PAIRS:
        if board[a] is None or board[b] is None:
            continue
        x = squares_of(tiles[board[a][0] - 1], board[a][1])[a_sq]
        y = squares_of(tiles[board[b][0] - 1], board[b][1])[b_sq]
        matches += x == y
    return POINTS_PER_PAIR * matches


# =========================================================================== the exact solver


@dataclass(frozen=True)
class Solution:
    """The best score of a deal and one arrangement reaching it: (tile, cell, orientation)."""

    score: int
    placements: tuple[tuple[int, str, int], ...]

    def actions(self) -> list[Place]:
        return [Place(tile, cell, orientation) for tile, cell, orientation in self.placements]


@lru_cache(maxsize=64)
def solve(tiles: tuple[str, ...]) -> Solution:
    """The exact best score of a deal: any subset of the tiles, any turns, empty cells allowed."""
    return _Solver(check_tiles(list(tiles))).run()


# Search positions run row by row from the top left (a4 b4 c4 d4 a3 ... d1), so each new tile
# meets at most two placed neighbours: the one to its left and the one above.
_ORDER = tuple(cell_at(k % SIZE, SIZE - 1 - k // SIZE) for k in range(TILES))
_NONE = 49   # signature of "no tile there"


class _Found(Exception):
    """A layout reaching the target: the search stops."""


class _Solver:
    """Branch and bound over positions, in row order from the top left.

    The bound of a partial layout at position k is: its score, plus the best the suffix
    k..15 could score on its own (`ceiling[k]`, the exact best of that smaller board, solved
    first, from the last position back), plus the pairs between the placed tiles and the
    suffix that could still match. For a waiting cell below a placed tile, those are the pairs
    the best unused tile would match. Each suffix is solved with descending targets: its best
    lies between the next suffix's best and that plus the pairs the new position adds.

    Symmetry: turning a whole 4x4 layout a quarter turn keeps its score, so on the full board
    one tile (without a twin) is tried unturned only; twin tiles are used in number order.
    """

    def __init__(self, tiles: Sequence[str]):
        # Any number of tiles (tests solve small sets); a deal has sixteen.
        self.tiles = list(tiles)
        count = len(self.tiles)
        twins = [[u for u in range(count) if self.tiles[u] == self.tiles[t]] for t in range(count)]
        self.fixed = next((t for t in range(count) if len(twins[t]) == 1), None)
        # A tile may be used only once every earlier twin is used.
        self.before = [sum(1 << u for u in twins[t] if u < t) for t in range(count)]
        self.cands: dict[int, list] = {}
        self.up_best: dict[int, list] = {}
        self.placed: list = [None] * TILES   # per position: squares, or None (empty or absent)
        self.chosen: list = [None] * TILES   # per position: (tile, orientation) or None

    def candidates(self, up: int, left: int, whole: bool) -> list:
        """(gain, tile bit, tile, orientation, squares) fitting below `up` and right of `left`
        (signatures: the two facing squares as 7a+b, or _NONE), best gain first. With `whole`
        (the full board), the fixed tile only unturned."""
        key = (up * 64 + left) * 2 + whole
        found = self.cands.get(key)
        if found is None:
            found = []
            for t in range(len(self.tiles)):
                for o in range(4):
                    if whole and t == self.fixed and o:
                        continue
                    sq = squares_of(self.tiles[t], o)
                    gain = 0
                    ok = True
                    facing = []
                    if up != _NONE:
                        facing += [(up // 7, sq[UL]), (up % 7, sq[UR])]
                    if left != _NONE:
                        facing += [(left // 7, sq[UL]), (left % 7, sq[LL])]
                    for x, y in facing:
                        c = pair_condition(x, y)
                        ok = ok and c != 0
                        gain += c == 1
                    if ok:
                        found.append((gain, 1 << t, t, o, sq))
            found.sort(key=lambda c: -c[0])
            self.cands[key] = found
        return found

    def best_below(self, up: int) -> list:
        """(gain, tile bit): for each tile, the most pairs it can match under `up`, best first."""
        found = self.up_best.get(up)
        if found is None:
            best: dict[int, int] = {}
            for gain, bit, *_ in self.candidates(up, _NONE, False):
                best[bit] = max(best.get(bit, 0), gain)
            found = sorted(((g, bit) for bit, g in best.items()), key=lambda x: -x[0])
            self.up_best[up] = found
        return found

    def run(self, first: int = 0) -> Solution:
        """The best layout of positions first..15 (0: the whole board; tests use the others:
        positions run a4 b4 c4 d4 a3 ... d1)."""
        ceiling = [0] * (TILES + 1)
        layout: tuple = ()
        for start in range(TILES - 1, first - 1, -1):
            # Position `start` adds at most the pairs with its right and lower neighbours.
            most = ceiling[start + 1] + 2 * (start % SIZE < SIZE - 1) + 2 * (start < TILES - SIZE)
            # A first layout: the next suffix's best with the best tile added here.
            score, layout = self.extend(start, ceiling[start + 1], layout)
            if score < most:
                found = self.search(start, score, most, ceiling)
                if found is not None:
                    score, layout = found
            ceiling[start] = score
        placements = tuple(sorted(
            (c[0] + 1, CELLS[_ORDER[first + k]], c[1]) for k, c in enumerate(layout)
            if c is not None))
        return Solution(POINTS_PER_PAIR * ceiling[first], placements)

    def extend(self, start: int, score: int, layout: tuple) -> tuple[int, tuple]:
        """`layout` (positions start+1..15, scoring `score`) with the unused tile that matches
        most at `start` (or nothing there)."""
        used = {c[0] for c in layout if c is not None}
        facing = []   # (my square, their square value)
        right = layout[0] if start % SIZE < SIZE - 1 and layout else None
        if right is not None:
            sq = squares_of(self.tiles[right[0]], right[1])
            facing += [(UR, sq[UL]), (LR, sq[LL])]
        below = layout[SIZE - 1] if start < TILES - SIZE and len(layout) >= SIZE else None
        if below is not None:
            sq = squares_of(self.tiles[below[0]], below[1])
            facing += [(LL, sq[UL]), (LR, sq[UR])]
        best, choice = -1, None
        for t in range(len(self.tiles)):
            if t in used:
                continue
            for o in range(4):
                mine = squares_of(self.tiles[t], o)
                conditions = [pair_condition(mine[a], b) for a, b in facing]
                if 0 not in conditions and conditions.count(1) > best:
                    best, choice = conditions.count(1), (t, o)
        if choice is None:
            return score, (None,) + layout
        return score + best, (choice,) + layout

    def search(self, start: int, floor: int, most: int, ceiling: list) -> tuple | None:
        """The best layout of positions start..15 scoring more than `floor` matching pairs
        among them (at most `most`): (score, tuple of (tile, orientation) or None per
        position), or None if there is none."""
        placed, chosen = self.placed, self.chosen
        before = self.before
        candidates = self.candidates
        best_below = self.best_below
        whole = start == 0
        need = floor + 1
        best = None

        def step(k: int, used: int, score: int) -> None:
            nonlocal need, best
            if k == TILES:
                best = (score, tuple(chosen[start:]))
                need = score + 1
                if need > most:
                    raise _Found
                return
            col = k % SIZE
            above = placed[k - SIZE] if k - SIZE >= start else None
            left = placed[k - 1] if col and k - 1 >= start else None
            up_sig = above[LL] * 7 + above[LR] if above is not None else _NONE
            left_sig = left[UR] * 7 + left[LR] if left is not None else _NONE
            # What the waiting cells below placed tiles (after this one, in this row) could match.
            waiting = 0
            for j in range(k + 1, min(k + SIZE, TILES)):
                if j - SIZE < start:
                    continue
                over = placed[j - SIZE]
                if over is not None:
                    for g, bit in best_below(over[LL] * 7 + over[LR]):
                        if not used & bit:
                            waiting += g
                            break
            base = score + waiting + ceiling[k + 1]
            # Pairs with the next cell of the row and the cell below, if this one is filled.
            reach = base + 2 * (col < SIZE - 1) + 2 * (k < TILES - SIZE)
            for gain, bit, t, o, sq in candidates(up_sig, left_sig, whole):
                if reach + gain < need:
                    break
                if used & bit or used & before[t] != before[t]:
                    continue
                placed[k] = sq
                chosen[k] = (t, o)
                step(k + 1, used | bit, score + gain)
            placed[k] = chosen[k] = None
            if base >= need:  # leaving k empty could still reach the target
                step(k + 1, used, score)

        try:
            step(start, 0, 0)
        except _Found:
            pass
        self.placed[:] = [None] * TILES
        self.chosen[:] = [None] * TILES
        return best


GAME = PackSolitaire()
