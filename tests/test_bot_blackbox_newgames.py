"""Black-box findings on the newest games (BYOP1, Galaxies) played through the bot as players
would. Each test is a reproduction of something a player met."""

from __future__ import annotations

import pytest

from bot import ui
from tests.botkit import command, drawn, fake, press, running_bot, said, settle  # noqa: F401
from tests.test_bot_byop1 import GAME, start
from tests.test_bot_fair import live_controls, pinged_by


async def test_byop1_solo_done_typed_in_the_thread_ends_the_game(fake, drawn, tmp_path):
    """A player whose DMs are open finishes the last round with /move in the thread (not with
    the DM's buttons): the game ends; no "something went wrong"."""
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        table = await start(fake, bot, alice, [])
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        await settle(bot)
        since = len(fake.all_payloads)
        res = await command(fake, alice, "move", {"move": "done"}, channel=table.thread)
        assert "went wrong" not in said(res), said(res)
        await settle(bot)
        assert GAME.outcome(await table.state()) is not None
        assert "solved the board" in fake.messages(table.thread)[-1].content
        assert live_controls(fake, table.game_id) == []
        # the DM board ends on the last position, saying how it went (issue 21, item 2)
        dm = fake.dm_channel(alice)
        assert not [r for r in fake.all_payloads[since:] if r.channel_id == dm and r.contains("game is over")]
        assert f"**solved** in {len(plan)} slides!" in fake.dms(alice)[-1].content


async def test_byop1_last_fumble_confirmed_from_the_thread_ends_the_game(fake, drawn, tmp_path):
    """Two players, one round: the fumble that ends the game, confirmed with "Yes, do it" on
    the answer of /move done in the thread, by a player whose DMs are open."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=1")
        res = await command(fake, alice, "move", {"move": "done"}, channel=table.thread)
        question = res.messages[-1]
        yes = await press(fake, alice, question.button("Yes, do it"), message_id=question.id)
        assert "went wrong" not in said(yes), said(yes)
        await settle(bot)
        assert GAME.outcome(await table.state()) is not None
        assert live_controls(fake, table.game_id) == []
        # the final post says the result once
        end = fake.messages(table.thread)[-1].content
        assert "The game is over after 1 round." in end, end
        assert end.count("wins") == 1 and end.count("Points:") == 1, end


def test_byop1_suggestion_of_one_typed_slide_says_one_slide():
    state = GAME.new_game(["1", "2"], seed=5)
    first = ui.adapter_for("byop1").suggestions(GAME, state, "1", "")[0][0]
    (typed, label), *_ = ui.adapter_for("byop1").suggestions(GAME, state, "1", first)
    assert typed == first and label == f"{first} (1 slide)"


def test_galaxies_player_chips_say_1_pt_and_1_card():
    import json

    import engine
    import render
    galaxies = engine.get_game("galaxies")
    state = galaxies.new_game(["a", "b"], seed=1, options={"paths": ["FMSSMF", "MFSFMS"]})
    view = json.loads(json.dumps(galaxies.view(state, None)))
    view["scores"], view["hand_sizes"] = {"a": 1, "b": 2}, {"a": 1, "b": 2}
    svg = render.render_svg(view, {"a": "Ann", "b": "Bob"})
    assert "Ann · 1 pt · 1 card<" in svg and "Bob · 2 pts · 2 cards" in svg


async def test_byop1_solo_autodone_by_a_typed_solution_ends_the_game(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        table = await start(fake, bot, alice, [], options="autodone=on")
        plan = await table.solution(alice)
        res = await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        assert "went wrong" not in said(res), said(res)
        await settle(bot)
        assert GAME.outcome(await table.state()) is not None
        assert "solved the board" in fake.messages(table.thread)[-1].content
        assert live_controls(fake, table.game_id) == []


def test_galaxies_stack_menu_lists_cells_in_numeric_order():
    from bot.ui.galaxies import cell_order
    assert sorted(["10,1", "3,-1", "9,-1", "-1,0", "3,-2"], key=cell_order) == \
        ["-1,0", "3,-2", "3,-1", "9,-1", "10,1"]


async def test_byop1_every_suggestion_is_accepted_as_it_is(fake, drawn, tmp_path):
    """Suggestions after what a player typed so far (nothing, one slide, several, lower case,
    with spaces): each is a move the game accepts now; then one of them is played."""
    import random
    rnd = random.Random(7)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=11) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=1")
        for _ in range(12):
            state = await table.state()
            user = rnd.choice([alice, bob])
            typed = ""
            for _ in range(rnd.randrange(4)):
                values = [v for v, _ in ui.adapter_for("byop1").suggestions(GAME, state, str(user), typed)
                          if v != "done"]
                typed = rnd.choice(values)
            for text in (typed, typed.lower(), " ".join(typed)):
                choices = await fake.autocomplete(user, "move", {"move": text}, focused="move",
                                                  channel=table.thread)
                assert choices, text
                for choice in choices:
                    GAME.apply(state, str(user), choice["value"])
            pick = rnd.choice([c["value"] for c in choices if c["value"] != "done"])
            res = await command(fake, user, "move", {"move": pick}, channel=table.thread)
            assert "Played" in said(res), said(res)


def test_byop1_result_image_lists_every_total_within_its_width():
    """Twelve players with long names: the totals wrap onto as many lines as they need, each
    line fitting the picture (it used to run off the right edge and drop players)."""
    import xml.etree.ElementTree as ET

    import render
    players = [str(i) for i in range(12)]
    names = {p: f"Somebody Long Name {p}" for p in players}
    state = GAME.new_game(players, seed=5, options={"rounds": 1})
    for p in players[:11]:
        state = GAME.apply(state, p, "done")
    root = ET.fromstring(render.render_svg(GAME.view(state, None), names))
    width = float(root.get("width"))
    lines = ["".join(e.itertext()) for e in root.iter() if e.get("class") == "totals"]
    assert " ".join(lines).count("Somebody") == 12
    assert all(14 + 12 * len(line) <= width for line in lines)
    assert float(root.get("height")) >= max(float(e.get("y")) for e in root.iter()
                                            if e.get("class") in ("totals", "next")) + 8


async def test_byop1_a_player_without_dms_is_pinged_when_a_new_round_begins(fake, drawn, tmp_path):
    """No DM tells a player whose DMs are closed that a round began: the round's post pings
    them (and only them: the others have their DM)."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    fake.close_dms(bob)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=2")
        since = len(fake.all_payloads)
        for user in (alice, carol):     # two fumbles: bob is left alone, round 2 begins
            res = await command(fake, user, "move", {"move": "done"}, channel=table.thread)
            question = res.messages[-1]
            await press(fake, user, question.button("Yes, do it"), message_id=question.id)
        await settle(bot)
        assert GAME.view(await table.state(), None)["round"] == 2
        pinged = set().union(*(pinged_by(r) for r in fake.all_payloads[since:]))
        assert pinged == {str(bob)}
        status = fake.messages(table.thread)[-1].content
        assert f"<@{bob}>: I cannot send you DMs" in status


async def test_byop1_first_round_post_does_not_promise_a_dm(fake, drawn, tmp_path):
    """Round 1 is posted before the bot knows whose DMs are closed: what it says stays true."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.close_dms(bob)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=2")
        await settle(bot)
        first = [m.content for m in fake.messages(table.thread) if "comes by DM" in m.content]
        assert first and "if your DMs are closed, press **Open my private controls**" in first[0]
        assert not any("is in your DMs" in m.content for m in fake.messages(table.thread))


async def test_play_options_written_with_commas_and_spaces(fake, drawn, tmp_path):
    """`rounds=2, ranking=slides` and `rounds = 1` are taken as written; a malformed option's
    error shows an example of the game's own options."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=2, ranking=slides")
        state = await table.state()
        assert (state["data"]["rounds"], state["data"]["ranking"]) == (2, "slides")
        res = await command(fake, alice, "play", {"game": "byop1", "options": "rounds"})
        assert "for example rounds=3" in said(res) and "variant" not in said(res), said(res)
        await command(fake, bob, "play", {"game": "byop1", "options": "rounds = 1"})
        (lobby,) = [r for r in await bot.store.games_of_user(int(bob)) if r.status == "lobby"]
        assert lobby.options == {"rounds": 1}
