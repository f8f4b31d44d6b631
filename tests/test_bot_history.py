"""After a game, through the fake Discord with the real store: the Rematch button (accepted,
declined, pressed twice, by an outsider, solo), `/games status:finished`, `/record` replayed
through the engine (a text record, and Relativity's PPN), `/replay` hiding what was secret at
that move."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import bot.rendering
import engine
import render
from bot import records
from engine.piecepack import value_name
from tests.botkit import (command, fake, last_board_post, open_game, press, running_bot, said,  # noqa: F401
                          settle)
from tests.pg import database_for
from tests.test_relativity import read_ppn

REL = engine.get_game("relativity")
GW = engine.get_game("global-warming")
FIXTURE = Path(__file__).parent / "fixtures" / "relativity.ppn"


@pytest.fixture
def svgs(monkeypatch):
    """Boards are drawn as SVG only (fast); returns the SVG text of every board, by the PNG
    bytes sent for it."""
    drawn: dict[bytes, str] = {}

    def draw(board):
        svg = render.render_svg(board["view"], board.get("names"))
        png = b"\x89PNG" + str(len(drawn)).encode()
        drawn[png] = svg
        return png

    monkeypatch.setattr(bot.rendering, "draw_board", draw)
    return drawn


async def start_event(bot, game_id) -> dict:
    return next(json.loads(e["detail"]) for e in await bot.store.events(game_id) if e["kind"] == "start")


async def record_of(fake, user, game_id, **where):
    res = await command(fake, user, "record", {"game": game_id}, **where)
    (message,) = [m for m in res.messages if m.attachments]
    assert message.ephemeral
    (name, data), = message.attachments
    return name, data.decode(), message.text


# --------------------------------------------------------------------------- rematch


async def finished_relativity(fake, bot, alice, bob):
    """A Relativity game between alice (first seat) and bob that bob resigned."""
    row, thread = await open_game(fake, bot, alice, bob)
    await command(fake, bob, "resign", channel=thread)
    await settle(bot)
    return row, thread


async def test_a_rematch_accepted_by_both_players(fake, tmp_path):
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[11, 12, 13]) as bot:
        old, thread = await finished_relativity(fake, bot, alice, bob)
        result = fake.messages(thread)[-1]
        assert "wins" in result.content and result.custom_ids() == [f"pp:rematch:{old.id}"]

        refused = await press(fake, carol, f"pp:rematch:{old.id}", message_id=result.id)
        assert "Only the players" in said(refused) and "/play" in said(refused)

        asked = await press(fake, alice, f"pp:rematch:{old.id}", message_id=result.id)
        request = asked.messages[-1]
        assert not request.ephemeral and request.channel_id == thread
        (new,) = [r for r in await bot.store.games_of_user(int(alice)) if r.id != old.id]
        assert new.status == "lobby" and new.player_ids == [bob, alice]   # rotated by one
        assert "rotated by one" in request.content and f"<@{bob}>" in request.content
        assert request.custom_ids() == [f"pp:rematch:{new.id}:accept", f"pp:rematch:{new.id}:decline"]

        # Twice, by the same player or by the other, or with /play: no second game.
        again = await press(fake, alice, f"pp:rematch:{old.id}", message_id=result.id)
        assert f"game #{new.id}" in said(again)
        played = await command(fake, bob, "play", {"rematch": old.id})
        assert f"game #{new.id}" in said(played)
        assert len(await bot.store.games_of_user(int(bob), statuses=("lobby", "active", "finished"))) == 2

        pressed = await press(fake, carol, f"pp:rematch:{new.id}:accept", message_id=request.id)
        assert "Only the players" in said(pressed)
        already = await press(fake, alice, f"pp:rematch:{new.id}:accept", message_id=request.id)
        assert "accepted already" in said(already)
        assert (await bot.store.get_game(new.id)).status == "lobby"

        await press(fake, bob, f"pp:rematch:{new.id}:accept", message_id=request.id)
        await settle(bot)
        started = await bot.store.get_game(new.id)
        assert started.status == "active" and started.player_ids == [bob, alice]
        assert started.options == old.options and started.deadline_seconds == old.deadline_seconds
        assert (await start_event(bot, new.id))["seed"] != (await start_event(bot, old.id))["seed"]
        assert started.thread_id and str(started.thread_id) != thread
        first = fake.messages(started.thread_id)[0]
        assert f"rotated by one from game #{old.id}" in first.content
        assert "Everyone has accepted" in fake.message(request.id).content
        assert fake.message(request.id).custom_ids() == []
        late = await press(fake, bob, f"pp:rematch:{old.id}", message_id=result.id)
        assert f"has its rematch already: game #{new.id}" in said(late)


async def test_a_rematch_declined_says_who_and_can_be_asked_again(fake, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[21, 22, 23]) as bot:
        old, thread = await finished_relativity(fake, bot, alice, bob)
        result = fake.messages(thread)[-1]
        asked = await press(fake, bob, f"pp:rematch:{old.id}", message_id=result.id)
        request = asked.messages[-1]
        new_id = int(request.custom_ids()[0].split(":")[2])
        await press(fake, alice, f"pp:rematch:{new_id}:decline", message_id=request.id)
        assert (await bot.store.get_game(new_id)).status == "cancelled"
        text = fake.message(request.id).content
        assert "**alice** declined" in text and fake.message(request.id).custom_ids() == []
        refused = await press(fake, bob, f"pp:rematch:{new_id}:accept", message_id=request.id) \
            if fake.message(request.id).custom_ids() else None
        assert refused is None   # (its buttons are gone)
        # Asked again later: a new request (the declined one is over).
        again = await press(fake, alice, f"pp:rematch:{old.id}", message_id=result.id)
        assert int(again.messages[-1].custom_ids()[0].split(":")[2]) not in (new_id, old.id)


async def test_a_solo_rematch_starts_at_once_with_a_new_deal(fake, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[31, 32]) as bot:
        lobby = (await command(fake, alice, "play", {"game": "byop1"})).original
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)   # BYOP1 alone
        (old,) = await bot.store.games_of_user(int(alice), statuses=("active",))
        await settle(bot)
        await command(fake, alice, "resign", channel=str(old.thread_id))
        await settle(bot)
        result = fake.messages(old.thread_id)[-1]
        assert "🏁 The game is over" in result.content and "winner" not in result.content   # (alone)
        res = await press(fake, alice, f"pp:rematch:{old.id}", message_id=result.id)
        assert "the game is on" in res.text
        assert "rotated" not in res.text and "in this order" not in res.text   # (alone: no seats)
        (new,) = await bot.store.games_of_user(int(alice), statuses=("active",))
        await settle(bot)
        first = fake.messages(new.thread_id)[0].content
        assert f"**BYOP1 #{new.id}** begins for **alice**." in first and "seats" not in first
        assert new.id != old.id and new.thread_id
        assert (await start_event(bot, new.id))["seed"] == 32   # a new deal
        assert json.loads(new.state)["data"] != json.loads(old.state)["data"]


# --------------------------------------------------------------------------- /games


async def test_games_finished_shows_the_result(fake, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[41, 42]) as bot:
        old, _ = await finished_relativity(fake, bot, alice, bob)
        running, _ = await open_game(fake, bot, alice, bob)
        default = said(await command(fake, alice, "games"))
        assert f"Relativity #{running.id}**" in default and f"Relativity #{old.id}**" not in default
        finished = said(await command(fake, bob, "games", {"status": "finished"}))
        assert f"Relativity #{old.id}** with alice: won by **alice**" in finished
        assert "resigned" in finished and f"Relativity #{running.id}**" not in finished
        everything = said(await command(fake, alice, "games", {"status": "all"}))
        assert f"Relativity #{running.id}**" in everything and f"Relativity #{old.id}** with bob: 🏆 you won" in everything


async def test_games_finished_and_all_list_aborted_games_marked_so(fake, tmp_path):
    """(issue 21.15) An aborted game is in `/games status:finished` and `status:all`, marked
    aborted; a lobby cancelled before it started is not (it has no game to look back at)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[61, 62]) as bot:
        aborted, thread = await open_game(fake, bot, alice, bob)
        await command(fake, alice, "abort", channel=thread)
        lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
        await press(fake, alice, lobby.button("Cancel"), message_id=lobby.id)
        for status in ("finished", "all"):
            listed = said(await command(fake, alice, "games", {"status": status}))
            assert f"Relativity #{aborted.id}** with bob: 🛑 aborted, without a result" in listed
            assert "Global Warming" not in listed


# --------------------------------------------------------------------------- /record


def next_move(state, rng):
    """A player the game waits for and a legal action of theirs, chosen at random (a player
    who has chosen in secret already does not change their mind)."""
    for p in GW.awaited(state):
        actions = [str(a) for a in GW.legal_actions(state, p)]
        if actions:
            return p, rng.choice(actions)
    return None


async def test_a_text_record_replayed_through_the_engine_gives_the_final_state(fake, tmp_path):
    import random
    rng = random.Random(5)
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=77) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        for user in (bob, carol):
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice), statuses=("active",))
        thread = str(row.thread_id)
        for _ in range(40):
            state = GW.from_json((await bot.store.get_game(row.id)).state)
            if GW.outcome(state) is not None:
                break
            player, action = next_move(state, rng)
            done = await command(fake, player, "move", {"move": action}, channel=thread)
            assert "Played" in said(done) or "Your choice" in said(done), said(done)
        state = GW.from_json((await bot.store.get_game(row.id)).state)
        if GW.outcome(state) is None:
            while state["data"]["commits"]:   # (a choice made then left would never be shown)
                player, action = next_move(state, rng)
                await command(fake, player, "move", {"move": action}, channel=thread)
                state = GW.from_json((await bot.store.get_game(row.id)).state)
            await command(fake, carol, "resign", channel=thread)
            await command(fake, bob, "resign", channel=thread)
        final = await bot.store.get_game(row.id)
        assert final.status == "finished"

        name, text, summary = await record_of(fake, carol, row.id, channel=thread)
        assert name.endswith(".txt") and "moves, finished" in summary
        assert "\talice\t" in text and "secret choice, revealed at move" in text
        moves = records.read_record(text)
        start = await start_event(bot, row.id)
        replayed = records.apply_record("global-warming", start["players"], start["seed"],
                                        start["options"], moves)
        assert GW.to_json(replayed) == final.state
        # every line has its time and its player
        for line in text.splitlines():
            if not line.startswith("#"):
                number, at, seat, who, action, note = line.split("\t")
                assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", at)
                assert who in ("alice", "bob", "carol", "-")


def read_ppn_documents(text: str):
    """[(round, layout, [(number, side, swap, [trophy values], comment)], comments)] of a
    multi-document PPN record: each document read the way tests/test_relativity.py reads the
    fixture, plus the comment after each move."""
    documents = []
    for doc in text.split("---\n")[1:]:
        header, body = doc.split("\n...\n", 1)
        layout = re.search(r'Coins:\s*"([^"]+)"', header)[1]
        round_ = re.search(r"Round: (\w+)", header)[1]
        moves = [(int(n), side, token.split(";")[0],
                  [re.fullmatch(r"[MS]([na2-5])@\w+", t)[1] for t in token.split(";")[1:]], comment)
                 for n, side, token, comment in re.findall(r"(\d+)([ST])\.\s+(\S+)\s+\{([^}]*)\}", body)]
        comments = re.findall(r"\{([^}]*)\}", re.sub(r"(\d+)([ST])\.\s+(\S+)\s+\{[^}]*\}", "", body))
        documents.append((round_, layout, moves, comments))
    return documents


@pytest.fixture
def fixture_deal(monkeypatch):
    """The fixture's Night board and a Day board of our own: a test hook into the engine
    (players cannot set boards)."""
    night = re.search(r'Coins:\s*"([^"]+)"', FIXTURE.read_text())[1]
    day = "na2345/na2345/na2345/an3254"
    new_game = REL.new_game

    def dealt(players, seed=0, options=None):
        return new_game(players, seed=seed, options={**(options or {}), "layouts": [night, day]})

    monkeypatch.setattr(REL, "new_game", dealt)
    return new_game, night, day


async def test_relativity_record_is_ppn_like_the_fixture_and_replays(fake, tmp_path, fixture_deal, svgs):
    new_game, night, day = fixture_deal
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    _, fixture_moves = read_ppn(FIXTURE)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        mover = {"S": alice, "T": bob}   # alice is Night's Space (first seat)
        for _, side, swap, _ in fixture_moves[:12]:
            await command(fake, mover[side], "move", {"move": swap}, channel=thread)
        # A running game: the record holds the Night so far, and nothing of the Day board.
        _, running, _ = await record_of(fake, carol, row.id, channel=thread)
        assert running.count("---\n") == 1 and day not in running and "Result" not in running
        for _, side, swap, _ in fixture_moves[12:]:
            await command(fake, mover[side], "move", {"move": swap}, channel=thread)
        await command(fake, bob, "move", {"move": "a1#a2"}, channel=thread)   # Day: bob is Space
        await command(fake, alice, "resign", channel=thread)
        await settle(bot)
        final = await bot.store.get_game(row.id)
        assert final.status == "finished"

        name, text, _ = await record_of(fake, carol, row.id)
        assert name.endswith(".ppn")
        (r1, l1, m1, c1), (r2, l2, m2, c2) = read_ppn_documents(text)
        assert (r1, l1, r2, l2) == ("Night", night, "Day", day)
        def cells(swap):   # (a swap is the same either way round; records write it sorted)
            return "#".join(sorted(swap.split("#")))

        assert [(n, s, swap, t) for n, s, swap, t, _ in m1] == \
            [(n, s, cells(swap), t) for n, s, swap, t in fixture_moves]   # moves and trophies
        assert [(n, s, swap) for n, s, swap, _, _ in m2] == [(1, "S", "a1#a2")]
        assert all(re.fullmatch(r" (alice|bob), \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC ", c)
                   for *_, c in m1 + m2)
        assert any("alice resigns" in c for c in c2) and any("Result: bob won" in c for c in c2)
        # The project's reader of the fixture reads each document the same way.
        (tmp_path / "night.ppn").write_text("---\n" + text.split("---\n")[1])
        assert read_ppn(tmp_path / "night.ppn") == \
            (night, [(n, s, cells(swap), t) for n, s, swap, t in fixture_moves])

        # Replayed from the PPN alone: the same game (but the seed, which no record shows).
        names = {"alice": alice, "bob": bob}
        state = new_game([alice, bob], options={"layouts": [l1, l2]})
        for round_moves, roles in ((m1, {"S": alice, "T": bob}), (m2, {"S": bob, "T": alice})):
            for _, side, swap, _, comment in round_moves:
                assert names[comment.split(",")[0].strip()] == roles[side]
                state = REL.apply(state, roles[side], swap)
        state = REL.resign(state, alice)
        # (compared with the stored events' replay: events write a swap's cells sorted, so the
        # live state's log may name them in the order they were typed)
        ours = json.loads(REL.to_json(await bot.flow.replay(row.id)))
        assert ours["data"]["trophies"] == json.loads(final.state)["data"]["trophies"]
        theirs = json.loads(REL.to_json(state))
        for key in ("seed", "rng"):
            ours.pop(key), theirs.pop(key)
        assert theirs == ours


# --------------------------------------------------------------------------- /replay


async def test_replay_hides_a_committed_face_until_its_reveal(fake, tmp_path, svgs):
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=2024) as bot:
        lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice), statuses=("active",))
        thread = str(row.thread_id)
        hidden = f"chose {value_name('4')}"
        await command(fake, alice, "move", {"move": "4"}, channel=thread)
        own = GW.view(GW.from_json((await bot.store.get_game(row.id)).state), alice)
        assert hidden in render.render_svg(own, {alice: "alice", bob: "bob"})   # (the check can fail)

        def replay_said(res):
            (message,) = [m for m in res.messages if m.attachments]
            assert message.ephemeral
            return message.text, svgs[message.attachments[0][1]]

        for who in (carol, bob):
            text, svg = replay_said(await command(fake, who, "replay", {"game": row.id, "move": 1}))
            assert "secret choice" in text and "not public yet" in text
            assert hidden not in svg and "chosen ✓" in svg
            assert not re.search(r"\b4\b|Four", re.sub(r"#\d+|move \d|of \d", "", text))
        _, running, _ = await record_of(fake, carol, row.id)
        assert re.search(r"^1\t[^\n]*\talice\t\?\tsecret choice, not revealed$", running, re.M)

        await command(fake, bob, "move", {"move": "2"}, channel=thread)   # the reveal
        text, svg = replay_said(await command(fake, carol, "replay", {"game": row.id, "move": 1}))
        assert hidden not in svg and "not public yet" in text           # not at move 1
        text, svg = replay_said(await command(fake, carol, "replay", {"game": row.id, "move": 2}))
        assert "**bob** 2" in text
        _, revealed, _ = await record_of(fake, carol, row.id)
        assert re.search(r"^1\t[^\n]*\talice\t4\tsecret choice, revealed at move 2$", revealed, re.M)

        for bad in ({"game": row.id, "move": 3}, {"game": row.id, "move": -1}, {"game": 999, "move": 0}):
            res = await command(fake, carol, "replay", bad)
            assert res.messages and all(m.ephemeral for m in res.messages), bad
            assert re.search(r"moves 0 to 2 so far|numbered from 0|no game #999", said(res)), said(res)


# --------------------------------------------------------------------------- records alone


async def test_a_change_of_mind_is_never_in_the_record(tmp_path):
    from bot.flow import GameFlow
    from bot.storage import Store
    from tests.botkit import FakeClock
    from tests.test_bot_flow import ALICE, BOB, started

    store = await Store.open(database_for(tmp_path / "flow.sqlite3"))
    try:
        clock = FakeClock()
        flow = GameFlow(store, clock, seed_source=lambda: 9)
        row = await started(flow, "global-warming", (ALICE, BOB))
        await flow.act(row.id, ALICE, "move", "5")
        clock.advance(60)
        await flow.act(row.id, ALICE, "move", "3")        # changed before the reveal
        hist = records.history("global-warming", await store.events(row.id))
        (first,) = hist.entries
        assert (first.number, first.at, first.shown) == (1, clock.now - 60, False)
        text = records.record_text(hist, title="Global Warming", game_id=row.id,
                                   names={str(ALICE): "alice", str(BOB): "bob"}, result=None)
        assert text.splitlines()[-1].split("\t")[4:] == ["?", "secret choice, not revealed"]
        await flow.act(row.id, BOB, "move", "2")          # the reveal
        hist = records.history("global-warming", await store.events(row.id))
        assert [(e.actor, e.text, e.shown) for e in hist.entries] == \
            [(str(ALICE), "3", True), (str(BOB), "2", True)]
        assert records.visible_at(hist.entries[0], hist.entries[0].event) is False
        assert hist.event_of(1) < hist.event_of(2) and hist.event_of(0) < hist.event_of(1)
    finally:
        await store.close()


async def test_galaxies_cards_and_byop1_boards_show_once_public(tmp_path):
    from bot.flow import GameFlow
    from bot.storage import Store
    from tests.botkit import FakeClock
    from tests.test_bot_flow import ALICE, BOB, started

    store = await Store.open(database_for(tmp_path / "flow.sqlite3"))
    try:
        flow = GameFlow(store, FakeClock(), seed_source=lambda: 9)
        for name in ("galaxies", "byop1"):
            game = engine.get_game(name)
            row = await started(flow, name, (ALICE, BOB))
            state = flow.state_of(await store.get_game(row.id))
            move = str(game.legal_actions(state, str(ALICE))[0])
            await flow.act(row.id, ALICE, "move", move)
            (entry,) = records.history(name, await store.events(row.id)).entries
            assert (entry.hidden, entry.shown) == ({"galaxies": "secret", "byop1": "private"}[name], False)
            text = records.record_text(records.history(name, await store.events(row.id)),
                                       title=game.title, game_id=row.id, names={}, result=None)
            assert text.splitlines()[-1].split("\t")[4] == "?"
            if name == "galaxies":   # bob's card: the reveal of both
                state = flow.state_of(await store.get_game(row.id))
                await flow.act(row.id, BOB, "move", str(game.legal_actions(state, str(BOB))[0]))
            else:                    # the game ends (and with it the round of private boards)
                await flow.act(row.id, BOB, "resign")
            hist = records.history(name, await store.events(row.id))
            assert hist.entries[0].shown and hist.entries[0].text == move
            assert records.action_text(hist.entries[0]) == move
    finally:
        await store.close()


async def test_a_rematch_survives_a_restart_even_between_the_last_accept_and_the_start(fake, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, seed=[51, 52, 53]) as bot:
        old, thread = await finished_relativity(fake, bot, alice, bob)
        result = fake.messages(thread)[-1]
        request = (await press(fake, alice, f"pp:rematch:{old.id}", message_id=result.id)).messages[-1]
        new_id = int(request.custom_ids()[0].split(":")[2])
        # bob's accept was stored, then the bot stopped before it could start the game
        await bot.store.accept_rematch(new_id, bob)
    async with running_bot(fake, db, seed=[54]) as bot:
        assert (await bot.store.get_game(new_id)).status == "lobby"
        await press(fake, bob, f"pp:rematch:{new_id}:accept", message_id=request.id)
        await settle(bot)
        started = await bot.store.get_game(new_id)
        assert started.status == "active" and started.player_ids == [bob, alice]
        assert "Everyone has accepted" in fake.message(request.id).content


async def test_replay_draws_each_board_as_the_thread_showed_it(fake, tmp_path, fixture_deal, svgs):
    """After every move, /replay of that move draws the very board the thread showed then
    (issue 21.11: trophies held beside an ace or a null were drawn in another order)."""
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    _, fixture_moves = read_ppn(FIXTURE)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        mover = {"S": alice, "T": bob}
        moves = [(mover[side], swap) for _, side, swap, _ in fixture_moves] + [(bob, "a1#a2")]

        async def replayed(number):
            res = await command(fake, carol, "replay", {"game": row.id, "move": number})
            (message,) = [m for m in res.messages if m.attachments]
            return svgs[message.attachments[0][1]]

        def live():
            return svgs[last_board_post(fake, thread).attachments[0][1]]

        assert await replayed(0) == live()
        for number, (who, swap) in enumerate(moves, 1):
            await command(fake, who, "move", {"move": swap}, channel=thread)
            await settle(bot)
            assert await replayed(number) == live(), f"move {number}"
        final = REL.view(REL.from_json((await bot.store.get_game(row.id)).state), None)
        held = {v for v, p in final["trophies"]["night"].items() if p == bob}
        assert held == {"2", "3", "a"}   # an ace beside numbers: what the issue saw


async def test_a_rematch_request_aborted_says_so_and_a_second_ask_links_to_it(fake, tmp_path):
    """(issue 21.12 and 21.15) /abort of a rematch request edits the request like a decline
    does; asking again while it is pending links to the request."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[51, 52]) as bot:
        old, thread = await finished_relativity(fake, bot, alice, bob)
        result = fake.messages(thread)[-1]
        request = (await press(fake, bob, f"pp:rematch:{old.id}", message_id=result.id)).messages[-1]
        new_id = int(request.custom_ids()[0].split(":")[2])

        again = said(await command(fake, alice, "play", {"rematch": old.id}, channel=thread))
        guild = (await bot.store.get_game(old.id)).guild_id
        assert f"https://discord.com/channels/{guild}/{thread}/{request.id}" in again

        refused = said(await command(fake, alice, "abort", {"game": new_id}, channel=thread))
        assert "Only the host" in refused and fake.message(request.id).custom_ids()
        res = await command(fake, bob, "abort", {"game": new_id}, channel=thread)
        assert f"Game #{new_id} was cancelled" in said(res)
        assert (await bot.store.get_game(new_id)).status == "cancelled"
        text = fake.message(request.id).content
        assert "cancelled by **bob**" in text and "waiting for" not in text
        assert fake.message(request.id).custom_ids() == []


async def test_results_and_counts_read_as_english(fake, tmp_path, fixture_deal, svgs):
    """(issue 21.13) "1 move", not "1 moves"; a reason that names the winner is not told after
    "won by bob" again; a hidden move is an "it"."""
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    _, fixture_moves = read_ppn(FIXTURE)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=[5, 6]) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        await command(fake, alice, "move", {"move": fixture_moves[0][2]}, channel=thread)
        assert "**Relativity #1**: 1 move so far." in (await record_of(fake, carol, row.id))[2]
        mover = {"S": alice, "T": bob}
        for _, side, swap, _ in fixture_moves[1:]:
            await command(fake, mover[side], "move", {"move": swap}, channel=thread)
        for who, swap in ((bob, "a1#b1"), (alice, "a1#b2"), (bob, "c1#d1")):   # Day: bob's molecules
            await command(fake, who, "move", {"move": swap}, channel=thread)
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "finished"
        lost = said(await command(fake, alice, "games", {"status": "finished"}))
        assert f"Relativity #{row.id}** with bob: **bob** wins with 7 trophies, ended" in lost, lost
        won = said(await command(fake, bob, "games", {"status": "finished"}))
        assert f"with alice: 🏆 **bob** wins with 7 trophies, ended" in won, won
        _, text, summary = await record_of(fake, carol, row.id)
        assert "Result: bob wins with 7 trophies" in text and "won" not in text
        assert "**Relativity #1**: 27 moves, finished." in summary

        lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (gw,) = await bot.store.games_of_user(int(alice), statuses=("active",))
        await command(fake, alice, "move", {"move": "4"}, channel=str(gw.thread_id))
        _, _, summary = await record_of(fake, carol, gw.id)
        assert "1 move so far. 1 secret or private move is not shown: it was not revealed yet." in summary

        refused = said(await command(fake, alice, "leaderboard", {"game": "galaxies"}))
        assert "Nobody has a rating for A Game Played by Galaxies in this server yet" in refused


def test_one_helper_makes_counts_and_articles():
    from bot import texts
    assert [texts.plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert texts.plural(3, "match", "matches") == "3 matches"
    assert [texts.verb(n, "is", "are") for n in (1, 2)] == ["is", "are"]
    assert [texts.a_or_an(w) for w in ("move", "ace", "hour", "unit", "8-day deadline")] == \
        ["a move", "an ace", "an hour", "a unit", "an 8-day deadline"]
    assert texts.a_or_an("A Game Played by Galaxies") == "A Game Played by Galaxies"
    assert texts.a_or_an("Relativity game") == "a Relativity game"
    assert [texts.duration(s) for s in (60, 120, 3600, 86400, 3 * 86400)] == \
        ["1 minute", "2 minutes", "1 hour", "1 day", "3 days"]
