"""Time away (/away, issue 14 part 5) end to end: the real discord.py client against the fake
Discord, the real SQLite store in tmp_path, a fake clock."""

from __future__ import annotations

import pytest

import engine
from bot.away import ALLOWANCE_DAYS, month_bounds, span
from tests.botkit import (FakeClock, command, drawn, fake, last_board_post, open_game,  # noqa: F401
                          press, running_bot, said, settle)

DAY = 86400.0
RELATIVITY = engine.get_game("relativity")


@pytest.fixture
def people(fake):
    return fake.add_user("alice"), fake.add_user("bob")


def t(at: float, style: str = "f") -> str:
    return f"<t:{int(at)}:{style}>"


def thread_text(fake, thread) -> str:
    return "\n".join(m.text for m in fake.messages(thread))


def reminders(fake, user) -> list:
    return [m for m in fake.dms(user) if "Reminder" in m.content]


async def due(bot, game_id) -> dict[str, float]:
    return {kind: timer.due_at for kind, timer in (await bot.store.timers_of(game_id)).items()}


async def play_first_move(fake, bot, game_id, user, thread) -> None:
    row = await bot.store.get_game(game_id)
    state = bot.flow.state_of(row)
    assert set(RELATIVITY.awaited(state)) == {str(user)}
    move = str(next(iter(RELATIVITY.legal_actions(state, str(user)))))
    res = await command(fake, user, "move", {"move": move}, channel=thread)
    assert "Played" in said(res), said(res)
    await settle(bot)


async def test_time_away_moves_the_deadline_and_its_reminder_survives_a_restart_and_expires(
        fake, people, tmp_path, drawn):
    alice, bob = people
    clock = FakeClock()
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock, seed=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        before = await due(bot, row.id)
        clock.advance(3600)
        res = await command(fake, alice, "away", {"days": 3})
        back_at = clock.now + 3 * DAY
        reply = said(res)
        assert f"You are away until {t(back_at)}" in reply and f"Relativity #{row.id}" in reply
        assert f"Time away left this month: {ALLOWANCE_DAYS - 3} days" in reply

        # the deadline and its reminder stand still for the three days away
        after = await due(bot, row.id)
        assert after["deadline"] == before["deadline"] + 3 * DAY
        assert after["reminder"] == before["reminder"] + 3 * DAY
        await settle(bot)
        told = fake.messages(thread)[-1]
        assert f"**alice** is away until {t(back_at)}" in told.content
        assert f"Deadline {t(after['deadline'])}" in told.content
        # the turn post's deadline line follows (its image and buttons stay)
        turn = last_board_post(fake, thread)
        assert f"⏳ Deadline {t(after['deadline'], 'R')}." in turn.content
        assert t(before["deadline"], "R") not in turn.content and turn.custom_ids()

        # /games shows the moved deadline, to either player
        games = said(await command(fake, bob, "games"))
        assert t(after["deadline"], "R") in games and t(before["deadline"], "R") not in games
        assert f"clock paused until {t(back_at, 'R')}" in games

        # past the old reminder and the old deadline: nothing happens while alice is away
        clock.advance(DAY)
        await settle(bot)
        assert reminders(fake, alice) == []
        assert (await bot.store.get_game(row.id)).status == "active"

    # a new bot process on the same database: the absence and the moved timers are still there
    async with running_bot(fake, db, clock=clock, seed=2) as bot:
        assert await due(bot, row.id) == after
        status = said(await command(fake, alice, "away"))
        assert f"You are away until {t(back_at)}" in status
        clock.now = after["reminder"] - 60
        await settle(bot)
        assert reminders(fake, alice) == []
        clock.now = after["reminder"] + 1   # the absence is over: the clock ran on by itself
        await settle(bot)
        (reminder,) = reminders(fake, alice)
        assert t(after["deadline"], "R") in reminder.content
        clock.now = after["deadline"] + 1
        await settle(bot)
        text = thread_text(fake, thread)
        assert "⏰ The deadline passed: **alice** ran out of time" in text and "**bob** wins" in text
        assert (await bot.store.get_game(row.id)).status == "finished"
        assert "You are not away" in said(await command(fake, alice, "away"))


async def test_coming_back_early_resumes_with_the_time_spent_away(fake, people, tmp_path, drawn):
    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        before = await due(bot, row.id)
        await command(fake, alice, "away", {"days": 5})
        assert (await due(bot, row.id))["deadline"] == before["deadline"] + 5 * DAY

        clock.advance(2 * DAY)
        res = await command(fake, alice, "away", {"days": 0})
        assert "Welcome back" in said(res) and f"Relativity #{row.id}" in said(res)
        assert f"Time away left this month: {ALLOWANCE_DAYS - 2} days" in said(res)
        after = await due(bot, row.id)
        # pushed back by exactly the two days spent away, reminder included
        assert after == {"deadline": before["deadline"] + 2 * DAY, "reminder": before["reminder"] + 2 * DAY}
        await settle(bot)
        told = fake.messages(thread)[-1].content
        assert "**alice** is back" in told and f"Deadline {t(after['deadline'])}" in told
        assert f"⏳ Deadline {t(after['deadline'], 'R')}." in last_board_post(fake, thread).content
        games = said(await command(fake, alice, "games"))
        assert t(after["deadline"], "R") in games and "paused" not in games
        refused = await command(fake, alice, "away", {"days": 0})
        assert "You are not away" in said(refused)

        clock.now = after["reminder"] + 1
        await settle(bot)
        assert len(reminders(fake, alice)) == 1
        clock.now = after["deadline"] + 1
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "finished"


async def test_a_turn_or_a_game_that_comes_to_an_away_player_waits_for_them(fake, people, tmp_path, drawn):
    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        await play_first_move(fake, bot, row.id, alice, thread)
        waiting_on_bob = await due(bot, row.id)

        res = await command(fake, alice, "away", {"days": 2})
        back_at = clock.now + 2 * DAY
        assert "None of your games here waits for you now" in said(res)
        assert await due(bot, row.id) == waiting_on_bob   # bob's clock runs as before

        clock.advance(3600)
        await play_first_move(fake, bot, row.id, bob, thread)
        # alice's turn begins while she is away: its clock starts when she is back
        assert await due(bot, row.id) == {"deadline": back_at + DAY, "reminder": back_at + 0.8 * DAY}
        text = thread_text(fake, thread)
        assert f"Deadline {t(back_at + DAY, 'R')}" in text
        assert f"**alice** is away until {t(back_at)}" in text

        # so does a new game dealt while she is away
        row2, thread2 = await open_game(fake, bot, alice, bob, deadline="3d")
        assert await due(bot, row2.id) == {"deadline": back_at + 3 * DAY, "reminder": back_at + 2.4 * DAY}
        assert f"**alice** is away until {t(back_at)}" in thread_text(fake, thread2)

        # going away for longer moves both again; no reminder reaches her while away
        clock.advance(DAY)
        await command(fake, alice, "away", {"days": 4})
        later = clock.now + 4 * DAY
        assert (await due(bot, row.id))["deadline"] == later + DAY
        assert (await due(bot, row2.id))["deadline"] == later + 3 * DAY
        clock.now = later - 1
        await settle(bot)
        assert reminders(fake, alice) == []
        clock.now = later + 0.8 * DAY + 1
        await settle(bot)
        assert len(reminders(fake, alice)) == 1


async def test_one_of_several_awaited_players_away_pauses_the_game(fake, people, tmp_path, drawn):
    """Global Warming's secret choices: everyone is awaited at once. The game waits for the
    one who is away (its deadline pauses), whatever the others do meanwhile."""
    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=77) as bot:
        lobby = (await command(fake, alice, "play", {"game": "global-warming", "deadline": "1d"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        game = bot.flow.game_of(row)
        assert set(game.awaited(bot.flow.state_of(row))) == {str(alice), str(bob)}
        before = await due(bot, row.id)

        await command(fake, bob, "away", {"days": 2})
        paused = await due(bot, row.id)
        assert paused["deadline"] == before["deadline"] + 2 * DAY
        state = bot.flow.state_of(await bot.store.get_game(row.id))
        choice = str(next(iter(game.legal_actions(state, str(alice)))))
        await bot.flow.act(row.id, int(alice), "move", choice)
        assert await due(bot, row.id) == paused   # alice's choice does not restart the clock

        clock.advance(DAY)
        await command(fake, bob, "away", {"days": 0})
        assert (await due(bot, row.id))["deadline"] == before["deadline"] + DAY
        await settle(bot)
        assert "**bob** is back" in fake.messages(str(row.thread_id))[-1].content


async def test_the_monthly_allowance(fake, people, tmp_path):
    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        assert ALLOWANCE_DAYS == 14
        (definition,) = [c for c in fake.published_commands[None] if c["name"] == "away"]
        assert [(o["name"], o["min_value"], o["max_value"]) for o in definition["options"]] == [("days", 0, 14)]
        month_end = month_bounds(clock.now)[1]
        assert month_end - clock.now > 14 * DAY   # the fake clock's month has room for the test

        await command(fake, alice, "away", {"days": 10})
        clock.advance(4 * DAY)
        await command(fake, alice, "away", {"days": 0})   # 4 days used, 10 left
        refused = said(await command(fake, alice, "away", {"days": 11}))
        assert "more time away than you have left" in refused
        assert "Time away left this month: 10 days" in refused and t(month_end, "D") in refused
        assert await bot.store.absences_now(int(fake.guild_id), [int(alice)], clock.now) == {}

        # going away again while away: only the time spent counts from the first absence
        await command(fake, alice, "away", {"days": 3})
        clock.advance(DAY)
        res = said(await command(fake, alice, "away", {"days": 9}))
        assert "You are away until" in res and "Time away left this month: no time" in res
        # (a new /away replaces the absence she is on: 5 days spent, 9 left for it)
        refused = said(await command(fake, alice, "away", {"days": 10}))
        assert "more time away" in refused and "Time away left this month: 9 days" in refused
        assert "You are away until" in said(await command(fake, alice, "away"))   # still away
        assert "more time away" not in said(await command(fake, bob, "away", {"days": 14}))   # bob's own

        clock.now = month_end + 3600   # a new calendar month, a new allowance
        res = said(await command(fake, alice, "away", {"days": 14}))
        assert "You are away until" in res and "Time away left this month: no time" in res

        with pytest.raises(ValueError):   # (Discord itself refuses numbers out of range)
            await fake.slash(alice, "away", {"days": 15})

        # forget-guild forgets the server's absences too
        assert await bot.store.absences_now(int(fake.guild_id), [int(alice)], clock.now)
        await bot.store.forget_guild(int(fake.guild_id))
        assert await bot.store.absences_now(int(fake.guild_id), [int(alice)], clock.now) == {}
        assert await bot.store.absences_since(int(fake.guild_id), int(alice), 0) == []


async def test_private_boards_a_round_dealt_while_a_player_is_away(fake, people, tmp_path, drawn):
    """BYOP1 (every player solves their own board at once): a round dealt while one player is
    away starts its clock when they are back; coming back early moves the round's deadline."""
    from tests.test_bot_byop1 import start

    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=12) as bot:
        await command(fake, bob, "away", {"days": 2})
        back_at = clock.now + 2 * DAY
        table = await start(fake, bot, alice, [bob], deadline="1d")
        assert (await due(bot, table.game_id))["deadline"] == back_at + DAY
        text = thread_text(fake, table.thread)
        assert f"⏳ Deadline {t(back_at + DAY, 'R')}." in text
        assert f"**bob** is away until {t(back_at)}" in text

        clock.advance(DAY / 2)
        await command(fake, bob, "away", {"days": 0})
        await settle(bot)
        deadline = (await due(bot, table.game_id))["deadline"]
        assert deadline == clock.now + DAY
        status = [m for m in fake.messages(table.thread) if "Deadline" in m.content][0]
        assert f"⏳ Deadline {t(deadline, 'R')}." in status.content


async def test_a_game_found_running_while_a_player_it_waits_for_is_away_stops_when_its_timers_fire(
        fake, people, tmp_path, drawn):
    """The bot stopped after recording an absence but before moving the games' timers (or a
    move came at that very moment): the game's timers, when they fire, stop its clock from
    when the player left instead of expiring."""
    alice, bob = people
    clock = FakeClock()
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock, seed=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        before = await due(bot, row.id)
        clock.advance(3600)
        left_at, back_at = clock.now, clock.now + 3 * DAY
        await bot.store.set_absence(int(fake.guild_id), int(alice), left_at, back_at)
    clock.now = before["deadline"] + 1   # the reminder and the deadline are both due at the restart
    async with running_bot(fake, db, clock=clock, seed=2) as bot:
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "active"
        assert reminders(fake, alice) == []
        assert await due(bot, row.id) == {"deadline": before["deadline"] + 3 * DAY,
                                          "reminder": before["reminder"] + 3 * DAY}
        assert f"**alice** is away until {t(back_at)}" in thread_text(fake, thread)
        clock.now = before["deadline"] + 3 * DAY + 1
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "finished"
        assert len(reminders(fake, alice)) == 1


async def test_time_left_is_told_to_the_nearest_hour_and_may_be_taken_as_told(fake, people, tmp_path):
    """(issue 21.13) Back after one second: 14 days left, not "13 days and 23 hours"; and the
    14 days told may be taken."""
    alice, _ = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        await command(fake, alice, "away", {"days": 1})
        clock.advance(1)
        back = said(await command(fake, alice, "away", {"days": 0}))
        assert "Time away left this month: 14 days." in back, back
        assert "Time away left this month: 14 days" in said(await command(fake, alice, "away"))
        res = said(await command(fake, alice, "away", {"days": 14}))
        assert "You are away until" in res and "more time away" not in res
    assert [span(s) for s in (14 * DAY - 1, 13 * DAY + 5 * 3600 + 1799, DAY + 1800, 3600, 1799, 59)] == \
        ["14 days", "13 days and 5 hours", "1 day and 1 hour", "1 hour", "less than an hour", "no time"]
