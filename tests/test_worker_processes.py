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

from bot.workers import QUICK_SLICE_NS, running, set_time_slice, time_slice
from tests.botkit import fake_discord, running_bot

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
        drawing = await renderer.run(os.nice, 0)
        # (19 is the lowest priority there is: a bot itself run under nice reaches it sooner)
        assert await thinker.run(os.nice, 0) >= min(drawing + 10, 19)
    finally:
        thinker.close()
        renderer.close()


# A stand-in bot's loop thread: asks for short slices, then starts workers (and so the fork server).
QUICK_THEN_WORKERS = """
import asyncio
from bot.rendering import Renderer
from bot.workers import ask_for_quick_wakeups, time_slice

async def main():
    took = ask_for_quick_wakeups()
    renderer = Renderer("process", workers=1)
    renderer.start()
    print(took, time_slice(), await renderer.run(time_slice))
    renderer.close()

asyncio.run(main())
"""


@pytest.mark.skipif(time_slice() is None, reason="the kernel does not report time slices (Linux < 6.12)")
def test_the_loop_thread_takes_short_time_slices_and_its_workers_do_not():
    # The loop's thread gets a core the moment it wakes; workers inherit its slice through the
    # fork server, and would get the same right to take the core from the loop.
    out = subprocess.run([sys.executable, "-c", QUICK_THEN_WORKERS], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    took, loop_slice, worker_slice = out.stdout.split()
    assert took == "True" and int(loop_slice) == QUICK_SLICE_NS
    assert worker_slice != "None" and int(worker_slice) > QUICK_SLICE_NS


@pytest.mark.skipif(time_slice() is None, reason="the kernel does not report time slices (Linux < 6.12)")
async def test_the_bot_asks_for_short_time_slices_on_its_loop_thread(tmp_path):
    set_time_slice(0)   # (an earlier bot in this test process asked on this same thread)
    assert time_slice() != QUICK_SLICE_NS
    async with fake_discord() as fake, running_bot(fake, tmp_path / "bot.sqlite3"):
        assert time_slice() == QUICK_SLICE_NS


def test_a_games_background_work_can_be_sent_to_a_worker_process():
    # The flow runs it in the background pool's process: it must pickle (no closures).
    import pickle

    import engine
    from bot import ui

    game = engine.get_game("pack-solitaire")
    work = ui.adapter_for(game.name).background(game, game.new_game(["1"], seed=3), {})
    assert pickle.loads(pickle.dumps(work)).args == work.args


# A stand-in bot that stops while a worker is busy (a long Pack Solitaire solve, say).
STOPS_WHILE_BUSY = """
import asyncio, os, time
from bot.workers import WorkerPool

async def main():
    pool = WorkerPool("process", 1)
    await pool.run(os.getpid)   # the worker is up
    work = asyncio.ensure_future(pool.run(time.sleep, 60))
    await asyncio.sleep(0.5)   # ... and busy
    work.cancel()   # as the bot's close() cancels what waited for it
    pool.close()

asyncio.run(main())
"""


def test_a_bot_stopping_does_not_wait_for_a_busy_worker():
    """Python's exit waits for the work a process pool is doing: a long solve or search would
    hold a stopping bot past Docker's 10 s grace. Nothing a worker does must be finished (a
    board is drawn again, a computer thinks again after a restart): close() ends the workers."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", STOPS_WHILE_BUSY], cwd=ROOT, timeout=120,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 20, "the stop waited for the worker's 60 s of work"
    assert "Traceback" not in done.stderr and "died" not in done.stderr
