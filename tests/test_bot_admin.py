"""The admin's side of the program: start-up failures that name their cause, `backup` and
`restore` on real SQLite files, `health` and the heartbeat, `forget-guild`, `sync --clear`."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import storage
from bot.app import GATEWAY_GRACE, HEARTBEAT_STALE, PiecepackBot, health_problem, write_health
from bot.settings import Settings
from bot.storage import Event, Store
from tests.botkit import fake_discord

ROOT = Path(__file__).resolve().parents[1]


def run_cli(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m bot ARGS` with only the given settings (and no token unless given)."""
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=tmp_path, env={**base, **env},
                          capture_output=True, text=True, timeout=60)


async def add_game(store: Store, guild_id: int, host_id: int = 10, now: float = 100.0):
    game = await store.create_game(game="relativity", guild_id=guild_id, channel_id=2,
                                   host_id=host_id, host_name=f"Host {host_id}", options={},
                                   deadline_seconds=None, invited_id=None, now=now)
    await store.commit(game.id, game.version, now=now, events=[Event("created", "10", "hello")])
    return game


def games_in(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT id, guild_id, host_id, version FROM games ORDER BY id").fetchall()


# ---- start-up failures -------------------------------------------------------------------------


def newer_database(path: Path) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(storage.SCHEMA_VERSION + 5),))
    return path


@pytest.mark.parametrize("level", ["DEBUG", "ERROR"])
@pytest.mark.parametrize("make_db, cause", [
    # a directory that cannot exist (its parent is a file): as unwritable as it gets for root
    (lambda tmp: tmp / "a-file" / "db.sqlite3", "Cannot open the database"),
    (lambda tmp: newer_database(tmp / "new.sqlite3"), "written by a newer release"),
    (lambda tmp: (tmp / "junk.sqlite3").write_text("not sqlite at all " * 300) and tmp / "junk.sqlite3",
     "is not a usable SQLite database"),
])
def test_a_database_that_cannot_be_opened_is_named_before_any_connection(tmp_path, level, make_db,
                                                                         cause):
    (tmp_path / "a-file").write_text("")
    db = make_db(tmp_path)
    # the gateway and API point at a closed port: the database must be what is reported
    done = run_cli(tmp_path, DISCORD_TOKEN="t0ken", PIECEPACK_DB=str(db), LOG_LEVEL=level,
                   DISCORD_API_BASE="http://127.0.0.1:9/api/v10",
                   DISCORD_GATEWAY_URL="ws://127.0.0.1:9/")
    assert done.returncode == 1
    assert cause in done.stderr and "PIECEPACK_DB" in done.stderr or "restore" in done.stderr
    assert "gateway" not in done.stderr.lower() and "Traceback" not in done.stderr


@pytest.mark.parametrize("name", ["PIECEPACK_REMINDER_HOURS", "PIECEPACK_GUILD_READY_TIMEOUT"])
def test_a_number_setting_that_is_not_a_number_is_named(tmp_path, name):
    done = run_cli(tmp_path, **{"DISCORD_TOKEN": "t0ken", name: "soon"})
    assert done.returncode == 2
    assert done.stderr.strip() == f"{name} must be a number, such as " \
        f"{24 if 'HOURS' in name else 2}, not 'soon'."


# ---- backup and restore ------------------------------------------------------------------------


async def test_backup_of_a_live_database_is_a_complete_working_copy(tmp_path):
    live = tmp_path / "live.sqlite3"
    store = await Store.open(str(live))
    for guild in (1, 1, 2):
        await add_game(store, guild)
    # the store stays open with its writes in the WAL file, not yet in the main file
    assert os.path.getsize(f"{live}-wal") > 0
    copy = tmp_path / "backup.sqlite3"
    assert storage.backup(str(live), str(copy)) == storage.SCHEMA_VERSION
    await add_game(store, 3)   # the live database goes on; the copy does not change
    await store.close()
    assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}.partial").exists()
    assert games_in(copy) == games_in(live)[:3] and len(games_in(live)) == 4
    reopened = await Store.open(str(copy))
    game = await reopened.get_game(1)
    assert game.seats[0].name == "Host 10" and game.version == 1
    assert [e["kind"] for e in await reopened.events(1)] == ["lobby", "created"]
    await reopened.close()


async def test_backup_and_restore_commands(tmp_path):
    live = tmp_path / "data" / "piecepack.sqlite3"
    live.parent.mkdir()
    store = await Store.open(str(live))
    await add_game(store, 7)
    # `backup` needs no token and works while the bot's connection is open
    done = await asyncio.to_thread(run_cli, tmp_path, "backup", "saved.sqlite3", PIECEPACK_DB=str(live))
    assert done.returncode == 0, done.stderr
    assert "Backed up" in done.stdout and games_in(tmp_path / "saved.sqlite3") == games_in(live)
    again = await asyncio.to_thread(run_cli, tmp_path, "backup", "saved.sqlite3", PIECEPACK_DB=str(live))
    assert again.returncode == 1 and "exists already" in again.stderr
    await add_game(store, 8)
    await store.close()

    done = run_cli(tmp_path, "restore", "saved.sqlite3", PIECEPACK_DB=str(live))
    assert done.returncode == 0, done.stderr
    assert [g[1] for g in games_in(live)] == [7]
    kept = [p for p in live.parent.iterdir() if ".before-restore-" in p.name]
    assert len(kept) == 1 and [g[1] for g in games_in(kept[0])] == [7, 8]
    reopened = await Store.open(str(live))
    assert (await reopened.get_game(1)).guild_id == 7
    await reopened.close()

    (tmp_path / "junk").write_text("hello")
    bad = run_cli(tmp_path, "restore", "junk", PIECEPACK_DB=str(live))
    assert bad.returncode == 1 and "not a piecepack-bot backup" in bad.stderr
    assert [g[1] for g in games_in(live)] == [7]


def test_restore_is_refused_while_the_bot_runs(tmp_path):
    live = tmp_path / "piecepack.sqlite3"
    sqlite3.connect(live).close()
    write_health(f"{live}.health", {"at": time.time(), "database": "ok", "gateway": "connected",
                                    "gateway_since": time.time()})
    done = run_cli(tmp_path, "restore", "whatever.sqlite3", PIECEPACK_DB=str(live))
    assert done.returncode == 1 and "stop it first" in done.stderr


# ---- health ------------------------------------------------------------------------------------


def test_health_problem_reads_the_heartbeat():
    now = 10_000.0
    good = {"at": now - 5, "database": "ok", "gateway": "connected", "gateway_since": now - 500}
    assert health_problem(good, now) is None
    assert "not running" in health_problem(None, now)
    assert "stopped" in health_problem({"at": now, "stopped": True}, now)
    assert "stuck" in health_problem({**good, "at": now - HEARTBEAT_STALE - 1}, now)
    assert "database" in health_problem({**good, "database": "OperationalError: disk I/O error"}, now)
    # a short reconnection is normal; a long one is not
    down = {**good, "gateway": "disconnected", "gateway_since": now - 10}
    assert health_problem(down, now) is None
    assert "gateway" in health_problem({**down, "gateway_since": now - GATEWAY_GRACE - 1}, now)


async def test_the_heartbeat_reports_the_gateway_and_the_database(tmp_path):
    store = await Store.open(str(tmp_path / "db.sqlite3"))
    bot = PiecepackBot(Settings(token="t", db_path=str(tmp_path / "db.sqlite3")), store=store)
    await bot.on_connect()
    status = await bot.health_status()
    assert status["database"] == "ok" and status["gateway"] == "connected"
    assert health_problem(status, time.time()) is None
    await bot.on_disconnect()
    status = await bot.health_status()
    assert status["gateway"] == "disconnected"
    assert health_problem(status, status["gateway_since"] + GATEWAY_GRACE + 1) is not None
    await store.db.close()   # the database is lost under the bot
    status = await bot.health_status()
    assert status["database"] != "ok" and "database" in health_problem(status, time.time())


def test_health_command_exit_codes(tmp_path):
    health = tmp_path / "piecepack.sqlite3.health"
    done = run_cli(tmp_path)   # no token: running the bot is refused, health is not
    assert done.returncode == 2
    assert run_cli(tmp_path, "health").returncode == 1
    write_health(str(health), {"at": time.time(), "database": "ok", "gateway": "connected",
                               "gateway_since": time.time()})
    done = run_cli(tmp_path, "health")
    assert done.returncode == 0 and done.stdout.strip() == "healthy"
    write_health(str(health), {"at": time.time(), "database": "ok", "gateway": "disconnected",
                               "gateway_since": time.time() - 3600})
    done = run_cli(tmp_path, "health")
    assert done.returncode == 1 and "gateway" in done.stdout
    assert json.loads(health.read_text())["gateway"] == "disconnected"


# ---- a server's data ---------------------------------------------------------------------------


async def test_forget_guild_deletes_that_servers_games_and_nothing_else(tmp_path):
    path = tmp_path / "db.sqlite3"
    store = await Store.open(str(path))
    for guild, host in ((1, 10), (2, 20), (1, 30)):
        await add_game(store, guild, host)
    await store.close()
    done = run_cli(tmp_path, "forget-guild", "1", PIECEPACK_DB=str(path))
    assert done.returncode == 0, done.stderr
    assert "Deleted 2 games of server" in done.stdout
    assert [g[1] for g in games_in(path)] == [2]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT user_id FROM seats").fetchall() == [(20,)]
        assert db.execute("SELECT DISTINCT game_id FROM events").fetchall() == [(2,)]


async def test_sync_clear_removes_the_server_copies(tmp_path):
    async with fake_discord() as fake:
        env = {"DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.base_url,
               "DISCORD_GATEWAY_URL": fake.gateway_url, "PIECEPACK_DB": str(tmp_path / "db.sqlite3")}
        for args in (["sync", "--guild", str(fake.guild_id)], ["sync"]):
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", *args, cwd=tmp_path,
                env={**env, "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)},
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            output, _ = await asyncio.wait_for(proc.communicate(), 30)
            assert proc.returncode == 0, output.decode()
        assert fake.published_commands[fake.guild_id] and fake.published_commands[None]
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "sync", "--guild", str(fake.guild_id), "--clear",
            cwd=tmp_path, env={**env, "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        output, _ = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 0 and b"Removed" in output, output.decode()
        assert fake.published_commands[fake.guild_id] == []
        assert {c["name"] for c in fake.published_commands[None]} >= {"play", "move"}
