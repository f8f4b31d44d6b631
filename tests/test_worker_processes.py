"""The bot's worker processes (render pool, computer players' pool) end when the bot is killed
with kill -9: they used to live on, re-parented to init, holding the bot's output open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.workers import running

ROOT = Path(__file__).resolve().parent.parent

# A stand-in bot: starts both pools, prints its workers' ids, then waits to be killed.
BOT = """
import os, sys, time
from bot.computers import Thinker
from bot.rendering import Renderer

renderer = Renderer("process", workers=2)
renderer.start()
thinker = Thinker("process", workers=1)
thinker.start()
thinker._pool.submit(os.getpid).result()
for _ in range(2):
    renderer._pool.submit(os.getpid).result()
print(" ".join(map(str, [*renderer._pool._processes, *thinker._pool._processes])), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Running (a zombie that nobody reaps yet counts as gone)."""
    return running(pid)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_workers_end_when_the_bot_is_killed():
    bot = subprocess.Popen([sys.executable, "-c", BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        workers = [int(p) for p in bot.stdout.readline().split()]
        assert len(workers) == 3 and all(alive(p) for p in workers)
        bot.send_signal(signal.SIGKILL)
        bot.wait()
        assert running(os.getpid()) and not running(bot.pid)
        bound = time.monotonic() + 30   # generous: they go within about a second
        while any(alive(p) for p in workers) and time.monotonic() < bound:
            time.sleep(0.1)
        assert not [p for p in workers if alive(p)]
    finally:
        bot.kill()
        for pid in workers:   # (whatever happened, leave nothing running)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        bot.stdout.close()


async def test_computer_players_think_at_a_lower_priority_than_boards_are_drawn():
    # On two cores a strong computer's search must not take the CPU from the boards people wait for.
    from bot.computers import Thinker
    from bot.rendering import Renderer

    thinker, renderer = Thinker("process"), Renderer("process", workers=1)
    try:
        assert await thinker.run(os.nice, 0) >= await renderer.run(os.nice, 0) + 10
    finally:
        thinker.close()
        renderer.close()
