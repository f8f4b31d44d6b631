"""Pack Solitaire through the bot: /play starts at once in a thread, the tile and placement
menus, /move with autocomplete, the board post edited in place, and the result with the best
possible score of the deal and the player's best in the server. Boards are not drawn here
(see tests.botkit.drawn): what each image shows is its view."""

from __future__ import annotations

import asyncio
import json
import re

import engine
from tests.botkit import command, drawn, fake, running_bot, said, settle  # noqa: F401
from tests.test_pack_solitaire import PERFECT_LAYOUT, PERFECT_TILES

GAME = engine.get_game("pack-solitaire")
OPTIONS = "tiles=" + ",".join(PERFECT_TILES)


async def start_game(fake, bot, user):
    res = await command(fake, user, "play", {"game": "pack-solitaire", "options": OPTIONS})
    for _ in range(200):   # the game starts just after /play is answered
        row = (await bot.store.games_of_user(int(user)))[-1]
        if row.status == "active" and row.id in bot.flow.jobs:
            break
        await asyncio.sleep(0.01)
    assert row.status == "active" and row.thread_id, row
    await bot.flow.jobs[row.id]        # the solver, started with the game, off the loop
    await settle(bot)
    return res, row, str(row.thread_id)


async def test_a_whole_game_from_play_to_the_best_score(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        res, row, thread = await start_game(fake, bot, alice)
        assert "in the thread" in res.text and "Join" not in res.text   # no lobby for one
        assert (await bot.store.get_game(row.id)).extras["best"] == 96
        [board] = fake.messages(thread)
        assert f"<@{alice}>" in board.content
        tile_menu = next(c for c in board.custom_ids() if c.startswith("pp:packt:"))
        assert any(c.endswith(":done") for c in board.custom_ids())

        # tile 1 from the menu: its legal places for alice only, then one of them
        step = await (await fake.select(alice, tile_menu, ["1"], message_id=board.id)).done()
        menu = step.messages[-1]
        assert menu.ephemeral and "Tile **1**" in menu.text
        picks = [c for c in menu.custom_ids() if c.startswith("pp:pick:")]
        pick = picks[0]
        # each page of places says which it holds (or, alone, what it is for)
        sizes = [len(menu.select_options(c)) for c in picks]
        expected = [f"Places {sum(sizes[:i]) + 1}-{sum(sizes[:i + 1])}" for i in range(len(picks))] \
            if len(picks) > 1 else ["Choose where it goes"]
        assert [menu.component(c)["placeholder"] for c in picks] == expected
        done = await (await fake.select(alice, pick, ["1@a1/3"], message_id=menu.id)).done()
        assert "1@a1/3" in said(done)
        await settle(bot)

        # the rest by /move, with autocomplete; tile 16 stays in the tray
        choices = await fake.autocomplete(alice, "move", {"move": "2@a2"}, focused="move",
                                          channel=thread)
        assert "2@a2/0" in [c["value"] for c in choices]
        for tile, cell, turn in PERFECT_LAYOUT[1:15]:
            res = await command(fake, alice, "move", {"move": f"{tile}@{cell}/{turn}"}, channel=thread)
            assert res.ephemeral, said(res)
        await settle(bot)
        posts = fake.messages(thread)
        assert len(posts) == 1 and posts[0].id == board.id    # one board post, edited in place
        view = drawn[posts[0].attachments[0][1]]
        assert view["score"] == 88 and len(view["placed"]) == 15

        # a placement that breaks a condition: a short private refusal naming the pair
        state = GAME.from_json((await bot.store.get_game(row.id)).state)
        legal = {str(a) for a in GAME.legal_actions(state, str(alice))}
        bad = next(f"16@d4/{turn}" for turn in range(4) if f"16@d4/{turn}" not in legal)
        refused = await command(fake, alice, "move", {"move": bad}, channel=thread)
        assert "cannot go on d4" in said(refused) and "neither match nor add up to 5" in said(refused)

        finish = next(c for c in fake.message(board.id).custom_ids() if c.endswith(":done"))
        await (await fake.click(alice, finish, message_id=board.id)).done()
        await settle(bot)
        texts = [m.text for m in fake.messages(thread)]
        result = next(t for t in texts if "🏁" in t)
        assert "finished with **88 points of a possible 96**." in result, result
        assert "first finished game" in result
        assert len(re.findall(r"\b88\b", result)) == 1 and "Score" not in result, result   # once
        final = fake.messages(thread)
        shown = [drawn[m.attachments[0][1]] for m in final if m.attachments]
        assert any(v.get("best") == 96 and v["done"] for v in shown)
        assert any("One way to reach 96" in t for t in texts)
        best_view = next(v for v in shown if v.get("title_note"))
        assert best_view["score"] == 96 and len(best_view["placed"]) == 16
        assert (await bot.store.get_game(row.id)).extras["score"] == 88

        # a second game in the server, finished at once: the best so far is the first one's
        _, second, thread2 = await start_game(fake, bot, alice)
        await command(fake, alice, "move", {"move": "done"}, channel=thread2)
        await settle(bot)
        result = next(m.text for m in fake.messages(thread2) if "🏁" in m.text)
        assert "**0 points of a possible 96**" in result and "best so far in this server: 88" in result
        assert result.count("0 points") == 1, result
        assert json.loads((await bot.store.get_game(second.id)).state)["data"]["done"]


async def test_suggestions_follow_what_is_typed_tile_then_cell_then_turn(fake, drawn, tmp_path):
    """`2@` offers tile 2's placements only (not `1@a1/2` nor `12@...`); `2@b2` its turns on
    b2; `2@b2/` the same; a tile's number is not the start of another's (`1` is not `12`)."""
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        _, row, thread = await start_game(fake, bot, alice)
        await command(fake, alice, "move", {"move": "12@c3/0"}, channel=thread)
        await settle(bot)

        async def suggested(text):
            return [c["value"] for c in await fake.autocomplete(alice, "move", {"move": text},
                                                                focused="move", channel=thread)]
        typed_tile = await suggested("2@")
        assert typed_tile and all(v.startswith("2@") for v in typed_tile), typed_tile
        assert await suggested("2@b2") == ["2@b2/0", "2@b2/1", "2@b2/2", "2@b2/3"]
        assert await suggested("2@B2/") == ["2@b2/0", "2@b2/1", "2@b2/2", "2@b2/3"]
        assert await suggested("2@b2/3") == ["2@b2/3"]
        assert all(v.startswith("12@") for v in await suggested("12@"))
        assert "12@off" in await suggested("12@o")
        ones = await suggested("1")
        assert ones and all(v.split("@")[0] in ("1", "10", "11", "12", "13", "14", "15", "16")
                            for v in ones)
        assert await suggested("d") == ["done"]


async def test_the_example_in_a_refusal_can_be_copied_and_played(fake, drawn, tmp_path):
    """A move the game cannot read is answered with examples; each, copied as shown, is a move
    (it used to carry a zero-width space after the `@`: "not a Pack Solitaire move")."""
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        _, row, thread = await start_game(fake, bot, alice)
        refused = said(await command(fake, alice, "move", {"move": "7 to b3"}, channel=thread))
        examples = re.findall(r"`([^`]+)`", refused)
        assert "7@b3/1" in examples and "7@off" in examples, refused
        played = said(await command(fake, alice, "move", {"move": examples[0]}, channel=thread))
        assert "not a Pack Solitaire move" not in played and "7@b3/1" in played, played
        await settle(bot)
        state = GAME.from_json((await bot.store.get_game(row.id)).state)
        assert GAME.view(state)["placed"]["b3"]["tile"] == 7
