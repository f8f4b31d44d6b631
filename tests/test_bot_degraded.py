"""The bot against a Discord that lacks or refuses some routes, or answers with less than the real
one: a minimal fake written only from DESIGN.md's list, a proxy, a server having a bad minute.
Whatever fails, the interaction is answered without a false apology, the game state is stored,
and the board is posted somewhere the players see it. Also: the settings and start-up messages
for the DISCORD_* variables.

The fake (tests/fakediscord.py) is not edited: each test swaps handlers of its route table."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
import yarl
from aiohttp import web

import discord
from bot.commands import APOLOGY
from bot.delivery import RETRY_DELAYS
from bot.settings import SettingsError, apply_endpoints, load_settings
from bot.storage import Notice
from tests import fakediscord
from tests.botkit import (FakeClock, break_route, command, fake,  # noqa: F401
                          running_bot, said, settle, wrap_route)
from tests.pg import database_for

ROOT = Path(__file__).resolve().parents[1]

THREAD_FROM_MESSAGE = ("POST", r"/channels/(\d+)/messages/(\d+)/threads")
THREAD_ALONE = ("POST", r"/channels/(\d+)/threads")
POST_MESSAGE = ("POST", r"/channels/(\d+)/messages")
CREATE_DM = ("POST", r"/users/@me/channels")
CALLBACK = ("POST", r"/interactions/(\d+)/([^/]+)/callback")
FOLLOWUP = ("POST", r"/webhooks/(\d+)/([^/]+)")
GET_ORIGINAL = ("GET", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)")
EDIT_ORIGINAL = ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)")
EDIT_MESSAGE = ("PATCH", r"/channels/(\d+)/messages/(\d+)")

NOT_CHANGED = "nothing was changed"   # part of the apology: false once a change was stored
assert NOT_CHANGED in APOLOGY


# ---------------------------------------------------------------- breaking the fake's routes


def raw(status: int, text: str):
    """An answer as a plain aiohttp server gives it for a route it lacks (text, not JSON)."""
    return lambda: web.Response(status=status, text=text)


def api_error(status: int, code: int, message: str):
    return lambda: fakediscord._APIError(status, code, message)


MISSING = raw(404, "404: Not Found")
NOT_ALLOWED = raw(405, "405: Method Not Allowed")
FORBIDDEN = api_error(403, 50013, "Missing Permissions")
UNAVAILABLE = api_error(503, 0, "Service Unavailable")   # discord.py does not retry a 503 itself


def tracked(monkeypatch, bot, name: str) -> list:
    """Record each finished call of the controller's handler `name`, so a test can wait until
    the bot has done everything it does for an interaction (even when it sends nothing)."""
    controller = bot.controller
    original = getattr(controller, name)
    finished: list = []

    async def handler(*args, **kwargs):
        try:
            return await original(*args, **kwargs)
        finally:
            finished.append(args)

    monkeypatch.setattr(controller, name, handler)
    return finished


@pytest.fixture
def people(fake):
    return fake.add_user("alice"), fake.add_user("bob")


def boards(fake, channel_id) -> list:
    return [m for m in fake.messages(channel_id) if m.attachments]


def told(fake, res) -> str:
    """Everything the bot said through one interaction (original and follow-ups, any visibility)."""
    return "\n".join(m.text for m in [res.original, *res.followups] if m is not None)


async def play_and_join(fake, bot, monkeypatch, alice, bob):
    """/play by alice, Join by bob; returns (play result, join result, game row) once the bot has
    finished with both interactions and delivered what they queued."""
    finished = tracked(monkeypatch, bot, "lobby_pressed")
    play = await command(fake, alice, "play", {"game": "relativity"})
    lobby = play.original
    join = await fake.click(bob, lobby.button("Join"), message_id=lobby.id)
    await fake.wait_for(lambda: finished, timeout=10)
    await settle(bot)
    (row,) = await bot.store.games_of_user(int(alice))
    return play, join, row


async def first_move(fake, alice, bob, channel):
    """The player to act makes their first legal move, found through autocomplete in `channel`."""
    for user in (alice, bob):
        choices = await fake.autocomplete(user, "move", {"move": ""}, focused="move", channel=channel)
        if choices:
            return user, await command(fake, user, "move", {"move": choices[0]["value"]}, channel=channel)
    raise AssertionError("nobody has a legal move")


# ---------------------------------------------------------------- publishing the commands

PUT_COMMANDS = ("PUT", r"/applications/(\d+)/commands")


async def test_commands_answered_without_ids_still_count_as_published(fake, people, tmp_path, monkeypatch):
    """A fake that stores the definitions and answers with them as sent (no id, no
    application_id): discord.py cannot build AppCommands from that, but they were published."""
    alice, bob = people

    def echo(handler):
        async def put(req, *args):
            await handler(req, *args)
            return req.json
        return put

    wrap_route(fake, PUT_COMMANDS, echo)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        assert fake.command_publishes == 1
        assert await bot.store.get_meta("commands_hash") == bot.commands_hash()
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert row.status == "active"


async def test_a_failed_publish_does_not_stop_the_bot_and_is_tried_at_the_next_start(fake, people, tmp_path, monkeypatch):
    alice, bob = people
    db = tmp_path / "bot.sqlite3"
    failed = break_route(fake, PUT_COMMANDS, UNAVAILABLE, times=1)
    async with running_bot(fake, db, seed=7) as bot:
        assert failed and fake.command_publishes == 0
        assert await bot.store.get_meta("commands_hash") is None
    async with running_bot(fake, db, seed=7) as bot:
        assert fake.command_publishes == 1
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert row.status == "active"


# ---------------------------------------------------------------- threads


@pytest.mark.parametrize("answer", [MISSING, NOT_ALLOWED, FORBIDDEN, UNAVAILABLE],
                         ids=["missing", "not-allowed", "forbidden", "unavailable"])
async def test_without_threads_the_game_is_played_in_the_lobby_channel(fake, people, tmp_path, monkeypatch, answer):
    alice, bob = people
    break_route(fake, THREAD_FROM_MESSAGE, answer)
    break_route(fake, THREAD_ALONE, answer)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert row.status == "active" and row.state is not None
        assert NOT_CHANGED not in told(fake, join)
        assert not fake.threads
        assert len(boards(fake, fake.channel_id)) == 1

        mover, res = await first_move(fake, alice, bob, fake.channel_id)
        assert "Played" in said(res)
        await settle(bot)
        assert len(boards(fake, fake.channel_id)) == 2
        assert (await bot.store.get_game(row.id)).version > row.version


@pytest.mark.parametrize("answer", [MISSING, NOT_ALLOWED, UNAVAILABLE], ids=["missing", "not-allowed", "unavailable"])
async def test_a_thread_of_its_own_when_threads_from_messages_fail(fake, people, tmp_path, monkeypatch, answer):
    alice, bob = people
    failed = break_route(fake, THREAD_FROM_MESSAGE, answer)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert failed and row.status == "active"
        (thread,) = fake.threads
        assert thread.starter_message_id is None and row.thread_id == int(thread.id)
        assert len(boards(fake, thread.id)) == 1
        assert NOT_CHANGED not in told(fake, join)


async def test_posts_to_a_thread_discord_does_not_know_go_to_the_lobby_channel(fake, people, tmp_path, monkeypatch):
    """A fake that answers thread creation but keeps no thread channel; or a thread deleted by a
    moderator in the middle of a game."""
    alice, bob = people
    refused = break_route(fake, POST_MESSAGE, api_error(404, 10003, "Unknown Channel"),
                          when=lambda channel_id: channel_id != fake.channel_id)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert row.status == "active" and refused
        assert len(boards(fake, fake.channel_id)) == 1


# ---------------------------------------------------------------- interaction responses


async def test_a_lobby_message_that_cannot_be_edited_does_not_stop_the_game(fake, people, tmp_path, monkeypatch):
    alice, bob = people
    failed = break_route(fake, EDIT_ORIGINAL, MISSING)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert failed and row.status == "active"
        (thread,) = fake.threads
        assert len(boards(fake, thread.id)) == 1
        assert NOT_CHANGED not in told(fake, join)


@pytest.mark.parametrize("keep_resource", [True, False], ids=["resource-only", "bare"])
async def test_play_without_the_response_message_id(fake, people, tmp_path, monkeypatch, keep_resource):
    """A callback answer without `interaction.response_message_id` (and maybe without
    `resource.message`), and no GET .../messages/@original: the lobby still works."""
    alice, bob = people

    def thin(handler):
        async def callback(req, *args):
            body = await handler(req, *args)
            body["interaction"].pop("response_message_id", None)
            if not keep_resource:
                body["resource"].pop("message", None)
            return body
        return callback

    wrap_route(fake, CALLBACK, thin)
    break_route(fake, GET_ORIGINAL, MISSING)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert NOT_CHANGED not in told(fake, play)
        assert row.status == "active"
        (thread,) = fake.threads
        assert len(boards(fake, thread.id)) == 1
        if keep_resource:   # the id is in the resource: the thread hangs on the lobby message
            assert thread.starter_message_id == play.original.id


async def test_a_move_whose_confirmation_cannot_be_sent_is_still_played(fake, people, tmp_path, monkeypatch):
    alice, bob = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        (thread,) = fake.threads
        for user in (alice, bob):
            choices = await fake.autocomplete(user, "move", {"move": ""}, focused="move", channel=thread.id)
            if choices:
                break
        failed = break_route(fake, FOLLOWUP, MISSING)
        await fake.slash(user, "move", {"move": choices[0]["value"]}, channel=thread.id)
        await fake.wait_for(lambda: len(boards(fake, thread.id)) == 2, timeout=10)
        assert failed
        assert (await bot.store.get_game(row.id)).version > row.version


async def test_buttons_work_when_the_interaction_lacks_its_message(fake, people, tmp_path, monkeypatch):
    """discord.py runs a DynamicItem only if the interaction carries the message holding the
    component; a fake may send just the custom_id."""
    alice, bob = people
    dispatch = fakediscord._Session.dispatch
    stripped = []

    async def without_message(self, event, data):
        if event == "INTERACTION_CREATE" and data.get("type") == fakediscord.MESSAGE_COMPONENT:
            data = {k: v for k, v in data.items() if k != "message"}
            stripped.append(data["id"])
        await dispatch(self, event, data)

    monkeypatch.setattr(fakediscord._Session, "dispatch", without_message)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        assert join.id in stripped
        assert join.type is not None and row.status == "active"
        (thread,) = fake.threads
        assert len(boards(fake, thread.id)) == 1


# ---------------------------------------------------------------- the outbox


async def test_a_board_post_refused_by_a_server_error_is_posted_later_once(fake, people, tmp_path, monkeypatch):
    alice, bob = people
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=7) as bot:
        failed = break_route(fake, POST_MESSAGE, UNAVAILABLE, times=1)
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        (thread,) = fake.threads
        assert failed and boards(fake, thread.id) == []
        clock.advance(60)
        await settle(bot)
        assert len(boards(fake, thread.id)) == 1


async def test_a_short_answer_to_a_post_does_not_post_the_board_twice(fake, people, tmp_path, monkeypatch):
    """The message was created, but the answer lacks fields discord.py reads (type, content)."""
    alice, bob = people
    clock = FakeClock()

    def short(handler):
        async def post(req, *args):
            body = await handler(req, *args)
            return {"id": body["id"], "channel_id": body["channel_id"]}
        return post

    wrap_route(fake, POST_MESSAGE, short)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        (thread,) = fake.threads
        for _ in range(4):
            clock.advance(3600)
            await settle(bot)
        assert len(boards(fake, thread.id)) == 1


@pytest.mark.parametrize("answer", [MISSING, NOT_ALLOWED, FORBIDDEN], ids=["missing", "not-allowed", "forbidden"])
async def test_a_reminder_that_cannot_be_sent_as_a_dm_goes_to_the_thread(fake, people, tmp_path, monkeypatch, answer):
    alice, bob = people
    clock = FakeClock()
    failed = break_route(fake, CREATE_DM, answer)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=7, reminder_hours=1) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        (thread,) = fake.threads
        clock.advance(3601)
        await settle(bot)
        assert failed
        assert "reminder" in fake.messages(thread.id)[-1].content


# ---------------------------------------------------------------- settings and start-up


@pytest.mark.parametrize("given", [
    "http://127.0.0.1:5000", "http://127.0.0.1:5000/", "http://127.0.0.1:5000/api/v10",
    "http://127.0.0.1:5000/api/v10/"])
def test_the_api_base_may_be_given_with_or_without_the_api_path(given):
    settings = load_settings({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": given}, cwd=ROOT / "tests")
    assert settings.api_base == "http://127.0.0.1:5000/api/v10"


def test_a_proxy_path_in_the_api_base_is_kept():
    settings = load_settings({"DISCORD_TOKEN": "t", "DISCORD_API_BASE": "https://proxy.example/discord/api/v10/"},
                             cwd=ROOT / "tests")
    assert settings.api_base == "https://proxy.example/discord/api/v10"


@pytest.mark.parametrize("given", ["ws://127.0.0.1:5000", "ws://127.0.0.1:5000/",
                                   "ws://127.0.0.1:5000/?v=10&encoding=json", "wss://gw.example/path"])
def test_discord_py_adds_its_own_query_to_the_gateway_url(given, monkeypatch):
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    apply_endpoints(load_settings({"DISCORD_TOKEN": "t", "DISCORD_GATEWAY_URL": given}, cwd=ROOT / "tests"))
    url = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY.with_query(v=10, encoding="json")
    want = yarl.URL(given)
    assert (url.scheme, url.host, url.port, url.path or "/") == (want.scheme, want.host, want.port, want.path or "/")
    assert dict(url.query) == {"v": "10", "encoding": "json"}


@pytest.mark.parametrize("name, value", [("DISCORD_GATEWAY_URL", "127.0.0.1:5000"),
                                         ("DISCORD_GATEWAY_URL", "gateway.example"),
                                         ("DISCORD_API_BASE", "127.0.0.1:5000/api/v10")])
def test_urls_without_a_scheme_are_refused_with_a_message(name, value):
    with pytest.raises(SettingsError, match=name):
        load_settings({"DISCORD_TOKEN": "t", name: value}, cwd=ROOT / "tests")


def process_env(fake, tmp_path, env: dict) -> dict:
    values = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
              "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.base_url,
              "DISCORD_GATEWAY_URL": fake.gateway_url, "PIECEPACK_DB": database_for(tmp_path / "db.sqlite3"),
              "PIECEPACK_GUILD_READY_TIMEOUT": "0.05",
              "PIECEPACK_IDENTIFY_SPACING": "0"}   # (Discord's 5 s: not in tests)
    for key, value in env.items():
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    return values


async def run_bot_process(fake, tmp_path, **env) -> tuple[int, str]:
    """`python -m bot` with the fake's settings changed by `env` (None removes a variable), for
    a start that should end by itself; returns (exit code, output)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=process_env(fake, tmp_path, env),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        output, _ = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, output.decode(errors="replace")


async def test_python_m_bot_without_a_token_says_how_to_get_one(fake, tmp_path):
    code, output = await run_bot_process(fake, tmp_path, DISCORD_TOKEN=None)
    assert code == 2
    assert "DISCORD_TOKEN is not set" in output and "Traceback" not in output


async def test_python_m_bot_with_a_refused_token_exits_with_a_message(fake, tmp_path):
    code, output = await run_bot_process(fake, tmp_path, DISCORD_TOKEN="not-the-token")
    assert code == 1
    assert "refused the token" in output and "Traceback" not in output
    assert "not-the-token" not in output


async def test_python_m_bot_that_cannot_reach_the_gateway_says_which_setting(fake, tmp_path):
    code, output = await run_bot_process(fake, tmp_path, DISCORD_GATEWAY_URL="ws://127.0.0.1:9/")
    assert code == 1
    assert "DISCORD_GATEWAY_URL" in output
    assert "AttributeError" not in output     # discord.py's own failure when it never connected


@pytest.mark.parametrize("suffix", ["", "/"])
async def test_python_m_bot_with_the_api_base_at_the_host_root_connects(fake, tmp_path, suffix):
    env = process_env(fake, tmp_path, {"DISCORD_API_BASE": f"http://127.0.0.1:{fake.port}{suffix}"})
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    try:
        await fake.wait_for(lambda: proc.returncode is not None or (fake.command_publishes and fake.connected),
                            timeout=30)
        assert proc.returncode is None and fake.command_publishes == 1
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_a_bot_woken_just_as_it_closes_still_stops(fake, tmp_path):
    """A SIGTERM once left the bot running: on Python 3.11, asyncio.wait_for returns normally
    when it is cancelled just as what it waits for is done, so the background loop, woken by new
    work in the same instant as close() cancelled it, went round again and close() waited on it
    for ever."""
    async with running_bot(fake, tmp_path / "bot.sqlite3") as bot:
        for _ in range(20):   # let the background loop reach its idle wait
            await asyncio.sleep(0.01)
        closing = asyncio.ensure_future(bot.close())
        bot.wake()   # its event is set in the same round of the loop as close() cancels the loop
        # asyncio.wait, not wait_for: cancelling close() at the timeout would cancel the loop
        # a second time, and that one would stop it
        done, _ = await asyncio.wait({closing}, timeout=10)
        assert closing in done, "close() still waits for the background loop"


@pytest.mark.parametrize("answer", [MISSING, FORBIDDEN, UNAVAILABLE], ids=["missing", "forbidden", "unavailable"])
async def test_a_discord_that_refuses_edits_still_gets_every_board(fake, people, tmp_path, monkeypatch, answer):
    """Old controls are taken off by editing messages; when Discord will not edit, the game
    goes on and every board is posted."""
    alice, bob = people
    clock = FakeClock()
    refused = break_route(fake, EDIT_MESSAGE, answer)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=7) as bot:
        play, join, row = await play_and_join(fake, bot, monkeypatch, alice, bob)
        (thread,) = fake.threads
        for _ in range(2):
            mover, res = await first_move(fake, alice, bob, thread.id)
            assert "Played" in said(res)
            await settle(bot)
        assert refused and len(boards(fake, thread.id)) == 3
        for _ in RETRY_DELAYS + (0,):   # past every retry
            clock.advance(3600)
            await settle(bot)
        assert await bot.store.outbox_waiting() == 0


async def test_a_dm_refused_only_after_its_game_ended_leaves_no_live_button(fake, people, tmp_path):
    """bob's DMs are closed, and Discord has a bad minute when the game's first DMs go out (they
    wait to be tried again); meanwhile the game ends. When bob's DM is then refused, no "Open my
    private controls" button is posted for a game that is over, nor any DM with live controls."""
    alice, bob = people
    clock = FakeClock()
    fake.close_dms(bob)
    bad_minute = [True]
    failed = break_route(fake, CREATE_DM, UNAVAILABLE, when=lambda *args: bad_minute[0])
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock, seed=7) as bot:
        lobby = (await command(fake, alice, "play", {"game": "galaxies"})).original
        await fake.click(bob, lobby.button("Join"), message_id=lobby.id)
        thread = await fake.wait_for(lambda: fake.threads and fake.threads[0].id, timeout=10)
        await fake.wait_for(lambda: fake.messages(thread), timeout=10)
        await settle(bot)
        assert failed   # the secret choices' DMs are waiting
        await command(fake, alice, "resign", {}, channel=thread)
        await settle(bot)
        assert any("🏁" in m.content for m in fake.messages(thread))
        bad_minute[0] = False
        clock.advance(3600)
        await settle(bot)
        live = [m for m in fake.all_messages if not m.ephemeral and not m.deleted
                and any(c.get("custom_id") and not c.get("disabled")
                        and not c["custom_id"].startswith("pp:rematch:") for c in m.all_components())]
        assert live == []


async def test_a_fallback_queued_while_the_game_ends_loses_its_button(fake, people, tmp_path, monkeypatch):
    """A closed-DM fallback queued between the planning of the game's last change and its
    commit (a DM refused at that moment) is stripped by the end like every earlier post: the
    end reads the posts with controls in its own transaction."""
    alice, bob = people
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7) as bot:
        lobby = (await command(fake, alice, "play", {"game": "galaxies"})).original
        await fake.click(bob, lobby.button("Join"), message_id=lobby.id)
        thread = await fake.wait_for(lambda: fake.threads and fake.threads[0].id, timeout=10)
        await fake.wait_for(lambda: fake.messages(thread), timeout=10)
        await settle(bot)
        (row,) = await bot.store.games_of_user(int(alice))
        store, commit = bot.store, bot.store.commit

        async def commit_after_a_refused_dm(game_id, version, **kwargs):
            if kwargs.get("changes", {}).get("status") not in (None, "active"):
                await store.add_notices(game_id, [Notice("channel", int(thread), {
                    "content": f"<@{bob}>, I cannot send you direct messages: press the button.",
                    "controls": [["mine", game_id, "Open my private controls"]]})], bot.now())
            return await commit(game_id, version, **kwargs)

        monkeypatch.setattr(store, "commit", commit_after_a_refused_dm)
        await command(fake, alice, "resign", {}, channel=thread)
        await settle(bot)
        assert (await store.get_game(row.id)).status == "finished"
        fallback = [m for m in fake.messages(thread) if "cannot send you direct messages" in m.content]
        assert fallback, "the fallback was posted"
        live = [m for m in fake.all_messages if not m.ephemeral and not m.deleted
                and any(c.get("custom_id") and not c.get("disabled")
                        and not c["custom_id"].startswith("pp:rematch:") for c in m.all_components())]
        assert live == []
