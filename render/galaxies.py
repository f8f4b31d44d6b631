"""The board of A Game Played by Galaxies: a view of engine.galaxies drawn as SVG.

Layout (user units are the pixels of the default 800-wide PNG): a header with the turn (1-6)
and what the game waits for; a bar with each player (colour, name, score, hand size, whether
they have chosen); the grid in play (the Form area, grown to hold every system, with a margin),
numbered on all four edges; below it the two cards of the latest reveal in resolution order; in
a player's private copy, their hand drawn as cards.

On the grid: each black hole is a dark disc ringed in its player's colour, its scoring 3x3
outlined in that colour, its score in a badge above the grid over its column; face-down path
cards are card backs edged in their owner's colour. Colour is never the only mark: each player's
emblem (red: a sun, blue: a fleur-de-lis) is on their hole, path cards and bar, and the two
scoring outlines are dashed differently (a badge, one cell wide, has no room for it: it stands
over its hole, and red and blue stay apart under every colour-vision deficiency); a stack of
systems is a star with the number of systems it holds; an orange ring marks where the latest
card put or moved a stack.

Only the view is drawn: the path shows which cells still hold a card, never which card.
Sizes are for a phone, where the image is shown 400 px wide: no text under 22 units (11 px).
"""

from __future__ import annotations

import math

from . import piecepack as pp
from .common import HIGHLIGHT, display_names, outcome_headline
from .svg import circle, document, element, fit, group, num, rect, text

WIDTH = 800
MARGIN = 34          # room for the coordinates on each side of the grid
HEADER = 52
BAR = 56
LANE = 40           # the score badges, above the grid's top coordinates
CARD_W, CARD_H = 146, 84
PANEL = 34 + CARD_H + 14   # a panel: its title line, then a row of cards
NOTE = 22            # the smallest text: 11 px at 400 px wide
SPACE = "#14192e"
GRID = "#2a3252"
SOFT = "#b9c2e0"
INK = pp.INK
STAR = "#ffd95a"
CARD_FACE = "#fbf6e9"
CARD_BACK = "#5a4a8a"
LATEST = "#ff9f1a"


def draw(view: dict, names: dict[str, str] | None = None, palette: str = "standard") -> str:
    names = display_names(view, names)
    defs = pp.Defs(palette)
    columns, rows = _area(view)
    cell = min(54, (WIDTH - 2 * MARGIN) // len(columns))
    grid_w, grid_h = cell * len(columns), cell * len(rows)
    grid_top = HEADER + BAR + LANE + MARGIN
    y = grid_top + grid_h + MARGIN
    panels = [_reveal(view, names, y, defs)]
    y += PANEL if view.get("reveal") else 44     # no cards shown: one line
    if view.get("hand") is not None:
        panels.append(_hand(view, y, defs))
        y += PANEL
    height = y
    body = [
        rect(0, 0, WIDTH, height, fill=SPACE),
        _header(view, names),
        _players(view, names, defs),
        _grid(view, names, columns, rows, cell, (WIDTH - grid_w) // 2, grid_top, defs),
        *panels,
    ]
    return document(WIDTH, height, "".join(body), defs.svg(), data_game="galaxies",
                    data_turn=view["turn"], data_phase=view["phase"])


# ---------------------------------------------------------------------------- header and bar


def _header(view: dict, names: dict) -> str:
    parts = [text(16, HEADER / 2, f"Turn {view['turn']} of {view['turns']}", 26, bold=True,
                  anchor="start", fill="#ffffff", class_="turn")]
    parts.append(text(WIDTH - 16, HEADER / 2, _status(view, names), 22, bold=True,
                      anchor="end", fill="#ffffff", class_="status"))
    return group("".join(parts), class_="header")


def _status(view: dict, names: dict) -> str:
    outcome = view.get("outcome")
    if outcome:
        return fit(outcome_headline(outcome, names), 38)
    if view["phase"] == "commit":
        choosing = view["to_act"]
        chosen = [p for p in view["committed"] if p in choosing]
        return f"Choose a card in secret: {len(chosen)} of {len(choosing)} chosen"
    actor = view.get("actor")
    if actor is None:
        return ""
    card = view["reveal"]["cards"][actor].capitalize()
    return f"{fit(names[actor], 16)}: target of {card}"


def _players(view: dict, names: dict, defs: pp.Defs) -> str:
    return group("".join(_player_chip(view, names, p, i, defs)
                         for i, p in enumerate(view["players"])), class_="players")


def _player_chip(view: dict, names: dict, player: str, i: int, defs: pp.Defs) -> str:
    half = WIDTH // 2
    x = 8 + i * half
    colour = view["colours"][player]
    paint = defs.paint(colour)
    outcome = view.get("outcome") or {}
    lit = player in view["to_act"] or player in outcome.get("winners", [])
    mid = HEADER + (BAR - 8) / 2
    points, cards = view["scores"][player], view["hand_sizes"][player]
    line = f"{fit(names[player], 9)} · {points} pt{'' if points == 1 else 's'} · " \
           f"{cards} card{'' if cards == 1 else 's'}"
    if view["phase"] == "commit" and player in view["committed"]:
        line += " ✔"
    body = (rect(x, HEADER, half - 16, BAR - 8, rx=10, fill="#232a45",
                 stroke=HIGHLIGHT if lit else paint, stroke_width=3)
            + circle(x + 26, mid, 15, fill="#000000", stroke=paint, stroke_width=4)
            + pp.use(pp.seat_emblem(defs, colour), x + 26, mid, 20)
            + text(x + 48, mid, line, NOTE, anchor="start", fill="#ffffff"))
    return group(body, class_="player", data_player=player)


# ---------------------------------------------------------------------------- the grid


def _area(view: dict) -> tuple[range, range]:
    """Columns and rows drawn: the Form area, grown to hold every system and hole with a
    margin of one cell."""
    area = view["form_area"]
    xs = list(area["x"]) + [s["x"] + d for s in view["stacks"] for d in (-1, 1)]
    ys = list(area["y"]) + [s["y"] + d for s in view["stacks"] for d in (-1, 1)]
    return range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)


# The two scoring outlines: dashes for the first seat, dots for the second.
SCORING_DASHES = ("10 5", "2 5")


def _grid(view, names, columns, rows, cell, left, top, defs: pp.Defs) -> str:
    def corner(x, y):
        return left + (x - columns.start) * cell, top + (rows.stop - 1 - y) * cell

    def centre(x, y):
        cx, cy = corner(x, y)
        return cx + cell / 2, cy + cell / 2

    parts = [rect(left, top, cell * len(columns), cell * len(rows), fill="#1b2140")]
    for i in range(len(columns) + 1):
        parts.append(rect(left + i * cell, top, 1, cell * len(rows), fill=GRID))
    for i in range(len(rows) + 1):
        parts.append(rect(left, top + i * cell, cell * len(columns), 1, fill=GRID))
    for x in columns:
        cx = centre(x, 0)[0]
        parts.append(text(cx, top - 14, x, NOTE, bold=True, fill=SOFT, class_="coord-x"))
        parts.append(text(cx, top + cell * len(rows) + 16, x, NOTE, bold=True, fill=SOFT,
                          class_="coord-x"))
    for y in rows:
        cy = centre(0, y)[1]
        parts.append(text(left - 6, cy, y, NOTE, bold=True, anchor="end", fill=SOFT,
                          class_="coord-y"))
        parts.append(text(left + cell * len(columns) + 6, cy, y, NOTE, bold=True,
                          anchor="start", fill=SOFT, class_="coord-y"))

    for card in view["path"]:
        cx, cy = corner(card["x"], card["y"])
        colour = view["colours"][card["owner"]]
        pad = cell * 0.14
        parts.append(group(
            rect(cx + pad, cy + pad * 0.6, cell - 2 * pad, cell - 1.2 * pad, rx=4,
                 fill=CARD_BACK, stroke=defs.paint(colour), stroke_width=2.5)
            + pp.use(pp.seat_emblem(defs, colour, "#c9bdf0"), cx + cell / 2, cy + cell / 2,
                     cell * 0.4),
            class_="path-card", data_player=card["owner"], data_pos=f"{card['x']},{card['y']}"))

    for i, (player, hole) in enumerate(view["holes"].items()):
        paint = defs.paint(view["colours"][player])
        x0, y0 = corner(hole["x"] - 1, hole["y"] + 1)
        inset = 3 + 5 * i     # the two blocks overlap at the end: keep both outlines visible
        dashes = SCORING_DASHES[view["players"].index(player) % len(SCORING_DASHES)]
        parts.append(rect(x0 + inset, y0 + inset, 3 * cell - 2 * inset, 3 * cell - 2 * inset,
                          fill="none", stroke=paint, stroke_width=3.5, stroke_dasharray=dashes,
                          stroke_linecap="round" if dashes.startswith("2 ") else None,
                          class_="scoring-area", data_player=player))
    for player, hole in view["holes"].items():
        colour = view["colours"][player]
        paint = defs.paint(colour)
        emblem = pp.seat_emblem(defs, colour)
        cx, cy = centre(hole["x"], hole["y"])
        parts.append(group(
            circle(cx, cy, cell * 0.4, fill="#000000", stroke=paint, stroke_width=cell * 0.12)
            + pp.use(emblem, cx, cy, cell * 0.42),
            class_="hole", data_player=player, data_pos=f"{hole['x']},{hole['y']}"))
        # the score badge, in the lane above the grid, over the hole's column
        by = top - MARGIN - LANE / 2
        parts.append(group(
            rect(cx - 21, by - 16, 42, 32, rx=8, fill=paint, stroke="#ffffff", stroke_width=2)
            + text(cx, by, view["scores"][player], NOTE + 2, bold=True, fill="#ffffff"),
            class_="score-badge", data_player=player))

    latest = _latest_cells(view.get("log") or [])
    for s in view["stacks"]:
        cx, cy = centre(s["x"], s["y"])
        if (s["x"], s["y"]) in latest:
            parts.append(circle(cx, cy, cell * 0.47, fill="none", stroke=LATEST, stroke_width=3,
                                class_="latest"))
        parts.append(group(
            _star(cx, cy, cell * 0.42)
            + text(cx, cy + 1, s["count"], NOTE + 2, bold=True, fill=INK),
            class_="stack", data_pos=f"{s['x']},{s['y']}", data_count=s["count"]))
    return group("".join(parts), class_="grid")


def _star(cx: float, cy: float, r: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.55
        angle = math.pi * (i / 5 - 0.5)
        points.append(f"{num(cx + radius * math.cos(angle))},{num(cy + radius * math.sin(angle))}")
    return element("polygon", points=" ".join(points), fill=STAR, stroke="#8a6a10",
                   stroke_width=1.5)


def _latest_cells(log: list) -> set[tuple[int, int]]:
    """Where the latest card put or moved a system (marked on the grid)."""
    for event in reversed(log):
        kind = event.get("event")
        if kind == "place":
            return {tuple(event["cell"])}
        if kind in ("merge", "shift"):
            return {tuple(event["dst"])}
        if kind in ("step", "reveal"):
            return set()
    return set()


# ---------------------------------------------------------------------------- cards


def _card(x: float, y: float, kind: str, lines: tuple[str, ...] = (), paint: str = INK, *,
          lit: bool = False, class_: str = "card") -> str:
    body = rect(x, y, CARD_W, CARD_H, rx=8, fill=CARD_FACE,
                stroke=HIGHLIGHT if lit else paint, stroke_width=6 if lit else 3)
    body += text(x + CARD_W / 2, y + 22, kind.capitalize(), NOTE + 2, bold=True, fill=INK)
    for i, line in enumerate(lines):
        body += text(x + CARD_W / 2, y + 50 + 24 * i, line, NOTE, bold=True, fill=paint)
    return group(body, class_=class_, data_kind=kind)


def _title(y: float, words: str) -> str:
    return text(16, y + 16, words, NOTE, bold=True, anchor="start", fill="#ffffff")


def _reveal(view: dict, names: dict, y: float, defs: pp.Defs) -> str:
    reveal = view.get("reveal")
    if not reveal:
        msg = "Cards are being chosen in secret." if view["phase"] == "commit" else ""
        if view.get("outcome"):
            a, b = view["players"]
            msg = (f"Final score: {fit(names[a], 12)} {view['scores'][a]}, "
                   f"{fit(names[b], 12)} {view['scores'][b]}")
        return group(_title(y, msg), class_="reveal")
    title = f"Turn {reveal['turn']}: cards played, in resolution order"
    if reveal.get("toss"):
        title += " (coin toss)"
    parts = [_title(y, title)]
    x = 16
    for i, player in enumerate(reveal["order"]):
        kind = reveal["cards"][player]
        paint = defs.paint(view["colours"][player])
        parts.append(_card(x, y + 34, kind, (f"{i + 1}. {fit(names[player], 7)}",), paint,
                           lit=player == view.get("actor"), class_="played"))
        x += CARD_W + 16
    missing = [p for p in view["players"] if p not in reveal["cards"]]
    if missing:
        parts.append(text(x + 4, y + 34 + CARD_H / 2, " & ".join(fit(names[p], 10) for p in missing)
                          + ": no card", NOTE, bold=True, anchor="start", fill=SOFT))
    return group("".join(parts), class_="reveal")


def _hand(view: dict, y: float, defs: pp.Defs) -> str:
    parts = [_title(y, "Your hand (only you see this)")]
    x = 16
    paint = defs.paint(view["colours"][view["viewer"]])
    chosen = view.get("own_commit")
    marked = False
    for kind in view["hand"]:
        lit = kind == chosen and not marked
        marked = marked or lit
        parts.append(_card(x, y + 34, kind, ("chosen",) if lit else (), paint, lit=lit,
                           class_="hand-card"))
        x += CARD_W + 8
    return group("".join(parts), class_="hand")
