"""The bot's worker processes (render pool, computer players' pool): one pool class, what
every worker does first, and how the event loop's thread keeps its place ahead of them.

The bot may be killed with kill -9: nothing then tells its worker processes to stop, and they
would live on holding the bot's output open. Under the "forkserver" start method a worker is
the child of the fork server, not of the bot, and the fork server itself waits for its
children (they hold its "bot alive" pipe open), so neither notices. So each worker:
- asks the kernel for SIGKILL when its own parent dies (Linux prctl PR_SET_PDEATHSIG), and
- watches the bot itself (the process that asked for it) from a daemon thread, and exits
  when the bot is gone. Once the workers are gone, the fork server ends by itself.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import platform
import signal
import struct
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 0.5


def die_with_parent() -> None:
    """Process-pool initializer: end this process when the bot that started it ends."""
    parent = multiprocessing.parent_process()
    bot = parent.pid if parent is not None and parent.pid else os.getppid()
    _kernel_kills_me_with_parent()
    if os.name == "posix":   # (elsewhere os.kill(pid, 0) would end the process it asks about)
        threading.Thread(target=_watch, args=(bot,), daemon=True, name="watch-bot").start()


def _kernel_kills_me_with_parent() -> None:
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass


def _watch(pid: int) -> None:
    while running(pid):
        time.sleep(POLL_SECONDS)
    os._exit(1)


def running(pid: int) -> bool:
    """Whether process `pid` runs (POSIX; with /proc, a killed one not yet reaped does not)."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
        except FileNotFoundError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:   # exists, belongs to someone else
        return True
    return True


# ---- the event loop first ------------------------------------------------------------------
#
# The workers run at a lower priority (nice), but under Linux's EEVDF scheduler (6.6+) a nice
# level shares the CPU out without saying how soon a thread that wakes gets a core: the loop's
# thread, waking from a 1 ms sleep, waited 3-5 ms for a render worker's time slice to end on two
# cores (benchmarks/bench_render.py). A thread that asks for a short slice may take the core at
# once (Linux 6.12+): the loop's thread asks, the workers it starts put theirs back. Python has
# no call for it, so it is the raw system call; elsewhere nothing changes.

QUICK_SLICE_NS = 100_000   # the shortest slice Linux accepts
_SCHED_SETATTR = {"x86_64": (314, 315), "aarch64": (274, 275)}   # (set, get) as Linux names machines
_SCHED_ATTR = struct.Struct("IIQiIQQQ")   # size, policy, flags, nice, priority, runtime, deadline, period


def _sched_attr_calls():
    """(sched_setattr, sched_getattr) as functions of a packed struct, or None where missing."""
    numbers = _SCHED_SETATTR.get(platform.machine()) if sys.platform.startswith("linux") else None
    if numbers is None or not hasattr(os, "SCHED_OTHER"):
        return None
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    set_call, get_call = numbers

    def set_attr(packed: bytes) -> bool:
        return libc.syscall(set_call, 0, ctypes.create_string_buffer(packed, len(packed)), 0) == 0

    def get_attr() -> bytes | None:
        buf = ctypes.create_string_buffer(_SCHED_ATTR.size)
        return buf.raw if libc.syscall(get_call, 0, buf, _SCHED_ATTR.size, 0) == 0 else None
    return set_attr, get_attr


def time_slice() -> int | None:
    """The calling thread's time slice in nanoseconds as Linux reports it (6.12+), else None."""
    calls = _sched_attr_calls()
    packed = calls[1]() if calls else None
    if packed is None:
        return None
    return _SCHED_ATTR.unpack(packed)[5] or None   # older kernels report 0


def set_time_slice(nanoseconds: int) -> bool:
    """Ask for a time slice for the calling thread (0: the kernel's default); True if it took.
    Only for an ordinary thread (SCHED_OTHER), keeping its nice level."""
    calls = _sched_attr_calls()
    if calls is None or os.sched_getscheduler(0) != os.SCHED_OTHER:
        return False
    packed = _SCHED_ATTR.pack(_SCHED_ATTR.size, os.SCHED_OTHER, 0, os.nice(0), 0, nanoseconds, 0, 0)
    return calls[0](packed) and (nanoseconds == 0 or time_slice() == nanoseconds)


def ask_for_quick_wakeups() -> bool:
    """Called on the event loop's thread before it starts workers: see above."""
    return set_time_slice(QUICK_SLICE_NS)


def cores() -> int:
    """The cores this process may run on (its CPU affinity, as a container's cpuset limits it),
    else the machine's."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


MODES = ("process", "thread", "inline")


class WorkerPool:
    """Runs a picklable function where it cannot stall the event loop: in worker processes by
    default (CPU-bound Python in a thread would hold the GIL), in a thread when processes cannot
    be had or have died, or inline (tools). Tests use "thread": no processes to start.

    `initializer` runs first in each worker process (after `die_with_parent`); `nice` lowers
    the workers' priority, so work that may wait (a computer's thinking) yields the cores to
    work a person waits for (boards).

    At most `workers` calls are handed to the pool at once; the others wait here, the most
    urgent first (`run(..., priority=)`: lower first, then in the order asked). The pool's
    own queue is first come, first served, so without this a burst of boards nobody waits for
    would hold up the one a person just moved for."""

    what = "workers"   # for log lines: "render workers", "computer players"

    def __init__(self, mode: str = "process", workers: int = 1, *, initializer=None, nice: int = 0):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.workers = workers
        self._initializer = initializer
        self._nice = nice
        self._pool: Executor | None = None
        self._busy = 0
        self._waiting: list[tuple[int, int, asyncio.Future]] = []
        self._order = itertools.count()
        self._closed = False

    def start(self) -> None:
        """Start the worker processes now rather than at the first call (process mode only)."""
        if self.mode != "process" or self._pool is not None or self._closed:
            return
        try:
            # Not fork: the bot has threads (aiosqlite's) whose locks a forked child would copy.
            context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker,
                                             initargs=(self._initializer, self._nice))
            for _ in range(self.workers):
                self._pool.submit(_ready)
        except (OSError, ValueError, NotImplementedError) as exc:
            log.warning("cannot start the %s (%s); working in a thread instead", self.what, exc)
            self.mode = "thread"
            self._pool = None

    async def run(self, function, *args, priority: int = 0):
        if self.mode == "inline":
            return function(*args)
        await self._take_turn(priority)
        try:
            return await self._run(function, *args)
        finally:
            self._end_turn()

    async def _take_turn(self, priority: int) -> None:
        if self._busy < self.workers and not self._waiting:
            self._busy += 1
            return
        turn = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():   # given a turn just as it was cancelled
                self._end_turn()
            raise

    def _end_turn(self) -> None:
        """Hand this call's turn to the most urgent waiting call, or free it."""
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():   # (a cancelled waiter is skipped)
                turn.set_result(None)
                return
        self._busy -= 1

    async def _run(self, function, *args):
        if self._closed:
            raise asyncio.CancelledError()
        if self.mode == "process":
            self.start()
            if self._pool is not None:
                try:
                    return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
                except BrokenProcessPool:
                    if self._closed:   # its workers ended by close()
                        raise asyncio.CancelledError() from None
                    log.warning("the %s died; working in a thread from now on", self.what)
                    self._stop_pool()
                    self.mode = "thread"
        return await asyncio.to_thread(function, *args)

    def close(self) -> None:
        """Stop the workers, busy or not; calls still waiting for a turn are cancelled, and no
        later call starts a new pool (closing must not start workers again on the way out)."""
        self._closed = True
        waiting, self._waiting = self._waiting, []
        for _, _, turn in waiting:
            turn.cancel()
        self._stop_pool(end_workers=True)

    def _stop_pool(self, end_workers: bool = False) -> None:
        if self._pool is not None:
            # Python's exit waits for the work a pool's workers are doing: a long solve would
            # hold a stopping bot past Docker's 10 s grace. Nothing they do must be finished (a
            # board is drawn again, a computer thinks again after a restart).
            workers = list((self._pool._processes or {}).values()) if end_workers else []
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                worker.terminate()
            self._pool = None


def _start_worker(initializer, nice: int) -> None:
    die_with_parent()
    if time_slice() == QUICK_SLICE_NS:   # inherited from the loop's thread through the fork server
        set_time_slice(0)
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    if initializer is not None:
        initializer()


def _ready() -> bool:
    return True
