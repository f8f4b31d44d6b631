"""Work done once across processes, through the bot and the fake Discord: a process that dies
(kill -9) holding claims on a due deadline and a computer's turn leaves them to a survivor,
which fires each once within the lease (plus a second); a notice sent again after a crash
between Discord's answer and its recording makes no second message (the nonce); on
PostgreSQL, work queued by another process wakes the worker at once (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

import pytest

import engine
from bot import computers
from bot.flow import COMPUTER_TIMER
from bot.storage import Notice, Store
from tests.botkit import FakeClock, command, drawn, fake, open_game, press, running_bot  # noqa: F401
from tests.pg import database_for

ROOT = Path(__file__).resolve().parents[1]
LEASE = 2.0

# Another process of the bot, as far as the database can tell: it claims every timer due (as a
# bot's worker does, with its lease) and is then killed before it fires any.
CLAIMER = """
import asyncio, sys, time
from bot.storage import Store

async def main():
    store = await Store.open(sys.argv[1])
    wall = time.time()
    timers = await store.claim_timers("dead-process", float(sys.argv[2]), wall, wall + float(sys.argv[3]))
    print(" ".join(t.kind for t in timers), flush=True)
    time.sleep(600)

asyncio.run(main())
"""


async def test_a_dead_processs_claims_are_taken_over_once_within_the_lease(fake, drawn, tmp_path):
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    db = tmp_path / "db.sqlite3"
    clock = FakeClock()
    relativity = engine.get_game("relativity")
    async with running_bot(fake, db, seed=5, clock=clock, computer_pace=1.0,
                           lease_seconds=LEASE) as bot:
        timed, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        res = await command(fake, carol, "play", {"game": "relativity"})
        lobby = res.original
        await press(fake, carol, lobby.button("Add computer (easy)"), message_id=lobby.id)
        (versus,) = [r for r in await bot.store.games_of_user(int(carol)) if r.status == "active"]
        cpu = next(p for p in versus.player_ids if computers.is_computer(p))
        for _ in range(3):   # until it is the computer's turn
            await bot.run_due()
            versus = await bot.store.get_game(versus.id)
            state = relativity.from_json(versus.state)
            if cpu in relativity.awaited(state):
                break
            action = relativity.legal_actions(state, str(carol))[0]
            await command(fake, carol, "move", {"move": str(action), "game": versus.id})
        assert cpu in relativity.awaited(state)
        clock.advance(2 * 86400)   # the deadline and the computer's pause have passed
        claimer = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CLAIMER, database_for(db), str(clock()), str(LEASE),
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=asyncio.subprocess.PIPE)
        try:
            claimed = (await asyncio.wait_for(claimer.stdout.readline(), 30)).decode().split()
            claimed_at = time.time()
        finally:
            claimer.send_signal(signal.SIGKILL)
            await claimer.wait()
        assert {"deadline", COMPUTER_TIMER + cpu} <= set(claimed)

        async def count(game_id, kind, actor=None):
            return len([e for e in await bot.store.events(game_id)
                        if e["kind"] == kind and (actor is None or e["actor"] == actor)])

        await bot.run_due()   # held by the dead process: not fired yet
        assert await count(timed.id, "expire") == 0
        assert await count(versus.id, "move", cpu) == 0
        # the survivor looks again when the lease lapses: within the bound
        assert await bot.store.next_wake(clock(), time.time()) <= LEASE
        while time.time() < claimed_at + LEASE:
            await asyncio.sleep(0.1)
        for _ in range(3):
            await bot.run_due()
            await bot.flow.computers_idle()
        assert await count(timed.id, "expire") == 1
        assert await count(versus.id, "move", cpu) == 1
        passed = [m for m in fake.messages(thread) if "The deadline passed" in m.content]
        assert len(passed) == 1


async def test_a_notice_sent_again_after_a_crash_makes_no_second_message(fake, tmp_path):
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, db) as bot:
        channel = int(fake.channel_id)
        await bot.store.add_notices(None, [Notice("channel", channel, {"content": "once only"})],
                                    bot.now())
        await bot.run_due()
        # the bot stopped after Discord's answer, before it recorded the delivery
        await bot.store.engine.execute("UPDATE outbox SET delivered_at=NULL, message_id=NULL")
        await bot.run_due()
        posts = [m for m in fake.messages(channel) if m.content == "once only"]
        assert len(posts) == 1
        (row,) = await bot.store.outbox_rows()
        assert row["message_id"] == int(posts[0].id) and row["delivered_at"] is not None


@pytest.mark.postgresql_only
async def test_work_queued_by_another_process_wakes_the_worker_at_once(fake, tmp_path):
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, db) as bot:
        await asyncio.sleep(0.3)   # (the worker is idle: nothing is due for a minute)
        other = await Store.open(database_for(db))
        try:
            channel = int(fake.channel_id)
            sent_at = time.monotonic()
            await other.add_notices(None, [Notice("channel", channel, {"content": "from afar"})],
                                    bot.now())
            await fake.wait_for(lambda: [m for m in fake.messages(channel) if m.content == "from afar"],
                                timeout=5)
            assert time.monotonic() - sent_at < 0.5
            # the listener's connection drops: it connects again, and hears again
            async def listener() -> int | None:
                async with other.engine.connection() as tx:
                    row = await tx.first("SELECT pid FROM pg_stat_activity WHERE datname = "
                                         "current_database() AND application_name = "
                                         "'piecepack-bot listener'")
                return row and row[0]

            dropped = await listener()
            await other.engine.execute("SELECT pg_terminate_backend(?)", (dropped,))
            for _ in range(100):
                if await listener() not in (None, dropped) and bot.store.engine.listening:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the listener did not connect again")
            sent_at = time.monotonic()
            await other.add_notices(None, [Notice("channel", channel, {"content": "again"})],
                                    bot.now())
            await fake.wait_for(lambda: [m for m in fake.messages(channel) if m.content == "again"],
                                timeout=5)
            assert time.monotonic() - sent_at < 0.5
        finally:
            await other.close()


async def test_two_bots_on_one_database_do_each_piece_of_work_once(fake, drawn, tmp_path):
    people = [fake.add_user(f"p{i}") for i in range(8)]
    db = tmp_path / "db.sqlite3"
    clock = FakeClock()
    async with running_bot(fake, db, seed=3, clock=clock, lease_seconds=LEASE) as a:
        games = [await open_game(fake, a, people[i], people[i + 1], deadline="1d")
                 for i in range(0, 8, 2)]
        async with running_bot(fake, db, seed=3, clock=clock, lease_seconds=LEASE) as b:
            clock.advance(2 * 86400)   # every deadline has passed
            for _ in range(3):
                await asyncio.gather(a.run_due(), b.run_due())
            for row, thread in games:
                expired = [e for e in await a.store.events(row.id) if e["kind"] == "expire"]
                assert len(expired) == 1
                passed = [m for m in fake.messages(thread) if "The deadline passed" in m.content]
                assert len(passed) == 1
            # every notice became one message, and a game's messages came in the order queued
            rows = await a.store.outbox_rows()
            assert all(r["delivered_at"] is not None for r in rows)
            sent = [r for r in rows if r["edit_of"] is None and r["message_id"] is not None]
            assert len({r["message_id"] for r in sent}) == len(sent)
            for row, thread in games:
                ids = [r["message_id"] for r in sent if r["game_id"] == row.id
                       and r["target_kind"] == "channel" and r["target_id"] == int(thread)]
                assert ids == sorted(ids)


@pytest.mark.sqlite_only   # (no database)
def test_a_restarted_process_frees_only_its_machines_ended_processes_claims():
    import subprocess

    from bot.work import claimant, dead_claimants

    me = claimant()
    host = me.rsplit(":", 2)[0]
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    alive = os.getppid()
    claims = {me, f"{host}:{os.getpid()}:abcdef", f"{host}:{ended.pid}:123456",
              f"{host}:{alive}:654321", f"elsewhere:{ended.pid}:123456", "dead-process"}
    assert sorted(dead_claimants(claims, me)) == sorted(
        [f"{host}:{os.getpid()}:abcdef", f"{host}:{ended.pid}:123456"])


def counted(bot, name: str, asked: dict, gate: asyncio.Event | None = None):
    """Count the bot's computers' decisions (under `name`), each waiting for `gate` first."""
    real = bot.flow.thinker.decide

    async def decide(*args):
        asked[name] += 1
        if gate is not None:
            await gate.wait()
        return await real(*args)

    bot.flow.thinker.decide = decide


async def until_the_computers_turn(fake, bot, human, row):
    relativity = engine.get_game("relativity")
    cpu = next(p for p in row.player_ids if computers.is_computer(p))
    for _ in range(3):
        await bot.run_due()
        row = await bot.store.get_game(row.id)
        state = relativity.from_json(row.state)
        if cpu in relativity.awaited(state):
            return cpu
        action = relativity.legal_actions(state, str(human))[0]
        await command(fake, human, "move", {"move": str(action), "game": row.id})
    raise AssertionError("the computer's turn did not come")


async def test_a_computer_thinking_holds_its_turn_and_a_stopped_process_leaves_it(fake, drawn, tmp_path):
    """While a computer thinks, its turn's timer stays claimed by its process (renewed), however
    long it takes: another process does not think too. A process that stops meanwhile leaves
    the turn to the other, which moves once."""
    carol = fake.add_user("carol")
    db = tmp_path / "db.sqlite3"
    clock = FakeClock()
    asked = {"a": 0, "b": 0}
    gate = asyncio.Event()
    async with running_bot(fake, db, seed=5, clock=clock, lease_seconds=LEASE) as b:
        await b.worker.stop()   # (each works when the test says: run_due)
        counted(b, "b", asked)
        async with running_bot(fake, db, seed=5, clock=clock, lease_seconds=LEASE) as a:
            await a.worker.stop()
            counted(a, "a", asked, gate)
            res = await command(fake, carol, "play", {"game": "relativity"})   # (to A: the newer)
            await press(fake, carol, res.original.button("Add computer (easy)"), message_id=res.original.id)
            (row,) = [r for r in await a.store.games_of_user(int(carol)) if r.status == "active"]
            cpu = await until_the_computers_turn(fake, a, carol, row)
            clock.advance(10)
            await a.run_due()
            assert asked == {"a": 1, "b": 0}
            started = time.time()
            while time.time() < started + 2 * LEASE:   # long past its lease and the old retry
                clock.advance(20)
                await b.run_due()
                await asyncio.sleep(0.1)
            assert asked == {"a": 1, "b": 0}
            gate.set()
            await a.flow.computers_idle()
            moves = [e for e in await a.store.events(row.id) if e["kind"] == "move" and e["actor"] == cpu]
            assert len(moves) == 1

            # its next turn: A stops while the computer thinks; B takes the turn over at once
            gate.clear()
            await until_the_computers_turn(fake, a, carol, await a.store.get_game(row.id))
            clock.advance(10)
            await a.run_due()
            assert asked == {"a": 2, "b": 0}
        await b.run_due()
        await b.flow.computers_idle()
        assert asked == {"a": 2, "b": 1}
        moves = [e for e in await b.store.events(row.id) if e["kind"] == "move" and e["actor"] == cpu]
        assert len(moves) == 2


async def test_a_solver_runs_once_and_a_stopped_process_leaves_it_to_another(fake, monkeypatch, tmp_path):
    """A game's background work (Pack Solitaire's best score) is claimed by the process that
    starts the game: another does not start it too, however long it takes; if that process
    stops before the answer, another does the work and stores it."""
    import threading

    import bot.ui.pack_solitaire

    calls = []
    gate = threading.Event()

    def best_of_deal(tiles):
        calls.append(threading.get_ident())
        gate.wait(10)
        return {"best": 7, "best_layout": []}

    monkeypatch.setattr(bot.ui.pack_solitaire, "best_of_deal", best_of_deal)
    carol = fake.add_user("carol")
    db = tmp_path / "db.sqlite3"
    async with running_bot(fake, db, lease_seconds=LEASE) as b:
        await b.worker.stop()
        async with running_bot(fake, db, lease_seconds=LEASE) as a:
            await a.worker.stop()
            await command(fake, carol, "play", {"game": "pack-solitaire"})   # (to A: the newer)
            for _ in range(200):
                if calls:
                    break
                await asyncio.sleep(0.01)
            (row,) = await a.store.games_of_user(int(carol))
            started = time.time()
            while time.time() < started + 2 * LEASE:
                await b.run_due()
                await asyncio.sleep(0.1)
            assert len(calls) == 1 and "best" not in (await b.store.get_game(row.id)).extras
        stopped = time.time()
        while len(calls) < 2 and time.time() < stopped + LEASE + 1:   # A stopped: B does the work
            await b.run_due()
            await asyncio.sleep(0.05)
        gate.set()
        for _ in range(500):
            if "best" in (await b.store.get_game(row.id)).extras:
                break
            await asyncio.sleep(0.01)
        assert len(calls) == 2 and (await b.store.get_game(row.id)).extras["best"] == 7
        assert "solve" not in await b.store.timers_of(row.id)


async def test_boards_are_drawn_ahead_only_for_the_notices_this_process_sends(fake, tmp_path):
    """Notices queued wake every process (on PostgreSQL, by NOTIFY): each draws ahead only the
    boards of the games whose notices it holds (it sends them), not another process's: each
    board is drawn once."""
    db = tmp_path / "db.sqlite3"
    channel = int(fake.channel_id)
    drawn_by = []
    async with running_bot(fake, db) as a, running_bot(fake, db) as b:
        for bot in (a, b):
            await bot.worker.stop()   # (the test wakes them; nothing is sent)

            async def png(board, priority=0, bot=bot):
                drawn_by.append((bot.delivery.me, board["n"]))
                return b"\x89PNG"

            bot.renderer.png = png
        await a.store.add_notices(None, [Notice("channel", channel, {"content": f"{n}", "board": {"n": n}})
                                         for n in range(6)], a.now())
        for _ in range(3):
            for bot in (a, b, b, a):
                bot.delivery.wake()
            await asyncio.sleep(0.05)
            for bot in (a, b):
                while bot.delivery._looking is not None and not bot.delivery._looking.done():
                    await asyncio.sleep(0.01)
        async with a.store.engine.connection() as tx:
            holders = {r[0]: r[1] for r in await tx.rows("SELECT game_key, claimed_by FROM outbox_leases")}
        items = {row["id"]: row["payload"]["board"]["n"] for row in await a.store.outbox_rows()}
        assert sorted(n for _, n in drawn_by) == list(range(6))   # each once
        assert sorted(drawn_by, key=lambda d: d[1]) == sorted(
            ((holders[-item], n) for item, n in items.items()), key=lambda d: d[1])
