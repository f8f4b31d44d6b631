"""The admin's side of the program: start-up failures that name their cause, `backup` and
`restore` on real SQLite files, `health` and the heartbeat, `forget-guild`, `sync --clear`."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot import storage
from bot.app import (GATEWAY_GRACE, HEARTBEAT_STALE, PiecepackBot, clear_stale_partials,
                     health_problem, write_health)
from bot.settings import Settings
from bot.storage import Event, Store
from tests.botkit import fake_discord
from tests.processes import BotProcess

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


def crashed_bot_database(path: Path, guilds=(1, 2)) -> bytes:
    """A database as a bot killed with kill -9 leaves it: recent games only in its -wal file.
    Returns the -wal file's bytes."""
    script = (
        "import asyncio, os, sys\n"
        "from tests.test_bot_admin import add_game\n"
        "from bot.storage import Store\n"
        "async def main():\n"
        "    store = await Store.open(sys.argv[1])\n"
        f"    for guild in {list(guilds)!r}:\n"
        "        await add_game(store, guild)\n"
        "    os._exit(0)\n"
        "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, cwd=ROOT, timeout=60)
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 0
    return wal.read_bytes()


def saved_backup(tmp_path: Path, guild: int) -> Path:
    """A backup holding one game of `guild`."""
    source = tmp_path / f"source-{guild}.sqlite3"
    crashed_bot_database(source, guilds=(guild,))
    target = tmp_path / f"backup-{guild}.sqlite3"
    storage.backup(str(source), str(target))
    return target


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if p.name.endswith((".partial", ".restoring")) or ".before-restore-" in p.name)


async def test_restore_is_refused_while_a_bot_process_has_the_database_open(tmp_path):
    """Even when its gateway has been down for long (the heartbeat then says unhealthy); a second
    bot on the same database is refused at start; once the bot is killed, restore works."""
    db = tmp_path / "data" / "piecepack.sqlite3"
    db.parent.mkdir()
    saved = await asyncio.to_thread(saved_backup, tmp_path, 7)
    stale = db.parent / "piecepack.sqlite3.health.killed.partial"   # (a killed bot's)
    stale.write_text("{")
    os.utime(stale, (time.time() - 3600,) * 2)
    async with fake_discord() as fake:
        async with BotProcess(fake, db, tmp_path) as bot:
            await fake.wait_for(lambda: fake.identify_count >= 1 and fake.connected, timeout=30)
            await fake.wait_for(lambda: not stale.exists(), timeout=30)   # cleared at start
            await fake.stop()   # the gateway goes away; the bot keeps trying to reconnect
            write_health(f"{db}.health", {"at": time.time(), "database": "ok",
                                          "gateway": "disconnected",
                                          "gateway_since": time.time() - 3600})
            before = games_in(db)
            done = await asyncio.to_thread(run_cli, tmp_path, "restore", str(saved),
                                           PIECEPACK_DB=str(db))
            assert done.returncode == 1
            assert f"A piecepack-bot process is using the database {db}: stop it first" in done.stderr
            assert games_in(db) == before and leftovers(db.parent) == []

            second = await asyncio.to_thread(run_cli, tmp_path, DISCORD_TOKEN=fake.token,
                                             PIECEPACK_DB=str(db))
            assert second.returncode == 1 and "Traceback" not in second.stderr
            assert f"Another piecepack-bot process is using the database {db}" in second.stderr

            assert bot.proc.returncode is None   # still running, holding the database
            await bot.kill()   # kill -9: the operating system releases the lock
    done = await asyncio.to_thread(run_cli, tmp_path, "restore", str(saved), PIECEPACK_DB=str(db))
    assert done.returncode == 0, done.stderr
    assert [g[1] for g in games_in(db)] == [7]


def test_restore_from_the_database_itself_is_refused(tmp_path):
    db = tmp_path / "piecepack.sqlite3"
    wal = crashed_bot_database(db)
    for name in ("piecepack.sqlite3", "./piecepack.sqlite3", str(db)):
        done = run_cli(tmp_path, "restore", name, PIECEPACK_DB="piecepack.sqlite3")
        assert done.returncode == 1
        assert done.stderr.strip() == f"{db} is the database itself (PIECEPACK_DB): restore names " \
                                      f"a backup to put in its place. Nothing was changed."
        assert Path(f"{db}-wal").read_bytes() == wal and leftovers(tmp_path) == []
    assert [g[1] for g in games_in(db)] == [1, 2]


def damaged_backup(path: Path) -> Path:
    """A file that reads as a piecepack-bot backup (its schema version is there) but whose
    later pages are damaged: the copy fails midway, at SQLite's integrity check."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(storage.SCHEMA_VERSION),))
        db.execute("CREATE TABLE filler (x)")
        db.executemany("INSERT INTO filler VALUES (?)", [(os.urandom(600),) for _ in range(200)])
    page = 4096
    data = bytearray(path.read_bytes())
    assert len(data) > 20 * page
    data[10 * page:10 * page + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    return path


def test_a_restore_that_fails_midway_leaves_the_database_as_it_was(tmp_path):
    db = tmp_path / "piecepack.sqlite3"
    wal = crashed_bot_database(db)
    main = db.read_bytes()
    bad = damaged_backup(tmp_path / "damaged.sqlite3")
    done = run_cli(tmp_path, "restore", "damaged.sqlite3", PIECEPACK_DB=str(db))
    assert done.returncode == 1 and "Nothing was changed" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and bad.exists()
    assert db.read_bytes() == main and Path(f"{db}-wal").read_bytes() == wal
    assert leftovers(tmp_path) == []
    assert [g[1] for g in games_in(db)] == [1, 2]


def test_restore_keeps_what_only_the_old_databases_wal_held(tmp_path):
    """A bot killed with kill -9 leaves its last games in the -wal file: the kept copy has them,
    and no -wal of the old database stays beside the restored one."""
    db = tmp_path / "piecepack.sqlite3"
    crashed_bot_database(db, guilds=(1, 2))
    saved = saved_backup(tmp_path, 9)
    done = run_cli(tmp_path, "restore", str(saved), PIECEPACK_DB=str(db))
    assert done.returncode == 0, done.stderr
    kept = [tmp_path / name for name in leftovers(tmp_path)]
    assert len(kept) == 1 and f"kept as {kept[0]}" in done.stdout
    assert not Path(f"{db}-wal").exists() and not Path(f"{kept[0]}-wal").exists()
    assert [g[1] for g in games_in(kept[0])] == [1, 2]
    assert [g[1] for g in games_in(db)] == [9]


def test_restore_of_a_missing_file_says_it_does_not_exist(tmp_path):
    db = tmp_path / "piecepack.sqlite3"
    crashed_bot_database(db)
    done = run_cli(tmp_path, "restore", "backups/nothing.sqlite3", PIECEPACK_DB=str(db))
    assert done.returncode == 1
    assert done.stderr.strip() == f"There is no backup file at {tmp_path}/backups/nothing.sqlite3. " \
                                  f"Nothing was changed."
    assert [g[1] for g in games_in(db)] == [1, 2]


def test_restore_where_there_is_no_database_yet_says_so(tmp_path):
    """A new machine or Docker volume: restore is how its database comes to be."""
    saved = saved_backup(tmp_path, 4)
    (tmp_path / "new").mkdir()
    done = run_cli(tmp_path / "new", "restore", str(saved))
    assert done.returncode == 0, done.stderr
    db = tmp_path / "new" / "piecepack.sqlite3"
    assert f"There was no database at {db}" in done.stdout
    assert [g[1] for g in games_in(db)] == [4]


def test_backup_makes_the_folder_it_writes_to(tmp_path):
    db = tmp_path / "piecepack.sqlite3"
    crashed_bot_database(db)
    done = run_cli(tmp_path, "backup", "backups/2026/x.sqlite3")
    assert done.returncode == 0, done.stderr
    assert [g[1] for g in games_in(tmp_path / "backups" / "2026" / "x.sqlite3")] == [1, 2]


@pytest.mark.parametrize("target, cause", [
    ("a-file/x.sqlite3", "Cannot create the folder {tmp}/a-file for the backup"),
    ("x" * 300 + ".sqlite3", "Cannot write the backup {tmp}/xxx"),
])
def test_a_backup_that_cannot_be_written_names_the_target_not_the_database(tmp_path, target, cause):
    db = tmp_path / "piecepack.sqlite3"
    crashed_bot_database(db)
    (tmp_path / "a-file").write_text("")
    done = run_cli(tmp_path, "backup", target)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(cause.format(tmp=tmp_path)), done.stderr
    assert "The database was not changed" in done.stderr and "cannot read" not in done.stderr
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("args", [["forget-guild", "1"], ["backup", "x.sqlite3"], ["health"],
                                  ["sync", "--guild", "1"]])
def test_admin_commands_never_create_a_database(tmp_path, args):
    """Run from another directory than the bot's, they name the file they looked for."""
    bot_dir, elsewhere = tmp_path / "bot", tmp_path / "elsewhere"
    bot_dir.mkdir(), elsewhere.mkdir()
    crashed_bot_database(bot_dir / "piecepack.sqlite3")
    done = run_cli(elsewhere, *args, DISCORD_TOKEN="t0ken",
                   DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    assert list(elsewhere.iterdir()) == []
    if args[0] != "sync":   # sync needs no database: it publishes without one
        assert f"no database at {elsewhere}/piecepack.sqlite3" in (done.stderr + done.stdout).lower()


@pytest.mark.parametrize("args", [["sync"], ["sync", "--guild", "1"], ["sync", "--guild", "1", "--clear"]])
def test_sync_without_a_network_fails_with_one_line(tmp_path, args):
    crashed_bot_database(tmp_path / "piecepack.sqlite3")
    done = run_cli(tmp_path, *args, DISCORD_TOKEN="t0ken",
                   DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1 and done.stdout == ""
    errors = [line for line in done.stderr.splitlines() if " ERROR " in line]
    assert len(done.stderr.splitlines()) <= 2 and len(errors) == 1, done.stderr
    assert "Cannot reach Discord" in errors[0] and "DISCORD_API_BASE" in errors[0]


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
    await bot.on_shard_connect(0)
    status = await bot.health_status()
    assert status["database"] == "ok" and status["gateway"] == "connected"
    assert health_problem(status, time.time()) is None
    await bot.on_shard_disconnect(0)
    status = await bot.health_status()
    assert status["gateway"] == "disconnected"
    assert health_problem(status, status["gateway_since"] + GATEWAY_GRACE + 1) is not None
    await store.db.close()   # the database is lost under the bot
    status = await bot.health_status()
    assert status["database"] != "ok" and "database" in health_problem(status, time.time())


def test_health_file_writers_at_once_never_rename_each_others_file(tmp_path):
    """The bot's heartbeat and another writer (its last word at shutdown, a second process) may
    write the health file at the same moment: each write lands whole, none fails."""
    health = tmp_path / "piecepack.sqlite3.health"
    start = threading.Barrier(4)

    def writer(n: int) -> None:
        start.wait()
        for i in range(300):
            write_health(str(health), {"at": time.time(), "writer": n, "i": i})

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(writer, n) for n in range(4)]:
            done.result()   # raises if any write failed
    assert json.loads(health.read_text())["i"] == 299
    assert leftovers(tmp_path) == []


def test_partial_health_files_a_killed_bot_left_are_cleared_and_live_ones_kept(tmp_path):
    health = tmp_path / "piecepack.sqlite3.health"
    now = time.time()
    stale, live = (tmp_path / f"piecepack.sqlite3.health.{k}.partial" for k in ("x1", "x2"))
    other = tmp_path / "other.health.x3.partial"   # (not this health file's)
    for f in (stale, live, other):
        f.write_text("{")
    os.utime(stale, (now - HEARTBEAT_STALE - 5,) * 2)
    os.utime(other, (now - HEARTBEAT_STALE - 5,) * 2)
    assert clear_stale_partials(str(health), now) == [stale.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])


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
