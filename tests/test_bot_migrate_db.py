"""`piecepack-bot migrate-db`: a SQLite database that a bot has used (games of several kinds,
timers, a pending notice, rated games, a daily, a time away, a rematch) copied into PostgreSQL
by the real command; a bot on the URL then goes on with the games. Refusals: a target that
holds games, and a source that a bot has open."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import DatabaseLock, Notice, Store
from bot.storage.player_settings import PlayerSettings
from bot.storage.copy import COPY_ORDER, NOT_COPIED, schema_tables
from tests.botkit import (FakeClock, command, drawn, fake, open_game, press,  # noqa: F401
                          running_bot, settle)
from tests.pg import database_for
from tests.test_bot_admin import add_game, run_cli
from tests.test_bot_daily import daily, solver  # noqa: F401
from tests.test_bot_history import finished_relativity

DAY = 86400


@pytest.mark.sqlite_only
async def test_every_table_of_the_schema_is_copied(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    await store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        tables = schema_tables(db)
    db.close()
    assert sorted(tables) == sorted(COPY_ORDER + NOT_COPIED)


def counts_in_file(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        counts = {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in COPY_ORDER
                  if t != "meta"}
        secret = db.execute("SELECT value FROM meta WHERE key='daily_secret'").fetchone()[0]
    db.close()
    return {**counts, "daily_secret": secret}


async def counts_in(store: Store) -> dict[str, int]:
    async with store.engine.connection() as tx:
        counts = {t: (await tx.first(f"SELECT COUNT(*) FROM {t}"))[0] for t in COPY_ORDER
                  if t != "meta"}
    return {**counts, "daily_secret": await store.get_meta("daily_secret")}


async def used_database(fake, path: Path, clock: FakeClock) -> dict:
    """A bot's SQLite file with every kind of row; returns the games' ids and threads."""
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, path, clock=clock, seed=[3, 4, 5, 6, 7], db_path=str(path)) as bot:
        timed, timed_thread = await open_game(fake, bot, alice, bob, deadline="1d")
        free, free_thread = await open_game(fake, bot, alice, carol)
        old, old_thread = await finished_relativity(fake, bot, bob, carol)   # rated
        result = fake.messages(old_thread)[-1]
        await press(fake, bob, f"pp:rematch:{old.id}", message_id=result.id)   # a rematch asked
        await daily(fake, bot, carol)                                        # a solo game
        res = await command(fake, alice, "tournament create", {"game": "galaxies", "deadline": "none"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        for user in (alice, bob, carol):                                      # a tournament, with a bye
            await press(fake, user, f"pp:tour:{t.id}:join", message_id=res.messages[-1].id)
        await command(fake, alice, "tournament start")
        await settle(bot)
    store = await Store.open(str(path))
    row = await store.get_game(free.id)
    await store.commit(free.id, row.version, now=clock.now,   # a notice not delivered yet
                       notices=[Notice("channel", row.thread_id, {"content": "Left in the outbox"})])
    await store.set_absence(1, 999, clock.now, clock.now + 3 * DAY)
    await store.save_player_settings(   # a player's own settings, with a digest due
        PlayerSettings(int(carol), time_zone="Europe/Berlin", quiet_start=22, quiet_end=7,
                       digest_hour=8, palette="colour-safe"), clock.now + DAY, clock.now)
    await store.close()
    return {"users": (alice, bob, carol), "timed": (timed.id, timed_thread),
            "free": (free.id, free_thread)}


def migrate(tmp_path: Path, url: str, source: Path, **env):
    return run_cli(tmp_path, "migrate-db", "--to", url, "--from", str(source), **env)


@pytest.mark.postgresql_only
async def test_a_used_sqlite_database_moves_to_postgresql_and_the_games_go_on(
        fake, drawn, solver, tmp_path):
    clock = FakeClock()
    source = tmp_path / "bot.sqlite3"
    made = await used_database(fake, source, clock)
    expected = counts_in_file(source)
    for table in COPY_ORDER:   # (the scenario has every kind of row)
        assert table == "meta" or expected[table] > 0, table
    url = database_for(tmp_path / "target")

    done = await asyncio.to_thread(migrate, tmp_path, url, source)
    assert done.returncode == 0, done.stderr
    assert f"games: {expected['games']}" in done.stdout and "PIECEPACK_DB=" in done.stdout
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".migrate-")]   # snapshot

    before = await Store.open(str(source))
    after = await Store.open(url)
    assert await counts_in(after) == expected
    ids = [g.id for s in ("lobby", "active", "finished", "cancelled")
           for g in await before.games_with_status(s)]
    assert len(ids) == expected["games"]
    for game_id in ids:
        assert await after.get_game(game_id) == await before.get_game(game_id)
        assert await after.events(game_id) == await before.events(game_id)
        assert await after.timers_of(game_id) == await before.timers_of(game_id)
    assert await after.absences_now(1, [999], clock.now) == await before.absences_now(1, [999], clock.now)
    [t] = await before.tournaments_in(int(fake.guild_id), ("running",))
    assert await after.get_tournament(t.id) == t
    assert await after.tournament_games(t.id) == await before.tournament_games(t.id)
    await before.close()
    await after.close()

    # the second run finds the games there and writes nothing
    again = await asyncio.to_thread(migrate, tmp_path, url, source)
    assert again.returncode == 1 and "not empty" in again.stderr and "games" in again.stderr
    store = await Store.open(url)
    assert await counts_in(store) == expected
    await store.close()

    # a bot on the URL: the pending notice goes out, a move is played, a deadline fires
    alice, bob, carol = made["users"]
    free_id, free_thread = made["free"]
    timed_id, timed_thread = made["timed"]
    async with running_bot(fake, tmp_path / "unused", clock=clock, db_path=url) as bot:
        await settle(bot)
        assert any("Left in the outbox" in m.text for m in fake.messages(free_thread))
        choices = await fake.autocomplete(alice, "move", {"move": ""}, focused="move",
                                          channel=free_thread)
        res = await command(fake, alice, "move", {"move": choices[0]["value"]}, channel=free_thread)
        assert choices[0]["value"] in res.text
        await settle(bot)
        moved = await bot.store.get_game(free_id)
        assert [e["kind"] for e in await bot.store.events(free_id)][-1] == "move"
        assert moved.status == "active"
        clock.advance(DAY)
        await settle(bot)
        text = "\n".join(m.text for m in fake.messages(timed_thread))
        assert "The deadline passed" in text
        assert (await bot.store.get_game(timed_id)).status == "finished"
        # new rows get new ids after the copied ones
        new, _ = await open_game(fake, bot, bob, carol)
        assert new.id > max(ids)


@pytest.mark.postgresql_only
async def test_migrate_db_is_refused_while_a_bot_has_the_file(tmp_path):
    source = tmp_path / "bot.sqlite3"
    store = await Store.open(str(source))
    await store.close()
    url = database_for(tmp_path / "target")
    with DatabaseLock(str(source)) as lock:   # what a running bot holds for its life
        assert lock.acquire()
        done = await asyncio.to_thread(migrate, tmp_path, url, source)
    assert done.returncode == 1
    assert "A piecepack-bot process is using the database" in done.stderr
    assert "Nothing was done" in done.stderr
    store = await Store.open(url)
    assert await store.get_meta("daily_secret") is None
    await store.close()


@pytest.mark.sqlite_only
def test_migrate_db_needs_a_url_and_an_existing_file(tmp_path):
    done = run_cli(tmp_path, "migrate-db", "--to", "other.sqlite3", "--from", "x.sqlite3")
    assert done.returncode == 1 and "--to names the PostgreSQL database" in done.stderr
    done = run_cli(tmp_path, "migrate-db", "--to", "postgresql://u@/db?host=/nowhere",
                   "--from", "x.sqlite3")
    assert done.returncode == 1 and "There is no database at" in done.stderr
    assert not (tmp_path / "x.sqlite3").exists()
    (tmp_path / "x.sqlite3").write_bytes(b"not a database" * 100)
    done = run_cli(tmp_path, "migrate-db", "--to", "postgresql://u:s3cret@/db?host=/nowhere",
                   "--from", "x.sqlite3")
    assert done.returncode == 1 and "Cannot read the database" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.sqlite_only
async def test_migrate_db_names_a_server_it_cannot_reach_without_the_password(tmp_path):
    store = await Store.open(str(tmp_path / "bot.sqlite3"))
    await store.close()
    url = f"postgresql://piecepack:s3cretpw@/piecepack?host={tmp_path}/nowhere"
    done = migrate(tmp_path, url, tmp_path / "bot.sqlite3")
    assert done.returncode == 1, done.stdout
    assert "Cannot use the PostgreSQL database postgresql://piecepack:***@/piecepack" in done.stderr
    assert "s3cretpw" not in done.stderr + done.stdout and "Traceback" not in done.stderr


@pytest.mark.postgresql_only
async def test_a_copy_that_fails_midway_keeps_nothing(tmp_path):
    source = tmp_path / "bot.sqlite3"
    store = await Store.open(str(source))
    await add_game(store, 1)
    await store.close()
    with sqlite3.connect(source) as db:   # a value SQLite took that PostgreSQL's column will not
        db.execute("UPDATE seats SET user_id = 'someone'")
    db.close()
    url = database_for(tmp_path / "target")
    done = await asyncio.to_thread(migrate, tmp_path, url, source)
    assert done.returncode == 1 and "rolled back" in done.stderr and "seats" in done.stderr
    store = await Store.open(url)
    assert (await counts_in(store))["games"] == 0   # the games copied before the seats: gone
    await store.close()


@pytest.mark.postgresql_only
async def test_a_table_migrate_db_does_not_know_is_not_left_behind(tmp_path):
    source = tmp_path / "bot.sqlite3"
    store = await Store.open(str(source))
    await add_game(store, 1)
    await store.close()
    with sqlite3.connect(source) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    done = await asyncio.to_thread(migrate, tmp_path, database_for(tmp_path / "target"), source)
    assert done.returncode == 1 and "notes" in done.stderr
