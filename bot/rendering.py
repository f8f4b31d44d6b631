"""Board images drawn off the event loop: every PNG the bot sends comes through `Renderer`.

Drawing a board (SVG build in Python, then resvg) takes tens of milliseconds; on the event loop
it would stall every other game. By default the bot starts a small pool of worker processes
once (one per core: the SVG build holds the GIL, so threads would not use the second core)
and hands each board to it. Should the pool fail (a worker killed, a machine that cannot start
processes), the renderer falls back to a thread, which still keeps resvg's part off the loop.

Modes (setting `render_in`): "process" (the bot's default), "thread" (tests: no processes to
start, and monkeypatched renderers still apply), "inline" (on the calling thread; tools only).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.workers import die_with_parent

log = logging.getLogger(__name__)

MODES = ("process", "thread", "inline")


def draw_board(board: dict) -> bytes:
    """The PNG of a notice's board ({"view": ..., "names": ...}); runs in a worker."""
    import render  # slow to import: workers and the first drawing pay it, not the bot's start

    return render.render_png(board["view"], names=board.get("names"))


def _start_worker() -> None:
    """In each fresh worker: end with the bot, import the renderer and load the fonts."""
    die_with_parent()
    from render import svg

    svg.font_database()


def _ready() -> bool:
    return True


class Renderer:
    def __init__(self, mode: str = "process", workers: int | None = None):
        if mode not in MODES:
            raise ValueError(f"render mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._pool: Executor | None = None

    def start(self) -> None:
        """Start the worker processes (and have them load the renderer) ahead of the first
        board; a no-op in the other modes."""
        if self.mode != "process" or self._pool is not None:
            return
        try:
            # Not fork: the bot has threads (aiosqlite's) whose locks a forked child would copy.
            context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=_start_worker)
            for _ in range(self.workers):
                self._pool.submit(_ready)   # starts the workers now, not at the first board
        except (OSError, ValueError, NotImplementedError) as exc:
            log.warning("cannot start render workers (%s); drawing boards in a thread", exc)
            self.mode = "thread"
            self._pool = None

    async def png(self, board: dict) -> bytes:
        """The PNG of `board`, drawn where it cannot stall the event loop."""
        if self.mode == "inline":
            return draw_board(board)
        if self.mode == "process":
            self.start()
            if self._pool is not None:
                try:
                    return await asyncio.get_running_loop().run_in_executor(self._pool, draw_board, board)
                except BrokenProcessPool:
                    log.warning("the render workers died; drawing boards in a thread from now on")
                    self.close()
                    self.mode = "thread"
        return await asyncio.to_thread(draw_board, board)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
