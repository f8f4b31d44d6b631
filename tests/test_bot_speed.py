"""Costs that must not grow with a game: views carry a window of the log (and the bot still
posts every new line), one move builds each view once, and delivered boards are not kept."""

from __future__ import annotations

import asyncio

import engine
from engine import core
from tests.botkit import drawn, fake, open_game, running_bot, settle, said  # noqa: F401

GAME = engine.get_game("relativity")


async def play_random_moves(fake, bot, row, thread, moves: int, seed: int = 4) -> list[str]:
    """/move random legal moves; returns the log entries' texts (with names) of each move."""
    chooser = core.Rng(seed)
    names = row.names
    posted = []
    for _ in range(moves):
        current = await bot.store.get_game(row.id)
        state = GAME.from_json(current.state)
        if GAME.outcome(state) is not None:
            break
        (player,) = GAME.to_act(state)
        action = str(chooser.choice(GAME.legal_actions(state, player)))
        res = await fake.slash(player, "move", {"move": action}, channel=thread)
        await res.done()
        await settle(bot)
        after = GAME.from_json((await bot.store.get_game(row.id)).state)
        new = after["log"][len(state["log"]):]
        posted.append([bot_text(e["text"], names) for e in new])
    return posted


def bot_text(text: str, names: dict) -> str:
    from bot import texts
    return texts.with_names(text, names)


async def test_every_log_line_is_posted_past_the_view_window(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        lines = await play_random_moves(fake, bot, row, thread, core.VIEW_LOG + 6)
        state = GAME.from_json((await bot.store.get_game(row.id)).state)
        assert len(state["log"]) > core.VIEW_LOG   # the view's window was passed
        posts = "\n".join(m.text for m in fake.messages(thread))
        for new in lines:
            assert new and all(line in posts for line in new)
        # The latest board shows the view's window of the log, not the whole game's.
        latest = list(drawn.values())[-1]
        assert len(latest["log"]) == core.VIEW_LOG
        assert latest["log_start"] == len(state["log"]) - core.VIEW_LOG


async def test_a_move_builds_each_view_once(fake, drawn, tmp_path, monkeypatch):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        built = []
        real_view = type(GAME).view

        def counting(self, state, viewer=None):
            built.append((state["move_number"], viewer))
            return real_view(self, state, viewer)

        monkeypatch.setattr(type(GAME), "view", counting)
        await play_random_moves(fake, bot, row, thread, 1)
        assert built and len(built) == len(set(built))


async def test_the_boards_of_a_batch_are_drawn_at_once_and_sent_in_order(fake, tmp_path):
    from tests.botkit import command, press

    users = [fake.add_user(n) for n in ("ann", "ben", "cat", "dan")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        drawing, most = set(), []

        async def slow_png(board, priority=0):
            drawing.add(id(board))
            most.append(len(drawing))
            await asyncio.sleep(0.02)
            drawing.discard(id(board))
            return b"\x89PNG" + str(board["view"]["viewer"]).encode()

        bot.renderer.png = slow_png
        res = await command(fake, users[0], "play", {"game": "global-warming"})
        lobby = res.original
        for user in users[1:]:
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        await press(fake, users[0], lobby.button("Start"), message_id=lobby.id)
        await settle(bot)
        assert max(most) >= 3   # the thread's board and the DMs' boards together
        for user in users:      # each DM shows its own player's board
            (dm,) = fake.dms(user)
            assert dm.attachments[0][1] == b"\x89PNG" + str(user).encode()


async def test_a_slow_board_of_one_game_does_not_hold_up_another_game(fake, tmp_path):
    ann, ben, cat, dan = (fake.add_user(n) for n in ("ann", "ben", "cat", "dan"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        first, first_thread = await open_game(fake, bot, ann, ben)
        second, second_thread = await open_game(fake, bot, cat, dan)
        await settle(bot)
        release = asyncio.Event()
        real_png = bot.renderer.png

        async def png(board, priority=0):
            if set(board["view"]["players"]) == {str(ann), str(ben)}:
                await release.wait()   # the first game's board takes its time
            return await real_png(board, priority)

        bot.renderer.png = png

        def boards(thread):
            return len([m for m in fake.messages(thread) if m.attachments])

        before = boards(first_thread), boards(second_thread)
        for (row, thread) in ((first, first_thread), (second, second_thread)):
            state = GAME.from_json((await bot.store.get_game(row.id)).state)
            (player,) = GAME.to_act(state)
            await (await fake.slash(player, "move", {"move": str(GAME.legal_actions(state, player)[0])},
                                    channel=thread)).done()
        await fake.wait_for(lambda: boards(second_thread) > before[1])
        assert boards(first_thread) == before[0]   # the first game's board: still drawing
        release.set()
        await settle(bot)
        assert boards(first_thread) > before[0]
