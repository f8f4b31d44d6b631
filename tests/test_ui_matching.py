"""The /move suggestions' matching, shared by the games: what is typed is how the move begins,
word by word in its order, separators aside, a minus sign kept on its number."""

from __future__ import annotations

import pytest

from bot import ui
from bot.ui import fits_notation


@pytest.mark.parametrize("action, typed, fits", [
    ("2@b2/1", "", True),
    ("2@b2/1", "2", True),
    ("12@b2/1", "2", False),     # tile 12 is not tile 2
    ("1@a1/2", "2@", False),     # a 2 later on is no tile 2
    ("2@b2/1", "2@B", True),
    ("2@b2/1", "2@b2/", True),
    ("2@b2/1", "2 b2 1", True),
    ("2@b2/1", "2@b2/1 ", True),
    ("3,-1", "3,-", True),       # the minus sign begins a number
    ("3,0", "3,-", False),
    ("13,0", "3,-", False),
    ("-1,2", "-", True),
    ("d3#e3", "d3-e", True),     # after a letter or digit a dash separates
    ("red up, blue left", "red up, bl", True),
    ("done", "d", True),
])
def test_what_is_typed_begins_the_move(action, typed, fits):
    assert fits_notation(action, typed) is fits


def test_relativity_swaps_fit_in_either_order():
    rel = ui.adapter_for("relativity")
    assert rel.matches("a1#b1", "b1 a") and rel.matches("a1#b1", "a1#")
    assert not rel.matches("a1#b1", "c1")
