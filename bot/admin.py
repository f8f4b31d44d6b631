"""The admin commands of `piecepack-bot` (sync, backup, restore, health, forget-guild,
migrate-db) and what they share with running the bot: opening the store, and saying a
database's or Discord's failure in an admin's words."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
import sys
import time
from pathlib import Path

import aiohttp
import discord

from . import texts
from .settings import Settings
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


async def run_migrate_db(settings: Settings, url: str, source: str | None) -> int:
    """Copy the SQLite database (`source`, or PIECEPACK_DB) into the PostgreSQL database `url`."""
    from .storage import DatabaseLock, SchemaTooNew
    from .storage.copy import (CopyMismatch, SourceError, TargetInUse, TargetNotEmpty,
                               copy_database)
    from .storage.engine import without_password
    from .storage.postgres import MissingDriver

    if not is_url(url):
        print(f"--to names the PostgreSQL database to copy into, as a URL such as "
              f"postgresql://piecepack:PASSWORD@HOST/piecepack, not {url}. Nothing was done.",
              file=sys.stderr)
        return 1
    source = source or settings.db_path
    if is_url(source):
        print("PIECEPACK_DB is already a PostgreSQL database: name the SQLite file to copy with "
              "--from FILE. Nothing was done.", file=sys.stderr)
        return 1
    here, there = os.path.abspath(source), without_password(url)
    if not os.path.isfile(source):
        print(no_database(source), file=sys.stderr)
        return 1
    with DatabaseLock(source) as lock:
        try:
            held = lock.acquire()
        except OSError as exc:
            print(database_problem(source, exc), file=sys.stderr)
            return 1
        if not held:
            print(f"A piecepack-bot process is using the database {here}: stop it first (the copy "
                  f"must be the last word of that file), then migrate. Nothing was done.",
                  file=sys.stderr)
            return 1
        try:
            counts = await copy_database(source, url)
        except TargetNotEmpty as exc:
            print(f"The PostgreSQL database {there} is not empty ({exc}): migrate-db writes only "
                  f"into a new database. Nothing was done.", file=sys.stderr)
            return 1
        except TargetInUse:
            print(f"A piecepack-bot process is using the PostgreSQL database {there}: stop it "
                  f"first. Nothing was done.", file=sys.stderr)
            return 1
        except CopyMismatch as exc:
            print(f"The copy did not match the file ({exc}): it was rolled back, {there} is as "
                  f"it was.", file=sys.stderr)
            return 1
        except MissingDriver as exc:
            print(exc, file=sys.stderr)
            return 1
        except SourceError as exc:
            if isinstance(exc.cause, SchemaTooNew):
                print(database_problem(source, exc.cause), file=sys.stderr)
            else:
                print(f"Cannot read the database {here} ({exc}). Nothing was done.",
                      file=sys.stderr)
            return 1
        except SchemaTooNew as exc:   # (the target's)
            print(database_problem(url, exc), file=sys.stderr)
            return 1
        except (OSError, *DATABASE_ERRORS) as exc:
            print(f"Cannot use the PostgreSQL database {there} ({type(exc).__name__}: {exc}): "
                  f"check the URL, that the server runs and that the role may use the "
                  f"database. Nothing was kept.", file=sys.stderr)
            return 1
    print(f"Copied {here} to {there}:")
    for table, count in counts.items():
        print(f"  {table}: {count}")
    print(f"Next: set PIECEPACK_DB={there} (with its password) where the bot reads its settings, "
          f"then start the bot. Keep {here} as a backup: the bot no longer writes it.")
    return 0
