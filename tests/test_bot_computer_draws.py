"""A person offers a draw to a Galaxies or Global Warming computer through the fake Discord: it
answers by its own judgement and says why in the game's thread."""

from __future__ import annotations

import computer
import engine
from bot import computers
from tests.botkit import FakeClock, command, drawn, fake, running_bot  # noqa: F401
from tests.test_bot_computer import against, running, settle, thread_text


async def test_a_galaxies_computer_declines_a_draw_at_the_start_and_says_why(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    game = engine.get_game("galaxies")
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=5, clock=clock) as bot:
        await command(fake, alice, "play", {"game": "galaxies", "computers": "easy"})
        row = await running(bot, alice)
        cpu = next(p for p in row.player_ids if computers.is_computer(p))
        await command(fake, alice, "draw", {"action": "offer", "game": row.id})
        clock.advance(2)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "active"
        assert game.from_json(row.state)["draw_offer"] is None
        kinds = [(e["kind"], e["actor"]) for e in await bot.store.events(row.id)]
        assert kinds[kinds.index(("offer", str(alice))) + 1] == ("decline", cpu)
        # Nothing is on the table yet and both hold four systems: level, but every card is
        # still to play, so nothing is settled.
        assert ("💬 **Computer (easy)**: No thanks: as I count it we are level, with 6 cards "
                "each still to play.") in thread_text(fake, row)


async def test_a_global_warming_computer_declines_a_draw_offer_saying_why(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    game = engine.get_game("global-warming")
    # (a deal where the strong computer declines: its chances are no worse than fair)
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=8, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice, "global-warming")
        await command(fake, alice, "draw", {"action": "offer", "game": row.id})
        state = game.from_json((await bot.store.get_game(row.id)).state)
        # What it answers: its own judgement on its own view, as the bot asks it.
        player = computer.get_player("global-warming", "strong",
                                     computers.seed_for(state["seed"], cpu))
        accept, reason = player.answer_draw(game.view(state, cpu))
        assert not accept and reason.startswith("No thanks: "), reason
        clock.advance(2)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        kinds = [(e["kind"], e["actor"]) for e in await bot.store.events(row.id)]
        offer = kinds.index(("offer", str(alice)))
        assert kinds[offer + 1] == ("decline", cpu)   # (then it chooses its face, in secret)
        assert row.status == "active"
        assert game.from_json(row.state)["draw_offer"] is None
        assert f"💬 **Computer (strong)**: {reason}" in thread_text(fake, row)
