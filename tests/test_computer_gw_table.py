"""Global Warming strong at a table of three or four (computer/global_warming_search.py,
`FaceChoice`): the faces it expects of the others, its own face against them, the duel once
two pawns are left, and fairness (nothing hidden changes what it judges)."""

from __future__ import annotations

import engine
from computer import global_warming as cgw
from computer import global_warming_duel as duel
from computer import global_warming_board as gwb
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
    choice = cgws.FaceChoice(cgws.TurnModel(view), view, Rng(1))
    every = [(1.0, {"bob": b, "cat": c}) for b in VALUES for c in VALUES]
    gains = dict(zip(VALUES, choice.gains("ann", every)))
    # null cannot take her off her tile; a number can, unless it is cancelled or a tile move
    # cuts her corridor first
    assert all(gains["n"] < gains[f] for f in NUMBERS)
    assert gains["n"] < 0.2 < max(gains.values())
    shares = choice.expected("ann", 36)
    assert abs(sum(shares) - 1.0) < 1e-9
    assert shares[VALUES.index("n")] < max(shares) / 4


def test_a_face_another_player_is_sure_to_show_is_one_to_avoid_when_a_tile_sinks():
    view = GW.view(ann_must_leave(), "ann")
    choice = cgws.FaceChoice(cgws.TurnModel(view), view, Rng(1))
    sure = {"bob": [1.0 if f == "4" else 0.0 for f in VALUES],
            "cat": [1.0 if f == "3" else 0.0 for f in VALUES]}
    assert cgws.likely_faces(sure) == [(1.0, {"bob": "4", "cat": "3"})]
    gains = dict(zip(VALUES, choice.gains("ann", cgws.likely_faces(sure))))
    # showing bob's 4 or cat's 3 cancels it: she stays on the tile that sinks
    assert gains["4"] < 0.2 and gains["3"] < 0.2 and max(gains.values()) > 0.2


def test_the_combinations_of_faces_too_unlikely_to_matter_are_left_out():
    nearly_sure = [0.99] + [0.002] * 5
    combos = cgws.likely_faces({"bob": nearly_sure, "cat": nearly_sure, "dan": nearly_sure})
    # one rare face among three is kept (0.99^2 x 0.002), two are not (0.99 x 0.002^2)
    assert len(combos) == 1 + 3 * 5
    assert 0.999 < sum(c for c, _ in combos) < 1.0
    assert len(cgws.likely_faces({"bob": [1 / 6] * 6, "cat": [1 / 6] * 6, "dan": [1 / 6] * 6})) == 216


def test_the_faces_a_player_has_shown_weigh_in():
    view = dict(GW.view(ann_must_leave(), "bob"))
    view["log"] = [{"event": "reveal", "faces": {"ann": "4", "bob": "a", "cat": "2"}}] * 5
    choice = cgws.FaceChoice(cgws.TurnModel(view), view, Rng(1))
    shares = choice.expected("ann", 12)
    assert max(range(6), key=lambda i: shares[i]) == VALUES.index("4")
    assert shares[VALUES.index("4")] > 0.5


def test_strong_at_a_table_of_three_shows_a_number_when_its_tile_sinks():
    view = GW.view(ann_must_leave(), "ann")
    faces = {cgw.StrongGlobalWarming(seed).choose(view) for seed in range(6)}
    assert faces <= set(NUMBERS)


def at_a_commit(seed: int, moves: int):
    """A four-player game after `moves` random moves, played on to the next commit phase."""
    state = random_state(GW, ["ann", "bob", "cat", "dan"], seed=seed, moves=moves)
    while state["data"]["phase"] != "commit":
        seat = next_seat(GW, state)
        state = GW.apply(state, seat, Rng(seed).choice(GW.legal_actions(state, seat)))
    return state


def test_a_turn_played_out_leaves_the_pawns_and_tiles_where_the_engine_does():
    """The model plays turns on plain positions, not through the engine: the actions it takes
    there (each actor's first candidate) leave the island as the engine's rules do."""
    checked = 0
    for seed in range(6):
        state = at_a_commit(seed, moves=4 * (seed % 3))
        view = GW.view(state, next_seat(GW, state))
        model = cgws.TurnModel(view)
        rng = Rng(seed)
        for _ in range(8):
            faces = {p: rng.choice(VALUES) for p in GW.awaited(state)}
            after = state
            for p, face in faces.items():
                after = GW.apply(after, p, face)
            tiles, pawns = model.tiles, model.pawns
            for actor, steps in cgws.turns_of(faces):
                while list(GW.to_act(after)) == [actor]:
                    options = model.options(tiles, pawns, actor, faces[actor], steps)
                    text, tiles, pawns, steps = options[0]
                    after = GW.apply(after, actor, text)
                    assert island_before_the_sink(after) == (tiles, pawns)
                    checked += 1
    assert checked > 50


def test_steps_that_no_candidate_uses_are_taken_one_at_a_time_as_the_engine_offers_them():
    # ann's tile stands alone; bob and cat on a corridor where no push puts them at more risk:
    # none of ann's candidates uses her two steps, so she takes the engine's first step, twice.
    state = island(["S3", "Mn", "A5"], ["S3:value", "A5:value"],
                   {"S3": [1, 1], "Mn": [4, 4], "M2": [4, 3], "Ca": [4, 2], "A5": [4, 1]},
                   players=("ann", "bob", "cat"))
    faces = {"ann": "2", "bob": "a", "cat": "a"}
    model = cgws.TurnModel(GW.view(state, "ann"))
    after = state
    for p, face in faces.items():
        after = GW.apply(after, p, face)
    tiles, pawns, steps, texts = model.tiles, model.pawns, 2, []
    while steps:
        text, tiles, pawns, steps = model.options(tiles, pawns, "ann", "2", steps)[0]
        texts.append(text)
        after = GW.apply(after, "ann", text)
        assert island_before_the_sink(after) == (tiles, pawns)
    assert texts == ["black down", "black up"] and pawns["bob"] == (4, 4)
    assert GW.view(after, "ann")["phase"] == "commit"


def test_strong_acts_when_a_later_actor_has_left_the_game():
    state = GW.new_game(["ann", "bob", "cat", "dan"], seed=3)
    for p, face in {"ann": "5", "bob": "4", "cat": "3", "dan": "2"}.items():
        state = GW.apply(state, p, face)
    state = GW.resign(state, "cat")   # due to act third: skipped
    view = GW.view(state, "ann")
    action = cgw.StrongGlobalWarming(1).choose(view)
    assert GW.to_act(GW.apply(state, "ann", action)) == ("bob",)


def island_before_the_sink(state):
    """{position: tile}, {player: position} as this turn's actions left them."""
    d = state["data"]
    tiles = {tuple(q): code for code, q in d["tiles"].items()}
    pawns = {p: tuple(q) for p, q in d["pawns"].items() if q is not None}
    if d["phase"] == "commit" or GW.outcome(state) is not None:   # the turn is over
        sink = next(e for e in reversed(state["log"]) if e.get("event") == "sink")
        tiles[tuple(sink["pos"])] = sink["tile"]
        for e in state["log"][state["log"].index(sink):]:
            if e.get("event") == "drowned":
                pawns[e["player"]] = tuple(sink["pos"])
    return tiles, pawns


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


def test_one_pawns_walks_are_those_the_engine_allows():
    """`placements` of one pawn (the searches' commonest call): every walk it finds is a legal
    action that the engine takes to that place."""
    checked = 0
    for seed in range(8):
        state = at_a_commit(seed, moves=4 * (seed % 4))
        faces = dict(zip(GW.awaited(state), ["5", "4", "3", "2"]))
        for p, face in faces.items():
            state = GW.apply(state, p, face)
        actor = GW.to_act(state)[0]
        view = GW.view(state, actor)
        board = gwb.Board.from_view(view)
        for (pos,), path in gwb.placements(board, (actor,), view["steps_left"]).items():
            after = GW.apply(state, actor, ", ".join(path))
            assert tuple(after["data"]["pawns"][actor]) == pos
            checked += 1
    assert checked > 20
