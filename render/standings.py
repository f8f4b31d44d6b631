"""A tournament's standings table as SVG, and its alt text, from plain rows of strings.

    svg = standings_svg("Swiss, after round 2", columns, rows, highlight={0})
    png = svg_to_png(svg)

The first column is the place ("1", "2", "2", "4"): places 1-3 get a gold, silver or bronze
medal disc. The second column is the name (drawn left-aligned, shortened to fit); the others
are numbers, right-aligned. A name too long is shortened, keeping a trailing note in brackets
such as "(withdrawn)". Rows whose index is in `highlight` are shaded in the highlight gold
(the winners in a final post, say). Nothing here knows about tournaments or Discord.
"""

from __future__ import annotations

import re

from .common import HIGHLIGHT
from .describe.common import ALT_LIMIT, plain_name
from .piecepack import INK
from .svg import circle, document, fit, line, rect, text

WIDTH = 560          # user units; PNGs are scaled up to 800 px (svg.PNG_WIDTH)
MARGIN = 14
TITLE_HEIGHT = 52
HEAD_HEIGHT = 34
ROW_HEIGHT = 36
FONT = 18
PLACE_WIDTH = 44     # the place column
NUMBER_WIDTH = 54    # each numeric column
BG = "#efe7d6"       # the paper of the other boards' status drawings
STRIPE = "#e5dbc6"
SOFT = "#5a5246"
RULE = "#b9ad95"
MEDALS = {"1": ("#e8b923", "#8a6a0c"), "2": ("#c3c7cc", "#6b7078"), "3": ("#cd8a4f", "#7a4a1e")}
SHADE = HIGHLIGHT


def _layout(columns: list[str]) -> tuple[list[float], float]:
    """x of each column's anchor (number columns: their right edge) and the name width."""
    # a number column is as wide as its head needs (bold 16: about 11 units a letter)
    widths = [max(NUMBER_WIDTH, 11 * len(head) + 18) for head in columns[2:]]
    name_width = WIDTH - 2 * MARGIN - PLACE_WIDTH - sum(widths)
    xs = [MARGIN + PLACE_WIDTH / 2, MARGIN + PLACE_WIDTH + 6]
    right = MARGIN + PLACE_WIDTH + name_width
    for width in widths:
        right += width
        xs.append(right - 6)
    return xs, name_width


def _fit_name(name: str, max_chars: int) -> str:
    """`fit`, keeping a trailing note in brackets whole: 'A very long na… (withdrawn)'."""
    head, bracket, note = name.rpartition(" (")
    if bracket and note.endswith(")") and len(note) + 3 < max_chars - 4:
        return f"{fit(head, max_chars - len(note) - 2)} ({note}" if len(name) > max_chars else name
    return fit(name, max_chars)


def standings_svg(title: str, columns: list[str], rows: list[list[str]],
                  highlight: set[int] = frozenset(), note: str = "") -> str:
    """The table: `title` above, `columns` as heads, one line per row (place, name, numbers),
    and `note` (one line, say the best possible scores) below."""
    xs, name_width = _layout(columns)
    # DejaVu Sans averages about 0.55 em a character at this size
    name_chars = max(6, int(name_width / (FONT * 0.56)))
    top = TITLE_HEIGHT + HEAD_HEIGHT
    bottom = top + ROW_HEIGHT * max(len(rows), 1)
    height = bottom + (ROW_HEIGHT if note else 0) + MARGIN
    parts = [rect(0, 0, WIDTH, height, fill=BG)]
    parts.append(text(MARGIN, TITLE_HEIGHT / 2 + 2, fit(title, 44), 24, bold=True,
                      anchor="start", fill=INK, class_="title"))
    head_y = TITLE_HEIGHT + HEAD_HEIGHT / 2
    for i, (x, head) in enumerate(zip(xs, columns)):
        anchor = "middle" if i == 0 else "start" if i == 1 else "end"
        parts.append(text(x, head_y, head, 16, bold=True, anchor=anchor, fill=SOFT,
                          class_="head"))
    parts.append(line(MARGIN, top - 1, WIDTH - MARGIN, top - 1, stroke=RULE, stroke_width=2))
    for r, row in enumerate(rows):
        y = top + ROW_HEIGHT * r
        middle = y + ROW_HEIGHT / 2
        if r in highlight:
            parts.append(rect(MARGIN / 2, y + 1, WIDTH - MARGIN, ROW_HEIGHT - 2, rx=6,
                              fill=SHADE, class_="highlight"))
        elif r % 2:
            parts.append(rect(MARGIN / 2, y + 1, WIDTH - MARGIN, ROW_HEIGHT - 2, rx=6,
                              fill=STRIPE))
        place = row[0] if row else ""
        medal = MEDALS.get(place)
        if medal:
            parts.append(circle(xs[0], middle, 14, fill=medal[0], stroke=medal[1],
                                stroke_width=2, class_="medal", data_place=place))
        parts.append(text(xs[0], middle, place, FONT, bold=True, fill=INK, class_="place"))
        if len(row) > 1:
            # bold (highlighted) letters are wider: two fewer of them
            chars = name_chars - 2 if r in highlight else name_chars
            parts.append(text(xs[1], middle, _fit_name(row[1], chars), FONT, bold=r in highlight,
                              anchor="start", fill=INK, class_="name"))
        for x, cell in zip(xs[2:], row[2:]):
            parts.append(text(x, middle, cell, FONT, anchor="end", fill=INK, class_="cell"))
    if not rows:
        parts.append(text(WIDTH / 2, top + ROW_HEIGHT / 2, "No entrants yet", FONT, fill=SOFT))
    if note:
        parts.append(text(MARGIN, bottom + ROW_HEIGHT / 2, fit(note, 54), 16, anchor="start",
                          fill=SOFT, class_="note"))
    return document(WIDTH, height, "".join(parts), data_kind="standings", data_rows=len(rows))


def _words(text: str) -> str:
    """Text made plain for the ear, as names are (`plain_name`), but not shortened."""
    return re.sub(r"[\s*_`~|<>@#]+", " ", str(text)).strip()


def standings_alt(title: str, columns: list[str], rows: list[list[str]],
                  limit: int = ALT_LIMIT - 24, note: str = "") -> str:
    """Alt text of the table (at most `limit` characters, 1,000 by default): the title and the
    note, then one sentence a row, best first ("1, Ann: Pts 3, Buch 4.5, Games 3."), until it is
    full, then how many rows were left out."""
    out = _words(title)[:200] if title else "Standings"
    out = out if out.endswith(".") else out + "."
    if note:
        out = f"{out} {_words(note)[:300]}."
    if not rows:
        return f"{out} No entrants yet."
    for i, row in enumerate(rows):
        cells = ", ".join(f"{head} {cell}" for head, cell in zip(columns[2:], row[2:]))
        part = f"{row[0]}, {plain_name(row[1]) if len(row) > 1 else ''}: {cells}."
        more = len(rows) - i - 1
        # room is always kept for the note on what is left out
        tail = f" And {more} more." if more else ""
        if len(out) + 1 + len(part) + len(tail) > limit:
            return f"{out} And {more + 1} more."
        out = f"{out} {part}"
    return out
