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
import json
import logging
import os
import signal
import sqlite3
import sys
import time

import aiohttp
import discord

from .settings import Settings, SettingsError, apply_endpoints, load_settings, setup_logging

log = logging.getLogger("bot")


class StartupError(Exception):
    """The bot cannot start; the message names the cause and what to do."""


def database_problem(path: str, exc: BaseException) -> str:
    """A start-up failure of the database, in an admin's words."""
    from .storage import SCHEMA_VERSION, SchemaTooNew

    where = os.path.abspath(path)
    if isinstance(exc, SchemaTooNew):
        return (f"The database {where} was written by a newer release of piecepack-bot "
                f"(schema {exc.version}; this release knows up to {SCHEMA_VERSION}). Run the newer "
                f"release, or restore a backup made before the upgrade (piecepack-bot restore).")
    text = str(exc)
    if "unable to open" in text or "readonly" in text or "read-only" in text \
            or isinstance(exc, PermissionError):
        return (f"Cannot open the database {where} for writing ({text}). Check PIECEPACK_DB: its "
                f"directory must exist and the bot's user (uid {os.getuid()}) must be allowed to "
                f"write both the file and its directory (SQLite writes -wal and -shm files beside "
                f"it).")
    if "not a database" in text or "malformed" in text:
        return (f"{where} is not a usable SQLite database ({text}). Check PIECEPACK_DB, or "
                f"restore a backup (piecepack-bot restore).")
    return f"Cannot open the database {where} ({type(exc).__name__}: {text}). Check PIECEPACK_DB."


async def open_store(path: str):
    from .storage import SchemaTooNew, Store

    try:
        # Probe with the standard module first: when aiosqlite cannot open a file, its worker
        # thread outlives the failure and prints a traceback of its own at exit.
        sqlite3.connect(path).execute("PRAGMA schema_version").connection.close()
        return await Store.open(path)
    except (sqlite3.Error, SchemaTooNew, OSError) as exc:
        raise StartupError(database_problem(path, exc)) from None


async def run_bot(settings: Settings) -> int:
    from .app import PiecepackBot

    # The database first: its problems are not the network's, and need no connection to show.
    try:
        store = await open_store(settings.db_path)
    except StartupError as exc:
        log.error("%s", exc)
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
        except sqlite3.Error as exc:
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

    try:
        store = await open_store(settings.db_path)
    except StartupError as exc:
        log.error("%s", exc)
        return 1
    bot = PiecepackBot(settings, sync_commands=False, background=False, store=store)
    async with bot:
        try:
            await bot.login(settings.token)
        except discord.LoginFailure:
            log.error("Discord refused the token: check DISCORD_TOKEN.")
            return 1
        if clear:
            await bot.http.bulk_upsert_guild_commands(bot.application_id, guild_id, payload=[])
            print(f"Removed the server copies of the slash commands from server {guild_id}; "
                  f"the global ones remain.")
            return 0
        count = await bot.sync_commands(guild_id)
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

    problem = health_problem(read_health(settings.health_file), time.time())
    if problem:
        print(f"unhealthy: {problem} ({settings.health_file})")
        return 1
    print("healthy")
    return 0


def run_backup(settings: Settings, target: str) -> int:
    from .storage import backup

    if os.path.exists(target):
        print(f"{target} exists already: choose another name, or delete it first.", file=sys.stderr)
        return 1
    try:
        version = backup(settings.db_path, target)
    except (sqlite3.Error, OSError) as exc:
        print(f"Backup failed: {exc}. (The database is PIECEPACK_DB={settings.db_path}.)",
              file=sys.stderr)
        return 1
    print(f"Backed up {settings.db_path} to {target} (schema version {version}).")
    return 0


def run_restore(settings: Settings, source: str) -> int:
    from .app import health_problem
    from .storage import SCHEMA_VERSION, backup

    status = read_health(settings.health_file)
    if status is not None and health_problem(status, time.time()) is None:
        print("The bot is running (its heartbeat is fresh): stop it first, then restore. (If it "
              "was killed just now, try again in 90 seconds.)", file=sys.stderr)
        return 1
    try:
        with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as db:
            row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row[0])
    except (sqlite3.Error, TypeError, ValueError) as exc:
        print(f"{source} is not a piecepack-bot backup ({exc}).", file=sys.stderr)
        return 1
    if version > SCHEMA_VERSION:
        print(f"{source} was made by a newer piecepack-bot (schema {version}); run that release.",
              file=sys.stderr)
        return 1
    db_path = settings.db_path
    if os.path.exists(db_path):
        kept = f"{db_path}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
        backup(db_path, kept)
        print(f"The database it replaces is kept as {kept}.")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db_path + suffix):
            os.remove(db_path + suffix)
    backup(source, db_path)
    print(f"Restored {source} to {db_path}; start the bot (it upgrades the schema if needed).")
    return 0


async def run_forget_guild(settings: Settings, guild_id: int) -> int:
    try:
        store = await open_store(settings.db_path)
    except StartupError as exc:
        print(exc, file=sys.stderr)
        return 1
    try:
        count = await store.forget_guild(guild_id)
    finally:
        await store.close()
    print(f"Deleted {count} game(s) of server {guild_id}, with their players, moves, timers and "
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
        code = asyncio.run(run_bot(settings))
    sys.exit(code)


if __name__ == "__main__":
    main()
