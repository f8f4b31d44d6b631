"""Computer players: they play every game to the end at both levels, they decide from their
seat's view only (fairness, proven against a peeking variant), and the states they rebuild
from a view agree with it."""

from __future__ import annotations

import json

import pytest

import computer
import engine
from computer import global_warming as cgw
from computer import global_warming_board as gwboard
from computer import galaxies as cgal
from computer import relativity as crel
from computer.relativity_threats import ThreatSearch
from engine import Rng
from engine import relativity as erel

RELATIVITY = engine.get_game("relativity")
GW = engine.get_game("global-warming")


def next_seat(game, state):
    """Whose decision the table waits for (in a commit phase, someone who has not chosen)."""
    awaited = game.awaited(state)
    return awaited[0] if awaited else game.to_act(state)[0]


def play(game, seats: dict, seed: int, options=None, max_moves=4000):
    """Play to the end. seats: {player: computer player, or None for uniformly random}."""
    state = game.new_game(list(seats), seed=seed, options=options)
    chooser = Rng(seed + 99)
    for _ in range(max_moves):
        if game.outcome(state) is not None:
            return state
        seat = next_seat(game, state)
        player = seats[seat]
        if player is None:
            action = str(chooser.choice(game.legal_actions(state, seat)))
        else:
            action = player.choose(game.view(state, seat))
        state = game.apply(state, seat, action)   # an illegal answer would raise here
    raise AssertionError("the game did not end")


def random_state(game, players, seed, moves):
    state = game.new_game(players, seed=seed)
    chooser = Rng(seed)
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        seat = next_seat(game, state)
        state = game.apply(state, seat, chooser.choice(game.legal_actions(state, seat)))
    return state


def fast(name, level, seed):
    """Players sized for tests: less search, same code."""
    if name == "relativity" and level == "strong":
        return crel.StrongRelativity(seed, nodes=1500)
    if name == "global-warming" and level == "strong":
        return cgw.StrongGlobalWarming(seed, samples=6)
    if name == "galaxies" and level == "strong":
        return cgal.StrongGalaxies(seed, iterations=40)
    return computer.get_player(name, level, seed)


# --------------------------------------------------------------------------- the package


def test_get_player_knows_games_and_levels():
    assert set(computer.game_names()) >= {"relativity", "global-warming"}
    assert set(computer.game_names()) <= set(engine.game_names())
    for name in computer.game_names():
        for level in computer.LEVELS:
            assert computer.get_player(name, level, 1).level == level
    with pytest.raises(KeyError):
        computer.get_player("chess", "easy")
    with pytest.raises(KeyError):
        computer.get_player("relativity", "grandmaster")


def test_a_player_refuses_a_view_it_should_not_decide_from():
    state = RELATIVITY.new_game(["ann", "bob"], seed=3)
    player = computer.get_player("relativity", "easy", 1)
    with pytest.raises(ValueError):
        player.choose(RELATIVITY.view(state, None))   # a spectator's view
    with pytest.raises(ValueError):
        player.choose(RELATIVITY.view(state, "bob"))  # not bob's turn
    with pytest.raises(ValueError):
        player.choose(GW.view(GW.new_game(["ann", "bob"], seed=3), "ann"))


@pytest.mark.parametrize("name,players", [("relativity", ["ann", "bob"]),
                                          ("global-warming", ["ann", "bob", "cat"])])
def test_same_seed_and_view_give_the_same_decision(name, players):
    game = engine.get_game(name)
    state = random_state(game, players, seed=5, moves=7)
    seat = next_seat(game, state)
    view = game.view(state, seat)
    for level in computer.LEVELS:
        answers = {fast(name, level, 11).choose(view) for _ in range(2)}
        assert len(answers) == 1


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("level", computer.LEVELS)
def test_relativity_to_the_end_against_itself_and_random(level):
    for seed in (1, 2):
        seats = {"ann": fast("relativity", level, seed), "bob": fast("relativity", level, seed + 50)}
        if seed == 2 and level == "strong":
            seats["bob"] = None  # one strong self-play game is enough (they are long)
        assert RELATIVITY.outcome(play(RELATIVITY, seats, seed)).winners
        seats = {"ann": None, "bob": fast("relativity", level, seed)} if seed % 2 else \
            {"ann": fast("relativity", level, seed), "bob": None}
        assert RELATIVITY.outcome(play(RELATIVITY, seats, seed)) is not None


@pytest.mark.parametrize("level", computer.LEVELS)
def test_global_warming_to_the_end_against_itself_and_random(level):
    for seed, n in ((1, 2), (2, 4)):
        names = ["ann", "bob", "cat", "dan"][:n]
        seats = {p: fast("global-warming", level, seed + i) for i, p in enumerate(names)}
        assert GW.outcome(play(GW, seats, seed)) is not None
        seats = {p: (fast("global-warming", level, seed) if i == 0 else None)
                 for i, p in enumerate(names)}
        assert GW.outcome(play(GW, seats, seed)) is not None


@pytest.mark.parametrize("level", computer.LEVELS)
def test_relativity_players_take_a_molecule_one_swap_away(level):
    # Three 5s joined on row 1 (a1 b1 c1), the fourth on d2: Space completes with d1#d2.
    layout = "n4a234/4a2n3a/a235n3/5554n2"   # rows 4..1
    state = RELATIVITY.new_game(["ann", "bob"], seed=1, options={"layouts": [layout]})
    view = RELATIVITY.view(state, "ann")
    after = RELATIVITY.apply(state, "ann", fast("relativity", level, 1).choose(view))
    assert RELATIVITY.scores(after)["ann"] == 1


# --------------------------------------------------------------------------- rebuilt states


def without_log(view):
    """A rebuilt state starts with an empty log (the view shows only the latest events)."""
    return {k: v for k, v in view.items() if k not in ("log", "log_start")}


def test_relativity_determinisation_agrees_with_the_view():
    for moves in (0, 9, 60):
        state = random_state(RELATIVITY, ["ann", "bob"], seed=moves, moves=moves)
        if RELATIVITY.outcome(state) is not None:
            continue
        seat = RELATIVITY.to_act(state)[0]
        view = RELATIVITY.view(state, seat)
        rebuilt = crel.determinise(view, Rng(4))
        assert without_log(RELATIVITY.view(rebuilt, seat)) == without_log(view)


def test_global_warming_determinisation_agrees_with_the_view():
    seen_phases = set()
    for seed in range(6):
        for moves in (0, 3, 9, 20):
            state = random_state(GW, ["ann", "bob", "cat", "dan"], seed=seed, moves=moves)
            if GW.outcome(state) is not None:
                continue
            seat = next_seat(GW, state)
            view = GW.view(state, seat)
            seen_phases.add(view["phase"])
            for k in range(3):
                rebuilt = gwboard.determinise(view, Rng(k))
                assert without_log(GW.view(rebuilt, seat)) == without_log(view)
                assert [str(a) for a in GW.legal_actions(rebuilt, seat)] == \
                    [str(a) for a in GW.legal_actions(state, seat)]
    assert seen_phases == {"commit", "act"}


def test_sink_chances_follow_the_visible_sides():
    # The leftmost coin shows the value 3: one of the four 3s sinks, each as likely.
    state = GW.new_game(["ann", "bob"], seed=2, options={"coins": ["S3:value", "M4:suit",
                                                                  "Ca:value"]})
    chances = gwboard.sink_chances(GW.view(state, "ann"))
    assert set(chances[0]) == {"S3", "M3", "C3", "A3"}
    assert sum(chances[0].values()) == pytest.approx(1)
    # The second coin is a Moon: the worlds where the 3 of Moons sinks first leave it one
    # Moon fewer, so that 3 is a little less likely than the others.
    assert chances[0]["M3"] < chances[0]["S3"] == pytest.approx(chances[0]["C3"])
    assert set(chances[1]) == {"Mn", "Ma", "M2", "M3", "M4", "M5"}
    assert sum(chances[1].values()) == pytest.approx(1)
    assert set(chances[2]) == {"Sa", "Ma", "Ca", "Aa"}


# --------------------------------------------------------------------------- fairness


def hidden_variants(seat="ann"):
    """Global Warming states that differ only in what `seat` cannot see: which 3 lies under
    the leftmost coin (ann stands on one of them), the other two coins' hidden sides, the bag,
    and bob's and cat's secret faces. The views of `seat` are all equal."""
    states = []
    for k, (first, faces) in enumerate([("S3", ("5", "n")), ("M3", ("a", "a")),
                                        ("C3", ("4", "2")), ("A3", ("n", "5"))]):
        options = {"starts": ["S3", "Mn", "A5"],
                   "coins": [f"{first}:value", f"M{'4' if k % 2 else '2'}:suit",
                             f"{'Ca' if k < 2 else 'Sa'}:value"]}
        state = GW.new_game(["ann", "bob", "cat"], seed=8, options=options)
        state = GW.apply(state, "bob", faces[0])
        state = GW.apply(state, "cat", faces[1])
        states.append(state)
    views = [GW.view(s, seat) for s in states]
    assert all(v == views[0] for v in views), "the variants must look the same to the seat"
    assert len({GW.to_json(s) for s in states}) == len(states)
    return states


class PeekingStrong(cgw.StrongGlobalWarming):
    """A cheat for the test: it is handed the full state and knows which tile sinks (in the
    chances it reads and the worlds it searches)."""

    def choose_from_state(self, state, seat):
        true_tile = state["data"]["line"][0][0]
        view = GW.view(state, seat)
        original = gwboard._worlds

        def peeking(afloat, sides):
            worlds = original(afloat, sides)
            return [w for w in worlds if w[0] == true_tile] or worlds
        gwboard._worlds = peeking
        try:
            return self.choose(view)
        finally:
            gwboard._worlds = original


def decisions(decide, states, seat="ann"):
    return {decide(state, seat) for state in states}


def test_global_warming_decisions_ignore_what_the_seat_cannot_see():
    states = hidden_variants()
    for level in computer.LEVELS:
        player = fast("global-warming", level, 21)
        assert len(decisions(lambda s, p: player.choose(GW.view(s, p)), states)) == 1
    # The same check catches a player that reads the state.
    cheat = PeekingStrong(21)
    assert len(decisions(cheat.choose_from_state, states)) > 1


def test_global_warming_act_decisions_ignore_hidden_coins():
    # ann acts (5 steps) while the leftmost coin shows a 3 whose tile is hidden.
    states = []
    for first in ("S3", "M3", "C3", "A3"):
        state = GW.new_game(["ann", "bob", "cat"], seed=8, options={
            "starts": ["S3", "Mn", "A5"], "coins": [f"{first}:value", "M2:suit", "Ca:value"]})
        for player, face in (("ann", "5"), ("bob", "a"), ("cat", "a")):
            state = GW.apply(state, player, face)
        states.append(state)
    assert len({json_view(GW.view(s, "ann")) for s in states}) == 1
    player = fast("global-warming", "strong", 3)
    assert len(decisions(lambda s, p: player.choose(GW.view(s, p)), states)) == 1


def json_view(view):
    return json.dumps(view, sort_keys=True)


def test_relativity_decisions_ignore_the_hidden_day_board():
    night = "n45a5n/3a2243/3n4a2n/a25345"
    states = [RELATIVITY.new_game(["ann", "bob"], seed=1, options={"layouts": [night, day]})
              for day in ("2n45a2/34n553/a4na23/5a34n2", "a25345/3n4a2n/3a2243/n45a5n")]
    assert RELATIVITY.view(states[0], "ann") == RELATIVITY.view(states[1], "ann")
    for level in computer.LEVELS:
        player = fast("relativity", level, 4)
        assert len(decisions(lambda s, p: player.choose(RELATIVITY.view(s, p)), states)) == 1


def night_near_its_end(seed=2):
    """A Relativity state late in the Night (four Moon trophies won), where the search looks
    past the Night into a Day board it cannot see."""
    seats = {"ann": fast("relativity", "strong", seed), "bob": None}
    state = RELATIVITY.new_game(list(seats), seed=seed)
    chooser = Rng(seed)
    while sum(p is not None for p in state["data"]["trophies"]["night"].values()) < 4:
        assert state["data"]["round"] == "night"
        seat = RELATIVITY.to_act(state)[0]
        player = seats[seat]
        action = player.choose(RELATIVITY.view(state, seat)) if player else \
            str(chooser.choice(RELATIVITY.legal_actions(state, seat)))
        state = RELATIVITY.apply(state, seat, action)
    return state


def test_relativity_search_and_draw_judgement_ignore_the_day_board_late_in_the_night():
    state = night_near_its_end()
    seat = RELATIVITY.to_act(state)[0]
    twins = [RELATIVITY.resample_hidden(state, seat, seed=k) for k in range(4)]
    assert len({str(t["data"]["boards"][1]) for t in twins}) == 4
    assert all(RELATIVITY.view(t, seat) == RELATIVITY.view(state, seat) for t in twins)
    for level in computer.LEVELS:
        player = fast("relativity", level, 6)
        assert len(decisions(lambda s, p: player.choose(RELATIVITY.view(s, p)), twins, seat)) == 1
        for who in state["players"]:   # (a draw is judged on either player's turn)
            assert len({player.answer_draw(RELATIVITY.view(t, who)) for t in twins}) == 1
            assert len({player.offers_draw(RELATIVITY.view(t, who)) for t in twins}) == 1
    # A player that reads the true Day board is caught by the same check: the Day boards of the
    # twins differ, so a swap chosen from them differs.
    assert len(decisions(lambda s, p: s["data"]["boards"][1][:4], twins, seat)) > 1


def test_relativity_players_are_deterministic_for_a_seed():
    state = night_near_its_end(seed=3)
    seat = RELATIVITY.to_act(state)[0]
    view = RELATIVITY.view(state, seat)
    for level in computer.LEVELS:
        first = [computer.get_player("relativity", level, 9).choose(view) for _ in range(2)]
        assert first[0] == first[1]
        judged = {computer.get_player("relativity", level, 9).answer_draw(view) for _ in range(2)}
        assert len(judged) == 1
    # The strong search is bounded by nodes, not time: the same answer with the same budget.
    answers = {crel.StrongRelativity(9, nodes=3000).choose(view) for _ in range(3)}
    assert len(answers) == 1


def chain_of_threats_position():
    """A Day position (ann is Time, to move) where one swap, a2#f2, forces a trophy by a chain
    of two threats: it threatens a molecule, and whatever bob blocks with, ann has a swap
    leaving two threats that no single swap stops. Found in a game between two easy players."""
    state = engine.thaw(RELATIVITY.new_game(["ann", "bob"], seed=0))
    state["data"].update({
        "round": "day", "coins": erel.layout_to_coins("a55543/322523/3nnna2/44a4an"),
        "turn": "time", "last_swap": ["e2", "f3"],
        "trophies": {"night": {"n": "bob", "a": None, "2": "ann", "3": "bob", "4": "ann", "5": "ann"},
                     "day": {"n": "ann", "a": None, "2": None, "3": None, "4": None, "5": "ann"}}})
    return engine.freeze(state)


def forces_trophy(pos, me: int, threats: int) -> bool:
    """Brute force over every reply (the other to move): whether `me` takes a trophy whatever
    the other plays, within `threats` more swaps of its own, the other taking none first."""
    theirs = pos.counts[1 - me]
    for reply in pos.moves():
        token = pos.play(reply)
        try:
            if pos.counts[1 - me] > theirs:
                return False
            if pos.finishing(pos.role):
                continue
            if threats == 1 or not any(after_swap(pos, m, me, threats - 1) for m in pos.moves()):
                return False
        finally:
            pos.undo(token)
    return True


def after_swap(pos, move, me: int, threats: int) -> bool:
    token = pos.play(move)
    try:
        return pos.winner is None and forces_trophy(pos, me, threats)
    finally:
        pos.undo(token)


def test_relativity_strong_forces_a_trophy_by_a_chain_of_threats():
    state = chain_of_threats_position()
    choice = computer.get_player("relativity", "strong", 5).choose(RELATIVITY.view(state, "ann"))
    a, b = sorted(erel.CELL_INDEX[c] for c in choice.split("#"))
    assert after_swap(crel.Position(state), (a, b), 0, 2), choice
    # (the three-ply search alone played a4#f2, which bob answers safely)
    assert not after_swap(crel.Position(state), (erel.CELL_INDEX["a4"], erel.CELL_INDEX["f2"]), 0, 2)


def test_relativity_threat_search_is_bounded_and_finds_nothing_when_every_threat_is_answered():
    state = chain_of_threats_position()
    pos = crel.Position(state)
    search = ThreatSearch(nodes=50)
    assert search.find(pos, 3) is None and search.used == 51   # out of budget: no move
    # Bob to move instead: he has no chain, the search says so within its budget.
    state = engine.thaw(state)
    state["data"]["turn"] = "space"
    pos = crel.Position(engine.freeze(state))
    search = ThreatSearch(nodes=20_000)
    assert search.find(pos, 1) is None and search.used < 20_000


def test_relativity_strong_knows_the_positions_met_in_the_round():
    state = RELATIVITY.new_game(["ann", "bob"], seed=4)
    chooser = Rng(4)
    met = []
    for _ in range(12):
        seat = RELATIVITY.to_act(state)[0]
        met.append((state["data"]["coins"], state["data"]["turn"]))
        state = RELATIVITY.apply(state, seat, chooser.choice(RELATIVITY.legal_actions(state, seat)))
    assert RELATIVITY.scores(state) == {"ann": 0, "bob": 0}
    view = RELATIVITY.view(state, RELATIVITY.to_act(state)[0])
    now = (state["data"]["coins"], state["data"]["turn"])
    assert crel.seen_in_round(view) == set(met) | {now}


def test_the_default_draw_judgement_declines_and_never_offers():
    view = GALAXIES.view(GALAXIES.new_game(["ann", "bob"], seed=1), "ann")
    player = computer.get_player("byop1", "easy", 1)
    assert player.answer_draw(view) == (False, "I would rather play on.")
    assert player.offers_draw(view) is False


# --------------------------------------------------------------------------- Galaxies, BYOP1

GALAXIES = engine.get_game("galaxies")
BYOP1 = engine.get_game("byop1")


@pytest.mark.parametrize("level", computer.LEVELS)
def test_galaxies_to_the_end_against_itself_and_random(level):
    for seed in (1, 2):
        seats = {"ann": fast("galaxies", level, seed), "bob": fast("galaxies", level, seed + 9)}
        assert GALAXIES.outcome(play(GALAXIES, seats, seed)) is not None
        seats["bob" if seed == 1 else "ann"] = None
        assert GALAXIES.outcome(play(GALAXIES, seats, seed)) is not None


def test_galaxies_determinisation_agrees_with_the_view():
    phases = set()
    for seed in range(5):
        for moves in (0, 1, 3, 6, 11):
            state = random_state(GALAXIES, ["ann", "bob"], seed=seed, moves=moves)
            if GALAXIES.outcome(state) is not None:
                continue
            seat = next_seat(GALAXIES, state)
            view = GALAXIES.view(state, seat)
            phases.add(view["phase"])
            for k in range(3):
                rebuilt = cgal.determinise(view, Rng(k))
                assert without_log(GALAXIES.view(rebuilt, seat)) == without_log(view)
    assert phases == {"commit", "resolve"}


def test_galaxies_decisions_ignore_the_hidden_hand_path_and_card():
    for moves in (1, 4, 9):   # bob has chosen his card (hidden); later, hands differ too
        state = random_state(GALAXIES, ["ann", "bob"], seed=3, moves=moves)
        seat = next_seat(GALAXIES, state)
        twins = [GALAXIES.resample_hidden(state, seat, seed=k) for k in range(8)]
        assert all(GALAXIES.view(t, seat) == GALAXIES.view(state, seat) for t in twins)
        for level in computer.LEVELS:
            player = fast("galaxies", level, 5)
            assert len(decisions(lambda s, p: player.choose(GALAXIES.view(s, p)), twins, seat)) == 1
    # A player that reads the other's hand is caught by the same check.
    state = random_state(GALAXIES, ["ann", "bob"], seed=3, moves=4)
    seat = next_seat(GALAXIES, state)
    twins = [GALAXIES.resample_hidden(state, seat, seed=k) for k in range(8)]
    other = next(p for p in state["players"] if p != seat)

    def peeking(s, p):   # plays what the other would least like, knowing their next draw
        return {"form": "shift", "merge": "merge", "shift": "system"}[s["data"]["path"][other][0]]
    assert len(decisions(peeking, twins, seat)) > 1


def test_byop1_solver_players_finish_their_boards():
    for level in computer.LEVELS:
        seats = {"ann": computer.get_player("byop1", level, 1), "bob": None}
        state = play(BYOP1, seats, seed=4, options={"rounds": 1})
        assert BYOP1.outcome(state) is not None
        history = state["data"]["history"]
        assert history and "ann" in str(history)
        alone = play(BYOP1, {"ann": computer.get_player("byop1", level, 2)}, seed=6)
        assert BYOP1.outcome(alone).winners == ("ann",)
    strong, easy = (computer.get_player("byop1", lvl, 1) for lvl in ("strong", "easy"))
    assert strong.delay("UUDL") < easy.delay("UUDL")
