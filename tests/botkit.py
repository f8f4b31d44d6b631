"""Helpers for the bot tests: run the real bot against tests/fakediscord.py, a fake clock, and
small steps of play (lobby, moves)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path

import pytest

import bot.rendering
from bot.app import PiecepackBot
from bot.settings import Settings
from tests.pg import database_for
from tests.fakediscord import FakeDiscord

START = 1_700_000_000.0


class FakeClock:
    def __init__(self, now: float = START):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def settings_for(fake: FakeDiscord, db: Path, **overrides) -> Settings:
    values = dict(token=fake.token, db_path=database_for(db), api_base=fake.base_url,
                  gateway_url=fake.gateway_url, guild_ready_timeout=0.05,
                  render_in="thread",   # no worker processes to start for each test's bot
                  identify_spacing=0)   # (Discord's 5 s between IDENTIFYs)
    values.update(overrides)
    return Settings(**values)


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, db: Path, *, clock=None, seed=None, draw_seats=False,
                      **settings):
    """A bot connected to `fake`, on the SQLite file `db`; closed on exit. Like the seed, the
    seat draw is fixed (the lobby's order) unless `draw_seats`: tests script moves by seat."""
    fake.patch_discord()
    seeds = iter(seed) if isinstance(seed, (list, tuple)) else None
    seed_source = (lambda: next(seeds)) if seeds else ((lambda: seed) if seed is not None else None)
    bot = PiecepackBot(settings_for(fake, db, **settings), clock=clock, seed_source=seed_source,
                       seat_order=None if draw_seats else (lambda seats, seed: list(seats)))
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_ready(timeout=10)
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        yield bot
    finally:
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@contextlib.asynccontextmanager
async def fake_discord(**kwargs):
    fake = FakeDiscord(**kwargs)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    # Every image the bot sent, in any test, carried alt text (issue 23: screen readers).
    assert not fake.images_without_alt, f"images sent without alt text: {fake.images_without_alt}"


@pytest.fixture
async def fake():
    """A fake Discord for one test (import this fixture into a test module to use it)."""
    async with fake_discord() as fake:
        yield fake


@pytest.fixture
def drawn(monkeypatch):
    """Boards are not drawn (fast): each "PNG" is a PNG signature and the view's JSON; returns
    the views by those bytes, to know what each file shows."""
    views: dict[bytes, dict] = {}

    def stub(board):
        png = b"\x89PNG" + json.dumps(board["view"], sort_keys=True).encode()
        views[png] = board["view"]
        return png

    monkeypatch.setattr(bot.rendering, "draw_board", stub)
    return views


async def settle(bot: PiecepackBot) -> None:
    """Deliver everything queued (instead of waiting for the background task)."""
    await bot.run_due()


async def open_game(fake, bot, host, guest, game="relativity", **options):
    """/play by host, Join by guest (a full two-seat game starts). Returns (row, thread id)."""
    res = await fake.slash(host, "play", {"game": game, **options})
    lobby = res.original
    join = await fake.click(guest, lobby.button("Join"), message_id=lobby.id)
    await join.done()
    rows = await bot.store.games_of_user(int(host))
    row = rows[-1]
    assert row.status == "active", row
    await settle(bot)
    return row, str(row.thread_id)


def thread_posts(fake, thread_id) -> list:
    return fake.messages(thread_id)


def last_board_post(fake, thread_id):
    posts = [m for m in fake.messages(thread_id) if m.attachments]
    return posts[-1] if posts else None


async def press(fake, user, custom_id, **kwargs):
    """Click a button and wait until the bot has finished answering."""
    return await (await fake.click(user, custom_id, **kwargs)).done()


async def choose(fake, user, custom_id, values, **kwargs):
    return await (await fake.select(user, custom_id, values, **kwargs)).done()


async def command(fake, user, name, options=None, **kwargs):
    return await (await fake.slash(user, name, options or {}, **kwargs)).done()


def said(res) -> str:
    """What the bot told only the user who interacted (its ephemeral messages)."""
    return "\n".join(m.text for m in res.messages if m.ephemeral)


# ---- making the fake Discord misbehave ------------------------------------------------------


def wrap_route(fake, route, wrapper) -> None:
    """Replace the handler of `route` (method, pattern) by wrapper(original handler)."""
    method, pattern = route
    for n, (m, compiled, handler, auth) in enumerate(fake._routes):
        if m == method and compiled.pattern == pattern:
            fake._routes[n] = (m, compiled, wrapper(handler), auth)
            return
    raise AssertionError(f"the fake has no route {method} {pattern}")


def break_route(fake, route, answer, *, times: int | None = None, when=None) -> list:
    """Make `route` fail with `answer()` (the first `times` calls, or always; only the calls
    whose path arguments satisfy `when`). Returns the list of failed calls' arguments."""
    failed: list = []

    def wrapper(handler):
        async def failing(req, *args):
            if (times is None or len(failed) < times) and (when is None or when(*args)):
                failed.append(args)
                result = answer()
                if isinstance(result, Exception):
                    raise result
                return result
            return await handler(req, *args)
        return failing

    wrap_route(fake, route, wrapper)
    return failed


# ---- who sees what ----------------------------------------------------------------------------


def audience(fake, record) -> str | None:
    """The one user who can see what a request delivered, or None when it is public."""
    channel_id = record.channel_id
    token = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", record.path)
    if token:
        res = next(r for r in fake.interactions if r.token == token[1])
        if fake.channel(res.channel_id).type == 1 or res.type in (8, 9):
            return res.user_id
        messages = res.messages
        # Conservative: an interaction with any public message counts as public throughout.
        return res.user_id if messages and all(m.ephemeral for m in messages) else None
    if channel_id is not None and fake.channel(channel_id).type == 1:
        return fake.channel(channel_id).recipient_id
    return None
