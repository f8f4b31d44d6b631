"""The bot's background work: fire the timers that are due, deliver the queued notices (the
outbox) and prune the delivered ones; one loop, woken when something is queued."""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("bot.app")   # (the bot's logger, as before this loop left bot.app)

MAX_IDLE = 60.0     # the background task looks at the database at least this often (seconds)
MIN_IDLE = 1.0      # ... and at most this often when something due keeps failing
OUTBOX_KEEP = 7 * 86400.0   # delivered notices are kept this long (for audits), then deleted


class Worker:
    """The background loop of one bot (started by its setup_hook unless `background` is off;
    tests call `run_due()` instead)."""

    def __init__(self, bot):
        self.bot = bot
        self._wake: asyncio.Event | None = None
        self._due_lock: asyncio.Lock | None = None
        self._task: asyncio.Task | None = None
        self._pruned_at = 0.0

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

    def wake(self) -> None:
        """Something was queued: let the background task deliver it now."""
        if self._wake is not None:
            self._wake.set()
            self.bot.delivery.wake()   # its boards start drawing at once

    async def run_due(self) -> None:
        """Fire the timers that are due and deliver the queued notices (tests call this)."""
        async with self._due_lock:
            for timer in await self.bot.store.due_timers(self.bot.now()):
                try:
                    await self.bot.flow.fire(timer)
                except Exception:
                    log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
            try:
                await self.bot.flow.send_digests()   # the players' daily digests (/settings)
            except Exception:
                log.exception("the daily digests failed")
            await self.bot.delivery.deliver_due()
            if self.bot.now() - self._pruned_at > 3600:
                self._pruned_at = self.bot.now()
                await self.bot.store.prune_outbox(self.bot.now() - OUTBOX_KEEP)

    async def _background(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background work failed")
            due = await self.bot.store.next_due()
            delay = MAX_IDLE if due is None else min(MAX_IDLE, max(MIN_IDLE, due - self.bot.now()))
            # asyncio.timeout, not wait_for: on Python 3.11, wait_for returns normally when it is
            # cancelled just as the event is set, and this loop would then outlive close()
            try:
                async with asyncio.timeout(delay):
                    await self._wake.wait()
            except TimeoutError:
                pass
