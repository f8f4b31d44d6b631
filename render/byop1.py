"""BYOP1 drawings: a player's own board, and the public round result (every final board).

A player's view with a board (during a round) draws that board, 440 x 526 units: the round and
the slide count on top; the coins above columns 1-5 and the pawns left of rows 1-4 as in the
rules' diagram; row 5 shaded as the parity sponge; a green tick on every tile already in its
right place; below, who has finished and the points so far.

Any other view (a spectator's, or anyone's once the game is over) draws the public picture: the
latest finished round as small multiples, every player's final board with their rank and
points, and the totals; before any round has finished, the targets and who has finished how.
Text is at least 11 px tall when an image is shown 400 px wide on a phone: 15 units on the
440-unit board, 20 on result images up to 728 units wide.
"""

from __future__ import annotations

from engine.piecepack import SUIT_COLOURS, SUITS

from . import piecepack as pp
from .common import display_names, outcome_headline
from .svg import document, element, fit, group, rect, text

SUIT_OF = {s[0].upper(): s for s in SUITS}   # S M C A -> suit name
BG = "#efe7d6"
INK = pp.INK
SOFT = "#5a5246"
GOOD = "#1f8a3b"
BAD = "#c0202a"
SPONGE = "#cfd8e6"
HOLE_FILL = "#3b352c"

# Own board layout.
# Small on purpose: the board is redrawn after every slide, and resvg's time grows with the
# pixels; a phone shows it about 400 px wide anyway.
WIDTH = 440
LEFT = 70          # pawns and the sponge label
TOP = 94           # below the header and the coins
CELL = 72
HEADER = 40
NOTE = 16


def draw(view: dict, names: dict[str, str] | None = None, palette: str = "standard") -> str:
    names = display_names(view, names)
    if view.get("board") is not None:
        return _own_board(view, names, palette)
    return _public(view, names, palette)


# ---------------------------------------------------------------------------- pieces


def _tile(defs: pp.Defs, code: str, pixels: int) -> str:
    return pp.tile_face(defs, SUIT_OF[code[1]], code[0], pixels)


def _tick(x: float, y: float, size: float) -> str:
    """A green disc with a white tick: the tile is in its right place."""
    r = size / 2
    d = (f"M{x - r * 0.45:.1f},{y:.1f} L{x - r * 0.1:.1f},{y + r * 0.38:.1f} "
         f"L{x + r * 0.5:.1f},{y - r * 0.35:.1f}")
    return (element("circle", cx=float(x), cy=float(y), r=float(r), fill=GOOD)
            + element("path", d=d, fill="none", stroke="#ffffff", stroke_width=float(size * 0.16),
                      stroke_linecap="round", stroke_linejoin="round"))


def _solo(view: dict) -> bool:
    return len(view["players"]) == 1


def _round_title(view: dict) -> str:
    if view["playoff"]:
        return f"Playoff {view['playoff']}"
    if _solo(view) and view["rounds"] == 1:
        return "The puzzle"   # alone, one board: no rounds to count
    return f"Round {view['round']} of {view['rounds']}"


def _grid(tiles: list[str], marks: list[bool] | None, x0: int, y0: int, cell: int,
          defs: pp.Defs, *, ticks: bool, css: str) -> str:
    """A 5x5 board: row 5 shaded as the sponge, the hole dark, ticks on tiles in place."""
    parts = [rect(x0 - 3, y0 - 3, cell * 5 + 6, cell * 5 + 6, fill=INK, rx=4),
             rect(x0, y0 + 4 * cell, cell * 5, cell, fill=SPONGE, class_="sponge")]
    for i, code in enumerate(tiles):
        r, c = divmod(i, 5)
        x, y = x0 + c * cell, y0 + r * cell
        if code == ".":
            parts.append(rect(x + 2, y + 2, cell - 4, cell - 4, fill=HOLE_FILL if r < 4 else
                              "#8a96a8", class_="hole", data_cell=f"{r + 1},{c + 1}"))
            continue
        parts.append(pp.place(_tile(defs, code, cell), x, y, cell, class_="tile",
                              data_cell=f"{r + 1},{c + 1}", data_tile=code))
        if ticks and marks and marks[i]:
            size = max(14, cell * 0.26)
            parts.append(_tick(x + cell - size * 0.75, y + size * 0.75, size))
    return group("".join(parts), class_=css)


# ---------------------------------------------------------------------------- own board


def _own_board(view: dict, names: dict, palette: str) -> str:
    board = view["board"]
    viewer = view["viewer"]
    defs = pp.Defs(palette)
    rows, columns = view["targets"]["rows"], view["targets"]["columns"]
    # (alone, nobody else finishes and there are no points to tell)
    notes = [] if _solo(view) else [fit(_finished_line(view, names), 46)] + \
        [fit(chunk, 46) for chunk in _wrap(_points_line(view, names), 46)]
    height = TOP + 5 * CELL + 12 + (1 + len(notes)) * 24 + 8
    parts = [rect(0, 0, WIDTH, height, fill=BG)]
    slides = board["slides"]
    parts.append(text(10, HEADER / 2, _round_title(view), 20, bold=True, anchor="start",
                      fill=INK, class_="round"))
    parts.append(text(WIDTH - 10, HEADER / 2, f"{fit(names[viewer], 10)} · "
                      f"{slides} slide{'' if slides == 1 else 's'}", 18, bold=True,
                      anchor="end", fill=INK, class_="slides"))
    # Coins above the columns, value side up.
    for c, value in enumerate(columns):
        parts.append(pp.use(pp.coin_value(defs, value), LEFT + c * CELL + CELL / 2, TOP - 26,
                            42, class_="coin", data_value=value))
    # Pawns left of rows 1-4 in their suit's colour, with the suit beside.
    for r, letter in enumerate(rows):
        suit = SUIT_OF[letter]
        cy = TOP + r * CELL + CELL / 2
        parts.append(pp.use(pp.pawn(defs, SUIT_COLOURS[suit]), 20, cy, 36, class_="pawn",
                            data_suit=suit))
        parts.append(pp.use(pp.suit_symbol(defs, suit), 51, cy, 24))
    parts.append(text(LEFT / 2 - 2, TOP + 4 * CELL + CELL / 2 - 10, "sponge", 15, bold=True,
                      fill=SOFT, class_="sponge-label"))
    parts.append(text(LEFT / 2 - 2, TOP + 4 * CELL + CELL / 2 + 10, "nulls", 15, fill=SOFT))
    parts.append(_grid(board["tiles"], board["in_place"], LEFT, TOP, CELL, defs, ticks=True,
                       css="board"))
    placed = sum(1 for i, ok in enumerate(board["in_place"]) if ok and i < 20)
    y = TOP + 5 * CELL + 24
    line, colour = _status_line(view, board, placed)
    parts.append(text(10, y, fit(line, 46), 17, bold=True, anchor="start", fill=colour,
                      class_="status"))
    for k, note in enumerate(notes):
        parts.append(text(10, y + 24 * (k + 1), note, NOTE, anchor="start", fill=SOFT,
                          class_="finished" if k == 0 else "points"))
    return document(WIDTH, height, "".join(parts), defs.svg(), data_game="byop1",
                    data_round=view["round"])


def _status_line(view: dict, board: dict, placed: int) -> tuple[str, str]:
    """How the board stands: while solving, how far; once Done, how it went; with the round's
    `result` (the board's last position, once the round is over), the rank and points."""
    status, result = board["status"], board.get("result")
    if status == "solving":
        line = f"{placed} of 20 tiles in place" + (" · correct: call Done!" if board["correct"]
                                                   else "")
        return line, GOOD if board["correct"] else INK
    if _solo(view):
        return {"correct": (f"Solved in {board['slides']} slides!", GOOD),
                "fumble": ("Fumble: the board is not correct.", BAD)}.get(
                    status, ("Not finished in time.", SOFT))
    if result is None:
        if status == "correct":
            return "Correct! Waiting for the round to end.", GOOD
        return "Fumble: not correct · 0 points", BAD
    points = f"+{result['points']} point{'' if result['points'] == 1 else 's'}"
    if status == "correct":
        return f"Correct · {_ordinal(result['rank'])} · {points}", GOOD
    if status == "fumble":
        return "Fumble: not correct · 0 points", BAD
    return f"Not finished in time · {points}", SOFT


def _finished_line(view: dict, names: dict) -> str:
    """Who has finished and how (their slide counts come with the round's result)."""
    done = view["finished"]
    if not done:
        return "Nobody has finished yet."
    parts = []
    for f in done:
        how = {"correct": "correct", "fumble": "fumble"}.get(f["status"], "not finished")
        parts.append(f"{fit(names[f['player']], 10)} {how}")
    return "Done: " + ", ".join(parts)


def _points_line(view: dict, names: dict) -> str:
    totals = view["totals"]
    order = sorted(view["players"], key=lambda p: -totals[p])
    # A no-break space keeps each name with its points when the line wraps.
    return "Points: " + ", ".join(f"{fit(names[p], 10)} {totals[p]}".replace(" ", "\u00a0")
                                  for p in order)


# ---------------------------------------------------------------------------- public image


def _public(view: dict, names: dict, palette: str) -> str:
    history = view["history"]
    if not history:
        return _round_status(view, names, palette)
    last = history[-1]
    results = last["results"]
    order = sorted(results, key=lambda p: (results[p]["rank"] is None, results[p]["rank"] or 0,
                                           results[p]["call"] or 0))
    count = len(order)
    solo = len(view["players"]) == 1   # a puzzle: no ranks, no points
    cols = 1 if count == 1 else 2 if count <= 4 else 3
    cell = 44 if cols < 3 else 40
    board_w = 5 * cell
    box_w, box_h = board_w + 32, board_w + 74
    width = max(420, cols * box_w + 16)
    rows_n = (count + cols - 1) // cols
    top = 56
    # every player's total, on as many lines as they take (bold 20 px: about 12 px a character)
    totals_lines = [] if solo else _wrap(_points_line(view, names), (width - 28) // 12)
    height = top + rows_n * box_h + (len(totals_lines) + 1) * 28 + 30
    defs = pp.Defs(palette)
    parts = [rect(0, 0, width, height, fill=BG)]
    title = f"Playoff {last['playoff']}" if last["playoff"] else \
        "The puzzle" if solo and view["rounds"] == 1 else f"Round {last['round']}"
    parts.append(text(14, 26, f"{title}: result", 24, bold=True, anchor="start", fill=INK,
                      class_="title"))
    for i, p in enumerate(order):
        r = results[p]
        bx = 8 + (i % cols) * box_w + (width - 16 - cols * box_w) // 2
        by = top + (i // cols) * box_h
        x0, y0 = bx + 16, by + 58
        if r["rank"] is not None and not solo:
            head = f"{_ordinal(r['rank'])} {fit(names[p], 10)}"
        else:
            head = fit(names[p], 14)
        if r["status"] == "correct":
            how, colour = f"✓ {r['slides']} slides", GOOD
        elif r["status"] == "fumble":
            how, colour = "✗ fumble", BAD
        else:
            how, colour = "not finished", SOFT
        pts = f"+{r['points']}"
        parts.append(text(bx + 16, by + 12, head, 20, bold=True, anchor="start", fill=INK,
                          class_="rank", data_player=p))
        parts.append(text(bx + 16, by + 38, how, 20, anchor="start", fill=colour,
                          class_="how", data_player=p))
        if not solo:
            parts.append(text(x0 + board_w, by + 38, pts, 20, bold=True, anchor="end", fill=INK,
                              class_="round-points", data_player=p))
        marks = _marks(r["tiles"], last["targets"])
        parts.append(_grid(r["tiles"], marks, x0, y0, cell, defs, ticks=False,
                           css="mini-board"))
    y = top + rows_n * box_h + 14
    for k, chunk in enumerate(totals_lines):
        parts.append(text(14, y + k * 28, chunk, 20, bold=k == 0, anchor="start", fill=INK,
                          class_="totals"))
    outcome = view.get("outcome")
    footer = _headline(view, names) if outcome else f"Now: {_round_title(view)}"
    parts.append(text(14, y + len(totals_lines) * 28 + 4, fit(footer, (width - 28) // 12), 20,
                      bold=True,
                      anchor="start", fill=GOOD if outcome else SOFT,
                      class_="next"))
    return document(width, height, "".join(parts), defs.svg(), data_game="byop1",
                    data_round=last["round"])


def _headline(view: dict, names: dict) -> str:
    outcome = view["outcome"]
    if len(view["players"]) == 1:
        slides = sum(h["results"][view["players"][0]]["slides"] for h in view["history"])
        return f"Solved in {slides} slides!" if outcome["winners"] else "Not solved this time."
    return outcome_headline(outcome, names)


def _round_status(view: dict, names: dict, palette: str) -> str:
    """Before any round has finished: the targets and who has finished how (never a board)."""
    defs = pp.Defs(palette)
    rows, columns = view["targets"]["rows"], view["targets"]["columns"]
    players = view["round_players"]
    height = 150 + 30 * len(players) + 20
    parts = [rect(0, 0, WIDTH, height, fill=BG)]
    parts.append(text(14, 26, _round_title(view), 24, bold=True, anchor="start", fill=INK,
                      class_="round"))
    parts.append(text(14, 64, "Rows:", 19, bold=True, anchor="start", fill=INK))
    for r, letter in enumerate(rows):
        suit = SUIT_OF[letter]
        parts.append(pp.use(pp.pawn(defs, SUIT_COLOURS[suit]), 100 + r * 44, 64, 36,
                            class_="pawn", data_suit=suit))
    parts.append(text(14, 112, "Columns:", 19, bold=True, anchor="start", fill=INK))
    for c, value in enumerate(columns):
        parts.append(pp.use(pp.coin_value(defs, value), 140 + c * 46, 112, 40, class_="coin",
                            data_value=value))
    done = {f["player"]: f for f in view["finished"]}
    for i, p in enumerate(players):
        y = 150 + i * 30
        f = done.get(p)
        if f is None:
            how, colour = "solving…", SOFT
        elif f["status"] == "correct":   # (slide counts come with the round's result)
            how, colour = "done, correct", GOOD
        else:
            how, colour = "done, fumble", BAD
        parts.append(text(14, y, f"{fit(names[p], 16)}: {how}", 19, anchor="start",
                          fill=colour, class_="player-status", data_player=p))
    return document(WIDTH, height, "".join(parts), defs.svg(), data_game="byop1",
                    data_round=view["round"])


def _marks(tiles: list[str], targets: dict) -> list[bool]:
    out = []
    for i, code in enumerate(tiles):
        r, c = divmod(i, 5)
        if r == 4:
            out.append(code == "." or code[0] == "n")
        else:
            out.append(code == targets["columns"][c] + targets["rows"][r])
    return out


def _wrap(line: str, width: int) -> list[str]:
    words, lines, cur = line.split(" "), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    return lines + [cur] if cur else lines


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


__all__ = ["draw"]
