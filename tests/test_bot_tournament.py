"""Tournaments (issue 25) through the fake Discord, with the real store and a fake clock: a
7-player Swiss of 3 rounds with a withdrawal, a round deadline expiring, a restart in the
middle of a round and a paused tournament; a round robin; the standings agreeing with a hand
calculation."""

from __future__ import annotations

import pytest

from bot.tournaments import pairing, standings
from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said, settle  # noqa: F401
from tests.pg import database_for  # noqa: F401

DAY = 86400.0


async def create(fake, bot, organiser, **options):
    """/tournament create in the channel; returns (tournament row, sign-up message)."""
    res = await command(fake, organiser, "tournament create", {"game": "relativity", **options})
    post = [m for m in res.messages if not m.ephemeral]
    assert post, said(res)
    [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
    return t, post[-1]


async def sign_up(fake, bot, tid, post, users):
    for user in users:
        res = await press(fake, user, f"pp:tour:{tid}:join", message_id=post.id)
        assert "signed up" in said(res), said(res)


async def round_games(bot, tid, number=None):
    t = await bot.store.get_tournament(tid)
    links = await bot.store.tournament_games(tid, number or t.round)
    return [(link, await bot.store.get_game(link.game_id)) for link in links]


async def resign(fake, bot, row, loser):
    res = await command(fake, loser, "resign", channel=row.thread_id)
    assert "resigned" in said(res).lower(), said(res)


def channel_texts(fake) -> list[str]:
    return [m.content or "" for m in fake.messages(fake.channel_id)]


async def test_a_small_swiss_from_sign_up_to_the_winner(fake, tmp_path, drawn):
    names = ("ann", "bob", "cy", "dee")
    users = [fake.add_user(n) for n in names]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=2)
        assert "Swiss" in post.content and post.custom_ids() == [
            f"pp:tour:{t.id}:join", f"pp:tour:{t.id}:leave", f"pp:tour:{t.id}:start"]
        await sign_up(fake, bot, t.id, post, users)
        refused = await press(fake, users[1], f"pp:tour:{t.id}:start", message_id=post.id)
        assert "Only the organiser" in said(refused)
        await press(fake, users[0], f"pp:tour:{t.id}:start", message_id=post.id)
        await settle(bot)
        games = await round_games(bot, t.id, 1)
        assert len(games) == 2 and all(row.status == "active" and row.thread_id for _, row in games)
        thread_names = [fake.channel(row.thread_id).name for _, row in games]
        assert all(name.startswith(f"Tournament #{t.id}, round 1: ") for name in thread_names)
        assert any("round 1 of 2" in text for text in channel_texts(fake))
        # both games end: the second seat resigns; round 2 is paired at once
        for link, row in games:
            await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.round == 2 and t.status == "running"
        texts = channel_texts(fake)
        assert any("standings after round 1" in text for text in texts)
        assert any(m.attachments for m in fake.messages(fake.channel_id))   # the standings image
        winners = [link.seats[0] for link, _ in games]
        games2 = await round_games(bot, t.id, 2)
        assert sorted(games2[0][0].seats) == sorted(winners)   # the two winners meet
        for link, row in games2:
            await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.status == "finished"
        final = [text for text in channel_texts(fake) if "is over. The winner" in text]
        champion = games2[0][0].seats[0]
        assert len(final) == 1 and f"**{names[users.index(champion)]}**" in final[0]
