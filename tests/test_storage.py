"""The store on SQLite and PostgreSQL: schema and migrations, optimistic concurrency, events,
timers, outbox."""

import asyncio
import hashlib
import re
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot import storage
from bot.storage import Conflict, Event, Notice, Seat, Store, games, migrations, model
from tests.pg import database_for


async def new_game(store, now=100.0):
    return await store.create_game(game="relativity", guild_id=1, channel_id=2, host_id=10,
                                   host_name="Alice", options={"x": 1}, deadline_seconds=86400,
                                   invited_id=None, now=now)


@pytest.mark.sqlite_only
async def test_fresh_database_gets_the_current_schema_in_wal_mode(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = await Store.open(str(path))
    assert await store.schema_version() == storage.SCHEMA_VERSION
    await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"meta", "games", "seats", "events", "timers", "outbox"} <= tables


@pytest.mark.sqlite_only
async def test_finding_the_game_of_a_message_uses_indexes_not_a_scan(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = await Store.open(str(path))
    game = await new_game(store)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET lobby_message_id=77 WHERE id=?", (game.id,))
        plan = " ".join(r[-1] for r in db.execute(
            "EXPLAIN QUERY PLAN SELECT game_id FROM outbox WHERE message_id=? AND game_id IS NOT NULL "
            "UNION ALL SELECT id FROM games WHERE lobby_message_id=? LIMIT 1", (77, 77)))
    assert "outbox_message" in plan and "games_lobby_message" in plan, plan
    assert "SCAN" not in plan, plan
    store = await Store.open(str(path))
    assert await store.game_of_message(77) == game.id and await store.game_of_message(78) is None
    await store.close()


async def test_reopening_keeps_data_and_runs_only_new_migrations(tmp_path, monkeypatch):
    path = database_for(tmp_path / "db.sqlite3")
    store = await Store.open(path)
    game = await new_game(store)
    await store.close()
    extra = "CREATE TABLE later (x INTEGER); INSERT INTO later VALUES (7)"
    released = storage.SCHEMA_VERSION
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + [extra])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(migrations.MIGRATIONS))
    store = await Store.open(path)
    assert await store.schema_version() == released + 1
    assert (await store.get_game(game.id)).seats == [Seat(0, 10, "Alice")]
    await store.close()
    store = await Store.open(path)  # a third open must not re-run the new migration
    async with store.engine.connection() as tx:
        assert (await tx.first("SELECT COUNT(*) FROM later"))[0] == 1
    await store.close()


async def test_a_newer_database_is_refused(tmp_path, monkeypatch):
    path = database_for(tmp_path / "db.sqlite3")
    store = await Store.open(path)
    await store.set_meta("schema_version", str(storage.SCHEMA_VERSION + 1))
    await store.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Store.open(path)


async def test_commit_checks_the_version_and_writes_everything_or_nothing(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)
    assert game.status == "lobby" and game.version == 0 and game.options == {"x": 1}
    seats = [Seat(0, 10, "Alice"), Seat(1, 11, "Bob")]
    version = await store.commit(
        game.id, 0, now=101.0, changes={"status": "active", "state": "{}"}, seats=seats,
        events=[Event("start", "10", "seed")],
        notices=[Notice("channel", 55, {"content": "hi"})],
        timers={"deadline": (500.0, {}), "reminder": (400.0, {"n": 1})})
    assert version == 1
    with pytest.raises(Conflict):
        await store.commit(game.id, 0, now=102.0, changes={"status": "finished"},
                           events=[Event("x")], notices=[Notice("user", 11, {})], timers={})
    row = await store.get_game(game.id)
    assert (row.status, row.version, row.state) == ("active", 1, "{}")
    assert row.player_ids == ["10", "11"] and row.names == {"10": "Alice", "11": "Bob"}
    assert [e["kind"] for e in await store.events(game.id)] == ["lobby", "start"]
    assert [o["payload"] for o in await store.outbox_rows()] == [{"content": "hi"}]
    assert set(await store.timers_of(game.id)) == {"deadline", "reminder"}
    await store.close()


async def test_two_writers_from_the_same_version_exactly_one_wins(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)

    async def write(text):
        try:
            await store.commit(game.id, 0, now=1.0, changes={"state": text}, events=[Event("a", None, text)])
            return "ok"
        except Conflict:
            return "conflict"

    results = await asyncio.gather(write("one"), write("two"))
    assert sorted(results) == ["conflict", "ok"]
    assert len(await store.events(game.id)) == 2  # the lobby event and one action
    await store.close()


async def test_timers_are_replaced_and_found_when_due(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    assert await store.next_due() is None
    game = await new_game(store)
    await store.commit(game.id, 0, now=1.0, timers={"deadline": (50.0, {}), "reminder": (40.0, {})})
    assert [t.kind for t in await store.due_timers(45.0)] == ["reminder"]
    assert await store.next_due() == 40.0   # (nothing in the outbox)
    await store.add_notices(game.id, [Notice("user", 1, {"n": 1})], now=35.0)
    assert await store.next_due() == 35.0   # the sooner of a timer and a notice
    (notice,) = await store.pending_outbox(35.0)
    await store.outbox_delivered(notice.id, 36.0, 5)
    await store.commit(game.id, 1, now=2.0, timers={"deadline": (90.0, {})})
    assert await store.due_timers(60.0) == []
    await store.commit(game.id, 2, now=3.0)  # timers=None keeps them
    assert [t.due_at for t in (await store.timers_of(game.id)).values()] == [90.0]
    await store.close()


async def test_outbox_delivery_retry_and_failure(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)
    await store.add_notices(game.id, [Notice("user", 1, {"n": 1}), Notice("user", 2, {"n": 2}),
                                      Notice("channel", 3, {"n": 3})], now=10.0)
    first, second, third = await store.pending_outbox(10.0)
    await store.outbox_delivered(first.id, 11.0, 999)
    await store.outbox_retry(second.id, 30.0)
    await store.outbox_failed(third.id, "gone")
    assert await store.pending_outbox(20.0) == []
    assert await store.outbox_waiting() == 1
    assert await store.next_due() == 30.0   # (no timers)
    again = await store.pending_outbox(30.0)
    assert [(o.id, o.attempts, o.payload) for o in again] == [(second.id, 1, {"n": 2})]
    assert await store.prune_outbox(before=11.0) == 2   # the delivered and the failed one
    assert [o["id"] for o in await store.outbox_rows()] == [second.id]
    await store.close()


async def test_games_of_a_user_and_by_thread(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    a = await new_game(store)
    b = await new_game(store)
    await store.commit(b.id, 0, now=1.0, changes={"status": "active", "thread_id": 77},
                       seats=[Seat(0, 10, "Alice"), Seat(1, 12, "Carol")])
    assert [g.id for g in await store.games_of_user(10, guild_id=1)] == [a.id, b.id]
    assert [g.id for g in await store.games_of_user(12)] == [b.id]
    assert await store.games_of_user(10, guild_id=2) == []
    assert (await store.game_for_thread(77)).id == b.id
    assert await store.game_for_thread(78) is None
    await store.close()


@pytest.mark.sqlite_only
async def test_a_database_of_the_first_schema_is_migrated_with_its_games(tmp_path):
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:   # as the first release left it
        db.executescript(storage.MIGRATIONS[0])
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('schema_version', '1');"
            "INSERT INTO games(game, guild_id, channel_id, host_id, status, created_at, updated_at) "
            "VALUES ('relativity', 1, 2, 10, 'lobby', 0, 0);"
            "INSERT INTO seats VALUES (1, 0, 10, 'Alice');")
    store = await Store.open(str(path))
    assert await store.schema_version() == storage.SCHEMA_VERSION
    assert (await store.get_game(1)).seats == [Seat(0, 10, "Alice", dm_closed=False)]
    await store.close()


async def test_tagged_notices_are_found_for_editing_and_closed_dms_are_remembered(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)
    await store.add_notices(game.id, [Notice("channel", 3, {"n": 1}, tag="board"),
                                      Notice("user", 10, {"n": 2}, tag="dm:10"),
                                      Notice("channel", 3, {"n": 3})], now=1.0)
    board = (await store.tagged_notices(game.id))["board"]
    await store.commit(game.id, 0, now=2.0, notices=[
        Notice("channel", 3, {"controls": []}, tag="board", edit_of=board.id),
        Notice("channel", 3, {"n": 4}, tag="board")])
    tagged = await store.tagged_notices(game.id)
    assert {tag: item.payload for tag, item in tagged.items()} == {"board": {"n": 4}, "dm:10": {"n": 2}}
    edit = next(o for o in await store.pending_outbox(2.0) if o.edit_of == board.id)
    assert edit.payload == {"controls": []} and not edit.delivered
    await store.outbox_delivered(board.id, 3.0, 555)
    assert (await store.outbox_item(board.id)).message_id == 555
    await store.outbox_retry(edit.id, 9.0, attempted=False)
    assert (await store.outbox_item(edit.id)).attempts == 0

    assert await store.mark_dms_closed(game.id, 10) is True
    assert await store.mark_dms_closed(game.id, 10) is False   # known already
    assert (await store.get_game(game.id)).dms_closed == {"10"}
    await store.close()


async def test_a_failed_transaction_writes_nothing(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)):   # seat 0 twice
        await store.commit(game.id, 0, now=1.0, seats=[Seat(0, 10, "A"), Seat(0, 11, "B")],
                           notices=[Notice("channel", 3, {"n": 1})])
    assert (await store.get_game(game.id)).version == 0
    assert await store.outbox_rows() == []
    await store.close()


async def test_a_delivered_board_clears_the_boards_of_earlier_posts_of_its_tag(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    game = await new_game(store)
    board = {"view": {"log": ["..."] * 50}, "names": {}}
    await store.add_notices(game.id, [Notice("channel", 3, {"content": "1", "board": board}, tag="board"),
                                      Notice("user", 10, {"content": "dm", "board": board}, tag="dm:10")],
                            now=1.0)
    first, dm = await store.pending_outbox(1.0)
    await store.outbox_delivered(first.id, 1.0, 501)
    await store.outbox_delivered(dm.id, 1.0, 502)
    await store.add_notices(game.id, [
        Notice("channel", 3, {"content": "status"}, tag="board", edit_of=first.id),
        Notice("channel", 3, {"content": "2", "board": board}, tag="board")], now=2.0)
    status, second = await store.pending_outbox(2.0)
    await store.outbox_delivered(status.id, 2.0, 501)   # no board: the first keeps its own
    assert "board" in (await store.outbox_item(first.id)).payload
    await store.outbox_delivered(second.id, 2.0, 503)
    cleared = await store.outbox_item(first.id)
    assert cleared.payload == {"content": "1"} and cleared.message_id == 501
    assert (await store.outbox_item(second.id)).payload["board"] == board   # the latest keeps it
    assert (await store.outbox_item(dm.id)).payload["board"] == board       # another tag's too
    await store.close()


@pytest.mark.sqlite_only
async def test_migration_3_clears_boards_superseded_before_it(tmp_path, monkeypatch):
    path = str(tmp_path / "db.sqlite3")
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    # (the games' extras column comes with migration 4)
    monkeypatch.setattr(model, "_GAME_COLUMNS", model._GAME_COLUMNS.replace(", extras", ""))
    monkeypatch.setattr(games, "_game_row", lambda r, row=model._game_row: row(
        {**dict(zip(r.keys(), r)), "extras": "{}"}))
    store = await Store.open(path)
    game = await new_game(store)
    board = {"view": {"log": ["..."] * 50}, "names": {}}
    await store.add_notices(game.id, [Notice("channel", 3, {"n": n, "board": board}, tag="board")
                                      for n in range(3)], now=1.0)
    for item in await store.pending_outbox(1.0):
        await store.db.execute("UPDATE outbox SET delivered_at=1 WHERE id=?", (item.id,))
    await store.close()
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 3)
    store = await Store.open(path)
    assert await store.schema_version() == 3
    rows = await store.outbox_rows(game.id)
    assert [("board" in r["payload"], r["payload"]["n"]) for r in rows] == [
        (False, 0), (False, 1), (True, 2)]
    await store.close()


# sha256 of each released migration's SQLite text: a database made by an earlier release went
# through exactly these statements, so they may never change (add a migration instead).
RELEASED_MIGRATIONS = [
    "c9aac1fbbbb4a429d0ec88ed6d10821557ef88009dd5ee75eeeb87aa1a7b8302",
    "b13301576ad301ce5ba08d69a6930fb90dc451cd5ae859c956a02943b43cab88",
    "e3234097df15edc749243d7593c5ac5e022547e599d67b28e7578319383b5ad6",
    "ff2170f0b91cf5b53269165a3029c008ad2dae4009d6259fb977b8cb46d5e132",
    "b2ffed6434c099256e2da2bcc7f52fcdf06a862e1116ea5b8220602ea717b815",
    "2ae30c814505e5efc8b29b526f15f4252f09c151a1d1f1e18f02ea8115ee7afb",
    "1155700e62f519c785b938fba5a4a536c852647ad302e4da83c1caa6aa505912",
    "7c103eafbd78bffc16932136d102d60b3e38391c9127fd8abb410e0aff7a11f5",
]


def test_the_released_migrations_are_unchanged():
    rendered = [hashlib.sha256(migrations.render(i, "sqlite").encode()).hexdigest()
                for i in range(len(migrations.MIGRATIONS))]
    assert rendered[:len(RELEASED_MIGRATIONS)] == RELEASED_MIGRATIONS


def test_postgresql_gets_64_bit_ids_and_8_byte_floats():
    for i in range(len(migrations.MIGRATIONS)):
        text = migrations.render(i, "postgresql")
        assert not re.search(r"\b(INTEGER|REAL|AUTOINCREMENT|json_\w+)\b", text), text


def test_no_module_of_the_store_is_long():
    folder = Path(storage.__file__).parent
    long = {p.name: n for p in folder.glob("*.py") if (n := len(p.read_text().splitlines())) > 400}
    assert long == {}


async def test_each_half_runs_on_its_engine(tmp_path, db_engine):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    assert store.engine.name == db_engine
    await store.close()
