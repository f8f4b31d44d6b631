"""Work claimed once by one of several processes on one database (two Store objects, each its
own connections; on SQLite two connections to one file): timers and the outbox's games are
claimed by one claimant at a time, leases lapse and are taken over, a lapsed claimant's
fenced write fails."""

import asyncio

import pytest

from bot.storage import Conflict, Notice, Store
from tests.pg import database_for
from tests.test_storage_concurrency import new_game, two_stores


async def test_concurrent_claims_are_disjoint_and_lapsed_leases_are_taken_over(tmp_path):
    a, b = await two_stores(tmp_path)
    games = [await new_game(a, host=10 + i) for i in range(6)]
    for i, game in enumerate(games):
        await a.commit(game.id, 0, now=2.0, changes={}, timers={
            "deadline": (10.0 + i, {}), "reminder": (5.0 + i, {}), "later": (500.0, {})})
    claims = await asyncio.gather(*(store.claim_timers(f"p{i}", 100.0, 1000.0, 1030.0, limit=3)
                                    for i, store in enumerate([a, b] * 3)))
    got = [(t.game_id, t.kind) for claim in claims for t in claim]
    assert len(got) == len(set(got)) == 12   # every due timer once, none twice
    assert all(t.claimed_by == f"p{i}" for i, claim in enumerate(claims) for t in claim)
    assert await b.claim_timers("p9", 100.0, 1029.0, 1060.0) == []   # all held

    # p0's lease lapses: another claims its timers; p0's fenced write then fails
    taken = await b.claim_timers("p9", 100.0, 1030.0, 1060.0)
    assert {(t.game_id, t.kind) for t in taken} == set(got)
    t = claims[0][0]
    assert (await a.timers_of(t.game_id))[t.kind].claimed_by == "p9"   # (who holds it, to all)
    game = await a.get_game(t.game_id)
    with pytest.raises(Conflict):
        await a.set_timer(t.game_id, game.version, t.kind, 900.0,
                          [Notice("channel", 2, {"content": "twice"})], 100.0, claim="p0")
    assert not [o for o in await a.outbox_rows() if o["payload"]["content"] == "twice"]
    # ... while the holder's write goes through, and the moved timer is claimed by nobody
    await b.set_timer(t.game_id, game.version, t.kind, 900.0, [], 100.0, claim="p9")
    moved = (await a.timers_of(t.game_id))[t.kind]
    assert (moved.due_at, moved.claimed_by) == (900.0, None)
    # released timers are claimable again at once
    t2 = taken[1]
    await b.release_timer(t2.game_id, t2.kind, "p0")   # (not p0's: nothing happens)
    assert await a.claim_timers("p1", 100.0, 1031.0, 1060.0) == []
    await b.release_timer(t2.game_id, t2.kind, "p9")
    assert [(x.game_id, x.kind) for x in await a.claim_timers("p1", 100.0, 1031.0, 1060.0)] == \
        [(t2.game_id, t2.kind)]
    await a.close()
    await b.close()


async def test_next_wake_counts_leases(tmp_path):
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    assert await a.next_wake(0.0, 1000.0) is None
    await a.commit(game.id, 0, now=2.0, changes={}, timers={"deadline": (10.0, {})})
    assert await a.next_wake(4.0, 1000.0) == 6.0
    assert [t.kind for t in await b.claim_timers("b", 10.0, 1000.0, 1030.0)] == ["deadline"]
    # held by b: a survivor looks again when b's lease lapses (wall clock)
    assert await a.next_wake(10.0, 1010.0) == 20.0
    await b.renew_leases("b", 1050.0)
    assert await a.next_wake(10.0, 1010.0) == 40.0
    assert [t.kind for t in await a.claim_timers("a", 10.0, 1050.0, 1080.0)] == ["deadline"]
    await a.close()
    await b.close()


async def test_outbox_leases_keep_a_games_order_and_release_only_when_drained(tmp_path):
    a, b = await two_stores(tmp_path)
    one, two = await new_game(a, 10), await new_game(a, 11)
    for i in range(3):
        await a.add_notices(one.id, [Notice("channel", 2, {"content": f"one {i}"})], 1.0)
        await a.add_notices(two.id, [Notice("channel", 2, {"content": f"two {i}"})], 1.0)
    await a.add_notices(None, [Notice("user", 5, {"content": "no game"})], 1.0)
    got_a, got_b = await asyncio.gather(a.claim_outbox("a", 5.0, 1000.0, 1030.0),
                                        b.claim_outbox("b", 5.0, 1000.0, 1030.0))
    # each game wholly to one claimant, in order
    assert got_a and not got_b or got_b and not got_a or {
        i.game_id for i in got_a}.isdisjoint({i.game_id for i in got_b})
    everything = got_a + got_b
    assert len(everything) == 7
    for items in (got_a, got_b):
        for game in (one.id, two.id):
            ids = [i.id for i in items if i.game_id == game]
            assert ids == sorted(ids)
    holder, other = ("a", b) if any(i.game_id == one.id for i in got_a) else ("b", a)
    holding = a if holder == "a" else b
    mine = [i for i in everything if i.game_id == one.id]
    # another claimant gets nothing of game one while the lease holds, even with new notices
    await holding.add_notices(one.id, [Notice("channel", 2, {"content": "one 3"})], 2.0)
    assert not [i for i in await other.claim_outbox("z", 5.0, 1001.0, 1031.0) if i.game_id == one.id]
    # not drained: the lease stays
    await holding.outbox_delivered(mine[0].id, 3.0, 1)
    assert not await holding.release_outbox(one.id, mine[0].id, holder, 5.0)
    again = [i for i in await holding.claim_outbox(holder, 5.0, 1002.0, 1032.0) if i.game_id == one.id]
    assert [i.payload["content"] for i in again] == ["one 1", "one 2", "one 3"]
    for item in again:
        await holding.outbox_delivered(item.id, 3.0, 1)
    assert await holding.release_outbox(one.id, mine[0].id, holder, 5.0)
    # a lapsed lease is taken over
    await holding.add_notices(one.id, [Notice("channel", 2, {"content": "one 4"})], 4.0)
    assert [i.payload["content"] for i in await holding.claim_outbox(holder, 5.0, 1003.0, 1004.0)
            if i.game_id == one.id] == ["one 4"]
    assert not [i for i in await other.claim_outbox("z", 5.0, 1003.5, 1033.0) if i.game_id == one.id]
    assert [i.payload["content"] for i in await other.claim_outbox("z", 5.0, 1004.0, 1034.0)
            if i.game_id == one.id] == ["one 4"]
    await a.close()
    await b.close()


async def test_releasing_a_claimants_leases_or_everyones(tmp_path):
    a, b = await two_stores(tmp_path)
    one, two = await new_game(a, 10), await new_game(a, 11)
    for game in (one, two):
        await a.commit(game.id, 0, now=2.0, changes={}, timers={"deadline": (10.0, {})})
        await a.add_notices(game.id, [Notice("channel", 2, {"content": "x"})], 1.0)
    assert len(await a.claim_timers("a", 10.0, 1000.0, 1030.0, limit=1)) == 1
    assert len(await b.claim_timers("b", 10.0, 1000.0, 1030.0)) == 1
    await a.claim_outbox("a", 10.0, 1000.0, 1030.0)
    await b.release_leases("a")   # a stopped cleanly: its work is b's at once
    assert len(await b.claim_timers("b", 10.0, 1000.0, 1030.0)) == 1
    assert len(await b.claim_outbox("b", 10.0, 1000.0, 1030.0)) == 2
    await a.release_leases(None)   # everyone's
    assert len(await a.claim_timers("a", 10.0, 1000.0, 1030.0)) == 2
    assert len(await a.claim_outbox("a", 10.0, 1000.0, 1030.0)) == 2
    await a.close()
    await b.close()


async def test_a_commit_keeps_the_claims_of_the_timers_that_stay_and_the_background_work(tmp_path):
    """Work that goes on beyond a timer's firing (a computer thinking, a solver) holds its
    claim while the game moves on: a commit that sets the game's timers again must not free it
    for another process to do the same work a second time."""
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    await a.commit(game.id, 0, now=2.0, changes={}, timers={
        "computer:-1": (5.0, {}), "solve": (2.0, {}), "deadline": (50.0, {})})
    assert {t.kind for t in await b.claim_timers("p1", 10.0, 1000.0, 1030.0)} == {"computer:-1", "solve"}
    # a move meanwhile: the computer still to move, a new deadline; the solver is not named
    await a.commit(game.id, 1, now=12.0, changes={}, timers={
        "computer:-1": (13.0, {}), "deadline": (60.0, {})})
    timers = await a.timers_of(game.id)
    assert set(timers) == {"computer:-1", "solve", "deadline"} and timers["computer:-1"].due_at == 13.0
    assert await a.claim_timers("p2", 55.0, 1000.0, 1030.0) == []   # (all held by p1)
    assert await a.claim_timer(game.id, "solve", "p2", 1000.0, 1030.0) is False
    assert await a.claim_timer(game.id, "nothing", "p2", 1000.0, 1030.0) is None
    # the solver's answer comes with its timer's end (its holder's only)
    await a.merge_extras(game.id, {"best": 3}, now=14.0, done=("solve", "p2"))
    assert "solve" in await a.timers_of(game.id)
    await a.merge_extras(game.id, {"best": 3}, now=14.0, done=("solve", "p1"))
    assert "solve" not in await a.timers_of(game.id)
    assert (await a.get_game(game.id)).extras == {"best": 3}
    # a lapsed claim is taken; renewing then fails for the old holder
    assert await b.claim_timer(game.id, "computer:-1", "p3", 1031.0, 1060.0) is True
    assert await a.renew_timer(game.id, "computer:-1", "p1", 1070.0) is False
    assert await a.renew_timer(game.id, "computer:-1", "p3", 1070.0) is True
    await a.close()
    await b.close()


@pytest.mark.postgresql_only   # (SQLite: one process per file, no lock of another to wait for)
async def test_leases_are_renewed_while_a_transaction_of_the_process_waits(tmp_path):
    """A process's statements take turns; a transaction waiting for another process's row
    lock held its renewals back, so its leases lapsed while it was alive and at work (the two
    processes test found it): renewals do not wait behind it."""
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    await a.commit(game.id, 0, now=2.0, changes={}, timers={"deadline": (10.0, {})})
    assert len(await a.claim_timers("a", 10.0, 1000.0, 1030.0)) == 1
    async with b.engine.transaction() as tx:   # another process holds the game's row
        await tx.first("SELECT id FROM games WHERE id=? FOR UPDATE", (game.id,))
        waiting = asyncio.create_task(a.commit(game.id, 1, now=3.0, changes={}))
        await asyncio.sleep(0.2)
        assert not waiting.done()
        await asyncio.wait_for(a.renew_leases("a", 1060.0), 2)
        assert await asyncio.wait_for(a.renew_timer(game.id, "deadline", "a", 1070.0), 2)
    assert await waiting == 2
    assert await b.claim_timers("b", 10.0, 1065.0, 1100.0) == []   # (still a's)
    await a.close()
    await b.close()


@pytest.mark.postgresql_only
async def test_work_queued_wakes_the_other_processes_not_its_own(tmp_path):
    """A process wakes its own worker when it queues work (as on SQLite): its NOTIFY is for
    the others, and waking itself again would cost it a second look at the database."""
    a, b = await two_stores(tmp_path)
    woken = {"a": 0, "b": 0}
    for name, store in (("a", a), ("b", b)):
        await store.engine.listen(lambda name=name: woken.__setitem__(name, woken[name] + 1))
    for _ in range(200):
        if a.engine.listening and b.engine.listening:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    woken.update(a=0, b=0)   # (each wakes once as its listener connects)
    game = await new_game(a)
    await a.add_notices(game.id, [Notice("channel", 2, {"content": "hello"})], 1.0)
    for _ in range(200):
        if woken["b"]:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)
    assert woken == {"a": 0, "b": 1}
    await a.close()
    await b.close()


@pytest.mark.postgresql_only
async def test_work_of_a_game_wakes_the_process_of_its_servers_shard(tmp_path):
    """A NOTIFY for a game wakes the process that serves its server's shard, not the others;
    one of no game (a process stopping: its work is free) wakes them all."""
    from bot.work import serves

    stores = [*(await two_stores(tmp_path)), await Store.open(database_for(tmp_path / "db.sqlite3"))]
    writer, zero, one = stores
    woken = {"zero": 0, "one": 0}
    for name, store, shard in (("zero", zero, 0), ("one", one, 1)):
        settings = type("Settings", (), {"shard_ids": (shard,), "shard_count": 2})
        await store.engine.listen(lambda name=name: woken.__setitem__(name, woken[name] + 1),
                                  serves(settings))
    for _ in range(200):
        if zero.engine.listening and one.engine.listening:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    woken.update(zero=0, one=0)
    game = await new_game(writer)
    await writer.engine.execute("UPDATE games SET guild_id=? WHERE id=?", ((7 << 22) | 5, game.id))
    await writer.add_notices(game.id, [Notice("channel", 2, {"content": "hello"})], 1.0)
    for _ in range(200):
        if woken["one"]:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)
    assert woken == {"zero": 0, "one": 1}   # (guild 7 << 22: shard 1 of 2)
    await writer.release_leases("gone")
    for _ in range(200):
        if woken["zero"] and woken["one"] == 2:   # (each listener hears it in its own time)
            break
        await asyncio.sleep(0.02)
    assert woken == {"zero": 1, "one": 2}
    for store in stores:
        await store.close()
