"""Interactions that act take turns on the event loop (bot.commands.tree.Turns); autocomplete
takes none, so a player typing is answered while a wave of moves waits for its turns."""

from __future__ import annotations

import asyncio

from bot.commands.tree import Turns
from bot.flow import UserError
from tests.botkit import fake, open_game, running_bot  # noqa: F401


async def test_autocomplete_is_answered_while_moves_wait_for_their_turns(fake, tmp_path):
    async with running_bot(fake, tmp_path / "db.sqlite3") as bot:
        host, guest = fake.add_user("host"), fake.add_user("guest")
        row, thread = await open_game(fake, bot, host, guest)
        bot.tree.turns = Turns(2, longest=30, wait=30)
        entered, release = [], asyncio.Event()

        async def act(*args, **kwargs):   # a move that holds its turn until released
            entered.append(args)
            await release.wait()
            raise UserError("not now")

        bot.flow.act = act
        moves = [asyncio.create_task(fake.slash(host, "move", {"move": "a1#b2"}, channel=thread))
                 for _ in range(4)]
        await fake.wait_for(lambda: len(entered) == 2)
        choices = await fake.autocomplete(host, "move", {"move": ""}, focused="move", channel=thread)
        assert choices   # answered while two moves hold the turns and two wait for one
        assert len(entered) == 2 and not any(m.done() for m in moves[2:])
        release.set()
        for move in moves:
            assert "not now" in (await (await move).done()).text
        assert len(entered) == 4


async def test_a_button_waits_for_a_turn_too(fake, tmp_path):
    async with running_bot(fake, tmp_path / "db.sqlite3") as bot:
        host, guest = fake.add_user("host"), fake.add_user("guest")
        row, thread = await open_game(fake, bot, host, guest)
        bot.tree.turns = Turns(1, longest=30, wait=30)
        async with bot.tree.turns.turn():   # the one turn, taken
            press = asyncio.create_task(fake.click(host, fake.messages(thread)[-1].custom_ids()[0]))
            await asyncio.sleep(0.2)
            assert not press.done()
        await (await press).done()


async def test_a_turn_held_too_long_is_given_up_and_none_waits_too_long():
    turns = Turns(1, longest=0.05, wait=10)
    async with turns.turn():
        await asyncio.sleep(0.1)   # (a handler asleep on a rate limit, say)
        await asyncio.wait_for(_take(turns), 1)   # its turn was given up meanwhile
    turns = Turns(1, longest=10, wait=0.05)
    async with turns.turn():
        await asyncio.wait_for(_take(turns), 1)   # on without a turn after 0.05 s


async def _take(turns: Turns) -> None:
    async with turns.turn():
        pass
