"""Drawings of game views: SVG built as strings, PNG by resvg with the bundled font only.

    import render
    png = render.render_png(game.view(state, viewer), names={"123": "Alice"})

Only a view is ever drawn, never a state, so nothing hidden can reach an image.
"""

from __future__ import annotations

from . import byop1, galaxies, global_warming, relativity
from .svg import svg_to_png

# game name -> draw(view, names) -> SVG
DRAWINGS = {
    "relativity": relativity.draw,
    "global-warming": global_warming.draw,
    "galaxies": galaxies.draw,
    "byop1": byop1.draw,
}


def render_svg(view: dict, names: dict[str, str] | None = None) -> str:
    """The SVG of `view` (from engine's `view()`); `names` maps player ids to display names."""
    try:
        draw = DRAWINGS[view["game"]]
    except KeyError:
        raise KeyError(f"no drawing for {view.get('game')!r}; drawn games: "
                       f"{', '.join(DRAWINGS)}") from None
    return draw(view, names)


def render_png(view: dict, names: dict[str, str] | None = None, width: int | None = None) -> bytes:
    """The PNG of `view`, at the drawing's default size or scaled to `width` pixels."""
    return svg_to_png(render_svg(view, names), width=width)


__all__ = ["DRAWINGS", "render_png", "render_svg", "svg_to_png"]
