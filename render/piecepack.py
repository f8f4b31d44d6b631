"""The piecepack components every game draws with, each defined once as an SVG <symbol>.

A drawing collects what it uses in a `Defs`, places pieces with `use()`, and emits only the
symbols it used. Suits keep the standard colours: Suns red, Moons black, Crowns green, Arms blue.
Null is drawn as a small ring (a blank would read as "nothing here").

Colour is never the only mark: a player's pawn carries the emblem of its colour's suit (the red
pawn a sun, ...), so that pawns stay apart for a colour-blind player; a drawing's `Defs` holds
the palette (PALETTES) its paints come from.
"""

from __future__ import annotations

import math

from engine.piecepack import SUIT_COLOURS, VALUE_SYMBOLS

from .svg import element, num, text

# Colour names used by the engine (pawns, dice, suits) -> paint, per palette. "standard" is the
# piecepack look, used for every public board: its red and green (and green and blue) come too
# close under colour-vision deficiencies, so the marks that tell players apart carry a shape as
# well (SEAT_SUIT). "colour-safe", for a player's own views, is told apart by colour alone under
# protanopia, deuteranopia and tritanopia too (tests/test_colour_vision.py): Okabe & Ito's idea
# (a vermillion, a bluish green, a blue far darker than the green), tuned for four colours.
PALETTES = {
    "standard": {"red": "#d0282e", "black": "#222222", "green": "#18884a", "blue": "#1f5fc4"},
    "colour-safe": {"red": "#e64c19", "black": "#000000", "green": "#109393", "blue": "#1100cc"},
}
PAINT = PALETTES["standard"]
# A seat's colour -> the suit whose emblem marks its pieces (the suit of that colour).
SEAT_SUIT = {colour: suit for suit, colour in SUIT_COLOURS.items()}

COIN_FILL = "#fbf6e9"
INK = "#1f1c18"
TILE_BACK_FILL = "#b8955a"
TILE_BACK_EDGE = "#4f3a1a"
TILE_BACK_GRID = "#8a6a38"


def palette_paints(palette: str) -> dict[str, str]:
    """The paints of a palette by name; a clear error for an unknown one."""
    try:
        return PALETTES[palette]
    except KeyError:
        raise ValueError(f"no palette {palette!r}; palettes: {', '.join(PALETTES)}") from None


def suit_paint(suit: str, defs: "Defs | None" = None) -> str:
    return (defs.paints if defs else PAINT)[SUIT_COLOURS[suit]]


class Defs:
    """The symbols one drawing uses, each built once, in the order first needed, and the
    palette the drawing is painted with."""

    def __init__(self, palette: str = "standard") -> None:
        self._symbols: dict[str, str] = {}
        self.paints = palette_paints(palette)

    def paint(self, colour: str) -> str:
        """The paint of an engine colour (red, black, green, blue) in this drawing's palette."""
        return self.paints[colour]

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
        symbol_id, "-50 -50 100 100", _SUIT_SHAPES[suit](paint or suit_paint(suit, defs))))


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
            f'<g transform="translate({gx},{gy})">'
            f'{_value_glyph(value, suit_paint(suit, defs), gsize)}</g></g>'
        )
        return symbol(symbol_id, f"0 0 {pixels} {pixels}", body)
    return defs.need(symbol_id, build)


def seat_emblem(defs: Defs, colour: str, paint: str = "#ffffff") -> str:
    """The shape that marks a seat's pieces besides their colour: the emblem of the suit of
    that colour (red: sun, black: moon, green: crown, blue: fleur-de-lis), white unless asked."""
    return suit_symbol(defs, SEAT_SUIT[colour], paint)


def pawn(defs: Defs, colour: str, halo: str = "#ffffff") -> str:
    """A pawn in a player colour (red, black, green, blue), with a halo (white unless asked
    otherwise) so it shows on any tile and on any colour, and its seat's emblem in white on
    its base: the pawn's mark when colours look alike."""
    paint = defs.paint(colour)
    emblem = seat_emblem(defs, colour)
    body = (
        f'<g fill="{paint}" stroke="{halo}" stroke-width="9" stroke-linejoin="round"'
        ' paint-order="stroke">'
        # a bell-shaped base, wide enough for the emblem to read at phone size
        '<path d="M-8,-16 C-8,-6 -16,-2 -25,6 C-33,14 -35,30 -34,40 Q-34,47 -27,47 L27,47'
        ' Q34,47 34,40 C35,30 33,14 25,6 C16,-2 8,-6 8,-16Z"/><circle cy="-31" r="16"/></g>'
        f'<use href="#{emblem}" x="-21" y="5" width="42" height="42"/>'
    )
    symbol_id = f"pawn-{colour}" if halo == "#ffffff" else f"pawn-{colour}-{halo.lstrip('#')}"
    return defs.need(symbol_id, lambda: symbol(symbol_id, "-50 -50 100 100", body))


def die_face(defs: Defs, value: str, colour: str) -> str:
    """One face of a player's die: the value in the player's colour."""
    paint = defs.paint(colour)
    body = (
        f'<rect x="-45" y="-45" width="90" height="90" rx="16" fill="#fff" stroke="{paint}"'
        ' stroke-width="7"/>' + _value_glyph(value, paint, 58)
    )
    symbol_id = f"die-{colour}-{value}"
    return defs.need(symbol_id, lambda: symbol(symbol_id, "-50 -50 100 100", body))
