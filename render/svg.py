"""Small SVG helpers, and SVG -> PNG with resvg using only the bundled font.

Drawings are plain strings: each helper returns one element. Text is always set in the bundled
DejaVu Sans, and resvg's font database holds only that font (no system fonts), so a PNG is the
same on every machine.

PNGs are scaled up to `PNG_WIDTH` pixels wide: a board drawn 560 user units wide becomes an
800 px image, crisp on a phone's 2x screen (Discord shows it about 400 points wide), without any
game laying itself out anew.
The binding (the `resvg` package: wheels for Linux x86-64 and arm64 with glibc or musl, macOS
Intel and Apple, Windows) keeps the fonts in its parsing options, loaded once per thread rather
than on every call (its options may not cross threads). It holds the GIL while it draws, so the
bot draws in worker processes (bot/rendering.py).
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

import resvg

from . import glyphs

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


PNG_WIDTH = 800   # pixels: drawings narrower than this are scaled up to it

_ROOT_SIZE = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"[^>]*?\sheight="([0-9.]+)"')


_this_thread = threading.local()


def font_database() -> resvg.usvg.Options:
    """resvg's parsing options with the bundled font files and nothing else (they start with
    no font at all, not the machine's), loaded once per thread."""
    options = getattr(_this_thread, "options", None)
    if options is None:
        options = resvg.usvg.Options.default()
        for path in FONT_FILES:
            options.load_font_file(str(path))
        options.font_family = FONT_FAMILY
        _this_thread.options = options
    return options


def svg_size(svg: str) -> tuple[float, float]:
    """The drawing's own size: read from our root element, else measured by resvg."""
    match = _ROOT_SIZE.search(svg[:1000])
    if match:
        return float(match.group(1)), float(match.group(2))
    width, height = _parse(svg).int_size()
    return float(width), float(height)


def _parse(svg: str) -> resvg.usvg.Tree:
    """resvg's tree of `svg`. The binding panics on an SVG it cannot read, and pyo3's panic is
    no Exception (nothing that catches errors would catch it): it becomes a ValueError."""
    try:
        return resvg.usvg.Tree.from_str(svg, font_database())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:
        raise ValueError(f"resvg cannot read this SVG: {error}") from None


@lru_cache(maxsize=2)
def bundled_font(bold: bool) -> glyphs.Font:
    return glyphs.Font(FONT_FILES[1 if bold else 0])


_TEXT = re.compile(r"<text\b([^>]*)>([^<]*)</text>")
_ATTRIBUTE = re.compile(r'([\w:-]+)="([^"]*)"')
_ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}
# What a text's outline path takes over from it; anything else (spacing, baselines, ...) and
# the text is left for resvg to set.
_TEXT_ONLY = {"x", "y", "font-family", "font-size", "font-weight", "text-anchor"}
_ALLOWED = _TEXT_ONLY | {"fill", "class", "opacity", "fill-opacity", "stroke", "stroke-width",
                         "stroke-linejoin", "transform", "id"}


def _outline(match: re.Match) -> str:
    attributes = dict(_ATTRIBUTE.findall(match.group(1)))
    content = " ".join(re.sub(r"&\w+;", lambda m: _ENTITIES.get(m.group(0), m.group(0)),
                              match.group(2)).split())
    if (attributes.get("font-family") != FONT_FAMILY or "font-size" not in attributes
            or attributes.get("font-weight", "bold") != "bold"
            or not all(name in _ALLOWED or name.startswith("data-") for name in attributes)):
        return match.group(0)
    font = bundled_font("font-weight" in attributes)
    path = glyphs.line_path(font, content, attributes.get("text-anchor", "start"))
    if path is None:   # a character the font lacks
        return match.group(0)
    scale = f"{float(attributes['font-size']) / font.units_per_em:.6g}"
    place = (f"translate({attributes.get('x', '0')} {attributes.get('y', '0')}) "
             f"scale({scale} -{scale})")
    if "transform" in attributes:
        place = f"{attributes['transform']} {place}"
    kept = "".join(f' {name}="{value}"' for name, value in attributes.items()
                   if name not in _TEXT_ONLY and name != "transform")
    return f'<path transform="{place}"{kept} d="{path}"/>'


def outline_text(svg: str) -> str:
    """`svg` with each of our <text> elements replaced by the outline of its glyphs: the same
    picture, drawn without resvg's text layout."""
    return _TEXT.sub(_outline, svg)


def png_scale(own_width: float, width: int | None = None) -> float:
    """PNG pixels per user unit: to `width` when given, else up to PNG_WIDTH (never down)."""
    return width / own_width if width else max(1.0, PNG_WIDTH / own_width)


def svg_to_png(svg: str, width: int | None = None) -> bytes:
    """Rasterise `svg` scaled up to PNG_WIDTH pixels wide (or to `width` pixels wide) with
    the bundled font only, so the bytes do not depend on the machine. Text is drawn as glyph
    outlines (see `outline_text`)."""
    svg = outline_text(svg)
    own_width, own_height = svg_size(svg)
    scale = png_scale(own_width, width)
    size = (max(1, round(own_width * scale)), max(1, round(own_height * scale)))
    png = resvg.render(_parse(svg), (scale, 0, 0, 0, scale, 0), bg_size=size)
    return png if isinstance(png, bytes) else bytes(png)
