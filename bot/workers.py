"""What every worker process of the bot (render pool, computer players' pool) does first.

The bot may be killed with kill -9: nothing then tells its worker processes to stop, and they
would live on holding the bot's output open. Under the "forkserver" start method a worker is
the child of the fork server, not of the bot, and the fork server itself waits for its
children (they hold its "bot alive" pipe open), so neither notices. So each worker:
- asks the kernel for SIGKILL when its own parent dies (Linux prctl PR_SET_PDEATHSIG), and
- watches the bot itself (the process that asked for it) from a daemon thread, and exits
  when the bot is gone. Once the workers are gone, the fork server ends by itself.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time

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
