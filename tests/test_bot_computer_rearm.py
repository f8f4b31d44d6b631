"""A computer the game waits for that has lost its timer (an older version's race, a bug) is given
one again when the bot starts, and moves: the game does not wait for it for ever. Through the
fake Discord and the real client, on SQLite and PostgreSQL."""

from __future__ import annotations

import logging

import engine
from bot.flow import COMPUTER_TIMER
from tests.botkit import FakeClock, command, drawn, fake, running_bot  # noqa: F401
from tests.test_bot_computer import against, settle

RELATIVITY = engine.get_game("relativity")


async def vs_computer(fake, bot, person, *, to_move: str):
    """A Relativity game of `person` against an easy computer, played on until `to_move`
    ("computer" or "person") is awaited. Returns (row, the computer's player id)."""
    row, (cpu,) = await against(fake, bot, person, levels=["easy"])
    for _ in range(4):
        await settle(bot)
        row = await bot.store.get_game(row.id)
        state = RELATIVITY.from_json(row.state)
        if (cpu if to_move == "computer" else str(person)) in RELATIVITY.awaited(state):
            return row, cpu
        action = RELATIVITY.legal_actions(state, str(person))[0]
        await command(fake, person, "move", {"move": str(action), "game": row.id})
    raise AssertionError(f"the {to_move} never came to move")


def computer_moves(events, cpu) -> int:
    return len([e for e in events if e["actor"] == cpu and e["kind"] == "move"])


async def test_a_computer_left_without_a_timer_moves_after_a_restart(fake, drawn, tmp_path, caplog):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "db.sqlite3"
    clock = FakeClock()
    async with running_bot(fake, db, seed=99, clock=clock, computer_pace=1.0) as bot:
        stuck, cpu = await vs_computer(fake, bot, alice, to_move="computer")
        waiting, _ = await vs_computer(fake, bot, bob, to_move="person")
        # The stuck state an older version could leave: the computer is awaited, its timer gone.
        await bot.store.engine.execute("DELETE FROM timers WHERE game_id=? AND kind=?",
                                       (stuck.id, COMPUTER_TIMER + cpu))
        assert not [k for k in await bot.store.timers_of(waiting.id) if k.startswith(COMPUTER_TIMER)]
        moved = computer_moves(await bot.store.events(stuck.id), cpu)
    clock.advance(5)
    caplog.set_level(logging.INFO, logger="bot")
    async with running_bot(fake, db, seed=99, clock=clock, computer_pace=1.0) as bot:
        await bot.run_due()   # (after the start's look, whichever ran it first)
        assert COMPUTER_TIMER + cpu in await bot.store.timers_of(stuck.id)
        clock.advance(5)   # its pause passes
        await settle(bot)
        row = await bot.store.get_game(stuck.id)
        assert computer_moves(await bot.store.events(stuck.id), cpu) == moved + 1
        assert row.version == stuck.version + 1
        assert str(alice) in RELATIVITY.awaited(RELATIVITY.from_json(row.state))
        # The game where bob is to move got no computer timer, and did not move.
        assert not [k for k in await bot.store.timers_of(waiting.id) if k.startswith(COMPUTER_TIMER)]
        assert (await bot.store.get_game(waiting.id)).version == waiting.version

        # Lost again later: not looked for at every tick, but again within the hour.
        state = RELATIVITY.from_json(row.state)
        action = RELATIVITY.legal_actions(state, str(alice))[0]
        await command(fake, alice, "move", {"move": str(action), "game": row.id})
        await bot.store.engine.execute("DELETE FROM timers WHERE game_id=? AND kind=?",
                                       (stuck.id, COMPUTER_TIMER + cpu))
        clock.advance(60)
        await bot.run_due()
        assert COMPUTER_TIMER + cpu not in await bot.store.timers_of(stuck.id)
        # (another process's shards: not this one's to re-arm)
        assert await bot.flow.rearm_computers(lambda guild_id: False) == 0
        assert COMPUTER_TIMER + cpu not in await bot.store.timers_of(stuck.id)
        clock.advance(3600)
        await bot.run_due()
        assert COMPUTER_TIMER + cpu in await bot.store.timers_of(stuck.id)
    rearmed = [r.getMessage() for r in caplog.records if "re-armed" in r.getMessage()]
    assert rearmed == [f"re-armed the computers of game {stuck.id} that had no timer"] * 2


async def test_a_computer_that_lost_its_timer_is_rearmed_while_another_keeps_its_own(fake, drawn, tmp_path):
    """Two computers choose at once in Global Warming; one's timer is lost, the other's kept:
    the look finds the game (it counts the timers against the computer seats) and re-arms
    only the one that lost it."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock, computer_pace=1.0) as bot:
        row, (first, second) = await against(fake, bot, alice, "global-warming", ["easy", "strong"])
        timers = await bot.store.timers_of(row.id)
        assert {COMPUTER_TIMER + first, COMPUTER_TIMER + second} <= set(timers)
        await bot.store.engine.execute("DELETE FROM timers WHERE game_id=? AND kind=?",
                                       (row.id, COMPUTER_TIMER + second))
        assert await bot.flow.rearm_computers() == 1
        after = await bot.store.timers_of(row.id)
        assert COMPUTER_TIMER + second in after
        assert after[COMPUTER_TIMER + first].due_at == timers[COMPUTER_TIMER + first].due_at
        assert await bot.flow.rearm_computers() == 0   # (nothing missing now)
