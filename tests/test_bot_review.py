"""Review of the bot's edited posts: edits that Discord refuses or gives up while newer posts
wait, a turn post gone before its status edit, buttons posted by the first release (schema v1)
in games running at the upgrade, boards that cannot be drawn when a post is edited, and a draw
offer that lapses.

The fake Discord is not edited: a test swaps a handler of its route table (see `refuse`)."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

import engine
from bot import rendering
from bot.delivery import RETRY_DELAYS
from tests import fakediscord
from tests.botkit import (FakeClock, break_route, command, drawn, fake, open_game, press,  # noqa: F401
                          running_bot, said, settle)

GW = engine.get_game("global-warming")
EDIT_MESSAGE = ("PATCH", r"/channels/(\d+)/messages/(\d+)")


UNAVAILABLE = lambda: fakediscord._APIError(503, 0, "Service Unavailable")  # noqa: E731


def v1_stamp(game, state, player: str) -> str:
    """The stamp the first release (schema v1) put in its components' custom_ids."""
    prompt = game.prompt(state, player)
    actions = sorted(str(a) for a in game.legal_actions(state, player))
    text = repr((prompt.kind if prompt else None, actions))
    return hashlib.sha1(text.encode()).hexdigest()[:8]


async def two_player_warming(fake, bot, alice, bob):
    """A two-player Global Warming game, started and delivered: (game id, thread id)."""
    lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
    await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
    await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
    (row,) = await bot.store.games_of_user(int(alice))
    await settle(bot)
    return row.id, str(row.thread_id)


async def choose_face(fake, bot, user, face):
    dm = [m for m in fake.dms(user) if m.custom_ids()][-1]
    button = next(c for c in dm.custom_ids() if c.endswith(f":{face}"))
    res = await press(fake, user, button, message_id=dm.id)
    await settle(bot)
    return said(res)


async def state_of(bot, game_id):
    return GW.from_json((await bot.store.get_game(game_id)).state)


# ------------------------------------------------------------------ a refused edit, reposted late


async def test_a_refused_status_edit_is_not_reposted_after_the_reveal(fake, drawn, tmp_path):
    """The turn post is gone (a moderator deleted it) while its status edit waits to be
    retried; the reveal comes meanwhile. The old "1 of 2 chosen" post must not come back after
    the reveal, with live buttons, and take the place of the board post."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        turn_post = fake.messages(thread)[0]
        refused = break_route(fake, EDIT_MESSAGE, UNAVAILABLE, times=1)
        await choose_face(fake, bot, alice, "a")          # its status edit: 503, retried later
        assert refused
        fake.message(turn_post.id).deleted = True
        await choose_face(fake, bot, bob, "2")            # the last choice: the reveal
        reveal = fake.messages(thread)[-1]
        assert reveal.attachments and reveal.custom_ids()
        clock.advance(3600)
        await settle(bot)
        assert fake.messages(thread)[-1].id == reveal.id
        assert not any("chosen" in m.content for m in fake.messages(thread))

        # the actor's further steps follow the reveal post, the one with the controls
        state = await state_of(bot, game_id)
        (actor,) = GW.to_act(state)
        assert GW.view(state)["steps_left"] == 2
        step = next(c for c in fake.message(reveal.id).custom_ids() if c.startswith("pp:act:"))
        assert "Played" in said(await press(fake, actor, step, message_id=reveal.id))
        await settle(bot)
        assert fake.messages(thread)[-1].id == reveal.id
        assert "1 step left" in fake.message(reveal.id).content


# ------------------------------------------------------------------ games running at the upgrade


def to_schema_v1(db) -> None:
    """Turn the database back into what the first release left (schema v1), games included."""
    with sqlite3.connect(db) as conn:
        # every table a later migration added goes, whichever they are
        later = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT IN "
            "('games', 'seats', 'events', 'timers', 'outbox', 'meta', 'sqlite_sequence')")]
        conn.executescript(
            "".join(f"DROP TABLE {name}; " for name in later)
            + "DROP INDEX outbox_tag; DROP INDEX outbox_message; DROP INDEX games_lobby_message; "
            "ALTER TABLE outbox DROP COLUMN tag; "
            "ALTER TABLE outbox DROP COLUMN edit_of; ALTER TABLE seats DROP COLUMN dm_closed; "
            "ALTER TABLE games DROP COLUMN extras; "
            "ALTER TABLE timers DROP COLUMN claimed_by; ALTER TABLE timers DROP COLUMN lease_until; "
            "UPDATE meta SET value='1' WHERE key='schema_version';")


def as_v1(message, rewrite) -> None:
    """Give `message` (in the fake) the custom_ids the first release gave its components."""
    for row in message.components:
        for component in row.get("components", []):
            if "custom_id" in component:
                component["custom_id"] = rewrite(component["custom_id"])


@pytest.mark.sqlite_only   # the upgrade from a SQLite file of the first release
async def test_buttons_of_a_game_running_at_the_upgrade_still_play(fake, drawn, tmp_path):
    """A game in its act phase when the bot is upgraded: the step buttons under its board (as
    the first release made them) are the only controls there; they must still play."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        await choose_face(fake, bot, alice, "a")
        await choose_face(fake, bot, bob, "2")
        state = await state_of(bot, game_id)
    (actor,) = GW.to_act(state)
    board = fake.messages(thread)[-1]
    old = v1_stamp(GW, state, actor)
    as_v1(board, lambda custom_id: ":".join(
        part if n != 3 else old for n, part in enumerate(custom_id.split(":"))))
    to_schema_v1(db)
    async with running_bot(fake, db) as bot:
        step = next(c for c in fake.message(board.id).custom_ids() if c.startswith("pp:act:"))
        assert old in step
        res = await press(fake, actor, step, message_id=board.id)
        assert "Played" in said(res), said(res)


@pytest.mark.sqlite_only   # the upgrade from a SQLite file of the first release
async def test_a_secret_button_of_the_first_release_brings_the_current_ones(fake, drawn, tmp_path):
    """The first release's die-face buttons in a DM (no turn in their custom_id) cannot say
    which turn they were for: pressing one answers with the current controls, not with "use
    the latest ones" (the DM is the latest)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        state = await state_of(bot, game_id)
    (dm,) = fake.dms(alice)
    old = v1_stamp(GW, state, str(alice))
    as_v1(dm, lambda custom_id: f"pp:act:{game_id}:{old}:{custom_id.split(':')[-1]}")
    to_schema_v1(db)
    async with running_bot(fake, db) as bot:
        res = await press(fake, alice, f"pp:act:{game_id}:{old}:a", message_id=dm.id)
        answer = res.messages[-1]
        assert answer.ephemeral_to == str(alice)
        assert answer.custom_ids() and all(c.startswith(f"pp:sec:{game_id}:1:")
                                           for c in answer.custom_ids()), said(res)
        assert (await state_of(bot, game_id))["data"]["commits"] == {}

        # the game goes on: a choice with the controls given, the other by /move, the reveal
        face = next(c for c in answer.custom_ids() if c.endswith(":a"))
        assert "Your choice for turn 1" in said(await press(fake, alice, face, message_id=answer.id))
        await settle(bot)
        assert "1 of 2 chosen" in fake.messages(thread)[-1].content
        await command(fake, bob, "move", {"move": "2"}, channel=thread)
        await settle(bot)
        assert (await state_of(bot, game_id))["data"]["phase"] == "act"
        assert fake.messages(thread)[-1].attachments and fake.messages(thread)[-1].custom_ids()


# ------------------------------------------------------------------ an edited board not drawn


async def test_an_edited_board_that_cannot_be_drawn_loses_its_old_image(fake, drawn, tmp_path, monkeypatch):
    """The actor's board post is edited after each step. When the new board cannot be drawn,
    the text is updated without an image: the old image (the board before the step) must not
    stay under text that describes the new one."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        await choose_face(fake, bot, alice, "a")
        await choose_face(fake, bot, bob, "2")
        state = await state_of(bot, game_id)
        (actor,) = GW.to_act(state)
        assert GW.view(state)["steps_left"] == 2
        board = fake.messages(thread)[-1]
        before = board.attachments
        assert before

        def broken(board):
            raise RuntimeError("the renderer failed")

        monkeypatch.setattr(rendering, "draw_board", broken)
        step = next(c for c in board.custom_ids() if c.startswith("pp:act:"))
        assert "Played" in said(await press(fake, actor, step, message_id=board.id))
        await settle(bot)
        edited = fake.message(board.id)
        assert edited.edits and "1 step left" in edited.content
        assert edited.attachments != before


# ------------------------------------------------------------------ a draw offer that lapses


async def test_a_draw_offer_that_lapses_says_so_where_its_buttons_were(fake, drawn, tmp_path):
    """A move answers a standing draw offer (it lapses) without a word in the log: the offer
    post loses its Accept and Decline buttons, and must say why, or it still asks the others
    "do you accept the draw?" with nothing to press (and /draw accept is refused)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=4) as bot:
        row, thread = await open_game(fake, bot, alice, bob)
        await command(fake, alice, "draw", {"action": "offer"}, channel=thread)
        await settle(bot)
        offer = fake.messages(thread)[-1]
        assert offer.custom_ids() and "accept the draw" in offer.content
        choices = await fake.autocomplete(alice, "move", {"move": ""}, focused="move", channel=thread)
        res = await command(fake, alice, "move", {"move": choices[0]["value"]}, channel=thread)
        assert "Played" in said(res)
        await settle(bot)
        lapsed = fake.message(offer.id)
        assert lapsed.custom_ids() == []
        assert "offer is over" in lapsed.content


async def test_a_status_edit_given_up_does_not_leave_the_turn_post_its_buttons(fake, drawn, tmp_path):
    """Discord failed every try of a status edit (an outage), so it was given up; the turn
    post is still there. At the reveal, its controls must still be taken off."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        turn_post = fake.messages(thread)[0]
        refused = break_route(fake, EDIT_MESSAGE, UNAVAILABLE, times=len(RETRY_DELAYS) + 1)
        await choose_face(fake, bot, alice, "a")
        for delay in RETRY_DELAYS:
            clock.advance(delay)
            await settle(bot)
        assert len(refused) == len(RETRY_DELAYS) + 1 and await bot.store.outbox_waiting() == 0
        await choose_face(fake, bot, bob, "2")
        assert fake.messages(thread)[-1].custom_ids()          # the reveal, with the controls
        assert fake.message(turn_post.id).custom_ids() == []


async def test_a_turn_post_that_is_gone_comes_back_whole_with_the_status(fake, drawn, tmp_path):
    """The turn post was deleted before the first choice: the status edit cannot be made, so
    the post is made anew. It must show the board again, not only the text and the button
    (the players choose their faces looking at it)."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        game_id, thread = await two_player_warming(fake, bot, alice, bob)
        turn_post = fake.messages(thread)[0]
        assert turn_post.attachments
        fake.message(turn_post.id).deleted = True
        await choose_face(fake, bot, alice, "a")
        (again,) = fake.messages(thread)        # (deleted messages are not listed)
        assert "1 of 2 chosen" in again.content and again.custom_ids() == [f"pp:mine:{game_id}", f"pp:describe:{game_id}"]
        assert drawn[again.attachments[0][1]] == drawn[turn_post.attachments[0][1]]
