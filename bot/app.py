"""The bot: a discord.py `commands.AutoShardedBot` with the store, the game flow, the commands
and the background task that fires timers and delivers the outbox (bot.work)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import os
import tempfile
import time
from typing import Callable

import discord
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.shard import Shard

from . import ui  # noqa: F401  (loads the games' adapters and their components)
from .away import Away
from .commands import Controller, Tree
from .commands.tournament import Tournaments
from .daily import Daily
from .delivery import Delivery
from .computers import Thinker
from .ratings import Ratings
from .rendering import Renderer
from .flow import GameFlow
from .history import History
from .settings import Settings
from .storage import Store
from .work import Worker
from .workers import WorkerPool, ask_for_quick_wakeups

log = logging.getLogger(__name__)

COMMANDS_HASH_KEY = "commands_hash"
HEARTBEAT_EVERY = 30.0      # seconds between two writes of the health file
HEARTBEAT_STALE = 90.0      # a health file older than this means the bot is stuck or gone
GATEWAY_GRACE = 120.0       # discord.py reconnects by itself; down longer than this is unhealthy
DB_PING_TIMEOUT = 10.0


def write_health(path: str, status: dict) -> None:
    """Replace the health file in one step, so `piecepack-bot health` never reads half of it.
    Each write has a partial file of its own: two writers at once (the heartbeat and the last
    word at shutdown, or another process) must not rename each other's file away."""
    folder, name = os.path.split(os.path.abspath(path))
    fd, partial = tempfile.mkstemp(prefix=f"{name}.", suffix=".partial", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(status, f)
        os.chmod(partial, 0o644)   # mkstemp makes it 0600; the health file is for any reader
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def clear_stale_partials(path: str, now: float) -> list[str]:
    """Remove the health file's partial files older than a stale heartbeat: those of a bot
    killed between writing one and renaming it (a live write takes milliseconds, so no
    writer still needs them). Returns the names removed."""
    folder, name = os.path.split(os.path.abspath(path))
    removed = []
    for entry in os.scandir(folder):
        if entry.name.startswith(f"{name}.") and entry.name.endswith(".partial"):
            with contextlib.suppress(OSError):   # (another process may clear it first)
                if now - entry.stat().st_mtime > HEARTBEAT_STALE:
                    os.unlink(entry.path)
                    removed.append(entry.name)
    return removed


def health_problem(status: dict | None, now: float) -> str | None:
    """What is wrong according to the bot's last heartbeat, or None when it is healthy."""
    if status is None:
        return "no heartbeat: the bot is not running (or has not started yet)"
    if status.get("stopped"):
        return "the bot has stopped"
    age = now - float(status.get("at", 0))
    if age > HEARTBEAT_STALE:
        return f"the last heartbeat is {age:.0f} s old: the bot is stuck or stopped"
    if status.get("database") != "ok":
        return f"the database fails: {status.get('database')}"
    if status.get("gateway") != "connected":
        down = now - float(status.get("gateway_since", now))
        if down > GATEWAY_GRACE:
            shards = status.get("shards_down")
            which = f" (shard {', '.join(map(str, shards))})" if shards else ""
            return f"not connected to Discord's gateway{which} for {down:.0f} s"
    return None


# The bot never joins voice: discord.py's start-up warnings about voice libraries would only
# worry the admin reading the log.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


class PiecepackBot(commands.AutoShardedBot):
    """One process runs the shards of `settings.shard_ids` (all by default; DMs and DM buttons
    reach shard 0 only, so nothing of a game may live in one process: each interaction reads its
    game from the database). `clock` returns the current time in seconds (time.time by default;
    tests pass a fake one and call `run_due()` instead of waiting). `seed_source` returns the seed of each new game."""

    def __init__(self, settings: Settings, *, clock: Callable[[], float] | None = None,
                 seed_source: Callable[[], int] | None = None, sync_commands: bool = True,
                 background: bool = True, seat_order: Callable[[list, int], list] | None = None,
                 store: Store | None = None):
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None,
            tree_cls=Tree,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
            guild_ready_timeout=settings.guild_ready_timeout,
            # Nobody is pinged unless a message names whom (bot.delivery.pings, the lobby).
            allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.clock = clock or time.time
        self.seed_source = seed_source
        self.seat_order = seat_order
        self.sync_on_start = sync_commands
        self.background = background
        self.store: Store | None = store     # opened by the caller, or in setup_hook
        self.flow: GameFlow | None = None
        self.controller: Controller | None = None
        self.delivery = Delivery(self)
        self.renderer = Renderer(settings.render_in, settings.render_workers)
        # a game's slow work (Pack Solitaire's solver) runs apart from boards and computers
        self.slow_work = WorkerPool(settings.render_in, 1, nice=15)
        self.worker = Worker(self)
        # async (claimant, lease) -> None: timed work besides games' timers, claimed the same way
        # and run by the worker (tournaments' start times and round deadlines)
        self.due_work: list = []
        self._heartbeat: asyncio.Task | None = None
        self.shards_up: set[int] = set()
        self.shards_since: dict[int, float] = {}   # when each shard last connected or dropped
        self.started_at = time.time()
        self.gateway_reached = False   # until then a failed connect fails the start
        self.setup_done = False

    def now(self) -> float:
        return self.clock()

    # ---- start and stop --------------------------------------------------------------------

    async def setup_hook(self) -> None:
        self.worker.prepare()
        ask_for_quick_wakeups()   # this thread runs the loop: ahead of the workers it starts now
        self.renderer.start()
        if self.store is None:
            self.store = await Store.open(self.settings.db_path)
        self.flow = GameFlow(self.store, self.now, reminder_hours=self.settings.reminder_hours,
                             default_deadline=self.settings.default_deadline,
                             seed_source=self.seed_source, seat_order=self.seat_order,
                             # computers think where boards are drawn (a process, in the bot)
                             thinker=Thinker(self.settings.render_in),
                             background_pool=self.slow_work,
                             computer_pace=self.settings.computer_pace,
                             # the work it starts beyond a timer's firing holds the worker's claim
                             claimant=self.worker.me, lease_seconds=self.worker.lease)
        self.flow.on_commit = self.wake
        self.controller = Controller(self)
        await self.add_cog(self.controller)
        await self.add_cog(Away(self))
        await self.add_cog(Ratings(self))
        await self.add_cog(Daily(self))
        await self.add_cog(History(self))
        await self.add_cog(Tournaments(self))
        # Every component interaction is dispatched by on_interaction (not discord.py's
        # dynamic items, which leave the odd ones unanswered); command errors come here too.
        self.tree.error(self.controller.command_failed)
        if self.sync_on_start and self.publishes_commands():
            await self.sync_commands_if_changed()
        if self.background:
            self.worker.start()
            if self.settings.health_file:
                self._heartbeat = asyncio.create_task(self._beat(), name="piecepack-heartbeat")
        self.setup_done = True
        # Everything loaded so far lives as long as the bot: out of the collector's sight, a
        # full collection (which stops the event loop) walks only what games make and drop.
        gc.freeze()

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
            try:   # a clean stop says so at once: `restore` need not wait for the beat to age
                write_health(self.settings.health_file, {"at": time.time(), "stopped": True})
            except OSError:
                pass
        await self.delivery.stop()
        await self.worker.stop()
        if self.flow is not None:
            self.flow.stop_computers()
        await super().close()
        self.renderer.close()
        self.slow_work.close()
        if self.store is not None:
            await self.store.close()
            self.store = None

    # ---- health ----------------------------------------------------------------------------

    def own_shards(self) -> list[int]:
        """The shards this process runs (before the count is known: shard 0 stands for all)."""
        if self.shard_ids is not None:
            return list(self.shard_ids)
        return list(range(self.shard_count or 1))

    def _shard(self, shard_id: int, connected: bool) -> None:
        if connected != (shard_id in self.shards_up):
            (self.shards_up.add if connected else self.shards_up.discard)(shard_id)
            self.shards_since[shard_id] = time.time()

    async def on_shard_connect(self, shard_id: int) -> None:
        self._shard(shard_id, True)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._shard(shard_id, True)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        self._shard(shard_id, False)

    def gateway_status(self) -> dict:
        """Connected when all of this process's shards are; otherwise down since the oldest
        drop (a shard never connected is down since the start)."""
        down = {s: self.shards_since.get(s, self.started_at)
                for s in self.own_shards() if s not in self.shards_up}
        since = min(down.values()) if down else max(self.shards_since.values(), default=self.started_at)
        return {"gateway": "disconnected" if down else "connected", "gateway_since": since,
                "shards": self.own_shards(), "shards_connected": sorted(self.shards_up),
                "shards_down": sorted(down)}

    async def health_status(self) -> dict:
        try:
            async with asyncio.timeout(DB_PING_TIMEOUT):   # see bot.work: not wait_for
                await self.store.ping(time.time())
            database = "ok"
        except Exception as exc:   # what failed goes to the health file and the log
            database = f"{type(exc).__name__}: {exc}"[:300]
            log.error("the database cannot be written: %s", database)
        return {"at": time.time(), "pid": os.getpid(), "database": database,
                **self.gateway_status()}

    async def _beat(self) -> None:
        """Write the health file every HEARTBEAT_EVERY seconds (read by `piecepack-bot health`,
        Docker's HEALTHCHECK); first the partial files a killed bot may have left beside it."""
        try:
            await asyncio.to_thread(clear_stale_partials, self.settings.health_file, time.time())
        except OSError:
            log.exception("could not look for stale partial health files")
        while True:
            try:
                status = await self.health_status()
                await asyncio.to_thread(write_health, self.settings.health_file, status)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not write the health file %s", self.settings.health_file)
            await asyncio.sleep(HEARTBEAT_EVERY)

    async def on_ready(self) -> None:
        log.info("connected as %s (id %s) in %d server(s), shard(s) %s of %s", self.user,
                 self.user.id if self.user else "?", len(self.guilds),
                 ",".join(map(str, self.own_shards())), self.shard_count)

    # ---- shards: the gateway connections (see the class's doc) ------------------------------

    async def launch_shards(self) -> None:
        if self.shard_count is None and self.settings.gateway_url:
            # discord.py would connect to the URL /gateway/bot names, not DISCORD_GATEWAY_URL:
            # ask for the count only
            self.shard_count, _, _ = await self.http.get_bot_gateway()
        await super().launch_shards()

    async def launch_shard(self, gateway, shard_id: int, *, initial: bool = False) -> None:
        if self.gateway_reached:
            return await super().launch_shard(gateway, shard_id, initial=initial)
        # discord.py retries a failed connect for ever; the first one fails the start instead,
        # so that __main__ can say which setting to check (its retries are for later drops)
        ws = await asyncio.wait_for(
            DiscordWebSocket.from_client(self, initial=initial, gateway=gateway, shard_id=shard_id),
            timeout=self.shard_connect_timeout)
        self.gateway_reached = True
        # what AutoShardedClient.launch_shard does with a connection (its private names)
        shard = Shard(ws, self, self._AutoShardedClient__queue.put_nowait)
        self._AutoShardedClient__shards[shard_id] = shard
        shard.launch()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord allows one IDENTIFY per 5 s (per max_concurrency bucket); test Discords
        need no wait (PIECEPACK_IDENTIFY_SPACING)."""
        if not initial and self.settings.identify_spacing:
            await asyncio.sleep(self.settings.identify_spacing)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Buttons and menus, whatever they carry (ours of any release, altered, unknown), and
        modal submissions (we show none): the controller answers each one."""
        if interaction.type in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit):
            await self.controller.component_used(interaction)

    # ---- slash command publishing ----------------------------------------------------------

    def publishes_commands(self) -> bool:
        """One process publishes: the one that runs shard 0 (PIECEPACK_SYNC_COMMANDS=auto)."""
        mode = self.settings.sync_commands
        return mode == "always" or (mode == "auto" and 0 in self.own_shards())

    def commands_hash(self) -> str:
        """What was published, and where: another API base (a proxy, a test Discord) may not
        have the commands yet."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        text = json.dumps({"application": self.application_id, "api_base": self.settings.api_base,
                           "commands": payload}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands_if_changed(self) -> bool:
        """Publish the global commands unless the same definitions were published last time.
        A refusal is logged, not fatal: the bot runs with the commands published before, and
        the next start tries again."""
        digest = self.commands_hash()
        if await self.store.get_meta(COMMANDS_HASH_KEY) == digest:
            log.info("slash commands unchanged; not publishing them")
            return False
        try:
            await self.sync_commands()
        except discord.HTTPException as exc:
            log.error("could not publish the slash commands (%s); trying again at the next start", exc)
            return False
        return True

    async def sync_commands(self, guild_id: int | None = None) -> int:
        """PUT the definitions through the HTTP client rather than tree.sync(), which fails
        after a successful PUT when the answer lacks fields (ids) it builds AppCommands from."""
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
            await self.http.bulk_upsert_guild_commands(self.application_id, guild_id, payload=payload)
            log.info("published %d slash commands to server %s", len(payload), guild_id)
        else:
            payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
            await self.http.bulk_upsert_global_commands(self.application_id, payload=payload)
            await self.store.set_meta(COMMANDS_HASH_KEY, self.commands_hash())
            log.info("published %d slash commands", len(payload))
        return len(payload)

    # ---- timers and the outbox (bot.work) ---------------------------------------------------

    def wake(self) -> None:
        """Something was queued: let the background task deliver it now."""
        self.worker.wake()

    async def run_due(self) -> None:
        """Fire the timers that are due and deliver the queued notices (tests call this)."""
        await self.worker.run_due()
