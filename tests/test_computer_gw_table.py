"""Global Warming strong at a table of three or four (computer/global_warming_search.py,
`FaceChoice`): the faces it expects of the others, its own face against them, the duel once
two pawns are left, and fairness (nothing hidden changes what it judges)."""

from __future__ import annotations

import engine
from computer import global_warming as cgw
from computer import global_warming_duel as duel
from computer import global_warming_search as cgws
from computer.global_warming_board import pawns_of
from engine import Rng
from engine.piecepack import VALUES
from tests.test_computer import next_seat, random_state
from tests.test_computer_gw_duel import island

GW = engine.get_game("global-warming")
NUMBERS = [f for f in VALUES if f != "n"]


def ann_must_leave():
    """ann on the 3 of Suns, the only 3 afloat, under a coin showing "3": it sinks at the end
    of this turn, and her way off is along a corridor. bob and cat stand far off."""
    return island(["S3", "Mn", "A5"], ["S3:value", "M2:suit", "Ca:value"],
                  {"S3": [1, 1], "Sa": [2, 1], "Sn": [1, 2], "S2": [3, 1], "S4": [4, 1],
                   "S5": [5, 1], "Mn": [5, 5], "M2": [1, 5], "Ca": [3, 5], "A5": [5, 3],
                   "A4": [4, 3]}, players=("ann", "bob", "cat"))


def test_null_is_worst_for_a_player_whose_tile_sinks():
    view = GW.view(ann_must_leave(), "bob")
    choice = cgws.FaceChoice(cgws.TurnModel(), view, Rng(1))
    every = [{"bob": b, "cat": c} for b in VALUES for c in VALUES]
    gains = dict(zip(VALUES, choice.gains("ann", every)))
    # null cannot take her off her tile; a number can, unless it is cancelled or a tile move
    # cuts her corridor first
    assert all(gains["n"] < gains[f] for f in NUMBERS)
    assert gains["n"] < 0.2 < max(gains.values())
    shares = choice.expected("ann", 36)
    assert abs(sum(shares) - 1.0) < 1e-9
    assert shares[VALUES.index("n")] < max(shares) / 4


def test_the_faces_a_player_has_shown_weigh_in():
    view = dict(GW.view(ann_must_leave(), "bob"))
    view["log"] = [{"event": "reveal", "faces": {"ann": "4", "bob": "a", "cat": "2"}}] * 5
    choice = cgws.FaceChoice(cgws.TurnModel(), view, Rng(1))
    shares = choice.expected("ann", 12)
    assert max(range(6), key=lambda i: shares[i]) == VALUES.index("4")
    assert shares[VALUES.index("4")] > 0.5


def test_strong_at_a_table_of_three_shows_a_number_when_its_tile_sinks():
    view = GW.view(ann_must_leave(), "ann")
    faces = {cgw.StrongGlobalWarming(seed).choose(view) for seed in range(6)}
    assert faces <= set(NUMBERS)


def test_a_turns_value_is_the_same_in_every_world_drawn_from_the_view():
    state = random_state(GW, ["ann", "bob", "cat", "dan"], seed=7, moves=2)
    seat = next_seat(GW, state)
    view = GW.view(state, seat)
    assert view["phase"] == "commit"
    choices = [cgws.FaceChoice(cgws.TurnModel(), view, Rng(k)) for k in range(4)]
    hidden = {repr((c.base["data"]["line"], c.base["data"]["bag"])) for c in choices}
    assert len(hidden) > 1, "the worlds drawn must differ in what is hidden"
    players = list(choices[0].committing)
    for k in range(12):
        rng = Rng(100 + k)
        faces = {p: rng.choice(VALUES) for p in players}
        for who in players:
            assert len({round(c.value(faces, who), 12) for c in choices}) == 1


def two_pawns_left_of_four():
    """A game of four, played at random until two pawns are left, at a commit."""
    for seed in range(40):
        state = GW.new_game(["ann", "bob", "cat", "dan"], seed=seed)
        chooser = Rng(seed)
        while GW.outcome(state) is None:
            if len(state["data"]["out"]) == 2 and state["data"]["phase"] == "commit":
                return state
            seat = next_seat(GW, state)
            state = GW.apply(state, seat, chooser.choice(GW.legal_actions(state, seat)))
    raise AssertionError("no game of four came down to two pawns")


def test_with_two_pawns_left_of_four_strong_plays_the_duel():
    state = two_pawns_left_of_four()
    for _ in range(3):   # the commit, and the turn's actions after it
        seat = next_seat(GW, state)
        view = GW.view(state, seat)
        assert len(view["players"]) == 4 and len(pawns_of(view)) == 2
        player = cgw.StrongGlobalWarming(5)
        action = player.choose(view)
        assert action == duel.decide(view, player.rng_for(view))
        state = GW.apply(state, seat, action)
        if GW.outcome(state) is not None or len(state["data"]["out"]) != 2:
            break
