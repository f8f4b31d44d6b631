"""The Relativity board: a view of engine.relativity drawn as SVG.

Layout (user units are the pixels of the default PNG): a header with the round and
whose turn it is; the 4 x 6 board of six tile backs with the coins value side up and the
coordinates; on the right the round's trophy tiles still to be won; below, one panel per player
with their role and the trophies they hold.
"""

from __future__ import annotations

from engine.piecepack import VALUES

from . import piecepack as pp
from .common import HIGHLIGHT, display_names, outcome_headline
from .svg import circle, document, element, fit, group, line, rect, text

# The default size is a trade: big enough to read on a phone (Discord shows ~400 px), small
# enough for resvg to draw in under 30 ms; its cost grows with the area of shapes and glyphs.
WIDTH, HEIGHT = 560, 492
# No text under 16 units: 11.4 px when Discord shows the board 400 px wide.
SMALL = 16
COLUMNS, ROWS = "abcdef", "1234"
CELL = 70
BOARD_X, BOARD_Y = 32, 62  # corner of cell a4, on whole pixels: tiles are drawn with rects
COIN = 62
RACK_TILE = 38
SWAP = "#ff9414"
MOLECULE = "#3fd0b4"

THEMES = {
    "night": {"sky": "#1b2340", "panel": "#29335a", "ink": "#f2f0ea", "soft": "#aab4d6",
              "motif": "#f1e4a6", "trophy_suit": "moons", "title": "Night"},
    "day": {"sky": "#cde9f8", "panel": "#f5fafd", "ink": "#1f1c18", "soft": "#4d6473",
            "motif": "#e8a21a", "trophy_suit": "suns", "title": "Day"},
}


def cell_centre(cell: str) -> tuple[float, float]:
    column, row = COLUMNS.index(cell[0]), int(cell[1:]) - 1
    return BOARD_X + (column + 0.5) * CELL, BOARD_Y + (len(ROWS) - 1 - row + 0.5) * CELL


def draw(view: dict, names: dict[str, str] | None = None, palette: str = "standard") -> str:
    """The SVG of a Relativity view. `names` maps player ids to display names."""
    names = display_names(view, names)
    theme = THEMES[view["round"]]
    defs = pp.Defs(palette)
    body = [
        rect(0, 0, WIDTH, HEIGHT, fill=theme["sky"]),
        _header(view, names, theme, defs),
        _board(view, theme, defs),
        _trophy_rack(view, theme, defs),
        _players(view, names, theme, defs),
    ]
    return document(WIDTH, HEIGHT, "".join(body), defs.svg(),
                    data_game="relativity", data_round=view["round"])


# ---------------------------------------------------------------------------- header


def _header(view: dict, names: dict, theme: dict, defs: pp.Defs) -> str:
    motif = pp.suit_symbol(defs, "moons" if view["round"] == "night" else "suns", theme["motif"])
    parts = [
        pp.use(motif, 28, 30, 36),
        text(52, 30, f"{theme['title']} round", 22, bold=True, anchor="start", fill=theme["ink"],
             class_="round"),
    ]
    outcome = view.get("outcome")
    if outcome:
        parts.append(text(WIDTH - 14, 21, fit(outcome_headline(outcome, names), 24), 20,
                          bold=True, anchor="end", fill=theme["ink"], class_="status"))
        parts.append(text(WIDTH - 14, 45, fit(_with_names(outcome["reason"], names), 40), SMALL,
                          anchor="end", fill=theme["soft"], class_="reason"))
    elif view.get("turn") is not None:
        player = view["turn"]
        role = "Space" if view["roles"]["space"] == player else "Time"
        parts.append(text(WIDTH - 14, 30, f"{fit(names[player], 14)} to move · {role}", 18,
                          bold=True, anchor="end", fill=theme["ink"], class_="status"))
    return group("".join(parts), class_="header")


def _with_names(reason: str, names: dict) -> str:
    """The engine writes player ids into reasons; show display names instead."""
    for player in sorted(names, key=len, reverse=True):
        reason = reason.replace(player, names[player])
    return reason


# ---------------------------------------------------------------------------- board


def _board(view: dict, theme: dict, defs: pp.Defs) -> str:
    back = pp.tile_back(defs, 2 * CELL)
    parts = [pp.place(back, BOARD_X + 2 * CELL * tile_column, BOARD_Y + 2 * CELL * tile_row,
                      2 * CELL)
             for tile_column in range(3) for tile_row in range(2)]
    for index, column in enumerate(COLUMNS):
        x = BOARD_X + (index + 0.5) * CELL
        parts.append(text(x, BOARD_Y + 4 * CELL + 14, column, 17, bold=True, fill=theme["soft"],
                          class_="coord"))
    for row in ROWS:
        _, y = cell_centre("a" + row)
        parts.append(text(BOARD_X - 16, y, row, 17, bold=True, fill=theme["soft"],
                          class_="coord"))
    parts.append(_molecules(view))
    swap = view.get("last_swap")
    # Only Space's power wraps; a Time swap such as a1#f1 is a plain bar across the board.
    link_under, link_over = (_swap_link(*swap, space=view.get("last_swap_role") != "time")
                             if swap else ("", ""))
    parts.append(link_under)
    for cell, value in sorted(view["coins"].items()):
        x, y = cell_centre(cell)
        parts.append(pp.use(pp.coin_value(defs, value), x, y, COIN, class_="coin",
                            data_cell=cell, data_value=value))
    if swap:
        for cell in swap:
            x, y = cell_centre(cell)
            parts.append(circle(x, y, COIN / 2 + 4, fill="none", stroke=SWAP, stroke_width=5.5,
                                class_="last-swap", data_cell=cell))
        parts.append(link_over)
    return group("".join(parts), class_="board")


def _swap_link(first: str, second: str, space: bool = True) -> tuple[str, str]:
    """What joins the two swapped cells: (drawn under the coins, drawn over them). Usually a bar
    under the coins; a Space swap across the wrapped edge instead gets a point on each ring,
    aimed at the edge it wrapped over."""
    (x1, y1), (x2, y2) = cell_centre(first), cell_centre(second)
    dx, dy = round((x2 - x1) / CELL), round((y2 - y1) / CELL)
    if abs(dx) <= 1 and abs(dy) <= 1 or not space or not _wraps(dx, dy):
        return line(x1, y1, x2, y2, stroke=SWAP, stroke_width=7, stroke_linecap="round",
                    class_="swap-link"), ""
    ux = -_sign(dx) if abs(dx) > 1 else _sign(dx)
    uy = -_sign(dy) if abs(dy) > 1 else _sign(dy)
    return "", _wrap_arrow(x1, y1, ux, uy) + _wrap_arrow(x2, y2, -ux, -uy)


def _wrap_arrow(x: float, y: float, ux: int, uy: int) -> str:
    """A point on a swapped coin's ring, aimed at the board edge the swap wrapped over. Kept
    short so it never reaches the coordinates beside the board."""
    length = (ux * ux + uy * uy) ** 0.5
    ux, uy = ux / length, uy / length
    ring, tip, half = COIN / 2 + 4, COIN / 2 + 18, 10
    points = ((x + ux * tip, y + uy * tip), (x + ux * ring - uy * half, y + uy * ring + ux * half),
              (x + ux * ring + uy * half, y + uy * ring - ux * half))
    return element("polygon", points=" ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                   fill=SWAP, class_="swap-link")


def _wraps(dx: int, dy: int) -> bool:
    """Neighbours only across the wrapped edge (a Space swap such as a1#f1)."""
    return abs(dx) in (0, 1, len(COLUMNS) - 1) and abs(dy) in (0, 1, len(ROWS) - 1)


def _sign(n: int) -> int:
    return (n > 0) - (n < 0)


def _molecules(view: dict) -> str:
    """Molecules the last swap completed: a soft glow joining their cells, under the coins."""
    swap = set(view.get("last_swap") or ())
    parts = []
    for molecule in view.get("molecules", []):
        cells = list(molecule["cells"])
        if molecule.get("round") != view["round"] or not swap & set(cells):
            continue
        if any(view["coins"].get(cell) != molecule["value"] for cell in cells):
            continue  # broken up since it was claimed
        bonds = []
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                (xa, ya), (xb, yb) = cell_centre(a), cell_centre(b)
                if abs(xa - xb) + abs(ya - yb) == CELL:
                    bonds.append(line(xa, ya, xb, yb))
        glow = "".join(circle(*cell_centre(c), COIN / 2 + 6) for c in cells)
        parts.append(group(
            group("".join(bonds), stroke=MOLECULE, stroke_width=20, stroke_linecap="round")
            + group(glow, fill=MOLECULE),
            opacity="0.55", class_="molecule", data_value=molecule["value"],
            data_cells=" ".join(cells),
        ))
    return "".join(parts)


# ---------------------------------------------------------------------------- trophies


def _trophy_rack(view: dict, theme: dict, defs: pp.Defs) -> str:
    """This round's six trophy tiles: those already won are faded out, one set aside when the
    round closed is crossed out."""
    suit = theme["trophy_suit"]
    won = view["trophies"][view["round"]]
    set_aside = view.get("set_aside", {}).get(view["round"], [])
    left = round(BOARD_X + 6 * CELL + (WIDTH - BOARD_X - 6 * CELL - RACK_TILE) / 2)
    parts = []
    for index, value in enumerate(VALUES):
        top = BOARD_Y + 2 + index * 47
        state = ("trophy-won" if won.get(value) is not None
                 else "trophy-set-aside" if value in set_aside else "trophy-open")
        parts.append(pp.place(pp.tile_face(defs, suit, value, RACK_TILE), left, top, RACK_TILE,
                              opacity=None if state == "trophy-open" else "0.22",
                              class_=state, data_value=value))
        if state == "trophy-set-aside":
            parts.append(line(left - 3, top + RACK_TILE + 3, left + RACK_TILE + 3, top - 3,
                              stroke=theme["soft"], stroke_width=3))
    parts.append(text(left + RACK_TILE / 2, BOARD_Y + 4 * CELL + 14, "Trophies", SMALL, bold=True,
                      fill=theme["soft"]))
    return group("".join(parts), class_="trophy-rack")


# ---------------------------------------------------------------------------- players


def _players(view: dict, names: dict, theme: dict, defs: pp.Defs) -> str:
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    margin, gap, height = 10, 10, 104
    top = HEIGHT - margin - height
    width = (WIDTH - 2 * margin - gap) // 2
    parts = []
    for index, role in enumerate(("Space", "Time")):
        player = view["roles"][role.lower()]
        active = player == view.get("turn") and not outcome
        parts.append(group(
            _player_panel(view, player, names[player], role, margin + index * (width + gap), top,
                          width, height, theme, defs, active=active, winner=player in winners),
            class_="player", data_player=player, data_role=role.lower(),
        ))
    return "".join(parts)


def _player_panel(view, player, name, role, x, y, w, h, theme, defs, *, active, winner) -> str:
    """Role icon and word on the left; name, trophy count and the trophies held on the right.
    The player to move (or the winner) gets a gold frame and a tab on it saying so."""
    flagged = active or winner
    parts = [rect(x, y, w, h, fill=theme["panel"], stroke=HIGHLIGHT if flagged else "none",
                  stroke_width=3)]
    parts.append(pp.use(_role_icon(defs, role, theme), x + 30, y + 34, 36))
    parts.append(text(x + 30, y + 72, role, SMALL, bold=True, fill=theme["soft"],
                      class_="role"))
    parts.append(text(x + 62, y + 22, fit(name, 16), 17, bold=True, anchor="start",
                      fill=theme["ink"], class_="name"))
    count = view["trophy_counts"].get(player, 0)
    parts.append(text(x + 62, y + 46, f"{count} troph{'y' if count == 1 else 'ies'}", SMALL,
                      anchor="start", fill=theme["soft"], class_="count", data_count=count))
    held = [("moons", v) for v, p in view["trophies"]["night"].items() if p == player]
    held += [("suns", v) for v, p in view["trophies"]["day"].items() if p == player]
    # at least 31 units: the tile's value stays 11 px tall on a phone (up to 7 held in a row)
    size = int(max(31, min(34, (w - 66) / max(len(held), 1) - 3)))
    for i, (suit, value) in enumerate(held):
        parts.append(pp.place(pp.tile_face(defs, suit, value, size), x + 62 + i * (size + 3),
                              y + 60, size, class_="trophy", data_suit=suit, data_value=value))
    if flagged:
        label = "WINNER" if winner else "TO MOVE"
        tab_w = 16 + len(label) * 12
        parts.append(rect(x + w - 12 - tab_w, y - 11, tab_w, 22, rx=11, fill=HIGHLIGHT))
        parts.append(text(x + w - 12 - tab_w / 2, y, label, SMALL, bold=True, fill=pp.INK,
                          class_="flag"))
    return "".join(parts)


def _role_icon(defs: pp.Defs, role: str, theme: dict) -> str:
    """Space: a four-pointed star; Time: an hourglass. Drawn in the theme's motif colour."""
    paint = theme["motif"]
    symbol_id = f"role-{role.lower()}-{paint.lstrip('#')}"
    if role == "Space":
        shape = (f'<path fill="{paint}" d="M0,-48 C6,-12 12,-6 48,0 C12,6 6,12 0,48'
                 ' C-6,12 -12,6 -48,0 C-12,-6 -6,-12 0,-48Z"/>')
    else:
        shape = (f'<path fill="{paint}" d="M-34,-46 H34 V-36 H26 C26,-14 6,-6 6,0 C6,6 26,14 26,36'
                 ' H34 V46 H-34 V36 H-26 C-26,14 -6,6 -6,0 C-6,-6 -26,-14 -26,-36 H-34Z"/>')
    return defs.need(symbol_id, lambda: pp.symbol(symbol_id, "-50 -50 100 100", shape))
