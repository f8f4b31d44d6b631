"""Global Warming: every ruling as a scenario on a fixed deal, notation, secrecy, deadlines,
resigning, and random play to the end with the contract's invariants."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import GameError, IllegalAction, InvalidAction, NotYourTurn, freeze, thaw
from engine import global_warming as gw
from engine.global_warming import RULES, Commit, Pass, Step, Steps, TileMove
from engine.piecepack import VALUES

GAME = engine.get_game("global-warming")
PLAYERS = ("ann", "bob", "cat", "dan")

# Top row (y=5) first. Suns fill the top, arms the bottom.
ISLAND = [
    "Sn Sa S2 S3 S4",
    "S5 Mn Ma M2 M3",
    "M4 M5 .  Cn Ca",
    "C2 C3 C4 C5 An",
    "Aa A2 A3 A4 A5",
]
AT = {(x, 5 - i): code for i, row in enumerate(ISLAND)
      for x, code in enumerate(row.split(), start=1) if code != "."}
# Coins sinking the bottom row first, far from the pawns of most scenarios.
BOTTOM_FIRST = ["A5:suit", "A4:value", "A3:suit", "A2:value", "Aa:suit"]


def new(n=2, starts=("Sn", "S4", "Aa", "A5"), coins=BOTTOM_FIRST, variant=None):
    options = {"island": ISLAND, "starts": list(starts[:n]), "coins": list(coins)}
    if variant:
        options["variant"] = variant
    return GAME.new_game(PLAYERS[:n], seed=1, options=options)


def commit(state, faces):
    for player, face in faces.items():
        state = GAME.apply(state, player, face)
    return state


def pawn(state, player):
    p = GAME.view(state)["pawns"][player]
    return None if p is None else (p["x"], p["y"])


def tiles(state):
    return {(t["x"], t["y"]): t["suit"][0].upper() + t["value"] for t in GAME.view(state)["island"]}


def refused(state, player, action, error=GameError):
    before = GAME.to_json(state)
    with pytest.raises(error) as info:
        GAME.apply(state, player, action)
    assert GAME.to_json(state) == before
    return str(info.value)


# --------------------------------------------------------------------------- deal


def test_fixed_deal_places_tiles_pawns_and_coin_line():
    state = new(4)
    view = GAME.view(state, "ann")
    assert tiles(state) == AT and len(AT) == 24 and (3, 3) not in AT
    assert [pawn(state, p) for p in PLAYERS] == [(1, 5), (5, 5), (1, 1), (5, 1)]
    assert view["colours"] == {"ann": "red", "bob": "black", "cat": "green", "dan": "blue"}
    assert view["coin_line"] == [{"side": "suit", "suit": "arms"},
                                 {"side": "value", "value": "4"},
                                 {"side": "suit", "suit": "arms"}]
    assert view["bag_count"] == 21 and view["sunk"] == [] and view["drowned"] == []
    assert view["phase"] == "commit" and view["turn"] == 1 and view["reveal"] is None
    assert GAME.rules == RULES and len(RULES) < 3500


def test_random_deal_is_complete_and_seeded():
    a = GAME.new_game(PLAYERS, seed=42)
    assert a == GAME.new_game(PLAYERS, seed=42)
    assert a != GAME.new_game(PLAYERS, seed=43)
    d = a["data"]
    assert sorted(map(tuple, d["tiles"].values())) == sorted(AT)
    assert len({tuple(p) for p in d["pawns"].values()}) == 4
    coins = [code for code, _ in d["line"] + d["bag"]]
    assert len(d["line"]) == 3 and sorted(coins) == sorted(d["tiles"])
    assert {side for _, side in d["line"] + d["bag"]} == {"suit", "value"}


def test_orthogonal_variant_moves_the_hole_neighbours_outside_the_edges():
    t = tiles(new(variant="orthogonal"))
    assert (t[(3, 6)], t[(6, 3)], t[(3, 0)], t[(0, 3)]) == ("Ma", "Cn", "C4", "M5")
    assert not {(3, 4), (4, 3), (3, 2), (2, 3), (3, 3)} & set(t)
    assert len(t) == 24


def test_diagonal_variant_moves_the_hole_corners_outside_the_edges():
    t = tiles(new(variant="diagonal"))
    assert (t[(3, 6)], t[(6, 3)], t[(3, 0)], t[(0, 3)]) == ("Mn", "M2", "C5", "C3")
    assert not {(2, 4), (4, 4), (4, 2), (2, 2), (3, 3)} & set(t)
    assert GAME.view(new(variant="diagonal"))["variant"] == "diagonal"


def test_pawns_start_on_their_tiles_after_the_variant_move():
    state = new(2, starts=("Ma", "C4"), variant="orthogonal")
    assert pawn(state, "ann") == (3, 6) and pawn(state, "bob") == (3, 0)


@pytest.mark.parametrize("options", [
    {"variant": "hexagonal"},
    {"island": ISLAND[:4]},
    {"island": [r.replace("Sn", "Sa", 1) for r in ISLAND]},            # a tile twice
    {"island": ["Sn Sa S2 S3 .", ISLAND[1], "M4 M5 S4 Cn Ca", *ISLAND[3:]]},  # hole off centre
    {"starts": ["Sn", "Sn"]},
    {"starts": {"zed": "Sn"}},
    {"starts": ["X9"]},
    {"coins": ["S3:top"]},
    {"coins": ["S3:suit", "s3:value"]},
    {"colour": "red"},
])
def test_bad_options_are_refused(options):
    with pytest.raises(GameError):
        GAME.new_game(PLAYERS[:2], seed=1, options=options)


def test_options_accept_a_slash_island_and_a_player_keyed_start_map():
    state = GAME.new_game(["ann", "bob"], seed=5, options={
        "island": "/".join(ISLAND).lower(), "starts": {"bob": "ca", 0: "Mn"}})
    assert tiles(state) == AT
    assert pawn(state, "ann") == (2, 4) and pawn(state, "bob") == (5, 3)


def test_player_counts():
    for n in (1, 5):
        with pytest.raises(GameError):
            GAME.new_game([f"p{i}" for i in range(n)], seed=1)


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize("text, action", [
    ("n", Commit("n")), ("NULL", Commit("n")), ("blank", Commit("n")), ("Ace", Commit("a")),
    ("1", Commit("a")), ("die 5", Commit("5")), ("choose 3", Commit("3")),
    ("2,3>6,3", TileMove((2, 3), (6, 3))), ("2,3 to 6,3", TileMove((2, 3), (6, 3))),
    ("move 2,3 to 6,3", TileMove((2, 3), (6, 3))), ("2, 3  6, 3", TileMove((2, 3), (6, 3))),
    ("(2,3)->(-1,0)", TileMove((2, 3), (-1, 0))), ("-1,4 > 2,-3", TileMove((-1, 4), (2, -3))),
    ("Pass", Pass()), ("red up", Step("red", "up")), ("Suns L", Step("red", "left")),
    ("red up, red up, blue left",
     Steps((Step("red", "up"), Step("red", "up"), Step("blue", "left")))),
    ("black d d; green east", Steps((Step("black", "down"),) * 2 + (Step("green", "right"),))),
])
def test_parse_friendly_notation(text, action):
    assert GAME.parse_action(new(), "ann", text) == action


def test_canonical_notation():
    assert [str(a) for a in (Commit("n"), TileMove((2, 3), (-1, 0)), Pass(), Step("red", "up"),
                             Steps((Step("red", "up"), Step("blue", "left"))))] == \
        ["n", "2,3>-1,0", "pass", "red up", "red up, blue left"]


@pytest.mark.parametrize("text", ["2,3-6,3", "up", "red", "red jump", "7", "hello", "2,3"])
def test_unreadable_text_is_invalid(text):
    with pytest.raises(InvalidAction):
        GAME.parse_action(new(), "ann", text)


# --------------------------------------------------------------------------- commit and reveal


def test_commits_are_secret_changeable_and_revealed_together():
    state = new(3)
    assert set(GAME.to_act(state)) == set(GAME.awaited(state)) == {"ann", "bob", "cat"}
    assert GAME.prompt(state, "ann").kind == "secret"
    state = GAME.apply(state, "ann", "5")
    assert GAME.view(state, "ann")["own_commit"] == "5"
    assert GAME.view(state, "bob")["own_commit"] is None
    assert GAME.view(state, None)["committed"] == ["ann"]
    assert set(GAME.to_act(state)) == {"ann", "bob", "cat"}   # ann may still change
    assert GAME.awaited(state) == ("bob", "cat")
    assert [str(a) for a in GAME.legal_actions(state, "ann")] == list(VALUES)
    state = GAME.apply(state, "ann", "4")                     # changed her mind
    state = GAME.apply(state, "bob", "3")
    assert GAME.view(state, "ann")["own_commit"] == "4"
    assert not any(e["event"] == "reveal" for e in GAME.view(state)["log"])
    state = GAME.apply(state, "cat", "a")
    reveal = GAME.view(state)["reveal"]
    assert reveal["faces"] == {"ann": "4", "bob": "3", "cat": "a"}
    assert reveal["cancelled"] == [] and reveal["order"] == ["ann", "bob", "cat"]
    assert GAME.view(state)["phase"] == "act" and GAME.to_act(state) == ("ann",)
    assert GAME.view(state, "ann")["own_commit"] is None
    assert GAME.prompt(state, "ann").kind == "public"
    assert "4" in [e for e in GAME.view(state)["log"] if e["event"] == "reveal"][0]["text"]


def test_two_equal_faces_cancel():
    state = commit(new(3), {"ann": "5", "bob": "5", "cat": "3"})
    reveal = GAME.view(state)["reveal"]
    assert reveal["cancelled"] == ["ann", "bob"] and reveal["order"] == ["cat"]
    assert GAME.to_act(state) == ("cat",) and GAME.view(state)["steps_left"] == 3


def test_three_equal_faces_cancel():
    state = commit(new(4), {"ann": "2", "bob": "2", "cat": "2", "dan": "4"})
    reveal = GAME.view(state)["reveal"]
    assert reveal["cancelled"] == ["ann", "bob", "cat"] and reveal["order"] == ["dan"]
    assert GAME.to_act(state) == ("dan",) and GAME.view(state)["steps_left"] == 4


def test_all_cancelled_ends_the_turn_at_once():
    state = commit(new(2), {"ann": "n", "bob": "n"})
    view = GAME.view(state)
    assert view["reveal"]["order"] == [] and view["turn"] == 2 and view["phase"] == "commit"
    assert view["sunk"] == [{"suit": "arms", "value": "5"}]


def test_actions_go_null_then_high_to_low_then_ace():
    state = commit(new(4), {"ann": "a", "bob": "3", "cat": "n", "dan": "5"})
    assert GAME.view(state)["reveal"]["order"] == ["cat", "dan", "bob", "ann"]
    seen = []
    while GAME.view(state)["phase"] == "act":
        actor, = GAME.to_act(state)
        seen.append((actor, GAME.view(state)["steps_left"]))
        state = GAME.apply(state, actor, GAME.legal_actions(state, actor)[-1])
    assert seen[0] == ("cat", None)
    assert [a for a, _ in seen] == ["cat", "dan", "dan", "dan", "dan", "dan",
                                    "bob", "bob", "bob", "ann"]


def test_acting_out_of_turn_and_wrong_kinds_are_refused():
    state = commit(new(3), {"ann": "n", "bob": "3", "cat": "2"})
    refused(state, "bob", "black down", NotYourTurn)
    assert "null" in refused(state, "ann", "red down", IllegalAction)
    assert "shown" in refused(state, "ann", "4", IllegalAction)
    fresh = new(3)
    refused(fresh, "ann", "pass", IllegalAction)
    refused(fresh, "ann", "red down", IllegalAction)


# --------------------------------------------------------------------------- steps


def test_exact_steps_split_among_pawns_including_another_players():
    state = commit(new(2), {"ann": "3", "bob": "a"})          # ann 1,5; bob 5,5
    assert GAME.prompt(state, "ann").text.startswith("Make 3")
    state = GAME.apply(state, "ann", "red down")
    assert pawn(state, "ann") == (1, 4) and GAME.to_act(state) == ("ann",)
    state = GAME.apply(state, "ann", "black left, black down")
    assert pawn(state, "bob") == (4, 4)
    assert GAME.to_act(state) == ("bob",) and GAME.view(state)["steps_left"] == 1
    assert {str(a) for a in GAME.legal_actions(state, "bob")} == {
        "red up", "red down", "red right", "black up", "black down", "black left",
        "black right"}


def test_pawn_may_go_away_and_back():
    state = commit(new(2), {"ann": "2", "bob": "a"})
    state = GAME.apply(state, "ann", "red down, red up")
    assert pawn(state, "ann") == (1, 5) and GAME.to_act(state) == ("bob",)


def test_blocked_steps_are_refused_and_change_nothing():
    state = commit(new(2, starts=("Sn", "Sa")), {"ann": "3", "bob": "a"})
    assert "pawn" in refused(state, "ann", "red right", IllegalAction)      # onto bob
    assert "no tile" in refused(state, "ann", "red up", IllegalAction)      # off the island
    assert "no tile" in refused(state, "ann", "red left", IllegalAction)
    msg = refused(state, "ann", "red down, red up, red up", IllegalAction)  # 3rd step bad
    assert msg.startswith("Step 3")
    assert "only 3" in refused(state, "ann", "red down, red up, red down, red up", IllegalAction)
    assert "green" in refused(state, "ann", "green down", IllegalAction)    # no such pawn
    refused(state, "ann", "pass", IllegalAction)                            # no declining
    refused(state, "ann", "2,4>3,3", IllegalAction)
    stepped = GAME.apply(state, "ann", "red down, red right, red right")
    assert pawn(stepped, "ann") == (3, 4) and GAME.to_act(stepped) == ("bob",)


def test_steps_cannot_enter_the_hole():
    state = commit(new(2, starts=("Ma", "S4")), {"ann": "a", "bob": "2"})
    assert GAME.to_act(state) == ("bob",)
    state = GAME.apply(state, "bob", "red up, red down")
    assert "no tile at 3,3" in refused(state, "ann", "red down", IllegalAction)


def sink_three_around_the_top_left():
    """ann 1,5 and bob 2,5 (cat far away) end up on a piece of two tiles after three turns."""
    coins = ["S5:suit", "Mn:value", "S2:value", "A4:suit", "A3:suit"]
    state = new(3, starts=("Sn", "Sa", "A5"), coins=coins)
    for _ in range(3):
        state = commit(state, {"ann": "5", "bob": "5", "cat": "5"})
    assert not {(1, 4), (2, 4), (3, 5)} & set(tiles(state))
    return state


def test_boxed_in_actor_must_move_another_pawn():
    state = commit(sink_three_around_the_top_left(), {"ann": "3", "bob": "2", "cat": "4"})
    state = GAME.apply(state, "cat", "green up, green up, green up, green left")
    assert GAME.to_act(state) == ("ann",)
    assert {str(a) for a in GAME.legal_actions(state, "ann")} == {
        "green up", "green down", "green left", "green right"}


def test_actor_without_a_possible_step_loses_all_steps():
    coins = ["S5:suit", "Mn:value", "S2:value", "A5:suit"]
    state = new(2, starts=("Sn", "Sa"), coins=coins)
    for _ in range(3):
        state = commit(state, {"ann": "5", "bob": "5"})
    state = commit(state, {"ann": "3", "bob": "2"})
    skips = [e["text"] for e in GAME.view(state)["log"] if e["event"] == "skip"]
    assert skips == ["ann (red) can make no step: 3 steps lost.",
                     "bob (black) can make no step: 2 steps lost."]
    assert GAME.view(state)["turn"] == 5 and GAME.view(state)["phase"] == "commit"


def test_steps_left_are_lost_when_the_last_movable_pawn_leaves():
    state = sink_three_around_the_top_left()
    state = commit(state, {"ann": "5", "bob": "4", "cat": "3"})
    state = GAME.apply(state, "ann", "green up")
    assert GAME.view(state)["steps_left"] == 4
    state = GAME.resign(state, "cat")
    assert pawn(state, "cat") is None and (5, 2) in tiles(state)
    texts = [e["text"] for e in GAME.view(state)["log"]]
    assert "No step is possible: ann (red) loses 4 steps." in texts
    assert "bob (black) can make no step: 4 steps lost." in texts
    assert GAME.view(state)["phase"] == "commit" and GAME.view(state)["turn"] == 5
    assert set(GAME.to_act(state)) == {"ann", "bob"}


# --------------------------------------------------------------------------- the null action


def test_null_move_splits_the_island_and_leaves_the_5x5():
    state = commit(new(2, starts=("Sn", "S4"), variant="orthogonal"), {"ann": "n", "bob": "a"})
    assert GAME.prompt(state, "ann").kind == "public"
    state = GAME.apply(state, "ann", "3,5>7,3")           # 3,6 now hangs on nothing
    t = tiles(state)
    assert t[(7, 3)] == "S2" and (3, 5) not in t and (3, 6) in t
    assert not {(2, 6), (4, 6), (3, 7), (3, 5)} & set(t)  # 3,6 is a separate piece
    assert GAME.to_act(state) == ("bob",)


def test_null_move_to_negative_coordinates_and_its_tile_sinks_where_it_is():
    coins = ["S3:value", "A4:value", "A3:suit"]
    state = commit(new(2, starts=("Sn", "S4"), coins=coins, variant="orthogonal"),
                   {"ann": "n", "bob": "a"})
    state = GAME.apply(state, "ann", "4,5 > -1,3")         # next to 0,3
    assert tiles(state)[(-1, 3)] == "S3"
    state = GAME.apply(state, "bob", "black down")
    view = GAME.view(state)
    assert view["sunk"] == [{"suit": "suns", "value": "3"}] and (-1, 3) not in tiles(state)
    assert any("at -1,3 sinks" in e["text"] for e in view["log"])


def test_illegal_tile_moves():
    state = commit(new(2, starts=("Sn", "S4")), {"ann": "n", "bob": "a"})
    assert "pawn" in refused(state, "ann", "1,5>0,4", IllegalAction)
    assert "no tile" in refused(state, "ann", "3,3>0,4", IllegalAction)
    assert "already" in refused(state, "ann", "2,5>1,4", IllegalAction)
    assert "another" in refused(state, "ann", "2,5>2,5", IllegalAction)
    assert "share an edge" in refused(state, "ann", "1,1>0,0", IllegalAction)  # diagonal only
    assert "share an edge" in refused(state, "ann", "1,1>0,1", IllegalAction)  # only itself
    assert "share an edge" in refused(state, "ann", "1,1>9,9", IllegalAction)
    ok = GAME.apply(state, "ann", "1,1>3,3")                # into the hole is fine
    assert tiles(ok)[(3, 3)] == "Aa"


def test_null_legal_actions_are_the_tile_moves_and_pass():
    state = commit(new(2, starts=("Sn", "S4")), {"ann": "n", "bob": "a"})
    legal = GAME.legal_actions(state, "ann")
    assert legal[-1] == Pass()
    moves = legal[:-1]
    assert all(isinstance(m, TileMove) for m in moves)
    assert not {m.src for m in moves} & {(1, 5), (5, 5)}
    assert TileMove((1, 1), (3, 3)) in moves and TileMove((1, 1), (0, 1)) not in moves
    # 22 movable tiles; 21 empty positions touch the island (20 outside, and the hole). Each
    # outside position touches one edge tile only, which cannot move there: 2 for each of the
    # 2 movable corners, 1 for each of the 12 other edge tiles.
    assert len(moves) == 22 * 21 - (2 * 2 + 12)


def test_declining_the_null_action():
    state = commit(new(2), {"ann": "n", "bob": "2"})
    before = tiles(state)
    state = GAME.apply(state, "ann", "pass")
    assert tiles(state) == before and GAME.to_act(state) == ("bob",)
    assert GAME.view(state)["log"][-1]["event"] == "pass"


def test_null_actor_with_no_movable_tile_is_skipped():
    state = new(2, starts=("Sn", "Sa"))
    s = thaw(state)   # an island of the two pawn tiles only
    s["data"]["tiles"] = {"Sn": [1, 5], "Sa": [2, 5]}
    s["data"]["line"], s["data"]["bag"] = [["Sn", "suit"], ["Sa", "suit"]], []
    state = commit(freeze(s), {"ann": "n", "bob": "4"})
    skips = [e["text"] for e in GAME.view(state)["log"] if e["event"] == "skip"]
    assert skips == ["ann (red) has no tile that can move.",
                     "bob (black) can make no step: 4 steps lost."]
    assert GAME.outcome(state).winners == ("bob",)


# --------------------------------------------------------------------------- end of turn


def test_end_of_turn_draws_flips_and_sinks_a_tile_without_pawn():
    state = commit(new(2), {"ann": "a", "bob": "2"})
    state = GAME.apply(state, "bob", "black down, black up")
    state = GAME.apply(state, "ann", "red down")
    view = GAME.view(state)
    assert view["turn"] == 2 and view["phase"] == "commit"
    assert view["sunk"] == [{"suit": "arms", "value": "5"}] and (5, 1) not in tiles(state)
    assert view["coin_line"] == [{"side": "value", "value": "4"},
                                 {"side": "suit", "suit": "arms"},
                                 {"side": "value", "value": "2"}]
    assert view["bag_count"] == 20 and view["drowned"] == []
    assert [e["event"] for e in view["log"][-2:]] == ["draw", "sink"]
    assert view["reveal"]["turn"] == 1      # the last reveal stays visible until the next


def test_sinking_with_a_pawn_drowns_its_player_and_the_last_survivor_wins():
    state = new(3, starts=("Sn", "A5", "A4"))
    state = commit(state, {"ann": "5", "bob": "5", "cat": "5"})   # A5 sinks with bob
    view = GAME.view(state)
    assert view["drowned"] == ["bob"] and view["pawns"]["bob"] is None
    assert GAME.to_act(state) == ("ann", "cat") and GAME.outcome(state) is None
    assert GAME.scores(state) == {"ann": 1, "bob": 0, "cat": 1}
    refused(state, "bob", "5", NotYourTurn)
    for out_of_game_call in (GAME.resign, GAME.offer_draw):      # a drowned player is out
        with pytest.raises(NotYourTurn):
            out_of_game_call(state, "bob")
    state = commit(state, {"ann": "3", "cat": "3"})               # A4 sinks with cat
    outcome = GAME.outcome(state)
    assert outcome.winners == ("ann",) and "ann" in outcome.reason
    assert GAME.to_act(state) == () and GAME.awaited(state) == ()
    assert GAME.scores(state) == {"ann": 2, "bob": 0, "cat": 1}
    assert GAME.view(state)["log"][-1]["event"] == "end"
    refused(state, "ann", "5", IllegalAction)


def test_a_pawn_stepping_off_the_doomed_tile_survives():
    state = commit(new(2, starts=("Sn", "A5")), {"ann": "a", "bob": "2"})
    state = GAME.apply(state, "bob", "black up, red down")
    state = GAME.apply(state, "ann", "black up")
    assert GAME.view(state)["drowned"] == [] and pawn(state, "bob") == (5, 3)
    assert GAME.view(state)["sunk"] == [{"suit": "arms", "value": "5"}]


def test_every_game_ends_within_24_turns_even_when_nobody_moves():
    state = GAME.new_game(PLAYERS, seed=9)
    turns = 0
    while GAME.outcome(state) is None:
        state = GAME.expire(state)
        turns += 1
    assert turns <= 24 and len(GAME.outcome(state).winners) == 1


# --------------------------------------------------------------------------- deadlines


def test_commit_timeout_takes_no_action_and_cancels_nobody():
    state = commit(new(3), {"ann": "3", "bob": "2"})
    assert GAME.awaited(state) == ("cat",)
    state = GAME.expire(state)
    reveal = GAME.view(state)["reveal"]
    assert reveal["timed_out"] == ["cat"] and reveal["order"] == ["ann", "bob"]
    assert "cat" not in reveal["faces"] and reveal["cancelled"] == []
    assert GAME.to_act(state) == ("ann",)


def test_act_timeout_loses_the_rest_of_the_action():
    state = commit(new(3), {"ann": "5", "bob": "2", "cat": "n"})
    state = GAME.apply(state, "cat", "pass")
    state = GAME.apply(state, "ann", "red down, red down")
    state = GAME.expire(state)
    assert pawn(state, "ann") == (1, 3) and GAME.to_act(state) == ("bob",)
    assert GAME.view(state)["steps_left"] == 2
    assert GAME.view(state)["log"][-1]["event"] == "timeout"


def test_changing_a_commit_is_allowed_until_the_deadline():
    state = commit(new(2), {"ann": "5"})
    state = GAME.apply(state, "ann", "2")
    state = GAME.expire(state)             # bob timed out: ann acts with her last choice
    assert GAME.view(state)["reveal"]["faces"] == {"ann": "2"}
    assert GAME.view(state)["steps_left"] == 2


# --------------------------------------------------------------------------- resigning


def test_resign_of_one_of_four_in_the_commit_phase_completes_the_reveal():
    state = commit(new(4), {"ann": "3", "bob": "4", "cat": "3"})
    state = GAME.resign(state, "dan")
    view = GAME.view(state)
    assert view["pawns"]["dan"] is None and (5, 1) in tiles(state)
    assert view["reveal"]["order"] == ["bob"] and view["reveal"]["cancelled"] == ["ann", "cat"]
    assert GAME.to_act(state) == ("bob",) and GAME.outcome(state) is None
    assert GAME.scores(state)["dan"] == 0 and GAME.scores(state)["bob"] == 1
    refused(state, "dan", "5", NotYourTurn)


def test_resign_of_the_actor_and_of_a_later_actor():
    state = commit(new(4), {"ann": "5", "bob": "4", "cat": "3", "dan": "2"})
    state = GAME.resign(state, "cat")                 # a later actor: skipped when due
    state = GAME.resign(state, "ann")                 # the actor now: bob goes on
    assert GAME.to_act(state) == ("bob",) and GAME.view(state)["steps_left"] == 4
    state = GAME.apply(state, "bob", "black down, black down, black up, black up")
    assert GAME.to_act(state) == ("dan",)
    state = GAME.resign(state, "dan")
    assert GAME.outcome(state).winners == ("bob",)


def test_resigned_commit_is_never_revealed():
    state = commit(new(3), {"ann": "5"})
    state = GAME.resign(state, "ann")
    state = commit(state, {"bob": "2", "cat": "3"})
    assert GAME.view(state)["reveal"]["faces"] == {"bob": "2", "cat": "3"}


# --------------------------------------------------------------------------- secrecy


def twin(state, viewer):
    """The same public situation with every secret `viewer` may not know changed: other
    players' committed faces, the down sides of the line's coins, and the bag."""
    s = thaw(state)
    d = s["data"]
    d["commits"] = {p: f if p == viewer else VALUES[(VALUES.index(f) + 1) % 6]
                    for p, f in d["commits"].items()}
    # A possible world: each line coin trades its identity with a bag coin that would show
    # the same up side; then the bag is reordered and its sides turned.
    for coin in d["line"]:
        shown = 0 if coin[1] == "suit" else 1
        swap = next((b for b in d["bag"] if b[0][shown] == coin[0][shown]), None)
        if swap is not None:
            coin[0], swap[0] = swap[0], coin[0]
    d["bag"] = [[code, "value" if side == "suit" else "suit"] for code, side in d["bag"][::-1]]
    return freeze(s)


PROBES = ["n", "5", "pass", "red up", "black left, black left", "2,3>3,3", "1,1>0,0"]


def assert_no_leak(state):
    for viewer in (None, *state["players"]):
        other = twin(state, viewer)
        assert json.dumps(GAME.view(state, viewer)) == json.dumps(GAME.view(other, viewer))
    if state["data"]["phase"] == "commit":
        # Committing one face or another shows the others the same, up to the reveal.
        for player in GAME.to_act(state):
            five, three = GAME.apply(state, player, "5"), GAME.apply(state, player, "3")
            if five["data"]["phase"] == three["data"]["phase"] == "commit":
                for viewer in (None, *state["players"]):
                    if viewer != player:
                        assert GAME.view(five, viewer) == GAME.view(three, viewer)
    for player in state["players"]:
        assert GAME.prompt(state, player) == GAME.prompt(twin(state, player), player)
        assert GAME.to_act(state) == GAME.to_act(twin(state, None))
        assert GAME.awaited(state) == GAME.awaited(twin(state, None))
        for probe in PROBES:
            messages = []
            for s in (state, twin(state, player), twin(state, None)):
                try:
                    GAME.apply(s, player, probe)
                    messages.append("ok")
                except GameError as e:
                    messages.append(str(e))
            assert len(set(messages)) == 1, (player, probe, messages)


def test_views_logs_prompts_and_errors_hide_faces_and_coin_sides():
    state = new(3)
    assert_no_leak(state)
    state = GAME.apply(state, "ann", "5")
    assert_no_leak(state)
    state = GAME.apply(state, "bob", "3")
    assert_no_leak(state)
    dumped = json.dumps(GAME.view(state, "cat"))
    assert "own_commit\": null" in dumped and "commits" not in dumped and "bag\"" not in dumped


def test_coins_with_the_same_up_side_look_the_same_until_turned():
    # Two deals whose line and next coins differ only in their down sides: every view, log
    # line and refusal stays the same through a whole turn, including the draw of coin 4.
    coins_a = ["A5:suit", "A4:value", "A3:suit", "S2:suit", "M3:value"]
    coins_b = ["A5:suit", "M4:value", "Aa:suit", "S3:suit", "C3:value"]
    a, b = new(3, coins=coins_a), new(3, coins=coins_b)
    moves = [("ann", "n"), ("bob", "4"), ("ann", "2"), ("cat", "a"),
             ("bob", "black down, black down"), ("bob", "red down"), ("bob", "black left"),
             ("ann", "red right, red down"), ("cat", "green up")]
    for player, move in moves:
        for viewer in (None, *PLAYERS[:3]):
            assert GAME.view(a, viewer) == GAME.view(b, viewer), move
        for probe in ("1,1>0,1", "red up, red up, red up, red up, red up", "green left"):
            assert refusal(a, player, probe) == refusal(b, player, probe)
        a, b = GAME.apply(a, player, move), GAME.apply(b, player, move)
    assert GAME.view(a)["turn"] == 2 and GAME.view(a)["bag_count"] == 20
    for viewer in (None, *PLAYERS[:3]):
        assert GAME.view(a, viewer) == GAME.view(b, viewer)


def refusal(state, player, text):
    try:
        GAME.apply(state, player, text)
    except GameError as e:
        return str(e)
    return "accepted"


def test_twin_really_differs():
    # The leak check must be able to fail: a view that showed the faces would differ.
    state = commit(new(3), {"ann": "5", "bob": "3"})
    assert twin(state, None)["data"]["commits"] != state["data"]["commits"]
    assert twin(state, None)["data"]["line"] != state["data"]["line"]
    assert GAME.view(state, "ann") != GAME.view(twin(state, None), "ann")


# --------------------------------------------------------------------------- random play


def random_text(rnd, game_state, player):
    legal = GAME.legal_actions(game_state, player)
    action = rnd.choice(legal)
    if isinstance(action, Step) and rnd.random() < 0.5:
        # Several steps at once: extend greedily with legal steps from the walked position.
        steps, s = [action], game_state
        while len(steps) < game_state["data"]["steps_left"] and rnd.random() < 0.7:
            s = GAME.apply(s, player, steps[-1])
            if GAME.to_act(s) != (player,):
                break
            steps.append(rnd.choice(GAME.legal_actions(s, player)))
        return ", ".join(map(str, steps)) if len(steps) > 1 else str(action)
    return str(action)


JUNK = ["7", "pass", "n", "red up", "blue right, blue right", "3,3>9,9", "0,0>1,0", "gibberish"]


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)])
def test_random_play_to_the_end(players, seed):
    rnd = random.Random(seed)
    variant = ("standard", "orthogonal", "diagonal")[seed % 3]
    state = GAME.new_game(PLAYERS[:players], seed=seed, options={"variant": variant})
    steps = 0
    while GAME.outcome(state) is None:
        steps += 1
        assert steps < 3000
        assert GAME.from_json(GAME.to_json(state)) == state
        assert GAME.to_json(GAME.from_json(GAME.to_json(state))) == GAME.to_json(state)
        for viewer in (None, *state["players"]):
            json.dumps(GAME.view(state, viewer))
        if steps % 7 == 0:
            assert_no_leak(state)
        to_act = GAME.to_act(state)
        assert to_act and set(GAME.awaited(state)) <= set(to_act)
        player = rnd.choice(to_act)
        for action in GAME.legal_actions(state, player):
            assert GAME.parse_action(state, player, str(action)) == action
        junk = rnd.choice(JUNK)
        before = GAME.to_json(state)
        try:
            GAME.apply(state, player, junk)
        except GameError:
            assert GAME.to_json(state) == before
        roll = rnd.random()
        if roll < 0.02:
            state = GAME.expire(state)
        elif roll < 0.025:
            state = GAME.resign(state, rnd.choice([p for p in state["players"]
                                                   if p not in state["left"]]))
        else:
            state = GAME.apply(state, player, random_text(rnd, state, player))
    outcome = GAME.outcome(state)
    assert len(outcome.winners) == 1 and not outcome.draw
    assert GAME.view(state)["turn"] <= 24
    scores = GAME.scores(state)
    assert scores[outcome.winners[0]] == players - 1


# --------------------------------------------------------------------------- texts


def log_texts(state, event=None):
    return [e["text"] for e in GAME.view(state)["log"] if event in (None, e["event"])]


def test_choosing_a_face_logs_nothing_and_only_the_chooser_is_told_their_choice():
    state = GAME.apply(new(3), "ann", "5")
    state = GAME.apply(state, "ann", "n")
    assert GAME.view(state)["log"] == []
    assert GAME.prompt(state, "ann").text == ("Your choice: null; you may change it until "
                                              "everyone has chosen.")
    assert GAME.prompt(state, "bob").text.startswith("Choose a die face")


def test_the_reveal_names_faces_cancellations_and_the_order_of_play():
    state = commit(new(4), {"ann": "3", "bob": "4", "cat": "n", "dan": "4"})
    assert log_texts(state, "reveal") == [
        "🎲 Turn 1: ann 3 · bob 4 · cat null · dan 4. Cancelled: bob and dan (both 4). "
        "Order: cat (tile move) → ann (3 steps)."]
    state = commit(new(3), {"ann": "a", "bob": "a", "cat": "a"})
    assert log_texts(state, "reveal") == [
        "🎲 Turn 1: ann ace · bob ace · cat ace. Cancelled: ann, bob and cat (all ace). "
        "Order: nobody acts."]
    state = commit(new(2), {"ann": "a", "bob": "2"})
    assert log_texts(state, "reveal") == [
        "🎲 Turn 1: ann ace · bob 2. Cancelled: none. Order: bob (2 steps) → ann (1 step)."]


def test_step_prompts_count_down_with_a_possible_example_of_ones_own_pawn():
    state = commit(new(2), {"ann": "3", "bob": "a"})          # ann 1,5; bob 5,5
    assert GAME.prompt(state, "ann").text == (
        "Make 3 steps with any pawns, one by one or all at once (e.g. red down).")
    state = GAME.apply(state, "ann", "black left")
    assert GAME.prompt(state, "ann").text == "2 steps left (e.g. red down)."
    state = GAME.apply(state, "ann", "black left")
    assert GAME.prompt(state, "ann").text == "1 step left (e.g. red down)."
    state = GAME.apply(state, "ann", "black down")
    assert GAME.prompt(state, "bob").text == "Make 1 step with any pawns (e.g. black up)."


def test_the_null_prompt_gives_a_possible_tile_move():
    state = commit(new(2), {"ann": "n", "bob": "a"})
    text = GAME.prompt(state, "ann").text
    example = text.split("(e.g. ")[1].split(")")[0]
    assert GAME.parse_action(state, "ann", example) in GAME.legal_actions(state, "ann")


def test_step_lines_say_where_each_pawn_went_and_what_is_left():
    state = commit(new(2), {"ann": "5", "bob": "a"})          # ann 1,5; bob 5,5
    state = GAME.apply(state, "ann", "red down")
    state = GAME.apply(state, "ann", "red down, red right, black left, black down")
    assert log_texts(state, "steps") == [
        "ann (red) moves red down to 1,4; 4 steps left.",
        "ann (red) moves red down, right to 2,3, then black left, down to 4,4."]
    moves = [e for e in GAME.view(state)["log"] if e["event"] == "steps"]
    assert moves[1]["paths"] == {"ann": [[1, 4], [1, 3], [2, 3]], "bob": [[5, 5], [4, 5], [4, 4]]}


def test_no_text_says_step_s():
    state = commit(new(2), {"ann": "3", "bob": "a"})
    assert "3 steps left; you gave 4" in refused(state, "ann", "red down, red down, red down, "
                                                 "red down", IllegalAction)
    state = GAME.apply(state, "ann", "red down, red down")
    assert "1 step left; you gave 2" in refused(state, "ann", "red down, red down",
                                                IllegalAction)
    assert "make 1 step with" in refused(state, "ann", "pass", IllegalAction)
    for text in (RULES, *log_texts(state), GAME.prompt(state, "ann").text):
        assert "(s)" not in text


def test_rules_lines_are_not_hard_wrapped():
    # Discord keeps line breaks: each paragraph, numbered step or bullet is one line.
    for line in RULES.splitlines():
        assert not line or line.rstrip()[-1] in ".:)*", line


@pytest.mark.parametrize("make", [
    lambda: gw.Commit("7"), lambda: gw.Commit("x"), lambda: gw.Steps(()),
    lambda: gw.Step("red", "sideways"), lambda: gw.Step("purple", "up"),
    lambda: gw.TileMove((1, 2), (True, 3)), lambda: gw.TileMove([1, 2], (3, 3)),
])
def test_malformed_action_values_are_refused_when_made(make):
    # apply() takes action objects as well as text: a bad value must not reach a state.
    with pytest.raises(InvalidAction):
        make()


def test_a_draw_offer_stands_through_secret_choices_and_lapses_on_a_public_move():
    # A lapse on a secret choice would tell everyone that somebody chose (or changed).
    state = GAME.offer_draw(new(2, starts=("Sn", "A5")), "ann")
    state = GAME.apply(state, "bob", "3")
    state = GAME.apply(state, "bob", "4")
    assert GAME.view(state)["draw_offer"] == {"by": "ann", "accepted": ["ann"]}
    state = GAME.apply(state, "ann", "2")                      # the reveal: bob acts first
    assert GAME.view(state)["draw_offer"] is not None
    state = GAME.apply(state, "bob", GAME.legal_actions(state, "bob")[0])
    assert GAME.view(state)["draw_offer"] is None
