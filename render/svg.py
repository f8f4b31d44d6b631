"""Small SVG helpers, and SVG -> PNG with resvg using only the bundled font.

Drawings are plain strings: each helper returns one element. Text is always set in the bundled
DejaVu Sans, and resvg's font database holds only that font (no system fonts), so a PNG's
pixels are the same on every machine.

PNGs are scaled up to `PNG_WIDTH` pixels wide: a board drawn 560 user units wide becomes an
800 px image, crisp on a phone's 2x screen (Discord shows it about 400 points wide), without any
game laying itself out anew.
The binding (svg2png-py, resvg built for speed) lets go of the GIL while it draws, and keeps
its font database for the life of the process rather than loading the fonts on every call.
"""

from __future__ import annotations

import re
import struct
import zlib
from functools import lru_cache
from pathlib import Path

import svg2png_py

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


@lru_cache(maxsize=1)
def font_database() -> svg2png_py.FontDatabase:
    """Only the bundled font files, loaded once per process."""
    fonts = svg2png_py.FontDatabase()
    for path in FONT_FILES:
        fonts.load_font_file(str(path))
    return fonts


def _options() -> svg2png_py.RenderOptions:
    return svg2png_py.RenderOptions(font_family=FONT_FAMILY)


def svg_size(svg: str) -> tuple[float, float]:
    """The drawing's own size: read from our root element, else measured by resvg."""
    match = _ROOT_SIZE.search(svg[:1000])
    if match:
        return float(match.group(1)), float(match.group(2))
    return svg2png_py.svg_intrinsic_size(svg, font_database(), _options())


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
    the bundled font only, so the pixels do not depend on the machine. Text is drawn as glyph
    outlines (see `outline_text`)."""
    return rasterise(outline_text(svg), width)


def rasterise(svg: str, width: int | None = None, fonts: svg2png_py.FontDatabase | None = None) -> bytes:
    """The PNG of `svg` as it is (text not outlined), sized as `svg_to_png` sizes it, drawn
    with `fonts` (by default the bundled font only)."""
    own_width, own_height = svg_size(svg)
    scale = png_scale(own_width, width)
    size = (max(1, round(own_width * scale)), max(1, round(own_height * scale)))
    pixels, got_width, got_height = svg2png_py.svg_to_rgba(
        _sized(svg, own_width, own_height, scale, size), font_database() if fonts is None else fonts,
        options=_options())
    return encode_png(bytes(pixels), got_width, got_height)


_ROOT_TAG = re.compile(r"<svg\b[^>]*>")
_SIZE_ATTRIBUTES = re.compile(r'\s(width|height|viewBox)="([^"]*)"')


def _sized(svg: str, own_width: float, own_height: float, scale: float, size: tuple[int, int]) -> str:
    """`svg` with its root `size` pixels large and its picture scaled by `scale` from the top
    left: the viewBox grows by the fraction of a pixel that rounding the size added, so the
    picture is neither stretched nor centred."""
    root = _ROOT_TAG.search(svg)
    given = dict(_SIZE_ATTRIBUTES.findall(root.group(0)))
    box = [float(v) for v in given.get("viewBox", f"0 0 {own_width} {own_height}").replace(",", " ").split()]
    box[2] *= size[0] / (own_width * scale)
    box[3] *= size[1] / (own_height * scale)
    tag = _SIZE_ATTRIBUTES.sub("", root.group(0))
    tag = (f'{tag[:4]} width="{size[0]}" height="{size[1]}" '
           f'viewBox="{" ".join(f"{v:.12g}" for v in box)}"{tag[4:]}')
    return svg[:root.start()] + tag + svg[root.end():]


# PNG encoding of our own rather than resvg's: its encoder filters every row and deflates
# harder, two thirds of a board's time, for files no smaller than ours. Rows unfiltered and
# deflated at level 3 take a few milliseconds; boards are opaque, so RGB without alpha.
# The pixels are resvg's on every machine; the deflated bytes are those of the zlib Python
# links (the same with every classic zlib; a replacement such as zlib-ng packs them
# differently, the image being the same).
_PNG_LEVEL = 3
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_NOT_OPAQUE = re.compile(rb"[^\xff]")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(rgba: bytes, width: int, height: int) -> bytes:
    """A PNG of premultiplied RGBA pixels (resvg's): RGB when every pixel is opaque, else RGBA
    with the colours demultiplied as PNG wants them."""
    alpha = rgba[3::4]
    if alpha.count(255) == len(alpha):
        pixels = bytearray(width * height * 3)
        for channel in range(3):
            pixels[channel::3] = rgba[channel::4]
        channels, colour_type = 3, 2
    else:
        pixels = bytearray(rgba)
        for found in _NOT_OPAQUE.finditer(alpha):
            a, at = alpha[found.start()], 4 * found.start()
            if a:
                pixels[at:at + 3] = bytes(min(255, (c * 255 + a // 2) // a) for c in pixels[at:at + 3])
        channels, colour_type = 4, 6
    stride = width * channels
    rows = b"\x00" + b"\x00".join(pixels[y * stride:(y + 1) * stride] for y in range(height))   # filter 0
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (_PNG_SIGNATURE + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(rows, _PNG_LEVEL)) + _png_chunk(b"IEND", b""))
