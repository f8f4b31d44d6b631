"""Computer seats in the bot: who they are, and their thinking, done off the event loop.

A computer seat is stored like a person's seat, with a negative user id (Discord's ids are
positive, so the two never collide) that also says its level: -(10 * n + 1) is the n-th easy
computer, -(10 * n + 2) the n-th strong one. Its name says it is a computer ("Computer
(strong)"). It gets no DMs, no pings and no reminders; the flow asks it to move through a
stored timer (see GameFlow.fire), so a restart while it is to move loses nothing.

`Thinker` runs `computer.get_player(...).choose(view)` where it cannot stall the bot: a worker
process by default (the players are CPU-bound pure Python: a thread would hold the GIL), a
thread in tests. It only ever gets the view of the computer's own seat.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import computer
from bot.workers import die_with_parent

log = logging.getLogger(__name__)

LEVELS = computer.LEVELS            # ("easy", "strong")
MODES = ("process", "thread", "inline")
PAUSE = 1.5                         # seconds before a computer's move (times the pace setting)


def is_computer(player) -> bool:
    """Whether a player id (str or int) is a computer seat's."""
    try:
        return int(player) < 0
    except (TypeError, ValueError):
        return False


def seat_id(number: int, level: str) -> int:
    return -(10 * number + LEVELS.index(level) + 1)


def level_of(player) -> str:
    return LEVELS[(-int(player)) % 10 - 1]


def display_name(number: int, level: str) -> str:
    return f"Computer ({level})" if number == 1 else f"Computer {number} ({level})"


def plays(game_name: str) -> bool:
    return game_name in computer.game_names()


def seed_for(game_seed: int, player: str) -> int:
    """The computer's own seed: from the game's seed and its seat, so a restart asks the same
    question and gets the same answer (and the game's seed itself is never handed over)."""
    key = f"computer|{game_seed}|{player}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") >> 1


def decide(game_name: str, level: str, seed: int, view: dict) -> tuple[str, float]:
    """The computer's action for its own view, and how long to wait before playing it (BYOP1's
    pace; 0 elsewhere). Runs in a worker."""
    player = computer.get_player(game_name, level, seed)
    action = player.choose(view)
    delay = getattr(player, "delay", None)
    return action, (float(delay(action)) if delay else 0.0)


class Thinker:
    def __init__(self, mode: str = "process", workers: int = 1):
        if mode not in MODES:
            raise ValueError(f"computer mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.workers = workers
        self._pool: Executor | None = None

    def _start(self) -> None:
        if self._pool is not None:
            return
        try:
            # (not fork: the bot has threads whose locks a forked child would copy)
            context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=die_with_parent)   # (ends with the bot)
        except (OSError, ValueError, NotImplementedError) as exc:
            log.warning("cannot start a computer player process (%s); thinking in a thread", exc)
            self.mode = "thread"

    async def decide(self, game_name: str, level: str, seed: int, view: dict) -> tuple[str, float]:
        if self.mode == "inline":
            return decide(game_name, level, seed, view)
        if self.mode == "process":
            self._start()
            if self._pool is not None:
                try:
                    return await asyncio.get_running_loop().run_in_executor(
                        self._pool, decide, game_name, level, seed, view)
                except BrokenProcessPool:
                    log.warning("the computer player process died; thinking in a thread from now on")
                    self.close()
                    self.mode = "thread"
        return await asyncio.to_thread(decide, game_name, level, seed, view)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
