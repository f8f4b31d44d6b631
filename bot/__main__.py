"""`piecepack-bot` (or `python -m bot`): run the bot. Other commands, for the server's admin:

    piecepack-bot sync [--guild ID [--clear]]   publish (or remove) the slash commands, then exit
    piecepack-bot backup FILE                   copy the database, safely while the bot runs
    piecepack-bot restore FILE                  put a backup in place of the database (bot stopped)
    piecepack-bot health                        exit 0 if the running bot is healthy (Docker)
    piecepack-bot forget-guild ID               delete every game of one server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path

import aiohttp
import discord

from . import texts
from .settings import Settings, SettingsError, apply_endpoints, load_settings, setup_logging
from .storage.engine import is_url

log = logging.getLogger("bot")


class StartupError(Exception):
    """The bot cannot start; the message names the cause and what to do."""


def database_problem(path: str, exc: BaseException) -> str:
    """A start-up failure of the database, in an admin's words."""
    from .storage import SCHEMA_VERSION, SchemaTooNew
    from .storage.engine import without_password

    where = without_password(path) if is_url(path) else os.path.abspath(path)
    if isinstance(exc, SchemaTooNew):
        return (f"The database {where} was written by a newer release of piecepack-bot "
                f"(schema {exc.version}; this release knows up to {SCHEMA_VERSION}). Run the newer "
                f"release, or restore a backup made before the upgrade (piecepack-bot restore).")
    text = str(exc)
    if is_url(path):   # (the driver's messages name the server, never the password)
        return (f"Cannot use the PostgreSQL database {where} ({type(exc).__name__}: {text}). "
                f"Check PIECEPACK_DB, that the server runs and that the role may use the database.")
    if "unable to open" in text or "readonly" in text or "read-only" in text \
            or isinstance(exc, OSError):
        user = f"the bot's user (uid {os.getuid()})" if hasattr(os, "getuid") else "the bot's user"
        return (f"Cannot open the database {where} for writing ({text}). Check PIECEPACK_DB: its "
                f"directory must exist and {user} must be allowed to "
                f"write both the file and its directory (SQLite writes -wal and -shm files, the bot a "
                f".lock file beside it).")
    if "not a database" in text or "malformed" in text:
        return (f"{where} is not a usable SQLite database ({text}). Check PIECEPACK_DB, or "
                f"restore a backup (piecepack-bot restore).")
    return f"Cannot open the database {where} ({type(exc).__name__}: {text}). Check PIECEPACK_DB."


def no_database(path: str) -> str:
    """What an admin command says when PIECEPACK_DB names no file (it never creates one)."""
    return (f"There is no database at {os.path.abspath(path)}: nothing was done, and no "
            f"database was created. Run the command in the directory the bot runs in (a "
            f"relative PIECEPACK_DB, like the default ./piecepack.sqlite3, and the .env file are "
            f"found from there), or set PIECEPACK_DB to the bot's database.")


async def open_store(path: str, *, create: bool = True):
    """The store; `create=False` for admin commands: a missing database is an error."""
    from .storage import NoDatabase, SchemaTooNew, Store, existing

    if is_url(path):
        try:
            return await Store.open(path, create=create)
        except (SchemaTooNew, OSError, *DATABASE_ERRORS) as exc:
            raise StartupError(database_problem(path, exc)) from None
    try:
        # Probe with the standard module first: when aiosqlite cannot open a file, its worker
        # thread outlives the failure and prints a traceback of its own at exit.
        probe = sqlite3.connect(path) if create else sqlite3.connect(existing(path), uri=True)
        probe.execute("PRAGMA schema_version").connection.close()
        return await Store.open(path, create=create)
    except NoDatabase:
        raise StartupError(no_database(path)) from None
    except (sqlite3.Error, SchemaTooNew, OSError) as exc:
        raise StartupError(database_problem(path, exc)) from None


def database_errors() -> tuple[type[BaseException], ...]:
    """The exceptions a database's failure raises (the engines' drivers)."""
    try:
        import asyncpg
    except ImportError:
        return (sqlite3.Error,)
    return (sqlite3.Error, asyncpg.PostgresError, asyncpg.InterfaceError)


DATABASE_ERRORS = database_errors()


def discord_problem(exc: BaseException) -> str | None:
    """A failure to talk to Discord, in one line for an admin; None for anything else."""
    if isinstance(exc, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN."
    if isinstance(exc, (aiohttp.ClientConnectionError, asyncio.TimeoutError, OSError)):
        return (f"Cannot reach Discord ({exc or type(exc).__name__}): check the network and "
                f"DISCORD_API_BASE.")
    if isinstance(exc, discord.HTTPException):
        return (f"Discord answered {exc.response.method} {exc.response.url.path} with "
                f"{exc.status} {exc.text or ''}: check DISCORD_API_BASE (the API root, such as "
                f"https://discord.com/api/v10).")
    return None


async def run_bot(settings: Settings) -> int:
    from .app import PiecepackBot

    # The database first: its problems are not the network's, and need no connection to show.
    try:
        store = await open_store(settings.db_path)
    except StartupError as exc:
        log.error("%s", exc)
        return 1
    if is_url(settings.db_path) and not await store.engine.hold_bot_lock():
        from .storage.engine import without_password

        log.error("Another piecepack-bot process is using the database %s: two bots on one "
                  "database would both send every message and fire every timer. Stop the other "
                  "one, or give this one its own PIECEPACK_DB.", without_password(settings.db_path))
        await store.close()
        return 1
    bot = PiecepackBot(settings, store=store)
    # SIGTERM (docker stop) and SIGINT stop the bot whatever its connection is doing. close()
    # alone would let start() first wait out discord.py's reconnect back-off (up to minutes while
    # Discord cannot be reached: Docker kills the bot after 10 s), so start() runs as a task of
    # its own that the signal cancels; leaving `async with bot` then closes the bot, database
    # included.
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stopping.set)
        except (NotImplementedError, RuntimeError):
            pass
    async with bot:
        running = asyncio.ensure_future(bot.start(settings.token))
        stopped = asyncio.ensure_future(stopping.wait())
        try:
            await asyncio.wait({running, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not bot.is_closed():   # (closing already: start() ends by itself)
                running.cancel()
                # a shard reconnecting swallows the cancel (discord.py's AutoShardedClient):
                # closing the bot then ends its loop
                await asyncio.wait({running}, timeout=0.5)
                if not running.done():
                    await bot.close()
            await running
        except asyncio.CancelledError:
            if not stopping.is_set():
                raise
        except discord.LoginFailure:
            log.error("Discord refused the token: check DISCORD_TOKEN (reset it in the Developer "
                      "Portal if needed).")
            return 1
        except (aiohttp.ClientConnectionError, OSError) as exc:
            log.error("Cannot reach Discord (%s): check the network, DISCORD_API_BASE and "
                      "DISCORD_GATEWAY_URL.", exc)
            return 1
        except discord.HTTPException as exc:
            log.error("Discord answered %s %s with %s %s at start-up: check DISCORD_API_BASE "
                      "(the API root, such as https://discord.com/api/v10).",
                      exc.response.method, exc.response.url.path, exc.status, exc.text or "")
            return 1
        except discord.ConnectionClosed as exc:
            log.error("The gateway closed the connection (code %s): check DISCORD_TOKEN and "
                      "DISCORD_GATEWAY_URL.", exc.code)
            return 1
        except DATABASE_ERRORS as exc:
            log.error("%s", database_problem(settings.db_path, exc))
            return 1
        except AttributeError:
            if not bot.setup_done or bot.ws is not None:
                raise
            # discord.py 2.7 fails this way when its first gateway connection fails; the
            # cause is in its own log line above
            log.error("Cannot connect to the gateway at %s: check the network and "
                      "DISCORD_GATEWAY_URL.", settings.gateway_url or "Discord's default")
            return 1
        finally:
            stopped.cancel()
            running.cancel()   # (nothing, once it has ended)
    return 0


async def run_sync(settings: Settings, guild_id: int | None, clear: bool) -> int:
    from .app import PiecepackBot

    # The database only remembers what was published (the bot then need not publish again at
    # start); without one, publishing works all the same and creates none.
    path = settings.db_path if is_url(settings.db_path) or os.path.exists(settings.db_path) \
        else ":memory:"
    try:
        store = await open_store(path, create=path == ":memory:")
    except StartupError as exc:
        log.error("%s", exc)
        return 1
    bot = PiecepackBot(settings, sync_commands=False, background=False, store=store)
    async with bot:
        try:
            await bot.login(settings.token)
            if clear:
                await bot.http.bulk_upsert_guild_commands(bot.application_id, guild_id,
                                                          payload=[])
                print(f"Removed the server copies of the slash commands from server {guild_id}; "
                      f"the global ones remain.")
                return 0
            count = await bot.sync_commands(guild_id)
        except Exception as exc:
            problem = discord_problem(exc)
            if problem is None:
                raise
            log.error("%s", problem)
            return 1
    where = f"server {guild_id}" if guild_id else "all servers (global commands)"
    print(f"Published {count} slash commands to {where}.")
    return 0


def read_health(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_health(settings: Settings) -> int:
    from .app import health_problem

    status = read_health(settings.health_file)
    if status is None and not is_url(settings.db_path) and not os.path.exists(settings.db_path):
        print(f"unhealthy: no heartbeat, and no database at {os.path.abspath(settings.db_path)}: "
              f"the bot has not run with this PIECEPACK_DB (a relative one is found from the "
              f"working directory)")
        return 1
    problem = health_problem(status, time.time())
    if problem:
        print(f"unhealthy: {problem} ({os.path.abspath(settings.health_file)})")
        return 1
    print("healthy")
    return 0


def run_backup(settings: Settings, target: str) -> int:
    from .storage import BackupTargetError, NoDatabase, backup

    if is_url(settings.db_path):
        print(PG_BACKUP, file=sys.stderr)
        return 1
    where = os.path.abspath(target)
    if os.path.exists(target):
        print(f"{where} exists already: choose another name, or delete it first.", file=sys.stderr)
        return 1
    if not os.path.isfile(settings.db_path):
        print(no_database(settings.db_path), file=sys.stderr)
        return 1
    folder = os.path.dirname(where)
    try:
        os.makedirs(folder, exist_ok=True)   # `backup backups/x.sqlite3` makes backups/
        version = backup(settings.db_path, target)
    except NoDatabase:
        print(no_database(settings.db_path), file=sys.stderr)
        return 1
    except BackupTargetError as exc:
        print(f"Cannot write the backup {where} ({exc.cause.strerror or exc.cause}): check that "
              f"folder. The database was not changed.", file=sys.stderr)
        return 1
    except OSError as exc:   # the folder could not be made
        cause = "a file has that name" if isinstance(exc, FileExistsError) else exc.strerror or exc
        print(f"Cannot create the folder {folder} for the backup ({cause}). The database was not "
              f"changed.", file=sys.stderr)
        return 1
    except sqlite3.Error as exc:
        print(f"Backup failed: cannot read the database {os.path.abspath(settings.db_path)} "
              f"({exc}). Nothing was written to {where}.", file=sys.stderr)
        return 1
    print(f"Backed up {os.path.abspath(settings.db_path)} to {where} (schema version {version}).")
    return 0


PG_BACKUP = ("PIECEPACK_DB is a PostgreSQL database: back it up with PostgreSQL's own tools, "
             "pg_dump -Fc -f piecepack.dump DATABASE, and restore with pg_restore --clean -d "
             "DATABASE piecepack.dump (stop the bot first). Nothing was done.")


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def free_name(base: str) -> str:
    name, n = base, 1
    while os.path.exists(name):
        n += 1
        name = f"{base}-{n}"
    return name


def run_restore(settings: Settings, source: str) -> int:
    from .storage import SCHEMA_VERSION, BackupTargetError, DatabaseLock, restore

    db_path = settings.db_path
    if is_url(db_path):
        print(PG_BACKUP, file=sys.stderr)
        return 1
    here = os.path.abspath(db_path)
    if same_file(source, db_path):
        print(f"{os.path.abspath(source)} is the database itself (PIECEPACK_DB): restore names "
              f"a backup to put in its place. Nothing was changed.", file=sys.stderr)
        return 1
    if not os.path.isfile(source):
        print(f"There is no backup file at {os.path.abspath(source)}. Nothing was changed.",
              file=sys.stderr)
        return 1
    try:
        uri = f"{Path(source).absolute().as_uri()}?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row[0])
    except (sqlite3.Error, TypeError, ValueError) as exc:
        print(f"{os.path.abspath(source)} is not a piecepack-bot backup ({exc}). Nothing was "
              f"changed.", file=sys.stderr)
        return 1
    if version > SCHEMA_VERSION:
        print(f"{source} was made by a newer piecepack-bot (schema {version}); run that release.",
              file=sys.stderr)
        return 1
    if not os.path.isdir(os.path.dirname(here)):
        print(f"The folder of the database {here} does not exist: check PIECEPACK_DB.",
              file=sys.stderr)
        return 1
    try:
        with DatabaseLock(db_path) as lock:
            if not lock.acquire():
                print(f"A piecepack-bot process is using the database {here}: stop it first, "
                      f"then restore. Nothing was changed.", file=sys.stderr)
                return 1
            kept_name = free_name(f"{db_path}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
            _, kept = restore(source, db_path, kept_name)
    except BackupTargetError as exc:
        print(f"Cannot write beside the database ({exc}). Nothing was changed.", file=sys.stderr)
        return 1
    except (sqlite3.Error, OSError) as exc:
        print(f"Restore failed ({type(exc).__name__}: {exc}). Nothing was changed.",
              file=sys.stderr)
        return 1
    if kept:
        print(f"The database it replaces is kept as {os.path.abspath(kept)}.")
    else:
        print(f"There was no database at {here}: the backup is now that database.")
    print(f"Restored {os.path.abspath(source)} to {here}; start the bot (it upgrades the schema "
          f"if needed).")
    return 0


async def run_forget_guild(settings: Settings, guild_id: int) -> int:
    try:
        store = await open_store(settings.db_path, create=False)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        count = await store.forget_guild(guild_id)
    except DATABASE_ERRORS as exc:
        print(database_problem(settings.db_path, exc), file=sys.stderr)
        return 1
    finally:
        await store.close()
    print(f"Deleted {texts.plural(count, 'game')} of server {guild_id}, with their players, moves, timers and "
          f"messages, and the server's ratings.")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="piecepack-bot",
                                description="A Discord bot for playing piecepack games. With no "
                                            "command, runs the bot.")
    sub = p.add_subparsers(dest="command")
    sync = sub.add_parser("sync", help="publish the slash commands now and exit")
    sync.add_argument("--guild", type=int, help="publish to this server only (instant; for testing)")
    sync.add_argument("--clear", action="store_true",
                      help="with --guild: remove that server's copies instead (after a global "
                           "publish they show every command twice there)")
    backup = sub.add_parser("backup", help="copy the database to FILE (safe while the bot runs)")
    backup.add_argument("file")
    restore = sub.add_parser("restore", help="replace the database by the backup FILE (stop the "
                                             "bot first)")
    restore.add_argument("file")
    sub.add_parser("health", help="exit 0 if the running bot is connected and its database works")
    forget = sub.add_parser("forget-guild", help="delete every game of a server and its players' "
                                                 "data")
    forget.add_argument("guild", type=int, metavar="ID")
    return p


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    if args.command == "sync" and args.clear and args.guild is None:
        p.error("--clear needs --guild ID")
    talks_to_discord = args.command in (None, "sync")
    try:
        settings = load_settings(require_token=talks_to_discord)
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    setup_logging(settings)
    if args.command == "health":
        sys.exit(run_health(settings))
    if args.command == "backup":
        sys.exit(run_backup(settings, args.file))
    if args.command == "restore":
        sys.exit(run_restore(settings, args.file))
    if args.command == "forget-guild":
        sys.exit(asyncio.run(run_forget_guild(settings, args.guild)))
    apply_endpoints(settings)
    if args.command == "sync":
        code = asyncio.run(run_sync(settings, args.guild, args.clear))
    else:
        code = run_locked(settings)
    sys.exit(code)


def run_locked(settings: Settings) -> int:
    """Run the bot holding the database's lock for its whole life: `restore` refuses while
    it is held, and so does a second bot (it would fire every timer a second time)."""
    from .storage import DatabaseLock

    if is_url(settings.db_path):   # no file: run_bot holds a lock in the database instead
        return asyncio.run(run_bot(settings))
    with DatabaseLock(settings.db_path) as lock:
        try:
            held = lock.acquire()
        except OSError as exc:
            log.error("%s", database_problem(settings.db_path, exc))
            return 1
        if not held:
            log.error("Another piecepack-bot process is using the database %s (it holds %s): "
                      "two bots on one database would both send every message and fire every "
                      "timer. Stop the other one, or give this one its own PIECEPACK_DB.",
                      os.path.abspath(settings.db_path), os.path.abspath(lock.path))
            return 1
        return asyncio.run(run_bot(settings))


if __name__ == "__main__":
    main()
