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
    return solve_cells(check_tiles(list(tiles)), range(len(CELLS)))


def solve_cells(tiles: Sequence[str], cells) -> Solution:
    """The exact best score of `tiles` (any number of them) on `cells` (cell indices, any part
    of the board; tests check small parts against brute force), with one layout reaching it."""
    search = _Search(list(tiles), sorted(set(cells)))
    lost, layout = search.run()
    placements = tuple(sorted((tile + 1, CELLS[search.cells[k]], turn)
                              for k, (tile, turn) in enumerate(layout) if tile >= 0))
    return Solution(POINTS_PER_PAIR * (search.pairs - lost), placements)


# The search counts LOST pairs (a full board has 48; best layouts lose 7-16), as a branch and
# bound: each layout found lowers the budget to one pair less than it lost. Cells are filled in
# an order in which each meets at most two placed neighbours, the one above and the one to its
# left: on the full board the top two rows column by column, then the third row, then the
# bottom one. The bound of a partial layout: the pairs lost so far, plus for every waiting
# cell (unfilled, with a placed neighbour) the fewest pairs any unused tile, or nothing, would
# lose against its placed neighbours.
#
# The quarter-turn cut (full board): a quarter turn of the whole layout keeps its score and
# carries the 48 pairs round in 12 orbits of four. Weigh the two pairs of each orbit that the
# search decides first 9/8 and 7/8, the other two 0: summed over the four turns of any layout,
# the weighed lost pairs come to twice its loss, so one of its turns weighs at most half its
# loss. Searching only for layouts that weigh at most half the budget therefore misses no
# score, and it cuts the top two rows, where the search spends most, to half the budget.
# Twin tiles are used in number order.
_TURN_WEIGHTS = (9, 7, 0, 0)   # eighths, for an orbit's pairs in the order they are decided
_EIGHTHS = 8
_REMEMBERED = (10, 12)   # whole board: positions (c2, a1) where failed searches of the rest are kept
# Signatures of a neighbour's facing squares: 7 * first + second, or one of these.
_NO_CELL = 49      # no cell there (outside the part of the board being solved)
_EMPTY_CELL = 50   # a cell left empty: every pair with it is lost
_LOST_COUNT = tuple(bin(m).count("1") for m in range(16))


def _search_cells(cells: list[int]) -> list[int]:
    """The cells in search order (see above); a part of the board goes row by row from the top."""
    if len(cells) < len(CELLS):
        return sorted(cells, key=lambda c: (-(c % SIZE), c // SIZE))
    top_rows = [cell_at(col, row) for col in range(SIZE) for row in (SIZE - 1, SIZE - 2)]
    return top_rows + [cell_at(col, row) for row in range(SIZE - 3, -1, -1) for col in range(SIZE)]


class _Search:
    def __init__(self, tiles: list[str], cells: list[int]):
        self.cells = order = _search_cells(cells)
        count = len(order)
        where = {cell: k for k, cell in enumerate(order)}
        # per position: the positions of the cells above and to the left (count: none)
        self.above = [where.get(c + 1, count) if c % SIZE < SIZE - 1 else count for c in order]
        self.left = [where.get(c - SIZE, count) if c >= SIZE else count for c in order]
        self.pairs = 2 * sum((u < count) + (l < count) for u, l in zip(self.above, self.left))
        twins = [[u for u in range(len(tiles)) if tiles[u] == tiles[t]] for t in range(len(tiles))]
        self.earlier_twins = [sum(1 << u for u in twins[t] if u < t) for t in range(len(tiles))]
        self.whole_board = count == len(CELLS)
        self.squares = [[squares_of(text, turn) for turn in range(4)] for text in tiles]
        self._candidates: dict[int, tuple] = {}
        self._fits: dict[tuple, tuple] = {}
        # per tile and turn: its tile bit, earlier twins' bits, (tile, turn), signatures below
        # and to the right (as columns, for `candidates`)
        self._turned = tuple(zip(*[(1 << tile, self.earlier_twins[tile], (tile, turn),
                                    64 * (7 * sq[LL] + sq[LR]), 7 * sq[UR] + sq[LR])
                                   for tile, turns in enumerate(self.squares) for turn, sq in enumerate(turns)]))
        self._fewest: dict[tuple | None, dict[int, tuple]] = {}   # weights -> key -> list

    def candidates(self, key: int) -> tuple:
        """What may fill a cell whose neighbours above and to the left show `key` (64 * above
        signature + left signature), fewest lost pairs first: (lost, tile bit, earlier twins'
        bits, (tile, turn), signature below, signature to the right, lost pairs as bits:
        above-left 1, above-right 2, left-upper 4, left-lower 8). Nothing there is one of them."""
        found = self._candidates.get(key)
        if found is None:
            above, left = divmod(key, 64)
            found = [(_LOST_COUNT[lost], bit, twins, choice, below, right, lost)
                     for up, side, bit, twins, choice, below, right
                     in zip(self.fits(above, 0), self.fits(left, 2), *self._turned)
                     if up >= 0 and side >= 0 for lost in (up | side,)]
            lost = (3 if above != _NO_CELL else 0) | (12 if left != _NO_CELL else 0)
            found.append((_LOST_COUNT[lost], 0, 0, (-1, 0), 64 * _EMPTY_CELL, _EMPTY_CELL, lost))
            found.sort(key=lambda c: c[0])
            found = self._candidates[key] = tuple(found)
        return found

    def fits(self, sig: int, bit: int) -> tuple:
        """Per tile and turn (in `_turned` order), the pairs it loses (as bits, from `bit` on)
        against a neighbour above (bit 0) or to the left (bit 2) whose facing squares show
        `sig`, or -1 where a pair breaks a condition. Cached: a key's candidates combine two."""
        found = self._fits.get((sig, bit))
        if found is None:
            mine = (UL, UR) if bit == 0 else (UL, LL)
            found = []
            for turns in self.squares:
                for sq in turns:
                    lost = 0
                    if sig == _EMPTY_CELL:
                        lost = 3 << bit
                    elif sig != _NO_CELL:
                        for offset, theirs, square in zip((0, 1), divmod(sig, 7), mine):
                            if theirs != sq[square]:
                                if pair_condition(theirs, sq[square]) == 0:
                                    lost = -1
                                    break
                                lost |= 1 << (bit + offset)
                    found.append(lost)
            found = self._fits[(sig, bit)] = tuple(found)
        return found

    def fewest(self, key: int, weights: tuple | None = None) -> tuple:
        """For a waiting cell showing `key`: (least loss, tile bit) per tile, least first, ending
        with leaving it empty (bit 0, always possible); with `weights` (per lost-pair bit), the
        least weighed loss instead. Cached per weights, in `fewest_cache(weights)`."""
        cache = self.fewest_cache(weights)
        found = cache.get(key)
        if found is None:
            least: dict[int, int] = {}
            for lost, bit, _, _, _, _, mask in self.candidates(key):
                if weights is not None:
                    lost = sum(w for b, w in enumerate(weights) if mask >> b & 1)
                if bit == 0:
                    empty = lost
                elif lost < least.get(bit, 99):
                    least[bit] = lost
            found = cache[key] = tuple(sorted((lost, bit) for bit, lost in least.items()
                                              if lost < empty)) + ((empty, 0),)
        return found

    def fewest_cache(self, weights: tuple | None) -> dict[int, tuple]:
        return self._fewest.setdefault(weights, {})

    def turn_weights(self) -> list[list[int]]:
        """Per position, the weight (eighths) of each of its lost-pair bits in the quarter-turn
        cut: pairs are named by their two (cell, square) ends; a quarter turn clockwise moves
        cell (col, row) to (row, 3 - col) and each square one on."""
        weights = [[0] * 4 for _ in self.cells]
        decided = {}   # pair -> (position, bit)
        for k, cell in enumerate(self.cells):
            for bit, (square, other, other_square) in enumerate(
                    ((UL, cell + 1, LL), (UR, cell + 1, LR), (UL, cell - SIZE, UR), (LL, cell - SIZE, LR))):
                if (bit < 2 and self.above[k] < len(self.cells)) or (bit >= 2 and self.left[k] < len(self.cells)):
                    decided[frozenset({(cell, square), (other, other_square)})] = (k, bit)

        def turned(pair):
            return frozenset((cell_at(c % SIZE, SIZE - 1 - c // SIZE), (sq + 1) % 4) for c, sq in pair)

        done = set()
        for pair in decided:
            if pair in done:
                continue
            orbit = [pair]
            while turned(orbit[-1]) != pair:
                orbit.append(turned(orbit[-1]))
            done.update(orbit)
            for weight, member in zip(_TURN_WEIGHTS, sorted(orbit, key=decided.get)):
                k, bit = decided[member]
                weights[k][bit] = weight
        return weights

    def run(self) -> tuple[int, list]:
        """(least lost pairs, per position (tile, turn), tile -1 for nothing)."""
        count = len(self.cells)
        above, left, candidates, fewest = self.above, self.left, self.candidates, self.fewest
        if self.whole_board:
            weights = self.turn_weights()
        else:   # (no cut)
            weights = [[0] * 4 for _ in self.cells]
        by_mask = [tuple(sum(w[b] for b in range(4) if m >> b & 1) for m in range(16)) for w in weights]
        # per position: the waiting cells after it (unfilled, with a placed neighbour), as
        # (their position, above, left: placed ones or `count`)
        waiting = [tuple((j, above[j] if above[j] < k else count, left[j] if left[j] < k else count)
                         for j in range(k + 1, count) if above[j] < k or left[j] < k)
                   for k in range(count + 1)]
        # A waiting cell whose placed neighbours are the same one step later keeps its least
        # losses unless a tile it counted on was just used: per position, each waiting cell as
        # (above, left, where it was in the previous position's list or -1, the cache of its
        # least weighed losses or None where nothing of it is weighed, its weights).
        carried = []
        for k in range(count + 1):
            before = [cell[1:] for cell in waiting[k - 1]] if k else []
            carried.append(tuple(
                (up, side, before.index((up, side)) if (up, side) in before else -1,
                 self.fewest_cache(tuple(weights[j])) if any(weights[j]) else None, tuple(weights[j]))
                for j, up, side in waiting[k]))
        known_least = self.fewest_cache(None)
        # per position: its candidates in the order tried (cached per key, shared by positions
        # weighed alike), with their weighed loss: by loss where nothing is weighed, else by
        # weighed loss
        alike: dict[tuple, dict] = {}
        choices = [(alike.setdefault(tuple(weights[k]), {}), by_mask[k] if any(weights[k]) else None)
                   for k in range(count)]

        def ordered(key: int, k: int) -> tuple:
            known, mask_weights = choices[k]
            found = [(more, mask_weights[mask] if mask_weights else 0, bit | twins, twins, choice, below, right)
                     for more, bit, twins, choice, below, right, mask in candidates(key)]
            if mask_weights:
                found.sort(key=lambda c: c[1])
            known[key] = found = tuple(found)
            return found

        below_sig = [64 * _NO_CELL] * (count + 1)   # per position: 64 * what its lower side shows
        right_sig = [_NO_CELL] * (count + 1)
        chosen = [(-1, 0)] * count
        budget = self.pairs
        cut = budget * _EIGHTHS // 2 if self.whole_board else 1 << 30
        best: list = []

        def step(k: int, used: int, lost: int, weighed: int, before: list) -> None:
            nonlocal budget, cut
            if k == count:
                if lost > budget:   # (cannot happen: every step is checked against the budget)
                    return
                best[:] = [lost, list(chosen)]
                budget = lost - 1
                if self.whole_board:
                    cut = budget * _EIGHTHS // 2
                return
            bound, weighed_bound = lost, weighed
            counted = []   # per waiting cell: (least loss, its tile, least weighed loss, its tile)
            for up, side, was, known_weighed, cell_weights in carried[k]:
                if was >= 0:
                    entry = before[was]
                    if not used & (entry[1] | entry[3]):
                        counted.append(entry)
                        bound += entry[0]
                        weighed_bound += entry[2]
                        continue
                key = below_sig[up] + right_sig[side]
                for least, bit in known_least.get(key) or fewest(key):
                    if not used & bit:
                        break
                if known_weighed is None:
                    counted.append((least, bit, 0, 0))
                    bound += least
                    continue
                for least_weighed, weighed_bit in known_weighed.get(key) or fewest(key, cell_weights):
                    if not used & weighed_bit:
                        break
                counted.append((least, bit, least_weighed, weighed_bit))
                bound += least
                weighed_bound += least_weighed
            if bound > budget or weighed_bound > cut:
                return
            key = below_sig[above[k]] + right_sig[left[k]]
            known, mask_weights = choices[k]
            go = calls[k]
            if mask_weights is None:   # (no weights here: only the budget bounds)
                for more, weigh, need, twins, choice, below, right in known.get(key) or ordered(key, k):
                    if bound + more > budget:   # (the budget drops as better layouts are found)
                        break
                    if used & need != twins:   # the tile is used, or an earlier twin is not
                        continue
                    chosen[k] = choice
                    below_sig[k], right_sig[k] = below, right
                    go(k + 1, used | need, lost + more, weighed, counted)
            else:   # most that break the budget break the cut first: weighed least first
                for more, weigh, need, twins, choice, below, right in known.get(key) or ordered(key, k):
                    if weighed_bound + weigh > cut:
                        break
                    if bound + more > budget or used & need != twins:
                        continue
                    chosen[k] = choice
                    below_sig[k], right_sig[k] = below, right
                    go(k + 1, used | need, lost + more, weighed + weigh, counted)

        # The rest of the search from a position where nothing is weighed any more depends only
        # on the tiles left and on what the placed cells show towards the rest: a search of the
        # rest that found nothing within `budget - lost` finds nothing within less, so it is
        # remembered (at a few positions of the lower half).
        failed: dict[tuple, int] = {}
        frontier = [tuple(sorted({above[j] for j in range(k, count) if above[j] < k})) for k in range(count + 1)]
        sides = [tuple(sorted({left[j] for j in range(k, count) if left[j] < k})) for k in range(count + 1)]

        def rest(k: int, used: int, lost: int, weighed: int, before: list) -> None:
            if weighed > cut:   # (the cut fell since the parent looked)
                return
            room = budget - lost
            key = (k, used, *[below_sig[j] for j in frontier[k]], *[right_sig[j] for j in sides[k]])
            if failed.get(key, -1) >= room:
                return
            step(k, used, lost, weighed, before)
            if budget - lost == room:   # (nothing better found: the budget, and so the cut, stayed)
                failed[key] = room

        # (remembered only where the rest weighs nothing: there the cut cannot prune it)
        unweighed_from = next(k for k in range(count, -1, -1) if k == 0 or any(weights[k - 1]))
        calls = [rest if self.whole_board and k + 1 in _REMEMBERED and k + 1 >= unweighed_from else step
                 for k in range(count)]
        step(0, 0, 0, 0, [])
        return best[0], best[1]


GAME = PackSolitaire()
