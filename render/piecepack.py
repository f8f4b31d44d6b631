"""The piecepack components every game draws with, each defined once as an SVG <symbol>.

A drawing collects what it uses in a `Defs`, places pieces with `use()`, and emits only the
symbols it used. Suits keep the standard colours: Suns red, Moons black, Crowns green, Arms blue.
Null is drawn as a small ring (a blank would read as "nothing here").
"""

from __future__ import annotations

import math

from engine.piecepack import SUIT_COLOURS, VALUE_SYMBOLS

from .svg import element, num, text

# Colour names used by the engine (pawns, dice) -> paint.
PAINT = {"red": "#d0282e", "black": "#222222", "green": "#18884a", "blue": "#1f5fc4"}

COIN_FILL = "#fbf6e9"
INK = "#1f1c18"
TILE_BACK_FILL = "#b8955a"
TILE_BACK_EDGE = "#4f3a1a"
TILE_BACK_GRID = "#8a6a38"


def suit_paint(suit: str) -> str:
    return PAINT[SUIT_COLOURS[suit]]


class Defs:
    """The symbols one drawing uses, each built once, in the order first needed."""

    def __init__(self) -> None:
        self._symbols: dict[str, str] = {}

    def need(self, symbol_id: str, build) -> str:
        if symbol_id not in self._symbols:
            body = build()  # may need other symbols first; they land earlier in the dict
            self._symbols[symbol_id] = body
        return symbol_id

    def svg(self) -> str:
        return "<defs>" + "".join(self._symbols.values()) + "</defs>" if self._symbols else ""


def use(symbol_id: str, cx: float, cy: float, size: float, **values) -> str:
    """Place a symbol as a size x size square centred on (cx, cy)."""
    return place(symbol_id, cx - size / 2, cy - size / 2, size, **values)


def place(symbol_id: str, x: float, y: float, size: float, **values) -> str:
    """Place a symbol as a size x size square with its top-left corner at (x, y)."""
    return element("use", href=f"#{symbol_id}", x=float(x), y=float(y), width=float(size),
                   height=float(size), **values)


def symbol(symbol_id: str, view_box: str, body: str) -> str:
    """A <symbol> for Defs.need: `body` drawn in `view_box`, free to spill over its edges."""
    return f'<symbol id="{symbol_id}" viewBox="{view_box}" overflow="visible">{body}</symbol>'


def _value_glyph(value: str, colour: str, size: float) -> str:
    """A value in the middle of a -50..50 box: null as a ring, ace as A, numbers as digits."""
    if value == "n":
        return element("circle", cx=0, cy=0, r=float(size * 0.22), fill="none", stroke=colour,
                       stroke_width=float(size * 0.11))
    return text(0, 0, VALUE_SYMBOLS[value], size, bold=True, fill=colour)


# ---------------------------------------------------------------------------- suit symbols


# Each emblem is one path: resvg's cost grows with the number of anti-aliased shapes drawn.


def _sun(paint: str) -> str:
    rays = []
    for i in range(8):
        angle = math.radians(i * 45)
        points = [(math.sin(a) * r, -math.cos(a) * r)
                  for a, r in ((angle - 0.3, 27), (angle, 47), (angle + 0.3, 27))]
        rays.append("M" + " L".join(f"{num(x)},{num(y)}" for x, y in points) + "Z")
    disc = "M-24,0 A24,24 0 1 1 24,0 A24,24 0 1 1 -24,0Z"
    return f'<path fill="{paint}" d="{"".join(rays)}{disc}"/>'


def _moon(paint: str) -> str:
    # Outer arc of a circle r 40 round the left, inner arc of a flatter circle back up.
    return f'<path fill="{paint}" d="M12,-38.2 A40,40 0 1 0 12,38.2 A42.3,42.3 0 0 1 12,-38.2Z"/>'


def _crown(paint: str) -> str:
    ball = "M{x},{y} a6,6 0 1 1 0,12 a6,6 0 1 1 0,-12Z"
    return (
        f'<path fill="{paint}" d="M-38,14 L-44,-24 L-19,-2 L0,-34 L19,-2 L44,-24 L38,14Z'
        " M-38,20 H38 V34 H-38Z"
        + ball.format(x=-44, y=-34) + ball.format(x=0, y=-44) + ball.format(x=44, y=-34)
        + '"/>'
    )


def _arms(paint: str) -> str:
    """A fleur-de-lis, the usual emblem of the Arms suit."""
    left = ("M-5,12 C-9,-4 -22,-14 -34,-10 C-46,-5 -44,12 -31,14 C-37,6 -33,-2 -25,-1"
            " C-16,0 -12,8 -11,14Z")
    right = ("M5,12 C9,-4 22,-14 34,-10 C46,-5 44,12 31,14 C37,6 33,-2 25,-1"
             " C16,0 12,8 11,14Z")
    return (
        f'<path fill="{paint}" d="M0,-48 C16,-32 17,-10 7,14 L-7,14 C-17,-10 -16,-32 0,-48Z'
        f'{left}{right} M-24,14 H24 V24 H-24Z M-8,24 L8,24 L12,42 L0,34 L-12,42Z"/>'
    )


_SUIT_SHAPES = {"suns": _sun, "moons": _moon, "crowns": _crown, "arms": _arms}


def suit_symbol(defs: Defs, suit: str, paint: str | None = None) -> str:
    """A suit's emblem, in its own colour unless `paint` asks for another (e.g. a pale moon
    on a night sky)."""
    symbol_id = f"suit-{suit}" if paint is None else f"suit-{suit}-{paint.lstrip('#')}"
    return defs.need(symbol_id, lambda: symbol(
        symbol_id, "-50 -50 100 100", _SUIT_SHAPES[suit](paint or suit_paint(suit))))


# ---------------------------------------------------------------------------- pieces


def _coin_disc() -> str:
    # One disc, no rim: each extra shape costs resvg real time on a board of 24 coins, and the
    # tiles are dark enough for a light coin to stand out.
    return f'<circle r="48" fill="{COIN_FILL}"/>'


def coin_value(defs: Defs, value: str) -> str:
    """A coin value side up: dark value on a light coin."""
    return defs.need(f"coin-value-{value}", lambda: symbol(
        f"coin-value-{value}", "-50 -50 100 100", _coin_disc() + _value_glyph(value, INK, 62)))


def coin_suit(defs: Defs, suit: str) -> str:
    """A coin suit side up."""
    def build() -> str:
        inner = suit_symbol(defs, suit)
        body = _coin_disc() + f'<use href="#{inner}" x="-30" y="-30" width="60" height="60"/>'
        return symbol(f"coin-suit-{suit}", "-50 -50 100 100", body)
    return defs.need(f"coin-suit-{suit}", build)


# Tiles are drawn with rectangles only, in a viewBox of the pixel size they are used at, so
# that their edges fall on whole pixels: resvg then fills them without anti-aliasing work,
# which keeps a board of tiles cheap to render. Place them at whole-pixel positions.


def _tile_frame(pixels: int, edge: str, fill: str, border: float) -> str:
    """A square tile: an edge-coloured square with the face inset by `border` of its size."""
    gap = max(1, round(pixels * 0.01))
    inset = gap + max(2, round(pixels * border))
    return (
        f'<rect x="{gap}" y="{gap}" width="{pixels - 2 * gap}" height="{pixels - 2 * gap}"'
        f' fill="{edge}"/><rect x="{inset}" y="{inset}" width="{pixels - 2 * inset}"'
        f' height="{pixels - 2 * inset}" fill="{fill}"/>'
    )


def tile_back(defs: Defs, pixels: int) -> str:
    """A tile grid side up, `pixels` wide: 2x2 cells; the edge is heavier than the grid."""
    symbol_id = f"tile-back-{pixels}"

    def build() -> str:
        line = max(1, round(pixels * 0.007))
        start, inner = round((pixels - line) / 2), max(3, round(pixels * 0.035))
        body = (
            _tile_frame(pixels, TILE_BACK_EDGE, TILE_BACK_FILL, 0.025)
            + f'<rect x="{start}" y="{inner}" width="{line}" height="{pixels - 2 * inner}"'
            f' fill="{TILE_BACK_GRID}"/><rect x="{inner}" y="{start}"'
            f' width="{pixels - 2 * inner}" height="{line}" fill="{TILE_BACK_GRID}"/>'
        )
        return symbol(symbol_id, f"0 0 {pixels} {pixels}", body)
    return defs.need(symbol_id, build)


def tile_face(defs: Defs, suit: str, value: str, pixels: int) -> str:
    """A tile suit side up, `pixels` wide: suit symbol top left, value bottom right, in the
    suit's colour."""
    return _tile_face(defs, suit, value, pixels, "", mark=(6, 46), glyph=(69, 67, 56))


def tile_face_beside(defs: Defs, suit: str, value: str, pixels: int) -> str:
    """A tile suit side up with its suit and value stacked down the left third, leaving the
    rest free for a piece standing on it (tile_face's corners would be hidden by it). Set in
    from the edge, so that a frame can be drawn round the tile."""
    return _tile_face(defs, suit, value, pixels, "-beside", mark=(14, 30), glyph=(28, 70, 44))


def _tile_face(defs: Defs, suit: str, value: str, pixels: int, variant: str,
               mark: tuple[int, int], glyph: tuple[int, int, int]) -> str:
    """A tile face on a 100-unit grid: the suit mark at (mark[0], mark[0]) sized mark[1], the
    value centred at (glyph[0], glyph[1]) sized glyph[2]."""
    symbol_id = f"tile-{suit}-{value}-{pixels}{variant}"

    def build() -> str:
        at, size = mark
        gx, gy, gsize = glyph
        body = (
            _tile_frame(pixels, INK, COIN_FILL, 0.025)
            + f'<g transform="scale({num(pixels / 100)})">'
            f'<use href="#{suit_symbol(defs, suit)}" x="{at}" y="{at}" width="{size}" height="{size}"/>'
            f'<g transform="translate({gx},{gy})">{_value_glyph(value, suit_paint(suit), gsize)}</g></g>'
        )
        return symbol(symbol_id, f"0 0 {pixels} {pixels}", body)
    return defs.need(symbol_id, build)


def pawn(defs: Defs, colour: str, halo: str = "#ffffff") -> str:
    """A pawn in a player colour (red, black, green, blue), with a halo (white unless asked
    otherwise) so it shows on any tile and on any colour."""
    paint = PAINT[colour]
    body = (
        f'<g fill="{paint}" stroke="{halo}" stroke-width="9" stroke-linejoin="round"'
        ' paint-order="stroke">'
        '<path d="M-12,-14 C-8,-2 -14,14 -26,24 L-32,34 Q-34,45 -22,45 L22,45 Q34,45 32,34'
        ' L26,24 C14,14 8,-2 12,-14Z"/><circle cy="-27" r="17"/></g>'
    )
    symbol_id = f"pawn-{colour}" if halo == "#ffffff" else f"pawn-{colour}-{halo.lstrip('#')}"
    return defs.need(symbol_id, lambda: symbol(symbol_id, "-50 -50 100 100", body))


def die_face(defs: Defs, value: str, colour: str) -> str:
    """One face of a player's die: the value in the player's colour."""
    paint = PAINT[colour]
    body = (
        f'<rect x="-45" y="-45" width="90" height="90" rx="16" fill="#fff" stroke="{paint}"'
        ' stroke-width="7"/>' + _value_glyph(value, paint, 58)
    )
    symbol_id = f"die-{colour}-{value}"
    return defs.need(symbol_id, lambda: symbol(symbol_id, "-50 -50 100 100", body))
