"""A colour-blind player tells every player's pieces apart on every board (issue 23, item 4).

Every game's boards (the positions of tests/test_render_legibility.py: the opening for every
player count, a seeded random game to its end, as a spectator and as each player) are read as
SVG, not as pixels: the marks and the palette are in the SVG, exactly.

The marks that tell players apart are the outermost elements carrying `data-player` (and those
carrying `data-suit`, which tell suits apart), compared class by class: two marks of different
players (suits) must differ in something other than colour (a shape, a letter, a dash pattern:
their SVG with every colour removed differs), or else their colours must stay apart by
CIEDE2000 >= MIN_DELTA_E for normal vision and through the Machado et al. (2009) simulations of
protanopia, deuteranopia and tritanopia (tests/cvd.py).

MIN_DELTA_E: a CIEDE2000 of about 1 is just noticeable between large patches side by side;
pieces are small and seen apart, where the noticeable step grows several times (Stone, Szafir &
Setlur 2014, "An Engineering Model for Color Difference as a Function of Size"). 20 is ten
times the usual just-noticeable 2, and what well-separated categorical colours clear (the
standard red and blue: 44 and more under every simulation). The standard red and green come to
9.8 under deuteranopia, green and blue to 13.4 under tritanopia: told apart by colour alone,
those pawns would be a guess.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from functools import lru_cache

import pytest

import render
from render import piecepack as pp

from . import cvd
from .test_render_legibility import positions

MIN_DELTA_E = 20
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
COLOUR_ATTRIBUTES = ("fill", "stroke", "stop-color", "color", "flood-color")
# Outside symbols, where pieces are placed: where and how big tell nothing about whose a
# piece is, so two pieces in different places or sizes still count as alike.
PLACEMENT = {"x", "y", "cx", "cy", "x1", "y1", "x2", "y2", "width", "height", "r", "rx", "ry",
             "d", "points", "transform", "stroke-width", "opacity", "font-size"}
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")


class Board:
    """One SVG: its marks' colour-free signatures and their colours, symbols resolved."""

    def __init__(self, svg: str):
        self.root = ET.fromstring(svg)
        self.symbols = {e.get("id"): e for e in self.root.iter() if e.get("id")}
        self.parent = {child: parent for parent in self.root.iter() for child in parent}
        self._signatures: dict = {}

    def _target(self, use):
        return self.symbols[(use.get("href") or use.get(XLINK)).lstrip("#")]

    def signature(self, element, inside_symbol: bool = False):
        """Everything drawn but colour (and, outside symbols, placement and size)."""
        key = (id(element), inside_symbol)
        if key not in self._signatures:
            self._signatures[key] = self._signature(element, inside_symbol)
        return self._signatures[key]

    def _signature(self, element, inside_symbol: bool):
        tag = element.tag.replace(SVG, "")
        kept = tuple(sorted(
            (name, value) for name, value in element.attrib.items()
            if name not in COLOUR_ATTRIBUTES and name not in ("id", "class", "href", XLINK)
            and not name.startswith("data-") and (inside_symbol or name not in PLACEMENT)))
        children = tuple(self.signature(child, inside_symbol) for child in element)
        if tag == "use":
            children += (self.signature(self._target(element), True),)
        return tag, kept, (element.text or "").strip(), children

    def colours(self, element) -> list[str]:
        """Every paint in the element, symbols included, in drawing order."""
        found = [element.get(name) for name in COLOUR_ATTRIBUTES if element.get(name)]
        for child in element:
            found += self.colours(child)
        if element.tag == f"{SVG}use":
            found += self.colours(self._target(element))
        return found

    def suits_used(self, element) -> set[str]:
        """The suit emblems drawn in the element (any paint)."""
        found = set()
        if element.tag == f"{SVG}use":
            target = self._target(element)
            match = re.match(r"suit-([a-z]+)", target.get("id"))
            found = {match.group(1)} if match else self.suits_used(target)
        for child in element:
            found |= self.suits_used(child)
        return found

    def marks(self, key: str) -> list:
        """The outermost elements carrying `key`: what tells one player (suit) from another."""
        def outer(element) -> bool:
            up = self.parent.get(element)
            while up is not None:
                if up.get(key) is not None:
                    return False
                up = self.parent.get(up)
            return True
        return [e for e in self.root.iter() if e.get(key) is not None and outer(e)]


@lru_cache(maxsize=None)
def _difference(first: str, second: str, vision: str) -> float:
    return cvd.difference(first, second, vision)


def colour_problem(board: Board, a, b) -> str | None:
    """Why marks a and b cannot be told apart by someone, or None when everyone can."""
    if board.signature(a) != board.signature(b):
        return None   # a shape, a letter, a pattern differs
    pairs = [(x, y) for x, y in zip(board.colours(a), board.colours(b))
             if x != y and HEX.match(x) and HEX.match(y)]
    if not pairs:
        return None   # not told apart by colour either: no colour distinction to check
    best = {vision: max(_difference(x, y, vision) for x, y in pairs) for vision in cvd.VISIONS}
    failing = [f"{vision} {delta:.1f}" for vision, delta in best.items() if delta < MIN_DELTA_E]
    if failing:
        return (f"alike but for colour, and their most different paints are only CIEDE2000 "
                f"{', '.join(failing)} apart (< {MIN_DELTA_E}) in {pairs}")
    return None


def problems(svg: str) -> list[str]:
    board = Board(svg)
    found = []
    for key in ("data-player", "data-suit"):
        by_class: dict[str, list] = {}
        for mark in board.marks(key):
            by_class.setdefault(mark.get("class", ""), []).append(mark)
        for css, marks in by_class.items():
            seen = set()
            for a, b in itertools.combinations(marks, 2):
                pair = tuple(sorted((a.get(key), b.get(key))))
                if a.get(key) == b.get(key) or (css, pair) in seen:
                    continue
                problem = colour_problem(board, a, b)
                if problem:
                    seen.add((css, pair))
                    found.append(f"{css} of {pair[0]} and {pair[1]}: {problem}")
    return found


def unmatched_marks(svg: str) -> list[str]:
    """Board marks whose emblem is missing from their player's row or bar (the key)."""
    board = Board(svg)
    rows = {e.get("data-player"): e for e in board.marks("data-player")
            if e.get("class") == "player"}
    found = []
    for mark in board.marks("data-player"):
        player = mark.get("data-player")
        if mark.get("class") == "player" or player not in rows:
            continue
        missing = board.suits_used(mark) - board.suits_used(rows[player])
        if missing:
            found.append(f"{mark.get('class')} of {player}: {sorted(missing)} not beside the name")
    return found


def sampled(game_name: str, every: int = 1):
    for index, (label, view) in enumerate(positions(game_name)):
        if index % every == 0:
            yield label, view


@pytest.mark.parametrize("game_name", sorted(render.DRAWINGS))
def test_players_pieces_stay_apart_under_every_colour_vision(game_name):
    for label, view in sampled(game_name):
        found = problems(render.render_svg(view))
        assert not found, f"{game_name}, {label}:\n" + "\n".join(found[:5])


@pytest.mark.parametrize("game_name", sorted(render.DRAWINGS))
def test_each_players_emblem_on_the_board_is_also_beside_their_name(game_name):
    for label, view in sampled(game_name, every=3):
        found = unmatched_marks(render.render_svg(view))
        assert not found, f"{game_name}, {label}:\n" + "\n".join(found[:5])


@pytest.mark.parametrize("game_name", sorted(render.DRAWINGS))
def test_the_colour_safe_palette_draws_every_board_and_passes_too(game_name):
    for label, view in sampled(game_name, every=5):
        svg = render.render_svg(view, palette="colour-safe")
        found = problems(svg)
        assert not found, f"{game_name}, {label}:\n" + "\n".join(found[:5])


def test_the_palette_reaches_the_pieces():
    import engine
    game = engine.get_game("global-warming")
    view = game.view(game.new_game(["a", "b", "c", "d"], seed=3), None)
    standard, safe = pp.PALETTES["standard"], pp.PALETTES["colour-safe"]
    drawn = render.render_svg(view, palette="colour-safe")
    assert all(paint in drawn for paint in safe.values())
    assert not any(paint in drawn for paint in standard.values())
    assert render.render_svg(view) == render.render_svg(view, palette="standard")
    assert all(paint in render.render_svg(view) for paint in standard.values())
    with pytest.raises(ValueError, match="no palette 'sepia'; palettes: standard, colour-safe"):
        render.render_svg(view, palette="sepia")


def test_colour_safe_is_told_apart_by_colour_alone_and_standard_is_not():
    """Why the standard palette's pieces need their emblems, and the colour-safe one's not."""
    def closest(paints: dict) -> tuple[float, str, str, str]:
        return min((cvd.difference(paints[a], paints[b], vision), vision, a, b)
                   for vision in cvd.VISIONS for a, b in itertools.combinations(paints, 2))
    assert closest(pp.PALETTES["colour-safe"])[0] >= MIN_DELTA_E
    delta, vision, a, b = closest(pp.PALETTES["standard"])
    assert (vision, a, b) == ("deuteranopia", "red", "green") and delta < MIN_DELTA_E


def test_global_warming_pawns_differ_by_emblem_not_only_by_colour():
    import engine
    game = engine.get_game("global-warming")
    view = game.view(game.new_game(["a", "b", "c", "d"], seed=3), None)
    board = Board(render.render_svg(view))
    pawns = [e for e in board.marks("data-player") if e.get("class") == "pawn"]
    assert len(pawns) == 4
    assert [board.suits_used(p) for p in pawns] == [{"suns"}, {"moons"}, {"crowns"}, {"arms"}]
    assert len({board.signature(p) for p in pawns}) == 4


def test_the_check_catches_pieces_alike_but_for_colour():
    """Two pawns of one shape, standard red and green: what deuteranopes cannot tell apart."""
    def pawn(name, paint):
        return (f'<symbol id="{name}" viewBox="0 0 10 10"><circle r="4" fill="{paint}"/>'
                '</symbol>')
    green = '<use href="#green" x="9" data-player="b" class="pawn"/>'
    svg = ('<svg xmlns="http://www.w3.org/2000/svg">' + pawn("red", "#d0282e")
           + pawn("green", "#18884a") + pawn("blue", "#1f5fc4")
           + '<use href="#red" x="1" data-player="a" class="pawn"/>' + green
           + '<use href="#blue" x="5" data-player="c" class="pawn"/></svg>')
    found = problems(svg)
    assert found == [
        "pawn of a and b: alike but for colour, and their most different paints are only "
        "CIEDE2000 protanopia 14.9, deuteranopia 9.8 apart (< 20) in [('#d0282e', '#18884a')]",
        "pawn of b and c: alike but for colour, and their most different paints are only "
        "CIEDE2000 tritanopia 13.4 apart (< 20) in [('#18884a', '#1f5fc4')]"]
    # a letter on one of them is enough
    lettered = svg.replace(green, '<g data-player="b" class="pawn"><use href="#green"/>'
                                  '<text>G</text></g>')
    assert problems(lettered) == []


def test_the_simulation_and_difference_match_the_published_numbers():
    # Sharma, Wu & Dalal (2005), Table 1: pairs 1, 7, 17 and 25
    for lab1, lab2, expected in [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                 ((50, 0, 0), (50, -1, 2), 2.3669),
                                 ((50, 2.5, 0), (73, 25, -18), 27.1492),
                                 ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387),
                                  1.2644)]:
        assert cvd.ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    # The standard red through Machado et al.'s matrices (colorspacious 1.1.2 gives the same)
    for vision, expected in [("protanopia", (0.37, 0.3347, 0.1729)),
                             ("deuteranopia", (0.5309, 0.4757, 0.1514)),
                             ("tritanopia", (0.899, 0.0, 0.1754))]:
        assert cvd.simulate("#d0282e", vision) == pytest.approx(expected, abs=1e-4)
