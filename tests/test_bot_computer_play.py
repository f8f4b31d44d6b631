"""Playing against the computers from the outside, as people do (through the fake Discord):
each test is something a person saw go wrong, and stays right."""

from __future__ import annotations

import engine
from bot import computers
from bot.flow import COMPUTER_TIMER
from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said  # noqa: F401
from tests.test_bot_computer import running, settle, thread_text
from tests.test_bot_review import two_player_warming

GLOBAL_WARMING = engine.get_game("global-warming")


async def test_a_computer_is_not_left_hanging_when_a_move_lands_as_it_looks(fake, drawn, tmp_path):
    """A Global Warming game stopped for good, waiting for a computer that never moved: its
    timer, left over from its secret choice, fired and it saw nothing to do; the person's
    choice landed just then (the faces shown, the computer to act first) and the computer
    dropped its timer on that new turn."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=4242, clock=clock) as bot:
        lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
        await press(fake, alice, lobby.button("Add computer (easy)"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        row = await running(bot, alice)
        cpu = next(p for p in row.player_ids if computers.is_computer(p))
        kind = COMPUTER_TIMER + cpu
        clock.advance(2)
        await bot.run_due()              # the computer makes its secret choice first
        await bot.flow.computers_idle()
        state = GLOBAL_WARMING.from_json((await bot.store.get_game(row.id)).state)
        assert GLOBAL_WARMING.awaited(state) == (str(alice),)
        assert kind in await bot.store.timers_of(row.id)   # (its timer fires once more, to go)

        # Alice's choice (the ace: whatever the computer chose, it acts first, or both are
        # cancelled and it chooses again) lands just as the computer's timer fires again.
        set_timer, moved = bot.store.set_timer, []

        async def alice_chooses_meanwhile(game_id, version, timer, due, *args, **kwargs):
            if timer == kind and due is None and not moved:
                moved.append(await command(fake, alice, "move", {"move": "a", "game": row.id}))
            return await set_timer(game_id, version, timer, due, *args, **kwargs)

        bot.store.set_timer = alice_chooses_meanwhile
        await bot.run_due()
        await bot.flow.computers_idle()
        assert moved and "🔒" in said(moved[0])
        clock.advance(2)
        await settle(bot)
        # The computer went on to play its part of the turn (it did not wait for ever).
        events = await bot.store.events(row.id)
        chose = max(i for i, e in enumerate(events) if e["actor"] == str(alice))
        assert [e for e in events[chose + 1:] if e["actor"] == cpu]
        state = GLOBAL_WARMING.from_json((await bot.store.get_game(row.id)).state)
        assert cpu not in GLOBAL_WARMING.awaited(state) or kind in await bot.store.timers_of(row.id)


async def test_a_global_warming_draw_does_not_say_everyone_went_out(fake, drawn, tmp_path):
    """Alice offered a draw on the first turn and it was accepted: the result said "Out, in
    this order: alice and Computer (easy)", though both pawns stood on the island. (Between
    two people: a computer no longer accepts a draw in an even game.)"""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=4242, clock=clock) as bot:
        game_id, _ = await two_player_warming(fake, bot, alice, bob)
        await command(fake, alice, "draw", {"action": "offer", "game": game_id})
        await command(fake, bob, "draw", {"action": "accept", "game": game_id})
        await settle(bot)
        row = await bot.store.get_game(game_id)
        assert GLOBAL_WARMING.outcome(GLOBAL_WARMING.from_json(row.state)).draw
        end = fake.messages(row.thread_id)[-1].content
        assert "🏁 The game ends in a draw." in end
        assert "Out" not in end


async def test_a_draw_offer_to_a_computer_asks_nobody_to_press_anything(fake, drawn, tmp_path):
    """Alice offered a draw to the computer: the post read "**alice** offers a draw." then
    ": do you accept the draw?" (addressed to nobody) with Accept and Decline buttons that
    only the computer could have used."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        await command(fake, alice, "play", {"game": "relativity", "computers": "strong"})
        row = await running(bot, alice)
        await command(fake, alice, "draw", {"action": "offer", "game": row.id})
        await bot.run_due()   # (delivered; the computer's pause has not passed)
        offer = fake.messages(row.thread_id)[-1]
        assert offer.content == "**alice** offers a draw.\nWaiting for **Computer (strong)** to answer."
        assert offer.buttons() == []
        clock.advance(2)
        await settle(bot)
        assert "💬 **Computer (strong)**: No thanks" in thread_text(fake, row)


async def test_the_last_person_leaving_reads_as_sentences(fake, drawn, tmp_path):
    """Alice resigned from BYOP1 against three computers: the thread said "🛑 **alice**
    resigned No person is left in the game, …", one sentence run into the next."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        await command(fake, alice, "play", {"game": "byop1", "computers": "strong"})
        row = await running(bot, alice)
        assert len(row.seats) == 4
        clock.advance(2)
        await settle(bot)
        await command(fake, alice, "resign", {"game": row.id})
        clock.advance(60)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "cancelled"
        assert fake.messages(row.thread_id)[-1].content == \
            "🛑 **alice** resigned. No person is left in the game, so it ends here, without a result."


async def test_a_computers_turn_shows_no_deadline(fake, drawn, tmp_path):
    """With a day per move, the post of each of the computer's turns read "**Computer (easy)**
    is thinking…" and "⏳ Deadline in a day", though a computer is never timed out (it
    moves in a moment); the person's turns show their deadline."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    game = engine.get_game("relativity")
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        await command(fake, alice, "play", {"game": "relativity", "computers": "easy", "deadline": "1d"})
        row = await running(bot, alice)
        await bot.run_due()
        assert "⏳ Deadline" in fake.messages(row.thread_id)[-1].content   # alice's turn
        state = game.from_json(row.state)
        await command(fake, alice, "move", {"move": str(game.legal_actions(state, str(alice))[0]),
                                            "game": row.id})
        await bot.run_due()
        thinking = fake.messages(row.thread_id)[-1].content
        assert "**Computer (easy)** is thinking…" in thinking and "⏳" not in thinking
        clock.advance(2)
        await settle(bot)
        after = fake.messages(row.thread_id)[-1].content
        assert f"<@{alice}>, your turn." in after and "⏳ Deadline" in after
