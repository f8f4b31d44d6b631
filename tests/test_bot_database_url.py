"""PIECEPACK_DB as a PostgreSQL URL: settings, start-up errors and the admin commands (the
ones that work on both engines run on both; the rest need no server)."""

import subprocess
import sys
import time

import pytest

from bot.app import PiecepackBot, health_problem
from bot.settings import Settings, SettingsError, load_settings
from bot.storage import Store
from tests.pg import database_for
from tests.test_bot_admin import ROOT, add_game, run_cli

URL = "postgresql://piecepack:s3cretpw@localhost/piecepack"


def test_a_url_is_taken_and_the_heartbeat_gets_a_file_of_its_own(tmp_path):
    s = load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_DB": URL}, cwd=tmp_path)
    assert s.db_path == URL and s.health_file == "./piecepack-bot.health"
    s = load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_DB": "postgres://h/db"}, cwd=tmp_path)
    assert s.db_path == "postgres://h/db"


@pytest.mark.parametrize("url, message", [
    ("mysql://piecepack:s3cretpw@localhost/piecepack", "a SQLite file's path or a PostgreSQL URL"),
    ("postgresql://piecepack:s3cretpw@localhost", "names no database"),
])
def test_a_bad_url_says_what_to_fix_without_its_password(tmp_path, url, message):
    with pytest.raises(SettingsError, match=message) as error:
        load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_DB": url}, cwd=tmp_path)
    assert "s3cretpw" not in str(error.value) and "***" in str(error.value)


def test_a_url_without_asyncpg_says_how_to_get_it_in_one_line(tmp_path):
    code = ("import sys; sys.modules['asyncpg'] = None; sys.argv = ['piecepack-bot']\n"
            "from bot.__main__ import main; main()")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "t",
                                                      "PIECEPACK_DB": URL})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "PIECEPACK_DB is a PostgreSQL URL, but asyncpg is not installed: "
        "pip install 'piecepack-bot[postgres]'"]


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_backup_and_restore_of_a_url_point_to_pg_dump(tmp_path, command):
    done = run_cli(tmp_path, command, "x.sqlite3", PIECEPACK_DB=URL)
    assert done.returncode == 1
    assert "pg_dump" in done.stderr and "pg_restore" in done.stderr
    assert "s3cretpw" not in done.stderr + done.stdout
    assert not (tmp_path / "x.sqlite3").exists()


def test_a_server_that_cannot_be_reached_is_named_without_the_password(tmp_path):
    url = f"postgresql://piecepack:s3cretpw@/piecepack?host={tmp_path}/nowhere"
    done = run_cli(tmp_path, DISCORD_TOKEN="t", PIECEPACK_DB=url, DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1
    said = done.stderr + done.stdout
    assert "Cannot use the PostgreSQL database postgresql://piecepack:***@/piecepack" in said
    assert "s3cretpw" not in said


async def test_forget_guild_on_either_engine(tmp_path):
    target = database_for(tmp_path / "db.sqlite3")
    store = await Store.open(target)
    for guild, host in ((1, 10), (2, 20), (1, 30)):
        await add_game(store, guild, host)
    await store.close()
    done = run_cli(tmp_path, "forget-guild", "1", PIECEPACK_DB=target)
    assert done.returncode == 0, done.stderr
    assert "Deleted 2 games of server" in done.stdout
    store = await Store.open(target)
    assert [g.guild_id for g in await store.games_with_status("lobby")] == [2]
    assert [e["kind"] for e in await store.events(2)] == ["lobby", "created"]
    assert await store.events(1) == []
    await store.close()


async def test_the_heartbeat_sees_a_database_that_cannot_be_written(tmp_path):
    target = database_for(tmp_path / "db.sqlite3")
    store = await Store.open(target)
    bot = PiecepackBot(Settings(token="t", db_path=target), store=store)
    await bot.on_shard_connect(0)
    status = await bot.health_status()
    assert status["database"] == "ok" and health_problem(status, time.time()) is None
    await store.engine.close()   # the database is lost under the bot
    status = await bot.health_status()
    assert status["database"] != "ok" and "database" in health_problem(status, time.time())
    assert "s3cretpw" not in status["database"]


@pytest.mark.postgresql_only
async def test_a_second_bot_on_one_postgresql_database_is_refused(tmp_path):
    target = database_for(tmp_path / "db.sqlite3")
    first = await Store.open(target)
    assert await first.engine.hold_bot_locks() is None   # (all the shards)
    done = run_cli(tmp_path, DISCORD_TOKEN="t", PIECEPACK_DB=target,
                   DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert done.returncode == 1
    assert "Another piecepack-bot process already runs all shards on the database" in done.stderr + done.stdout
    # a bot of all the shards runs shard 1 too
    other = run_cli(tmp_path, DISCORD_TOKEN="t", PIECEPACK_DB=target, PIECEPACK_SHARD_COUNT="2",
                    PIECEPACK_SHARDS="1", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
    assert other.returncode == 1 and "already runs all shards" in other.stderr + other.stdout
    await first.close()   # its lock goes with it
    second = await Store.open(target)
    assert await second.engine.hold_bot_locks() is None
    await second.close()


@pytest.mark.postgresql_only
async def test_bots_whose_shards_overlap_are_refused_naming_the_shard(tmp_path):
    """Each shard is locked on its own: 0-1 and 1-2 overlap in shard 1 (a lock named by the
    whole set told them apart), while 0-1 and 2-3 share the database."""
    target = database_for(tmp_path / "db.sqlite3")
    a, b, c = [await Store.open(target) for _ in range(3)]
    try:
        assert await a.engine.hold_bot_locks([0, 1]) is None
        assert await b.engine.hold_bot_locks([2, 1]) == "shard 1"
        done = run_cli(tmp_path, DISCORD_TOKEN="t", PIECEPACK_DB=target, PIECEPACK_SHARD_COUNT="4",
                       PIECEPACK_SHARDS="1-2", DISCORD_API_BASE="http://127.0.0.1:9/api/v10")
        said_ = done.stderr + done.stdout
        assert done.returncode == 1 and "already runs shard 1 on the database" in said_
        assert said_.count("\n") == 1 and "Traceback" not in said_   # one line
        assert await b.engine.hold_bot_locks([2, 3]) is None
        assert await c.engine.hold_bot_locks() == "shard 0, 1, 2, 3"   # all: any of them
        await a.close()   # its locks go with it
        assert await c.engine.hold_bot_locks([0, 1]) is None
    finally:
        for store in (a, b, c):
            await store.close()


def test_logs_hide_the_urls_password():
    import io
    import logging

    from bot.settings import setup_logging

    from bot.settings import QUIET_LOGGERS

    names = ["", *QUIET_LOGGERS]
    levels = {name: logging.getLogger(name).level for name in names}
    stream = io.StringIO()
    handler = setup_logging(Settings(token="t" * 40, db_path="postgresql://u:p%40ss-w0rd@h/db"),
                            stream=stream)
    try:
        logging.getLogger("bot").error("connecting to %s failed (password p@ss-w0rd)",
                                       "postgresql://u:p%40ss-w0rd@h/db")
    finally:
        logging.getLogger().removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)
    assert "p%40ss-w0rd" not in stream.getvalue() and "p@ss-w0rd" not in stream.getvalue()
    assert "connecting to" in stream.getvalue()
