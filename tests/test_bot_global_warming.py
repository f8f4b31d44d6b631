"""Global Warming through the bot: secret die faces by DM (and the ephemeral fallback for closed
DMs), the count of who has chosen, one reveal message, the act phase with buttons, menus and
/move, a restart between commits, and a leak test over everything the fake Discord received."""

from __future__ import annotations

import json
import re

import pytest

import bot.delivery
import engine
from engine.global_warming import tile_name
from tests.botkit import (choose, command, fake_discord, press, running_bot, said, settle)

GAME = engine.get_game("global-warming")
FACES = ("n", "a", "2", "3", "4", "5")


@pytest.fixture
async def fake():
    async with fake_discord() as fake:
        yield fake


@pytest.fixture
def rendered(monkeypatch):
    """Every view drawn into an image, by the image's bytes (to know what each file shows)."""
    views: dict[bytes, dict] = {}
    draw = bot.delivery.render_board

    def recording(board):
        png = draw(board) + json.dumps(board["view"], sort_keys=True).encode()
        views[png] = board["view"]
        return png

    monkeypatch.setattr(bot.delivery, "render_board", recording)
    return views


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

    def recipient(self, record) -> str | None:
        """Who can see a request's content: a user id, or None for everyone."""
        fake = self.fake
        match = re.fullmatch(r"/channels/(\d+)/messages(?:/\d+)?", record.path)
        if match:
            channel = fake.channel(match[1])
            return channel.recipient_id if channel.type == 1 else None
        match = re.fullmatch(r"/interactions/\d+/([^/]+)/callback|/webhooks/\d+/([^/]+)(?:/.*)?", record.path)
        if match:
            token = match[1] or match[2]
            res = next(r for r in fake.interactions if r.token == token)
            if fake.channel(res.channel_id).type == 1:
                return res.user_id
            body = record.body or {}
            flags = (body.get("data") or body).get("flags") or 0
            if flags & 64 or res.ephemeral or body.get("type") == 8:
                return res.user_id
            if res.message is not None and res.message.ephemeral:
                return res.message.ephemeral_to
            return None
        return None


FACE_WORDS = re.compile(r"\b(null|blank|ace|[1-5])\b", re.IGNORECASE)


def check_quiet_phase(table: Table, records) -> None:
    """Everything public since the commit phase began names no die face at all (so none of
    the faces chosen so far), once mentions and the "2 of 4 chosen" count are taken out."""
    for record in records:
        if table.recipient(record) is not None:
            continue
        text = (record.body or {}).get("content") or (record.body or {}).get("data", {}).get("content") or ""
        text = re.sub(r"<[@#]!?\d+>|\d+ of \d+ chosen", "", text)
        assert not FACE_WORDS.search(text), text


def check_no_leak(table: Table, records, state, rendered, moved_tiles=()) -> int:
    """Nothing received by anyone so far shows a player's chosen face to anyone else (no image
    of a private view, no confirmation in public), nor the hidden side of a coin in the line.
    Returns how many payloads were checked.
    (`moved_tiles` were named in public when a null action moved them: not a coin leak.)"""
    data = state["data"]
    hidden_tiles = [tile_name(code) for code, _ in data["line"] if code not in moved_tiles]
    for record in records:
        seen_by = table.recipient(record)
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


async def test_a_four_player_game_with_secret_faces_closed_dms_and_a_restart(fake, rendered, tmp_path):
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
        assert first.custom_ids() == [f"pp:mine:{row.id}"]
        for user in (alice, bob, carol):
            (dm,) = fake.dms(user)
            assert len(dm.custom_ids()) == 6 and dm.attachments
            assert rendered[dm.attachments[0][1]]["viewer"] == str(user)
        fallback = fake.messages(table.thread)[-1]
        assert f"<@{dave}>" in fallback.content and fallback.custom_ids() == [f"pp:mine:{row.id}"]

        # Turn 1: null, 2, 4 (after changing from 5 by /move), 2: bob and dave cancel.
        mark = len(fake.all_payloads)
        assert "Your choice: **Null**" in await commit(table, alice, "n", "dm")
        assert "1 of 4 chosen" in fake.messages(table.thread)[-1].content
        await commit(table, bob, "2", "dm")
        await commit(table, carol, "5", "move")
        posts = len(fake.messages(table.thread))
        await commit(table, carol, "4", "dm")          # a change: nothing new in the thread
        await settle(bot)
        assert len(fake.messages(table.thread)) == posts
        assert "3 of 4 chosen" in fake.messages(table.thread)[-1].content
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
        new_posts = fake.messages(table.thread)[posts:]
        reveal = [m for m in new_posts if "🎲 Turn 1:" in m.content]
        assert len(reveal) == 1
        assert all(n in reveal[0].content for n in ("**alice**", "**bob**", "**carol**", "**dave**"))
        assert "Cancelled" in reveal[0].content

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
        done = await choose(fake, alice, dest_menu, [target], message_id=menu.id)
        assert f"{source}>{target}" in done.text
        await settle(bot)
        assert f"to {target}" in fake.messages(table.thread)[-1].content

        # carol (4 steps): two by the buttons under the board, the rest with /move.
        for _ in range(2):
            board = fake.messages(table.thread)[-1]
            await settle(bot)
            state = await table.state()
            if GAME.to_act(state) != (str(carol),):
                break
            steps = [c for c in board.custom_ids() if c.startswith("pp:act:")]
            res = await press(fake, carol, steps[0], message_id=board.id)
            assert "Played" in said(res)
            await settle(bot)
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
            for user in waiting[:-1]:
                await commit(table, user, "a", via[user])      # the same face: all cancel
            await settle(bot)
            checked += check_no_leak(table, fake.all_payloads, await table.state(), rendered, moved)
            check_quiet_phase(table, fake.all_payloads[mark:])
            await commit(table, waiting[-1], "a", via[waiting[-1]])
            await settle(bot)
        state = await table.state()
        outcome = GAME.outcome(state)
        assert len(outcome.winners) == 1
        assert "last survivor" in fake.messages(table.thread)[-1].content
        assert checked > 20
        replayed = await bot.flow.replay(table.game_id)
        assert GAME.to_json(replayed) == (await bot.store.get_game(table.game_id)).state
