"""Every board stays readable at Discord's preview width: no text under 11 px tall when the image
is shown 400 px wide. Generic over every registered drawing, so a new game is covered by
registering it.

The sizes are the SVG's declared font sizes, scaled by every transform and symbol viewBox
between the text and the document, relative to the document's own viewBox width; so this
holds whatever size the PNG is rasterised at.
"""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET

import pytest

import engine
import render

PREVIEW_WIDTH = 400
MIN_PX = 11
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"


def _transform_scale(transform: str | None) -> float:
    """How much a transform scales lengths (the square root of its area factor)."""
    factor = 1.0
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", transform or ""):
        values = [float(v) for v in re.split(r"[\s,]+", args.strip()) if v]
        if name == "scale":
            sx, sy = values[0], values[1] if len(values) > 1 else values[0]
            factor *= math.sqrt(abs(sx * sy))
        elif name == "matrix":
            a, b, c, d = values[:4]
            factor *= math.sqrt(abs(a * d - b * c))
    return factor


def _length(value: str | None) -> float | None:
    return float(re.match(r"[-\d.]+", value).group()) if value else None


def text_sizes(svg: str) -> list[tuple[float, str]]:
    """(height in px at the preview width, text) of every <text> drawn, <use>d symbols
    included (a symbol's text counts once per use, at that use's scale)."""
    root = ET.fromstring(svg)
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    view_width = float(root.get("viewBox").split()[2])
    found: list[tuple[float, str]] = []

    def walk(element, scale: float, font_size: float | None) -> None:
        tag = element.tag.replace(SVG, "")
        scale *= _transform_scale(element.get("transform"))
        font_size = _length(element.get("font-size")) or font_size
        if tag == "text":
            assert font_size, "text without a font size"
            content = "".join(element.itertext())
            found.append((font_size * scale, content))
            return
        if tag == "use":
            target = by_id[(element.get("href") or element.get(XLINK)).lstrip("#")]
            inner = scale
            box = target.get("viewBox")
            if box:
                _, _, box_w, box_h = (float(v) for v in box.split())
                w, h = _length(element.get("width")), _length(element.get("height"))
                inner *= min(w / box_w, h / box_h)
            for child in target:
                walk(child, inner, font_size)
            return
        if tag in ("defs", "symbol"):
            return   # drawn only where used
        for child in element:
            walk(child, scale, font_size)

    walk(root, PREVIEW_WIDTH / view_width, None)
    return found


def positions(game_name: str):
    """Views of one game: the opening for every player count, and positions of a seeded random
    game to its end, as a spectator and as each player sees them."""
    game = engine.get_game(game_name)
    for count in range(game.min_players, game.max_players + 1):
        players = [f"p{i}" for i in range(count)]
        state = game.new_game(players, seed=count)
        yield f"{count} players, opening", game.view(state, None)
        rng = random.Random(count)
        for move in range(400):
            waiting = game.to_act(state)
            if not waiting:
                break
            # any waiting player: the first one could change a secret choice forever
            player = rng.choice(waiting)
            state = game.apply(state, player, rng.choice(game.legal_actions(state, player)))
            if move % 7 == 0:
                for viewer in [None, *players]:
                    yield f"{count} players, move {move}, viewer {viewer}", game.view(state, viewer)
        assert not game.to_act(state), f"{game_name}: a random game did not end in 400 moves"
        for viewer in [None, *players]:
            yield f"{count} players, the end, viewer {viewer}", game.view(state, viewer)


@pytest.mark.parametrize("game_name", sorted(render.DRAWINGS))
def test_no_text_under_11_px_at_the_preview_width(game_name):
    long_names = None
    smallest = None
    for label, view in positions(game_name):
        long_names = {p: f"A rather long display name {p}" for p in view["players"]}
        sizes = text_sizes(render.render_svg(view, long_names))
        assert sizes, f"{label}: no text found (drawn as paths? measure those instead)"
        size, content = min(sizes)
        if smallest is None or size < smallest[0]:
            smallest = (size, content, label)
    assert smallest[0] >= MIN_PX, (
        f"{game_name}: {smallest[1]!r} is {smallest[0]:.1f} px tall at {PREVIEW_WIDTH} px wide "
        f"({smallest[2]})")


def test_the_measure_follows_transforms_and_symbols():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 100" width="800" height="100">'
           '<defs><symbol id="s" viewBox="0 0 100 100"><text font-size="50">in a symbol</text>'
           '</symbol></defs><text font-size="30">plain</text>'
           '<g transform="translate(5,5) scale(0.5)" font-size="40"><text>inherited</text></g>'
           '<use href="#s" x="0" y="0" width="20" height="20"/></svg>')
    assert sorted(text_sizes(svg)) == [(5.0, "in a symbol"), (10.0, "inherited"), (15.0, "plain")]
