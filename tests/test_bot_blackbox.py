"""Whole games of every game played through the bot as players would (/move, with the seats
drawn), autocomplete probed at every step: each suggestion is accepted as it is, and the
suggestions are those a twin state would give (the same for the player, other hidden things).
At the end no post of the game keeps live controls, and no payload pinged anyone but a player.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from bot import ui
from engine.relativity import coins_to_layout
from tests.botkit import command, drawn, fake, press, running_bot, settle  # noqa: F401
from tests.test_bot_fair import live_controls, pinged_by

MAX_ACTIONS = 60   # then the players resign (a random Relativity game runs for hundreds of swaps)


async def probe(fake, bot, game, state, player, thread, rnd) -> None:
    """Autocomplete for `player` from a few beginnings: every value is accepted now, and the
    bot gives what the UI would give on a twin state (dealt again behind the player's back)."""
    adapter = ui.adapter_for(game.name)
    legal = [str(a) for a in game.legal_actions(state, player)]
    typed = ["", rnd.choice(legal)[:2], f"{rnd.choice(legal)}, "]
    twin = game.resample_hidden(state, player, rnd.randrange(1 << 30))
    for text in typed:
        choices = await fake.autocomplete(player, "move", {"move": text}, focused="move", channel=thread)
        assert [c["value"] for c in choices] == \
            [v for v, _ in adapter.suggestions(game, twin, player, text)], (text, player)
        for choice in choices:
            game.apply(state, player, choice["value"])


def day_board_unseen(fake, drawn, state, since: int) -> int:
    """Relativity before Day: no text and no image sent since `since` shows the Day board.
    Returns how far the payloads are checked."""
    layout = coins_to_layout(state["data"]["boards"][1])
    for record in fake.all_payloads[since:]:
        assert layout not in json.dumps(record.body)
        for _, content in record.files:
            assert drawn[content]["layout"] != layout
    return len(fake.all_payloads)


@pytest.mark.parametrize("name, players", [("relativity", 2), ("global-warming", 3), ("galaxies", 2)])
async def test_whole_games_through_the_bot(fake, drawn, tmp_path, name, players):
    rnd = random.Random(5)
    game = engine.get_game(name)
    users = [fake.add_user(n) for n in ("alice", "bob", "carol")[:players]]
    fake.close_dms(users[-1])
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=21, draw_seats=True) as bot:
        lobby = (await command(fake, users[0], "play", {"game": name})).original
        for user in users[1:]:
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        if game.min_players != game.max_players:
            await press(fake, users[0], lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(users[0]), statuses=("active",))
        thread = str(row.thread_id)
        checked = 0
        for _ in range(MAX_ACTIONS):
            await settle(bot)
            row = await bot.store.get_game(row.id)
            state = bot.flow.state_of(row)
            if name == "relativity" and state["data"]["round"] == "night":
                checked = day_board_unseen(fake, drawn, state, checked)
            if game.outcome(state) is not None:
                break
            player = rnd.choice([p for p in game.awaited(state)] or list(game.to_act(state)))
            await probe(fake, bot, game, state, player, thread, rnd)
            action = rnd.choice([str(a) for a in game.legal_actions(state, player)])
            res = await command(fake, player, "move", {"move": action, "game": row.id})
            assert any("Played" in m.text or "choice" in m.text for m in res.messages), res.text
        else:
            # a long game: end it (resigning is part of playing too)
            for player in game.to_act(state):
                await command(fake, player, "resign", {"game": row.id})
        await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "finished"
        assert live_controls(fake, row.id) == []
        for record in fake.all_payloads:
            assert pinged_by(record) <= set(users), record
