"""The Pack Solitaire board image: tiles, pair marks by condition, tray, score and best."""

from __future__ import annotations

import engine
import render
from tests.test_pack_solitaire import PERFECT_LAYOUT, PERFECT_TILES, deal_with

GAME = engine.get_game("pack-solitaire")


def test_marks_follow_the_conditions_and_the_tray_lists_the_rest():
    state = GAME.new_game(["p"], options={"tiles": deal_with(["523", "3n4", "2n4"])})
    for move in ("1@b2/0", "2@c2/0", "3@b1/0"):
        state = GAME.apply(state, "p", move)
    view = GAME.view(state)
    svg = render.render_svg(view, {"p": "Alice"})
    kinds = [p["condition"] for p in view["pairs"]]
    assert svg.count('class="mark-match"') == kinds.count(1)
    assert svg.count('class="mark-five"') == kinds.count(2)
    assert svg.count('class="mark-wild"') == kinds.count(3)
    assert svg.count('class="tile"') == 16   # three on the grid, thirteen in the tray
    assert 'data-cell="b2"' in svg and "Alice" in svg and f"Score {view['score']}" in svg
    assert render.render_png(view, width=400)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_finished_game_shows_the_best_score():
    state = GAME.new_game(["p"], options={"tiles": PERFECT_TILES})
    for tile, cell, turn in PERFECT_LAYOUT[:4]:
        state = GAME.apply(state, "p", f"{tile}@{cell}/{turn}")
    state = GAME.apply(state, "p", "done")
    view = dict(GAME.view(state), best=96)
    svg = render.render_svg(view)
    assert f"{view['score']} of a possible 96" in svg
