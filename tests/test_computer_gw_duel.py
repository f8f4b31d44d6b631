"""Global Warming strong with two pawns afloat (computer/global_warming_duel.py): the 6x6 game
of faces judged exactly from the view, its solver, and fairness (the same decision whatever the
seat cannot see)."""

from __future__ import annotations

import pytest

import engine
from computer import global_warming as cgw
from computer import global_warming_board as gwboard
from computer import global_warming_duel as duel
from engine import Rng, freeze, thaw
from engine.global_warming import ALL_TILES
from tests.test_computer import next_seat, random_state  # noqa: F401

GW = engine.get_game("global-warming")


def test_the_solver_finds_the_equilibrium_of_known_games():
    mix, value = duel.solve([[1.0, 0.0], [0.0, 1.0]])            # matching pennies
    assert mix == pytest.approx([0.5, 0.5], abs=0.02) and value == pytest.approx(0.5, abs=0.02)
    rps = [[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]]   # rock, paper, scissors
    mix, value = duel.solve(rps)
    assert mix == pytest.approx([1 / 3] * 3, abs=0.02) and value == pytest.approx(0.5, abs=0.02)
    # The second row is worse than the first whatever the column: it is never played.
    mix, value = duel.solve([[0.6, 0.9], [0.2, 0.5], [0.8, 0.1]])
    assert mix[1] == pytest.approx(0.0, abs=0.01)
    assert value == pytest.approx(0.6 * (0.7 / 1.0) + 0.8 * (0.3 / 1.0) - 0.0, abs=0.02)


def island(starts, coins, keep, players=("ann", "bob")):
    """A game of `players` (ann on `starts[0]`, bob on `starts[1]`...) with only the tiles of
    `keep` afloat where it puts them, `coins` in the line and the other kept tiles' coins in
    the bag."""
    state = thaw(GW.new_game(list(players), seed=8, options={"starts": starts, "coins": coins}))
    d = state["data"]
    d["tiles"] = keep
    d["pawns"] = {p: keep[s] for p, s in zip(players, starts)}
    d["sunk"] = [c for c in ALL_TILES if c not in keep]
    in_line = {c.split(":")[0] for c in coins}
    d["bag"] = [[c, "suit"] for c in keep if c not in in_line]
    return freeze(state)


def sinking_corridor():
    """ann on the 3 of Suns, the only 3 afloat, under a coin showing "3": it sinks at the end
    of this turn. The island left is a corridor from her tile, with one more tile beside it;
    bob stands alone on a tile far off, so his steps can only move ann."""
    return island(["S3", "Mn"], ["S3:value", "M2:suit", "Ca:value"],
                  {"S3": [1, 1], "Sa": [2, 1], "Sn": [1, 2], "S2": [3, 1], "S4": [4, 1],
                   "S5": [5, 1], "Mn": [5, 5], "M2": [1, 5], "Ca": [3, 5]})


def test_the_matrix_of_a_pawn_on_a_tile_sure_to_sink():
    state = sinking_corridor()
    view = GW.view(state, "ann")
    assert gwboard.sink_chances(view)[0] == {"S3": 1.0}
    payoff = duel.Duel(view).matrix()
    face = {f: duel.VALUES.index(f) for f in duel.VALUES}
    assert all(payoff[i][i] == 0.0 for i in range(6))   # equal faces cancel: she stays, drowns
    # With null she stays, unless bob's steps (he can move only her) must leave her off: an
    # odd number of them in a corridor.
    assert [payoff[face["n"]][face[f]] > 0 for f in "na2345"] == [False, True, False, True,
                                                                  False, True]
    # With the ace she acts last and steps off after bob's 2 or 4 steps; but his 3 (or 5)
    # can leave her at the dead end 1,2, whose only way out is back onto the sinking tile, and
    # she must make her step.
    assert payoff[face["a"]][face["2"]] > 0.5 and payoff[face["a"]][face["4"]] > 0.5
    assert payoff[face["a"]][face["3"]] == 0.0 and payoff[face["a"]][face["5"]] == 0.0
    mix, value = duel.solve(payoff)
    assert value > 0.3
    assert max(mix) < 0.5   # a mix: a single face would be cancelled by a player who knew it


def test_a_pawn_pushed_back_beside_a_sinking_tile_does_not_step_back_onto_it():
    state = sinking_corridor()
    player = cgw.StrongGlobalWarming(1)
    acting = GW.apply(GW.apply(state, "ann", "3"), "bob", "5")
    acting = GW.apply(acting, "bob", "red right, red right, red left, red right, red left")
    # bob left her one step from the sinking tile; with her 3 steps she must not go back
    assert tuple(acting["data"]["pawns"]["ann"]) == (2, 1)
    text = player.choose(GW.view(acting, "ann"))
    after = GW.apply(acting, "ann", text)
    assert tuple(after["data"]["pawns"]["ann"]) != (1, 1)


@pytest.mark.parametrize("moves", [0, 1, 2, 3, 5, 6, 9, 12])
def test_duel_decides_the_same_whatever_the_seat_cannot_see(moves):
    state = random_state(GW, ["ann", "bob"], seed=13, moves=moves)
    if GW.outcome(state) is not None:
        pytest.skip("the game ended")
    seat = next_seat(GW, state)
    twins = [GW.resample_hidden(state, seat, seed=k) for k in range(6)]
    assert all(GW.view(t, seat) == GW.view(state, seat) for t in twins)
    views = [GW.view(t, seat) for t in twins]
    assert len({repr(duel.Duel(v).matrix()) for v in views}) == 1
    tables = [duel.Duel(v) for v in views]                # the next turn's table too
    assert len({repr(t.ahead(t.tiles).values) for t in tables}) == 1
    player = cgw.StrongGlobalWarming(4)
    assert len({player.choose(v) for v in views}) == 1


def test_it_leans_on_the_best_answer_to_the_faces_shown():
    # ann must leave her tile; bob showed the ace three times: showing it too would cancel her
    # steps, so her answer is another face, played three times in four.
    view = dict(GW.view(sinking_corridor(), "ann"))
    view["log"] = [{"event": "reveal", "faces": {"ann": "3", "bob": "a"}} for _ in range(3)]
    assert duel.shown_faces(view, "bob") == [0, 3, 0, 0, 0, 0]
    faces = [duel.choose_face(view, Rng(seed)) for seed in range(40)]
    answer = max(set(faces), key=faces.count)
    assert answer != "a" and faces.count(answer) >= 24 and faces.count("a") <= 8
    assert len(set(faces)) > 1   # never wholly predictable


def stranded_choice():
    """ann on the ace of Suns, sure to sink this turn (the only ace afloat), bob alone on a tile
    far off. Her way off: up to the 2 of Suns, sure to sink next turn (the only 2), or right to
    the 3 of Crowns, named by no coin; either is a dead end once her tile has sunk."""
    return island(["Sa", "M4"], ["Sa:value", "S2:value", "M4:suit"],
                  {"Sa": [1, 1], "S2": [1, 2], "C3": [2, 1], "A5": [4, 4], "M4": [5, 5]})


def test_the_next_turn_table_sees_a_pawn_stranded_on_a_tile_sure_to_sink():
    view = GW.view(stranded_choice(), "ann")
    judge = duel.Duel(view)
    table = judge.ahead(judge.tiles)
    assert table.value(((1, 1), (5, 5))) is None        # her tile sinks this turn: no table
    assert table.value(((1, 2), (5, 5))) == 0.0          # alone on the 2, which sinks next turn
    # alone on a tile no coin names, while bob's tile is sure to sink the turn after
    assert table.value(((2, 1), (5, 5))) > 0.5


def test_the_look_ahead_steps_onto_the_tile_that_outlasts_the_next_turn():
    state = stranded_choice()
    acting = GW.apply(GW.apply(state, "ann", "a"), "bob", "n")
    acting = GW.apply(acting, "bob", "pass")
    assert acting["data"]["actor"] == "ann"
    text = cgw.StrongGlobalWarming(1).choose(GW.view(acting, "ann"))
    assert text == "red right"
