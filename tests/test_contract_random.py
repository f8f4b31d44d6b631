"""Random play through the engine contract, for every game listed in GAMES_UNDER_TEST.

Hypothesis picks the seats, the game seed and the seed of the move chooser; each game is then
played to its end by random legal moves, checking the contract's invariants at every step.
Derandomized, so the suite is deterministic.

Random games end on their own (Global Warming sinks a tile every turn): molecules keep forming by chance (over 1,000 seeded
games the longest took 1,716 moves, the median about 600), so a game that has not finished
within MAX_MOVES is a bug, not bad luck.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import GameError, IllegalAction, InvalidAction, NotYourTurn, Rng

GAMES_UNDER_TEST = ["relativity", "global-warming", "galaxies", "byop1"]
# Games whose play can end in a tie (a draw without winners).
MAY_TIE = {"galaxies"}
MAX_MOVES = 5000


CELLS = [f"{c}{r}" for c in "abcdef" for r in "1234"]


def relativity_illegal(game, state, player, chooser):
    """A swap the player to move may not make now (not a partner by their role's power, or
    the reverse of the opponent's last swap)."""
    legal = {str(a) for a in game.legal_actions(state, player)}
    illegal = [f"{a}#{b}" for a in CELLS for b in CELLS if a < b and f"{a}#{b}" not in legal]
    return game.parse_action(state, player, chooser.choice(illegal))


def relativity_checks(game, state, views):
    view = views[None]
    counts = {p: 0 for p in state["players"]}
    for by_value in view["trophies"].values():
        for owner in by_value.values():
            if owner is not None:
                counts[owner] += 1
    assert game.scores(state) == counts == view["trophy_counts"]
    assert len(view["coins"]) == 24
    assert sorted(view["coins"].values()) == sorted("na2345" * 4)
    assert view["turn"] == (game.to_act(state)[0] if game.to_act(state) else None)


def global_warming_illegal(game, state, player, chooser):
    """A die face once the faces are shown, or a tile move while faces are being chosen."""
    if game.view(state, player)["phase"] == "commit":
        return game.parse_action(state, player, "1,1>0,1")
    return game.parse_action(state, player, chooser.choice(["n", "a", "2", "3", "4", "5"]))


def global_warming_checks(game, state, views):
    view = views[None]
    alive = [p for p, where in view["pawns"].items() if where is not None]
    assert not set(alive) & set(view["drowned"])
    places = [tuple((w["x"], w["y"])) for w in view["pawns"].values() if w is not None]
    tiles = {(t["x"], t["y"]) for t in view["island"]}
    assert len(places) == len(set(places)) and set(places) <= tiles  # one pawn a tile, on land
    assert len(view["coin_line"]) <= 3
    for viewer, own in views.items():
        assert own["own_commit"] is None or viewer is not None


def galaxies_illegal(game, state, player, chooser):
    """A card while targets are given, or a target while cards are chosen."""
    if game.view(state, player)["phase"] == "commit":
        return game.parse_action(state, player, "3,1>4,1")
    return game.parse_action(state, player, chooser.choice(["system", "form", "merge", "shift"]))


def galaxies_checks(game, state, views):
    view = views[None]
    cells = [(s["x"], s["y"]) for s in view["stacks"]]
    holes = {(h["x"], h["y"]) for h in view["holes"].values()}
    assert len(cells) == len(set(cells)) and not set(cells) & holes
    assert sum(s["count"] for s in view["stacks"]) <= 8
    assert view["hand"] is None and 1 <= view["turn"] <= 6
    for viewer, own in views.items():
        if viewer is not None:
            assert len(own["hand"]) == view["hand_sizes"][viewer]
            for other in view["players"]:
                if other != viewer:
                    assert {k: v for k, v in own.items() if k not in ("hand", "viewer", "own_commit")} \
                        == {k: v for k, v in views[other].items() if k not in ("hand", "viewer", "own_commit")}


BYOP1_TILES = [v + s for s in "SMCA" for v in "na2345"]


def byop1_illegal(game, state, player, chooser):
    """Five slides one way: the hole can cross at most four cells."""
    return game.parse_action(state, player, chooser.choice("UDLR") * 5)


def byop1_checks(game, state, views):
    view = views[None]
    assert view["board"] is None
    assert set(game.to_act(state)) == set(view["solving"]) - set(state["left"]) \
        or game.outcome(state) is not None
    assert game.scores(state) == view["totals"]
    for viewer, own in views.items():
        if viewer is None or own["board"] is None:
            continue
        # Slides only move tiles about: every tile once, and the hole.
        assert sorted(own["board"]["tiles"]) == sorted(list(BYOP1_TILES) + ["."])
        # Nobody's view holds another player's current board.
        others = [p for p in state["players"] if p != viewer]
        assert not any(p in repr(own["board"]) for p in others)


# Per game: how to make an action the rules refuse now, extra invariants of its own, and the
# log events that are routine moves (any other event makes a checkpoint, see play_randomly).
ILLEGAL = {"relativity": relativity_illegal, "global-warming": global_warming_illegal,
           "galaxies": galaxies_illegal, "byop1": byop1_illegal}
EXTRA_CHECKS = {"relativity": relativity_checks, "global-warming": global_warming_checks,
                "galaxies": galaxies_checks, "byop1": byop1_checks}
ROUTINE_EVENTS = {"relativity": {"swap"}, "global-warming": {"steps", "tile_move", "pass"},
                  "galaxies": set(), "byop1": {"done"}}
# Games whose deadline policy makes the awaited player lose at once (others skip a turn).
TIMEOUT_LOSES = {"relativity"}


def check_state(game, state):
    """The invariants that cost time in proportion to the game so far (the log is in every
    view and in the JSON). Checked at checkpoints, see `play_randomly`."""
    text = game.to_json(state)
    again = game.from_json(text)
    assert again == state and game.to_json(again) == text
    views = {viewer: game.view(state, viewer) for viewer in (None, *state["players"])}
    for view in views.values():
        json.dumps(view)
    if game.name in EXTRA_CHECKS:
        EXTRA_CHECKS[game.name](game, state, views)


def check_refusals(game, state, player, actions, players, chooser):
    """Illegal moves, nonsense text and moves out of turn are refused and change nothing."""
    before = game.to_json(state)
    if game.name in ILLEGAL:
        bad = ILLEGAL[game.name](game, state, player, chooser)
        try:
            game.apply(state, player, bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{bad} was accepted")
    try:
        game.parse_action(state, player, "!! not a move !!")
    except InvalidAction:
        pass
    else:
        raise AssertionError("nonsense text was read as a move")
    waiting = [p for p in players if p not in game.to_act(state)]
    if waiting:
        try:
            game.apply(state, waiting[0], actions[0])
        except NotYourTurn:
            pass
        else:
            raise AssertionError("a player moved out of turn")
    assert game.to_json(state) == before


def play_randomly(game, players, seed, chooser_seed):
    """Play one random game to its end. Cheap invariants hold at every step; those that cost
    O(game length) are checked at checkpoints: the first 20 steps, every 25th step, every step
    after a public event other than a routine move (trophies, rounds, reveals), and the end.
    Checking them at every step makes the test quadratic in game length (minutes, not
    seconds): states do not differ in kind between checkpoints."""
    routine = ROUTINE_EVENTS.get(game.name, set())
    state = game.new_game(players, seed=seed)
    chooser = Rng(chooser_seed)
    log_seen = 0
    for step in range(MAX_MOVES):
        to_act = game.to_act(state)
        new_events = state["log"][log_seen:]
        log_seen = len(state["log"])
        notable = any(e.get("event") not in routine for e in new_events)
        checkpoint = step < 20 or step % 25 == 0 or notable or not to_act
        if checkpoint:
            check_state(game, state)
        if not to_act:
            return state
        player = chooser.choice(to_act)
        actions = game.legal_actions(state, player)
        assert actions, f"{player} must act but has no legal move"
        for other in players:
            if other not in to_act:
                assert game.legal_actions(state, other) == []
        if checkpoint:
            check_refusals(game, state, player, actions, players, chooser)
        action = chooser.choice(actions)
        assert game.parse_action(state, player, str(action)) == action
        state = game.apply(state, player, action)
    raise AssertionError(f"no end after {MAX_MOVES} random moves")


@st.composite
def games(draw):
    name = draw(st.sampled_from(GAMES_UNDER_TEST))
    game = engine.get_game(name)
    seats = draw(st.integers(game.min_players, game.max_players))
    players = [f"p{i}" for i in range(seats)]
    return game, players, draw(st.integers(0, 2**63 - 1)), draw(st.integers(0, 2**64 - 1))


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_games_keep_the_contract_and_end_with_a_winner(case):
    game, players, seed, chooser_seed = case
    state = play_randomly(game, players, seed, chooser_seed)
    outcome = game.outcome(state)
    assert outcome is not None
    # A player alone may fail their puzzle (a fumble): a game without a winner.
    assert (outcome.winners and not outcome.draw) or (game.name in MAY_TIE and outcome.draw) \
        or (len(players) == 1 and not outcome.draw)
    assert set(outcome.winners) <= set(players) and outcome.reason
    assert game.to_act(state) == () and game.awaited(state) == ()
    assert game.view(state)["outcome"]["winners"] == list(outcome.winners)
    try:
        game.apply(state, players[0], "x")
    except GameError:
        pass
    else:
        raise AssertionError("a finished game took a move")


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(games(), st.integers(0, 60), st.integers(0, 2))
def test_resign_or_time_out_at_any_point_ends_the_game(case, moves, how):
    """Whatever the position, a resignation or an expired deadline ends a two-seat game."""
    game, players, seed, chooser_seed = case
    state = game.new_game(players, seed=seed)
    chooser = Rng(chooser_seed)
    for _ in range(moves):
        to_act = game.to_act(state)
        if not to_act:
            return
        player = chooser.choice(to_act)
        state = game.apply(state, player, chooser.choice(game.legal_actions(state, player)))
    if game.outcome(state) is not None or len(players) != 2:
        return
    if how == 0:
        quitter = chooser.choice(players)
        state = game.resign(state, quitter)
        assert game.outcome(state).winners == tuple(p for p in players if p != quitter)
    elif how == 1 and game.name in TIMEOUT_LOSES:
        awaited = game.awaited(state)
        state = game.expire(state)
        assert not set(game.outcome(state).winners) & set(awaited)
    elif how == 1:
        return  # a skipped turn; the game's own tests cover its deadline policy
    elif game.allows_draw:
        state = game.accept_draw(game.offer_draw(state, players[0]), players[1])
        assert game.outcome(state).draw
    else:
        return
    assert game.to_act(state) == ()
    assert game.from_json(game.to_json(state)) == state
