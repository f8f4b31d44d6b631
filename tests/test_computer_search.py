"""The strong players of the games with hidden information: Galaxies' search over the seat's
information set (computer/search.py) samples worlds only from the view; Global Warming's turn
played out (computer/global_warming_search.py) judges nothing by what is hidden; both decide
the same whatever the seat cannot see, and the same for the same seed and view."""

from __future__ import annotations

import pytest

import engine
from computer import galaxies as cgal
from computer import global_warming as cgw
from computer import global_warming_search as cgws
from computer.search import search
from engine import Rng
from engine.piecepack import VALUES
from tests.test_computer import next_seat, random_state  # noqa: F401

GW = engine.get_game("global-warming")
GALAXIES = engine.get_game("galaxies")


def strong(game, seed):
    if game is GW:
        return cgw.StrongGlobalWarming(seed, samples=8)
    return cgal.StrongGalaxies(seed, iterations=40)


class Counting:
    """A model that passes everything to the game's own, counting the worlds drawn and
    checking each was drawn from the view the search was given."""

    def __init__(self, model, view):
        self.model, self.view, self.worlds = model, view, 0

    def __getattr__(self, name):
        return getattr(self.model, name)

    def determinise(self, view, rng):
        assert view is self.view
        self.worlds += 1
        return self.model.determinise(view, rng)


@pytest.mark.parametrize("moves", [1, 5])
def test_every_iteration_searches_a_world_drawn_from_the_view(moves):
    state = random_state(GALAXIES, ["ann", "bob"], seed=4, moves=moves)
    view = GALAXIES.view(state, next_seat(GALAXIES, state))
    counting = Counting(cgal.SearchModel(), view)
    action = search(counting, view, Rng(1), iterations=25)
    assert counting.worlds == 25
    assert action in {str(a) for a in GALAXIES.legal_actions(state, view["viewer"])}


@pytest.mark.parametrize("game,players,moves", [
    (GW, ["ann", "bob"], 1), (GW, ["ann", "bob", "cat", "dan"], 3),   # others have chosen
    (GW, ["ann", "bob", "cat"], 5), (GW, ["ann", "bob"], 9),           # acting, later turns
    (GALAXIES, ["ann", "bob"], 1), (GALAXIES, ["ann", "bob"], 3),
    (GALAXIES, ["ann", "bob"], 8), (GALAXIES, ["ann", "bob"], 13)])
def test_strong_decides_the_same_whatever_the_seat_cannot_see(game, players, moves):
    state = random_state(game, players, seed=7, moves=moves)
    seat = next_seat(game, state)
    twins = [game.resample_hidden(state, seat, seed=k) for k in range(6)]
    assert all(game.view(t, seat) == game.view(state, seat) for t in twins)
    assert len({game.to_json(t) for t in twins}) > 1, "the twins must differ in what is hidden"
    player = strong(game, seed=3)
    assert len({player.choose(game.view(t, seat)) for t in twins}) == 1


@pytest.mark.parametrize("game,players", [(GW, ["ann", "bob", "cat"]), (GALAXIES, ["ann", "bob"])])
def test_the_same_seed_and_view_give_the_same_move(game, players):
    for moves in (0, 4, 7):
        state = random_state(game, players, seed=11, moves=moves)
        view = game.view(state, next_seat(game, state))
        assert strong(game, 5).choose(view) == strong(game, 5).choose(view)


def test_global_warming_strong_steps_off_a_tile_that_may_sink_now():
    # ann stands on the 3 of Suns; the leftmost coin shows a 3, so her tile may sink at the
    # end of this turn, and she has four steps to get away.
    state = GW.new_game(["ann", "bob"], seed=8, options={
        "starts": ["S3", "Mn"], "coins": ["S3:value", "M2:suit", "Ca:value"]})
    state = GW.apply(GW.apply(state, "ann", "4"), "bob", "a")
    action = strong(GW, 1).choose(GW.view(state, "ann"))
    after = GW.apply(state, "ann", action)
    x, y = after["data"]["pawns"]["ann"]
    tile = next(code for code, p in after["data"]["tiles"].items() if tuple(p) == (x, y))
    assert tile[1] != "3"


def test_a_turn_played_out_from_the_true_state_is_caught_by_the_same_check():
    # Twins that differ in which 3 sinks at the end of this turn; ann stands on the 3 of Suns
    # at a table of three.
    twins = []
    for first in ("S3", "M3", "C3", "A3"):
        state = GW.new_game(["ann", "bob", "cat"], seed=8, options={
            "starts": ["S3", "Mn", "A5"], "coins": [f"{first}:value", "M2:suit", "Ca:value"]})
        twins.append(state)
    assert all(GW.view(t, "ann") == GW.view(twins[0], "ann") for t in twins)
    every = [(1.0, {"bob": b, "cat": c}) for b in VALUES for c in VALUES]

    class Peeking(cgws.TurnModel):
        truth = None

        def __init__(self, view):
            super().__init__(view)
            self.root = [{self.truth["data"]["line"][0][0]: 1.0}] + self.root[1:]

    def gains(state, model):
        model.truth = state
        view = GW.view(state, "ann")
        return repr(cgws.FaceChoice(model(view), view, Rng(2)).gains("ann", every))
    assert len({gains(t, Peeking) for t in twins}) > 1
    assert len({gains(t, cgws.TurnModel) for t in twins}) == 1
    fair = strong(GW, 2)
    assert len({fair.choose(GW.view(t, "ann")) for t in twins}) == 1
