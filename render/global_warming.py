"""The Global Warming board: a view of engine.global_warming drawn as SVG.

Layout (user units are the pixels of the default 600 x 500 PNG): a header with the turn and
what the game waits for; on the left the island on water, with every column and row of the
drawn area numbered (positions read `x,y`); on the right the players (pawn colour, who has
chosen, and in the act phase the die face each showed; each pawn carries its suit's emblem, the
same on the island and beside the name, so pawns are told apart without their colour) and the
coin line with the bag; along the bottom the tiles that have sunk. Only what the view holds
is drawn: a coin shows its up side alone.

The latest action is marked on the island from the public log: a moved tile's old and new
places, the path of stepped pawns, and the place of the tile that sank last.

Sizes are chosen for a phone, where the image is shown about 400 px wide: no text under 17
user units (11.3 px there), tile values included.
"""

from __future__ import annotations

from engine.piecepack import value_name

from . import piecepack as pp
from .common import HIGHLIGHT, display_names, outcome_headline
from .svg import circle, document, element, fit, group, num, rect, text

WIDTH, HEIGHT = 600, 550
HEADER = 44
SUNK_TOP = HEIGHT - 76  # the band of sunk tiles: two rows of tiles 33 units wide
ISLAND_BOX = (30, HEADER + 8, 334, 356)  # x, y, width, height of the tiles' area
MAX_CELL = 64
SIDE_X = 376  # left edge of the players' column
SIDE_W = WIDTH - 8 - SIDE_X
ROW_H = 62
ROWS_TOP = HEADER + 24  # under the caption of the dice column
SKY = "#dfeef6"
WATER = "#3f86b5"
WATER_LINE = "#5b9cc7"
INK = pp.INK
SOFT = "#3d5361"
TRAIL = "#ff9f1a"  # the path of the latest steps, and a moved tile's arrow
CANCEL = "#c0202a"
NOTE = 17  # the smallest text size that stays readable on a phone


def draw(view: dict, names: dict[str, str] | None = None, palette: str = "standard") -> str:
    """The SVG of a Global Warming view. `names` maps player ids to display names."""
    names = display_names(view, names)
    defs = pp.Defs(palette)
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
    parts.append(text(WIDTH - 14, HEADER / 2, _status(view, names), 17, bold=True,
                      anchor="end", fill=INK, class_="status"))
    return group("".join(parts), class_="header")


def _status(view: dict, names: dict) -> str:
    outcome = view.get("outcome")
    if outcome:
        if not outcome["winners"] and not outcome.get("draw"):
            return "Game over: nobody survived"  # all drowned
        return fit(outcome_headline(outcome, names), 36)
    if view["phase"] == "commit":
        choosing = view["to_act"]
        chosen = [p for p in view["committed"] if p in choosing]
        return f"Choose dice in secret: {len(chosen)} of {len(choosing)} chosen"
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

    def corner(pos) -> tuple[int, int]:
        return left + (pos[0] - columns.start) * cell, top + (rows.stop - 1 - pos[1]) * cell

    def centre(pos) -> tuple[float, float]:
        x, y = corner(pos)
        return x + cell / 2, y + cell / 2

    parts = [rect(left, top, cell * len(columns), cell * len(rows), fill=WATER, class_="water")]
    # Faint lines on the water show the positions a tile could be moved to.
    for i in range(1, len(columns)):
        parts.append(rect(left + i * cell, top, 1, cell * len(rows), fill=WATER_LINE))
    for i in range(1, len(rows)):
        parts.append(rect(left, top + i * cell, cell * len(columns), 1, fill=WATER_LINE))
    label = NOTE
    for x in columns:
        parts.append(text(centre((x, 0))[0], top + cell * len(rows) + 12, x, label, bold=True,
                          fill=SOFT, class_="coord-x"))
    for y in rows:
        parts.append(text(left - 14, centre((0, y))[1], y, label, bold=True, fill=SOFT,
                          class_="coord-y"))

    latest = _latest_action(view.get("log") or [])
    for pos in latest["sunk"]:
        # A ghost of the tile that sank last, where it was.
        x, y = corner(pos)
        parts.append(rect(x + 3, y + 3, cell - 6, cell - 6, fill="none", stroke="#ffffff",
                          stroke_width=2.5, stroke_dasharray="6 4", class_="last-sunk",
                          data_pos=_pos(pos)))
    colour_at = {(p["x"], p["y"]): view["colours"][player]
                 for player, p in view["pawns"].items() if p is not None}
    for tile in view["island"]:
        pos = (tile["x"], tile["y"])
        x, y = corner(pos)
        face = pp.tile_face_beside if pos in colour_at else pp.tile_face
        parts.append(pp.place(face(defs, tile["suit"], tile["value"], cell), x, y, cell,
                              class_="tile", data_pos=_pos(pos), data_suit=tile["suit"],
                              data_value=tile["value"]))
        if pos in colour_at:
            # A ring in the pawn's colour, white inside (black would not stand out from the
            # tile's edge otherwise): the tile a pawn stands on shows from afar.
            ring = max(3, round(cell * 0.09))
            inset = 1 + ring / 2
            parts.append(rect(x + inset, y + inset, cell - 2 * inset, cell - 2 * inset,
                              fill="none", stroke=defs.paint(colour_at[pos]), stroke_width=ring,
                              class_="pawn-ring"))
            inset = 1.75 + ring
            parts.append(rect(x + inset, y + inset, cell - 2 * inset, cell - 2 * inset,
                              fill="none", stroke="#ffffff", stroke_width=1.5))
    for src, dst in latest["moved"]:
        parts.append(_tile_move_mark(corner(src), corner(dst), centre(src), centre(dst), cell))
    for player, path in latest["paths"].items():
        parts.append(_trail([centre(p) for p in path], cell, player))
    for player, pos in view["pawns"].items():
        if pos is None:
            continue
        x, y = corner((pos["x"], pos["y"]))
        # On the right of the tile: its suit and value stay readable on the left.
        cx, cy, size = x + cell * 0.67, y + cell * 0.53, cell * 0.78
        own = player == view.get("viewer")  # the viewer's own pawn has a gold halo
        symbol = pp.pawn(defs, view["colours"][player], HIGHLIGHT if own else "#ffffff")
        parts.append(pp.use(symbol, cx, cy, size, class_="pawn own-pawn" if own else "pawn",
                            data_player=player, data_pos=f"{pos['x']},{pos['y']}"))
    return group("".join(parts), class_="island")


def _pos(pos) -> str:
    return f"{pos[0]},{pos[1]}"


def _latest_action(log: list) -> dict:
    """What the island marks from the public log: the latest action (a tile move, or the
    steps one actor made, one by one or at once) and the tile that sank after it, if the turn
    ended there. Once the next faces are shown, only the sunk tile's place stays marked.
    Entries from before these marks were logged carry no positions: skipped."""
    found = {"moved": [], "paths": {}, "sunk": []}
    entries = [e for e in log if e.get("event") in ("tile_move", "steps", "sink", "pass",
                                                    "reveal")]
    revealed = bool(entries) and entries[-1]["event"] == "reveal"
    if revealed:
        entries.pop()
    if entries and entries[-1]["event"] == "sink":
        sink = entries.pop()
        if sink.get("pos") is not None:
            found["sunk"].append(tuple(sink["pos"]))
        # The action that ended the turn, if one did (not a time-out or everyone cancelled).
        if not entries or entries[-1]["n"] != sink["n"]:
            return found
    if not entries or revealed:
        return found
    last = entries[-1]
    if last["event"] == "tile_move" and last.get("src") is not None:
        found["moved"].append((tuple(last["src"]), tuple(last["dst"])))
    elif last["event"] == "steps":
        run = []
        for entry in reversed(entries):
            if entry["event"] != "steps" or entry.get("player") != last["player"]:
                break
            run.insert(0, entry)
        for entry in run:
            for player, path in (entry.get("paths") or {}).items():
                path = [tuple(p) for p in path]
                have = found["paths"].get(player)
                found["paths"][player] = have + path[1:] if have else path
    return found


def _tile_move_mark(old_corner, new_corner, old_centre, new_centre, cell: int) -> str:
    """A dashed outline where the tile was, a frame where it is, an arrow between."""
    parts = [
        rect(old_corner[0] + 3, old_corner[1] + 3, cell - 6, cell - 6, fill="none",
             stroke=HIGHLIGHT, stroke_width=3, stroke_dasharray="6 4", class_="moved-from"),
        rect(new_corner[0] + 1.5, new_corner[1] + 1.5, cell - 3, cell - 3, fill="none",
             stroke=HIGHLIGHT, stroke_width=3, class_="moved-to"),
    ]
    (x1, y1), (x2, y2) = old_centre, new_centre
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    if length > cell:
        # From the old place's edge to the new tile's edge, head at the new tile.
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        sx, sy = x1 + ux * cell * 0.3, y1 + uy * cell * 0.3
        ex, ey = x2 - ux * cell * 0.45, y2 - uy * cell * 0.45
        head = cell * 0.22
        bx, by = ex - ux * head, ey - uy * head
        points = [(ex, ey), (bx - uy * head * 0.6, by + ux * head * 0.6),
                  (bx + uy * head * 0.6, by - ux * head * 0.6)]
        parts.append(element("path", d=f"M{num(sx)},{num(sy)} L{num(bx)},{num(by)}",
                             stroke=TRAIL, stroke_width=4, stroke_linecap="round", fill="none",
                             class_="move-arrow"))
        parts.append(element("path", d="M" + " L".join(f"{num(x)},{num(y)}" for x, y in points)
                             + "Z", fill=TRAIL))
    return "".join(parts)


def _trail(points: list[tuple[float, float]], cell: int, player: str) -> str:
    """The path a pawn took in the latest action: a dot where it started, a line to where
    it stands."""
    d = "M" + " L".join(f"{num(x)},{num(y)}" for x, y in points)
    width = max(2.5, cell * 0.06)
    return group(
        element("path", d=d, fill="none", stroke=INK, stroke_width=width + 2,
                stroke_linecap="round", stroke_linejoin="round")
        + element("path", d=d, fill="none", stroke=TRAIL, stroke_width=width,
                  stroke_linecap="round", stroke_linejoin="round")
        + circle(points[0][0], points[0][1], width * 1.3, fill=TRAIL, stroke=INK, stroke_width=1),
        class_="trail", data_player=player)


# ---------------------------------------------------------------------------- players


def _players(view: dict, names: dict, defs: pp.Defs) -> str:
    parts = []
    if view["phase"] == "act" and not view.get("outcome") and view.get("reveal"):
        parts.append(text(SIDE_X + SIDE_W, ROWS_TOP - 12, "die shown", NOTE, anchor="end",
                          fill=SOFT, class_="die-caption"))
    for index, player in enumerate(view["players"]):
        y = ROWS_TOP + index * ROW_H
        parts.append(group(_player_row(view, player, names[player], y, defs),
                           class_="player", data_player=player))
    return "".join(parts)


def _player_row(view: dict, player: str, name: str, y: float, defs: pp.Defs) -> str:
    """Pawn on the left; name, and the die shown this turn on the right of it; a note below.
    The actor and the winner are framed in gold; the viewer's own row is white."""
    colour = view["colours"][player]
    drowned = player in view["drowned"]
    left_game = player in view.get("left", ())
    outcome = view.get("outcome")
    winner = bool(outcome) and player in outcome["winners"]
    acting = player == view.get("actor") and not outcome
    h = ROW_H - 6
    parts = []
    if acting or winner or player == view.get("viewer"):
        parts.append(rect(SIDE_X, y, SIDE_W, h, rx=6,
                          fill="#fff5d6" if acting or winner else "#ffffff",
                          stroke=HIGHLIGHT if acting or winner else "none", stroke_width=3))
    pawn = pp.use(pp.pawn(defs, colour), SIDE_X + 20, y + h / 2, 40)
    parts.append(group(pawn, opacity="0.35") if drowned or left_game else pawn)
    if drowned:
        parts.append(element("line", x1=float(SIDE_X + 6), y1=float(y + h / 2 + 14),
                             x2=float(SIDE_X + 34), y2=float(y + h / 2 - 14), stroke=CANCEL,
                             stroke_width=4, stroke_linecap="round", class_="drowned"))
    die = _die(view, player, SIDE_X + SIDE_W - 22, y + 19, defs)
    room = 11 if die or winner else 15  # leave room for the die or the WINNER tab
    if player == view.get("viewer"):
        name = fit(name, room - 6) + " (you)"
    parts.append(text(SIDE_X + 44, y + 17, fit(name, room), 17, bold=True, anchor="start",
                      fill=INK, class_="name"))
    note, warn = _player_note(view, player, colour)
    parts.append(text(SIDE_X + 44, y + 41, note, NOTE, anchor="start",
                      fill=CANCEL if warn else SOFT, class_="note"))
    parts.append(die)
    if winner:
        parts.append(rect(SIDE_X + SIDE_W - 92, y - 11, 86, 22, rx=11, fill=HIGHLIGHT))
        parts.append(text(SIDE_X + SIDE_W - 49, y, "WINNER", NOTE, bold=True, fill=INK,
                          class_="flag"))
    return "".join(parts)


def _player_note(view: dict, player: str, colour: str) -> tuple[str, bool]:
    """The player's colour and state, and whether the state is bad news (shown in red)."""
    reveal = view.get("reveal") or {}
    outcome = view.get("outcome")
    if player in view["drowned"]:
        return f"{colour} · drowned", True
    if player in view.get("left", ()):
        return f"{colour} · left", True
    if outcome:
        return (f"{colour} · survivor", False) if player in outcome["winners"] else (colour, False)
    if view["phase"] == "commit":
        if player in view.get("timed_out", ()):
            return f"{colour} · timed out", True
        if player == view.get("viewer") and view.get("own_commit"):
            return f"{colour} · chose {value_name(view['own_commit'])}", False
        if player in view["committed"]:
            return f"{colour} · chosen ✓", False
        if player in view["to_act"]:
            return f"{colour} · choosing", False
        return colour, False
    if player in reveal.get("cancelled", ()):
        return f"{colour} · cancelled", True
    if player in reveal.get("timed_out", ()):
        return f"{colour} · timed out", True
    if player == view.get("actor"):
        return f"{colour} · acting", False
    order = reveal.get("order", [])
    if player in order and view.get("actor") in order:
        later = order.index(player) > order.index(view["actor"])
        return f"{colour} · {'acts later' if later else 'done'}", False
    return colour, False


def _die(view: dict, player: str, cx: float, cy: float, defs: pp.Defs) -> str:
    """In the act phase, the face the player showed; a cancelled one keeps its full colour
    and gets a red frame with a cross beside it."""
    reveal = view.get("reveal")
    if view["phase"] != "act" or view.get("outcome") or not reveal \
            or player not in reveal["faces"]:
        return ""
    face = reveal["faces"][player]
    size = 32
    die = pp.use(pp.die_face(defs, face, view["colours"][player]), cx, cy, size,
                 class_="die", data_player=player, data_value=face)
    if player not in reveal["cancelled"]:
        return die
    half = size / 2 + 3
    mark = (rect(cx - half, cy - half, 2 * half, 2 * half, rx=9, fill="none", stroke=CANCEL,
                 stroke_width=3)
            + circle(cx - half - 1, cy - half + 2, 8, fill=CANCEL)
            + element("path", d=f"M{num(cx - half - 4.5)},{num(cy - half - 2.5)} l9,9 "
                                f"M{num(cx - half + 4.5)},{num(cy - half - 2.5)} l-9,9",
                      stroke="#ffffff", stroke_width=2.2, stroke_linecap="round"))
    return die + group(mark, class_="cancelled", data_player=player)


# ---------------------------------------------------------------------------- coins, sunk


def _coin_line(view: dict, defs: pp.Defs) -> str:
    """The line's coins, up side only, left to right; the leftmost is turned next."""
    top = ROWS_TOP + len(view["players"]) * ROW_H + 12
    count = view["bag_count"]
    parts = [text(SIDE_X + 4, top, "Coins", NOTE, bold=True, anchor="start", fill=INK),
             text(SIDE_X + SIDE_W, top, f"in bag: {count}", NOTE, anchor="end", fill=INK,
                  class_="bag")]
    size, gap = 44, 8
    tray_top = top + 14
    parts.append(rect(SIDE_X, tray_top, 3 * size + 4 * gap, size + 2 * gap, rx=4,
                      fill=pp.TILE_BACK_FILL))  # a wooden tray: light coins need a dark ground
    for index, coin in enumerate(view["coin_line"]):
        cx = SIDE_X + gap + size / 2 + index * (size + gap)
        cy = tray_top + gap + size / 2
        if coin["side"] == "suit":
            symbol, shown = pp.coin_suit(defs, coin["suit"]), coin["suit"]
        else:
            symbol, shown = pp.coin_value(defs, coin["value"]), coin["value"]
        parts.append(pp.use(symbol, cx, cy, size, class_="line-coin", data_side=coin["side"],
                            data_shown=shown))
    if view["coin_line"]:
        parts.append(text(SIDE_X + 4, tray_top + size + 2 * gap + 14, "▲ sinks next", NOTE,
                          anchor="start", fill=SOFT, class_="next-coin"))
    # A coin names one tile by its two sides; only the side lying up is known.
    sides = {coin["side"] for coin in view["coin_line"]}
    legend = [("suit up: number hidden" if side == "suit" else "number up: suit hidden")
              for side in SIDES_SHOWN if side in sides]
    for index, line_text in enumerate(legend):
        parts.append(text(SIDE_X + 4, tray_top + size + 2 * gap + 36 + index * 21, line_text,
                          NOTE, anchor="start", fill=SOFT, class_="coin-legend"))
    return group("".join(parts), class_="coin-line")


SIDES_SHOWN = ("suit", "value")


def _sunk(view: dict, defs: pp.Defs) -> str:
    """The sunk tiles in the order they went down: one row, or two when many."""
    band = HEIGHT - SUNK_TOP
    parts = [rect(0, SUNK_TOP, WIDTH, band, fill="#c9e0ec"),
             text(14, SUNK_TOP + band / 2, "Sunk", 17, bold=True, anchor="start", fill=INK)]
    sunk = view["sunk"]
    start, room, gap = 70, WIDTH - 70 - 8, 3
    per_row = room // (36 + gap)
    if len(sunk) <= per_row:
        size, rows = 36, 1
    else:
        rows = 2
        per_row = -(-len(sunk) // 2)
        size = int(min((band - gap) / 2 - 2, room / per_row - gap))  # 33: 24 sunk tiles fit
    row_top = SUNK_TOP + (band - rows * size - (rows - 1) * gap) / 2
    for index, tile in enumerate(sunk):
        row, col = divmod(index, per_row)
        parts.append(pp.place(pp.tile_face(defs, tile["suit"], tile["value"], size),
                              start + col * (size + gap), round(row_top + row * (size + gap)),
                              size, class_="sunk", data_suit=tile["suit"],
                              data_value=tile["value"]))
    if not sunk:
        parts.append(text(start, SUNK_TOP + band / 2, "none yet", NOTE, anchor="start",
                          fill=SOFT))
    return group("".join(parts), class_="sunk-tiles")
