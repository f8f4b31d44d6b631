"""A Game Played by Galaxies through the bot: hands and secret cards by DM (and the ephemeral
fallback for closed DMs), who has chosen (never what), one reveal post, targets given in the
thread with buttons, menus and /move, a restart between the two commits, the final scores.
Boards are not drawn here (see tests.botkit.drawn): what each image shows is its view."""

from __future__ import annotations

import json
import re

import engine
from tests.botkit import (FakeClock, audience, choose, command, drawn, fake, press,  # noqa: F401
                          running_bot, said, settle)

GAME = engine.get_game("galaxies")
CARDS = ("system", "form", "merge", "shift")
CARD_WORDS = re.compile(r"\b(system|form|merge|shift)s?\b", re.IGNORECASE)


class Table:
    def __init__(self, fake, bot, users):
        self.fake, self.bot, self.users = fake, bot, users
        self.game_id = self.thread = None

    async def state(self):
        return GAME.from_json((await self.bot.store.get_game(self.game_id)).state)


async def commit(table, user, card, via):
    fake, gid = table.fake, table.game_id
    if via == "dm":
        dm = [m for m in fake.dms(user) if m.custom_ids()][-1]
        button = next(c for c in dm.custom_ids() if c.endswith(f":{card}"))
        res = await press(fake, user, button, message_id=dm.id)
    elif via == "fallback":
        opened = await press(fake, user, f"pp:mine:{gid}")
        menu = opened.messages[-1]
        assert menu.ephemeral_to == str(user)
        button = next(c for c in menu.custom_ids() if c.endswith(f":{card}"))
        res = await press(fake, user, button, message_id=menu.id)
    else:
        res = await command(fake, user, "move", {"move": card}, channel=table.thread)
    assert all(m.ephemeral for m in res.messages) or fake.channel(res.channel_id).type == 1
    await settle(table.bot)
    return said(res) or res.text


def check_quiet(table, records, said_before=""):
    """Nothing public since the commit phase began names a card (the thread only says who has
    chosen); the lines already there when it began are left out."""
    known = set(said_before.splitlines())
    for record in records:
        if audience(table.fake, record) is not None:
            continue
        text = (record.body or {}).get("content") or (record.body or {}).get("data", {}).get("content") or ""
        text = "\n".join(line for line in text.splitlines() if line not in known)
        assert not CARD_WORDS.search(text), text


def check_no_leak(table, records, rendered):
    """No image of a private view reaches anyone but its owner; public images show no hand."""
    for record in records:
        seen_by = audience(table.fake, record)
        for _, content in record.files:
            view = rendered[content]
            assert view["viewer"] in (None, seen_by), record.path
            if view["viewer"] is None:
                assert view["hand"] is None and view["own_commit"] is None
        body = json.dumps(record.body).lower()
        if "your card:" in body or "your hand:" in body:    # the secret prompt and its answers
            assert seen_by is not None, (record.path, record.body.get("content"))
    return len(records)


MENU_PAGES: list[int] = []   # the Form menus met with several pages (a test checks it happens)


async def give_target(table, way: int):
    """The resolving owner gives a target with the controls under the board (buttons, the
    stack menu then the destination menu, the Form menus) or, every third time, /move."""
    fake = table.fake
    state = await table.state()
    (actor,) = GAME.to_act(state)
    user = next(u for u in table.users if str(u) == actor)
    board = fake.messages(table.thread)[-1]
    ids = board.custom_ids()
    legal = [str(a) for a in GAME.legal_actions(state, actor)]
    assert f"pp:act:{table.game_id}:" in " ".join(ids) and "pass" in legal
    other = next(u for u in table.users if u != user)
    refused = await press(fake, other, next(c for c in ids if c.endswith(":pass")), message_id=board.id)
    assert "not your turn" in said(refused).lower()
    if way % 3 == 2:
        options = await fake.autocomplete(user, "move", {"move": ""}, focused="move",
                                          channel=table.thread)
        values = [o["value"] for o in options]
        assert set(values) <= set(legal) and values
        res = await command(fake, user, "move", {"move": values[0]}, channel=table.thread)
        played, used = values[0], "/move"
    elif any(c.startswith("pp:gls:") for c in ids):
        menu_id = next(c for c in ids if c.startswith("pp:gls:"))
        sources = [o["value"] for o in board.select_options(menu_id)]
        assert sorted(sources) == sorted({a.split(">")[0] for a in legal if ">" in a})
        step = await choose(fake, user, menu_id, [sources[-1]], message_id=board.id)
        menu = step.messages[-1]
        assert menu.ephemeral_to == str(user) and f"at **{sources[-1]}** to:" in menu.content
        dest_id = menu.custom_ids()[0]
        dests = [o["value"] for o in menu.select_options(dest_id)]
        assert sorted(dests) == sorted(a.split(">")[1] for a in legal
                                       if a.startswith(sources[-1] + ">"))
        res = await choose(fake, user, dest_id, [dests[0]], message_id=menu.id)
        played, used = f"{sources[-1]}>{dests[0]}", "stack menus"
    elif any(c.startswith("pp:pick:") for c in ids):
        menu_id = next(c for c in ids if c.startswith("pp:pick:"))
        cell = board.select_options(menu_id)[0]["value"]
        hole = GAME.view(state)["holes"][actor]

        def far(c):
            x, y = map(int, c.split(","))
            return max(abs(x - hole["x"]), abs(y - hole["y"]))
        assert far(cell) == min(far(c) for c in legal if c != "pass")   # nearest cells first
        offered = [o["value"] for c in ids if c.startswith("pp:pick:")
                   for o in board.select_options(c)]
        assert sorted(offered) == sorted(a for a in legal if a != "pass")
        pages = [c for c in ids if c.startswith("pp:pick:")]
        if len(pages) > 1:   # each page says which cells it holds
            first = 1
            for i, page in enumerate(pages):
                last = first + len(board.select_options(page)) - 1
                assert board.component(page)["placeholder"] == \
                    f"Form: cells {first}-{last}" + (", nearest your hole" if i == 0 else "")
                first = last + 1
            MENU_PAGES.append(len(pages))
        res = await choose(fake, user, menu_id, [cell], message_id=board.id)
        played, used = cell, "cell menus"
    else:
        cells = [c for c in ids if c.startswith("pp:act:") and not c.endswith(":pass")]
        assert sorted(c.rsplit(":", 1)[1] for c in cells) == sorted(a for a in legal if a != "pass")
        res = await press(fake, user, cells[0], message_id=board.id)
        played, used = cells[0].rsplit(":", 1)[1], "cell buttons"
    assert played in (res.text + said(res)), res.text
    await settle(table.bot)
    return played, used


PREFERENCE = {0: ("merge", "shift", "form", "system"), 1: ("form", "system", "shift", "merge")}


async def test_a_whole_game_with_hands_by_dm_closed_dms_and_a_restart(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    spectator = fake.add_user("erin")
    fake.close_dms(bob)
    via = {alice: "dm", bob: "fallback"}
    db = tmp_path / "bot.sqlite3"
    table = Table(fake, None, [alice, bob])
    async with running_bot(fake, db, seed=[11]) as bot:
        table.bot = bot
        lobby = (await command(fake, alice, "play", {"game": "galaxies"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        table.game_id, table.thread = row.id, str(row.thread_id)
        await settle(bot)
        first = fake.messages(table.thread)[0]
        assert first.attachments and "secret choice" in first.content
        assert first.custom_ids() == [f"pp:mine:{row.id}", f"pp:describe:{row.id}"]
        (dm,) = fake.dms(alice)
        hand_view = rendered[dm.attachments[0][1]]
        assert hand_view["viewer"] == str(alice) and len(hand_view["hand"]) == 5
        offered = sorted(c.rsplit(":", 1)[1] for c in dm.custom_ids())
        assert offered == sorted(set(hand_view["hand"]))
        assert all(c.startswith(f"pp:sec:{row.id}:1:") for c in dm.custom_ids())
        assert f"<@{bob}>" in fake.messages(table.thread)[-1].content   # the fallback

        # Turn 1: alice commits, then the bot restarts before bob does.
        mark = len(fake.all_payloads)
        said_before = "\n".join(m.content for m in fake.messages(table.thread))
        state = await table.state()
        card = next(c for c in PREFERENCE[0] if c in state["data"]["hands"][str(alice)])
        assert "Your choice for turn 1" in await commit(table, alice, card, "dm")
        assert "1 of 2 chosen: **alice**" in fake.messages(table.thread)[0].content
        assert await fake.autocomplete(spectator, "move", {"move": ""}, focused="move",
                                       channel=table.thread) == []
        check_quiet(table, fake.all_payloads[mark:], said_before)
    async with running_bot(fake, db) as bot:
        table.bot = bot
        checked = check_no_leak(table, fake.all_payloads, rendered)
        turns = 0
        way = 0
        used = set()
        MENU_PAGES.clear()
        while (await bot.store.get_game(table.game_id)).status == "active":
            turns += 1
            assert turns <= 6
            state = await table.state()
            assert state["data"]["phase"] == "commit"
            mark = len(fake.all_payloads)
            said_before = "\n".join(m.content for m in fake.messages(table.thread))
            for i, user in enumerate((alice, bob)):
                if str(user) not in GAME.awaited(state):
                    continue
                hand = state["data"]["hands"][str(user)]
                card = next(c for c in PREFERENCE[i] if c in hand)
                posts = len(fake.messages(table.thread))
                if user == bob:
                    check_quiet(table, fake.all_payloads[mark:], said_before)
                await commit(table, user, card, via[user])
            state = await table.state()
            reveal = [e for e in state["log"] if e.get("event") == "reveal"][-1]
            assert reveal["turn"] == turns
            post = next(m for m in fake.messages(table.thread)[posts:] if "🂠" in m.content)
            assert post.attachments
            for user in (alice, bob):
                assert reveal["cards"][str(user)].capitalize() in post.content
            while state["data"]["phase"] == "resolve" and GAME.to_act(state):
                posts = len(fake.messages(table.thread))
                played, how = await give_target(table, way)
                used.add(how)
                way += 1
                new = fake.messages(table.thread)[posts:]
                assert any(m.attachments for m in new)      # the board is redrawn
                if played != "pass":
                    assert any(played.split(">")[-1] in m.content for m in new)
                state = await table.state()
            checked += check_no_leak(table, fake.all_payloads, rendered)
        state = await table.state()
        outcome = GAME.outcome(state)
        end = fake.messages(table.thread)[-1].content
        scores = GAME.scores(state)
        assert f"Score: alice {scores[str(alice)]}, bob {scores[str(bob)]}." in end
        assert "The galaxies have merged." in end and end.count("Score") == 1, end   # said once
        if outcome.draw:
            assert "draw" in end and "play another game" in end
        else:
            (winner,) = outcome.winners
            assert f"**{'alice' if winner == str(alice) else 'bob'}** wins" in end
        assert turns == 6 and checked > 50
        assert used == {"/move", "stack menus", "cell menus", "cell buttons"}
        assert MENU_PAGES   # (the Form menus' page labels were checked)
        replayed = await bot.flow.replay(table.game_id)
        assert GAME.to_json(replayed) == (await bot.store.get_game(table.game_id)).state


async def test_a_missed_card_and_a_missed_target_at_the_deadline(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=5) as bot:
        table = Table(fake, bot, [alice, bob])
        lobby = (await command(fake, alice, "play", {"game": "galaxies", "deadline": "1d"})).original
        assert "1 day for each turn's card and each target" in lobby.content
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        table.game_id, table.thread = row.id, str(row.thread_id)
        await settle(bot)
        await commit(table, alice, "system", "dm")
        clock.advance(86400 + 1)
        await settle(bot)
        state = await table.state()
        assert GAME.view(state)["reveal"]["cards"] == {str(alice): "system"}
        assert "plays no card" in fake.messages(table.thread)[-1].content
        assert GAME.to_act(state) == (str(alice),)
        clock.advance(86400 + 1)
        await settle(bot)
        state = await table.state()
        assert "spent without effect" in "\n".join(m.content for m in fake.messages(table.thread)[-2:])
        assert GAME.view(state)["turn"] == 2


async def test_paths_cannot_be_chosen_at_play(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5):
        res = await command(fake, alice, "play", {"game": "galaxies",
                                                 "options": 'paths=["FMSSMF","MFSFMS"]'})
        assert "cannot be chosen at /play" in said(res)


async def test_suggestions_keep_the_minus_sign_and_the_order_of_the_numbers(fake, drawn, tmp_path):
    """A Form's cells as typed: `3,-` offers 3,-1 and 3,-2 (not 3,0, 3,1 or 13,0); `3,` the
    cells of column 3; `-1,` those of column -1."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=1) as bot:   # alice holds a Form
        table = Table(fake, bot, [alice, bob])
        lobby = (await command(fake, alice, "play", {"game": "galaxies"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        table.game_id, table.thread = row.id, str(row.thread_id)
        await settle(bot)
        await commit(table, alice, "form", "move")
        await commit(table, bob, "system", "move")
        await command(fake, bob, "move", {"move": "pass"}, channel=table.thread)   # System first
        await settle(bot)
        state = await table.state()
        assert GAME.to_act(state) == (str(alice),)
        legal = [str(a) for a in GAME.legal_actions(state, str(alice))]

        async def suggested(text):
            return [c["value"] for c in await fake.autocomplete(alice, "move", {"move": text},
                                                                focused="move", channel=table.thread)]
        assert sorted(await suggested("3,-")) == ["3,-1", "3,-2"]
        assert sorted(await suggested("3,")) == sorted(c for c in legal if c.split(",")[0] == "3")
        assert sorted(await suggested("-1,")) == sorted(c for c in legal if c.startswith("-1,"))
        assert await suggested("-1,") and "1,0" not in await suggested("-1,")
