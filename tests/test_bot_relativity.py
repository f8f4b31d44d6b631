"""The bot end to end with Relativity: the real discord.py client against the fake Discord, the
real SQLite store in tmp_path. The first test draws real boards; the others stub the drawing."""

from __future__ import annotations

import asyncio
import re

import pytest

import engine
from tests.botkit import (FakeClock, command, drawn, fake, open_game, press,  # noqa: F401
                          running_bot, said, settle)

GAME = engine.get_game("relativity")
# Every column one value, row 1 reads a n 3 2 5 4: each pair of swaps on row 1 completes two
# molecules. Night: a1#b1 (alice: n, a), c1#d1 (bob: 2, 3), e1#f1 (alice: 4, 5; Night over).
# Day: bob is Space and passes with a2#a3; alice (Time) takes n and a again: 6 trophies.
PAIRS = "na2345/na2345/na2345/an3254"


@pytest.fixture
def layouts(monkeypatch):
    """Both boards fixed to PAIRS: a test hook into the engine (players cannot set them)."""
    new_game = GAME.new_game

    def dealt(players, seed=0, options=None):
        return new_game(players, seed=seed, options={**(options or {}), "layouts": [PAIRS, PAIRS]})

    monkeypatch.setattr(GAME, "new_game", dealt)


@pytest.fixture
def people(fake):
    return fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")


async def thread_text(fake, thread):
    return "\n".join(m.text for m in fake.messages(thread))


async def pick_swap(fake, user, game_id, first, second):
    """Use the board's "Pick a swap" button, then the coin and partner menus."""
    opened = await fake.click(user, f"pp:mine:{game_id}")
    await opened.done()
    menu = opened.messages[-1]
    coin_select = menu.custom_ids()[0]
    step = await fake.select(user, coin_select, [first], message_id=menu.id)
    await step.done()
    partner_select = next(c for c in fake.message(menu.id).custom_ids() if c.startswith("pp:relp:"))
    done = await fake.select(user, partner_select, [second], message_id=menu.id)
    await done.done()
    return done


async def test_a_whole_game_with_commands_buttons_autocomplete_and_a_restart(fake, people, tmp_path, layouts):
    alice, bob, carol = people
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, seed=11) as bot:
        assert {c["name"] for c in fake.published_commands[None]} >= {
            "play", "move", "board", "games", "resign", "draw", "rules", "help"}
        row, thread = await open_game(fake, bot, alice, bob)
        assert fake.thread(fake.channel(thread).name).parent_id == fake.channel_id
        first = fake.messages(thread)[0]
        assert first.attachments and first.attachment("board.png").startswith(b"\x89PNG")
        assert f"<@{alice}>" in first.content and "Space" in first.content

        # 1. alice types part of a move; autocomplete offers her legal swaps, in either order
        choices = await fake.autocomplete(alice, "move", {"move": "b1 a1"}, focused="move", channel=thread)
        assert [c["value"] for c in choices] == ["a1#b1"]
        assert await fake.autocomplete(bob, "move", {"move": ""}, focused="move", channel=thread) == []
        res = await fake.slash(alice, "move", {"move": "a1#b1"}, channel=thread)
        await res.done()
        assert res.ephemeral and "a1#b1" in res.text
        await settle(bot)
        first, second = fake.messages(thread)
        assert "swapped a1 (" in second.content
        assert first.custom_ids() == [] and first.attachments   # the old post keeps its image only
        # the round's explanation came with the first post; now only who is who
        assert "neighbours" in first.content and "next in the cycle" not in second.content
        assert f"<@{bob}>, your turn. You are Time. You may not reverse a1#b1." in second.content

        # 2. bob with the coin picker
        done = await pick_swap(fake, bob, row.id, "c1", "d1")
        assert "c1#d1" in done.text and done.original.attachments == []   # the menus' board is gone
        await settle(bot)
        board_before_restart = fake.messages(thread)[-1]
        assert board_before_restart.custom_ids() == [f"pp:mine:{row.id}", f"pp:describe:{row.id}"]

    # A new bot process on the same database: the old button still works.
    async with running_bot(fake, db) as bot:
        done = await pick_swap(fake, alice, row.id, "e1", "f1")   # 3. alice ends the Night
        assert "e1#f1" in done.text
        await settle(bot)
        assert "Day begins" in await thread_text(fake, thread)
        day = fake.messages(thread)[-1]
        assert "Day round" in day.content and "neighbours" in day.content   # a new round: said again
        res = await fake.slash(bob, "move", {"move": "A2-a3"}, channel=thread)   # 4. any notation
        await res.done()
        await settle(bot)
        res = await fake.slash(alice, "move", {"move": "a1 b1"}, channel=thread)  # 5. six trophies
        await res.done()
        await settle(bot)
        end = fake.messages(thread)[-1]
        assert "🏁 **alice** wins. Score: alice 6, bob 2." in end.content
        assert "(**alice** wins" not in end.content   # the reason is not said twice
        assert end.attachments and end.custom_ids() == [f"pp:rematch:{row.id}"]   # (only the rematch)
        final = await bot.store.get_game(row.id)
        assert final.status == "finished"
        assert await bot.store.timers_of(row.id) == {}
        events = await bot.store.events(row.id)
        assert [e["kind"] for e in events].count("move") == 5
        replayed = await bot.flow.replay(row.id)
        assert GAME.to_json(replayed) == final.state
        res = await fake.slash(bob, "move", {"move": "a1#b1"}, channel=thread)
        await res.done()
        assert f"Game #{row.id} is over" in res.text and "**alice** wins" in res.text


async def test_non_players_bad_moves_and_turns_are_refused_without_change(fake, people, tmp_path, drawn):
    alice, bob, carol = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        before = await bot.store.get_game(row.id)
        posts = len(fake.messages(thread))
        for user, command in ((carol, {"move": "a1#b1"}), (alice, {"move": "zz9"}),
                              (alice, {"move": "a1#f4#c2"}), (bob, {"move": "a1#a2"})):
            res = await fake.slash(user, "move", command, channel=thread)
            await res.done()
            assert res.ephemeral
        texts = [r.text for r in fake.interactions[-4:]]
        assert "between **alice** and **bob**" in texts[0]
        assert "not a swap" in texts[1] and "not a swap" in texts[2]
        assert "not your turn" in texts[3]
        click = await fake.click(carol, f"pp:mine:{row.id}")
        assert click.ephemeral and "between" in click.text
        for command, options in (("resign", {}), ("draw", {"action": "offer"})):
            res = await fake.slash(carol, command, options, channel=thread)
            await res.done()
            assert "between" in res.text
        await settle(bot)
        after = await bot.store.get_game(row.id)
        assert (after.version, after.state) == (before.version, before.state)
        assert len(fake.messages(thread)) == posts


async def test_two_moves_at_once_exactly_one_applies(fake, people, tmp_path, drawn):
    alice, bob, _ = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        state = bot.flow.state_of(await bot.store.get_game(row.id))
        one, two = [str(a) for a in GAME.legal_actions(state, str(alice))][:2]
        results = await asyncio.gather(
            fake.slash(alice, "move", {"move": one}, channel=thread),
            fake.slash(alice, "move", {"move": two}, channel=thread))
        texts = sorted([(await r.done()).text for r in results])
        applied = [t for t in texts if t.startswith("✅")]
        refused = [t for t in texts if not t.startswith("✅")]
        assert len(applied) == 1 and len(refused) == 1
        assert "board changed" in refused[0] or "not your turn" in refused[0]
        after = await bot.store.get_game(row.id)
        assert after.version == row.version + 1
        assert [e["kind"] for e in await bot.store.events(row.id)].count("move") == 1


async def test_the_coin_picker_is_only_for_the_player_to_act(fake, people, tmp_path, drawn):
    alice, bob, _ = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        res = await fake.click(bob, f"pp:mine:{row.id}")
        assert res.ephemeral and "not your turn" in res.text
        opened = await fake.click(alice, f"pp:mine:{row.id}")
        await opened.done()
        menu = opened.messages[-1]
        assert menu.ephemeral_to == str(alice)
        assert len(menu.select_options()) == 24 and menu.attachments
        assert all(re.fullmatch(r"[a-f][1-4]: (null|ace|[2-5])", o["label"]) for o in menu.select_options())
        # the board moves on (two /move): alice's old menu now refuses, and nothing changes
        for player in (alice, bob):
            state = bot.flow.state_of(await bot.store.get_game(row.id))
            move = str(GAME.legal_actions(state, str(player))[0])
            await (await fake.slash(player, "move", {"move": move}, channel=thread)).done()
        before = await bot.store.get_game(row.id)
        stale = await fake.select(alice, menu.custom_ids()[0], ["a1"], message_id=menu.id)
        assert stale.ephemeral and "out of date" in stale.text
        assert (await bot.store.get_game(row.id)).version == before.version


async def test_lobby_join_leave_cancel_and_invitations(fake, people, tmp_path, drawn):
    alice, bob, carol = people
    async with running_bot(fake, tmp_path / "bot.sqlite3") as bot:
        res = await fake.slash(alice, "play", {"game": "relativity", "opponent": bob, "deadline": "3d"})
        lobby = res.original
        assert f"<@{bob}>" in lobby.content and "3 days for each move" in lobby.content
        # every lobby has the four buttons; two seats start by themselves, so Start explains that
        assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Start", "Cancel"]
        assert "starts by itself" in said(await press(fake, alice, lobby.button("Start"),
                                                      message_id=lobby.id))
        refused = await press(fake, carol, lobby.button("Join"), message_id=lobby.id)
        assert "kept for the invited player" in said(refused)
        refused = await press(fake, carol, lobby.button("Cancel"), message_id=lobby.id)
        assert "Only the host" in said(refused)
        await press(fake, alice, lobby.button("Cancel"), message_id=lobby.id)
        assert "closed" in fake.message(lobby.id).content and fake.message(lobby.id).custom_ids() == []

        res = await fake.slash(alice, "play", {"game": "global-warming"})
        lobby = res.original
        assert "at least 2" in said(await press(fake, alice, lobby.button("Start"), message_id=lobby.id))
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        assert "Only the host" in said(await press(fake, bob, lobby.button("Start"), message_id=lobby.id))
        await press(fake, bob, lobby.button("Leave"), message_id=lobby.id)
        assert "not seated" in said(await press(fake, bob, lobby.button("Leave"), message_id=lobby.id))
        assert "Cancel" in said(await press(fake, alice, lobby.button("Leave"), message_id=lobby.id))
        fake.set_permissions(carol, manage_messages=True)
        await press(fake, carol, lobby.button("Cancel"), message_id=lobby.id)
        assert (await bot.store.games_of_user(int(alice))) == []

        res = await fake.slash(alice, "play", {"game": "relativity", "options": "colour=red"})
        assert res.ephemeral and "options" in res.text


async def test_deadline_reminder_expiry_and_closed_dms(fake, people, tmp_path, drawn):
    alice, bob, _ = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob, deadline="1d")
        assert "Deadline <t:" in fake.messages(thread)[0].content
        timers = await bot.store.timers_of(row.id)
        assert timers["deadline"].due_at == clock.now + 86400
        assert timers["reminder"].due_at == pytest.approx(clock.now + 0.8 * 86400)

        clock.advance(0.8 * 86400 - 60)
        await settle(bot)
        assert fake.dms(alice) == []
        clock.advance(61)
        await settle(bot)
        (reminder,) = fake.dms(alice)
        assert "Reminder" in reminder.content and "Relativity #" in reminder.content
        assert fake.dms(bob) == []

        clock.advance(0.2 * 86400)
        await settle(bot)
        text = await thread_text(fake, thread)
        assert "⏰ The deadline passed: **alice** ran out of time" in text and "**bob** wins" in text
        assert text.count("alice** ran out of time") == 1 and "did not act in time" not in text
        assert (await bot.store.get_game(row.id)).status == "finished"

        # the next game: alice's DMs are closed, so the reminder goes to the thread
        fake.close_dms(alice)
        row2, thread2 = await open_game(fake, bot, alice, bob, deadline="1d")
        clock.advance(0.8 * 86400 + 1)
        await settle(bot)
        fallback = fake.messages(thread2)[-1]
        assert f"<@{alice}>" in fallback.content and "reminder" in fallback.content
        assert len(fake.dms(alice)) == 1   # only the first game's reminder


async def test_reminders_without_deadline_repeat_daily_and_timers_survive_a_restart(fake, people, tmp_path, drawn):
    alice, bob, _ = people
    clock = FakeClock()
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, clock=clock, seed=2, reminder_hours=2) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        clock.advance(2 * 3600)
        await settle(bot)
        assert len(fake.dms(alice)) == 1
        clock.advance(23 * 3600)
        await settle(bot)
        assert len(fake.dms(alice)) == 1
        clock.advance(3600)
        await settle(bot)
        assert len(fake.dms(alice)) == 2
        row2, thread2 = await open_game(fake, bot, bob, alice, deadline="7d")
    clock.advance(8 * 86400)   # both games overdue while the bot is down
    async with running_bot(fake, db, clock=clock, reminder_hours=2):
        await fake.wait_for(lambda: "deadline passed" in "\n".join(m.text for m in fake.messages(thread2)))
        await fake.wait_for(lambda: len(fake.dms(alice)) >= 3)


async def test_commands_are_published_only_when_changed(fake, people, tmp_path):
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db):
        assert fake.command_publishes == 1
    async with running_bot(fake, db) as bot:
        assert fake.command_publishes == 1
        await bot.store.set_meta("commands_hash", "an older set of commands")
    async with running_bot(fake, db) as bot:
        assert fake.command_publishes == 2
        assert await bot.sync_commands(int(fake.guild_id)) == len(fake.published_commands[None])
        assert {c["name"] for c in fake.published_commands[fake.guild_id]} >= {"play", "move"}


async def test_resign_draw_abort_board_games_rules_help(fake, people, tmp_path, drawn):
    alice, bob, carol = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=4) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        res = await (await fake.slash(alice, "games", {})).done()
        assert f"#{row.id}" in res.text and "waits on you" in res.text and f"<#{thread}>" in res.text
        res = await (await fake.slash(bob, "board", {}, channel=thread)).done()
        assert res.ephemeral and res.files and "Waiting for **alice**" in res.text
        posts = len(fake.messages(thread))
        res = await (await fake.slash(alice, "draw", {"action": "offer"}, channel=thread)).done()
        assert "offered" in res.text
        await settle(bot)
        (offer,) = fake.messages(thread)[posts:]   # a short post: no board, no new turn
        assert not offer.attachments and f"<@{bob}>" in offer.content and f"<@{alice}>" not in offer.content
        assert offer.custom_ids() == [f"pp:draw:{row.id}:accept", f"pp:draw:{row.id}:decline"]
        for user, refusal in ((alice, "agreed to this draw already"), (carol, "between")):
            assert refusal in said(await press(fake, user, offer.custom_ids()[0], message_id=offer.id))
        assert "declined" in said(await press(fake, bob, offer.custom_ids()[1], message_id=offer.id))
        await settle(bot)
        (declined,) = fake.messages(thread)[posts + 1:]
        assert "declined" in declined.content and not declined.attachments
        assert fake.message(offer.id).custom_ids() == []   # the answered offer's buttons are gone
        await command(fake, bob, "draw", {"action": "offer"}, channel=thread)
        await settle(bot)
        offer = fake.messages(thread)[-1]
        assert "accepted" in said(await press(fake, alice, offer.custom_ids()[0], message_id=offer.id))
        await settle(bot)
        assert "🏁 The game ends in a draw." in fake.messages(thread)[-1].content
        assert (await bot.store.get_game(row.id)).status == "finished"

        row, thread = await open_game(fake, bot, alice, bob)
        res = await (await fake.slash(bob, "resign", {}, channel=thread)).done()
        assert "resigned" in res.text
        await settle(bot)
        assert "**alice** wins" in fake.messages(thread)[-1].content

        row, thread = await open_game(fake, bot, alice, bob)
        res = await (await fake.slash(bob, "abort", {}, channel=thread)).done()
        assert "Only the host" in res.text
        res = await (await fake.slash(alice, "abort", {}, channel=thread)).done()
        await settle(bot)
        assert "aborted" in fake.messages(thread)[-1].content
        assert (await bot.store.get_game(row.id)).status == "cancelled"

        res = await (await fake.slash(carol, "rules", {"game": "relativity"})).done()
        assert res.ephemeral and "Space" in res.text and "reverse" in res.text
        res = await (await fake.slash(carol, "help", {})).done()
        assert res.ephemeral and "/play" in res.text
        res = await (await fake.slash(carol, "games", {})).done()
        assert "no open games" in res.text


async def test_two_start_presses_open_one_thread(fake, people, tmp_path, drawn):
    alice, bob, carol = people
    async with running_bot(fake, tmp_path / "bot.sqlite3"):
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        for user in (bob, carol):
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        start = lobby.button("Start")
        results = await asyncio.gather(*(fake.click(alice, start, message_id=lobby.id) for _ in range(2)))
        for res in results:
            await res.done()
        assert len(fake.threads) == 1
        assert "already started" in "\n".join(said(r) for r in results)


async def test_a_deleted_lobby_message_still_gets_a_thread(fake, people, tmp_path, drawn):
    alice, bob, _ = people
    async with running_bot(fake, tmp_path / "bot.sqlite3") as bot:
        res = await command(fake, alice, "play", {"game": "relativity"})
        lobby = res.original
        await bot.http.delete_message(fake.channel_id, lobby.id)
        row = (await bot.store.games_of_user(int(alice)))[0]
        await bot.flow.join(row.id, int(bob), "bob")
        row = await bot.flow.start(await bot.store.get_game(row.id), bot.controller.create_thread)
        await settle(bot)
        assert row.thread_id and fake.messages(row.thread_id)[0].attachments


async def test_in_dms_a_game_number_finds_only_the_callers_own_games(fake, people, tmp_path, drawn):
    alice, bob, carol = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=4) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        for user, sees in ((carol, False), (bob, True)):
            dm = fake.dm_channel(user, create=True)
            board = await command(fake, user, "board", {"game": row.id}, channel=dm)
            assert (f"Relativity #{row.id}" in said(board)) is sees
            assert bool(board.files) is sees
            if not sees:
                assert said(board) == f"There is no game #{row.id}."   # not even that it exists
                move = await command(fake, user, "move", {"move": "a1#b1", "game": row.id}, channel=dm)
                assert said(move) == f"There is no game #{row.id}."
        assert (await bot.store.get_game(row.id)).version == row.version
