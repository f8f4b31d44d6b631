"""Small SVG helpers, and SVG -> PNG with resvg using only the bundled font.

Drawings are plain strings: each helper returns one element. Text is always set in the bundled
DejaVu Sans, and resvg is told to skip system fonts, so a PNG is the same on every machine.
"""

from __future__ import annotations

from pathlib import Path

import resvg_py

FONT_DIR = Path(__file__).parent / "fonts"
FONT_FILES = (FONT_DIR / "DejaVuSans.ttf", FONT_DIR / "DejaVuSans-Bold.ttf")
FONT_FAMILY = "DejaVu Sans"

# DejaVu Sans cap height is 0.73 em: shifting the baseline by half of it centres capitals
# and digits on y (resvg's support for dominant-baseline is not something to lean on).
_CAP_HALF = 0.365


def escape(value) -> str:
    """Text safe inside an element or a double-quoted attribute."""
    return (
        str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;")
    )


def num(value: float) -> str:
    """A coordinate, short and stable: 12.0 -> '12', 12.345 -> '12.35'."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def attrs(**values) -> str:
    """Attributes from keywords: trailing '_' dropped (class_), other '_' become '-'.
    None values are left out; floats are shortened."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):
            value = num(value)
        parts.append(f' {name}="{escape(value)}"')
    return "".join(parts)


def element(tag: str, content: str | None = None, **values) -> str:
    if content is None:
        return f"<{tag}{attrs(**values)}/>"
    return f"<{tag}{attrs(**values)}>{content}</{tag}>"


def group(content: str, transform: str | None = None, **values) -> str:
    return element("g", content, transform=transform, **values)


def rect(x: float, y: float, width: float, height: float, **values) -> str:
    return element("rect", x=float(x), y=float(y), width=float(width), height=float(height),
                   **values)


def circle(cx: float, cy: float, r: float, **values) -> str:
    return element("circle", cx=float(cx), cy=float(cy), r=float(r), **values)


def line(x1: float, y1: float, x2: float, y2: float, **values) -> str:
    return element("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), **values)


def text(x: float, y: float, content, size: float, *, bold: bool = False, anchor: str = "middle",
         fill: str = "#000", centre: bool = True, **values) -> str:
    """Text in the bundled font. With `centre`, y is the middle of capitals, not the baseline."""
    baseline = y + size * _CAP_HALF if centre else y
    return element(
        "text", escape(content), x=float(x), y=float(baseline), font_family=FONT_FAMILY,
        font_size=float(size), font_weight="bold" if bold else None, text_anchor=anchor,
        fill=fill, **values,
    )


def fit(name: str, max_chars: int) -> str:
    """Shorten a display name to about `max_chars` characters."""
    name = " ".join(str(name).split())
    return name if len(name) <= max_chars else name[: max_chars - 1].rstrip() + "…"


def document(width: int, height: int, body: str, defs: str = "", **values) -> str:
    """A whole SVG document; its user units are the default PNG's pixels."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f'{attrs(width=width, height=height, viewBox=f"0 0 {width} {height}", **values)}>'
        f"{defs}{body}</svg>"
    )


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """Rasterise `svg` (at its own size, or scaled to `width` pixels wide) with the bundled font
    only: system fonts are skipped, so the bytes do not depend on the machine."""
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        width=width,
        skip_system_fonts=True,
        font_files=[str(path) for path in FONT_FILES],
        font_family=FONT_FAMILY,
        sans_serif_family=FONT_FAMILY,
    )
    return png if isinstance(png, bytes) else bytes(png)  # some releases return a list of ints
