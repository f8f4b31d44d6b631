"""Two real `python -m bot` processes on one PostgreSQL database through the fake Discord, as a
public instance runs (issue 22): process A runs shard 0, process B shard 1 (of 2). Games in
servers on both shards; a Global Warming game on shard 1 takes its secret choices by DM (shard 0,
so process A) and reveals in its thread; a deadline and a computer's turn that A claimed when it
was killed (kill -9) are done once, by B, within the lease plus a second; every notice becomes
one message, in order; restarting either process loses nothing."""

from __future__ import annotations

import asyncio
import collections
import signal
import time

import asyncpg
import pytest

import engine
from bot import computers
from bot.flow import COMPUTER_TIMER, GameFlow
from bot.storage import Store
from bot.work import MIN_IDLE
from tests import processes
from tests.botkit import command, fake_discord, press, said
from tests.pg import database_for
from tests.processes import LEASE, poll, up

pytestmark = pytest.mark.postgresql_only

PACE = 1000.0   # a computer's pause is 1,500 s: the test says when its turn is due


class Shard(processes.Shard):
    started: list = []   # every process of the test, the killed ones too

    def __init__(self, fake, db, cwd, shard: int):
        super().__init__(fake, db, cwd, shard)
        self.env["PIECEPACK_COMPUTER_PACE"] = str(PACE)
        Shard.started.append(self)


async def started(fake, store, host, guest, channel, game="relativity", **options) -> tuple:
    """/play and Join (and Start for a game of more seats): the game's row and thread."""
    res = await command(fake, host, "play", {"game": game, **options}, channel=channel)
    lobby = res.original
    await press(fake, guest, lobby.button("Join"), message_id=lobby.id)
    if game != "relativity":
        await press(fake, host, lobby.button("Start"), message_id=lobby.id)
    row = (await store.games_of_user(int(host)))[-1]
    assert row.status == "active"
    return row, str(row.thread_id)


async def move(fake, store, user, thread) -> None:
    """Any legal move of `user` in the game of `thread`."""
    row = await store.game_for_thread(int(thread))
    game = engine.get_game(row.game)
    action = game.legal_actions(game.from_json(row.state), str(user))[0]
    res = await command(fake, user, "move", {"move": str(action)}, channel=thread)
    assert "Played" in said(res), said(res)


async def events(store, game_id, kind, actor=None) -> int:
    return len([e for e in await store.events(game_id)
                if e["kind"] == kind and (actor is None or e["actor"] == actor)])


async def test_two_processes_on_two_shards_share_the_work_once(tmp_path):
    db = tmp_path / "piecepack.sqlite3"   # (named for the PostgreSQL database: tests.pg)
    async with fake_discord(response_deadline=15) as fake:
        g0 = fake.add_guild("Shard Zero Club", shard=0, shard_count=2)
        g1 = fake.add_guild("Shard One Club", shard=1, shard_count=2)
        c0, c1 = fake.add_channel("games", guild=g0), fake.add_channel("games", guild=g1)
        alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
        store = await Store.open(database_for(db))
        a, b = Shard(fake, db, tmp_path, 0), Shard(fake, db, tmp_path, 1)
        try:
            await a.__aenter__()
            await b.__aenter__()
            await up(fake, a)
            await up(fake, b)
            assert sorted(fake.identified_shards) == [(0, 2), (1, 2)]
            await fake.wait_for(lambda: fake.command_publishes == 1, timeout=10)

            # Global Warming in shard 1's server: the secret choices come by DM (shard 0: A)
            warming, warming_thread = await started(fake, store, alice, bob, c1, "global-warming")
            assert fake.received_by[fake.interactions[-1].id] == 1
            await secret_round(fake, store, warming, warming_thread, (alice, bob), round_=1)

            # a game with a deadline in shard 0's server; a game against a computer in shard 1's
            timed, timed_thread = await started(fake, store, alice, bob, c0, deadline="1d")
            plain, plain_thread = await started(fake, store, carol, dave, c0)
            await move(fake, store, mover_of(fake, plain, (carol, dave)), plain_thread)
            versus_res = await command(fake, carol, "play", {"game": "relativity"}, channel=c1)
            assert versus_res.shard == 1
            await press(fake, carol, versus_res.original.button("Add computer (easy)"),
                        message_id=versus_res.original.id)
            versus = [r for r in await store.games_of_user(int(carol)) if r.status == "active"][-1]
            versus_thread = str(versus.thread_id)
            cpu = next(p for p in versus.player_ids if computers.is_computer(p))
            if versus.seats[0].user_id == int(carol):   # (seats are drawn: carol may be first)
                await move(fake, store, carol, versus_thread)
            kind = COMPUTER_TIMER + cpu
            await poll(lambda: timer_of(store, versus.id, kind), timeout=10)

            # A claims both as they fall due (B is stopped meanwhile) and is killed before
            # either is done: the test holds both games' rows, so A's commits wait for it.
            # (Killed in the midst of a delivery, a process leaves that notice to be sent
            # again, which Discord folds by its nonce: test_bot_claims. Not here: each notice
            # is sent once.)
            await poll(lambda: all_delivered(store), timeout=20)

            holder = await asyncpg.connect(database_for(db))
            hold = holder.transaction()
            await hold.start()
            await holder.fetch("SELECT id FROM games WHERE id = ANY($1::bigint[]) FOR UPDATE",
                               [timed.id, versus.id])
            b.proc.send_signal(signal.SIGSTOP)
            try:
                async with store.engine.transaction() as tx:
                    await tx.execute("UPDATE timers SET due_at=? WHERE (game_id=? AND kind='deadline') "
                                     "OR (game_id=? AND kind=?)",
                                     (time.time(), timed.id, versus.id, kind))
                    await tx.notify()
                claims = {(timed.id, "deadline"), (versus.id, kind)}
                a_pid = f":{a.proc.pid}:"
                await poll(lambda: claimed_by(store, claims, a_pid), timeout=10)
                await a.kill()
                killed_at = time.time()
            finally:
                b.proc.send_signal(signal.SIGCONT)
                await hold.rollback()
                await holder.close()
            # B takes both over when A's leases lapse, and does each once
            await poll(lambda: done_once(store, timed.id, versus.id, cpu), timeout=LEASE + 10)
            assert time.time() - killed_at <= LEASE + MIN_IDLE + 2
            await fake.wait_for(lambda: [m for m in fake.messages(timed_thread)
                                         if "The deadline passed" in m.content], timeout=10)
            await asyncio.sleep(LEASE)   # (nothing more comes)
            assert await done_once(store, timed.id, versus.id, cpu)
            assert len([m for m in fake.messages(timed_thread) if "The deadline passed" in m.content]) == 1

            # A again: it serves shard 0 (the DMs too) and finds every game where it was
            a = Shard(fake, db, tmp_path, 0)
            await a.__aenter__()
            await up(fake, a)
            assert (await store.get_game(timed.id)).status == "finished"   # (a forfeit)
            plain = await store.get_game(plain.id)
            await move(fake, store, mover_of(fake, plain, (carol, dave)), plain_thread)
            if (await store.get_game(warming.id)).status == "active":
                await secret_round(fake, store, warming, warming_thread, (alice, bob), round_=2)
            else:   # (its first turn sank both pawns: the deal is random) a new game, then
                warming, warming_thread = await started(fake, store, alice, bob, c1, "global-warming")
                await secret_round(fake, store, warming, warming_thread, (alice, bob), round_=1)
            # ... and B again: its server's games go on
            await poll(lambda: all_delivered(store), timeout=20)
            await b.kill()
            b = Shard(fake, db, tmp_path, 1)
            await b.__aenter__()
            await up(fake, b)
            await poll(lambda: awaits(store, versus.id, str(carol)), timeout=10)
            await move(fake, store, carol, versus_thread)
            assert await timer_of(store, versus.id, kind)   # (the computer's turn comes in 1,500 s)

            # every notice became one message, once, in the order queued, whoever sent it
            await poll(lambda: all_delivered(store), timeout=20)
            rows = await store.outbox_rows()
            assert not [r for r in rows if r["failed"]]
            posted = [r for r in rows if r["edit_of"] is None and r["message_id"] is not None]
            assert len({r["message_id"] for r in posted}) == len(posted)
            sends = collections.Counter(
                r.body.get("nonce") for r in fake.all_payloads
                if r.method == "POST" and r.path.endswith("/messages") and isinstance(r.body, dict)
                and str(r.body.get("nonce", "")).startswith("pp"))
            assert sends and max(sends.values()) == 1, [n for n, k in sends.items() if k > 1]
            by_channel = collections.defaultdict(list)
            for r in posted:
                by_channel[fake.message(r["message_id"]).channel_id].append(r)
            assert set(by_channel) >= {warming_thread, timed_thread, plain_thread, versus_thread}
            for channel, queued in by_channel.items():
                ours = [m.id for m in fake.messages(channel) if m.author_id == fake.bot_user_id
                        and m.interaction_id is None and m.type == 0]
                assert ours == [str(r["message_id"]) for r in queued], channel
            # and each game's state is what its events make
            flow = GameFlow(store, time.time)
            for row in (warming, timed, plain, versus):
                assert await flow.replay(row.id) == flow.state_of(await store.get_game(row.id))
        finally:
            for process in (a, b):
                if process.proc.returncode is None:
                    process.proc.send_signal(signal.SIGCONT)
                await process.__aexit__()
            for process in Shard.started:   # (pytest shows them when the test fails)
                print(f"---- shard {process.shard}, pid {process.proc.pid}:\n"
                      + process.output.decode(errors="replace")[-6000:])
            await store.close()


async def timer_of(store, game_id, kind):
    return (await store.timers_of(game_id)).get(kind)


async def claimed_by(store, claims, pid: str) -> bool:
    """Whether every (game, timer) of `claims` is claimed by the process `pid` names."""
    async with store.engine.connection() as tx:
        held = {(r[0], r[1]): r[2] for r in await tx.rows("SELECT game_id, kind, claimed_by FROM timers")}
    return all(pid in (held.get(claim) or "") for claim in claims)


async def done_once(store, timed_id, versus_id, cpu) -> bool:
    expired, moved = await events(store, timed_id, "expire"), await events(store, versus_id, "move", cpu)
    assert expired <= 1 and moved <= 1, (expired, moved)
    return expired == moved == 1


async def awaited(store, row) -> list[str]:
    game = engine.get_game(row.game)
    return list(game.awaited(game.from_json(row.state)))


def mover_of(fake, row, users):
    game = engine.get_game(row.game)
    (player,) = game.awaited(game.from_json(row.state))
    return next(u for u in users if str(u) == player)


async def awaits(store, game_id, player) -> bool:
    return player in await awaited(store, await store.get_game(game_id))


async def all_delivered(store) -> bool:
    return await store.outbox_waiting() == 0


async def secret_round(fake, store, row, thread, users, round_: int) -> None:
    """Both players choose by DM buttons (shard 0); the reveal comes in the thread, once."""
    before = len(fake.messages(thread))
    for user in users:
        dm = await fake.wait_for(lambda: [m for m in fake.dms(user)
                                          if any(c.count(":") for c in m.custom_ids())], timeout=10)
        button = dm[-1].custom_ids()[0]
        chosen = await press(fake, user, button, message_id=dm[-1].id)
        assert chosen.shard == 0 and fake.channel(chosen.channel_id).type == 1   # a DM
        assert f"Your choice for turn {round_}" in said(chosen) + chosen.text
    names = [f"**{fake._user(u).username}**" for u in users]
    await fake.wait_for(lambda: [m for m in fake.messages(thread)[before:]
                                 if all(n in m.content for n in names)], timeout=10)
