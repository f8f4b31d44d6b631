"""Words for the ear (issue 23): every board's alt text fits Discord's 1,024 characters, every
description says each piece at its cell as the view has it, in words a screen reader reads
(no signs it would spell out), and nothing in them comes from outside the viewer's view.

States are met along seeded random games of every game (tests.test_told_from_view)."""

from __future__ import annotations

import re

import pytest

import engine
from render.describe import ALT_LIMIT, alt_text, describe, hand_words
from tests.test_told_from_view import NAMES, reachable_states

STATES = 25
# Names that push the limits: long, markdown, a mention, emoji.
LONG_NAMES = {"p0": "A" * 80, "p1": "**bold** _it_ <@123> `code`", "p2": "🎲" * 40,
              "p3": "Dee with a rather long display name indeed"}
SPOKEN = re.compile(r"[\w\s,.;:'()!?&-]*")   # what a screen reader reads as words


def views_of(game, state):
    """Every view of the state: each player's own and the onlookers'."""
    return [game.view(state, p) for p in state["players"]] + [game.view(state, None)]


@pytest.mark.parametrize("name", engine.game_names())
def test_alt_text_fits_discords_limit_and_says_the_game_and_the_turn(name):
    game = engine.get_game(name)
    for state in reachable_states(game, 7, STATES):
        for view in views_of(game, state):
            for names in (NAMES, LONG_NAMES):
                alt = alt_text(view, names)
                assert 0 < len(alt) <= ALT_LIMIT, (name, len(alt))
                assert alt.startswith(game.title.split(",")[0]), alt
                assert "**" not in alt and "<@" not in alt   # names said as words
            alt = alt_text(view, NAMES)
            for p in view["awaited"]:
                if name != "byop1" or p in view.get("solving", ()):
                    assert NAMES[p] in alt, (name, alt)


@pytest.mark.parametrize("name", engine.game_names())
def test_descriptions_are_words_a_screen_reader_reads(name):
    game = engine.get_game(name)
    for state in reachable_states(game, 11, STATES):
        for view in views_of(game, state):
            for text in (describe(view, NAMES), alt_text(view, NAMES)):
                odd = set("".join(SPOKEN.split(text)))
                assert not odd, (name, odd, text)


@pytest.mark.parametrize("name", engine.game_names())
def test_twins_that_differ_only_in_a_secret_are_described_alike(name):
    """The same view, whatever the hidden parts (others' choices, face-down pieces, coins):
    the same words, to each player and to onlookers."""
    game = engine.get_game(name)
    for n, state in enumerate(reachable_states(game, 13, STATES)):
        for viewer in [*state["players"], None]:
            twin = game.resample_hidden(state, viewer, seed=n)
            here, there = game.view(state, viewer), game.view(twin, viewer)
            assert describe(here, NAMES) == describe(there, NAMES)
            assert alt_text(here, NAMES) == alt_text(there, NAMES)


def test_an_onlooker_hears_no_hand_and_no_chosen_card():
    game = engine.get_game("galaxies")
    for state in reachable_states(game, 17, STATES):
        public = describe(game.view(state, None), NAMES)
        assert "Your hand" not in public and "You chose" not in public
        for p in state["players"]:
            own = describe(game.view(state, p), NAMES)
            hand = hand_words(game.view(state, p)["hand"])
            assert f"Your hand (only you see it): {hand}." in own


# ---- each description read back against its position ---------------------------------------

VALUE = {"null": "n", "ace": "a", "2": "2", "3": "3", "4": "4", "5": "5"}
SUIT = {"suns": "suns", "moons": "moons", "crowns": "crowns", "arms": "arms"}


def test_relativity_every_coin_at_its_cell():
    game = engine.get_game("relativity")
    for state in reachable_states(game, 3, STATES):
        view = game.view(state, None)
        text = describe(view, NAMES)
        rows = [line for line in text.splitlines() if re.match(r"Row [1-4]: ", line)]
        assert [r[4] for r in rows] == list("4321")   # reading order: top row first
        said = dict(re.findall(r"\b([a-f][1-4]): (null|ace|[2-5])\b", " ".join(rows)))
        assert {cell: VALUE[v] for cell, v in said.items()} == view["coins"]
        assert len(said) == 24


def test_global_warming_every_tile_pawn_sunk_tile_and_shown_coin():
    game = engine.get_game("global-warming")
    for state in reachable_states(game, 5, STATES):
        view = game.view(state, None)
        text = describe(view, NAMES)
        said = {}
        for x, y, what in re.findall(r"(-?\d+),(-?\d+): (water|[^;.]+)", "\n".join(
                line for line in text.splitlines() if line.startswith("Row "))):
            said[(int(x), int(y))] = what
        for tile in view["island"]:
            what = said.pop((tile["x"], tile["y"]))
            value, suit = re.match(r"(\w+) of (\w+)", what).groups()
            assert (VALUE[value], suit) == (tile["value"], tile["suit"])
            pawn = next((p for p, pos in view["pawns"].items()
                         if pos and (pos["x"], pos["y"]) == (tile["x"], tile["y"])), None)
            assert (f"with {NAMES[pawn]}'s {view['colours'][pawn]} pawn" in what) if pawn \
                else "pawn" not in what
        assert set(said.values()) <= {"water"}   # every other cell of the rows is water
        for tile in view["sunk"]:
            assert f"{ {v: k for k, v in VALUE.items()}[tile['value']]} of {tile['suit']}" in \
                text.split("Sunk, in order: ")[1].split("\n")[0]
        for coin in view["coin_line"]:
            shown = coin["suit"] if coin["side"] == "suit" else \
                {v: k for k, v in VALUE.items()}[coin["value"]]
            assert f"{shown} up, its {'number' if coin['side'] == 'suit' else 'suit'} hidden" in text


def test_galaxies_holes_stacks_path_and_hand():
    game = engine.get_game("galaxies")
    for state in reachable_states(game, 9, STATES):
        for viewer in state["players"]:
            view = game.view(state, viewer)
            text = describe(view, NAMES)
            for p, hole in view["holes"].items():
                assert f"{NAMES[p]} ({view['colours'][p]}): black hole at {hole['x']},{hole['y']}," in text
            said = re.findall(r"(-?\d+),(-?\d+): (\d+) systems?", text)
            assert sorted((int(x), int(y), int(n)) for x, y, n in said) == \
                sorted((s["x"], s["y"], s["count"]) for s in view["stacks"])
            path = [c for c in view["path"]]
            for c in path:
                assert f"{c['x']},{c['y']}" in text.split("Face-down path cards: ")[1].split("\n")[0]


def test_byop1_the_players_own_board_and_goal():
    game = engine.get_game("byop1")
    for state in reachable_states(game, 21, STATES):
        for viewer in state["players"]:
            view = game.view(state, viewer)
            text = describe(view, NAMES)
            board = view["board"]
            if board is None:
                continue
            own = text.split("Your board")[1].splitlines()[1:6]
            tiles = []
            for r, line in enumerate(own):
                assert line.startswith(f"Row {r + 1}: ")
                for cell in line[7:].rstrip(".").split(", "):
                    cell = cell.replace(" (in place)", "")
                    if cell == "the hole":
                        tiles.append(".")
                    else:
                        value, suit = cell.split(" of ")
                        tiles.append(VALUE[value] + {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}[suit])
            assert tiles == board["tiles"]
            rows = ", ".join(f"row {i + 1} {dict(S='suns', M='moons', C='crowns', A='arms')[s]}"
                             for i, s in enumerate(view["targets"]["rows"]))
            assert f"Goal: {rows}," in text


def test_pack_solitaire_every_placed_tile_and_the_tray():
    game = engine.get_game("pack-solitaire")
    for state in reachable_states(game, 23, STATES):
        view = game.view(state, None)
        text = describe(view, NAMES)
        said = re.findall(r"\b([a-d][1-4]) tile (\d+) turn (\d): upper left (\w+), upper right (\w+), "
                          r"lower right (\w+), lower left (\w+)", text)
        got = {cell: (int(t), int(o), [VALUE.get(v, "") for v in squares])
               for cell, t, o, *squares in said}
        assert got == {cell: (p["tile"], p["orientation"], p["squares"])
                       for cell, p in view["placed"].items()}
        for cell in "abcd":
            for row in "1234":
                if f"{cell}{row}" not in view["placed"]:
                    assert f"{cell}{row} empty" in text
        tray = [int(t) for t in re.findall(r"tile (\d+): upper left", text)]
        assert tray == view["tray"]
