"""A computer resigns a game it can no longer win, through the fake Discord: it says so in the
game's thread and the person wins at once, instead of the game being held up for ever."""

from __future__ import annotations

import engine
from tests.botkit import FakeClock, drawn, fake, running_bot  # noqa: F401
from tests.test_bot_computer import against, settle, thread_text

RELATIVITY = engine.get_game("relativity")


async def test_a_computer_that_can_no_longer_win_resigns_saying_so(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice)
        state = engine.thaw(RELATIVITY.from_json(row.state))
        assert state["players"] == [str(alice), cpu]    # (alice is Night's Space)
        # By Day, one Sun trophy left: alice 5, the computer 4. Its trophy would make it five
        # each, which goes to Night's Space; hers would make her six.
        data = state["data"]
        data["round"], data["coins"], data["turn"] = "day", data["boards"][1], "space"
        data["trophies"]["night"].update({"n": str(alice), "a": str(alice), "2": str(alice),
                                          "3": cpu, "4": cpu})
        data["trophies"]["day"].update({"n": str(alice), "a": str(alice), "2": cpu, "3": cpu})
        state = engine.freeze(state)
        assert RELATIVITY.to_act(state) == (cpu,)
        timers = await bot.flow.with_computer_timers(row, RELATIVITY, state, {}, clock())
        await bot.store.commit(row.id, row.version, now=clock(),
                               changes={"state": RELATIVITY.to_json(state)}, events=[], timers=timers)
        clock.advance(2)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "finished"
        assert RELATIVITY.outcome(RELATIVITY.from_json(row.state)).winners == (str(alice),)
        assert [(e["kind"], e["actor"]) for e in await bot.store.events(row.id)][-1] == ("resign", cpu)
        assert ("💬 **Computer (strong)**: I resign: whoever takes the trophies still to come, I "
                "cannot finish ahead. Well played!") in thread_text(fake, row)
