"""The game-independent core, through Relativity and a tiny three-seat game defined here."""

from __future__ import annotations

import json

import pytest

import engine
from engine import (
    FrozenDict, Game, GameError, IllegalAction, InvalidAction, NotYourTurn, Outcome, Prompt, Rng,
    freeze, thaw,
)

REL = engine.get_game("relativity")
ALICE, BOB, CAROL = "alice", "bob", "carol"


def new(seed=3):
    return REL.new_game([ALICE, BOB], seed=seed)


def any_move(state):
    (player,) = REL.to_act(state)
    return REL.apply(state, player, REL.legal_actions(state, player)[0])


class Countdown(Game):
    """Three seats take turns saying `tick`; whoever brings the count to zero wins."""

    name = "countdown"
    title = "Countdown"
    min_players = 2
    max_players = 3

    def _setup(self, players, rng, options):
        return {"count": options.get("count", 5), "turn": 0}

    def _to_act(self, state):
        return (state["players"][state["data"]["turn"]],)

    def _legal_actions(self, state, player):
        return ["tick"]

    def _parse(self, state, player, text):
        if text.lower() != "tick":
            raise InvalidAction("Say tick.")
        return "tick"

    def _apply(self, s, player, action, rng):
        s["data"]["count"] -= 1
        self._log(s, f"{player} ticks", event="tick")
        self._advance(s)

    def _advance(self, s):
        seats = len(s["players"])
        turn = s["data"]["turn"]
        for step in range(1, seats + 1):
            if s["players"][(turn + step) % seats] not in s["left"]:
                s["data"]["turn"] = (turn + step) % seats
                return

    def _drop_player(self, s, player, reason):
        if s["players"][s["data"]["turn"]] == player:
            self._advance(s)

    def _result(self, state):
        if state["data"]["count"] > 0:
            return None
        turn = state["data"]["turn"]
        last = state["players"][(turn - 1) % len(state["players"])]
        return Outcome((last,), f"{last} reached zero")

    def _view(self, state, viewer):
        return {"count": state["data"]["count"]}


COUNTDOWN = Countdown()


# --------------------------------------------------------------------------- registry


def test_registry_lists_and_finds_games():
    assert "relativity" in engine.game_names()
    assert engine.get_game("relativity") is engine.get_game("relativity")


def test_unknown_game_raises_key_error_listing_the_names():
    with pytest.raises(KeyError) as info:
        engine.get_game("chess")
    message = str(info.value)
    assert "chess" in message
    for name in engine.game_names():
        assert name in message


# --------------------------------------------------------------------------- values


def test_freeze_makes_deeply_immutable_values_and_thaw_undoes_it():
    data = {"a": [1, {"b": [2, 3]}], "c": None, "d": "x", "e": True}
    frozen = freeze(data)
    assert isinstance(frozen, FrozenDict) and isinstance(frozen["a"], tuple)
    assert isinstance(frozen["a"][1], FrozenDict)
    assert frozen == {"a": (1, {"b": (2, 3)}), "c": None, "d": "x", "e": True}
    for attempt in (lambda: frozen.__setitem__("a", 1), lambda: frozen["a"][1].pop("b"),
                    lambda: frozen.update(z=1), lambda: frozen.clear(), lambda: frozen.setdefault("q", 1),
                    lambda: frozen.__ior__({"z": 1}), lambda: frozen.__init__(z=1)):
        with pytest.raises(TypeError):
            attempt()
    assert thaw(frozen) == data
    plain = thaw(frozen)
    plain["a"][1]["b"].append(4)
    assert frozen["a"][1]["b"] == (2, 3)
    assert hash(frozen["a"][1]) == hash(freeze({"b": [2, 3]}))
    assert json.loads(json.dumps(frozen)) == data


@pytest.mark.parametrize("bad", [{1: "x"}, {"x": 1.5}, {"x": {1, 2}}, {"x": object()}])
def test_freeze_refuses_what_json_cannot_round_trip(bad):
    with pytest.raises(TypeError):
        freeze(bad)


def test_freeze_shares_parts_that_are_frozen_already():
    inner = freeze({"k": [1]})
    assert freeze({"outer": inner})["outer"] is inner


def test_states_are_immutable_and_apply_leaves_the_old_state_alone():
    state = new()
    text = REL.to_json(state)
    with pytest.raises(TypeError):
        state["move_number"] = 9
    with pytest.raises(TypeError):
        state["data"]["trophies"]["night"]["n"] = ALICE
    after = any_move(state)
    assert REL.to_json(state) == text
    assert after != state and after["move_number"] == 1


def test_json_round_trip_is_exact_through_a_game():
    state = new()
    for _ in range(40):
        again = REL.from_json(REL.to_json(state))
        assert again == state and REL.to_json(again) == REL.to_json(state)
        assert isinstance(again, FrozenDict)
        assert REL.view(again, ALICE) == REL.view(state, ALICE)
        state = any_move(state)
    state = REL.offer_draw(state, BOB)
    assert REL.from_json(REL.to_json(state)) == state


def test_a_state_of_another_game_is_refused():
    other = COUNTDOWN.new_game([ALICE, BOB], seed=1)
    with pytest.raises(GameError, match="not a Relativity game"):
        REL.to_act(other)
    with pytest.raises(GameError):
        REL.from_json(COUNTDOWN.to_json(other))


def test_new_game_checks_seats_and_records_the_seed():
    with pytest.raises(GameError, match="one seat"):
        REL.new_game([ALICE, ALICE], seed=1)
    with pytest.raises(GameError, match="exactly 2"):
        REL.new_game([ALICE, BOB, CAROL], seed=1)
    assert new(8) == new(8) and new(8) != new(9)
    unseeded = REL.new_game([ALICE, BOB])
    assert isinstance(unseeded["seed"], int)
    assert REL.new_game([ALICE, BOB], seed=unseeded["seed"]) == unseeded


def test_log_keeps_every_public_event_in_order():
    state = new()
    for _ in range(30):
        state = any_move(state)
    swaps = [e for e in REL.view(state)["log"] if e.get("event") == "swap"]
    assert [e["n"] for e in swaps] == list(range(30))
    assert all(isinstance(e, FrozenDict) for e in state["log"])


# --------------------------------------------------------------------------- turns and refusals


def test_only_the_player_to_act_may_move():
    state = new()
    (first,) = REL.to_act(state)
    assert first == ALICE and REL.awaited(state) == (ALICE,)
    action = REL.legal_actions(state, ALICE)[0]
    assert REL.legal_actions(state, BOB) == []
    with pytest.raises(NotYourTurn, match="waiting for alice"):
        REL.apply(state, BOB, action)
    with pytest.raises(NotYourTurn, match="not playing"):
        REL.apply(state, "mallory", action)


def test_a_refused_action_changes_nothing():
    state = new()
    text = REL.to_json(state)
    for player, move, error in ((ALICE, "a1#c1", IllegalAction), (ALICE, "zz", InvalidAction),
                                (BOB, "a1#b1", NotYourTurn), (ALICE, "", InvalidAction)):
        with pytest.raises(error):
            REL.apply(state, player, move)
        assert REL.to_json(state) == text
    # the same state still takes a good move
    assert REL.apply(state, ALICE, "a1#b1")["move_number"] == 1


def test_errors_are_one_family_of_value_errors():
    for error in (InvalidAction, IllegalAction, NotYourTurn):
        assert issubclass(error, GameError)
    assert issubclass(GameError, ValueError)


def test_prompt_only_for_a_player_to_act():
    state = new()
    prompt = REL.prompt(state, ALICE)
    assert isinstance(prompt, Prompt) and prompt.player == ALICE and prompt.kind == "public"
    assert REL.prompt(state, BOB) is None


def test_views_are_json_ready_and_only_seated_players_have_one():
    state = any_move(new())
    for viewer in (None, ALICE, BOB):
        view = REL.view(state, viewer)
        json.dumps(view)
        assert view["viewer"] == viewer and view["to_act"] == [BOB] and view["move_number"] == 1
    with pytest.raises(GameError):
        REL.view(state, "mallory")


# --------------------------------------------------------------------------- resigning


@pytest.mark.parametrize("quitter, winner", [(ALICE, BOB), (BOB, ALICE)])
def test_any_seated_player_may_resign_at_any_time(quitter, winner):
    state = new()
    assert REL.to_act(state) == (ALICE,)
    after = REL.resign(state, quitter)
    outcome = REL.outcome(after)
    assert outcome.winners == (winner,) and not outcome.draw and quitter in outcome.reason
    assert REL.to_act(after) == () and REL.legal_actions(after, winner) == []
    assert REL.view(after)["left"] == [quitter]
    with pytest.raises(IllegalAction, match="over"):
        REL.resign(after, winner)
    with pytest.raises(IllegalAction, match="over"):
        REL.apply(after, winner, "a1#b1")


def test_only_a_seated_player_may_resign():
    with pytest.raises(NotYourTurn):
        REL.resign(new(), "mallory")


def test_with_three_seats_a_resignation_leaves_the_others_playing():
    state = COUNTDOWN.new_game([ALICE, BOB, CAROL], seed=1)
    state = COUNTDOWN.resign(state, ALICE)             # alice was to act
    assert COUNTDOWN.outcome(state) is None
    assert COUNTDOWN.to_act(state) == (BOB,)
    with pytest.raises(NotYourTurn, match="left"):
        COUNTDOWN.apply(state, ALICE, "tick")
    state = COUNTDOWN.apply(state, BOB, "tick")
    assert COUNTDOWN.to_act(state) == (CAROL,)
    state = COUNTDOWN.resign(state, BOB)
    assert COUNTDOWN.outcome(state).winners == (CAROL,)


# --------------------------------------------------------------------------- draws


def test_draw_offer_accepted():
    state = REL.offer_draw(new(), BOB)                 # not bob's turn: offers are any time
    assert REL.view(state)["draw_offer"] == {"by": BOB, "accepted": [BOB]}
    assert REL.outcome(state) is None
    with pytest.raises(IllegalAction, match="already standing"):
        REL.offer_draw(state, BOB)
    with pytest.raises(IllegalAction, match="offered already"):
        REL.offer_draw(state, ALICE)
    with pytest.raises(IllegalAction, match="already agreed"):
        REL.accept_draw(state, BOB)
    state = REL.accept_draw(state, ALICE)
    outcome = REL.outcome(state)
    assert outcome.draw and outcome.winners == ()
    assert REL.to_act(state) == ()


def test_draw_offer_declined_or_withdrawn():
    offered = REL.offer_draw(new(), ALICE)
    for who in (BOB, ALICE):                           # bob declines; alice withdraws
        state = REL.decline_draw(offered, who)
        assert state["draw_offer"] is None and REL.outcome(state) is None
        with pytest.raises(IllegalAction, match="no draw offer"):
            REL.accept_draw(state, BOB)
    with pytest.raises(IllegalAction, match="no draw offer"):
        REL.decline_draw(new(), BOB)


def test_a_move_lets_a_standing_draw_offer_lapse():
    state = REL.offer_draw(new(), BOB)
    state = any_move(state)
    assert state["draw_offer"] is None
    with pytest.raises(IllegalAction):
        REL.accept_draw(state, ALICE)


def test_draw_needs_every_remaining_player():
    state = COUNTDOWN.new_game([ALICE, BOB, CAROL], seed=1)
    state = COUNTDOWN.offer_draw(state, ALICE)
    state = COUNTDOWN.accept_draw(state, BOB)
    assert COUNTDOWN.outcome(state) is None
    state = COUNTDOWN.accept_draw(state, CAROL)
    assert COUNTDOWN.outcome(state).draw


def test_outsiders_take_no_part_in_draws():
    with pytest.raises(NotYourTurn):
        REL.offer_draw(new(), "mallory")
    with pytest.raises(NotYourTurn):
        REL.accept_draw(REL.offer_draw(new(), ALICE), "mallory")


# --------------------------------------------------------------------------- deadlines


def test_expiry_costs_the_awaited_player_the_game():
    state = new()
    late = REL.expire(state)
    assert REL.outcome(late).winners == (BOB,)
    assert "time" in REL.outcome(late).reason
    later = REL.expire(any_move(state))
    assert REL.outcome(later).winners == (ALICE,)
    with pytest.raises(IllegalAction):
        REL.expire(late)


def test_expiry_with_three_seats_drops_only_the_awaited_player():
    state = COUNTDOWN.expire(COUNTDOWN.new_game([ALICE, BOB, CAROL], seed=1))
    assert COUNTDOWN.outcome(state) is None
    assert state["left"] == (ALICE,) and COUNTDOWN.to_act(state) == (BOB,)


def test_play_to_the_end_through_the_contract():
    state = COUNTDOWN.new_game([ALICE, BOB], seed=1, options={"count": 3})
    for player in (ALICE, BOB, ALICE):
        state = COUNTDOWN.apply(state, player, "tick")
    assert COUNTDOWN.outcome(state) == Outcome((ALICE,), "alice reached zero")
    assert COUNTDOWN.to_act(state) == ()


# --------------------------------------------------------------------------- chance


def test_rng_is_deterministic_and_its_state_is_one_int():
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    assert a.state == b.state and isinstance(a.state, int)
    resumed = Rng(a.state)
    assert [resumed.below(10) for _ in range(20)] == [a.below(10) for _ in range(20)]
    assert Rng(1).next64() != Rng(2).next64()


def test_rng_helpers_stay_in_range():
    rng = Rng(7)
    draws = [rng.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert sorted(rng.shuffled(range(10))) == list(range(10))
    assert rng.choice("xyz") in "xyz"
    assert {rng.coin() for _ in range(50)} == {True, False}
    with pytest.raises(ValueError):
        rng.below(0)
    # The stream is fixed forever: a game replays the same on any Python.
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_long_games_share_the_log_and_views_carry_a_window_of_it():
    from engine import core

    state = REL.new_game(["a", "b"], seed=2)
    rng = core.Rng(5)
    while len(state["log"]) <= core.VIEW_LOG + 3:
        player = REL.to_act(state)[0]
        before = state
        state = REL.apply(state, player, rng.choice(REL.legal_actions(state, player)))
        # the earlier entries are the very same objects: nothing re-frozen per move
        assert all(a is b for a, b in zip(before["log"], state["log"]))
    view = REL.view(state, None)
    assert view["log"] == [core.thaw(e) for e in state["log"][-core.VIEW_LOG:]]
    assert view["log_start"] == len(state["log"]) - core.VIEW_LOG
    assert REL.from_json(REL.to_json(state)) == state
