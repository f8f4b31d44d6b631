"""The bot's background work: fire the timers that are due, deliver the queued notices (the
outbox) and prune the delivered ones; one loop, woken when something is queued (by this
process, or on PostgreSQL by another: its NOTIFY).

Several processes may share a PostgreSQL database: each timer is claimed before it fires
(`Store.claim_timers`), the claim renewed while the work goes on and released after; a
process that dies leaves its claims to lapse after the lease (PIECEPACK_LEASE_SECONDS), and
another takes the work over then: within the lease plus MIN_IDLE."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time

log = logging.getLogger("bot.app")   # (the bot's logger, as before this loop left bot.app)

MAX_IDLE = 60.0     # the background task looks at the database at least this often (seconds)
MIN_IDLE = 1.0      # ... and at most this often when something due keeps failing
UNHEARD_IDLE = 5.0  # ... and this often while it cannot hear other processes (PostgreSQL's LISTEN is down)
OUTBOX_KEEP = 7 * 86400.0   # delivered notices are kept this long (for audits), then deleted
REARM_EVERY = 3600.0  # computers awaited without a timer are looked for at the start, then this often


def claimant() -> str:
    """A name for this process's claims, new at each start (and for each bot of a process)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def dead_claimants(claimants, me: str) -> list[str]:
    """The claimants that were processes of this machine that have ended (a restart after
    kill -9 need not wait for their leases to lapse): their process is gone, or has the same
    id as this one (a container's process 1, started again)."""
    host, pid, _ = me.rsplit(":", 2)
    dead = []
    for claimant in claimants:
        try:
            their_host, their_pid, _ = claimant.rsplit(":", 2)
            their_pid = int(their_pid)
        except ValueError:
            continue
        if their_host != host or claimant == me:
            continue
        if their_pid == int(pid):
            dead.append(claimant)
            continue
        try:
            os.kill(their_pid, 0)
        except ProcessLookupError:
            dead.append(claimant)
        except OSError:
            pass   # (alive, another user's)
    return dead


def lease_of(bot) -> float:
    settings = getattr(bot, "settings", None)
    return getattr(settings, "lease_seconds", 30.0)


async def renewing(store, me: str, lease: float) -> None:
    """Renew `me`'s leases every third of a lease, until cancelled (the work is done)."""
    while True:
        await asyncio.sleep(lease / 3)
        try:
            await store.renew_leases(me, time.time() + lease)
        except Exception as exc:   # (the database away a moment: the next renewal may do)
            log.warning("could not renew the leases of %s: %r", me, exc)


@contextlib.asynccontextmanager
async def holding(store, game_id: int, kind: str, me: str, lease: float):
    """`me`'s claim on a timer kept while the work it stands for goes on beyond the firing (a
    computer thinking, a solver), renewed every third of a lease, and given up after."""
    async def renew() -> None:
        while True:
            await asyncio.sleep(lease / 3)
            try:
                await store.renew_timer(game_id, kind, me, time.time() + lease)
            except Exception as exc:   # (the database away a moment: the next renewal may do)
                log.warning("could not renew the claim on timer %s of game %s: %r", kind, game_id, exc)

    renewal = asyncio.create_task(renew())
    try:
        yield
    finally:
        renewal.cancel()
        try:
            await store.release_timer(game_id, kind, me)
        except Exception as exc:   # (the store closing: the claim lapses by itself)
            log.warning("could not release timer %s of game %s: %r", kind, game_id, exc)


def serves(settings):
    """Whether this process serves a server (`guild_id`), by Discord's rule of its shard; None
    when it runs all the shards. Another process's NOTIFY for a game wakes only the process of
    the game's server: it answers the game's interactions and is the one to take its work over
    (the process that queued the work does it itself)."""
    ids, count = getattr(settings, "shard_ids", None), getattr(settings, "shard_count", None)
    if ids is None or not count:
        return None
    mine = frozenset(ids)
    return lambda guild_id: (guild_id >> 22) % count in mine


class Worker:
    """The background loop of one bot (started by its setup_hook unless `background` is off;
    tests call `run_due()` instead)."""

    def __init__(self, bot):
        self.bot = bot
        self._wake: asyncio.Event | None = None
        self._due_lock: asyncio.Lock | None = None
        self._task: asyncio.Task | None = None
        self._pruned_at = 0.0
        self._rearmed_at: float | None = None   # (None: not yet, since the start)
        self.me = claimant()
        self.lease = lease_of(bot)

    def prepare(self) -> None:
        """(on the bot's event loop, before anything can be queued)"""
        self._wake = asyncio.Event()
        self._due_lock = asyncio.Lock()

    def start(self) -> None:
        self._task = asyncio.create_task(self._background(), name="piecepack-background")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
            # what this process held is free for the others (or its own next start) at once
            try:
                for me in (self.me, self.bot.delivery.me):
                    await self.bot.store.release_leases(me)
            except Exception as exc:
                log.warning("could not release the leases: %r", exc)

    def wake(self) -> None:
        """Something was queued: let the background task deliver it now."""
        if self._wake is not None:
            self._wake.set()
            self.bot.delivery.wake()   # its boards start drawing at once

    async def run_due(self) -> None:
        """Fire the timers that are due and deliver the queued notices (tests call this)."""
        store = self.bot.store
        async with self._due_lock:
            wall = time.time()
            timers = await store.claim_timers(self.me, self.bot.now(), wall, wall + self.lease, limit=100)
            renewal = asyncio.create_task(renewing(store, self.me, self.lease))
            try:
                for timer in timers:
                    kept = False   # True: work that goes on holds the claim now, and frees it
                    try:
                        kept = await self.bot.flow.fire(timer)
                    except Exception:
                        log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                    finally:
                        if not kept:
                            await store.release_timer(timer.game_id, timer.kind, self.me)
                for work in self.bot.due_work:   # (other work claimed alike: tournaments)
                    try:
                        await work(self.me, self.lease)
                    except Exception:
                        log.exception("timed work failed")
            finally:
                renewal.cancel()
            try:
                # the players' daily digests (/settings): each is sent by the process whose
                # transaction moves its due time on (digest_sent), so once
                await self.bot.flow.send_digests()
            except Exception:
                log.exception("the daily digests failed")
            if self._rearmed_at is None or self.bot.now() - self._rearmed_at > REARM_EVERY:
                self._rearmed_at = self.bot.now()
                try:
                    await self.bot.flow.rearm_computers(serves(getattr(self.bot, "settings", None)))
                except Exception:
                    log.exception("re-arming the computers failed")
            await self.bot.delivery.deliver_due()
            if self.bot.now() - self._pruned_at > 3600:
                self._pruned_at = self.bot.now()
                await store.prune_outbox(self.bot.now() - OUTBOX_KEEP)

    async def _background(self) -> None:
        engine = self.bot.store.engine
        # (other processes' work: PostgreSQL only; of the servers of this process's shards)
        heard = await engine.listen(self.wake, serves(getattr(self.bot, "settings", None)))
        if engine.name == "sqlite":   # one process per file: a killed run's claims need not lapse
            await self.bot.store.release_leases(None)
        else:
            for dead in dead_claimants(await self.bot.store.claimants(), self.me):
                await self.bot.store.release_leases(dead)
        while True:
            self._wake.clear()
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background work failed")
            idle = UNHEARD_IDLE if heard and not engine.listening else MAX_IDLE
            due = await self.bot.store.next_wake(self.bot.now(), time.time())
            delay = idle if due is None else min(idle, max(MIN_IDLE, due))
            # asyncio.timeout, not wait_for: on Python 3.11, wait_for returns normally when it is
            # cancelled just as the event is set, and this loop would then outlive close()
            try:
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            except TimeoutError:
                pass
