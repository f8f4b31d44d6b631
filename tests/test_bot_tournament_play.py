"""Tournaments (issue 25) played from the outside, as an organiser and players would: the
things people do wrong, who is told what (pings, secrets), and the standings by hand."""

from __future__ import annotations

from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said, settle  # noqa: F401
from tests.test_bot_daily import finish_pack, solver  # noqa: F401
from tests.test_bot_fair import pinged_by
from tests.test_bot_tournament import create, resign, round_games, sign_up


async def test_wrong_steps_are_answered_for_what_they_are(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        nothing = await command(fake, organiser, "tournament standings")
        assert "There is no tournament here" in said(nothing)
        t, post = await create(fake, bot, organiser, deadline="none")
        early = await command(fake, users[0], "tournament standings")
        assert f"Tournament #{t.id} has not started yet" in said(early)
        too_few = await press(fake, organiser, f"pp:tour:{t.id}:start", message_id=post.id)
        assert "needs at least 2 players" in said(too_few)
        await sign_up(fake, bot, t.id, post, users)
        twice = await press(fake, users[0], f"pp:tour:{t.id}:join", message_id=post.id)
        assert "signed up for" in said(twice) and "already" in said(twice)
        left = await press(fake, users[2], f"pp:tour:{t.id}:leave", message_id=post.id)
        assert "You have left" in said(left)
        stranger = await command(fake, organiser, "tournament remove", {"player": users[2]})
        assert "is not playing in" in said(stranger)
        not_running = await command(fake, organiser, "tournament pause")
        assert "is not running" in said(not_running)
        not_mine = await press(fake, users[1], f"pp:tour:{t.id}:start", message_id=post.id)
        assert "Only the organiser" in said(not_mine)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        again = await command(fake, organiser, "tournament start")
        assert f"Tournament #{t.id} has started already" in said(again)
        not_paused = await command(fake, organiser, "tournament resume")
        assert f"Tournament #{t.id} is not paused" in said(not_paused)
        await command(fake, organiser, "tournament pause")
        paused_twice = await command(fake, organiser, "tournament pause")
        assert "is paused already" in said(paused_twice)
        t = await bot.store.get_tournament(t.id)
        assert (t.status, t.round, [e.id for e in t.active]) == ("paused", 1, [str(u) for u in users[:2]])


async def test_each_pairing_pings_its_players_and_the_bye_and_the_end_pings_the_winner(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=1, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, t.id, 1)
        [r1] = await bot.store.rounds_of(t.id)
        paired = [r for r in fake.all_payloads if r.contains("round 1 of 1")]
        assert len(paired) == 1
        assert pinged_by(paired[0]) == {*link.seats, str(r1["bye"])}
        await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        # (the bye's point ties the game's winner: both share first place)
        [end] = [r for r in fake.all_payloads if r.contains("is over. ")]
        assert pinged_by(end) == {link.seats[0], str(r1["bye"])}


async def test_standings_asked_for_during_a_round_say_which_rounds_they_count(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=2, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        shown = said(await press(fake, users[1], f"pp:tour:{t.id}:standings", message_id=post.id))
        assert "standings, round 1 in play" in shown and "after round 1" not in shown
        [(link, row)] = await round_games(bot, t.id, 1)
        await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        shown = said(await command(fake, users[1], "tournament standings"))
        assert "standings after round 1, round 2 in play" in shown


async def test_a_duplicate_deal_cannot_be_shared_before_its_round_closes(fake, tmp_path, drawn, solver):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        res = await command(fake, users[0], "tournament create",
                            {"game": "pack-solitaire", "rounds": 1, "deadline": "none"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        (_, mine), (_, theirs) = await round_games(bot, t.id, 1)
        await finish_pack(fake, bot, users[0], mine, 1)
        before = len(fake.messages(fake.channel_id))
        shared = await command(fake, users[0], "record", {"game": mine.id, "share": True})
        assert "others are still playing" in said(shared)
        assert len(fake.messages(fake.channel_id)) == before and not shared.messages[-1].attachments
        alone = await command(fake, users[0], "record", {"game": mine.id})   # (to its player alone: fine)
        assert alone.messages[-1].ephemeral and alone.messages[-1].attachments
        await finish_pack(fake, bot, users[1], theirs, 1)
        await settle(bot)
        await settle(bot)
        shared = await command(fake, users[0], "record", {"game": mine.id, "share": True})
        assert not shared.messages[-1].ephemeral and shared.messages[-1].attachments
