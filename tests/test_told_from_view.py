"""What the bot tells a player depends only on what that player may know, and what it suggests
is accepted: for every game, at random reachable states.

For each player, the state is compared with a twin the engine deals again behind the player's
back (`Game.resample_hidden`: others' secret choices, face-down pieces, future chance): the
player's view is the same, so every answer of the game's UI adapter must be the same too:
/move autocomplete for many typed beginnings, the private controls and their note, the public
controls, the confirmation of each suggested move, the stamp of the player's buttons. An answer
computed from a dry run of the move on the full state (which may turn a hidden coin at the end
of a turn) differs between the twins and fails here.

Every autocomplete suggestion must also be a move the engine accepts as it is.
"""

from __future__ import annotations

import pytest

import engine
from bot import ui
from engine import Rng

NAMES = {"p0": "ann", "p1": "bob", "p2": "cy", "p3": "dee"}
STATES_PER_GAME = 30
TWINS = 1


def reachable_states(game, seed: int, count: int) -> list:
    """States met along seeded random games (all seats), until `count` are collected."""
    chooser = Rng(seed)
    states = []
    game_seed = seed
    while len(states) < count:
        players = list(NAMES)[:game.max_players]
        state = game.new_game(players, seed=game_seed)
        game_seed += 1
        while game.outcome(state) is None and len(states) < count:
            if chooser.below(4) == 0:
                states.append(state)
            acting = list(game.to_act(state))
            player = chooser.choice(acting)
            actions = [str(a) for a in game.legal_actions(state, player)]
            state = game.apply(state, player, chooser.choice(actions))
    return states


def typed_beginnings(game, adapter, state, player, chooser) -> list[str]:
    """What a player might have typed: nothing, bits of legal moves, whole moves followed by
    a comma (and then bits of what the suggestions offer after it), two commas deep."""
    typed = ["", "zz", ",", "red up, "]
    actions = [str(a) for a in game.legal_actions(state, player)]
    for action in chooser.shuffled(actions)[:4]:
        typed += [action[:1], action[:3], action, f"{action}, ", f"{action},"]
    for text in list(typed):
        if text.endswith(", "):
            for value, _ in chooser.shuffled(adapter.suggestions(game, state, player, text))[:2]:
                typed += [f"{value}, ", f"{value}, {value.rpartition(', ')[2][:2]}"]
    return typed


def answers(game, adapter, state, player, typed: list[str]) -> dict:
    """Everything the UI tells `player` (and the public controls), from this state."""
    out = {"prompt": (game.prompt(state, player) or None) and game.prompt(state, player).text,
           "stamp": ui.stamp(game, state, player),
           "controls": adapter.player_controls(7, game, state, player, NAMES)}
    out["suggest"] = {t: adapter.suggestions(game, state, player, t) for t in typed}
    values = {v for pairs in out["suggest"].values() for v, _ in pairs}
    out["describe"] = {v: adapter.describe_action(game, state, player, v) for v in sorted(values)}
    return out


@pytest.mark.parametrize("name", engine.game_names())
def test_every_answer_to_a_player_depends_only_on_their_view(name):
    game = engine.get_game(name)
    adapter = ui.adapter_for(name)
    chooser = Rng(99)
    checked = 0
    for n, state in enumerate(reachable_states(game, 1000, STATES_PER_GAME)):
        try:
            game.resample_hidden(state, None, 1)
        except NotImplementedError:
            pytest.fail(f"{name} must implement _resample_hidden (what each player cannot see)")
        for player in state["players"]:
            typed = typed_beginnings(game, adapter, state, player, chooser)
            here = answers(game, adapter, state, player, typed)
            for k in range(TWINS):
                twin = game.resample_hidden(state, player, seed=n * 10 + k)
                assert game.view(twin, player) == game.view(state, player)
                assert answers(game, adapter, twin, player, typed) == here, (name, n, player)
                checked += 1
        # the public controls under the board: the same for every spectator's twin
        public = adapter.turn_controls(7, game, state, game.view(state, None), NAMES)
        twin = game.resample_hidden(state, None, seed=n)
        assert game.view(twin, None) == game.view(state, None)
        assert adapter.turn_controls(7, game, twin, game.view(twin, None), NAMES) == public
    assert checked >= STATES_PER_GAME


@pytest.mark.parametrize("name", engine.game_names())
def test_every_autocomplete_suggestion_is_accepted(name):
    game = engine.get_game(name)
    adapter = ui.adapter_for(name)
    chooser = Rng(7)
    offered = 0
    for state in reachable_states(game, 2000, STATES_PER_GAME):
        for player in game.to_act(state):
            values = set()
            for text in typed_beginnings(game, adapter, state, player, chooser):
                for value, label in adapter.suggestions(game, state, player, text):
                    assert len(value) <= 100 and 1 <= len(label)
                    values.add(value)
            for value in sorted(values):
                game.apply(state, player, game.parse_action(state, player, value))
                offered += 1
    assert offered > STATES_PER_GAME


def test_a_multi_step_suggestion_never_looks_past_the_turn():
    """Global Warming: the last actor's steps that end the turn. The suggestions after them
    are the same whichever tile the leftmost coin hides (and are not next turn's die faces)."""
    game = engine.get_game("global-warming")
    for state in reachable_states(game, 3000, 400):
        view = game.view(state, None)
        if view["phase"] != "act" or view["steps_left"] is None:
            continue
        actor = view["actor"]
        if view["reveal"]["order"][-1] != actor:
            continue
        steps = [str(a) for a in game.legal_actions(state, actor)]
        head = steps[0]
        for _ in range(view["steps_left"] - 1):
            going_on = game.continuations(state, actor, head)
            head = f"{head}, {going_on.parts[0]}"
        values = [v for v, _ in ui.adapter_for(game.name).suggestions(game, state, actor, head + ", ")]
        assert values == [head]   # no step left: only the steps as typed
        return
    pytest.fail("no last actor found")
