"""Relativity: every ruling as a small scenario, and the recorded PPN game replayed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import engine
from engine import GameError, IllegalAction, InvalidAction, Rng, freeze, thaw
from engine.relativity import (
    GAME, RULES, Relativity, Swap, coins_to_layout, deal, deal_once, is_misdeal, molecule,
)

ALICE, BOB = "alice", "bob"  # alice sits first: Space at Night, Time by Day
FIXTURE = Path(__file__).parent / "fixtures" / "relativity.ppn"

# Layouts are PPN coin strings, rows 4 down to 1, columns a-f.
# A real dealt board (the recorded game's) with no molecule on it.
REAL = "n45a5n/3a2243/3n4a2n/a25345"
# Each column one value (a: n, b: a, c: 2, d: 3, e: 4, f: 5) but row 1 reads a n 3 2 5 4: the
# pairs a1/b1, c1/d1 and e1/f1 are swapped, so every molecule is one swap away, two at a time.
PAIRS = "na2345/na2345/na2345/an3254"
# Columns again, row 1 reads 5 a 2 4 3 n: a and 2 are complete; d1#e1 completes 3 and 4;
# 5 and n are broken (f1 touches column a only across the wrap, which molecules ignore).
FIVE = "na2345/na2345/na2345/5a243n"


def start(night=REAL, day=REAL, seed=0):
    return GAME.new_game([ALICE, BOB], seed=seed, options={"layouts": [night, day]})


def play(state, *moves):
    """Apply each move (text) for whoever is to act."""
    for move in moves:
        (player,) = GAME.to_act(state)
        state = GAME.apply(state, player, GAME.parse_action(state, player, move))
    return state


def preset(state, night=None, day=None):
    """The state with some trophies already taken (white-box: states are plain data)."""
    s = thaw(state)
    for round_name, taken in (("night", night), ("day", day)):
        for value, player in (taken or {}).items():
            s["data"]["trophies"][round_name][value] = player
    return freeze(s)


def legal(state):
    (player,) = GAME.to_act(state)
    return {str(a) for a in GAME.legal_actions(state, player)}


def partners(state, cell):
    return {c for move in legal(state) if cell in move.split("#") for c in move.split("#") if c != cell}


def trophy_events(state):
    return [(e["player"], e["value"], e["round"]) for e in GAME.view(state)["log"] if e.get("event") == "trophy"]


def quadrants(coins: dict) -> list[list[str]]:
    return [[coins[f"{c}{r}"] for c in cols for r in rows]
            for cols in ("abc", "def") for rows in ((1, 2), (3, 4))]


# --------------------------------------------------------------------------- identity, options


def test_registered_under_its_name_with_rules():
    assert engine.get_game("relativity") is GAME
    assert isinstance(GAME, Relativity)
    assert (GAME.name, GAME.title) == ("relativity", "Relativity")
    assert GAME.rules == RULES and len(RULES) < 3500
    for ruling in ("wrap", "null-ace-2-3-4-5-null", "reverse", "misdeal", "five each", "set aside"):
        assert ruling in RULES


def test_layout_option_is_used_as_given_any_case():
    state = GAME.new_game([ALICE, BOB], seed=1, options={"layouts": [REAL.upper(), PAIRS]})
    view = GAME.view(state)
    assert view["layout"] == REAL
    assert view["coins"]["a4"] == "n" and view["coins"]["f1"] == "5" and view["coins"]["d4"] == "a"
    assert len(view["coins"]) == 24


@pytest.mark.parametrize("layouts, fragment", [
    (["n45a5n/3a2243/3n4a2n"], "4 rows"),
    (["n45a5n/3a2243/3n4a2n/a2534"], "4 rows"),
    (["n45a5n/3a2243/3n4a2n/a2534x"], "not a coin value"),
    (["n45a5n/3a2243/3n4a2n/a25344"], "four of each value"),
    ([REAL, REAL, REAL], "one or two"),
    ([], "one or two"),
    ([42], "string"),
])
def test_bad_layouts_are_refused(layouts, fragment):
    with pytest.raises(GameError, match=fragment):
        GAME.new_game([ALICE, BOB], seed=1, options={"layouts": layouts})


def test_unknown_option_and_wrong_seat_count_are_refused():
    with pytest.raises(GameError, match="layouts"):
        GAME.new_game([ALICE, BOB], seed=1, options={"layout": REAL})
    with pytest.raises(GameError, match="exactly 2"):
        GAME.new_game([ALICE], seed=1)


def test_missing_layouts_are_dealt_from_the_seed():
    night_only = GAME.new_game([ALICE, BOB], seed=5, options={"layouts": [REAL]})
    day_only = GAME.new_game([ALICE, BOB], seed=5, options={"layouts": [None, REAL]})
    dealt = GAME.new_game([ALICE, BOB], seed=5)
    assert GAME.view(night_only)["layout"] == REAL
    assert GAME.view(day_only)["layout"] == GAME.view(dealt)["layout"] == GAME.view(
        GAME.new_game([ALICE, BOB], seed=5))["layout"]
    assert GAME.view(dealt)["layout"] != GAME.view(GAME.new_game([ALICE, BOB], seed=6))["layout"]


# --------------------------------------------------------------------------- the deal


def test_every_deal_fills_quadrants_with_one_coin_of_each_value_and_no_misdeal():
    for seed in range(200):
        coins = GAME.view(GAME.new_game([ALICE, BOB], seed=seed))["coins"]
        for quadrant in quadrants(coins):
            assert sorted(quadrant) == sorted("na2345")
        assert len({coins[c] for c in ("c2", "d2", "c3", "d3")}) > 1


def test_a_misdeal_is_dealt_again():
    seed = next(s for s in range(5000) if is_misdeal(deal_once(Rng(s))))
    rng = Rng(seed)
    first = deal_once(rng)
    second = deal_once(rng)
    assert is_misdeal(first) and not is_misdeal(second)
    assert deal(Rng(seed)) == second
    coins = GAME.view(GAME.new_game([ALICE, BOB], seed=seed))["coins"]
    assert "".join(coins[c] for c in sorted(coins)) == second


def test_day_board_is_dealt_from_the_seed_and_hidden_until_day():
    def to_day(seed):
        state = GAME.new_game([ALICE, BOB], seed=seed, options={"layouts": [FIVE]})
        hidden = coins_to_layout(thaw(state)["data"]["boards"][1])
        for viewer in (None, ALICE, BOB):
            assert hidden not in json.dumps(GAME.view(state, viewer))
        state = play(preset(state, night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE}), "d1#e1")
        assert GAME.view(state)["round"] == "day"
        assert GAME.view(state)["layout"] == hidden
        return GAME.view(state)["coins"]

    day = to_day(11)
    assert to_day(11) == day and to_day(12) != day
    for quadrant in quadrants(day):
        assert sorted(quadrant) == sorted("na2345")


# --------------------------------------------------------------------------- Space


def test_space_moves_first_and_is_the_first_seat_at_night():
    view = GAME.view(start())
    assert view["round"] == "night"
    assert view["roles"] == {"space": ALICE, "time": BOB}
    assert view["turn"] == ALICE and GAME.to_act(start()) == (ALICE,)
    assert "Space" in GAME.prompt(start(), ALICE).text and GAME.prompt(start(), BOB) is None


@pytest.mark.parametrize("cell, expected", [
    ("a1", {"a2", "b1", "b2", "f1", "f2", "a4", "b4", "f4"}),
    ("f4", {"e4", "e3", "f3", "a4", "a3", "e1", "f1", "a1"}),
    ("a4", {"a3", "b4", "b3", "f4", "f3", "a1", "b1", "f1"}),
    ("f1", {"e1", "e2", "f2", "a1", "a2", "e4", "f4", "a4"}),
    ("c3", {"b2", "b3", "b4", "c2", "c4", "d2", "d3", "d4"}),
])
def test_space_swaps_with_the_8_neighbours_of_the_wrapped_board(cell, expected):
    assert partners(start(), cell) == expected


def test_space_may_swap_the_opposite_corners_but_not_a_distant_coin():
    state = play(start(), "a1#f4")
    assert GAME.view(state)["coins"]["a1"] == "n" and GAME.view(state)["coins"]["f4"] == "a"
    with pytest.raises(IllegalAction, match="8 neighbours"):
        GAME.apply(start(), ALICE, GAME.parse_action(start(), ALICE, "a1#c1"))


def test_space_may_swap_a_neighbour_of_the_same_value():
    # In REAL, a4 and f4 are both nulls, and neighbours across the wrap.
    before = start()
    assert GAME.view(before)["coins"]["a4"] == GAME.view(before)["coins"]["f4"] == "n"
    after = play(before, "a4#f4")
    assert GAME.view(after)["coins"] == GAME.view(before)["coins"]
    assert GAME.view(after)["last_swap"] == ["a4", "f4"] and GAME.to_act(after) == (BOB,)
    assert GAME.view(after)["last_swap_role"] == "space" and GAME.view(before)["last_swap_role"] is None


# --------------------------------------------------------------------------- Time


def test_time_swaps_values_next_in_the_cycle_anywhere():
    state = play(start(), "a4#f4")  # Space passes the turn with a same-value swap
    coins = GAME.view(state)["coins"]
    assert (coins["a4"], coins["f1"]) == ("n", "5")
    assert "a4#f1" in legal(state)         # null and 5 are next to each other (the cycle wraps)
    assert (coins["b3"], coins["a4"]) == ("a", "n") and "a4#b3" in legal(state)
    assert (coins["b1"], coins["f1"]) == ("2", "5") and "b1#f1" not in legal(state)
    with pytest.raises(IllegalAction, match="null-ace-2-3-4-5-null"):
        GAME.apply(state, BOB, GAME.parse_action(state, BOB, "b1#f1"))
    with pytest.raises(IllegalAction, match="null-ace-2-3-4-5-null"):  # the same value is not next
        GAME.apply(state, BOB, GAME.parse_action(state, BOB, "c1#f1"))
    after = play(state, "f1#a4")
    assert (GAME.view(after)["coins"]["a4"], GAME.view(after)["coins"]["f1"]) == ("5", "n")


def test_every_coin_has_exactly_8_partners_in_either_role():
    space = start()
    assert len(legal(space)) == 96
    time = play(space, "a4#f4")  # same values: Time cannot swap them, so nothing is banned
    assert len(legal(time)) == 96
    for state in (space, time):
        for cell in GAME.view(state)["coins"]:
            assert len(partners(state, cell)) == 8


def test_each_role_swaps_by_its_own_power_by_day():
    state = play(preset(start(night=FIVE, day=REAL), night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE}),
                 "d1#e1")
    view = GAME.view(state)
    assert view["round"] == "day" and view["roles"] == {"space": BOB, "time": ALICE}
    assert partners(state, "a1") == {"a2", "b1", "b2", "f1", "f2", "a4", "b4", "f4"}
    assert "Space" in GAME.prompt(state, BOB).text
    state = play(state, "a4#f4")
    assert "Time" in GAME.prompt(state, ALICE).text
    assert "a4#f1" in legal(state) and "b1#c1" not in legal(state)  # n-5 yes; 2-5 no


# --------------------------------------------------------------------------- no reverse


def test_the_opponents_last_swap_may_not_be_reversed_on_the_next_move():
    state = play(start(), "c3#b3")           # alice (Space): a 2 and an ace, which Time could swap
    assert "b3#c3" not in legal(state)
    for text in ("b3#c3", "c3#b3", "C3-B3"):
        with pytest.raises(IllegalAction, match="reverse the swap your opponent just made"):
            GAME.apply(state, BOB, GAME.parse_action(state, BOB, text))
    state = play(state, "a3#b3")             # bob (Time): 3 and 2, neighbours too
    assert "a3#b3" not in legal(state)       # alice may not undo bob's swap ...
    assert "b3#c3" in legal(state)           # ... but may repeat her own
    state = play(state, "a2#b2")
    assert "a3#b3" in legal(state)           # bob's own earlier swap is free again


def test_no_reverse_does_not_carry_into_day():
    state = preset(start(night=FIVE, day=REAL), night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE})
    state = play(state, "d1#e1")             # alice's swap ends the Night
    view = GAME.view(state)
    assert view["round"] == "day" and view["turn"] == BOB and view["last_swap"] is None
    assert "d1#e1" in legal(state)
    play(state, "e1#d1")


# --------------------------------------------------------------------------- molecules


def board(rows: str) -> str:
    """Test-side conversion of a PPN coin string to the engine's cell order (a1 a2 a3 a4 b1 ...)."""
    grid = rows.split("/")
    return "".join(grid[4 - r][c] for c in range(6) for r in range(1, 5))


def test_molecules_are_orthogonal_and_never_wrap():
    # Four nulls: each shape below must count or not as stated.
    cases = {
        "nnnn23/aa2345/aa3345/234555": True,   # I tetromino along row 4 (padding irrelevant)
        "nn2345/nn2345/aa3345/aa2345": True,   # O tetromino
        "n23345/nn2345/n2a345/aa3445": True,   # T tetromino
        "n23345/nn2345/2n3345/aa3445": True,   # S tetromino
        "n23345/n23345/nn3345/aa2a45": True,   # L tetromino
        "n23345/2n3345/n23345/2n3445": False,  # diagonal steps do not join
        "n2345n/n2345n/a23345/a2345a": False,  # joined only across the left/right wrap
        "nn3345/a23345/a23345/nn345a": False,  # joined only across the top/bottom wrap
    }
    for rows, expected in cases.items():
        coins = board(rows)
        assert coins.count("n") == 4, rows
        assert (molecule(coins, "n") is not None) is expected, rows


def test_a_molecule_across_the_wrap_wins_nothing():
    # FIVE's nulls are a2-a4 and f1; its 5s are f2-f4 and a1. Columns a and 2 are complete
    # already, so their trophies are marked taken to keep them out of the way.
    state = preset(start(night=FIVE), night={"a": BOB, "2": BOB})
    wrapped = play(state, "f1#f2")  # the null goes to f2: nulls a2-a4 + f2, joined only by the wrap
    assert GAME.view(wrapped)["coins"]["f2"] == "n"
    assert trophy_events(wrapped) == []
    real = play(state, "a1#f1")     # the null goes to a1: a1-a4 is a molecule, and so is f1-f4
    assert trophy_events(real) == [(ALICE, "n", "night"), (ALICE, "5", "night")]


def test_two_molecules_in_one_swap_take_both_trophies():
    state = play(start(night=PAIRS), "a1#b1")
    view = GAME.view(state)
    assert view["trophies"]["night"] == {"n": ALICE, "a": ALICE, "2": None, "3": None, "4": None, "5": None}
    assert view["trophy_counts"] == {ALICE: 2, BOB: 0} == GAME.scores(state)
    assert {(m["value"], m["player"], m["round"]) for m in view["molecules"]} == {
        ("n", ALICE, "night"), ("a", ALICE, "night")}
    cells = {m["value"]: sorted(m["cells"]) for m in view["molecules"]}
    assert cells == {"n": ["a1", "a2", "a3", "a4"], "a": ["b1", "b2", "b3", "b4"]}


def test_a_claimed_value_scores_nothing_more_that_round():
    state = play(start(night=PAIRS), "a1#b1", "c1#d1")   # alice n+a, bob 2+3
    assert GAME.scores(state) == {ALICE: 2, BOB: 2}
    state = play(state, "a2#a3", "a1#b1")               # alice passes; bob breaks n and a again
    state = play(state, "b1#b2")                        # alice remakes the nulls: b2 + a2-a4
    assert GAME.scores(state) == {ALICE: 2, BOB: 2}
    assert len(trophy_events(state)) == 4


# --------------------------------------------------------------------------- rounds and the end


def test_night_ends_at_five_moon_trophies_and_the_sixth_is_set_aside():
    state = preset(start(night=FIVE, day=REAL), night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE})
    assert GAME.view(state)["round"] == "night"
    state = play(state, "d1#e1")  # completes 3 (claimed) and 4: alice takes the 4 of Moons
    view = GAME.view(state)
    assert view["trophies"]["night"] == {"n": BOB, "a": BOB, "2": ALICE, "3": ALICE, "4": ALICE, "5": None}
    assert view["set_aside"] == {"night": ["5"], "day": []}
    assert view["round"] == "day"
    assert view["roles"] == {"space": BOB, "time": ALICE}
    assert view["turn"] == BOB                    # Space moves first again
    assert view["layout"] == REAL                 # the board is re-dealt: the Day layout
    assert view["trophy_counts"] == {ALICE: 3, BOB: 2}
    assert GAME.outcome(state) is None
    assert any(e.get("event") == "round" for e in view["log"])


def test_night_also_ends_when_a_double_takes_the_sixth_moon():
    state = play(start(night=PAIRS, day=REAL), "a1#b1", "c1#d1")
    assert GAME.view(state)["round"] == "night"    # four won so far
    state = play(state, "e1#f1")                   # alice takes 4 and 5 at once
    view = GAME.view(state)
    assert view["round"] == "day" and view["set_aside"]["night"] == []
    assert view["trophy_counts"] == {ALICE: 4, BOB: 2}
    assert GAME.outcome(state) is None


def test_the_game_ends_as_soon_as_a_player_holds_six():
    state = play(start(night=PAIRS, day=PAIRS), "a1#b1", "c1#d1", "e1#f1")  # alice 4, bob 2
    state = play(state, "a2#a3")                   # bob (Day Space) passes
    state = play(state, "a1#b1")                   # alice (Day Time) takes n and a: 6 trophies
    outcome = GAME.outcome(state)
    assert outcome.winners == (ALICE,) and "6 trophies" in outcome.reason
    assert GAME.to_act(state) == () and GAME.view(state)["turn"] is None
    assert sum(p is not None for p in GAME.view(state)["trophies"]["day"].values()) == 2
    assert GAME.view(state)["set_aside"] == {"night": [], "day": []}  # nothing was set aside
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, BOB, GAME.parse_action(state, BOB, "c1#d1"))


def test_five_sun_trophies_end_the_game_and_five_each_goes_to_nights_space():
    state = preset(start(night=FIVE, day=FIVE), night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE})
    state = play(state, "d1#e1")                   # Night over: alice 3, bob 2
    # Day: FIVE again, with n, a, 2, 3 of Suns already taken (alice 5, bob 4).
    state = preset(state, day={"n": ALICE, "a": ALICE, "2": BOB, "3": BOB})
    assert GAME.scores(state) == {ALICE: 5, BOB: 4} and GAME.outcome(state) is None
    state = play(state, "d1#e1")                   # bob (Day Space) takes the 4 of Suns
    assert GAME.scores(state) == {ALICE: 5, BOB: 5}
    outcome = GAME.outcome(state)
    assert outcome.winners == (ALICE,) and "Night" in outcome.reason
    assert GAME.view(state)["set_aside"]["day"] == ["5"]


def test_four_sun_trophies_do_not_end_the_game():
    state = preset(start(night=FIVE, day=FIVE), night={"n": BOB, "a": BOB, "2": ALICE, "3": ALICE})
    state = play(state, "d1#e1")
    # a and 2 are complete on FIVE and 3 is completed with the 4: mark those three taken.
    state = preset(state, day={"a": ALICE, "2": BOB, "3": BOB})
    state = play(state, "d1#e1")                   # bob: 4 of Suns; 4 Sun trophies won
    assert GAME.scores(state) == {ALICE: 4, BOB: 5}
    assert GAME.outcome(state) is None and GAME.to_act(state) == (ALICE,)


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize("text", ["d3#e3", "e3#d3", "D3#E3", "d3-e3", "d3 e3", "  E3 D3 ", "e3-D3", "d3\u2013e3"])
def test_notation_variants_name_the_same_swap(text):
    action = GAME.parse_action(start(), ALICE, text)
    assert action == Swap("d3", "e3") == Swap("e3", "d3")
    assert hash(action) == hash(Swap("e3", "d3"))
    assert str(action) == "d3#e3"


def test_canonical_notation_of_legal_moves_parses_back():
    for action in GAME.legal_actions(start(), ALICE):
        assert GAME.parse_action(start(), ALICE, str(action)) == action
        first, second = str(action).split("#")
        assert first < second


@pytest.mark.parametrize("text", ["d3", "hello", "d3#", "#e3", "d3#e3#f3", "g1#a1", "a5#a4", "a0-a1"])
def test_unreadable_swaps_are_invalid(text):
    with pytest.raises(InvalidAction):
        GAME.parse_action(start(), ALICE, text)


def test_a_swap_needs_two_cells():
    state = start()
    with pytest.raises(IllegalAction, match="two different"):
        GAME.apply(state, ALICE, GAME.parse_action(state, ALICE, "d3#d3"))


def test_last_swap_is_reported_with_its_cells_sorted_and_logged_with_role():
    # (sorted whichever way it was typed: equal swaps give equal states, so a replay of the
    # stored, canonical moves draws the boards that were seen)
    state = play(start(), "e3#d3")
    assert state == play(start(), "d3#e3")
    view = GAME.view(state)
    assert view["last_swap"] == ["d3", "e3"]
    swap = [e for e in view["log"] if e.get("event") == "swap"]
    assert swap[-1]["player"] == ALICE and swap[-1]["role"] == "space"


def test_view_keys():
    view = GAME.view(start(), None)
    for key in ("round", "roles", "turn", "coins", "layout", "last_swap", "trophies",
                "trophy_counts", "molecules"):
        assert key in view
    assert set(view["trophies"]) == {"night", "day"}
    assert set(view["trophies"]["day"]) == {"n", "a", "2", "3", "4", "5"}
    json.dumps(view)
    assert GAME.view(start(), ALICE)["coins"] == view["coins"]  # nothing hidden on the board


# --------------------------------------------------------------------------- the recorded game


def read_ppn(path: Path):
    """(night layout, [(number, 'S'|'T', swap text, [trophy values])]) from a PPN record."""
    text = path.read_text()
    layout = re.search(r'Coins:\s*"([^"]+)"', text)[1]
    body = re.sub(r"\{[^}]*\}", " ", text.split("\n...", 1)[1])  # drop the header and notes
    moves = []
    for number, side, token in re.findall(r"(\d+)([ST])\.\s+(\S+)", body):
        swap, *notes = token.split(";")
        trophies = [re.fullmatch(r"M([na2-5])@\w+", note)[1] for note in notes]
        moves.append((int(number), side, swap, trophies))
    return layout, moves


def test_the_recorded_night_round_replays_with_its_trophies():
    layout, moves = read_ppn(FIXTURE)
    assert len(moves) == 24
    state = GAME.new_game([ALICE, BOB], seed=0, options={"layouts": [layout]})
    mover = {"S": ALICE, "T": BOB}  # alice is Night's Space
    for number, side, text, recorded in moves:
        assert GAME.view(state)["round"] == "night", f"Night ended early, before {number}{side}"
        assert GAME.to_act(state) == (mover[side],)
        action = GAME.parse_action(state, mover[side], text)
        assert action in GAME.legal_actions(state, mover[side]), f"{number}{side}. {text}"
        before = len(trophy_events(state))
        state = GAME.apply(state, mover[side], action)
        won = trophy_events(state)[before:]
        assert won == [(mover[side], v, "night") for v in recorded], f"{number}{side}. {text}"
    view = GAME.view(state)
    assert view["round"] == "day"  # Night ended right after 12T
    assert view["trophies"]["night"] == {"2": BOB, "3": BOB, "5": ALICE, "n": ALICE, "a": BOB, "4": None}
    assert view["trophy_counts"] == {ALICE: 2, BOB: 3}
    assert view["set_aside"]["night"] == ["4"]
    assert len(trophy_events(state)) == 5


# --------------------------------------------------------------------------- texts


def test_the_swap_line_names_the_cells_and_their_values_before_the_swap():
    state = play(start(), "e3#d3")
    assert [e["text"] for e in GAME.view(state)["log"]] == [
        "alice (Space) swapped d3 (2) and e3 (4)."]   # (cells sorted, as recorded)


def test_refusals_name_null_and_ace_in_words():
    state = play(start(), "e3#d3")                  # bob is Time; a1 is an ace, a2 a 3
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, BOB, GAME.parse_action(state, BOB, "a1#a2"))
    assert str(refused.value).startswith("a1 shows ace and a2 shows 3.")
    assert "null-ace-2-3-4-5-null" in GAME.prompt(state, BOB).text


def test_rules_lines_are_not_hard_wrapped():
    # Discord keeps line breaks: each heading, paragraph or bullet is one line.
    for line in RULES.splitlines():
        assert not line or line.startswith("# ") or line.rstrip()[-1] in ".:)*", line
