"""Daily puzzles through the fake Discord, with the real SQLite store and a fake clock: one deal
per server and UTC day (the same for two players, another the next day and in another server),
played once each in a private thread, the table hidden until one has played, and a summary line
that holds the result but no layout. The Pack Solitaire solver is replaced here by a quick
stand-in (the real one takes minutes on a random deal; tests/test_pack_solitaire.py tests it):
what matters here is that the deal's best is worked out once and shown."""

from __future__ import annotations

import asyncio
import re

import pytest

import bot.ui.pack_solitaire
import engine
from bot.daily import daily_seed, summary_line, utc_day
from bot.storage import backup
from engine.byop1 import solve
from tests import fakediscord
from tests.botkit import (FakeClock, break_route, command, drawn, fake, fake_discord, running_bot,  # noqa: F401
                          said, settle)
from tests.pg import database_for

PACK = engine.get_game("pack-solitaire")
BYOP1 = engine.get_game("byop1")
NOON = 1_764_072_000.0   # 2025-11-25 12:00 UTC
DAY = 86400.0


@pytest.fixture
def solver(monkeypatch):
    """The deal's best score, quickly: a stand-in for the exact solver that counts its calls."""
    calls: list[tuple] = []

    def best_of_deal(tiles):
        calls.append(tuple(tiles))
        return {"best": 90, "best_layout": []}

    monkeypatch.setattr(bot.ui.pack_solitaire, "best_of_deal", best_of_deal)
    return calls


async def daily(fake, bot, user, game="pack-solitaire", **options):
    """/daily by `user`, then everything it queued delivered; returns (answer, their row)."""
    res = await command(fake, user, "daily", {"game": game, **options})
    for job in list(bot.flow.jobs.values()):
        await job
    await settle(bot)
    rows = [r for r in await bot.store.games_of_user(int(user), statuses=("active", "finished", "cancelled"))]
    return res, (rows[-1] if rows else None)


def tiles_of(row) -> list[str]:
    return PACK.view(PACK.from_json(row.state))["tiles"]


async def finish_pack(fake, bot, user, row, placements: int = 1):
    """Make `placements` greedy placements (each the best for the score now), then Finish;
    returns the final score."""
    state = PACK.from_json((await bot.store.get_game(row.id)).state)
    for _ in range(placements):
        moves = [a for a in PACK.legal_actions(state, str(user)) if "/" in str(a)]
        move = str(max(moves, key=lambda a: PACK.scores(PACK.apply(state, str(user), a))[str(user)]))
        res = await command(fake, user, "move", {"move": move}, channel=str(row.thread_id))
        assert "Played" in said(res), said(res)
        state = PACK.from_json((await bot.store.get_game(row.id)).state)
    await command(fake, user, "move", {"move": "done"}, channel=str(row.thread_id))
    await settle(bot)
    final = await bot.store.get_game(row.id)
    assert final.status == "finished"
    return final.extras["score"]


def test_the_seed_depends_on_day_server_game_and_secret():
    seed = daily_seed("k" * 64, "2026-11-25", 1, "byop1")
    assert seed == daily_seed("k" * 64, "2026-11-25", 1, "byop1") and 0 <= seed < 2 ** 63
    others = {daily_seed("k" * 64, "2026-11-26", 1, "byop1"), daily_seed("k" * 64, "2026-11-25", 2, "byop1"),
              daily_seed("k" * 64, "2026-11-25", 1, "pack-solitaire"), daily_seed("j" * 64, "2026-11-25", 1, "byop1")}
    assert seed not in others and len(others) == 4
    assert utc_day(NOON) == "2025-11-25" and utc_day(NOON + 12 * 3600 - 1) == "2025-11-25"
    assert utc_day(NOON + 12 * 3600) == "2025-11-26"


async def test_one_deal_per_server_and_day_played_once_and_no_spoilers(fake, drawn, solver, tmp_path):
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    clock = FakeClock(NOON)
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock) as bot:
        # alice starts: a private thread that only she (and the bot) are in
        res, a_row = await daily(fake, bot, alice)
        assert res.ephemeral and "private thread" in said(res) and a_row.status == "active"
        thread = fake.channel(a_row.thread_id)
        assert thread.type == 12 and not thread.invitable
        assert set(thread.member_ids) == {str(alice), fake.bot_user_id}
        assert not fake.messages(fake.channel_id)          # nothing public so far

        # bob, the same day: the same deal, in a thread of his own
        clock.advance(3600)
        _, b_row = await daily(fake, bot, bob)
        assert b_row.id != a_row.id and b_row.thread_id != a_row.thread_id
        assert tiles_of(b_row) == tiles_of(a_row)
        assert len(solver) == 1                              # one deal, solved once

        # a second /daily returns alice to her running game (back in its thread, had she
        # left it); no second game
        thread.member_ids.remove(str(alice))
        again, _ = await daily(fake, bot, alice)
        assert str(alice) in fake.channel(a_row.thread_id).member_ids
        assert f"<#{a_row.thread_id}>" in said(again) and "waiting for you" in said(again)
        assert len(await bot.store.games_of_user(int(alice), statuses=("active", "finished"))) == 1

        # nobody else may look at her board, even by number
        peek = await command(fake, carol, "board", {"game": a_row.id})
        assert "daily puzzle" in said(peek) and not peek.messages[-1].attachments
        # ... nor read its moves or replay it
        for name, options in (("record", {"game": a_row.id}), ("replay", {"game": a_row.id, "move": 1})):
            peek = await command(fake, carol, name, options)
            assert "daily puzzle" in said(peek) and not peek.messages[-1].attachments

        # the table is hidden from who has not finished (bob plays; carol has not started)
        for user in (bob, carol):
            refused = await command(fake, user, "daily", {"game": "pack-solitaire", "show": "table"})
            assert "opens once you have" in said(refused) and "alice" not in said(refused)

        # alice finishes: the channel hears that she played, not how
        clock.advance(600)
        a_score = await finish_pack(fake, bot, alice, a_row, placements=3)
        assert a_score > 0
        public = fake.messages(fake.channel_id)
        assert len(public) == 1 and "alice" in public[0].content and "has played" in public[0].content
        assert f"{a_score}" not in re.sub(r"\d{4}-\d\d-\d\d|<[^>]*>", "", public[0].content)
        summary = next(m.content for m in fake.messages(a_row.thread_id) if "summary to share" in m.content)
        line = re.search(r"`(piecepack-bot daily[^`]*)`", summary)[1]
        assert line == f"piecepack-bot daily Pack Solitaire 2025-11-25: {a_score}/90 in 1 h 10 min"
        # ... with no tile layout: no tile, cell or placement in it
        assert not any(tile in line for tile in tiles_of(a_row))
        assert not re.search(r"\b[a-d][1-4]\b|@|/\d\b", line.replace(f"{a_score}/90", ""))

        # her table now, and /daily again shows it too (she cannot play twice)
        table = said(await command(fake, alice, "daily", {"game": "pack-solitaire", "show": "table"}))
        assert "best possible score **90**" in table and f"**alice**: {a_score}/90 in 1 h 10 min" in table
        assert "Still playing: **bob**" in table and line in table
        replay = said(await command(fake, alice, "daily", {"game": "pack-solitaire"}))
        assert "**alice**" in replay
        # her record is hers to read, but not to post for everyone while the deal is today's
        own = await command(fake, alice, "record", {"game": a_row.id})
        assert own.ephemeral and own.messages[-1].attachments
        shared = await command(fake, alice, "record", {"game": a_row.id, "share": True})
        assert "today's daily puzzle" in said(shared) and shared.ephemeral
        assert not any(m.attachments for m in shared.messages) and len(fake.messages(fake.channel_id)) == 1
        assert len(await bot.store.games_of_user(int(alice), statuses=("active", "finished"))) == 1

        # bob, still playing, still sees no table; once he has finished, both results
        refused = await command(fake, bob, "daily", {"game": "pack-solitaire", "show": "table"})
        assert "waiting for you" in said(refused) and f"{a_score}/90" not in said(refused)
        await finish_pack(fake, bot, bob, b_row, placements=0)
        table = said(await command(fake, bob, "daily", {"game": "pack-solitaire"}))
        assert table.index("**alice**") < table.index("**bob**: 0/90") and "Still playing" not in table

        # the next day: a new deal, and alice may play again
        clock.advance(DAY)
        shared = await command(fake, alice, "record", {"game": a_row.id, "share": True})
        assert not shared.ephemeral and shared.messages[-1].attachments   # yesterday's: no spoiler
        _, next_day = await daily(fake, bot, alice)
        assert next_day.id != a_row.id and tiles_of(next_day) != tiles_of(a_row)
        next_tiles = tiles_of(next_day)

    # after a restart the secret (and so the deal) is the same; a backup keeps it too
    copy = tmp_path / "copy.sqlite3"
    if database_for(db) == str(db):
        backup(str(db), str(copy))
    else:   # PostgreSQL (backups are pg_dump's): the restart alone
        copy = db
    async with running_bot(fake, copy, clock=clock) as bot:
        _, restored = await daily(fake, bot, bob)
        assert tiles_of(restored) == next_tiles

    # another server, on the same bot and day: another deal
    async with fake_discord() as other:
        dave = other.add_user("dave")
        async with running_bot(other, db, clock=clock) as bot:
            _, elsewhere = await daily(other, bot, dave)
            assert elsewhere.guild_id != next_day.guild_id and tiles_of(elsewhere) != next_tiles


async def test_byop1_daily_measures_slides_and_time(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = FakeClock(NOON)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        _, a_row = await daily(fake, bot, alice, "byop1")
        _, b_row = await daily(fake, bot, bob, "byop1")
        a_state, b_state = BYOP1.from_json(a_row.state), BYOP1.from_json(b_row.state)
        assert BYOP1.view(a_state, str(alice))["board"]["tiles"] == BYOP1.view(b_state, str(bob))["board"]["tiles"]
        assert fake.channel(a_row.thread_id).type == 12

        view = BYOP1.view(a_state, str(alice))
        moves = solve(view["board"]["tiles"], view["targets"]["rows"], view["targets"]["columns"])
        clock.advance(125)
        await command(fake, alice, "move", {"move": moves}, channel=str(a_row.thread_id))
        await command(fake, alice, "move", {"move": "done"}, channel=str(a_row.thread_id))
        await settle(bot)
        assert (await bot.store.get_game(a_row.id)).status == "finished"

        hidden = said(await command(fake, bob, "daily", {"game": "byop1", "show": "table"}))
        assert "waiting for you" in hidden and "slides" not in hidden
        table = said(await command(fake, alice, "daily", {"game": "byop1"}))
        assert f"**alice**: solved in {len(moves)} slides, 2 min 05 s" in table
        assert summary_line("byop1", "2025-11-25", {"status": "correct", "slides": len(moves), "seconds": 125},
                            None) in table
        public = fake.messages(fake.channel_id)
        assert len(public) == 1 and "slides" not in public[0].content


async def test_without_a_private_thread_nothing_is_played_in_the_open(fake, drawn, solver, tmp_path):
    alice = fake.add_user("alice")
    refused = break_route(fake, ("POST", r"/channels/(\d+)/threads"),
                          lambda: fakediscord._APIError(403, 50013, "Missing Permissions"), times=1)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(NOON)) as bot:
        res = await command(fake, alice, "daily", {"game": "pack-solitaire"})
        assert refused and "Create Private Threads" in said(res) and "Nothing was played" in said(res)
        await settle(bot)
        assert not fake.messages(fake.channel_id) and not fake.threads
        assert [r.status for r in await bot.store.games_of_user(int(alice), statuses=("lobby", "active", "cancelled"))] \
            == ["cancelled"]
        # it did not count as played: once the bot may open the thread, the puzzle is there
        _, row = await daily(fake, bot, alice)
        assert row.status == "active" and fake.channel(row.thread_id).type == 12


async def test_two_daily_commands_at_once_open_one_game(fake, drawn, solver, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(NOON)) as bot:
        first, second = await asyncio.gather(fake.slash(alice, "daily", {"game": "byop1"}),
                                             fake.slash(alice, "daily", {"game": "byop1"}))
        answers = [said(await res.done()) for res in (first, second)]
        await settle(bot)
        rows = await bot.store.games_of_user(int(alice), statuses=("active",))
        assert len(rows) == 1 and len(await bot.store.daily_plays(int(fake.guild_id), utc_day(NOON), "byop1")) == 1
        assert sum("private thread" in a and "is in <#" in a for a in answers) == 1
        assert all(f"<#{rows[0].thread_id}>" in a or "already" in a for a in answers)
        assert len(fake.threads) == 1


async def test_a_daily_offers_no_rematch(fake, drawn, tmp_path):
    """(issue 21.14) A daily's deal is the day's, played once: no Rematch button under its
    result, and `/play rematch:` of it points at tomorrow's daily or an ordinary game."""
    alice = fake.add_user("alice")
    clock = FakeClock(NOON)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        _, row = await daily(fake, bot, alice, "byop1")
        view = BYOP1.view(BYOP1.from_json(row.state), str(alice))
        moves = solve(view["board"]["tiles"], view["targets"]["rows"], view["targets"]["columns"])
        thread = str(row.thread_id)
        await command(fake, alice, "move", {"move": moves}, channel=thread)
        await command(fake, alice, "move", {"move": "done"}, channel=thread)
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "finished"
        buttons = [c for m in fake.messages(thread) for c in m.custom_ids()]
        assert not [c for c in buttons if c.startswith("pp:rematch")], buttons

        refused = said(await command(fake, alice, "play", {"rematch": row.id}))
        assert "daily" in refused and "/daily game:byop1" in refused and "/play game:byop1" in refused
        assert [r.id for r in await bot.store.games_of_user(int(alice), statuses=("lobby", "active"))] == []
