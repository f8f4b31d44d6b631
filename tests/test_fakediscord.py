"""The fake Discord driven by a real discord.py bot: login, sync, slash commands, buttons,
selects, autocomplete, modals, files, DMs, threads, restarts, and Discord's refusals."""

from __future__ import annotations

import asyncio
import io
import logging
import re

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, FakeDiscordError, InteractionFailed

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (3).to_bytes(4, "big") + (2).to_bytes(4, "big") + b"rest"


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"game:(?P<id>\d+):join"):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="Join", style=discord.ButtonStyle.primary,
                                           custom_id=f"game:{game_id}:join"))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        where = "dm" if interaction.guild is None else interaction.user.display_name
        await interaction.response.send_message(f"joined game {self.game_id} ({where})", ephemeral=True)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"game:(?P<id>\d+):pick"):
    def __init__(self, game_id: int) -> None:
        options = [discord.SelectOption(label=f"Coin {v}", value=v) for v in ("a", "2", "3")]
        super().__init__(discord.ui.Select(custom_id=f"game:{game_id}:pick", options=options))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # Deferred update, then an edit of the message the select was on.
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"picked {self.item.values[0]}", view=None)


class MoveModal(discord.ui.Modal, title="Your move"):
    move = discord.ui.TextInput(label="Move", custom_id="move-text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"modal move {self.move.value}", ephemeral=True)


def make_bot(log: list) -> commands.Bot:
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
                       guild_ready_timeout=0.05)

    @bot.tree.command(description="Open a lobby")
    @app_commands.choices(game=[app_commands.Choice(name="Relativity", value="relativity"),
                                app_commands.Choice(name="Global Warming", value="global-warming")])
    async def play(interaction: discord.Interaction, game: str, opponent: discord.Member | None = None):
        await interaction.response.defer(thinking=True)
        log.append(("play", interaction.user.display_name, game, opponent))
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(42))
        view.add_item(PickSelect(42))
        against = f" against {opponent.display_name}" if opponent else ""
        await interaction.followup.send(f"{game}{against}", file=discord.File(io.BytesIO(PNG), "board.png"),
                                        view=view)

    @bot.tree.command(description="Play a move")
    async def move(interaction: discord.Interaction, move: str):
        await interaction.response.send_message(f"moved {move}", ephemeral=True)

    @move.autocomplete("move")
    async def move_autocomplete(interaction: discord.Interaction, current: str):
        log.append(("autocomplete", current))
        return [app_commands.Choice(name=m, value=m) for m in ("a1", "b2", "d3", "d4") if m.startswith(current[:1])]

    @bot.tree.command(description="Send someone a DM")
    async def poke(interaction: discord.Interaction, target: discord.User):
        try:
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(7))
            await target.send("your turn", view=view)
        except discord.Forbidden as error:
            await interaction.response.send_message(f"closed {error.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(description="Start a game thread")
    async def thread(interaction: discord.Interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)
        lobby = await interaction.channel.send("lobby open")
        created = await lobby.create_thread(name="relativity 1")
        await created.add_user(interaction.user)
        await created.send("board here")
        log.append(("thread", created.id, bot.get_channel(created.id) is not None))
        await lobby.edit(content="lobby closed")
        await created.edit(archived=True)  # discord.py drops archived threads from its cache
        await interaction.followup.send(f"thread {created.id}")

    @bot.tree.command(description="Say too much")
    async def chatty(interaction: discord.Interaction):
        await interaction.response.send_message("x" * 2001)

    @bot.tree.command(description="Answer twice")
    async def twice(interaction: discord.Interaction):
        await interaction.response.send_message("one")
        try:
            await interaction.client.http.request(discord.http.Route(
                "POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token),
                json={"type": 4, "data": {"content": "two"}})
        except discord.HTTPException as error:
            log.append(("twice", error.status, error.code))

    @bot.tree.command(description="Slow")
    async def slow(interaction: discord.Interaction):
        await asyncio.sleep(0.3)
        try:
            await interaction.response.send_message("late")
        except discord.NotFound as error:
            log.append(("slow", error.code))

    @bot.tree.command(description="Secret after a public defer")
    async def secret(interaction: discord.Interaction):
        await interaction.response.defer()
        await interaction.followup.send("the secret", ephemeral=True)
        await interaction.followup.send("second, truly ephemeral", ephemeral=True)

    @bot.tree.command(description="Ask with a modal")
    async def ask(interaction: discord.Interaction):
        await interaction.response.send_modal(MoveModal())

    @bot.tree.command(description="Call a route the fake lacks")
    async def unknown(interaction: discord.Interaction):
        try:
            await interaction.client.http.request(discord.http.Route("GET", "/voice/regions"))
        except discord.NotFound:
            await interaction.response.send_message("404", ephemeral=True)

    @bot.tree.command(description="Show the board, then a newer one")
    async def board(interaction: discord.Interaction):
        await interaction.response.send_message("board", file=discord.File(io.BytesIO(PNG), "old.png"))
        await interaction.edit_original_response(attachments=[discord.File(io.BytesIO(b"new"), "new.png")])

    gate = asyncio.Event()
    bot.gate = gate

    @bot.tree.command(description="Answer after the test opens the gate")
    async def later(interaction: discord.Interaction):
        await interaction.response.defer()
        await gate.wait()
        try:
            await interaction.followup.send("too late")
        except discord.HTTPException as error:
            log.append(("later", error.code))

    @bot.event
    async def on_message(message: discord.Message) -> None:
        if message.author != bot.user:
            log.append(("message", message.author.name, message.content))

    draw = app_commands.Group(name="draw", description="Draw offers")

    @draw.command(description="Accept a draw")
    async def accept(interaction: discord.Interaction):
        await interaction.response.send_message(f"accepted by {interaction.user.name}")

    bot.tree.add_command(draw)

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton, PickSelect)
        await bot.tree.sync()

    bot.setup_hook = setup_hook
    return bot


@pytest.fixture
async def fake():
    async with FakeDiscord() as fake:
        fake.patch_discord()
        yield fake


class Running:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake, self.log = fake, []
        self.bot = make_bot(self.log)

    async def __aenter__(self) -> Running:
        self.task = asyncio.create_task(self.bot.start(self.fake.token))
        await self.fake.wait_for(lambda: self.bot.is_ready() or self.task.done(), timeout=5)
        if self.task.done():
            self.task.result()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.bot.close()
        await self.task


async def test_login_sync_slash_defer_followup_file_and_components(fake):
    alice, bob = fake.add_user("alice", display_name="Alice"), fake.add_user("bob", display_name="Bob")
    async with Running(fake) as running:
        assert fake.identify_count == 1
        assert fake.command_publishes == 1
        names = {c["name"] for c in fake.published_commands[None]}
        assert {"play", "move", "poke", "thread", "draw"} <= names
        assert fake.command("play")["options"][0]["choices"][0]["value"] == "relativity"

        res = await fake.slash(alice, "play", {"game": "relativity", "opponent": bob})
        assert res.type == 5 and res.deferred and not res.ephemeral
        await res.done()
        assert running.log[0][:3] == ("play", "Alice", "relativity")
        assert running.log[0][3].display_name == "Bob"
        msg = res.original
        assert not msg.loading and msg.content == "relativity against Bob"
        assert msg.attachments == [("board.png", PNG)] == res.files
        assert res.followups == [msg]  # the first follow-up replaced the "thinking" message
        assert fake.messages() == [msg]
        assert msg.button("Join") == "game:42:join"
        assert [o["value"] for o in msg.select_options()] == ["a", "2", "3"]

        joined = await fake.click(bob, msg.button("Join"), message_id=msg.id)
        assert joined.type == 4 and joined.ephemeral
        assert joined.original.content == "joined game 42 (Bob)"
        assert fake.messages() == [msg]  # ephemeral replies are not channel messages
        assert fake.ephemerals(bob) == [joined.original]

        picked = await fake.select(alice, "game:42:pick", ["3"])
        assert picked.type == 6 and picked.deferred
        await picked.done()
        assert picked.original is msg and msg.content == "picked 3" and msg.components == []
        assert msg.attachments == [("board.png", PNG)]  # an edit keeps the attachments

        # Every request body the bot sent is recorded, files decoded.
        assert fake.search_payloads(PNG)
        [joined_record] = fake.search_payloads("joined game 42")
        assert (joined_record.user_id, joined_record.channel_id) == (bob, fake.channel_id)
        assert not fake.search_payloads(fake.token)
        assert not fake.unknown_routes


async def test_autocomplete_returns_the_bots_choices(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        choices = await fake.autocomplete(alice, "move", {"move": "d"}, focused="move")
        assert choices == [{"name": "d3", "value": "d3"}, {"name": "d4", "value": "d4"}]
        assert running.log == [("autocomplete", "d")]
        res = await fake.slash(alice, "move", {"move": "d3"})
        assert res.original.content == "moved d3" and res.ephemeral


async def test_dm_sent_and_closed_dm_refused_with_50007(fake):
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    fake.close_dms(carol)
    async with Running(fake):
        res = await fake.slash(alice, "poke", {"target": bob})
        assert res.original.content == "sent"
        [dm] = fake.dms(bob)
        assert dm.content == "your turn" and dm.channel_id == fake.dm_channel(bob)

        # A button in a DM: the interaction comes without a guild.
        pressed = await fake.click(bob, "game:7:join")
        assert pressed.original.content == "joined game 7 (dm)"

        res = await fake.slash(alice, "poke", {"target": carol})
        assert res.original.content == "closed 50007"
        assert fake.dms(carol) == []
        assert [e["code"] for e in fake.error_responses] == [50007]


async def test_thread_from_a_message_with_members_messages_edits(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        res = await fake.slash(alice, "thread")
        await res.done()
        [thread] = fake.threads
        [lobby] = fake.messages()
        assert thread.name == "relativity 1" and thread.parent_id == fake.channel_id
        assert thread.starter_message_id == lobby.id == thread.id  # as on Discord
        assert lobby.content == "lobby closed" and lobby.edits == 1
        assert alice in thread.member_ids and thread.archived
        assert [m.content for m in fake.messages(thread.id)] == ["board here"]
        assert running.log == [("thread", int(thread.id), True)]  # THREAD_CREATE reached the cache
        # The follow-up replaced the ephemeral "thinking" message, and stayed ephemeral.
        assert res.original.content == f"thread {thread.id}" and res.ephemeral
        assert fake.ephemerals(alice) == [res.original]
        # Commands work inside the thread too.
        res = await fake.slash(alice, "move", {"move": "a1"}, channel=thread.id)
        assert res.original.channel_id == thread.id


async def test_second_bot_instance_after_the_first_closes(fake):
    alice = fake.add_user("alice")
    async with Running(fake):
        res = await fake.slash(alice, "play", {"game": "global-warming"})
        await res.done()
    assert not fake.connected
    async with Running(fake):
        assert fake.identify_count == 2 and fake.command_publishes == 2
        # A button from the first instance's message still works (DynamicItem).
        pressed = await fake.click(alice, "game:42:join", message_id=res.original.id)
        assert pressed.original.content.startswith("joined game 42")
        assert len(fake.messages()) == 1


async def test_refusals_too_long_double_answer_late_answer(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        with pytest.raises(InteractionFailed, match="50035"):
            await fake.slash(alice, "chatty")
        assert fake.error_responses[-1]["errors"] == {
            "content": {"_errors": [{"code": "INVALID", "message": "Must be 2000 or fewer in length."}]}}

        await fake.slash(alice, "twice")
        await fake.wait_for(lambda: ("twice", 400, 40060) in running.log)

        fake.response_deadline = 0.1
        with pytest.raises(InteractionFailed, match="no response"):
            await fake.slash(alice, "slow")
        await fake.wait_for(lambda: ("slow", 10062) in running.log)


async def test_followup_after_a_public_defer_is_public(fake):
    alice = fake.add_user("alice")
    async with Running(fake):
        res = await fake.slash(alice, "secret")
        await fake.wait_for(lambda: len(res.followups) == 2)
        first, second = res.followups
        assert first is res.original and not first.ephemeral and first.content == "the secret"
        assert first in fake.messages()
        assert second.ephemeral and second.ephemeral_to == alice and second not in fake.messages()


async def test_modal_and_subcommand(fake):
    alice = fake.add_user("alice")
    async with Running(fake):
        res = await fake.slash(alice, "ask")
        assert res.type == 9 and res.modal["title"] == "Your move"
        submitted = await fake.submit_modal(res, {"move-text": "b2"})
        assert submitted.original.content == "modal move b2"

        res = await fake.slash(alice, "draw accept")
        assert res.original.content == "accepted by alice"


async def test_test_mistakes_are_value_errors(fake):
    alice = fake.add_user("alice")
    async with Running(fake):
        with pytest.raises(ValueError, match="not published"):
            await fake.slash(alice, "nope")
        with pytest.raises(ValueError, match="no options"):
            await fake.slash(alice, "move", {"move": "a1", "extra": 1})
        with pytest.raises(ValueError, match="needs option 'game'"):
            await fake.slash(alice, "play", {})
        with pytest.raises(ValueError, match="takes one of"):
            await fake.slash(alice, "play", {"game": "chess"})
        with pytest.raises(ValueError, match="needs a subcommand"):
            await fake.slash(alice, "draw")
        with pytest.raises(ValueError, match="sees no component"):
            await fake.click(alice, "game:1:join")


async def test_unknown_route_is_recorded_and_answered_404(fake, caplog):
    alice = fake.add_user("alice")
    async with Running(fake):
        with caplog.at_level(logging.ERROR, logger="fakediscord"):
            res = await fake.slash(alice, "unknown")
        assert res.original.content == "404"
        assert fake.unknown_routes == ["GET /voice/regions"]
        assert "FAKE DISCORD HAS NO ROUTE GET /voice/regions" in caplog.text


async def test_reconnect_resumes_and_interactions_still_arrive(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        resumed = asyncio.Event()

        async def on_resumed() -> None:
            resumed.set()

        running.bot.add_listener(on_resumed)
        fake.request_reconnect()
        await asyncio.wait_for(resumed.wait(), 5)
        assert fake.identify_count == 1
        res = await fake.slash(alice, "move", {"move": "a1"})
        assert res.original.content == "moved a1"


async def test_wrong_token_is_refused(fake):
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


async def test_member_permissions_reach_the_interaction(fake):
    alice, mod = fake.add_user("alice"), fake.add_user("mod")
    fake.set_permissions(mod, manage_messages=True)
    seen = {}

    async with Running(fake) as running:
        @running.bot.listen("on_interaction")
        async def record(interaction: discord.Interaction) -> None:
            seen[interaction.user.name] = interaction.permissions.manage_messages

        await fake.slash(alice, "move", {"move": "a1"})
        await fake.slash(mod, "move", {"move": "a1"})
        await fake.wait_for(lambda: len(seen) == 2)
        assert seen == {"alice": False, "mod": True}

        # Changes while the bot is connected reach it too.
        late = fake.add_user("late")
        role = fake.set_permissions(late, administrator=True)
        guild = running.bot.get_guild(int(fake.guild_id))
        await fake.wait_for(lambda: guild.get_role(int(role)) is not None)
        await fake.slash(late, "move", {"move": "a1"})
        await fake.wait_for(lambda: "late" in seen)
        assert seen["late"] is True


async def test_wait_for_times_out_with_a_clear_error(fake):
    with pytest.raises(FakeDiscordError, match="never"):
        await fake.wait_for(lambda: False, timeout=0.02, message="never")


async def test_content_type_is_exactly_application_json(fake):
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.base_url}/users/@me", headers={"Authorization": f"Bot {fake.token}"}) as r:
            assert r.headers["Content-Type"] == "application/json"
            assert (await r.json())["id"] == fake.bot_user_id
        async with session.get(f"{fake.base_url}/users/@me") as r:
            assert r.status == 401
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/api/v10", fake.base_url)


async def test_guild_commands_private_threads_and_dm_commands(fake):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with Running(fake) as running:
        guild = discord.Object(int(fake.guild_id))
        running.bot.tree.copy_global_to(guild=guild)
        await running.bot.tree.sync(guild=guild)
        assert fake.command_publishes == 2
        assert fake.published_commands[fake.guild_id][0]["guild_id"] == fake.guild_id
        res = await fake.slash(alice, "move", {"move": "b2"})
        assert res.payload["data"]["guild_id"] == fake.guild_id  # the guild copy answers
        assert res.original.content == "moved b2"

        # A global command in the user's DM with the bot.
        res = await fake.slash(bob, "move", {"move": "d4"}, channel=fake.dm_channel(bob, create=True))
        assert "member" not in res.payload and res.original.content == "moved d4"

        # A private thread is visible to its members only.
        channel = running.bot.get_channel(int(fake.channel_id))
        private = await channel.create_thread(name="secret", type=discord.ChannelType.private_thread)
        await private.add_user(discord.Object(int(alice)))
        assert fake.thread("secret").type == 12
        await fake.slash(alice, "move", {"move": "a1"}, channel=private.id)
        with pytest.raises(ValueError, match="cannot see"):
            await fake.slash(bob, "move", {"move": "a1"}, channel=private.id)


async def test_discord_limits_on_raw_requests(fake):
    import aiohttp

    url = f"{fake.base_url}/channels/{fake.channel_id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}

    def row(*buttons):
        return {"type": 1, "components": list(buttons)}

    def button(custom_id, label="b"):
        return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}

    async with aiohttp.ClientSession(headers=auth) as session:
        async def post(payload, **kwargs):
            async with session.post(url, json=payload, **kwargs) as response:
                return response.status, await response.json()

        assert (await post({"content": "x" * 2000}))[0] == 200
        status, body = await post({"content": ""})
        assert (status, body["code"]) == (400, 50006)
        status, body = await post({"components": [row(*(button(f"b{i}") for i in range(6)))]})
        assert (status, body["code"]) == (400, 50035)
        status, body = await post({"components": [row(button("same"), button("same"))]})
        assert "cannot be duplicated" in str(body["errors"])
        status, body = await post({"components": [row(button("c" * 101))]})
        assert "custom_id" in str(body["errors"])
        status, body = await post({"components": [row(button(f"r{i}")) for i in range(6)]})
        assert status == 400
        options = [{"label": str(i), "value": str(i)} for i in range(26)]
        status, body = await post({"components": [row({"type": 3, "custom_id": "s", "options": options})]})
        assert "1 to 25 options" in str(body["errors"])
        status, body = await post({"content": "hi", "flags": 1 << 15, "components": [{"type": 10, "content": "t"}]})
        assert "IS_COMPONENTS_V2" in str(body["errors"])
        assert (await post({"flags": 1 << 15, "components": [{"type": 10, "content": "t"}]}))[0] == 200

        form = aiohttp.FormData(quote_fields=False)
        form.add_field("payload_json", '{"content": "big", "attachments": [{"id": 0, "filename": "big.png"}]}')
        form.add_field("files[0]", b"x" * (10 * 1024 * 1024 + 1), filename="big.png")
        async with session.post(url, data=form) as response:
            assert (response.status, (await response.json())["code"]) == (413, 40005)

        async with session.put(f"{fake.base_url}/applications/{fake.application_id}/commands",
                               json=[{"name": "Bad Name", "description": "x"}]) as response:
            assert response.status == 400
        assert fake.command_publishes == 0
    assert [m.content for m in fake.messages()] == ["x" * 2000, ""]


async def test_callback_file_edit_replaces_attachments_and_expired_tokens(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        res = await fake.slash(alice, "board")
        await fake.wait_for(lambda: res.original.edits == 1)
        assert res.original.attachments == [("new.png", b"new")]
        assert res.files == [("old.png", PNG), ("new.png", b"new")]

        res = await fake.slash(alice, "later")
        fake.expire_interactions()
        running.bot.gate.set()
        await fake.wait_for(lambda: ("later", 50027) in running.log)
        assert res.original.loading  # never answered


async def test_user_messages_reach_the_bot_without_content_intent(fake):
    alice = fake.add_user("alice")
    async with Running(fake) as running:
        await fake.say(alice, "hello bot")
        await fake.wait_for(lambda: ("message", "alice", "") in running.log)
        channel = running.bot.get_channel(int(fake.channel_id))
        await channel.send("one")
        await channel.send("two")
        history = [m.content async for m in channel.history(limit=2)]
        assert history == ["two", "one"]
        after = [m.content async for m in channel.history(after=discord.Object(int(fake.messages()[0].id)))]
        assert after == ["one", "two"]


async def test_strict_mode_fails_on_unknown_routes():
    fake = FakeDiscord(strict=True)
    await fake.start()
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.get(f"{fake.base_url}/nothing/here") as response:
            assert response.status == 404 and response.headers["Content-Type"] == "application/json"
    with pytest.raises(FakeDiscordError, match="GET /nothing/here"):
        await fake.stop()



async def test_form_parts_read_what_aiohttps_reader_reads():
    """The fake's own multipart parser agrees with aiohttp's reader on forms as discord.py
    writes them (quote_fields=False: raw UTF-8, backslash escapes), binary data included."""
    import aiohttp
    from aiohttp import web

    from tests.fakediscord import _form_parts

    def form() -> aiohttp.FormData:
        made = aiohttp.FormData(quote_fields=False)
        made.add_field("payload_json", '{"content": "h\\u00e9"}', content_type="application/json")
        made.add_field("files[0]", PNG + b"\r\n--not-a-boundary\r\n" + bytes(range(256)),
                       filename="board.png")
        made.add_field("files[1]", b"", filename='sa"id\\ caf\u00e9.txt')
        return made

    async def theirs(request):
        return web.json_response([[part.name, part.filename, list(bytes(await part.read()))]
                                  async for part in await request.multipart()])

    async def ours(request):
        parts = _form_parts(await request.read(), request.headers["Content-Type"])
        return web.json_response([[name, filename, list(data)] for name, filename, data in parts])

    app = web.Application()
    app.router.add_post("/theirs", theirs)
    app.router.add_post("/ours", ours)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        async with aiohttp.ClientSession() as session:
            read = {}
            for route in ("theirs", "ours"):
                async with session.post(f"http://127.0.0.1:{port}/{route}", data=form()) as response:
                    read[route] = await response.json()
    finally:
        await runner.cleanup()
    assert read["ours"] == read["theirs"]
    assert [(name, filename) for name, filename, _ in read["ours"]] == [
        ("payload_json", None), ("files[0]", "board.png"), ("files[1]", 'sa"id\\ caf\u00e9.txt')]


# ---- shards ------------------------------------------------------------------------------------


class RawSession:
    """A bare gateway connection (no discord.py): IDENTIFY with `shard`, then read events."""

    def __init__(self, fake: FakeDiscord, shard):
        self.fake, self.shard = fake, shard
        self.events: list[tuple[str, dict]] = []

    async def __aenter__(self):
        import aiohttp

        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(self.fake.gateway_url)
        await self.ws.receive_json()   # HELLO
        identify = {"token": self.fake.token, "intents": 1 << 9 | 1 << 12 | 1, "properties": {}}
        if self.shard is not None:
            identify["shard"] = list(self.shard)
        await self.ws.send_json({"op": 2, "d": identify})
        self.reader = asyncio.create_task(self._read())
        await self.fake.wait_ready()
        return self

    async def _read(self):
        async for frame in self.ws:
            payload = frame.json()
            if payload.get("op") == 0:
                self.events.append((payload["t"], payload["d"]))
                if payload["t"] == "INTERACTION_CREATE":   # answer, as a bot would
                    d = payload["d"]
                    await self.http.post(f"{self.fake.base_url}/interactions/{d['id']}/{d['token']}/callback",
                                         json={"type": 4, "data": {"content": "ok"}},
                                         headers={"Authorization": f"Bot {self.fake.token}"})

    def guilds(self) -> list[str]:
        return [d["id"] for t, d in self.events if t == "GUILD_CREATE"]

    async def __aexit__(self, *exc):
        self.reader.cancel()
        await self.ws.close()
        await self.http.close()


async def test_add_guild_picks_an_id_on_the_shard_asked_for(fake):
    for count in (1, 2, 3, 5):
        for shard in range(count):
            guild = fake.add_guild(f"g{count}-{shard}", shard=shard, shard_count=count)
            assert (int(guild) >> 22) % count == shard == fake.shard_of(guild, count)
    assert int(guild) > int(fake.guild_id)


async def test_each_shard_gets_its_own_guilds_and_interactions_and_dms_go_to_shard_0(fake):
    import aiohttp

    fake.recommended_shards = 2
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{fake.base_url}/gateway/bot",
                            headers={"Authorization": f"Bot {fake.token}"}) as resp:
            assert (await resp.json())["shards"] == 2
    g0 = fake.add_guild("zero", shard=0, shard_count=2)
    g1 = fake.add_guild("one", shard=1, shard_count=2)
    c0, c1 = fake.add_channel("games", guild=g0), fake.add_channel("games", guild=g1)
    alice = fake.add_user("alice")
    main_shard = fake.shard_of(fake.guild_id, 2)
    async with RawSession(fake, (0, 2)) as s0, RawSession(fake, (1, 2)) as s1:
        await fake.wait_for(lambda: len(fake.identified_shards) == 2 and s0.guilds() and s1.guilds())
        assert fake.identified_shards == [(0, 2), (1, 2)]
        assert set(s0.guilds()) == {g0} | ({fake.guild_id} if main_shard == 0 else set())
        assert set(s1.guilds()) == {g1} | ({fake.guild_id} if main_shard == 1 else set())
        # commands published by nobody here: use raw interactions
        from tests.fakediscord import MESSAGE_COMPONENT
        for channel, shard in ((c0, 0), (c1, 1), (fake.dm_channel(alice, create=True), 0)):
            res = await fake.send_raw(alice, MESSAGE_COMPONENT, {"custom_id": "x", "component_type": 2},
                                      channel=channel, message_id=None)
            assert res.shard == shard == fake.received_by[res.id]
            assert res.payload.get("guild_id") == {c0: g0, c1: g1}.get(channel)
        got0 = [d["id"] for t, d in s0.events if t == "INTERACTION_CREATE"]
        got1 = [d["id"] for t, d in s1.events if t == "INTERACTION_CREATE"]
        assert len(got0) == 2 and len(got1) == 1
        # guild events too: a message in g1's channel reaches shard 1 only
        await fake.say(alice, "hello", channel=c1)
        def messages_in_c1(session):
            return [d for t, d in session.events if t == "MESSAGE_CREATE" and d["channel_id"] == c1]
        await fake.wait_for(lambda: any(d["author"]["id"] == alice for d in messages_in_c1(s1)))
        assert messages_in_c1(s0) == []


async def test_a_client_without_shards_is_shard_0_of_1_and_gets_every_guild(fake):
    g = fake.add_guild("another")
    async with RawSession(fake, None) as s:
        await fake.wait_for(lambda: len(s.guilds()) == 2)
        assert set(s.guilds()) == {fake.guild_id, g} and fake.identified_shards == [(0, 1)]
