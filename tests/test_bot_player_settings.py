"""/settings (issue 23 items 5-6): a player's time zone, quiet hours, daily digest and palette,
end to end: the real discord.py client against the fake Discord, the real database, a fake
clock, and restarts of the bot on the same database."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot import rendering
import render
from bot.commands.settings import PALETTES
from bot.flow.clock import LATER
from bot.storage import SCHEMA_VERSION
from tests.botkit import (START, FakeClock, command, drawn, fake, open_game,  # noqa: F401
                          running_bot, said, settle)

DAY = 86400.0
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture
def people(fake):
    return fake.add_user("alice"), fake.add_user("bob")


def reminders(fake, user) -> list:
    return [m for m in fake.dms(user) if "Reminder" in m.content]


def digests(fake, user) -> list:
    return [m for m in fake.dms(user) if "daily digest" in m.content]


def at(zone, day: int, hour: int) -> float:
    """`hour`:00 on November `day` 2023 in `zone` (the fake clock starts on 14 November)."""
    return dt.datetime(2023, 11, day, hour, tzinfo=zone).timestamp()


async def test_settings_are_shown_changed_validated_and_deleted(fake, people, tmp_path):
    alice, _ = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        shown = said(await command(fake, alice, "settings"))
        assert "Time zone: UTC" in shown and "Quiet hours: none" in shown
        assert "a reminder for each game" in shown and "standard" in shown
        assert await bot.store.player_settings(int(alice)) is None   # looking stores nothing

        for options, answer in [
                ({"time_zone": "Mars/Olympus_Mons"}, "I do not know the time zone"),
                ({"quiet": "25-7"}, "two whole hours from 0 to 23"),
                ({"quiet": "22"}, "two whole hours from 0 to 23"),
                ({"quiet": "7-7"}, "must end at another hour"),
                ({"reminders": "daily digest", "digest_at": "9:30"}, "whole hour from 0 to 23"),
                ({"quiet": "22-7", "reminders": "daily digest", "digest_at": "6"},
                 "would fall in your quiet hours"),
                ({"time_zone": "Europe/Berlin", "quiet": "8-8"}, "must end at another hour"),
                ({"reset": True, "quiet": "22-7"}, "use it alone")]:
            res = await command(fake, alice, "settings", options)
            assert res.messages and all(m.ephemeral for m in res.messages), options
            assert answer in said(res) and "Nothing was changed" in said(res), (options, said(res))
            assert await bot.store.player_settings(int(alice)) is None, options

        res = await command(fake, alice, "settings", {"time_zone": "europe/berlin", "quiet": "22-7",
                                                      "reminders": "daily digest", "digest_at": "08:00",
                                                      "palette": "colour-safe"})
        assert all(m.ephemeral for m in res.messages)
        assert "Saved" in said(res) and "Europe/Berlin" in said(res) and "22:00 to 07:00" in said(res)
        assert "daily digest by DM at 08:00" in said(res) and "colour-safe" in said(res)
        mine = await bot.store.player_settings(int(alice))
        assert (mine.time_zone, mine.quiet, mine.digest_hour, mine.palette) == \
            ("Europe/Berlin", (22, 7), 8, "colour-safe")
        # a bad option with good ones changes none of them
        res = await command(fake, alice, "settings", {"palette": "standard", "time_zone": "Nowhere"})
        assert "Nothing was changed" in said(res)
        assert await bot.store.player_settings(int(alice)) == mine
        # one option changes only itself
        await command(fake, alice, "settings", {"reminders": "each game"})
        assert await bot.store.player_settings(int(alice)) == \
            type(mine)(int(alice), "Europe/Berlin", 22, 7, None, "colour-safe")

        # the settings are the person's, not a server's: forget-guild leaves them ...
        await bot.store.forget_guild(int(fake.guild_id))
        assert await bot.store.player_settings(int(alice)) is not None
        # ... and reset deletes them
        res = await command(fake, alice, "settings", {"reset": True})
        assert "deleted" in said(res) and "Time zone: UTC" in said(res)
        assert await bot.store.player_settings(int(alice)) is None

        choices = await fake.autocomplete(alice, "settings", {"time_zone": "berl"}, focused="time_zone")
        assert [c["value"] for c in choices][:1] == ["Europe/Berlin"]


def test_the_palettes_offered_are_the_renderers():
    assert set(PALETTES) == set(render.PALETTES)
    assert SCHEMA_VERSION >= 9


async def test_quiet_hours_postpone_each_players_reminder_across_a_restart_and_the_deadline_stays(
        fake, people, tmp_path, drawn):
    alice, bob = people
    clock = FakeClock()
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock, seed=5) as bot:
        # alice is in Berlin, quiet from 18:00 to 23:00 there; bob has no settings
        res = await command(fake, alice, "settings", {"time_zone": "Europe/Berlin", "quiet": "18-23"})
        assert "Saved" in said(res)
        # Galaxies: each turn's card is chosen by both at once, so the turn waits on both
        row, thread = await open_game(fake, bot, alice, bob, game="galaxies", deadline="1d")
        timers = await bot.store.timers_of(row.id)
        deadline = timers["deadline"].due_at
        reminder = timers["reminder"].due_at
        assert deadline == START + DAY
        # the reminder falls due at 18:25 in Berlin: in alice's quiet hours
        assert at(BERLIN, 15, 18) < reminder < at(BERLIN, 15, 23)
        clock.now = reminder + 1
        await settle(bot)
        assert len(reminders(fake, bob)) == 1      # bob is reminded now
        assert reminders(fake, alice) == []        # alice when her quiet hours end
        timers = await bot.store.timers_of(row.id)
        assert timers[LATER + str(alice)].due_at == at(BERLIN, 15, 23)
        assert timers["deadline"].due_at == deadline and "reminder" not in timers

    clock.now = at(BERLIN, 15, 23) - 60   # the bot restarts during her quiet hours
    async with running_bot(fake, db, clock=clock) as bot:
        await settle(bot)
        assert reminders(fake, alice) == []
        clock.now = at(BERLIN, 15, 23)
        await settle(bot)
        (late,) = reminders(fake, alice)
        assert "Galaxies" in late.content and "<t:%d:R>" % int(deadline) in late.content
        assert len(reminders(fake, bob)) == 1
        assert LATER + str(alice) not in await bot.store.timers_of(row.id)
        # the deadline did not move: it passes at its time (23:13 in Berlin)
        clock.now = deadline - 1
        await settle(bot)
        assert "plays no card" not in "\n".join(m.content for m in fake.messages(thread))
        clock.now = deadline
        await settle(bot)
        assert "plays no card" in "\n".join(m.content for m in fake.messages(thread))
        assert len(reminders(fake, alice)) == 1 and len(reminders(fake, bob)) == 1


async def test_a_digest_lists_every_waiting_game_instead_of_reminders_across_a_restart(
        fake, people, tmp_path, drawn):
    alice, bob = people
    carol = fake.add_user("carol")
    clock = FakeClock()   # 22:13 UTC on 14 November 2023
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock, seed=2, reminder_hours=2) as bot:
        res = await command(fake, alice, "settings", {"reminders": "daily digest", "digest_at": "9"})
        assert "Saved" in said(res) and "09:00" in said(res)
        first, thread1 = await open_game(fake, bot, alice, bob)                  # alice moves first
        second, thread2 = await open_game(fake, bot, alice, carol, deadline="3d")  # alice moves first
        third, _ = await open_game(fake, bot, bob, alice)                        # waits on bob
        clock.advance(2 * 3600 + 1)   # the reminders of games without a deadline fall due
        await settle(bot)
        assert reminders(fake, alice) == [] and digests(fake, alice) == []   # digest players: none
        assert len(reminders(fake, bob)) == 1
    clock.now = at(dt.timezone.utc, 15, 9) + 3600   # the bot was down at the digest's time
    async with running_bot(fake, db, clock=clock, seed=2, reminder_hours=2) as bot:
        await fake.wait_for(lambda: digests(fake, alice))
        await settle(bot)
        (digest,) = digests(fake, alice)
        text = digest.content
        assert "2 games waiting for you" in text
        guild = fake.guild_id
        assert f"https://discord.com/channels/{guild}/{thread1}" in text
        assert f"https://discord.com/channels/{guild}/{thread2}" in text
        assert f"Relativity #{third.id}" not in text and str(third.thread_id) not in text
        deadline = (await bot.store.timers_of(second.id))["deadline"].due_at
        assert f"deadline <t:{int(deadline)}:R>" in text
        assert reminders(fake, alice) == []
        clock.advance(3600)
        await settle(bot)
        assert len(digests(fake, alice)) == 1   # once a day
        # the games move on: nothing waits on alice, so no digest the next day
        for game_id in (first.id, second.id):
            await bot.store.commit(game_id, (await bot.store.get_game(game_id)).version, now=clock.now,
                                   changes={"status": "finished"})
        clock.now = at(dt.timezone.utc, 16, 9)
        await settle(bot)
        assert len(digests(fake, alice)) == 1
        assert (await bot.store.due_digests(clock.now + DAY))[0][1] == at(dt.timezone.utc, 17, 9)


async def test_a_digest_refused_by_closed_dms_is_turned_off_and_the_games_remind_in_their_threads(
        fake, people, tmp_path, drawn):
    """Alice chose a digest, then closed her DMs: each game leaves its reminders to the digest,
    so a digest refused in silence left her never reminded. It is turned off instead, /settings
    says why, and her game reminds her in its thread."""
    alice, bob = people
    clock = FakeClock()   # 22:13 UTC on 14 November 2023
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=2, reminder_hours=2) as bot:
        await command(fake, alice, "settings", {"reminders": "daily digest", "digest_at": "9"})
        fake.close_dms(alice)
        row, thread = await open_game(fake, bot, alice, bob)   # alice moves first
        clock.now = at(dt.timezone.utc, 15, 9)   # her digest's time
        await settle(bot)
        assert digests(fake, alice) == []
        mine = await bot.store.player_settings(int(alice))
        assert not mine.digest and mine.digest_refused_at == clock.now
        assert await bot.store.due_digests(clock.now + 2 * DAY) == []
        shown = said(await command(fake, alice, "settings"))
        assert "Your daily digest was turned off" in shown and "DMs are closed" in shown
        clock.now = at(dt.timezone.utc, 16, 10)   # the game's next reminder falls due (daily)
        await settle(bot)
        in_thread = [m for m in fake.messages(thread) if "reminder" in m.content.lower()]
        assert in_thread and f"<@{alice}>" in in_thread[-1].content
        # Choosing the digest again forgets the refusal.
        res = await command(fake, alice, "settings", {"reminders": "daily digest"})
        assert "turned off" not in said(res)
        assert (await bot.store.player_settings(int(alice))).digest_refused_at is None


async def test_private_boards_are_drawn_in_the_players_palette_and_the_public_ones_standard(
        fake, people, tmp_path, monkeypatch):
    alice, bob = people
    boards: list[dict] = []

    def record(board):
        boards.append(board)
        return b"\x89PNG" + str(len(boards)).encode()

    monkeypatch.setattr(rendering, "draw_board", record)
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=FakeClock(), seed=5) as bot:
        await command(fake, alice, "settings", {"palette": "colour-safe"})
        row, thread = await open_game(fake, bot, alice, bob, game="galaxies")
        by_viewer = {board["view"]["viewer"]: board.get("palette", "standard") for board in boards}
        # alice's DM (her hand) in her palette; the thread's board and bob's DM in the standard
        assert by_viewer == {str(alice): "colour-safe", str(bob): "standard", None: "standard"}
        own = next(b for b in boards if b["view"]["viewer"] == str(alice))
        assert render.render_svg(own["view"], own["names"], "colour-safe") != \
            render.render_svg(own["view"], own["names"], "standard")
    boards.clear()
    async with running_bot(fake, db, clock=FakeClock(), seed=5):   # the choice survives a restart
        await command(fake, alice, "board", {"game": row.id})
        assert {b["view"]["viewer"]: b.get("palette", "standard") for b in boards} == \
            {None: "standard", str(alice): "colour-safe"}
        boards.clear()
        await command(fake, alice, "settings", {"reset": True})
        await command(fake, alice, "board", {"game": row.id})
        assert {b.get("palette", "standard") for b in boards} == {"standard"}


async def test_the_store_keeps_settings_and_sends_each_digest_once(tmp_path):
    from bot.storage import Notice, Store
    from bot.storage.player_settings import PlayerSettings
    from tests.pg import database_for

    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        big = 2 ** 62   # a Discord id: 64 bits on both engines
        mine = PlayerSettings(big, "Asia/Tokyo", 23, 6, 7, "colour-safe")
        await store.save_player_settings(mine, START + 100, START)
        assert await store.player_settings(big) == mine
        assert await store.players_settings([big, 5]) == {big: mine}
        assert await store.palettes() == {big: "colour-safe"}
        assert await store.next_due() == START + 100   # the digest wakes the background loop
        assert await store.due_digests(START + 99) == []
        assert await store.due_digests(START + 100) == [(mine, START + 100)]
        hello = Notice("user", big, {"content": "digest"})
        assert await store.digest_sent(big, START + 100, START + DAY, [hello], START + 100)
        # a second run that read the same due time sends nothing
        assert not await store.digest_sent(big, START + 100, START + DAY, [hello], START + 100)
        assert [r["payload"]["content"] for r in await store.outbox_rows()] == ["digest"]
        assert await store.delete_player_settings(big)
        assert await store.player_settings(big) is None and await store.palettes() == {}
        assert not await store.delete_player_settings(big)
    finally:
        await store.close()


def test_quiet_hours_end_by_the_players_clock_across_a_change_of_summer_time():
    from bot import hours
    from bot.storage.player_settings import PlayerSettings

    mine = PlayerSettings(1, "Europe/Berlin", 22, 7)
    night = dt.datetime(2023, 10, 28, 23, tzinfo=BERLIN).timestamp()   # summer time ends at 3:00
    assert hours.quiet_ends(mine, night) == dt.datetime(2023, 10, 29, 7, tzinfo=BERLIN).timestamp()
    assert hours.quiet_ends(mine, night) - night == 9 * 3600            # an hour longer that night
    assert hours.quiet_ends(mine, dt.datetime(2023, 10, 29, 12, tzinfo=BERLIN).timestamp()) is None
    assert hours.quiet_ends(PlayerSettings(1, "UTC", 9, 17), at(dt.timezone.utc, 15, 9)) == \
        at(dt.timezone.utc, 15, 17)
    assert hours.quiet_ends(PlayerSettings(1), night) is None and hours.quiet_ends(None, night) is None


def test_a_long_digest_keeps_its_head_and_first_games_and_says_how_many_more():
    from bot.flow.clock import digest_text

    lines = [f"- **Relativity #{i}** with bob: https://discord.com/channels/{10**17}/{10**17 + i} "
             f"(deadline <t:1700000000:R>)" for i in range(40)]
    text = digest_text("⏰ Your daily digest: 40 games waiting for you.", lines)
    assert len(text) <= 2000
    shown = text.splitlines()
    assert shown[0].startswith("⏰ Your daily digest") and shown[1] == lines[0]
    assert shown[-1] == f"…and {40 - (len(shown) - 2)} more games waiting for you."
    assert digest_text("head", lines[:3]) == "\n".join(["head", *lines[:3]])
