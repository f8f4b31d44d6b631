"""The game flow and the outbox without Discord: concurrency, what is said where, delivery
retries and the closed-DM fallback, options text."""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

import engine
from bot import rendering, texts
from bot.delivery import RETRY_DELAYS, Delivery
from bot.flow import GameFlow, UserError, parse_options
from bot.storage import Notice, Store
from tests.botkit import FakeClock
from tests.pg import database_for

ALICE, BOB, CAROL = 101, 102, 103
REL = engine.get_game("relativity")
GW = engine.get_game("global-warming")


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(database_for(tmp_path / "flow.sqlite3"))
    yield store
    await store.close()


async def started(flow: GameFlow, game: str, players=(ALICE, BOB), **lobby):
    row = await flow.open_lobby(game_name=game, guild_id=1, channel_id=2, host_id=players[0],
                                host_name="alice", deadline=lobby.get("deadline"), opponent_id=None,
                                options=lobby.get("options", {}))
    for n, user in enumerate(players[1:]):
        row = await flow.join(row.id, user, ["bob", "carol", "dave"][n])

    async def thread(row, name):
        return 900 + row.id

    return await flow.start(row, thread)


def reads_together(monkeypatch, store, readers=2):
    """Make the first `readers` reads of a game wait for one another: their writes then race."""
    barrier = asyncio.Barrier(readers)
    read = store.get_game
    calls = {"n": 0}

    async def get_game(game_id):
        row = await read(game_id)
        calls["n"] += 1
        if calls["n"] <= readers:
            await barrier.wait()
        return row

    monkeypatch.setattr(store, "get_game", get_game)
    return calls


async def test_two_public_moves_from_the_same_version_one_is_told_the_board_changed(store, monkeypatch):
    flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
    row = await started(flow, "relativity")
    state = flow.state_of(row)
    (first,) = REL.to_act(state)
    one, two = (str(a) for a in REL.legal_actions(state, first)[:2])
    reads_together(monkeypatch, store)
    results = await asyncio.gather(flow.act(row.id, int(first), "move", one),
                                   flow.act(row.id, int(first), "move", two), return_exceptions=True)
    errors = [r for r in results if isinstance(r, UserError)]
    assert len(errors) == 1 and "board changed" in str(errors[0])
    after = await store.get_game(row.id)
    assert after.version == row.version + 1
    assert [e["kind"] for e in await store.events(row.id)].count("move") == 1


async def test_secret_commits_at_the_same_moment_both_count(store, monkeypatch):
    flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
    row = await started(flow, "global-warming", (ALICE, BOB, CAROL))
    reads = reads_together(monkeypatch, store)
    done = await asyncio.gather(flow.act(row.id, ALICE, "move", "5"), flow.act(row.id, BOB, "move", "3"))
    assert all("Your choice" in d.message for d in done)
    assert reads["n"] == 3   # the loser read again and committed on the new version
    state = flow.state_of(await store.get_game(row.id))
    assert GW.awaited(state) == (str(CAROL),)
    channel = [o for o in await store.outbox_rows(row.id) if o["target_kind"] == "channel"]
    first, *edits = channel
    # the turn post, edited (each edit names the one before: they are the same message)
    assert [o["edit_of"] for o in edits] == [first["id"], edits[0]["id"]]
    assert "2 of 3 chosen: **alice** and **bob**" in edits[-1]["payload"]["content"] \
        or "2 of 3 chosen: **bob** and **alice**" in edits[-1]["payload"]["content"]
    for edit in edits:   # the edits say who, never what
        text = re.sub(r"<@\d+>|#\d+|\d of \d", "", edit["payload"]["content"])
        assert not re.search(r"[35]", text), text


async def test_what_goes_where_after_a_start_and_a_commit(store):
    flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
    row = await started(flow, "global-warming", (ALICE, BOB))
    rows = await store.outbox_rows(row.id)
    thread, *dms = rows
    assert thread["target_id"] == row.thread_id and thread["payload"]["board"]["view"]["viewer"] is None
    assert sorted(d["target_id"] for d in dms) == [ALICE, BOB]
    for dm in dms:
        payload = dm["payload"]
        assert payload["board"]["view"]["viewer"] == str(dm["target_id"])
        assert [(c[0], c[2], c[4]) for c in payload["controls"]] == \
            [("sec", 1, face) for face in ("n", "a", "2", "3", "4", "5")]
        assert "Open my private controls" in payload["fallback"]["content"]
    await flow.act(row.id, ALICE, "move", "4")
    await flow.act(row.id, ALICE, "move", "2")   # a change of mind: nothing public
    quiet = (await store.outbox_rows(row.id))[len(rows):]
    assert len(quiet) == 1 and quiet[0]["edit_of"] == thread["id"]
    assert "board" not in quiet[0]["payload"]   # the image stays; the text and its controls
    assert quiet[0]["payload"]["controls"] == thread["payload"]["controls"]
    assert "1 of 2 chosen" in quiet[0]["payload"]["content"]


async def test_a_deadline_expires_and_a_stale_timer_after_a_move_does_nothing(store):
    clock = FakeClock()
    flow = GameFlow(store, clock, seed_source=lambda: 9)
    row = await started(flow, "relativity", deadline="1d")
    timers = await store.timers_of(row.id)
    assert set(timers) == {"deadline", "reminder"}
    clock.advance(86400)
    await flow.fire(timers["deadline"])
    (late,) = REL.to_act(flow.state_of(row))
    row = await store.get_game(row.id)
    assert row.status == "finished"
    assert REL.outcome(flow.state_of(row)).winners == tuple({str(ALICE), str(BOB)} - {late})
    assert await store.timers_of(row.id) == {}
    await flow.fire(timers["reminder"])   # the game is over: nothing is sent
    assert not any("Reminder" in o["payload"].get("content", "") for o in await store.outbox_rows(row.id))


@pytest.mark.parametrize("text, options", [
    ("", {}),
    ("variant=diagonal", {"variant": "diagonal"}),
    ("layouts=a,b; x=3", {"layouts": ["a", "b"], "x": 3}),
    ('{"starts": ["Sn", "S4"]}', {"starts": ["Sn", "S4"]}),
    ("rounds=2, ranking=slides", {"rounds": 2, "ranking": "slides"}),   # as people write lists
    ("rounds = 2 ; autodone= on", {"rounds": 2, "autodone": "on"}),
    ("starts=Sn, S4, variant=diagonal", {"starts": ["Sn", "S4"], "variant": "diagonal"}),
    ('starts=["Sn", "S4"], rounds=1', {"starts": ["Sn", "S4"], "rounds": 1}),
])
def test_options_text(text, options):
    assert parse_options(text) == options


@pytest.mark.parametrize("text", ["variant", "{not json", "[1, 2]", "rounds=2 extra", "=3", "a=1,,2"])
def test_bad_options_text(text):
    with pytest.raises(UserError):
        parse_options(text)


def test_bad_options_text_shows_the_games_own_example():
    with pytest.raises(UserError, match="for example rounds=3 "):
        parse_options("rounds", example="rounds=3")


# --------------------------------------------------------------------------- the outbox


class Response:
    def __init__(self, status):
        self.status, self.reason = status, "test"


class FakeBot:
    def __init__(self, store, clock):
        self.store, self.clock = store, clock
        self.renderer = rendering.Renderer("thread")

    def now(self):
        return self.clock()


async def test_delivery_retries_then_gives_up_and_falls_back_for_closed_dms(store, monkeypatch):
    clock = FakeClock()
    flow = GameFlow(store, clock, seed_source=lambda: 9)
    row = await started(flow, "relativity")
    bot = FakeBot(store, clock)
    delivery = Delivery(bot)
    sent, failures = [], {}

    async def send(item):
        failure = failures.get(item.target_id)
        if failure is not None:
            raise failure
        sent.append(item)
        return 1

    monkeypatch.setattr(delivery, "send", send)
    failures[row.thread_id] = discord.DiscordServerError(Response(503), "unavailable")
    assert await delivery.deliver_due() == 0
    clock.advance(RETRY_DELAYS[0])
    del failures[row.thread_id]
    assert await delivery.deliver_due() == 1 and sent[-1].target_id == row.thread_id

    closed = discord.Forbidden(Response(403), {"code": 50007, "message": "Cannot send messages to this user"})
    failures[ALICE] = closed
    await store.add_notices(row.id, [Notice("user", ALICE, {"content": "psst",
                                                              "fallback": {"content": "in the thread"}})],
                            clock())
    assert await delivery.deliver_due() == 1
    assert sent[-1].target_id == row.thread_id and sent[-1].payload == {"content": "in the thread"}

    failures[BOB] = discord.DiscordServerError(Response(500), "boom")
    await store.add_notices(row.id, [Notice("user", BOB, {"content": "hello"})], clock())
    for delay in RETRY_DELAYS:
        await delivery.deliver_due()
        clock.advance(delay)
    await delivery.deliver_due()
    assert await store.outbox_waiting() == 0
    (bob_row,) = [o for o in await store.outbox_rows(row.id) if o["target_id"] == BOB]
    assert bob_row["failed"] and bob_row["attempts"] == len(RETRY_DELAYS) + 1


async def test_a_board_that_cannot_be_drawn_still_sends_the_text(store, monkeypatch):
    clock = FakeClock()
    sent = []

    class HTTP:
        async def send_message(self, channel_id, *, params):
            sent.append((channel_id, params))
            return {"id": "5"}

    bot = FakeBot(store, clock)
    bot.http, bot.allowed_mentions = HTTP(), None
    monkeypatch.setattr(rendering, "draw_board", lambda board: 1 / 0)
    await store.add_notices(None, [Notice("channel", 7, {"content": "text", "board": {"view": {}}})], clock())
    assert await Delivery(bot).deliver_due() == 1
    (channel_id, params), = sent
    assert channel_id == 7 and params.payload["content"] == "text" and not params.files


@pytest.mark.parametrize("name, options", [
    ("global-warming", {"coins": ["S3:suit"]}),
    ("relativity", {"layouts": ["na2345/na2345/na2345/an3254"] * 2}),
    ("relativity", {"layouts": "na2345/na2345/na2345/an3254"}),
])
async def test_options_that_fix_hidden_information_are_refused_at_play(store, name, options):
    assert set(options) <= engine.get_game(name).secret_options
    flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
    with pytest.raises(UserError, match="hidden"):
        await started(flow, name, options=options)
    assert await store.games_with_status("lobby") == []


async def test_options_that_hide_nothing_are_taken_at_play(store):
    flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
    row = await flow.open_lobby(game_name="global-warming", guild_id=1, channel_id=2, host_id=ALICE,
                                host_name="alice", deadline=None, opponent_id=None,
                                options={"variant": "diagonal"})
    assert row.options == {"variant": "diagonal"}


# --------------------------------------------------------------------------- texts


@pytest.mark.parametrize("name", ["relativity", "global-warming"])
def test_long_rules_are_split_between_paragraphs(name):
    text = engine.get_game(name).rules
    parts = texts.chunks(text, limit=900)
    assert len(parts) > 1 and all(len(p) <= 900 for p in parts)
    lines = set(text.splitlines())
    for part in parts:   # whole lines only
        assert set(part.splitlines()) <= lines, part[:80]
    for paragraph in re.split(r"\n\s*\n", text):   # a paragraph that fits is kept together
        assert len(paragraph) > 900 or any(paragraph.strip() in part for part in parts)


def test_a_paragraph_longer_than_a_message_is_split_between_sentences():
    sentence = "This sentence has exactly fifty characters in it. "
    parts = texts.chunks("Short one.\n\n" + sentence * 30, limit=400)
    assert parts[0] == "Short one."
    assert all(len(p) <= 400 and p.endswith("in it.") for p in parts[1:])
    assert "".join(parts[1:]).count("fifty") == 30


async def test_an_edit_waits_for_its_message_and_a_lost_message_is_reposted(store, monkeypatch):
    clock = FakeClock()
    calls = []
    failures = {"post": [discord.DiscordServerError(Response(503), "unavailable")], "edit": []}

    class HTTP:
        async def send_message(self, channel_id, *, params):
            if failures["post"]:
                raise failures["post"].pop()
            calls.append(("post", channel_id, params.payload))
            return {"id": str(500 + len(calls))}

        async def edit_message(self, channel_id, message_id, *, params):
            if failures["edit"]:
                raise failures["edit"].pop()
            calls.append(("edit", channel_id, message_id, params.payload))
            return {"id": str(message_id)}

    bot = FakeBot(store, clock)
    bot.http, bot.allowed_mentions = HTTP(), None
    delivery = Delivery(bot)
    await store.add_notices(None, [Notice("channel", 7, {"content": "board", "controls": [["mine", 1]]},
                                          tag="board")], clock())
    post = (await store.pending_outbox(clock()))[0]
    await store.add_notices(None, [Notice("channel", 7, {"controls": []}, tag="board", edit_of=post.id)],
                            clock())
    assert await delivery.deliver_due() == 0          # the post failed; its edit waits for it
    edit = (await store.outbox_item(post.id + 1))
    assert edit.attempts == 0 and not edit.delivered
    clock.advance(RETRY_DELAYS[0])
    assert await delivery.deliver_due() == 2
    assert [c[0] for c in calls] == ["post", "edit"]
    assert calls[1][2] == 501 and calls[1][3]["components"] == []

    # the message is gone: a strip is dropped, a full edit is posted anew
    gone = discord.NotFound(Response(404), {"code": 10008, "message": "Unknown Message"})
    failures["edit"] = [gone, gone]
    latest = await store.outbox_item(post.id + 1)
    await store.add_notices(None, [Notice("channel", 7, {"controls": []}, tag="board", edit_of=latest.id),
                                   Notice("channel", 7, {"content": "moved on", "repost": True},
                                          tag="board", edit_of=latest.id)], clock())
    await delivery.deliver_due()
    assert calls[-1][0] == "post" and calls[-1][2]["content"] == "moved on"
    *_, strip, edit, repost = await store.outbox_rows()
    assert strip["failed"] and edit["failed"]
    assert (repost["tag"], repost["edit_of"], repost["message_id"]) == ("board", None, 500 + len(calls))
