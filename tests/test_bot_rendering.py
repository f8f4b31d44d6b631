"""The bot's renderer: boards drawn in worker processes (or a thread), the same bytes as the
renderer's own, and a fall back to a thread when the workers cannot be used."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import engine
import render
from bot.rendering import Renderer

GAME = engine.get_game("relativity")


def board() -> dict:
    state = GAME.new_game(["ann", "bob"], seed=3)
    return {"view": GAME.view(state, None), "names": {"ann": "Annie", "bob": "Bob"}}


async def test_worker_processes_draw_the_same_bytes_as_the_renderer():
    renderer = Renderer("process", workers=1)
    renderer.start()
    try:
        drawn = await renderer.png(board())
    finally:
        renderer.close()
    assert drawn == render.render_png(board()["view"], names=board()["names"])


async def test_a_dead_worker_pool_falls_back_to_a_thread():
    renderer = Renderer("process", workers=1)
    renderer.start()
    try:
        await renderer.png(board())
        for pid in list(renderer._pool._processes):   # a worker killed from outside
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        drawn = await renderer.png(board())
    finally:
        renderer.close()
    assert renderer.mode == "thread"
    assert drawn == render.render_png(board()["view"], names=board()["names"])


async def test_thread_and_inline_modes_draw_too():
    for mode in ("thread", "inline"):
        assert (await Renderer(mode).png(board()))[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="process, thread, inline"):
        Renderer("gpu")


def test_the_render_setting(tmp_path):
    from bot.settings import SettingsError, load_settings

    assert load_settings({"DISCORD_TOKEN": "t"}, cwd=tmp_path).render_in == "process"
    assert load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_RENDER": "Thread"},
                         cwd=tmp_path).render_in == "thread"
    with pytest.raises(SettingsError, match="PIECEPACK_RENDER"):
        load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_RENDER": "gpu"}, cwd=tmp_path)


async def test_a_board_a_person_waits_for_is_drawn_before_unhurried_ones_queued_earlier():
    from bot.rendering import UNHURRIED, URGENT
    from bot.workers import WorkerPool

    pool = WorkerPool("thread", workers=1)
    release = asyncio.Event()
    loop = asyncio.get_running_loop()
    order = []

    def job(name):
        order.append(name)
        return name

    def busy():   # holds the only worker until released
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result()
        return job("busy")

    held = asyncio.ensure_future(pool.run(busy))
    await asyncio.sleep(0.05)
    queued = [asyncio.ensure_future(pool.run(job, f"computer {n}", priority=UNHURRIED)) for n in range(3)]
    await asyncio.sleep(0)
    person = asyncio.ensure_future(pool.run(job, "person", priority=URGENT))
    await asyncio.sleep(0.05)
    assert order == []   # all wait for the one worker
    release.set()
    await asyncio.gather(held, person, *queued)
    assert order == ["busy", "person", "computer 0", "computer 1", "computer 2"]


async def test_a_cancelled_wait_for_a_worker_gives_its_turn_on():
    from bot.workers import WorkerPool

    pool = WorkerPool("thread", workers=1)
    gate = asyncio.Event()
    loop = asyncio.get_running_loop()
    busy = asyncio.ensure_future(pool.run(lambda: asyncio.run_coroutine_threadsafe(
        gate.wait(), loop).result()))
    await asyncio.sleep(0.05)
    given_up = asyncio.ensure_future(pool.run(lambda: "never"))
    after = asyncio.ensure_future(pool.run(lambda: "after"))
    await asyncio.sleep(0)
    given_up.cancel()
    gate.set()
    await busy
    assert await asyncio.wait_for(after, 5) == "after"
    assert given_up.cancelled()
    assert pool._busy == 0 and not pool._waiting


async def test_closing_cancels_the_calls_waiting_and_starts_no_workers_again():
    from bot.workers import WorkerPool

    pool = WorkerPool("thread", workers=1)
    gate = asyncio.Event()
    loop = asyncio.get_running_loop()
    busy = asyncio.ensure_future(pool.run(lambda: asyncio.run_coroutine_threadsafe(
        gate.wait(), loop).result() and "done"))
    await asyncio.sleep(0.05)
    waiting = asyncio.ensure_future(pool.run(lambda: "never"))
    await asyncio.sleep(0)
    pool.close()
    gate.set()
    assert await busy == "done"   # what runs finishes
    with pytest.raises(asyncio.CancelledError):
        await waiting
    with pytest.raises(asyncio.CancelledError):
        await pool.run(lambda: "after")
    renderer = Renderer("process", workers=1)
    renderer.close()
    renderer.start()
    assert renderer._pool is None


def test_the_render_pool_is_sized_from_the_cores(monkeypatch):
    """One worker per core but the event loop's, with no cap: a wave of 60 moves on 16 cores
    had p95 592 ms with the old cap of 4 workers, 312 ms with 14."""
    import bot.rendering

    for cores, workers in ((1, 1), (2, 2), (4, 3), (16, 15), (64, 63)):
        monkeypatch.setattr(bot.rendering, "cores", lambda: cores)
        assert Renderer("thread").workers == workers
    assert Renderer("thread", workers=5).workers == 5


def test_the_render_workers_setting(tmp_path):
    from bot.app import PiecepackBot
    from bot.rendering import default_workers
    from bot.settings import SettingsError, load_settings
    from bot.workers import cores

    unset = load_settings({"DISCORD_TOKEN": "t"}, cwd=tmp_path)
    assert unset.render_workers is None
    assert PiecepackBot(unset).renderer.workers == default_workers(cores())
    six = load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_RENDER_WORKERS": " 6 "}, cwd=tmp_path)
    assert six.render_workers == 6 and PiecepackBot(six).renderer.workers == 6
    for bad in ("0", "-2", "two", "1.5", "1000"):
        with pytest.raises(SettingsError) as error:
            load_settings({"DISCORD_TOKEN": "t", "PIECEPACK_RENDER_WORKERS": bad}, cwd=tmp_path)
        assert str(error.value) == (f"PIECEPACK_RENDER_WORKERS must be a whole number from 1 to "
                                    f"256, not {bad!r}.")
