"""BYOP1: every ruling of RULINGS.md as a scenario with fixed deals, the notation, the views,
and the proof that every deal can be solved."""

from __future__ import annotations

import itertools
import re

import pytest

import engine
from engine import GameError, IllegalAction, InvalidAction, NotYourTurn, Rng
from engine.byop1 import (
    ALL_TILES,
    Done,
    Slides,
    format_deal,
    is_correct,
    parse_deal,
    permutation_parity,
    random_deal,
    round_points,
    slide,
    solve,
)

GAME = engine.get_game("byop1")
ROWS, COLUMNS = "MSAC", "24a53"


def solved(rows=ROWS, columns=COLUMNS) -> list[str]:
    """The correct board with the nulls in suit order and the hole at the bottom right."""
    top = [v + s for s in rows for v in columns]
    return top + ["nS", "nM", "nC", "nA", "."]


def deal_after(moves: str, rows=ROWS, columns=COLUMNS) -> str:
    """The deal reached from the solved board by `moves` (which bring the hole back to the
    bottom right corner); undoing them solves it."""
    board = solved(rows, columns)
    for m in moves:
        board = slide(board, m)
    assert board[24] == "."
    return f"{rows}/{columns}/{' '.join(board[:24])}"


# A 3-cycle in the bottom-right 2x2: the board is not correct; "RDLU" solves it.
CYCLE = deal_after("DRUL")
FIX = "RDLU"
# Two other deals for later rounds (other targets, the same idea).
CYCLE2 = deal_after("DRUL", "SMCA", "a2345")
CYCLE3 = deal_after("DRUL", "CASM", "5432a")


def new(players, **options):
    options.setdefault("deals", [CYCLE, CYCLE2, CYCLE3, CYCLE, CYCLE2])
    return GAME.new_game(players, seed=1, options=options)


def play(state, *moves):
    """Apply (player, text) pairs in order."""
    for player, text in moves:
        state = GAME.apply(state, player, text)
    return state


def last_round(state) -> dict:
    return GAME.view(state, None)["history"][-1]


# --------------------------------------------------------------------------- notation


def test_deal_string_round_trips_and_the_board_starts_as_dealt():
    state = new(["alba", "bea"])
    view = GAME.view(state, "alba")
    assert view["targets"] == {"rows": ROWS, "columns": COLUMNS}
    deal = parse_deal(CYCLE)
    assert format_deal(deal) == CYCLE
    assert view["board"]["tiles"] == deal["tiles"] and view["board"]["tiles"][24] == "."
    assert not view["board"]["correct"]
    assert GAME.view(state, "bea")["board"]["tiles"] == deal["tiles"]  # identical copies


def test_legal_actions_are_single_slides_and_done():
    state = new(["alba", "bea"])
    # Hole at the bottom right: the tile above can move down, the tile to its left right.
    assert [str(a) for a in GAME.legal_actions(state, "alba")] == ["D", "R", "done"]
    state = play(state, ("alba", "DD"))
    assert [str(a) for a in GAME.legal_actions(state, "alba")] == ["U", "D", "R", "done"]
    for action in GAME.legal_actions(state, "alba"):
        assert GAME.parse_action(state, "alba", str(action)) == action


@pytest.mark.parametrize("text, action", [
    ("UULDR", Slides("UULDR")), ("uu l d r", Slides("UULDR")), ("u", Slides("U")),
    ("done", Done()), ("Done!", Done()), ("DONE", Done()), ("↑←", Slides("UL")),
])
def test_parse_action_reads_slide_strings_and_done(text, action):
    assert GAME.parse_action(new(["alba"]), "alba", text) == action


@pytest.mark.parametrize("text", ["x", "UUX", "up up", "2M", "done now"])
def test_unreadable_text_is_refused(text):
    with pytest.raises(InvalidAction):
        GAME.parse_action(new(["alba"]), "alba", text)


def test_a_slide_string_is_all_or_nothing():
    state = new(["alba", "bea"])
    state2 = play(state, ("alba", "DDDD"))   # the hole is now in the top row
    with pytest.raises(IllegalAction, match=r"Slide 2 of 2 \(D\).*top row.*Nothing was moved"):
        GAME.apply(state2, "alba", "RD")
    assert GAME.view(state2, "alba")["board"]["slides"] == 4


def test_a_string_of_slides_counts_each_slide():
    state = play(new(["alba", "bea"]), ("alba", "DRU"), ("alba", "L"))
    board = GAME.view(state, "alba")["board"]
    assert board["slides"] == 4 and board["tiles"][24] == "."
    assert board["tiles"] != parse_deal(CYCLE)["tiles"]   # a 3-cycle applied once more
    assert GAME.view(state, "bea")["board"]["slides"] == 0


def test_deals_option_is_secret_and_checked():
    assert GAME.secret_options == frozenset({"deals"})
    for bad in ["MSAC/24a53", "MSAM/24a53/" + " ".join(ALL_TILES),
                "MSAC/24a55/" + " ".join(ALL_TILES), "MSAC/24a53/" + " ".join(ALL_TILES[:23]),
                "MSAC/24a53/" + " ".join(ALL_TILES[:23] + ("XX",))]:
        with pytest.raises(GameError):
            GAME.new_game(["alba"], options={"deals": [bad]})
    with pytest.raises(GameError):
        GAME.new_game(["alba"], options={"ranking": "fastest"})
    with pytest.raises(GameError):
        GAME.new_game(["alba"], options={"rounds": "many"})
    with pytest.raises(GameError):
        GAME.new_game(["alba"], options={"colour": "red"})


def test_seats_one_to_at_least_eight():
    assert GAME.min_players == 1 and GAME.max_players >= 8
    GAME.new_game([f"p{i}" for i in range(8)], seed=3)


# --------------------------------------------------------------------------- the round


def test_a_correct_done_scores_one_point_per_player_beaten_and_ends_a_two_player_race():
    state = play(new(["alba", "bea"]), ("alba", FIX))
    assert GAME.view(state, "alba")["board"]["correct"]
    assert GAME.to_act(state) == ("alba", "bea")   # no autodone: still solving until Done
    state = play(state, ("alba", "done"))
    result = last_round(state)["results"]
    assert result["alba"]["status"] == "correct" and result["alba"]["points"] == 1
    assert result["bea"]["status"] == "unfinished" and result["bea"]["points"] == 0
    assert GAME.scores(state) == {"alba": 1, "bea": 0}
    view = GAME.view(state, "bea")
    assert view["round"] == 2 and view["targets"]["rows"] == "SMCA"
    assert GAME.to_act(state) == ("alba", "bea")


def test_a_fumble_scores_zero_and_is_out_and_the_others_get_a_point_for_it():
    state = play(new(["alba", "bea", "cleo"]), ("alba", "done"))
    assert GAME.to_act(state) == ("bea", "cleo")
    assert "fumble" in state["log"][-1]["text"]
    with pytest.raises(NotYourTurn):
        GAME.apply(state, "alba", "D")
    state = play(state, ("bea", FIX), ("bea", "done"))
    # cleo is left alone: the race is over. m = 2 (bea, cleo), f = 1.
    result = last_round(state)["results"]
    assert {p: r["points"] for p, r in result.items()} == {"alba": 0, "bea": 2, "cleo": 1}
    assert [result[p]["rank"] for p in ("alba", "bea", "cleo")] == [None, 1, 2]


def test_rule_nine_every_non_fumbler_gets_a_point_per_fumbler():
    players = ["a", "b", "c", "d", "e"]
    state = play(new(players), ("b", "done"), ("a", FIX), ("a", "done"), ("d", "R"),
                 ("d", "done"), ("c", FIX), ("c", "done"))
    # Fumblers b and d; a first, c second, e left solving: m = 3, f = 2.
    points = {p: r["points"] for p, r in last_round(state)["results"].items()}
    assert points == {"a": 2 + 2, "b": 0, "c": 1 + 2, "d": 0, "e": 0 + 2}


def test_race_ends_when_one_player_is_left_solving():
    players = ["a", "b", "c", "d"]
    state = new(players)
    state = play(state, ("a", FIX), ("a", "done"))
    assert GAME.to_act(state) == ("b", "c", "d") and GAME.view(state, None)["round"] == 1
    state = play(state, ("c", "done"))
    assert GAME.to_act(state) == ("b", "d") and GAME.view(state, None)["round"] == 1
    state = play(state, ("d", FIX), ("d", "done"))
    assert GAME.view(state, None)["round"] == 2 and GAME.to_act(state) == tuple(players)
    result = last_round(state)["results"]
    assert result["b"]["status"] == "unfinished" and result["b"]["rank"] == 3
    assert {p: r["points"] for p, r in result.items()} == {"a": 3, "b": 1, "c": 0, "d": 2}


def test_slides_ranking_fewest_slides_then_earlier_call_and_waits_for_every_board():
    state = new(["a", "b", "c"], ranking="slides")
    state = play(state, ("a", "DU" + FIX), ("a", "done"),      # 6 slides, first call
                 ("b", FIX), ("b", "done"),                     # 4 slides, second call
                 ("c", FIX))
    assert GAME.to_act(state) == ("c",)                         # not over with one left
    state = play(state, ("c", "done"))                          # 4 slides, third call
    result = last_round(state)["results"]
    assert [result[p]["rank"] for p in ("a", "b", "c")] == [3, 1, 2]
    assert {p: r["points"] for p, r in result.items()} == {"a": 0, "b": 2, "c": 1}


def test_autodone_calls_done_the_moment_the_board_is_correct():
    state = new(["a", "b", "c"], autodone=True)
    state = play(state, ("a", FIX + "UD"))     # correct after 4 slides: the rest is not made
    view = GAME.view(state, "a")
    assert GAME.to_act(state) == ("b", "c")
    assert view["finished"] == [{"player": "a", "status": "correct", "call": 1}]
    state = play(state, ("b", "R"), ("b", "L"), ("b", "D"))   # back and forth: not correct yet
    assert "b" in GAME.to_act(state)
    state = play(state, ("b", "U"), ("b", FIX))
    assert last_round(state)["results"]["b"]["status"] == "correct"
    assert last_round(state)["results"]["b"]["slides"] == 8


def test_autodone_option_reads_words():
    assert GAME.view(new(["a"], autodone="on"), None)["autodone"] is True
    assert GAME.view(new(["a"], autodone="off"), None)["autodone"] is False
    with pytest.raises(GameError):
        new(["a"], autodone="maybe")


def test_a_round_deadline_ends_the_round_with_unfinished_boards_last_and_tied():
    state = new(["a", "b", "c", "d"], ranking="slides")
    state = play(state, ("d", "done"), ("a", FIX), ("a", "done"), ("b", "D"))
    assert GAME.awaited(state) == ("b", "c")
    state = GAME.expire(state)
    result = last_round(state)["results"]
    # m = 3 (a, b, c), f = 1: a first scores 2 + 1; b and c tie at the bottom: 0 + 1 each.
    assert {p: r["points"] for p, r in result.items()} == {"a": 3, "b": 1, "c": 1, "d": 0}
    assert result["b"]["status"] == result["c"]["status"] == "unfinished"
    assert result["b"]["rank"] == result["c"]["rank"] == 3
    # One deadline ends one round: the next round starts with everyone solving.
    assert GAME.view(state, None)["round"] == 2 and GAME.to_act(state) == ("a", "b", "c", "d")
    assert GAME.outcome(state) is None


def test_a_playoff_among_the_players_tied_for_the_most_points():
    state = new(["a", "b", "c"], rounds=2)
    state = play(state, ("a", FIX), ("a", "done"), ("b", FIX), ("b", "done"))   # a 2, b 1
    state = play(state, ("b", FIX), ("b", "done"), ("a", FIX), ("a", "done"))   # b 2, a 1
    assert GAME.scores(state) == {"a": 3, "b": 3, "c": 0}
    view = GAME.view(state, None)
    assert view["playoff"] == 1 and view["round_players"] == ["a", "b"]
    assert GAME.to_act(state) == ("a", "b") and GAME.outcome(state) is None
    assert GAME.legal_actions(state, "c") == []
    state = play(state, ("b", FIX), ("b", "done"))
    assert GAME.scores(state) == {"a": 3, "b": 4, "c": 0}
    outcome = GAME.outcome(state)
    assert outcome.winners == ("b",) and "4 points" in outcome.reason
    assert GAME.to_act(state) == ()


def test_tied_again_after_a_playoff_another_playoff():
    state = new(["a", "b"], rounds=1, ranking="slides")
    state = play(state, ("a", "done"), ("b", "done"))        # both fumble: 0 - 0
    assert GAME.view(state, None)["playoff"] == 1
    state = play(state, ("a", "done"), ("b", "done"))        # again
    assert GAME.view(state, None)["playoff"] == 2 and GAME.outcome(state) is None
    state = play(state, ("a", FIX), ("a", "done"), ("b", "done"))
    assert GAME.outcome(state).winners == ("a",)


def test_no_playoff_for_a_tie_below_the_top():
    state = new(["a", "b", "c"], rounds=1)
    state = play(state, ("a", FIX), ("a", "done"), ("b", "done"))   # a 2+1, c 0+1, b 0
    assert GAME.outcome(state).winners == ("a",)


def test_solo_game_one_round_ends_when_done_and_reports_slides():
    state = GAME.new_game(["alba"], seed=4, options={"deals": [CYCLE]})
    assert GAME.view(state, None)["rounds"] == 1
    state = play(state, ("alba", "DU"), ("alba", FIX))
    assert GAME.to_act(state) == ("alba",)      # correct, but not done until called
    state = play(state, ("alba", "done"))
    outcome = GAME.outcome(state)
    assert outcome.winners == ("alba",) and "6 slides" in outcome.reason


def test_solo_fumble_does_not_win():
    state = play(GAME.new_game(["alba"], options={"deals": [CYCLE]}), ("alba", "done"))
    outcome = GAME.outcome(state)
    assert outcome.winners == () and "fumble" in outcome.reason


def test_solo_deadline_does_not_win():
    state = GAME.expire(GAME.new_game(["alba"], options={"deals": [CYCLE]}))
    assert GAME.outcome(state).winners == () and "in time" in GAME.outcome(state).reason


def test_solo_several_rounds_if_agreed():
    state = GAME.new_game(["alba"], options={"deals": [CYCLE, CYCLE2], "rounds": 2})
    state = play(state, ("alba", FIX), ("alba", "done"))
    assert GAME.outcome(state) is None and GAME.view(state, None)["round"] == 2
    state = play(state, ("alba", FIX), ("alba", "done"))
    assert GAME.outcome(state).winners == ("alba",) and "8 slides" in GAME.outcome(state).reason


def test_a_player_who_leaves_is_out_of_the_round_and_the_game():
    state = new(["a", "b", "c"])
    state = GAME.resign(state, "c")
    assert GAME.to_act(state) == ("a", "b")
    state = play(state, ("a", FIX), ("a", "done"))    # b left solving: over
    result = last_round(state)["results"]
    assert set(result) == {"a", "b"} and result["a"]["points"] == 1
    assert GAME.to_act(state) == ("a", "b")
    state = GAME.resign(state, "b")
    assert GAME.outcome(state).winners == ("a",)


def test_leaving_can_end_a_race_round():
    state = play(new(["a", "b", "c"]), ("a", FIX), ("a", "done"))
    state = GAME.resign(state, "c")
    assert GAME.view(state, None)["round"] == 2
    assert last_round(state)["results"]["b"]["status"] == "unfinished"


# --------------------------------------------------------------------------- points formula


def test_points_formula_cases():
    def board(status, slides=0, call=None):
        return {"status": status, "slides": slides, "call": call}

    boards = {"a": board("correct", 9, 2), "b": board("fumble", 1, 1), "c": board("unfinished"),
              "d": board("unfinished"), "e": board("correct", 3, 3)}
    race = round_points(boards, "race")
    assert {p: r["points"] for p, r in race.items()} == {"a": 4, "b": 0, "c": 1, "d": 1, "e": 3}
    by_slides = round_points(boards, "slides")
    assert {p: r["points"] for p, r in by_slides.items()} == {"a": 3, "b": 0, "c": 1, "d": 1,
                                                              "e": 4}


# --------------------------------------------------------------------------- views


def test_during_a_round_a_player_sees_only_their_own_board():
    state = play(new(["a", "b", "c"]), ("a", "DD"), ("b", "R"), ("b", "done"))
    for viewer in ("a", "b", "c"):
        view = GAME.view(state, viewer)
        text = repr({k: v for k, v in view.items() if k != "board"})
        assert "tiles" not in text or view["history"] == []
        assert view["board"]["slides"] == {"a": 2, "b": 1, "c": 0}[viewer]
    spectator = GAME.view(state, None)
    assert spectator["board"] is None and "tiles" not in repr(spectator)
    # Who has finished and how, not their board, nor (until the round is over) their slides.
    assert spectator["finished"] == [{"player": "b", "status": "fumble", "call": 1}]
    assert all("slides" not in entry for entry in spectator["log"])
    assert all(not re.search(r"\d+ slides?", entry["text"]) for entry in spectator["log"])


def test_after_the_round_every_final_board_is_public():
    state = play(new(["a", "b"]), ("a", FIX), ("b", "DD"), ("a", "done"))
    history = GAME.view(state, None)["history"][0]
    assert is_correct(history["results"]["a"]["tiles"], ROWS, COLUMNS)
    assert history["results"]["b"]["tiles"][14] == "."
    assert history["deal"] == parse_deal(CYCLE)["tiles"]


def test_json_round_trip_mid_round():
    state = play(new(["a", "b", "c"]), ("a", "DD"), ("c", "done"))
    assert GAME.from_json(GAME.to_json(state)) == state


def test_random_deals_follow_the_seed():
    one = GAME.new_game(["a", "b"], seed=11)
    assert one == GAME.new_game(["a", "b"], seed=11)
    assert GAME.view(one, "a")["board"] != GAME.view(GAME.new_game(["a", "b"], seed=12), "a")["board"]


# --------------------------------------------------------------------------- solvability


def test_the_sponge_absorbs_the_15_puzzle_parity():
    """Why every deal can be solved. On a board of odd width, a slide left or right keeps the
    row-by-row order of the tiles, and a slide up or down moves one tile past 4 others (an even
    number of swaps); so the parity of the tiles' order never changes, and with the hole back in
    its corner only half of all arrangements can be reached (the 15 puzzle's famous half). The
    correct boards with the hole in the corner come in both parities: swapping two nulls in the
    sponge row is one swap. So every deal has a correct board of its own parity, and the
    standard result (every arrangement of that parity can be reached) gives a solution. Here:
    slides keep the parity, and the two kinds of correct board differ in it."""
    rng = Rng(5)
    board = random_deal(rng)["tiles"]
    parity = permutation_parity(board)
    for _ in range(500):
        board = slide(board, "UDLR"[rng.below(4)]) or board
        assert permutation_parity(board) == parity
    correct = solved()
    swapped = correct[:20] + [correct[21], correct[20]] + correct[22:]
    assert is_correct(swapped, ROWS, COLUMNS)
    assert permutation_parity(correct) != permutation_parity(swapped)


@pytest.mark.parametrize("seed", range(40))
def test_the_solver_solves_seeded_deals_of_both_parities(seed):
    deal = random_deal(Rng(seed))
    moves = solve(deal["tiles"], deal["rows"], deal["columns"])
    board = deal["tiles"]
    for m in moves:
        board = slide(board, m)
    assert is_correct(board, deal["rows"], deal["columns"])


def test_seeded_deals_cover_both_parities():
    parities = {permutation_parity(random_deal(Rng(seed))["tiles"]) for seed in range(40)}
    assert parities == {0, 1}


def test_solver_through_the_game_with_every_seat():
    state = GAME.new_game(["a", "b", "c"], seed=9, options={"rounds": 1})
    for p in ("a", "b"):
        view = GAME.view(state, p)
        state = GAME.apply(state, p, solve(view["board"]["tiles"], view["targets"]["rows"],
                                           view["targets"]["columns"]))
        state = GAME.apply(state, p, "done")
    assert GAME.outcome(state).winners == ("a",)
    assert GAME.scores(state) == {"a": 2, "b": 1, "c": 0}


def test_rules_text_states_the_rulings():
    rules = GAME.rules
    for phrase in ("Hale-Evans", "parity sponge", "fumble", "autodone", "slides", "deadline",
                   "playoff", "Alone"):
        assert phrase in rules
