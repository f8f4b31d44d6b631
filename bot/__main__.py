"""`piecepack-bot` (or `python -m bot`): run the bot. Other commands, for the server's admin:

    piecepack-bot sync [--guild ID [--clear]]   publish (or remove) the slash commands, then exit
    piecepack-bot backup FILE                   copy the database, safely while the bot runs
    piecepack-bot restore FILE                  put a backup in place of the database (bot stopped)
    piecepack-bot health                        exit 0 if the running bot is healthy (Docker)
    piecepack-bot forget-guild ID               delete every game of one server
    piecepack-bot migrate-db --to URL [--from FILE]   copy the SQLite database into PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord

from .admin import (  # noqa: F401  (the admin commands, importable from here as before)
    DATABASE_ERRORS, PG_BACKUP, StartupError, database_errors, database_problem, discord_problem,
    free_name, no_database, open_store, read_health, run_backup, run_forget_guild, run_health,
    run_migrate_db, run_restore, run_sync, same_file)
from .settings import Settings, SettingsError, apply_endpoints, load_settings, setup_logging
from .storage.engine import is_url

log = logging.getLogger("bot")


async def run_bot(settings: Settings) -> int:
    from .app import PiecepackBot

    # The database first: its problems are not the network's, and need no connection to show.
    try:
        store = await open_store(settings.db_path)
    except StartupError as exc:
        log.error("%s", exc)
        return 1
    held = await store.engine.hold_bot_locks(settings.shard_ids) if is_url(settings.db_path) else None
    if held is not None:
        from .storage.engine import without_password

        log.error("Another piecepack-bot process already runs %s on the database %s: both would "
                  "answer its interactions. Stop the other one, or give each process shards of "
                  "its own (PIECEPACK_SHARDS).", held, without_password(settings.db_path))
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
    migrate = sub.add_parser("migrate-db", help="copy the SQLite database into an empty "
                                                "PostgreSQL database (stop the bot first)")
    migrate.add_argument("--to", required=True, metavar="URL",
                         help="the PostgreSQL database, postgresql://USER:PASSWORD@HOST/DATABASE")
    migrate.add_argument("--from", dest="source", metavar="FILE",
                         help="the SQLite database (default: PIECEPACK_DB)")
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
    if args.command == "migrate-db":
        sys.exit(asyncio.run(run_migrate_db(settings, args.to, args.source)))
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
