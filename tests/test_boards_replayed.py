"""A replay draws the boards that were seen (issue 21.11), for every game: the live state
(as a player's move made it, and as the database gives it back, keys sorted) and the state
replayed from the recorded moves (their canonical text, as /replay and /record use them) are
drawn byte for byte alike, for onlookers and for each player."""

from __future__ import annotations

import pytest

import engine
import render
from engine import Rng

PLAYERS = {"byop1": ["p0", "p1", "p2"]}


def typed(text: str, rng: Rng) -> str:
    """A move as a player might type it: a swap's cells either way round."""
    if "#" in text and rng.choice([True, False]):
        first, second = text.split("#")
        return f"{second}#{first}"
    return text


@pytest.mark.parametrize("name", engine.game_names())
def test_live_and_replayed_boards_are_drawn_alike(name):
    game = engine.get_game(name)
    players = PLAYERS.get(name, ["p0", "p1"][:game.max_players])
    rng = Rng(7)
    live = replayed = game.new_game(players, seed=11)
    for _ in range(400):
        if game.outcome(live) is not None:
            break
        player = next((p for p in game.awaited(live) if game.legal_actions(live, p)), None)
        if player is None:
            break
        action = game.parse_action(live, player, typed(str(rng.choice(list(game.legal_actions(live, player)))), rng))
        live = game.apply(live, player, action)
        replayed = game.apply(replayed, player, str(action))   # what the events hold
        stored = game.from_json(game.to_json(live))
        for viewer in (None, *players):
            board = render.render_svg(game.view(live, viewer))
            assert render.render_svg(game.view(stored, viewer)) == board
            assert render.render_svg(game.view(replayed, viewer)) == board
