"""Text as outlines: a small reader of the bundled TrueType fonts, so a line of text becomes
one SVG path (the glyphs' own outlines, laid out with the fonts' advances and kerning pairs).

resvg spends most of a board's parse time finding, shaping and outlining text; a path built
here once per distinct string (and cached) is drawn without any of that, and cannot depend on
the fonts of the machine. Only what our boards need is read: the character map (format 4),
horizontal metrics, simple and composite glyphs, and the `kern` table's pairs.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path


class Font:
    """One TrueType file: glyph outlines and advances by character."""

    def __init__(self, path: Path):
        self.data = data = path.read_bytes()
        count = struct.unpack_from(">H", data, 4)[0]
        self.tables = {data[12 + 16 * i:16 + 16 * i].decode("latin-1"):
                       struct.unpack_from(">II", data, 20 + 16 * i) for i in range(count)}
        head = self._table("head")
        self.units_per_em = struct.unpack_from(">H", data, head + 18)[0]
        long_offsets = struct.unpack_from(">h", data, head + 50)[0] == 1
        glyph_count = struct.unpack_from(">H", data, self._table("maxp") + 4)[0]
        loca = self._table("loca")
        if long_offsets:
            self.offsets = struct.unpack_from(f">{glyph_count + 1}I", data, loca)
        else:
            self.offsets = tuple(2 * o for o in struct.unpack_from(f">{glyph_count + 1}H", data, loca))
        metrics = struct.unpack_from(">H", data, self._table("hhea") + 34)[0]
        advances = struct.unpack_from(f">{2 * metrics}H", data, self._table("hmtx"))[0::2]
        self.advances = advances + (advances[-1],) * (glyph_count - metrics)
        self.cmap = self._read_cmap()
        self.kerning = self._read_kern()

    def _table(self, tag: str) -> int:
        return self.tables[tag][0]

    def _read_cmap(self) -> dict[int, int]:
        data, cmap = self.data, self._table("cmap")
        count = struct.unpack_from(">H", data, cmap + 2)[0]
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            sub = cmap + offset
            if (platform, encoding) == (3, 1) and struct.unpack_from(">H", data, sub)[0] == 4:
                return self._read_format4(sub)
        raise ValueError("no Unicode BMP character map (format 4) in the font")

    def _read_format4(self, sub: int) -> dict[int, int]:
        data = self.data
        segments = struct.unpack_from(">H", data, sub + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, sub + 14)
        starts_at = sub + 16 + 2 * segments
        starts = struct.unpack_from(f">{segments}H", data, starts_at)
        deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
        ranges_at = starts_at + 4 * segments
        ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
        mapping = {}
        for i, (start, end, delta, range_offset) in enumerate(zip(starts, ends, deltas, ranges)):
            for code in range(start, end + 1):
                if code == 0xFFFF:
                    continue
                if range_offset == 0:
                    glyph = (code + delta) & 0xFFFF
                else:
                    at = ranges_at + 2 * i + range_offset + 2 * (code - start)
                    glyph = struct.unpack_from(">H", data, at)[0]
                    glyph = (glyph + delta) & 0xFFFF if glyph else 0
                if glyph:
                    mapping[code] = glyph
        return mapping

    def _read_kern(self) -> dict[tuple[int, int], int]:
        if "kern" not in self.tables:
            return {}
        data, kern = self.data, self._table("kern")
        pairs: dict[tuple[int, int], int] = {}
        at = kern + 4
        for _ in range(struct.unpack_from(">H", data, kern + 2)[0]):
            length, coverage = struct.unpack_from(">HH", data, at + 2)
            if coverage >> 8 == 0 and coverage & 1:   # format 0, horizontal kerning
                count = struct.unpack_from(">H", data, at + 6)[0]
                for n in range(count):
                    left, right, value = struct.unpack_from(">HHh", data, at + 14 + 6 * n)
                    pairs[(left, right)] = value
            at += length
        return pairs

    @lru_cache(maxsize=None)
    def contours(self, glyph: int) -> tuple[tuple[tuple[float, float, bool], ...], ...]:
        """The glyph's closed contours as (x, y, on_curve) points, in font units."""
        data = self.data
        start, end = self.offsets[glyph], self.offsets[glyph + 1]
        if start == end:
            return ()
        at = self._table("glyf") + start
        count = struct.unpack_from(">h", data, at)[0]
        at += 10
        if count >= 0:
            return self._simple(at, count)
        return self._composite(at)

    def _simple(self, at: int, count: int):
        data = self.data
        ends = struct.unpack_from(f">{count}H", data, at)
        at += 2 * count
        at += 2 + struct.unpack_from(">H", data, at)[0]   # skip the hinting instructions
        total = ends[-1] + 1 if ends else 0
        flags = []
        while len(flags) < total:
            flag = data[at]
            at += 1
            repeat = 0
            if flag & 8:
                repeat = data[at]
                at += 1
            flags.extend([flag] * (repeat + 1))

        def coordinates(short: int, same: int):
            nonlocal at
            values, value = [], 0
            for flag in flags:
                if flag & short:
                    delta = data[at]
                    at += 1
                    value += delta if flag & same else -delta
                elif not flag & same:
                    value += struct.unpack_from(">h", data, at)[0]
                    at += 2
                values.append(value)
            return values

        xs = coordinates(2, 16)
        ys = coordinates(4, 32)
        points = [(x, y, bool(f & 1)) for x, y, f in zip(xs, ys, flags)]
        contours, first = [], 0
        for end in ends:
            contours.append(tuple(points[first:end + 1]))
            first = end + 1
        return tuple(contours)

    def _composite(self, at: int):
        data = self.data
        contours = []
        while True:
            flags, glyph = struct.unpack_from(">HH", data, at)
            at += 4
            if flags & 1:
                dx, dy = struct.unpack_from(">hh", data, at)
                at += 4
            else:
                dx, dy = struct.unpack_from(">bb", data, at)
                at += 2
            a, b, c, d = 1.0, 0.0, 0.0, 1.0
            if flags & 8:
                a = d = struct.unpack_from(">h", data, at)[0] / 16384
                at += 2
            elif flags & 0x40:
                a, d = (v / 16384 for v in struct.unpack_from(">hh", data, at))
                at += 4
            elif flags & 0x80:
                a, b, c, d = (v / 16384 for v in struct.unpack_from(">hhhh", data, at))
                at += 8
            if not flags & 2:   # components placed by matching points: not in our fonts
                raise ValueError("composite glyph placed by point numbers")
            for contour in self.contours(glyph):
                contours.append(tuple((a * x + c * y + dx, b * x + d * y + dy, on)
                                      for x, y, on in contour))
            if not flags & 0x20:
                return tuple(contours)


def _num(value: float) -> str:
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def contour_path(points, dx: float) -> str:
    """One closed contour as SVG path data (quadratic curves), moved right by dx."""
    count = len(points)
    start = next((i for i, p in enumerate(points) if p[2]), None)
    if start is None:   # all off-curve: start between the first two
        (x0, y0, _), (x1, y1, _) = points[0], points[1]
        first = ((x0 + x1) / 2, (y0 + y1) / 2)
        order = list(points[1:]) + [points[0]]
    else:
        first = points[start][:2]
        order = [points[(start + k) % count] for k in range(1, count + 1)]
    parts = [f"M{_num(first[0] + dx)} {_num(first[1])}"]
    control = None
    for x, y, on in order:
        if on:
            if control is None:
                parts.append(f"L{_num(x + dx)} {_num(y)}")
            else:
                parts.append(f"Q{_num(control[0] + dx)} {_num(control[1])} {_num(x + dx)} {_num(y)}")
                control = None
        else:
            if control is not None:   # two off-curve points: an implied on-curve one between
                mid = ((control[0] + x) / 2, (control[1] + y) / 2)
                parts.append(f"Q{_num(control[0] + dx)} {_num(control[1])} "
                             f"{_num(mid[0] + dx)} {_num(mid[1])}")
            control = (x, y)
    if control is not None:
        parts.append(f"Q{_num(control[0] + dx)} {_num(control[1])} "
                     f"{_num(first[0] + dx)} {_num(first[1])}")
    return "".join(parts) + "Z"


@lru_cache(maxsize=4096)
def line_path(font: Font, text: str, anchor: str) -> str | None:
    """The outline of `text` set in `font` in font units (y up), its anchor point at the
    origin; None when the font lacks a character."""
    glyphs = []
    for char in text:
        glyph = font.cmap.get(ord(char))
        if glyph is None:
            return None
        glyphs.append(glyph)
    pens, pen, previous = [], 0, None
    for glyph in glyphs:
        if previous is not None:
            pen += font.kerning.get((previous, glyph), 0)
        pens.append(pen)
        pen += font.advances[glyph]
        previous = glyph
    shift = {"middle": -pen / 2, "end": -pen}.get(anchor, 0)
    return "".join(contour_path(contour, x + shift)
                   for glyph, x in zip(glyphs, pens) for contour in font.contours(glyph))
