"""`piecepack-bot` (or `python -m bot`): run the bot; `piecepack-bot sync [--guild ID]` publishes
the slash commands now and exits."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

import aiohttp
import discord

from .settings import Settings, SettingsError, apply_endpoints, load_settings, setup_logging

log = logging.getLogger("bot")


async def run_bot(settings: Settings) -> int:
    from .app import PiecepackBot

    bot = PiecepackBot(settings)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        except (NotImplementedError, RuntimeError):
            pass
    async with bot:
        try:
            await bot.start(settings.token)
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
        except Exception:
            if bot.ws is not None:
                raise
            # discord.py 2.7 fails this way (an AttributeError) when its first gateway
            # connection fails; the cause is in its own log line above
            log.error("Cannot connect to the gateway at %s: check DISCORD_GATEWAY_URL.",
                      settings.gateway_url or "Discord's default")
            return 1
    return 0


async def run_sync(settings: Settings, guild_id: int | None) -> int:
    from .app import PiecepackBot

    bot = PiecepackBot(settings, sync_commands=False, background=False)
    async with bot:
        try:
            await bot.login(settings.token)
        except discord.LoginFailure:
            log.error("Discord refused the token: check DISCORD_TOKEN.")
            return 1
        count = await bot.sync_commands(guild_id)
    where = f"server {guild_id}" if guild_id else "all servers (global commands)"
    print(f"Published {count} slash commands to {where}.")
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="piecepack-bot",
                                     description="A Discord bot for playing piecepack games.")
    sub = parser.add_subparsers(dest="command")
    sync = sub.add_parser("sync", help="publish the slash commands now and exit")
    sync.add_argument("--guild", type=int, help="publish to this server only (instant; for testing)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    setup_logging(settings)
    apply_endpoints(settings)
    if args.command == "sync":
        code = asyncio.run(run_sync(settings, args.guild))
    else:
        code = asyncio.run(run_bot(settings))
    sys.exit(code)


if __name__ == "__main__":
    main()
