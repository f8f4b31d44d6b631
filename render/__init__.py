"""Drawings of game views: SVG built as strings, PNG by resvg with the bundled font only.

    import render
    png = render.render_png(game.view(state, viewer), names={"123": "Alice"})

Only a view is ever drawn, never a state, so nothing hidden can reach an image. Public boards
use the "standard" palette; a player's own views may be drawn in another (`palette=`, one of
PALETTES).
"""

from __future__ import annotations

from . import byop1, galaxies, global_warming, pack_solitaire, relativity
from .piecepack import PALETTES
from .svg import svg_to_png

# game name -> draw(view, names, palette) -> SVG
DRAWINGS = {
    "relativity": relativity.draw,
    "global-warming": global_warming.draw,
    "galaxies": galaxies.draw,
    "byop1": byop1.draw,
    "pack-solitaire": pack_solitaire.draw,
}


def render_svg(view: dict, names: dict[str, str] | None = None,
               palette: str = "standard") -> str:
    """The SVG of `view` (from engine's `view()`); `names` maps player ids to display names;
    `palette` names the colours (PALETTES)."""
    try:
        draw = DRAWINGS[view["game"]]
    except KeyError:
        raise KeyError(f"no drawing for {view.get('game')!r}; drawn games: "
                       f"{', '.join(DRAWINGS)}") from None
    return draw(view, names, palette)


def render_png(view: dict, names: dict[str, str] | None = None, width: int | None = None,
               palette: str = "standard") -> bytes:
    """The PNG of `view`, at the drawing's default size or scaled to `width` pixels."""
    return svg_to_png(render_svg(view, names, palette), width=width)


__all__ = ["DRAWINGS", "PALETTES", "render_png", "render_svg", "svg_to_png"]
