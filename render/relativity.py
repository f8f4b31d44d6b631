"""The Relativity board: a view of engine.relativity drawn as SVG.

Layout (user units are the pixels of the default 640 x 528 PNG): a header with the round and
whose turn it is; the 4 x 6 board of six tile backs with the coins value side up and the
coordinates; on the right the round's trophy tiles still to be won; below, one panel per player
with their role and the trophies they hold.
"""

from __future__ import annotations

from engine.piecepack import VALUES

from . import piecepack as pp
from .svg import circle, document, element, fit, group, line, rect, text

WIDTH, HEIGHT = 640, 528
COLUMNS, ROWS = "abcdef", "1234"
CELL = 80
BOARD_X, BOARD_Y = 36, 70  # top-left corner of cell a4, on whole pixels (tiles are rects)
COIN = 70
RACK_TILE = 44
SWAP = "#ff9414"
MOLECULE = "#3fd0b4"
TURN = "#ffc533"

THEMES = {
    "night": {"sky": "#1b2340", "panel": "#29335a", "ink": "#f2f0ea", "soft": "#aab4d6",
              "motif": "#f1e4a6", "trophy_suit": "moons", "title": "Night"},
    "day": {"sky": "#cde9f8", "panel": "#f5fafd", "ink": "#1f1c18", "soft": "#4d6473",
            "motif": "#e8a21a", "trophy_suit": "suns", "title": "Day"},
}


def cell_centre(cell: str) -> tuple[float, float]:
    column, row = COLUMNS.index(cell[0]), int(cell[1:]) - 1
    return BOARD_X + (column + 0.5) * CELL, BOARD_Y + (len(ROWS) - 1 - row + 0.5) * CELL


def draw(view: dict, names: dict[str, str] | None = None) -> str:
    """The SVG of a Relativity view. `names` maps player ids to display names."""
    names = {p: str((names or {}).get(p, p)) for p in view["players"]}
    theme = THEMES[view["round"]]
    defs = pp.Defs()
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
        pp.use(motif, 32, 34, 40),
        text(60, 34, f"{theme['title']} round", 25, bold=True, anchor="start", fill=theme["ink"],
             class_="round"),
    ]
    outcome = view.get("outcome")
    if outcome:
        if outcome.get("draw") or not outcome["winners"]:
            headline = "Game drawn"
        else:
            headline = " & ".join(names[w] for w in outcome["winners"]) + " wins"
        parts.append(text(WIDTH - 16, 25, fit(headline, 24), 22, bold=True, anchor="end",
                          fill=theme["ink"], class_="status"))
        parts.append(text(WIDTH - 16, 50, fit(_with_names(outcome["reason"], names), 44), 14,
                          anchor="end", fill=theme["soft"], class_="reason"))
    elif view.get("turn") is not None:
        player = view["turn"]
        role = "Space" if view["roles"]["space"] == player else "Time"
        parts.append(text(WIDTH - 16, 34, f"{fit(names[player], 18)} to move · {role}", 20,
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
        parts.append(text(x, BOARD_Y + 4 * CELL + 16, column, 19, bold=True, fill=theme["soft"],
                          class_="coord"))
    for row in ROWS:
        _, y = cell_centre("a" + row)
        parts.append(text(BOARD_X - 18, y, row, 19, bold=True, fill=theme["soft"], class_="coord"))
    parts.append(_molecules(view))
    swap = view.get("last_swap")
    link_under, link_over = _swap_link(*swap) if swap else ("", "")
    parts.append(link_under)
    for cell, value in sorted(view["coins"].items()):
        x, y = cell_centre(cell)
        parts.append(pp.use(pp.coin_value(defs, value), x, y, COIN, class_="coin",
                            data_cell=cell, data_value=value))
    if swap:
        for cell in swap:
            x, y = cell_centre(cell)
            parts.append(circle(x, y, COIN / 2 + 4, fill="none", stroke=SWAP, stroke_width=6,
                                class_="last-swap", data_cell=cell))
        parts.append(link_over)
    return group("".join(parts), class_="board")


def _swap_link(first: str, second: str) -> tuple[str, str]:
    """What joins the two swapped cells: (drawn under the coins, drawn over them). Usually a bar
    under the coins; a Space swap across the wrapped edge instead gets a point on each ring,
    aimed at the edge it wrapped over."""
    (x1, y1), (x2, y2) = cell_centre(first), cell_centre(second)
    dx, dy = round((x2 - x1) / CELL), round((y2 - y1) / CELL)
    if abs(dx) <= 1 and abs(dy) <= 1 or not _wraps(dx, dy):
        return line(x1, y1, x2, y2, stroke=SWAP, stroke_width=8, stroke_linecap="round",
                    class_="swap-link"), ""
    ux = -_sign(dx) if abs(dx) > 1 else _sign(dx)
    uy = -_sign(dy) if abs(dy) > 1 else _sign(dy)
    return "", _wrap_arrow(x1, y1, ux, uy) + _wrap_arrow(x2, y2, -ux, -uy)


def _wrap_arrow(x: float, y: float, ux: int, uy: int) -> str:
    """A point on a swapped coin's ring, aimed at the board edge the swap wrapped over. Kept
    short so it never reaches the coordinates beside the board."""
    length = (ux * ux + uy * uy) ** 0.5
    ux, uy = ux / length, uy / length
    ring, tip, half = COIN / 2 + 4, COIN / 2 + 19, 11
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
            group("".join(bonds), stroke=MOLECULE, stroke_width=22, stroke_linecap="round")
            + group(glow, fill=MOLECULE),
            opacity="0.55", class_="molecule", data_value=molecule["value"],
            data_cells=" ".join(cells),
        ))
    return "".join(parts)


# ---------------------------------------------------------------------------- trophies


def _trophy_rack(view: dict, theme: dict, defs: pp.Defs) -> str:
    """This round's six trophy tiles; those already won are faded out."""
    suit = theme["trophy_suit"]
    won = view["trophies"][view["round"]]
    left = round(BOARD_X + 6 * CELL + (WIDTH - BOARD_X - 6 * CELL - RACK_TILE) / 2)
    parts = []
    for index, value in enumerate(VALUES):
        owner = won.get(value)
        parts.append(pp.place(pp.tile_face(defs, suit, value, RACK_TILE), left,
                              BOARD_Y + 2 + index * 53, RACK_TILE,
                              opacity=None if owner is None else "0.22",
                              class_="trophy-open" if owner is None else "trophy-won",
                              data_value=value))
    parts.append(text(left + RACK_TILE / 2, BOARD_Y + 4 * CELL + 16, "TROPHIES", 10, bold=True,
                      fill=theme["soft"]))
    return group("".join(parts), class_="trophy-rack")


# ---------------------------------------------------------------------------- players


def _players(view: dict, names: dict, theme: dict, defs: pp.Defs) -> str:
    outcome = view.get("outcome")
    winners = set(outcome["winners"]) if outcome else set()
    margin, gap, top, height = 12, 12, 432, 86
    width = (WIDTH - 2 * margin - gap) / 2
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
    """Role icon and word on the left; name and trophy count on top; trophies held below.
    The player to move (or the winner) gets a gold frame and a tab on it saying so."""
    flagged = active or winner
    parts = [rect(x, y, w, h, rx=10, fill=theme["panel"], stroke=TURN if flagged else "none",
                  stroke_width=3)]
    parts.append(pp.use(_role_icon(defs, role, theme), x + 32, y + 31, 36))
    parts.append(text(x + 32, y + 69, role.upper(), 13, bold=True, fill=theme["soft"],
                      class_="role"))
    parts.append(text(x + 70, y + 25, fit(name, 15), 19, bold=True, anchor="start",
                      fill=theme["ink"], class_="name"))
    parts.append(text(x + w - 12, y + 25, str(view["trophy_counts"].get(player, 0)), 24,
                      bold=True, anchor="end", fill=theme["ink"], class_="count"))
    held = [("moons", v) for v, p in view["trophies"]["night"].items() if p == player]
    held += [("suns", v) for v, p in view["trophies"]["day"].items() if p == player]
    size = int(min(34, (w - 70 - 10) / max(len(held), 1) - 4))
    for i, (suit, value) in enumerate(held):
        parts.append(pp.place(pp.tile_face(defs, suit, value, size), round(x + 70 + i * (size + 4)),
                              y + 44, size, class_="trophy", data_suit=suit, data_value=value))
    if not held:
        parts.append(text(x + 70, y + 61, "no trophies yet", 14, anchor="start",
                          fill=theme["soft"]))
    if flagged:
        label = "WINNER" if winner else "TO MOVE"
        tab_w = 14 + len(label) * 9
        parts.append(rect(x + w - 18 - tab_w, y - 10, tab_w, 20, rx=10, fill=TURN))
        parts.append(text(x + w - 18 - tab_w / 2, y, label, 12, bold=True, fill=pp.INK,
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
    return defs.need(symbol_id, lambda: (
        f'<symbol id="{symbol_id}" viewBox="-50 -50 100 100" overflow="visible">{shape}'
        "</symbol>"))
