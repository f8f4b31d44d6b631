"""Global Warming through the bot: secret die faces by DM (and the ephemeral fallback for closed
DMs), the count of who has chosen, one reveal message, the act phase with buttons, menus and
/move, a restart between commits, and a leak test over everything the fake Discord received.
Boards are not drawn here (see tests.botkit.drawn): what each image shows is its view."""

from __future__ import annotations

import json
import re

import engine
from engine.global_warming import tile_name
from tests.test_bot_fair import pinged_by
from tests.botkit import (audience, FakeClock, choose, command, drawn, fake, press,  # noqa: F401
                          running_bot, said, settle)

GAME = engine.get_game("global-warming")
FACES = ("n", "a", "2", "3", "4", "5")


class Table:
    """The four players and helpers to read the game as the test (which may see everything)."""

    def __init__(self, fake, bot, users):
        self.fake, self.bot = fake, bot
        self.users = users
        self.game_id = None
        self.thread = None

    async def state(self):
        row = await self.bot.store.get_game(self.game_id)
        return GAME.from_json(row.state)



FACE_WORDS = re.compile(r"\b(null|blank|ace|[1-5])\b", re.IGNORECASE)


def check_quiet_phase(table: Table, records, said_before: str = "") -> None:
    """Everything public since the commit phase began names no die face at all (so none of
    the faces chosen so far), once mentions and the "2 of 4 chosen" count are taken out. The
    lines of `said_before` (the thread's text when the phase began) are left out: an edited
    turn post repeats them."""
    known = set(said_before.splitlines())
    for record in records:
        if audience(table.fake, record) is not None:
            continue
        text = (record.body or {}).get("content") or (record.body or {}).get("data", {}).get("content") or ""
        text = "\n".join(line for line in text.splitlines() if line not in known)
        text = re.sub(r"<[@#]!?\d+>|#\d+|\d+ of \d+ chosen", "", text)
        assert not FACE_WORDS.search(text), text


def check_no_leak(table: Table, records, state, rendered, moved_tiles=()) -> int:
    """Nothing received by anyone so far shows a player's chosen face to anyone else (no image
    of a private view, no confirmation in public), nor the hidden side of a coin in the line.
    Returns how many payloads were checked.
    (`moved_tiles` were named in public when a null action moved them: not a coin leak.)"""
    data = state["data"]
    hidden_tiles = [tile_name(code) for code, _ in data["line"] if code not in moved_tiles]
    for record in records:
        seen_by = audience(table.fake, record)
        text = json.dumps(record.body).lower()
        for name in hidden_tiles:
            assert name.lower() not in text, (name, record.path)
        if "your choice:" in text:   # a confirmation goes only to the one who chose
            assert seen_by is not None, record.path
        for _, content in record.files:
            view = rendered[content]
            assert view["viewer"] in (None, seen_by), record.path
            if view["viewer"] is None:
                assert view["own_commit"] is None
            for coin in view["coin_line"]:   # only the side lying up
                assert set(coin) == {"side", coin["side"]}
    return len(records)


async def commit(table: Table, user, face, via):
    fake, gid = table.fake, table.game_id
    if via == "dm":
        dm = [m for m in fake.dms(user) if m.custom_ids()][-1]
        button = next(c for c in dm.custom_ids() if c.endswith(f":{face}"))
        res = await press(fake, user, button, message_id=dm.id)
    elif via == "fallback":
        opened = await press(fake, user, f"pp:mine:{gid}")
        menu = opened.messages[-1]
        assert menu.ephemeral_to == str(user)
        button = next(c for c in menu.custom_ids() if c.endswith(f":{face}"))
        res = await press(fake, user, button, message_id=menu.id)
    else:
        res = await command(fake, user, "move", {"move": face}, channel=table.thread)
    assert all(m.ephemeral for m in res.messages) or fake.channel(res.channel_id).type == 1
    await settle(table.bot)
    return said(res) or res.text


async def test_a_four_player_game_with_secret_faces_closed_dms_and_a_restart(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    spectator = fake.add_user("erin")
    fake.close_dms(dave)
    via = {alice: "dm", bob: "dm", carol: "dm", dave: "fallback"}
    db = tmp_path / "bot.sqlite3"
    table = Table(fake, None, [alice, bob, carol, dave])
    checked = 0
    async with running_bot(fake, db, seed=2024) as bot:
        table.bot = bot
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        for user in (bob, carol, dave):
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        await press(fake, carol, lobby.button("Leave"), message_id=lobby.id)
        assert "(3/4)" in fake.message(lobby.id).content
        await press(fake, carol, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        table.game_id, table.thread = row.id, str(row.thread_id)
        await settle(bot)
        first = fake.messages(table.thread)[0]
        assert first.attachments and "secret choice" in first.content
        assert first.custom_ids() == [f"pp:mine:{row.id}", f"pp:describe:{row.id}"]
        turn_post = first.id   # it also says who has chosen (edited as they do)
        for user in (alice, bob, carol):
            (dm,) = fake.dms(user)
            assert len(dm.custom_ids()) == 6 and dm.attachments
            assert rendered[dm.attachments[0][1]]["viewer"] == str(user)
        fallback = fake.messages(table.thread)[-1]
        assert f"<@{dave}>" in fallback.content and fallback.custom_ids() == [f"pp:mine:{row.id}"]

        # Turn 1: null, 2, 4 (after changing from 5 by /move), 2: bob and dave cancel.
        mark = len(fake.all_payloads)
        posts = len(fake.messages(table.thread))
        assert "Your choice for turn 1: **Null**" in await commit(table, alice, "n", "dm")
        assert "1 of 4 chosen: **alice**;" in fake.message(turn_post).content
        await commit(table, bob, "2", "dm")
        await commit(table, carol, "5", "move")
        edits = fake.message(turn_post).edits
        await commit(table, carol, "4", "dm")          # a change: nothing new in the thread
        await settle(bot)
        assert len(fake.messages(table.thread)) == posts and fake.message(turn_post).edits == edits
        assert "3 of 4 chosen" in fake.message(turn_post).content
        assert await fake.autocomplete(spectator, "move", {"move": ""}, focused="move",
                                       channel=table.thread) == []
        assert [c["value"] for c in await fake.autocomplete(
            bob, "move", {"move": ""}, focused="move", channel=table.thread)] == list(FACES)
        refused = await command(fake, spectator, "move", {"move": "3"}, channel=table.thread)
        assert "between" in said(refused)
        await settle(bot)
        checked += check_no_leak(table, fake.all_payloads, await table.state(), rendered)
        check_quiet_phase(table, fake.all_payloads[mark:])
        posts = len(fake.messages(table.thread))
        await commit(table, dave, "2", "fallback")
        await settle(bot)
        (reveal,) = fake.messages(table.thread)[posts:]
        assert reveal.attachments
        assert all(n in reveal.content for n in ("**alice**", "**bob**", "**carol**", "**dave**"))
        assert fake.message(turn_post).custom_ids() == []   # the phase's controls are gone
        for user in (alice, bob, carol):   # and so are the faces in the DMs
            assert all(dm.custom_ids() == [] for dm in fake.dms(user))

        # Act: alice (null) moves a tile by the menus; bob may not press her controls.
        state = await table.state()
        assert GAME.to_act(state) == (str(alice),)
        board = fake.messages(table.thread)[-1]
        tile_menu = next(c for c in board.custom_ids() if c.startswith("pp:gwt:"))
        refused = await choose(fake, bob, tile_menu, [board.select_options(tile_menu)[0]["value"]],
                               message_id=board.id)
        assert "not your turn" in said(refused)
        line_tiles = {code for code, _ in state["data"]["line"]}
        positions = {f"{x},{y}": code for code, (x, y) in state["data"]["tiles"].items()}
        source = next(o["value"] for o in board.select_options(tile_menu)
                      if positions[o["value"]] not in line_tiles)
        moved = {positions[source]}
        step = await choose(fake, alice, tile_menu, [source], message_id=board.id)
        menu = step.messages[-1]
        assert menu.ephemeral_to == str(alice)
        dest_menu = menu.custom_ids()[0]
        target = menu.select_options(dest_menu)[0]["value"]
        assert "Move the " in menu.content and f" at **{source}** to:" in menu.content
        done = await choose(fake, alice, dest_menu, [target], message_id=menu.id)
        assert f"{source}>{target}" in done.text
        await settle(bot)
        assert f"to {target}" in fake.messages(table.thread)[-1].content

        # carol (4 steps): two by the buttons under the board, the rest with /move. Her
        # board post follows her steps: no new post, no new ping.
        board = fake.messages(table.thread)[-1]
        assert f"<@{carol}>, your turn" in board.content
        names = {str(u): n for u, n in zip(table.users, ("alice", "bob", "carol", "dave"))}
        assert all(b["label"].split()[0] in names.values() for b in board.buttons()
                   if b["label"] != "Describe")   # "bob ⚫ ↓"
        posts = len(fake.messages(table.thread))
        for _ in range(2):
            state = await table.state()
            if GAME.to_act(state) != (str(carol),):
                break
            steps = [c for c in fake.message(board.id).custom_ids() if c.startswith("pp:act:")]
            res = await press(fake, carol, steps[0], message_id=board.id)
            assert "Played" in said(res)
            await settle(bot)
            if GAME.to_act(await table.state()) == (str(carol),):
                assert len(fake.messages(table.thread)) == posts and fake.message(board.id).edits
        state = await table.state()
        while GAME.to_act(state) == (str(carol),):
            options = await fake.autocomplete(carol, "move", {"move": ""}, focused="move",
                                              channel=table.thread)
            res = await command(fake, carol, "move", {"move": options[0]["value"]}, channel=table.thread)
            assert "Played" in said(res)
            state = await table.state()
        await settle(bot)

        # Turn 2, half of it before a restart.
        state = await table.state()
        waiting = [u for u in table.users if str(u) in GAME.awaited(state)]
        for user in waiting[:2]:
            await commit(table, user, "a", via[user])
    async with running_bot(fake, db) as bot:
        table.bot = bot
        turns = 0
        while (await bot.store.get_game(table.game_id)).status == "active":
            turns += 1
            assert turns < 30
            state = await table.state()
            assert state["data"]["phase"] == "commit"
            waiting = [u for u in table.users if str(u) in GAME.awaited(state)]
            mark = len(fake.all_payloads)
            said_before = "\n".join(m.content for m in fake.messages(table.thread))
            for user in waiting[:-1]:
                await commit(table, user, "a", via[user])      # the same face: all cancel
            await settle(bot)
            checked += check_no_leak(table, fake.all_payloads, await table.state(), rendered, moved)
            check_quiet_phase(table, fake.all_payloads[mark:], said_before)
            await commit(table, waiting[-1], "a", via[waiting[-1]])
            await settle(bot)
        state = await table.state()
        outcome = GAME.outcome(state)
        (winner,) = outcome.winners
        end = fake.messages(table.thread)[-1].content
        assert f"🏁 **{names[winner]}** wins." in end and "Out, in this order: " in end
        assert "Score" not in end
        assert checked > 20
        replayed = await bot.flow.replay(table.game_id)
        assert GAME.to_json(replayed) == (await bot.store.get_game(table.game_id)).state


async def test_stale_buttons_closed_dms_resigning_autocomplete_and_the_deadline(fake, drawn, tmp_path):
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    fake.close_dms(carol)
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=77) as bot:
        table = Table(fake, bot, [alice, bob, carol, dave])
        lobby = (await command(fake, alice, "play", {"game": "global-warming", "deadline": "1d"})).original
        assert "1 day for each turn's choice and each action" in lobby.content
        for user in (bob, carol, dave):
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        table.game_id, thread = row.id, str(row.thread_id)
        await settle(bot)
        assert "Each turn's choice and each action has 1 day." in fake.messages(thread)[0].content
        assert all(c.startswith(f"pp:sec:{row.id}:1:") for c in fake.dms(alice)[0].custom_ids())
        # controls opened in the thread (ephemeral: they can never be taken off)
        turn_one = {}
        for user in (alice, bob):
            opened = (await press(fake, user, f"pp:mine:{row.id}")).messages[-1]
            turn_one[user] = (opened.id, {c[-1]: c for c in opened.custom_ids()})

        # alice chooses 5; her reopened controls and /board show it, to her alone
        await commit(table, alice, "5", "dm")
        mine = (await press(fake, alice, f"pp:mine:{row.id}")).messages[-1]
        assert "5" in mine.content and mine.ephemeral_to == str(alice)
        styles = {b["label"]: b["style"] for b in mine.buttons()}
        assert styles.pop("5") == 1 and set(styles.values()) == {2}   # primary: the current choice
        board = await command(fake, alice, "board", channel=thread)
        assert "Your turn" not in said(board) and "Your choice" in said(board)

        # dave resigns and bob offers a draw: nobody is sent the faces again
        dms = {u: len(fake.dms(u)) for u in (alice, bob)}
        await command(fake, dave, "resign", channel=thread)
        await settle(bot)
        assert "resigned" in fake.messages(thread)[-1].content
        posts = len(fake.messages(thread))
        await command(fake, bob, "draw", {"action": "offer"}, channel=thread)
        await settle(bot)
        (offer,) = fake.messages(thread)[posts:]
        assert not offer.attachments and f"<@{alice}>" in offer.content and f"<@{bob}>" not in offer.content
        assert {u: len(fake.dms(u)) for u in (alice, bob)} == dms
        await commit(table, bob, "4", "dm")
        await commit(table, carol, "2", "fallback")

        # the act phase: alice (5 steps) types several steps; an old face button is refused
        state = await table.state()
        assert GAME.view(state)["actor"] == str(alice) and GAME.view(state)["steps_left"] == 5
        message, buttons = turn_one[alice]
        refused = await press(fake, alice, buttons["3"], message_id=message)
        assert "revealed already" in said(refused)
        (first, *_) = [str(a) for a in GAME.legal_actions(state, str(alice))]
        options = await fake.autocomplete(alice, "move", {"move": f"{first}, "}, focused="move",
                                          channel=thread)
        # the next steps, then the step typed so far as it is
        assert options[-1]["value"] == first
        assert len(options) > 1 and all(o["value"].startswith(f"{first}, ") for o in options[:-1])
        for option in options:
            GAME.apply(state, str(alice), option["value"])   # each is legal as a whole
        assert await fake.autocomplete(alice, "move", {"move": "nowhere, "}, focused="move",
                                       channel=thread) == []
        res = await command(fake, alice, "move", {"move": options[0]["value"]}, channel=thread)
        assert "Played" in said(res)
        while (await table.state())["data"]["phase"] == "act":
            (actor,) = GAME.to_act(await table.state())
            (option, *_) = await fake.autocomplete(actor, "move", {"move": ""}, focused="move",
                                                   channel=thread)
            await command(fake, actor, "move", {"move": option["value"]}, channel=thread)
        await settle(bot)

        # turn 2: the old buttons of turn 1 bring the current ones; carol's DMs are known closed
        turn_post = fake.messages(thread)[-1]
        assert f"<@{carol}>: I cannot send you DMs" in turn_post.content   # no DM tells her
        assert str(carol) in pinged_by(fake.search_payloads("I cannot send you DMs")[-1])
        assert sum("I cannot send you direct messages" in m.content for m in fake.messages(thread)) == 1
        state = await table.state()
        assert state["data"]["turn"] == 2 and str(carol) in GAME.awaited(state)
        others = [u for u in (alice, bob) if str(u) in GAME.awaited(state)]   # (one may drown)
        message, buttons = turn_one[others[0]]
        stale = await press(fake, others[0], buttons["n"], message_id=message)
        assert "Those buttons were for turn 1; here are the ones for turn 2." in said(stale)
        assert all(c.startswith(f"pp:sec:{row.id}:2:") for c in stale.messages[-1].custom_ids())
        assert (await table.state())["data"]["commits"] == {}

        # the reminder for carol is in the thread; at the deadline, one line says who was late
        for user in others:
            await commit(table, user, "a", "dm")
        clock.advance(0.8 * 86400 + 1)
        await settle(bot)
        reminder = fake.messages(thread)[-1]
        assert f"<@{carol}>" in reminder.content and "reminder" in reminder.content
        assert reminder.custom_ids() == [f"pp:mine:{row.id}"] and ".)." not in reminder.content
        clock.advance(0.2 * 86400)
        await settle(bot)
        late = fake.messages(thread)[-1].content
        assert late.count("⏰ The deadline passed: ") == 1 and "**carol**" in late
        assert "did not act in time" not in late
