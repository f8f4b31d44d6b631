"""The Pack Solitaire board: a view of engine.pack_solitaire drawn as SVG.

Layout (user units are the pixels of the default PNG): a header with the player and the score
(and, when known, the best score of the deal); the 4x4 grid of tile backs with coordinates,
each placed tile showing its three coins value side up, its empty square as a hollow ring and
its number in the middle; a mark on every pair of facing squares for the condition met; a key;
below, the tray of tiles not on the grid, each with its number.
"""

from __future__ import annotations

from . import piecepack as pp
from .common import HIGHLIGHT, display_names
from .svg import circle, document, fit, group, rect, text

WIDTH = 560
TILE = 104                  # a placed tile; each square is half of it
BOARD_X, BOARD_Y = 44, 62   # top-left corner of a4, on whole pixels
COIN = 40
TRAY_TILE = 60
TRAY_GAP = 8
TRAY_PER_ROW = 8
FELT = "#24473a"
INK = "#f3efe4"
SOFT = "#b9cdbf"
SLOT = "#2f5a49"
FIVE = "#8fd3ff"
WILD = "#e8e8e8"
# Squares UL UR LR LL: offsets of their centres from the tile's top-left, in squares.
SQUARE_AT = {"UL": (0.5, 0.5), "UR": (1.5, 0.5), "LR": (1.5, 1.5), "LL": (0.5, 1.5)}
SQUARE_ORDER = ("UL", "UR", "LR", "LL")


def _tray_rows(count: int) -> int:
    return (count + TRAY_PER_ROW - 1) // TRAY_PER_ROW


def height_for(view: dict) -> int:
    rows = max(1, _tray_rows(len(view["tray"])))
    return BOARD_Y + 4 * TILE + 66 + rows * (TRAY_TILE + 26) + 6


def tile_corner(cell: str, tile: int = TILE) -> tuple[int, int]:
    column, row = "abcd".index(cell[0]), int(cell[1]) - 1
    return BOARD_X + column * tile, BOARD_Y + (3 - row) * tile


def draw(view: dict, names: dict[str, str] | None = None, palette: str = "standard") -> str:
    """The SVG of a Pack Solitaire view. `names` maps player ids to display names. A view may
    carry `best` (the deal's best score) and `title_note` (a line for the header)."""
    names = display_names(view, names)
    defs = pp.Defs(palette)
    height = height_for(view)
    body = [
        rect(0, 0, WIDTH, height, fill=FELT),
        _header(view, names),
        _board(view, defs),
        _key(),
        _tray(view, defs),
    ]
    return document(WIDTH, height, "".join(body), defs.svg(), data_game="pack-solitaire")


def _header(view: dict, names: dict) -> str:
    player = names[view["players"][0]]
    score = view["score"]
    best = view.get("best")
    if view.get("title_note"):
        status = view["title_note"]
    elif view["done"] and best is not None:
        status = f"{score} of a possible {best}"
    elif view["done"]:
        status = f"Final score {score}"
    elif view.get("outcome"):
        status = "Gave up"
    else:
        status = f"Score {score}"
    return group(
        text(16, 24, "Pack Solitaire", 22, bold=True, anchor="start", fill=INK)
        + text(16, 48, fit(player, 30), 16, anchor="start", fill=SOFT, class_="player")
        + text(WIDTH - 16, 30, status, 22, bold=True, anchor="end",
               fill=HIGHLIGHT if view["done"] else INK, class_="status"),
        class_="header")


def _board(view: dict, defs: pp.Defs) -> str:
    parts = [rect(BOARD_X, BOARD_Y, 4 * TILE, 4 * TILE, fill=SLOT, stroke="#17302a",
                  stroke_width=2)]
    for k, column in enumerate("abcd"):
        parts.append(text(BOARD_X + (k + 0.5) * TILE, BOARD_Y + 4 * TILE + 14, column, 17,
                          bold=True, fill=SOFT, class_="coord"))
    for row in range(1, 5):
        parts.append(text(BOARD_X - 18, BOARD_Y + (4 - row + 0.5) * TILE, str(row), 17,
                          bold=True, fill=SOFT, class_="coord"))
    back = pp.tile_back(defs, TILE)
    for cell, tile in sorted(view["placed"].items()):
        x, y = tile_corner(cell)
        parts.append(_tile(defs, back, x, y, TILE, tile, COIN, 20, cell=cell))
    parts.append(_pair_marks(view))
    return group("".join(parts), class_="board")


def _tile(defs, back, x, y, size, tile, coin, number_size, cell=None) -> str:
    """A tile back with its coins, its empty square as a ring, and its number in the middle."""
    half = size / 2
    parts = [pp.place(back, x, y, size)]
    for name, value in zip(SQUARE_ORDER, tile["squares"]):
        dx, dy = SQUARE_AT[name]
        cx, cy = x + dx * half, y + dy * half
        if value:
            parts.append(pp.use(pp.coin_value(defs, value), cx, cy, coin, class_="coin",
                                data_value=value))
        else:
            parts.append(circle(cx, cy, coin * 0.36, fill="none", stroke="#5b4420",
                                stroke_width=2.5, stroke_dasharray="4 3", class_="empty"))
    cx, cy = x + half, y + half
    if number_size:  # in the middle, where the four squares meet
        parts.append(circle(cx, cy, number_size * 0.72, fill="#2a2118", stroke=INK,
                            stroke_width=1.5))
        parts.append(text(cx, cy, str(tile["tile"]), number_size * 0.8, bold=True, fill=INK,
                          class_="number"))
    else:        # below the tile
        parts.append(text(cx, y + size + 11, str(tile["tile"]), 16, bold=True, fill=INK,
                          class_="number"))
    return group("".join(parts), class_="tile", data_tile=str(tile["tile"]),
                 data_cell=cell, data_orientation=str(tile["orientation"]))


def _pair_marks(view: dict) -> str:
    """On the edge between two facing squares: a gold bar for a match (it scores), a small
    blue 5 for a five, a grey dot for a wild pair."""
    parts = []
    for pair in view["pairs"]:
        (a, b), (sa, sb) = pair["cells"], pair["squares"]
        ax, ay = tile_corner(a)
        bx, by = tile_corner(b)
        pa = (ax + SQUARE_AT[sa][0] * TILE / 2, ay + SQUARE_AT[sa][1] * TILE / 2)
        pb = (bx + SQUARE_AT[sb][0] * TILE / 2, by + SQUARE_AT[sb][1] * TILE / 2)
        mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
        across = pa[1] == pb[1]   # side by side: the edge between them is vertical
        kind = pair["condition"]
        if kind == 1:
            w, h = (10, 30) if across else (30, 10)
            parts.append(rect(mx - w / 2, my - h / 2, w, h, rx=3, fill=HIGHLIGHT,
                              stroke="#5a3f00", stroke_width=1.5, class_="mark-match"))
        elif kind == 2:
            parts.append(circle(mx, my, 12, fill="#123049", stroke=FIVE, stroke_width=1.5,
                                class_="mark-five"))
            parts.append(text(mx, my, "5", 16, bold=True, fill=FIVE))
        else:
            parts.append(circle(mx, my, 4.5, fill=WILD, stroke="#333", stroke_width=1,
                                class_="mark-wild"))
    return group("".join(parts), class_="marks")


def _key() -> str:
    y = BOARD_Y + 4 * TILE + 38
    parts = [
        rect(16, y - 6, 26, 12, rx=3, fill=HIGHLIGHT, stroke="#5a3f00"),
        text(48, y, "match: 2 points", 16, anchor="start", fill=INK),
        circle(210, y, 12, fill="#123049", stroke=FIVE, stroke_width=1.5),
        text(210, y, "5", 16, bold=True, fill=FIVE),
        text(228, y, "adds up to 5", 16, anchor="start", fill=INK),
        circle(358, y, 4.5, fill=WILD, stroke="#333"),
        text(369, y, "wild (empty square)", 16, anchor="start", fill=INK),
    ]
    return group("".join(parts), class_="key")


def _tray(view: dict, defs: pp.Defs) -> str:
    top = BOARD_Y + 4 * TILE + 62
    parts = []
    if not view["tray"]:
        parts.append(text(16, top + 12, "Every tile is on the grid.", 16, anchor="start",
                          fill=SOFT))
        return group("".join(parts), class_="tray")
    back = pp.tile_back(defs, TRAY_TILE)
    tiles = view["tiles"]
    for k, number in enumerate(view["tray"]):
        row, col = divmod(k, TRAY_PER_ROW)
        x = 16 + col * (TRAY_TILE + TRAY_GAP) + 4
        y = top + row * (TRAY_TILE + 26) + 16
        dealt = tiles[number - 1]
        tile = {"tile": number, "orientation": 0, "squares": [dealt[0], dealt[1], "", dealt[2]]}
        parts.append(_tile(defs, back, x, y, TRAY_TILE, tile, 26, 0))
    parts.insert(0, text(16, top + 6, "Tray (as dealt)", 16, anchor="start", fill=SOFT))
    return group("".join(parts), class_="tray")
