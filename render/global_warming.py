"""The Global Warming board: a view of engine.global_warming drawn as SVG.

Layout (user units are the pixels of the default 600 x 500 PNG): a header with the turn and
what the game waits for; on the left the island on water, with every column and row of the
drawn area numbered (positions read `x,y`); on the right the players (pawn colour, die face
after a reveal, who has chosen) and the coin line with the bag; along the bottom the tiles that
have sunk. Only what the view holds is drawn: a coin shows its up side alone.
"""

from __future__ import annotations

from engine.piecepack import value_name

from . import piecepack as pp
from .svg import circle, document, fit, group, line, rect, text

WIDTH, HEIGHT = 600, 500
HEADER = 44
ISLAND_BOX = (32, HEADER + 8, 356, 356)  # x, y, width, height of the tiles' area
MAX_CELL = 64
SIDE_X = 406  # left edge of the players' column
SKY = "#dfeef6"
WATER = "#3f86b5"
WATER_LINE = "#5b9cc7"
INK = pp.INK
SOFT = "#4d6473"
HIGHLIGHT = "#ffc533"


def draw(view: dict, names: dict[str, str] | None = None) -> str:
    """The SVG of a Global Warming view. `names` maps player ids to display names."""
    names = {p: str((names or {}).get(p, p)) for p in view["players"]}
    defs = pp.Defs()
    body = [
        rect(0, 0, WIDTH, HEIGHT, fill=SKY),
        _header(view, names),
        _island(view, defs),
        _players(view, names, defs),
        _coin_line(view, defs),
        _sunk(view, defs),
    ]
    return document(WIDTH, HEIGHT, "".join(body), defs.svg(), data_game="global-warming",
                    data_turn=view["turn"], data_phase=view["phase"])


# ---------------------------------------------------------------------------- header


def _header(view: dict, names: dict) -> str:
    parts = [text(14, HEADER / 2, f"Turn {view['turn']}", 22, bold=True, anchor="start",
                  fill=INK, class_="turn")]
    parts.append(text(WIDTH - 14, HEADER / 2, _status(view, names), 16, bold=True,
                      anchor="end", fill=INK, class_="status"))
    return group("".join(parts), class_="header")


def _status(view: dict, names: dict) -> str:
    outcome = view.get("outcome")
    if outcome:
        if outcome["winners"]:
            return fit(" & ".join(names[w] for w in outcome["winners"]) + " wins", 40)
        return "Game over: nobody survived" if not outcome.get("draw") else "Game drawn"
    if view["phase"] == "commit":
        choosing = view["to_act"]
        chosen = [p for p in view["committed"] if p in choosing]
        return f"Choose die faces in secret: {len(chosen)} of {len(choosing)} chosen"
    actor = view.get("actor")
    if actor is None:
        return ""
    who = fit(names[actor], 14)
    if view["reveal"]["faces"].get(actor) == "n":
        return f"{who} may move a tile"
    steps = view.get("steps_left")
    return f"{who} moves pawns: {steps} step{'s' if steps != 1 else ''} left"


# ---------------------------------------------------------------------------- island


def _area(view: dict) -> tuple[range, range]:
    """Columns and rows drawn: the tiles' bounding box plus one position all round."""
    xs = [t["x"] for t in view["island"]] or [1, 5]
    ys = [t["y"] for t in view["island"]] or [1, 5]
    return range(min(xs) - 1, max(xs) + 2), range(min(ys) - 1, max(ys) + 2)


def _island(view: dict, defs: pp.Defs) -> str:
    columns, rows = _area(view)
    box_x, box_y, box_w, box_h = ISLAND_BOX
    cell = min(MAX_CELL, box_w // len(columns), box_h // len(rows))
    left = box_x + (box_w - cell * len(columns)) // 2
    top = box_y + (box_h - cell * len(rows)) // 2

    def corner(x: int, y: int) -> tuple[int, int]:
        return left + (x - columns.start) * cell, top + (rows.stop - 1 - y) * cell

    parts = [rect(left, top, cell * len(columns), cell * len(rows), fill=WATER, class_="water")]
    # Faint lines on the water show the positions a tile could be moved to.
    for i in range(1, len(columns)):
        parts.append(rect(left + i * cell, top, 1, cell * len(rows), fill=WATER_LINE))
    for i in range(1, len(rows)):
        parts.append(rect(left, top + i * cell, cell * len(columns), 1, fill=WATER_LINE))
    label = max(11, min(16, cell // 3.5))
    for x in columns:
        cx = corner(x, 0)[0] + cell / 2
        parts.append(text(cx, top + cell * len(rows) + 12, x, label, bold=True, fill=SOFT,
                          class_="coord-x"))
    for y in rows:
        cy = corner(0, y)[1] + cell / 2
        parts.append(text(left - 12, cy, y, label, bold=True, fill=SOFT, class_="coord-y"))
    for tile in view["island"]:
        x, y = corner(tile["x"], tile["y"])
        parts.append(pp.place(pp.tile_face(defs, tile["suit"], tile["value"], cell), x, y, cell,
                              class_="tile", data_pos=f"{tile['x']},{tile['y']}",
                              data_suit=tile["suit"], data_value=tile["value"]))
    for player, pos in view["pawns"].items():
        if pos is None:
            continue
        x, y = corner(pos["x"], pos["y"])
        # Top-right quarter of the tile: its suit (top left) and value (bottom right) stay visible.
        cx, cy, size = x + cell * 0.75, y + cell * 0.25, cell * 0.44
        if player == view.get("viewer"):
            parts.append(circle(cx, cy, size * 0.5, fill=HIGHLIGHT, stroke=INK, stroke_width=1.5,
                                class_="own-pawn", data_player=player))
        parts.append(pp.use(pp.pawn(defs, view["colours"][player]), cx, cy, size, class_="pawn",
                            data_player=player, data_pos=f"{pos['x']},{pos['y']}"))
    return group("".join(parts), class_="island")


# ---------------------------------------------------------------------------- players


def _players(view: dict, names: dict, defs: pp.Defs) -> str:
    reveal = view.get("reveal")
    parts = []
    top = HEADER + 6
    if reveal:
        parts.append(text(WIDTH - 14, top + 7, f"dice of turn {reveal['turn']}", 11,
                          anchor="end", fill=SOFT, class_="reveal-label"))
    row_h = 56
    for index, player in enumerate(view["players"]):
        y = top + 14 + index * row_h
        parts.append(group(_player_row(view, player, names[player], y, row_h, defs),
                           class_="player", data_player=player))
    return "".join(parts)


def _player_row(view: dict, player: str, name: str, y: float, h: float, defs: pp.Defs) -> str:
    colour = view["colours"][player]
    drowned = player in view["drowned"]
    left_game = player in view.get("left", ())
    acting = player == view.get("actor") and not view.get("outcome")
    parts = []
    if acting or player == view.get("viewer"):
        parts.append(rect(SIDE_X - 6, y, WIDTH - SIDE_X, h - 6,
                          fill="#fff5d6" if acting else "#ffffff",
                          stroke=HIGHLIGHT if acting else "none", stroke_width=2))
    pawn = pp.use(pp.pawn(defs, colour), SIDE_X + 14, y + (h - 6) / 2, 32)
    parts.append(group(pawn, opacity="0.35") if drowned or left_game else pawn)
    if drowned:
        parts.append(_strike(SIDE_X + 14, y + (h - 6) / 2, 14, "drowned"))
    die = _reveal_die(view, player, WIDTH - 26, y + (h - 6) / 2, defs)
    room = 12 if die else 16
    if player == view.get("viewer"):
        name = fit(name, room - 6) + " (you)"
    parts.append(text(SIDE_X + 36, y + 17, fit(name, room), 14, bold=True, anchor="start",
                      fill=INK, class_="name"))
    parts.append(text(SIDE_X + 36, y + 36, _player_note(view, player, colour), 12,
                      anchor="start", fill=SOFT, class_="note"))
    if die:
        parts.append(die)
    return "".join(parts)


def _player_note(view: dict, player: str, colour: str) -> str:
    if player in view["drowned"]:
        return f"{colour} · drowned"
    if player in view.get("left", ()):
        return f"{colour} · left the game"
    if view.get("outcome"):
        return colour
    if view["phase"] == "commit":
        if player in view.get("timed_out", ()):
            return f"{colour} · out of time"
        if player == view.get("viewer") and view.get("own_commit"):
            return f"{colour} · you chose {value_name(view['own_commit'])}"
        if player in view["committed"]:
            return f"{colour} · chosen ✓"
        if player in view["to_act"]:
            return f"{colour} · choosing"
        return colour
    if player == view.get("actor"):
        return f"{colour} · acting"
    if player in (view.get("reveal") or {}).get("timed_out", ()):
        return f"{colour} · out of time"
    order = view["reveal"]["order"] if view.get("reveal") else []
    if player in order and order.index(player) > order.index(view["actor"]):
        return f"{colour} · acts later"
    return colour


def _reveal_die(view: dict, player: str, cx: float, cy: float, defs: pp.Defs) -> str:
    """The face the player showed at the last reveal; struck out if it was cancelled."""
    reveal = view.get("reveal")
    if not reveal or player not in reveal["faces"]:
        return ""
    face = reveal["faces"][player]
    die = pp.use(pp.die_face(defs, face, view["colours"][player]), cx, cy, 32,
                 class_="die", data_player=player, data_value=face)
    if player in reveal["cancelled"]:
        return group(die, opacity="0.45") + _strike(cx, cy, 18, "cancelled")
    return die


def _strike(cx: float, cy: float, reach: float, kind: str) -> str:
    return line(cx - reach, cy + reach, cx + reach, cy - reach, stroke="#c0202a",
                stroke_width=4, stroke_linecap="round", class_=kind)


# ---------------------------------------------------------------------------- coins, sunk


def _coin_line(view: dict, defs: pp.Defs) -> str:
    """The line's coins, up side only, left to right; the leftmost is turned next."""
    top = HEADER + 6 + 14 + 4 * 56 + 8
    parts = [text(SIDE_X - 6, top, "Coin line", 14, bold=True, anchor="start", fill=INK),
             text(SIDE_X - 6, top + 17, "left end sinks next", 11, anchor="start", fill=SOFT)]
    size, gap = 44, 8
    parts.append(rect(SIDE_X - 6, top + 26, 3 * size + 4 * gap, size + 2 * gap,
                      fill=pp.TILE_BACK_FILL))  # a wooden tray: light coins need a dark ground
    for index, coin in enumerate(view["coin_line"]):
        cx = SIDE_X - 6 + gap + size / 2 + index * (size + gap)
        cy = top + 26 + gap + size / 2
        if coin["side"] == "suit":
            symbol, shown = pp.coin_suit(defs, coin["suit"]), coin["suit"]
        else:
            symbol, shown = pp.coin_value(defs, coin["value"]), coin["value"]
        parts.append(pp.use(symbol, cx, cy, size, class_="line-coin", data_side=coin["side"],
                            data_shown=shown))
    parts.append(text(SIDE_X - 6, top + 108, f"Bag: {view['bag_count']} coin"
                      f"{'s' if view['bag_count'] != 1 else ''}", 13, anchor="start",
                      fill=INK, class_="bag"))
    return group("".join(parts), class_="coin-line")


def _sunk(view: dict, defs: pp.Defs) -> str:
    """The sunk tiles in the order they went down."""
    top = HEIGHT - 50
    parts = [rect(0, top - 8, WIDTH, HEIGHT - top + 8, fill="#c9e0ec"),
             text(14, top + 18, "Sunk", 14, bold=True, anchor="start", fill=INK)]
    size = int(min(28, (WIDTH - 70) / max(len(view["sunk"]), 1) - 3))
    for index, tile in enumerate(view["sunk"]):
        x = 60 + index * (size + 3)
        parts.append(pp.place(pp.tile_face(defs, tile["suit"], tile["value"], size), x,
                              top + 4, size, class_="sunk", data_suit=tile["suit"],
                              data_value=tile["value"]))
    if not view["sunk"]:
        parts.append(text(60, top + 18, "none yet", 13, anchor="start", fill=SOFT))
    return group("".join(parts), class_="sunk-tiles")
