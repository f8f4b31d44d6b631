"""An in-process fake Discord that the real discord.py client (2.7) talks to, for offline tests.

It serves the REST API under ``/api/v10`` and the gateway websocket at ``/`` on 127.0.0.1 (a
random port), keeps one guild with its channels, threads, DMs, messages and published commands,
and lets a test act as users: run slash commands, press buttons, pick from selects, type into
autocomplete, submit modals. It enforces what Discord enforces and tests most often get wrong:
the 3-second first response, Discord's size limits, closed DMs (403, code 50007), one response
per interaction, ``Content-Type: application/json`` exactly.

Pointing discord.py at it (either way)::

    fake.patch_discord()   # sets discord.http.Route.BASE and DiscordWebSocket.DEFAULT_GATEWAY,
                           # restored by fake.stop()
    # or: DISCORD_API_BASE=fake.base_url, DISCORD_GATEWAY_URL=fake.gateway_url in the bot's settings
    # (discord.py wants DEFAULT_GATEWAY as a yarl.URL, Route.BASE as a str)

Use ``guild_ready_timeout=0.05`` in the client (or every start waits about two seconds) and
log in with ``fake.token``.

Starting and stopping::

    async with FakeDiscord() as fake: ...          # or: fake = FakeDiscord(); await fake.start(); ...; await fake.stop()
    fake.base_url        # "http://127.0.0.1:PORT/api/v10"
    fake.gateway_url     # "ws://127.0.0.1:PORT/"
    fake.token           # the only bot token accepted (REST 401 / gateway close 4004 otherwise)
    fake.application_id, fake.bot_user_id (the same id, as on Discord), fake.guild_id,
    fake.channel_id      # the guild's one text channel ("games")
    fake.owner_id        # the guild owner (a member with every permission)

    The same FakeDiscord serves any number of bot instances one after the other (a restart is a
    new client: new gateway session); messages, threads, DMs and commands are kept. Close the
    bot before stopping the fake (else discord.py keeps trying to reconnect).

Gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE (roles, text channels, active threads, all
members; discord.py caches members only with the members intent), heartbeat ACKs, RESUME ->
RESUMED, member chunk requests. Dispatched as the client's intents allow: INTERACTION_CREATE
(to the receiving shard's newest session only), MESSAGE_CREATE for every visible message (the
bot's own too; content blanked without the message-content intent unless DM or mention), THREAD_CREATE /
THREAD_UPDATE / THREAD_DELETE, CHANNEL_CREATE, GUILD_ROLE_CREATE, GUILD_MEMBER_ADD / _UPDATE.
As on Discord: a thread started from a message has that message's id; sending to an archived
thread unarchives it (locked: 400 code 50083); a DM channel opens even when DMs are closed, only
the send is refused.

Shards: IDENTIFY's ``shard: [id, count]`` is kept per session; a session gets READY and
GUILD_CREATE for the guilds of its shard only (``(guild_id >> 22) % count``), and a guild's
events and interactions go to that shard's newest session; events and interactions without a
guild (DMs, DM buttons) go to shard 0 only, as on Discord. ``fake.recommended_shards`` is what
GET /gateway/bot answers (1). ``FakeDiscord(guild_shard=(1, 2))`` puts the first server on shard 1 of 2.

Building the world (ids are str snowflakes; a "user" argument is an id, str or int)::

    guild = fake.add_guild("Second Club", shard=1, shard_count=2)   # an id on that shard
    fake.add_channel("games", guild=guild)    # (every user and the bot are members of all guilds)

    alice = fake.add_user("alice", display_name=None, locale="en-US")   # a guild member
    fake.add_channel("other-games") -> channel id
    role = fake.add_role("Moderators", manage_messages=True)           # discord.Permissions flags
    fake.add_member_role(alice, role)
    fake.set_permissions(alice, manage_messages=True)   # shorthand: a new role with these flags
    fake.close_dms(alice) / fake.open_dms(alice)        # closed: DM sends answer 403 code 50007
    fake.bot_permissions = discord.Permissions(...).value   # the bot's app_permissions
    fake.response_deadline = 3.0                        # seconds for the first interaction response

Acting as users (each waits for the bot's first response to the interaction, up to
``fake.response_deadline``; raises InteractionFailed if none came or Discord refused it)::

    res = await fake.slash(alice, "play", {"game": "relativity", "opponent": bob}, channel=None)
        # channel: default fake.channel_id; a thread id; or a DM channel id
        # (fake.dm_channel(alice, create=True)). Private threads: members only (else ValueError).
        # "draw accept" runs subcommand accept of /draw. Option types come from the published
        # definitions: USER/CHANNEL/ROLE options take ids and are resolved; choices are checked.
        # Unknown commands or options, missing required options: ValueError (a test mistake).
    res = await fake.click(alice, custom_id, message_id=None)     # newest visible message if None
    res = await fake.select(alice, custom_id, ["value", ...], message_id=None)
    choices = await fake.autocomplete(alice, "move", {"move": "d3"}, focused="move", channel=None)
        # -> list of {"name": ..., "value": ...}
    res2 = await fake.submit_modal(res, {"field_custom_id": "text"})  # after a modal response (type 9)
    msg = await fake.say(alice, "hello", channel=None)    # a plain user message (MESSAGE_CREATE)
    res = await fake.send_raw(alice, MESSAGE_COMPONENT, {"custom_id": "x"}, channel=None,
                              message_id=None)   # exactly this data, unchecked (fuzzing)

InteractionResult (``res``)::

    res.type        # callback type: 4 message, 5 deferred message, 6 deferred update,
                    # 7 update message, 8 autocomplete, 9 modal
    res.data        # the callback's data dict; res.choices (autocomplete); res.modal (type 9)
    res.ephemeral   # the original response is ephemeral (flag 64); for 6/7: the clicked message
    res.deferred    # type 5 or 6
    res.original    # Message of the original response (for 6/7: the clicked message), after edits
    res.followups   # list of Message sent through the interaction webhook
    res.messages    # original + follow-ups, without duplicates or deleted ones
    res.files       # [(filename, bytes)] of every file sent through this interaction
    res.text        # text of all its messages (content, embeds, text displays)
    await res.done(timeout=5)   # until finished: types 4/7/8/9 at once; 5 when the loading
                    # message was edited or a follow-up sent; 6 when the clicked message was edited
                    # through the interaction or a follow-up sent. Returns res.
    res.dispatched_at, res.responded_at, res.done_at    # time.perf_counter() stamps

    Discord behaviour kept: after a type 5 defer, the first follow-up replaces the "thinking"
    message (and keeps the defer's visibility: a follow-up with ephemeral=True after a public
    defer is PUBLIC); a second callback answers 400 code 40060; a callback after the deadline
    answers 404 code 10062; after ``fake.expire_interactions()`` the webhook answers 401 code 50027.

Observing::

    fake.messages(channel_id=None) -> [Message]   # channel, thread or DM; oldest first; not
                                                  # ephemeral, not deleted
    fake.dms(user) -> [Message]; fake.dm_channel(user, create=False) -> channel id or None
    fake.ephemerals(user) -> [Message] shown only to that user
    fake.all_messages -> every Message ever created (deleted and ephemeral included)
    fake.message(id) -> Message; fake.channel(id) -> Channel
    fake.threads -> [Channel] (thread channels: .id .name .parent_id .starter_message_id .type
                    .archived .locked .member_ids); fake.thread(name) -> Channel
    fake.published_commands -> {None: [global command dicts], guild_id: [...]}
    fake.command(name) -> the published definition (guild first, then global)
    fake.command_publishes -> number of PUTs of command lists (global or guild)
    fake.all_payloads -> [RequestRecord(method, path, query, body, files, channel_id, user_id)]
                    every request body the bot sent, in order, files as (filename, bytes);
                    user_id: for interaction responses, the user they answer; channel_id: where
                    it goes (for DMs the DM channel). fake.search_payloads(needle) filters them by
                    a str/bytes found in the JSON text or a file
    fake.interactions -> [InteractionResult]
    fake.images_without_alt -> ["message id/filename"] every image sent without a description
    fake.error_responses -> [dict(method, path, status, code, message)] every non-2xx answer
    fake.unknown_routes -> ["METHOD /path"] routes the fake lacks (also logged as errors;
                    with FakeDiscord(strict=True), stop() raises if any were hit)
    fake.identify_count, fake.connected, await fake.wait_ready(timeout=5)
    fake.identified_shards -> [(shard_id, shard_count)] per IDENTIFY ((0, 1) when none was sent)
    fake.identified_at -> [time.perf_counter() of each IDENTIFY]
    fake.received_by -> {interaction id: shard it was sent to}; also res.shard
    await fake.wait_for(predicate, timeout=5) -> the predicate's first truthy value
    fake.request_reconnect()   # gateway op 7: the client resumes (RESUMED is sent)

Message::

    .id .channel_id .author_id .content .embeds .components (raw dicts) .flags .type
    .attachments -> [(filename, bytes)]; .attachment(filename) -> bytes
    .alt_texts -> {filename: description or None} (an attachment's alt text; Discord takes at
                  most 1024 characters, longer is refused with 400 / 50035)
    .ephemeral .ephemeral_to (user id) .loading .deleted .edits .interaction_id .thread_id
    .text       # content, embed texts and text displays, joined by newlines
    .created_at .edited_at    # time.perf_counter() stamps
    .button(label) -> custom_id (label or emoji name); .buttons() -> [dict]
    .selects() -> [dict]; .select_options(custom_id=None) -> [option dicts] of that (or the first) select
    .component(custom_id) -> dict; .custom_ids() -> [str]

Not modelled: channel permission overwrites, reactions, pins, webhooks other than interaction
ones, rate limits, the system message Discord posts when a thread is created without a message,
message visibility by permission (except private threads and others' ephemerals).
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import itertools
import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Union

import discord
import yarl
from aiohttp import WSMsgType, web

__all__ = [
    "Attachment",
    "Channel",
    "FakeDiscord",
    "FakeDiscordError",
    "InteractionFailed",
    "InteractionResult",
    "Message",
    "RequestRecord",
    "Role",
    "Thread",
    "User",
]

log = logging.getLogger("fakediscord")

DISCORD_EPOCH_MS = 1420070400000
API_PREFIX = "/api/v10"
ALT_TEXT_LIMIT = 1024   # characters of an attachment's description
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
NONCE_SECONDS = 300   # how long Discord remembers a message's nonce ("a few minutes")

# channel types
GUILD_TEXT, DM_CHANNEL, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (10, 11, 12)
# message flags
SUPPRESS_EMBEDS, HAS_THREAD, EPHEMERAL, LOADING = 1 << 2, 1 << 5, 1 << 6, 1 << 7
SUPPRESS_NOTIFICATIONS, COMPONENTS_V2 = 1 << 12, 1 << 15
SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
# interaction types
APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
# gateway intents
INTENT_GUILDS, INTENT_GUILD_MEMBERS = 1 << 0, 1 << 1
INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES, INTENT_MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
SELECT_TYPES = (3, 5, 6, 7, 8)

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    read_message_history=True, embed_links=True, attach_files=True, add_reactions=True,
    use_external_emojis=True, use_application_commands=True, change_nickname=True,
    create_instant_invite=True, connect=True, speak=True,
).value
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
    create_private_threads=True, manage_threads=True, read_message_history=True, embed_links=True,
    attach_files=True, add_reactions=True, use_external_emojis=True, use_application_commands=True,
).value
ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value

_NAME_RE = re.compile(r"[-_\w]{1,32}")


def _now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat()


class FakeDiscordError(AssertionError):
    """The bot did something Discord would refuse, or did not do something in time."""


class InteractionFailed(FakeDiscordError):
    """The bot gave no accepted first response to an interaction ("This interaction failed")."""


class _APIError(Exception):
    """An error answer of the API, in Discord's JSON shape."""

    def __init__(self, status: int, code: int, message: str, errors: Optional[dict] = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            body["errors"] = self.errors
        return body


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?', re.IGNORECASE)
_FORM_NAME = re.compile(rb'\bname="((?:[^"\\]|\\.)*)"', re.IGNORECASE)
_FORM_FILENAME = re.compile(rb'\bfilename="((?:[^"\\]|\\.)*)"', re.IGNORECASE)
_ESCAPED = re.compile(rb"\\(.)")


def _form_parts(raw: bytes, content_type: str) -> list[tuple[str | None, str | None, bytes]]:
    """(name, filename, data) of each part of a multipart/form-data body, as discord.py writes
    them (quoted names and filenames, backslash escapes). Our own small parser: aiohttp's reader
    parses every part's headers with the email package, which made the fake a tenth of the
    event loop's work in the bot benchmark, where Discord's own work does not belong."""
    match = _BOUNDARY.search(content_type)
    if match is None:
        raise _APIError(400, 50035, "Invalid Form Body: no multipart boundary")

    def field(pattern: re.Pattern, disposition: bytes) -> str | None:
        found = pattern.search(disposition)
        return _ESCAPED.sub(rb"\1", found.group(1)).decode() if found else None

    parts = []
    for chunk in raw.split(b"--" + match.group(1).encode())[1:]:
        if chunk.startswith(b"--"):   # the closing boundary
            break
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        disposition = next((line for line in head.split(b"\r\n")
                            if line.lower().startswith(b"content-disposition:")), b"")
        parts.append((field(_FORM_NAME, disposition), field(_FORM_FILENAME, disposition),
                       data.removesuffix(b"\r\n")))
    return parts


class _FormErrors:
    """Collects form-body problems and raises them as Discord's 400 code 50035."""

    def __init__(self) -> None:
        self.errors: dict[str, dict] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, {"_errors": []})["_errors"].append({"code": "INVALID", "message": message})

    def raise_if_any(self) -> None:
        if self.errors:
            raise _APIError(400, 50035, "Invalid Form Body", self.errors)


def _json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py reads any other content type (even with a
    # charset) as text.
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


def _walk_components(components: Iterable[dict]) -> Iterable[dict]:
    for component in components or ():
        yield component
        yield from _walk_components(component.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from _walk_components([component[key]])


def _png_size(data: bytes) -> Optional[tuple[int, int]]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


# --------------------------------------------------------------------------- records


@dataclass(eq=False)
class User:
    id: str
    username: str
    display_name: str
    bot: bool = False
    locale: str = "en-US"
    dms_open: bool = True
    nick: Optional[str] = None
    role_ids: list[str] = field(default_factory=list)
    joined_at: str = field(default_factory=_now_iso)


@dataclass(eq=False)
class Role:
    id: str
    name: str
    permissions: int
    position: int = 1
    managed: bool = False


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread (type 11 public, 12 private) or a DM channel (type 1)."""

    id: str
    type: int
    name: str = ""
    guild_id: Optional[str] = None
    parent_id: Optional[str] = None
    owner_id: Optional[str] = None
    recipient_id: Optional[str] = None
    starter_message_id: Optional[str] = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    position: int = 0
    member_ids: list[str] = field(default_factory=list)
    created: str = field(default_factory=_now_iso)
    archive_timestamp: str = field(default_factory=_now_iso)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


Thread = Channel


@dataclass(eq=False)
class Attachment:
    id: str
    filename: str
    data: bytes
    description: Optional[str] = None


@dataclass(eq=False)
class Message:
    id: str
    channel_id: str
    author_id: str
    content: str = ""
    embeds: list = field(default_factory=list)
    components: list = field(default_factory=list)
    flags: int = 0
    files: list[Attachment] = field(default_factory=list)
    type: int = 0
    guild_id: Optional[str] = None
    ephemeral_to: Optional[str] = None
    interaction_id: Optional[str] = None
    interaction_type: Optional[int] = None
    reference_id: Optional[str] = None
    thread_id: Optional[str] = None
    deleted: bool = False
    edits: int = 0
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: Optional[str] = None
    created_at: float = field(default_factory=time.perf_counter)
    edited_at: Optional[float] = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def attachments(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.files]

    @property
    def alt_texts(self) -> dict[str, Optional[str]]:
        return {a.filename: a.description for a in self.files}

    def attachment(self, filename: str) -> bytes:
        for a in self.files:
            if a.filename == filename:
                return a.data
        raise KeyError(f"no attachment {filename!r} on message {self.id}; has {[a.filename for a in self.files]}")

    @property
    def text(self) -> str:
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title"), (embed.get("author") or {}).get("name"), embed.get("description")]
            for f in embed.get("fields") or ():
                parts += [f.get("name"), f.get("value")]
            parts.append((embed.get("footer") or {}).get("text"))
        parts += [c.get("content") for c in _walk_components(self.components) if c.get("type") == 10]
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict]:
        return list(_walk_components(self.components))

    def buttons(self) -> list[dict]:
        return [c for c in _walk_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict]:
        return [c for c in _walk_components(self.components) if c.get("type") in SELECT_TYPES]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in _walk_components(self.components) if c.get("custom_id")]

    def component(self, custom_id: str) -> dict:
        for c in _walk_components(self.components):
            if c.get("custom_id") == custom_id:
                return c
        raise KeyError(f"no component {custom_id!r} on message {self.id}; has {self.custom_ids()}")

    def button(self, label: str) -> str:
        """The custom_id of the button with this label (or emoji name)."""
        for b in self.buttons():
            if b.get("label") == label or (b.get("emoji") or {}).get("name") == label:
                return b.get("custom_id") or b.get("url")
        labels = [b.get("label") or (b.get("emoji") or {}).get("name") for b in self.buttons()]
        raise KeyError(f"no button {label!r} on message {self.id}; buttons: {labels}")

    def select_options(self, custom_id: Optional[str] = None) -> list[dict]:
        selects = self.selects()
        if custom_id is not None:
            selects = [s for s in selects if s.get("custom_id") == custom_id]
        if not selects:
            raise KeyError(f"no select {custom_id or ''!r} on message {self.id}")
        return list(selects[0].get("options") or [])

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id} in {self.channel_id}{flags} {self.text[:60]!r} files={[a.filename for a in self.files]}>"


@dataclass(eq=False)
class RequestRecord:
    method: str
    path: str
    query: dict
    body: Any
    files: list[tuple[str, bytes]]
    channel_id: Optional[str] = None  # for /channels/{id}/... requests
    user_id: Optional[str] = None     # for interaction responses: the user who will see them

    def contains(self, needle: Union[str, bytes]) -> bool:
        if isinstance(needle, str):
            text = json.dumps(self.body, ensure_ascii=False) if self.body is not None else ""
            return needle in text or any(needle.encode() in data for _, data in self.files)
        return any(needle in data for _, data in self.files)


class InteractionResult:
    """One interaction sent by a test user, and everything the bot answered to it."""

    def __init__(self, fake: FakeDiscord, *, id: str, token: str, interaction_type: int, kind: str,
                 user_id: str, channel_id: str, message: Optional[Message]) -> None:
        self._fake = fake
        self.id, self.token, self.interaction_type, self.kind = id, token, interaction_type, kind
        self.user_id, self.channel_id = user_id, channel_id
        self.message = message  # the message a component was on
        self.shard: Optional[int] = None   # the shard the interaction was sent to
        self.message_id = message.id if message else None
        self.payload: dict = {}
        self.type: Optional[int] = None
        self.data: Optional[dict] = None
        self.choices: Optional[list] = None
        self.modal: Optional[dict] = None
        self.original: Optional[Message] = None
        self.followups: list[Message] = []
        self.files: list[tuple[str, bytes]] = []
        self.rejected: list[dict] = []
        self.expired = False
        self.finished = False
        self.dispatched_at: Optional[float] = None
        self.responded_at: Optional[float] = None
        self.done_at: Optional[float] = None

    @property
    def ephemeral(self) -> bool:
        """Whether the original response (for 6/7: the clicked message) is ephemeral."""
        return self.original is not None and self.original.ephemeral

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def messages(self) -> list[Message]:
        seen: list[Message] = []
        for m in ([self.original] if self.original else []) + self.followups:
            if m not in seen and not m.deleted:
                seen.append(m)
        return seen

    @property
    def text(self) -> str:
        return "\n".join(m.text for m in self.messages if m.text)

    def _finish(self) -> None:
        if not self.finished:
            self.finished = True
            self.done_at = time.perf_counter()

    async def done(self, timeout: float = 5.0) -> InteractionResult:
        await self._fake.wait_for(lambda: self.finished, timeout,
                                  message=f"the bot did not finish answering {self!r}")
        return self

    def __repr__(self) -> str:
        return f"<InteractionResult {self.kind} {self.id} type={self.type} user={self.user_id}>"


class _Session:
    """One gateway connection."""

    def __init__(self, ws: web.WebSocketResponse, number: int) -> None:
        self.ws, self.number = ws, number
        self.session_id: Optional[str] = None
        self.seq = 0
        self.intents = 0
        self.shard = (0, 1)   # IDENTIFY's [shard_id, shard_count] (none sent: the only shard)
        self.ready = False
        self.lock = asyncio.Lock()

    async def send(self, payload: dict) -> None:
        async with self.lock:
            await self._send(payload)

    async def dispatch(self, event: str, data: Any) -> None:
        async with self.lock:
            self.seq += 1
            await self._send({"op": 0, "t": event, "s": self.seq, "d": data})

    async def _send(self, payload: dict) -> None:
        if self.ws.closed:
            return
        try:
            await self.ws.send_str(json.dumps(payload))
        except (ConnectionError, RuntimeError):
            log.debug("gateway session %s closed while sending", self.number)


# --------------------------------------------------------------------------- the fake


class FakeDiscord:
    def __init__(self, *, token: str = "fake-discord-bot-token.for-tests-only", guild_name: str = "Piecepack Club",
                 channel_name: str = "games", bot_name: str = "Piecepack", strict: bool = False,
                 response_deadline: float = 3.0, guild_shard: tuple[int, int] = (0, 1)) -> None:
        self.token = token
        self.strict = strict
        self.response_deadline = response_deadline
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        self.images_without_alt: list[str] = []
        self.bot_permissions = BOT_PERMISSIONS
        self._last_snowflake = 0
        self._counter = itertools.count(1)
        self._users: dict[str, User] = {}
        self._roles: dict[str, Role] = {}
        self._channels: dict[str, Channel] = {}
        self._messages: dict[str, Message] = {}
        self._channel_messages: dict[str, list[Message]] = {}
        self._dm_channels: dict[str, str] = {}
        self.nonces: dict[tuple[str, str], tuple[Message, float]] = {}   # enforce_nonce's memory
        self._tokens: dict[str, InteractionResult] = {}
        self._commands: dict[Optional[str], list[dict]] = {None: []}
        self._command_ids: dict[tuple, str] = {}
        self._sessions: list[_Session] = []
        self._resumable: dict[str, int] = {}  # session id -> intents
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task] = set()
        self._restore: list[tuple[str, Any]] = []
        self._runner: Optional[web.AppRunner] = None
        self.port: Optional[int] = None
        self.command_publishes = 0
        self.identify_count = 0
        self.recommended_shards = 1   # GET /gateway/bot's "shards"
        self.identified_shards: list[tuple[int, int]] = []   # (shard_id, shard_count) per IDENTIFY
        self.identified_at: list[float] = []   # time.perf_counter() of each IDENTIFY
        self.received_by: dict[str, int] = {}   # interaction id -> the shard it was sent to
        self.all_payloads: list[RequestRecord] = []
        self.interactions: list[InteractionResult] = []
        self.error_responses: list[dict] = []
        self.unknown_routes: list[str] = []

        self.application_id = self._snowflake()
        self.bot_user_id = self.application_id  # as on Discord: the bot user has the app's id
        self.guild_name = guild_name
        self.guild_id = self._snowflake()
        while self.shard_of(self.guild_id, guild_shard[1]) != guild_shard[0]:   # (its shard of how many)
            self._last_snowflake += 1 << 22   # (the next millisecond: as add_guild)
            self.guild_id = str(self._last_snowflake)
        self._guilds: dict[str, str] = {self.guild_id: guild_name}   # id -> name
        self._roles[self.guild_id] = Role(self.guild_id, "@everyone", EVERYONE_PERMISSIONS, position=0)
        self.bot_role_id = self._new_role(bot_name, BOT_PERMISSIONS, managed=True)
        self._users[self.bot_user_id] = User(self.bot_user_id, bot_name.lower(), bot_name, bot=True,
                                             dms_open=False, role_ids=[self.bot_role_id])
        self.owner_id = self.add_user("owner", display_name="Server Owner")
        self.channel_id = self.add_channel(channel_name)
        self._routes = self._route_table()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/", self._h_gateway)
        app.router.add_route("*", "/{tail:.*}", self._h_http)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for session in list(self._sessions):
            await session.ws.close(code=1001, message=b"fake Discord stopping")
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        while self._restore:
            target, value = self._restore.pop()
            if target == "base":
                discord.http.Route.BASE = value
            else:
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = value
        if self.strict and self.unknown_routes:
            raise FakeDiscordError(f"the bot called routes the fake Discord lacks: {self.unknown_routes}")

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def patch_discord(self) -> None:
        """Point discord.py's REST and gateway defaults here, until stop()."""
        self._restore.append(("base", discord.http.Route.BASE))
        self._restore.append(("gateway", discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY))
        discord.http.Route.BASE = self.base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    # ------------------------------------------------------------------ the world

    def _snowflake(self) -> str:
        # Real-looking snowflakes (discord.py reads creation times from them), always increasing.
        value = max((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22, self._last_snowflake + 1)
        self._last_snowflake = value
        return str(value)

    def _user(self, user: Any) -> User:
        if isinstance(user, User):
            return user
        try:
            return self._users[str(user)]
        except KeyError:
            raise ValueError(f"no user {user!r} in the fake Discord") from None

    def _new_role(self, name: str, permissions: int, managed: bool = False) -> str:
        role_id = self._snowflake()
        self._roles[role_id] = Role(role_id, name, permissions, position=len(self._roles), managed=managed)
        return role_id

    def add_user(self, username: str, *, display_name: Optional[str] = None, locale: str = "en-US",
                 nick: Optional[str] = None) -> str:
        user = User(self._snowflake(), username, display_name or username, locale=locale, nick=nick)
        self._users[user.id] = user
        self._dispatch_soon("GUILD_MEMBER_ADD", lambda: {**self._member_payload(user), "guild_id": self.guild_id},
                            INTENT_GUILD_MEMBERS)
        return user.id

    def add_role(self, name: str, **permissions: bool) -> str:
        role_id = self._new_role(name, discord.Permissions(**permissions).value)
        self._dispatch_soon("GUILD_ROLE_CREATE",
                            lambda: {"guild_id": self.guild_id, "role": self._role_payload(self._roles[role_id])},
                            INTENT_GUILDS)
        return role_id

    def add_member_role(self, user: Any, role_id: str) -> None:
        member = self._user(user)
        if role_id not in self._roles:
            raise ValueError(f"no role {role_id}")
        if role_id not in member.role_ids:
            member.role_ids.append(role_id)
        self._dispatch_soon("GUILD_MEMBER_UPDATE", lambda: {**self._member_payload(member), "guild_id": self.guild_id},
                            INTENT_GUILD_MEMBERS)

    def set_permissions(self, user: Any, **permissions: bool) -> str:
        """Give a member these permissions through a new role of their own; returns the role id."""
        role_id = self.add_role(f"{self._user(user).username}-permissions", **permissions)
        self.add_member_role(user, role_id)
        return role_id

    def close_dms(self, user: Any) -> None:
        self._user(user).dms_open = False

    def open_dms(self, user: Any) -> None:
        self._user(user).dms_open = True

    @staticmethod
    def shard_of(guild_id: Any, shard_count: int) -> int:
        """Discord's rule: the shard that receives a guild's events."""
        return (int(guild_id) >> 22) % shard_count

    def add_guild(self, name: str, *, shard: int = 0, shard_count: int = 1) -> str:
        """Another server (the bot and every user are members; the same permissions), with an
        id on `shard` of `shard_count`. Returns its id; add_channel(name, guild=id) adds channels."""
        value = int(self._snowflake())
        while self.shard_of(value, shard_count) != shard:
            value += 1 << 22   # the next millisecond
        self._last_snowflake = value
        guild_id = str(value)
        self._guilds[guild_id] = name
        self._roles[guild_id] = Role(guild_id, "@everyone", EVERYONE_PERMISSIONS, position=0)
        for session in self._sessions_for(guild_id):
            self._spawn(session.dispatch("GUILD_CREATE", self._guild_payload(full=True, guild_id=guild_id)))
        return guild_id

    def add_channel(self, name: str, *, guild: Optional[str] = None) -> str:
        channel = Channel(self._snowflake(), GUILD_TEXT, name, guild_id=str(guild or self.guild_id),
                          position=sum(1 for c in self._channels.values() if c.type == GUILD_TEXT))
        self._channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        self._dispatch_soon("CHANNEL_CREATE", lambda: self._channel_payload(channel), INTENT_GUILDS)
        return channel.id

    def _dm_channel_for(self, user: User) -> Channel:
        if user.id not in self._dm_channels:
            channel = Channel(self._snowflake(), DM_CHANNEL, recipient_id=user.id)
            self._channels[channel.id] = channel
            self._channel_messages[channel.id] = []
            self._dm_channels[user.id] = channel.id
        return self._channels[self._dm_channels[user.id]]

    def _permissions(self, user: User) -> int:
        value = self._roles[self.guild_id].permissions
        for role_id in user.role_ids:
            value |= self._roles[role_id].permissions
        if user.id == self.owner_id or value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def _can_see(self, user: User, channel: Channel) -> bool:
        if channel.type == DM_CHANNEL:
            return channel.recipient_id == user.id
        if channel.type == PRIVATE_THREAD:
            return user.id in channel.member_ids or bool(self._permissions(user) & discord.Permissions(manage_threads=True).value)
        return True

    # ------------------------------------------------------------------ observation

    def channel(self, channel_id: Any) -> Channel:
        return self._channels[str(channel_id)]

    def message(self, message_id: Any) -> Message:
        return self._messages[str(message_id)]

    def messages(self, channel_id: Any = None) -> list[Message]:
        channel_id = str(channel_id or self.channel_id)
        if channel_id not in self._channel_messages:
            raise KeyError(f"no channel {channel_id}")
        return [m for m in self._channel_messages[channel_id] if not m.deleted and not m.ephemeral]

    def dm_channel(self, user: Any, *, create: bool = False) -> Optional[str]:
        """The id of the user's DM channel with the bot; None if the bot never opened it, unless
        create (as when the user opens the DM themselves, e.g. to run a command there)."""
        user_obj = self._user(user)
        if create:
            return self._dm_channel_for(user_obj).id
        return self._dm_channels.get(user_obj.id)

    def dms(self, user: Any) -> list[Message]:
        channel_id = self.dm_channel(user)
        return self.messages(channel_id) if channel_id else []

    def ephemerals(self, user: Any) -> list[Message]:
        user_id = self._user(user).id
        return [m for m in self._messages.values() if m.ephemeral_to == user_id and not m.deleted]

    @property
    def all_messages(self) -> list[Message]:
        return list(self._messages.values())

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self._channels.values() if c.is_thread and not c.deleted]

    def thread(self, name: str) -> Channel:
        for t in reversed(self.threads):
            if t.name == name:
                return t
        raise KeyError(f"no thread named {name!r}; threads: {[t.name for t in self.threads]}")

    @property
    def published_commands(self) -> dict[Optional[str], list[dict]]:
        return {scope: list(cmds) for scope, cmds in self._commands.items()}

    def command(self, name: str) -> dict:
        return self._find_command(name, in_dm=False)[0]

    def search_payloads(self, needle: Union[str, bytes]) -> list[RequestRecord]:
        return [r for r in self.all_payloads if r.contains(needle)]

    @property
    def connected(self) -> bool:
        return any(s.ready for s in self._sessions)

    async def wait_ready(self, timeout: float = 5.0) -> None:
        await self._live_session(timeout)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, *, message: Optional[str] = None) -> Any:
        """Wait until predicate() is truthy and return its value; re-checked on every change here
        and every 10 ms (for state the predicate reads elsewhere)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordError(message or f"timed out after {timeout} s waiting for {predicate!r}")
            try:
                await asyncio.wait_for(changed.wait(), min(remaining, 0.01))
            except asyncio.TimeoutError:
                pass

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def expire_interactions(self) -> None:
        """Make every interaction token so far invalid, as 15 minutes later on Discord."""
        for res in self._tokens.values():
            res.expired = True

    def request_reconnect(self) -> None:
        """Ask connected clients to reconnect (gateway op 7); they resume their session."""
        for session in self._sessions:
            self._spawn(session.send({"op": 7, "d": None}))

    # ------------------------------------------------------------------ payloads

    def _user_payload(self, user: User) -> dict:
        return {"id": user.id, "username": user.username, "global_name": user.display_name, "discriminator": "0",
                "avatar": None, "banner": None, "accent_color": None, "bot": user.bot, "system": False,
                "public_flags": 0, "flags": 0, "avatar_decoration_data": None}

    def _member_payload(self, user: User, *, with_user: bool = True, permissions: bool = False) -> dict:
        payload: dict[str, Any] = {
            "roles": list(user.role_ids), "nick": user.nick, "avatar": None, "banner": None,
            "joined_at": user.joined_at, "premium_since": None, "deaf": False, "mute": False, "pending": False,
            "flags": 0, "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self._user_payload(user)
        if permissions:
            payload["permissions"] = str(self._permissions(user))
        return payload

    def _role_payload(self, role: Role) -> dict:
        return {"id": role.id, "name": role.name, "permissions": str(role.permissions), "position": role.position,
                "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False, "managed": role.managed, "mentionable": False, "icon": None,
                "unicode_emoji": None, "flags": 0}

    def _last_message_id(self, channel: Channel) -> Optional[str]:
        msgs = [m for m in self._channel_messages.get(channel.id, []) if not m.ephemeral]
        return msgs[-1].id if msgs else None

    def _channel_payload(self, channel: Channel, *, for_user: Optional[User] = None) -> dict:
        if channel.type == DM_CHANNEL:
            payload: dict[str, Any] = {"id": channel.id, "type": DM_CHANNEL, "flags": 0,
                                       "last_message_id": self._last_message_id(channel),
                                       "recipients": [self._user_payload(self._users[channel.recipient_id])]}
        elif channel.is_thread:
            count = sum(1 for m in self._channel_messages[channel.id] if not m.ephemeral)
            payload = {
                "id": channel.id, "type": channel.type, "guild_id": channel.guild_id, "parent_id": channel.parent_id,
                "owner_id": channel.owner_id, "name": channel.name, "last_message_id": self._last_message_id(channel),
                "rate_limit_per_user": 0, "message_count": count, "total_message_sent": count,
                "member_count": len(channel.member_ids), "flags": 0, "applied_tags": [],
                "thread_metadata": {"archived": channel.archived, "locked": channel.locked,
                                    "auto_archive_duration": channel.auto_archive_duration,
                                    "archive_timestamp": channel.archive_timestamp, "invitable": channel.invitable,
                                    "create_timestamp": channel.created},
            }
            if self.bot_user_id in channel.member_ids:
                payload["member"] = {"id": channel.id, "user_id": self.bot_user_id,
                                     "join_timestamp": channel.created, "flags": 0}
        else:
            payload = {"id": channel.id, "type": channel.type, "guild_id": channel.guild_id, "name": channel.name,
                       "position": channel.position, "parent_id": None, "topic": None, "nsfw": False,
                       "rate_limit_per_user": 0, "permission_overwrites": [], "flags": 0,
                       "last_message_id": self._last_message_id(channel), "default_auto_archive_duration": 1440}
        if for_user is not None:
            payload["permissions"] = str(self._permissions(for_user))
        return payload

    def _guild_payload(self, *, full: bool, guild_id: Optional[str] = None) -> dict:
        guild_id = guild_id or self.guild_id
        payload: dict[str, Any] = {
            "id": guild_id, "name": self._guilds[guild_id], "icon": None, "splash": None, "discovery_splash": None,
            "banner": None, "description": None, "owner_id": self.owner_id, "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": [self._role_payload(r) for r in self._roles.values()], "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None, "premium_tier": 0,
            "premium_subscription_count": 0, "preferred_locale": "en-US", "public_updates_channel_id": None,
            "nsfw_level": 0, "premium_progress_bar_enabled": False, "max_members": 500000,
        }
        if full:
            members = [u for u in self._users.values()]
            payload.update({
                "joined_at": self._users[self.bot_user_id].joined_at, "large": False, "unavailable": False,
                "member_count": len(members), "voice_states": [], "presences": [], "stage_instances": [],
                "guild_scheduled_events": [], "soundboard_sounds": [],
                "members": [self._member_payload(u) for u in members],
                "channels": [self._channel_payload(c) for c in self._channels.values()
                             if c.type == GUILD_TEXT and c.guild_id == guild_id],
                "threads": [self._channel_payload(c) for c in self.threads
                            if not c.archived and c.guild_id == guild_id],
            })
        return payload

    def _message_payload(self, msg: Message) -> dict:
        author = self._users[msg.author_id]
        payload: dict[str, Any] = {
            "id": msg.id, "channel_id": msg.channel_id, "author": self._user_payload(author), "content": msg.content,
            "timestamp": msg.timestamp, "edited_timestamp": msg.edited_timestamp, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [
                self._attachment_payload(msg, a) for a in msg.files], "embeds": msg.embeds,
            "components": msg.components, "pinned": False, "type": msg.type, "flags": msg.flags,
        }
        if msg.guild_id:
            payload["guild_id"] = msg.guild_id
        if msg.interaction_id:
            res = self._interaction_by_id(msg.interaction_id)
            payload["webhook_id"] = self.application_id
            payload["application_id"] = self.application_id
            if res is not None:
                metadata = {"id": res.id, "type": res.interaction_type,
                            "user": self._user_payload(self._users[res.user_id]),
                            "authorizing_integration_owners": {"0": msg.guild_id or "0"}}
                if res.message_id:
                    metadata["interacted_message_id"] = res.message_id
                payload["interaction_metadata"] = metadata
        if msg.reference_id:
            payload["message_reference"] = {"type": 0, "message_id": msg.reference_id, "channel_id": msg.channel_id}
        if msg.thread_id and msg.thread_id in self._channels:
            payload["thread"] = self._channel_payload(self._channels[msg.thread_id])
        return payload

    def _attachment_payload(self, msg: Message, a: Attachment) -> dict:
        url = f"http://127.0.0.1:{self.port}/attachments/{msg.channel_id}/{a.id}/{a.filename}"
        payload: dict[str, Any] = {"id": a.id, "filename": a.filename, "size": len(a.data), "url": url,
                                   "proxy_url": url, "content_type": self._content_type(a.filename)}
        if a.description is not None:
            payload["description"] = a.description
        size = _png_size(a.data)
        if size:
            payload["width"], payload["height"] = size
        if msg.ephemeral:
            payload["ephemeral"] = True
        return payload

    @staticmethod
    def _content_type(filename: str) -> str:
        ext = filename.rsplit(".", 1)[-1].lower()
        return {"png": "image/png", "svg": "image/svg+xml", "txt": "text/plain; charset=utf-8",
                "json": "application/json", "jpg": "image/jpeg"}.get(ext, "application/octet-stream")

    def _interaction_by_id(self, interaction_id: str) -> Optional[InteractionResult]:
        for res in reversed(self.interactions):
            if res.id == interaction_id:
                return res
        return None

    # ------------------------------------------------------------------ validation

    def _validate_embeds(self, embeds: Any, errors: _FormErrors) -> None:
        if not isinstance(embeds, list):
            errors.add("embeds", "Must be a list.")
            return
        if len(embeds) > 10:
            errors.add("embeds", "Must be 10 or fewer in length.")
        total = 0
        limits = {"title": 256, "description": 4096}
        for i, embed in enumerate(embeds):
            for key, limit in limits.items():
                text = embed.get(key) or ""
                total += len(text)
                if len(text) > limit:
                    errors.add(f"embeds.{i}.{key}", f"Must be {limit} or fewer in length.")
            fields = embed.get("fields") or []
            if len(fields) > 25:
                errors.add(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
            for j, f in enumerate(fields):
                name, value = str(f.get("name") or ""), str(f.get("value") or "")
                total += len(name) + len(value)
                if not 1 <= len(name) <= 256:
                    errors.add(f"embeds.{i}.fields.{j}.name", "Must be between 1 and 256 in length.")
                if not 1 <= len(value) <= 1024:
                    errors.add(f"embeds.{i}.fields.{j}.value", "Must be between 1 and 1024 in length.")
            footer = (embed.get("footer") or {}).get("text") or ""
            author = (embed.get("author") or {}).get("name") or ""
            total += len(footer) + len(author)
            if len(footer) > 2048:
                errors.add(f"embeds.{i}.footer.text", "Must be 2048 or fewer in length.")
            if len(author) > 256:
                errors.add(f"embeds.{i}.author.name", "Must be 256 or fewer in length.")
        if total > 6000:
            errors.add("embeds", "Embed size exceeds maximum size of 6000")

    def _validate_components(self, components: Any, errors: _FormErrors, *, v2: bool, modal: bool = False,
                             path: str = "components") -> None:
        if not isinstance(components, list):
            errors.add(path, "Must be a list.")
            return
        custom_ids: set[str] = set()
        count = 0
        text_total = 0

        def check_custom_id(c: dict, p: str) -> None:
            cid = c.get("custom_id")
            if not isinstance(cid, str) or not 1 <= len(cid) <= 100:
                errors.add(f"{p}.custom_id", "custom_id must be a string of 1 to 100 characters.")
            elif cid in custom_ids:
                errors.add(f"{p}.custom_id", "Component custom id cannot be duplicated")
            else:
                custom_ids.add(cid)

        def walk(c: dict, p: str) -> None:
            nonlocal count, text_total
            count += 1
            t = c.get("type")
            if t == 1:
                kids = c.get("components") or []
                if not 1 <= len(kids) <= 5:
                    errors.add(f"{p}.components", "An action row holds 1 to 5 components.")
                if any(k.get("type") in SELECT_TYPES for k in kids) and len(kids) > 1:
                    errors.add(f"{p}.components", "A select menu must be alone in its action row.")
                for i, k in enumerate(kids):
                    if k.get("type") == 1:
                        errors.add(f"{p}.components.{i}", "Action rows cannot be nested.")
                    walk(k, f"{p}.components.{i}")
            elif t == 2:
                style = c.get("style")
                if style == 5:
                    if not c.get("url") or c.get("custom_id"):
                        errors.add(p, "A link button has a url and no custom_id.")
                elif style == 6:
                    if not c.get("sku_id"):
                        errors.add(p, "A premium button has a sku_id.")
                elif style in (1, 2, 3, 4):
                    check_custom_id(c, p)
                else:
                    errors.add(f"{p}.style", f"Unknown button style {style!r}.")
                label = c.get("label") or ""
                if len(label) > 80:
                    errors.add(f"{p}.label", "Must be 80 or fewer in length.")
                if style != 6 and not label and not c.get("emoji"):
                    errors.add(p, "A button needs a label or an emoji.")
            elif t in SELECT_TYPES:
                check_custom_id(c, p)
                if len(c.get("placeholder") or "") > 150:
                    errors.add(f"{p}.placeholder", "Must be 150 or fewer in length.")
                lo, hi = c.get("min_values", 1), c.get("max_values", 1)
                if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
                    errors.add(p, "min_values/max_values out of range.")
                if t == 3:
                    options = c.get("options") or []
                    if not 1 <= len(options) <= 25:
                        errors.add(f"{p}.options", "A select menu holds 1 to 25 options.")
                    if hi > len(options):
                        errors.add(f"{p}.max_values", "max_values exceeds the number of options.")
                    values = [o.get("value") for o in options]
                    if len(set(values)) != len(values):
                        errors.add(f"{p}.options", "Option values must be unique.")
                    for j, o in enumerate(options):
                        for key in ("label", "value"):
                            if not 1 <= len(str(o.get(key) or "")) <= 100:
                                errors.add(f"{p}.options.{j}.{key}", "Must be between 1 and 100 in length.")
                        if len(o.get("description") or "") > 100:
                            errors.add(f"{p}.options.{j}.description", "Must be 100 or fewer in length.")
            elif t == 4:
                if not modal:
                    errors.add(p, "Text inputs belong in modals.")
                check_custom_id(c, p)
                if len(c.get("label") or "") > 45:
                    errors.add(f"{p}.label", "Must be 45 or fewer in length.")
                if len(c.get("value") or "") > 4000 or (c.get("max_length") or 0) > 4000:
                    errors.add(p, "Text input values hold at most 4000 characters.")
            elif t == 10:
                text_total += len(c.get("content") or "")
            elif t in (9, 17):
                for i, k in enumerate(c.get("components") or []):
                    walk(k, f"{p}.components.{i}")
                if isinstance(c.get("accessory"), dict):
                    walk(c["accessory"], f"{p}.accessory")
            elif t == 18:
                if len(c.get("label") or "") > 45:
                    errors.add(f"{p}.label", "Must be 45 or fewer in length.")
                if isinstance(c.get("component"), dict):
                    walk(c["component"], f"{p}.component")
            elif t in (11, 12, 13, 14, 19, 21, 22, 23):
                pass
            else:
                errors.add(f"{p}.type", f"Unknown component type {t!r}.")

        if modal:
            if not 1 <= len(components) <= 5:
                errors.add(path, "A modal holds 1 to 5 components.")
        elif not v2:
            if len(components) > 5:
                errors.add(path, "Must be 5 or fewer in length.")
            for i, c in enumerate(components):
                if c.get("type") != 1:
                    errors.add(f"{path}.{i}.type", "Top-level components must be action rows "
                                                     "(without the IS_COMPONENTS_V2 flag).")
        for i, c in enumerate(components):
            walk(c, f"{path}.{i}")
        if v2 and count > 40:
            errors.add(path, "A message holds at most 40 components.")
        if v2 and text_total > 4000:
            errors.add(path, "Text displays hold at most 4000 characters in total.")

    def _validate_message(self, content: Any, embeds: list, components: list, flags: int,
                          files: list, errors: _FormErrors, allowed_mentions: Any = None) -> None:
        if content is not None and len(str(content)) > 2000:
            errors.add("content", "Must be 2000 or fewer in length.")
        if len((allowed_mentions or {}).get("users") or []) > 100:
            errors.add("allowed_mentions.users", "Must be 100 or fewer in length.")
        self._validate_embeds(embeds, errors)
        v2 = bool(flags & COMPONENTS_V2)
        if v2 and (content or embeds):
            errors.add("content", "The content and embeds fields cannot be used with IS_COMPONENTS_V2.")
        self._validate_components(components, errors, v2=v2)
        if len(files) > 10:
            errors.add("attachments", "Must be 10 or fewer in length.")
        errors.raise_if_any()
        for a in files:
            if len(a.data) > self.attachment_size_limit:
                raise _APIError(413, 40005, "Request entity too large")
        if not (content or embeds or components or files):
            raise _APIError(400, 50006, "Cannot send an empty message")

    def _validate_commands(self, defs: Any) -> None:
        if not isinstance(defs, list):
            raise _APIError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "LIST", "message": "Must be a list."}]})
        errors = _FormErrors()
        seen: set = set()
        counts: dict[int, int] = {}
        for i, d in enumerate(defs):
            t = d.get("type", 1)
            name = d.get("name") or ""
            counts[t] = counts.get(t, 0) + 1
            if (t, name) in seen:
                errors.add(f"{i}.name", "Application command names must be unique")
            seen.add((t, name))
            if t == 1:
                if not _NAME_RE.fullmatch(name) or name != name.lower():
                    errors.add(f"{i}.name", f"Command name {name!r} is invalid (1-32 lowercase letters, digits, - or _).")
                if not 1 <= len(d.get("description") or "") <= 100:
                    errors.add(f"{i}.description", "Must be between 1 and 100 in length.")
                self._validate_options(d.get("options") or [], f"{i}.options", errors, depth=0)
            elif not 1 <= len(name) <= 32:
                errors.add(f"{i}.name", "Must be between 1 and 32 in length.")
        if counts.get(1, 0) > 100 or counts.get(2, 0) > 15 or counts.get(3, 0) > 15:
            errors.add("_", "Too many application commands.")
        errors.raise_if_any()

    def _validate_options(self, options: list, path: str, errors: _FormErrors, depth: int) -> None:
        if len(options) > 25:
            errors.add(path, "Must be 25 or fewer in length.")
        names: set[str] = set()
        optional_seen = False
        kinds = {o.get("type") in (1, 2) for o in options}
        if len(kinds) > 1:
            errors.add(path, "Sub-commands cannot be mixed with other options.")
        for j, o in enumerate(options):
            p = f"{path}.{j}"
            name = o.get("name") or ""
            if not _NAME_RE.fullmatch(name) or name != name.lower():
                errors.add(f"{p}.name", f"Option name {name!r} is invalid.")
            if name in names:
                errors.add(f"{p}.name", "Option names must be unique.")
            names.add(name)
            if not 1 <= len(o.get("description") or "") <= 100:
                errors.add(f"{p}.description", "Must be between 1 and 100 in length.")
            t = o.get("type")
            if t in (1, 2):
                if (t == 2 and depth > 0) or depth > 1:
                    errors.add(p, "Sub-commands nest at most two levels.")
                self._validate_options(o.get("options") or [], f"{p}.options", errors, depth + 1)
                continue
            if o.get("required"):
                if optional_seen:
                    errors.add(f"{p}.required", "Required options must be placed before non-required options")
            else:
                optional_seen = True
            choices = o.get("choices") or []
            if len(choices) > 25:
                errors.add(f"{p}.choices", "Must be 25 or fewer in length.")
            if choices and o.get("autocomplete"):
                errors.add(f"{p}.autocomplete", "Autocomplete cannot be set with choices.")
            for k, c in enumerate(choices):
                if not 1 <= len(c.get("name") or "") <= 100:
                    errors.add(f"{p}.choices.{k}.name", "Must be between 1 and 100 in length.")
                if isinstance(c.get("value"), str) and not 1 <= len(c["value"]) <= 100:
                    errors.add(f"{p}.choices.{k}.value", "Must be between 1 and 100 in length.")

    # ------------------------------------------------------------------ messages

    def _attachments_from(self, body: dict, files: dict[str, tuple[str, bytes]], existing: list[Attachment],
                          errors: _FormErrors) -> list[Attachment]:
        uploaded = dict(files)
        spec = body.get("attachments")
        result: list[Attachment] = []
        if spec is None:
            result = list(existing)
        else:
            by_id = {a.id: a for a in existing}
            for i, entry in enumerate(spec):
                key = str(entry.get("id"))
                if key in uploaded:
                    filename, data = uploaded.pop(key)
                    description = entry.get("description")
                    if description is not None and len(str(description)) > ALT_TEXT_LIMIT:
                        errors.add(f"attachments.{i}.description",
                                   f"Must be {ALT_TEXT_LIMIT} or fewer in length.")
                    result.append(Attachment(self._snowflake(), entry.get("filename") or filename, data,
                                             description))
                elif key in by_id:
                    result.append(by_id[key])
                else:
                    errors.add(f"attachments.{i}.id", f"Unknown attachment {key}.")
        for key in sorted(uploaded, key=lambda k: int(k) if k.isdigit() else 0):
            filename, data = uploaded[key]
            result.append(Attachment(self._snowflake(), filename, data))
        self.images_without_alt += [f"{a.id}/{a.filename}" for a in result if not a.description
                                    and a.filename.lower().endswith((".png", ".jpg", ".gif", ".webp"))]
        return result

    def _new_message(self, channel: Channel, *, author_id: str, body: dict, files: dict,
                     settable_flags: int = SETTABLE_FLAGS, extra_flags: int = 0, type: int = 0,
                     interaction: Optional[InteractionResult] = None) -> Message:
        errors = _FormErrors()
        attachments = self._attachments_from(body, files, [], errors)
        flags = (int(body.get("flags") or 0) & settable_flags) | extra_flags
        content = body.get("content")
        embeds = list(body.get("embeds") or [])
        components = list(body.get("components") or [])
        if not flags & LOADING:
            self._validate_message(content, embeds, components, flags, attachments, errors,
                                   body.get("allowed_mentions"))
        msg = Message(self._snowflake(), channel.id, author_id, content="" if content is None else str(content),
                      embeds=embeds, components=components, flags=flags, files=attachments, type=type,
                      guild_id=channel.guild_id)
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.interaction_type = interaction.interaction_type
            if flags & EPHEMERAL:
                msg.ephemeral_to = interaction.user_id
        reference = body.get("message_reference")
        if reference and reference.get("message_id"):
            msg.reference_id = str(reference["message_id"])
            msg.type = 19
        self._messages[msg.id] = msg
        self._channel_messages[channel.id].append(msg)
        if interaction is not None:
            interaction.files += msg.attachments
        return msg

    def _edit_message(self, msg: Message, body: dict, files: dict, *,
                      interaction: Optional[InteractionResult] = None) -> None:
        if msg.deleted:
            raise _APIError(404, 10008, "Unknown Message")
        errors = _FormErrors()
        attachments = self._attachments_from(body, files, msg.files, errors)
        content = body["content"] if "content" in body else msg.content
        embeds = list(body["embeds"] or []) if "embeds" in body else msg.embeds
        components = list(body["components"] or []) if "components" in body else msg.components
        flags = msg.flags & ~LOADING
        if "flags" in body and body["flags"] is not None:
            flags = (flags & ~SETTABLE_FLAGS) | (int(body["flags"]) & SETTABLE_FLAGS)
        self._validate_message(content, embeds, components, flags, attachments, errors,
                               body.get("allowed_mentions"))
        new_ids = {a.id for a in attachments} - {a.id for a in msg.files}
        msg.content, msg.embeds, msg.components = "" if content is None else str(content), embeds, components
        msg.flags, msg.files = flags, attachments
        msg.edits += 1
        msg.edited_at = time.perf_counter()
        msg.edited_timestamp = _now_iso()
        if interaction is not None:
            interaction.files += [(a.filename, a.data) for a in attachments if a.id in new_ids]

    async def _announce(self, msg: Message) -> None:
        """MESSAGE_CREATE to the bot, as Discord sends it for every visible message."""
        if msg.ephemeral:
            return
        channel = self._channels[msg.channel_id]
        intent = INTENT_DIRECT_MESSAGES if channel.type == DM_CHANNEL else INTENT_GUILD_MESSAGES
        for session in self._sessions_for(channel.guild_id):
            if not session.intents & intent:
                continue
            payload = self._message_payload(msg)
            if msg.author_id in self._users and channel.type != DM_CHANNEL and msg.author_id != self.bot_user_id:
                payload["member"] = self._member_payload(self._users[msg.author_id], with_user=False)
                if not session.intents & INTENT_MESSAGE_CONTENT and f"<@{self.bot_user_id}>" not in msg.content:
                    payload.update(content="", embeds=[], attachments=[], components=[])
            await session.dispatch("MESSAGE_CREATE", payload)

    # ------------------------------------------------------------------ gateway

    def _ready_sessions(self) -> list[_Session]:
        return [s for s in self._sessions if s.ready and not s.ws.closed]

    def _sessions_for(self, guild_id: Optional[str]) -> list[_Session]:
        """The sessions of the shard that receives this guild's events; events without a guild
        (DMs) reach shard 0 only, as on Discord."""
        return [s for s in self._ready_sessions()
                if s.shard[0] == (self.shard_of(guild_id, s.shard[1]) if guild_id else 0)]

    async def _dispatch(self, event: str, data: Any, intent: Optional[int] = None) -> None:
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        for session in self._sessions_for(guild_id):
            if intent is None or session.intents & intent:
                await session.dispatch(event, data)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _dispatch_soon(self, event: str, make_data: Callable[[], Any], intent: int) -> None:
        if self._ready_sessions():
            self._spawn(self._dispatch(event, make_data(), intent))

    async def _live_session(self, timeout: float = 5.0, *, guild_id: Optional[str] = None,
                            any_shard: bool = True) -> _Session:
        """The newest ready session (of the shard that receives `guild_id`'s events, unless
        `any_shard`)."""
        def newest():
            sessions = self._ready_sessions() if any_shard else self._sessions_for(guild_id)
            return (sessions or [None])[-1]
        where = "" if any_shard else f" for {'server ' + guild_id if guild_id else 'DMs (shard 0)'}"
        return await self.wait_for(newest, timeout,
                                   message=f"no bot is connected to the fake Discord gateway{where}")

    async def _h_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = _Session(ws, next(self._counter))
        self._sessions.append(session)
        try:
            await session.send({"op": 10, "d": {"heartbeat_interval": 41250}})
            async for frame in ws:
                if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                await self._on_gateway_frame(session, json.loads(frame.data))
        finally:
            self._sessions.remove(session)
            self._notify()
        return ws

    async def _on_gateway_frame(self, session: _Session, frame: dict) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == 1:
            await session.send({"op": 11})
        elif op == 2:
            await self._identify(session, data)
        elif op == 6:
            await self._resume(session, data)
        elif op == 8:
            await self._request_members(session, data)
        elif op in (3, 4):
            pass  # presence and voice state updates
        else:
            log.warning("fake gateway: unexpected op %s from the client", op)

    async def _identify(self, session: _Session, data: dict) -> None:
        if data.get("token") != self.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_count += 1
        if data.get("shard"):
            session.shard = (int(data["shard"][0]), int(data["shard"][1]))
        self.identified_shards.append(session.shard)
        self.identified_at.append(time.perf_counter())
        guilds = [g for g in self._guilds if self.shard_of(g, session.shard[1]) == session.shard[0]]
        session.intents = int(data.get("intents") or 0)
        session.session_id = f"fake-session-{session.number}"
        self._resumable[session.session_id] = session.intents
        ready = {
            "v": 10, "user": {**self._user_payload(self._users[self.bot_user_id]), "verified": True,
                              "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": g, "unavailable": True} for g in guilds], "session_id": session.session_id,
            "session_type": "normal", "resume_gateway_url": self.gateway_url,
            "application": {"id": self.application_id, "flags": 0}, "private_channels": [],
            "relationships": [], "presences": [], "geo_ordered_rtc_regions": [], "user_settings": {}, "_trace": [],
        }
        if data.get("shard"):
            ready["shard"] = data["shard"]
        await session.dispatch("READY", ready)
        for guild_id in guilds:
            await session.dispatch("GUILD_CREATE", self._guild_payload(full=True, guild_id=guild_id))
        session.ready = True
        self._notify()

    async def _resume(self, session: _Session, data: dict) -> None:
        session_id = data.get("session_id")
        if data.get("token") != self.token or session_id not in self._resumable:
            await session.send({"op": 9, "d": False})
            return
        session.session_id = session_id
        session.intents = self._resumable[session_id]
        session.seq = int(data.get("seq") or 0)
        await session.dispatch("RESUMED", {})
        session.ready = True
        self._notify()

    async def _request_members(self, session: _Session, data: dict) -> None:
        members = [u for u in self._users.values()]
        if data.get("user_ids"):
            wanted = {str(i) for i in data["user_ids"]}
            members = [u for u in members if u.id in wanted]
        elif data.get("query"):
            members = [u for u in members if u.username.startswith(data["query"])]
        limit = data.get("limit") or 0
        if limit:
            members = members[:limit]
        chunk = {"guild_id": str(data.get("guild_id") or self.guild_id), "members": [self._member_payload(u) for u in members],
                 "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ REST plumbing

    def _route_table(self) -> list[tuple[str, re.Pattern, Callable, bool]]:
        app, gld = r"/applications/(\d+)", r"/applications/(\d+)/guilds/(\d+)"
        webhook_message = r"/webhooks/(\d+)/([^/]+)/messages/(@original|\d+)"
        table = [
            ("GET", r"/users/@me", self._r_me, True),
            ("GET", r"/users/(\d+)", self._r_user, True),
            ("POST", r"/users/@me/channels", self._r_create_dm, True),
            ("GET", r"/oauth2/applications/@me", self._r_appinfo, True),
            ("GET", r"/applications/@me", self._r_appinfo, True),
            ("GET", r"/gateway", self._r_gateway, False),
            ("GET", r"/gateway/bot", self._r_gateway_bot, True),
            ("GET", app + r"/commands", self._r_get_commands, True),
            ("PUT", app + r"/commands", self._r_put_commands, True),
            ("POST", app + r"/commands", self._r_post_command, True),
            ("GET", app + r"/commands/(\d+)", self._r_get_command, True),
            ("PATCH", app + r"/commands/(\d+)", self._r_patch_command, True),
            ("DELETE", app + r"/commands/(\d+)", self._r_delete_command, True),
            ("GET", gld + r"/commands/permissions", self._r_command_permissions, True),
            ("GET", gld + r"/commands", self._r_get_commands, True),
            ("PUT", gld + r"/commands", self._r_put_commands, True),
            ("POST", gld + r"/commands", self._r_post_command, True),
            ("GET", gld + r"/commands/(\d+)", self._r_get_command, True),
            ("PATCH", gld + r"/commands/(\d+)", self._r_patch_command, True),
            ("DELETE", gld + r"/commands/(\d+)", self._r_delete_command, True),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._r_callback, False),
            ("POST", r"/webhooks/(\d+)/([^/]+)", self._r_followup, False),
            ("GET", webhook_message, self._r_get_webhook_message, False),
            ("PATCH", webhook_message, self._r_edit_webhook_message, False),
            ("DELETE", webhook_message, self._r_delete_webhook_message, False),
            ("GET", r"/channels/(\d+)", self._r_get_channel, True),
            ("PATCH", r"/channels/(\d+)", self._r_patch_channel, True),
            ("DELETE", r"/channels/(\d+)", self._r_delete_channel, True),
            ("GET", r"/channels/(\d+)/messages", self._r_history, True),
            ("POST", r"/channels/(\d+)/messages", self._r_post_message, True),
            ("GET", r"/channels/(\d+)/messages/(\d+)", self._r_get_message, True),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self._r_edit_message, True),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", self._r_delete_message, True),
            ("POST", r"/channels/(\d+)/messages/(\d+)/threads", self._r_thread_from_message, True),
            ("POST", r"/channels/(\d+)/threads", self._r_thread, True),
            ("GET", r"/channels/(\d+)/thread-members", self._r_thread_members, True),
            ("GET", r"/channels/(\d+)/thread-members/(@me|\d+)", self._r_thread_member, True),
            ("PUT", r"/channels/(\d+)/thread-members/(@me|\d+)", self._r_add_thread_member, True),
            ("DELETE", r"/channels/(\d+)/thread-members/(@me|\d+)", self._r_remove_thread_member, True),
            ("POST", r"/channels/(\d+)/typing", self._r_typing, True),
            ("GET", r"/guilds/(\d+)", self._r_guild, True),
            ("GET", r"/guilds/(\d+)/channels", self._r_guild_channels, True),
            ("GET", r"/guilds/(\d+)/members", self._r_guild_members, True),
            ("GET", r"/guilds/(\d+)/members/(\d+)", self._r_guild_member, True),
            ("GET", r"/guilds/(\d+)/roles", self._r_guild_roles, True),
            ("GET", r"/guilds/(\d+)/threads/active", self._r_active_threads, True),
        ]
        return [(method, re.compile(pattern), handler, auth) for method, pattern, handler, auth in table]

    async def _read_body(self, request: web.Request) -> tuple[Any, dict[str, tuple[str, bytes]]]:
        raw = await request.read()
        content_type = request.headers.get("Content-Type", "")
        if content_type.lower().startswith("multipart/"):
            body, files = None, {}
            for name, filename, data in _form_parts(raw, content_type):
                if name == "payload_json":
                    body = json.loads(data)
                else:
                    match = re.fullmatch(r"files?\[(\d+)\]", name or "")
                    files[match.group(1) if match else (name or "0")] = (filename or "file", data)
            return body, files
        return (json.loads(raw) if raw else None), {}

    async def _h_http(self, request: web.Request) -> web.StreamResponse:
        path, method = request.path, request.method
        if path.startswith("/attachments/"):
            return self._serve_attachment(path)
        sub = path[len(API_PREFIX):] if path.startswith(API_PREFIX + "/") else None
        try:
            body, files = await self._read_body(request)
            if body is not None or files:
                self.all_payloads.append(self._record(method, sub or path, request, body, files))
            if sub is None:
                raise self._unknown(method, path)
            for route_method, pattern, handler, auth in self._routes:
                match = pattern.fullmatch(sub)
                if match and route_method == method:
                    break
            else:
                raise self._unknown(method, sub)
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise _APIError(401, 0, "401: Unauthorized")
            result = await handler(_Req(request, body, files), *match.groups())
            if isinstance(result, web.StreamResponse):
                return result
            return web.Response(status=204) if result is None else _json_response(result)
        except _APIError as error:
            self.error_responses.append({"method": method, "path": sub or path, "status": error.status,
                                         "code": error.code, "message": error.message, "errors": error.errors})
            level = logging.INFO if error.code in (50007, 10062, 40060, 50027) else logging.WARNING
            log.log(level, "fake Discord answered %s %s with %s %s %s %s", method, sub or path, error.status,
                    error.code, error.message, error.errors or "")
            return _json_response(error.body(), error.status)
        finally:
            self._notify()

    def _record(self, method: str, path: str, request: web.Request, body: Any, files: dict) -> RequestRecord:
        record = RequestRecord(method, path, dict(request.query), body, list(files.values()))
        channel = re.match(r"/channels/(\d+)", path)
        token = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", path)
        if channel:
            record.channel_id = channel.group(1)
        elif token and token.group(1) in self._tokens:
            res = self._tokens[token.group(1)]
            record.channel_id, record.user_id = res.channel_id, res.user_id
        return record

    def _unknown(self, method: str, path: str) -> _APIError:
        self.unknown_routes.append(f"{method} {path}")
        log.error("FAKE DISCORD HAS NO ROUTE %s %s: add it to tests/fakediscord.py", method, path)
        return _APIError(404, 0, f"404: Not Found (the fake Discord has no route {method} {path})")

    def _serve_attachment(self, path: str) -> web.Response:
        parts = path.split("/")
        for msg in self._messages.values():
            for a in msg.files:
                if len(parts) > 3 and a.id == parts[3]:
                    return web.Response(body=a.data, headers={"Content-Type": self._content_type(a.filename)})
        return web.Response(status=404)

    def _check_app(self, app_id: str) -> None:
        if app_id != self.application_id:
            raise _APIError(403, 50001, "Missing Access")

    def _check_guild(self, guild_id: str) -> None:
        if guild_id not in self._guilds:
            raise _APIError(404, 10004, "Unknown Guild")

    def _channel_or_404(self, channel_id: str) -> Channel:
        channel = self._channels.get(channel_id)
        if channel is None or channel.deleted:
            raise _APIError(404, 10003, "Unknown Channel")
        return channel

    def _message_or_404(self, channel_id: str, message_id: str) -> Message:
        self._channel_or_404(channel_id)
        msg = self._messages.get(message_id)
        if msg is None or msg.channel_id != channel_id or msg.deleted or msg.ephemeral:
            raise _APIError(404, 10008, "Unknown Message")
        return msg

    def _user_or_404(self, user_id: str) -> User:
        if user_id == "@me":
            user_id = self.bot_user_id
        user = self._users.get(user_id)
        if user is None:
            raise _APIError(404, 10013, "Unknown User")
        return user

    # ------------------------------------------------------------------ REST: users, app, gateway

    async def _r_me(self, req: _Req) -> dict:
        return {**self._user_payload(self._users[self.bot_user_id]), "verified": True, "mfa_enabled": False,
                "locale": "en-US", "email": None}

    async def _r_user(self, req: _Req, user_id: str) -> dict:
        return self._user_payload(self._user_or_404(user_id))

    async def _r_create_dm(self, req: _Req) -> dict:
        recipient = str((req.json or {}).get("recipient_id"))
        user = self._users.get(recipient)
        if user is None:
            raise _APIError(400, 50033, "Invalid Recipient(s)")
        return self._channel_payload(self._dm_channel_for(user))

    async def _r_appinfo(self, req: _Req) -> dict:
        bot = self._users[self.bot_user_id]
        return {"id": self.application_id, "name": bot.display_name, "icon": None, "description": "",
                "summary": "", "bot_public": True, "bot_require_code_grant": False,
                "owner": self._user_payload(self._users[self.owner_id]), "team": None, "verify_key": "0" * 64,
                "flags": 0, "bot": self._user_payload(bot), "tags": [], "redirect_uris": [],
                "interactions_endpoint_url": None, "approximate_guild_count": 1}

    async def _r_gateway(self, req: _Req) -> dict:
        return {"url": self.gateway_url}

    async def _r_gateway_bot(self, req: _Req) -> dict:
        return {"url": self.gateway_url, "shards": self.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}}

    # ------------------------------------------------------------------ REST: commands

    def _store_command(self, definition: dict, scope: Optional[str]) -> dict:
        t = definition.get("type", 1)
        command_id = self._command_ids.setdefault((scope, t, definition.get("name")), self._snowflake())
        command = {"default_member_permissions": None, "dm_permission": True, "nsfw": False, "description": "",
                   **definition, "id": command_id, "application_id": self.application_id, "type": t,
                   "version": self._snowflake()}
        if scope:
            command["guild_id"] = scope
        return command

    def _scope(self, app_id: str, guild_id: Optional[str]) -> Optional[str]:
        self._check_app(app_id)
        if guild_id is not None:
            self._check_guild(guild_id)
        return guild_id

    async def _r_get_commands(self, req: _Req, app_id: str, guild_id: Optional[str] = None) -> list:
        return self._commands.get(self._scope(app_id, guild_id), [])

    async def _r_put_commands(self, req: _Req, app_id: str, guild_id: Optional[str] = None) -> list:
        scope = self._scope(app_id, guild_id)
        self._validate_commands(req.json)
        self.command_publishes += 1
        self._commands[scope] = [self._store_command(d, scope) for d in req.json]
        return self._commands[scope]

    async def _r_post_command(self, req: _Req, app_id: str, guild_id: Optional[str] = None) -> dict:
        scope = self._scope(app_id, guild_id)
        self._validate_commands([req.json])
        command = self._store_command(req.json, scope)
        commands = [c for c in self._commands.get(scope, []) if c["id"] != command["id"]]
        self._commands[scope] = commands + [command]
        return command

    def _command_by_id(self, scope: Optional[str], command_id: str) -> dict:
        for command in self._commands.get(scope, []):
            if command["id"] == command_id:
                return command
        raise _APIError(404, 10063, "Unknown application command")

    async def _r_get_command(self, req: _Req, app_id: str, *ids: str) -> dict:
        guild_id, command_id = (ids[0], ids[1]) if len(ids) == 2 else (None, ids[0])
        return self._command_by_id(self._scope(app_id, guild_id), command_id)

    async def _r_patch_command(self, req: _Req, app_id: str, *ids: str) -> dict:
        guild_id, command_id = (ids[0], ids[1]) if len(ids) == 2 else (None, ids[0])
        scope = self._scope(app_id, guild_id)
        command = self._command_by_id(scope, command_id)
        command.update({k: v for k, v in (req.json or {}).items() if k not in ("id", "application_id")})
        return command

    async def _r_delete_command(self, req: _Req, app_id: str, *ids: str) -> None:
        guild_id, command_id = (ids[0], ids[1]) if len(ids) == 2 else (None, ids[0])
        scope = self._scope(app_id, guild_id)
        command = self._command_by_id(scope, command_id)
        self._commands[scope] = [c for c in self._commands[scope] if c is not command]

    async def _r_command_permissions(self, req: _Req, app_id: str, guild_id: str) -> list:
        self._scope(app_id, guild_id)
        return []

    # ------------------------------------------------------------------ REST: interactions

    def _interaction_or_404(self, token: str, interaction_id: Optional[str] = None,
                            app_id: Optional[str] = None) -> InteractionResult:
        res = self._tokens.get(token)
        if res is None or (interaction_id is not None and res.id != interaction_id):
            raise _APIError(404, 10062, "Unknown interaction")
        if app_id is not None and app_id != self.application_id:
            raise _APIError(404, 10015, "Unknown Webhook")
        if res.expired:
            raise _APIError(401, 50027, "Invalid Webhook Token")
        return res

    async def _r_callback(self, req: _Req, interaction_id: str, token: str) -> dict:
        res = self._interaction_or_404(token, interaction_id)
        try:
            return await self._callback(req, res)
        except _APIError as error:
            res.rejected.append({"status": error.status, "code": error.code, "message": error.message,
                                 "errors": error.errors})
            raise

    async def _callback(self, req: _Req, res: InteractionResult) -> dict:
        if res.type is not None:
            raise _APIError(400, 40060, "Interaction has already been acknowledged.")
        if time.perf_counter() - res.dispatched_at > self.response_deadline:
            raise _APIError(404, 10062, "Unknown interaction")
        body = req.json or {}
        kind, data = body.get("type"), body.get("data") or {}
        allowed = {APPLICATION_COMMAND: (4, 5, 9), MESSAGE_COMPONENT: (4, 5, 6, 7, 9), AUTOCOMPLETE: (8,),
                   MODAL_SUBMIT: (4, 5, 6, 7) if res.message else (4, 5)}[res.interaction_type]
        if kind not in allowed:
            raise _APIError(400, 50035, "Invalid Form Body",
                            {"type": {"_errors": [{"code": "INVALID", "message":
                                                   f"response type {kind} is not valid for this interaction"}]}})
        channel = self._channels[res.channel_id]
        msg: Optional[Message] = None
        if kind in (4, 5):
            msg = self._new_message(channel, author_id=self.bot_user_id, body=data, files=req.files,
                                    settable_flags=SETTABLE_FLAGS | EPHEMERAL,
                                    extra_flags=LOADING if kind == 5 else 0,
                                    type=20 if res.interaction_type == APPLICATION_COMMAND else 0, interaction=res)
            res.original = msg
        elif kind in (6, 7):
            msg = res.message
            if kind == 7:
                self._edit_message(msg, data, req.files, interaction=res)
            res.original = msg
        elif kind == 8:
            self._validate_choices(data.get("choices"))
            res.choices = list(data.get("choices") or [])
        elif kind == 9:
            errors = _FormErrors()
            if not 1 <= len(data.get("title") or "") <= 45:
                errors.add("data.title", "Must be between 1 and 45 in length.")
            if not 1 <= len(data.get("custom_id") or "") <= 100:
                errors.add("data.custom_id", "Must be between 1 and 100 in length.")
            self._validate_components(data.get("components") or [], errors, v2=False, modal=True, path="data.components")
            errors.raise_if_any()
            res.modal = data
        res.type, res.data = kind, data
        res.responded_at = time.perf_counter()
        if kind in (4, 7, 8, 9):
            res._finish()
        if kind in (4, 5) and msg is not None:
            await self._announce(msg)
        resource: dict[str, Any] = {"type": kind}
        if msg is not None and kind != 6:
            resource["message"] = self._message_payload(msg)
        return {
            "interaction": {"id": res.id, "type": res.interaction_type,
                            "response_message_id": msg.id if msg is not None else None,
                            "response_message_loading": kind == 5,
                            "response_message_ephemeral": bool(msg is not None and msg.ephemeral)},
            "resource": resource,
        }

    @staticmethod
    def _validate_choices(choices: Any) -> None:
        errors = _FormErrors()
        if not isinstance(choices, list):
            errors.add("data.choices", "Must be a list.")
        elif len(choices) > 25:
            errors.add("data.choices", "Must be 25 or fewer in length.")
        else:
            for i, c in enumerate(choices):
                if not 1 <= len(str(c.get("name") or "")) <= 100:
                    errors.add(f"data.choices.{i}.name", "Must be between 1 and 100 in length.")
                if isinstance(c.get("value"), str) and len(c["value"]) > 100:
                    errors.add(f"data.choices.{i}.value", "Must be 100 or fewer in length.")
        errors.raise_if_any()

    def _webhook_interaction(self, app_id: str, token: str) -> InteractionResult:
        res = self._interaction_or_404(token, app_id=app_id)
        if res.type is None or res.type in (8, 9):
            raise _APIError(404, 10015, "Unknown Webhook")
        return res

    async def _r_followup(self, req: _Req, app_id: str, token: str) -> Optional[dict]:
        res = self._webhook_interaction(app_id, token)
        body = req.json or {}
        if res.original is not None and res.original.loading:
            # Discord: the first follow-up after a "thinking" defer replaces that message, and
            # keeps the defer's visibility.
            msg = res.original
            self._edit_message(msg, body, req.files, interaction=res)
        else:
            channel = self._channels[res.channel_id]
            msg = self._new_message(channel, author_id=self.bot_user_id, body=body, files=req.files,
                                    settable_flags=SETTABLE_FLAGS | EPHEMERAL, interaction=res)
            await self._announce(msg)
        res.followups.append(msg)
        res._finish()
        return self._message_payload(msg) if req.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, res: InteractionResult, message_id: str) -> Message:
        if message_id == "@original":
            msg = res.original
        else:
            msg = next((m for m in [res.original, *res.followups] if m is not None and m.id == message_id), None)
        if msg is None or msg.deleted:
            raise _APIError(404, 10008, "Unknown Message")
        return msg

    async def _r_get_webhook_message(self, req: _Req, app_id: str, token: str, message_id: str) -> dict:
        res = self._webhook_interaction(app_id, token)
        return self._message_payload(self._webhook_message(res, message_id))

    async def _r_edit_webhook_message(self, req: _Req, app_id: str, token: str, message_id: str) -> dict:
        res = self._webhook_interaction(app_id, token)
        msg = self._webhook_message(res, message_id)
        self._edit_message(msg, req.json or {}, req.files, interaction=res)
        if msg is res.original:
            res._finish()
        return self._message_payload(msg)

    async def _r_delete_webhook_message(self, req: _Req, app_id: str, token: str, message_id: str) -> None:
        res = self._webhook_interaction(app_id, token)
        self._webhook_message(res, message_id).deleted = True
        res._finish()

    # ------------------------------------------------------------------ REST: channels and messages

    async def _r_get_channel(self, req: _Req, channel_id: str) -> dict:
        return self._channel_payload(self._channel_or_404(channel_id))

    async def _r_patch_channel(self, req: _Req, channel_id: str) -> dict:
        channel = self._channel_or_404(channel_id)
        body = req.json or {}
        if "name" in body:
            if not 1 <= len(body["name"] or "") <= 100:
                raise _APIError(400, 50035, "Invalid Form Body",
                                {"name": {"_errors": [{"code": "INVALID", "message": "Must be between 1 and 100 in length."}]}})
            channel.name = body["name"]
        if channel.is_thread:
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in body:
                    setattr(channel, key, body[key])
            if "archived" in body:
                channel.archive_timestamp = _now_iso()
            await self._dispatch("THREAD_UPDATE", self._channel_payload(channel), INTENT_GUILDS)
        return self._channel_payload(channel)

    async def _r_delete_channel(self, req: _Req, channel_id: str) -> dict:
        channel = self._channel_or_404(channel_id)
        if not channel.is_thread:
            raise _APIError(403, 50013, "Missing Permissions")
        channel.deleted = True
        await self._dispatch("THREAD_DELETE", {"id": channel.id, "guild_id": channel.guild_id,
                                               "parent_id": channel.parent_id, "type": channel.type}, INTENT_GUILDS)
        return self._channel_payload(channel)

    async def _r_history(self, req: _Req, channel_id: str) -> list:
        self._channel_or_404(channel_id)
        msgs = self.messages(channel_id)
        query = req.query
        limit = min(int(query.get("limit", 50)), 100)
        if "before" in query:
            msgs = [m for m in msgs if int(m.id) < int(query["before"])]
        if "after" in query:
            msgs = [m for m in msgs if int(m.id) > int(query["after"])]
            return [self._message_payload(m) for m in reversed(msgs[:limit])]
        return [self._message_payload(m) for m in reversed(msgs[-limit:])]

    async def _r_post_message(self, req: _Req, channel_id: str) -> dict:
        channel = self._channel_or_404(channel_id)
        if channel.type == DM_CHANNEL:
            recipient = self._users[channel.recipient_id]
            if not recipient.dms_open or recipient.bot:
                raise _APIError(403, 50007, "Cannot send messages to this user")
        elif channel.is_thread and channel.archived:
            if channel.locked:
                raise _APIError(400, 50083, "Thread is archived")
            channel.archived = False
            await self._dispatch("THREAD_UPDATE", self._channel_payload(channel), INTENT_GUILDS)
        body = req.json or {}
        # enforce_nonce, as Discord: the same nonce from the same author within a few minutes
        # gives back the message made the first time, and makes none
        key = (self.bot_user_id, str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            earlier = self.nonces.get(key)
            if earlier is not None and time.monotonic() - earlier[1] < NONCE_SECONDS:
                return self._message_payload(earlier[0])
        msg = self._new_message(channel, author_id=self.bot_user_id, body=body, files=req.files)
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            self.nonces[key] = (msg, time.monotonic())
        await self._announce(msg)
        return self._message_payload(msg)

    async def _r_get_message(self, req: _Req, channel_id: str, message_id: str) -> dict:
        return self._message_payload(self._message_or_404(channel_id, message_id))

    async def _r_edit_message(self, req: _Req, channel_id: str, message_id: str) -> dict:
        msg = self._message_or_404(channel_id, message_id)
        if msg.author_id != self.bot_user_id:
            raise _APIError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, req.json or {}, req.files)
        return self._message_payload(msg)

    async def _r_delete_message(self, req: _Req, channel_id: str, message_id: str) -> None:
        self._message_or_404(channel_id, message_id).deleted = True

    async def _r_typing(self, req: _Req, channel_id: str) -> None:
        self._channel_or_404(channel_id)

    def _thread_name(self, body: dict) -> str:
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise _APIError(400, 50035, "Invalid Form Body",
                            {"name": {"_errors": [{"code": "INVALID", "message": "Must be between 1 and 100 in length."}]}})
        return name

    async def _new_thread(self, parent: Channel, body: dict, *, thread_id: str, type: int,
                          starter: Optional[Message]) -> dict:
        thread = Channel(thread_id, type, self._thread_name(body), guild_id=parent.guild_id, parent_id=parent.id,
                         owner_id=self.bot_user_id, starter_message_id=starter.id if starter else None,
                         auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
                         invitable=bool(body.get("invitable", True)), member_ids=[self.bot_user_id])
        self._channels[thread.id] = thread
        self._channel_messages[thread.id] = []
        if starter is not None:
            starter.thread_id = thread.id
            starter.flags |= HAS_THREAD
        await self._dispatch("THREAD_CREATE", {**self._channel_payload(thread), "newly_created": True}, INTENT_GUILDS)
        return self._channel_payload(thread)

    async def _r_thread_from_message(self, req: _Req, channel_id: str, message_id: str) -> dict:
        parent = self._channel_or_404(channel_id)
        starter = self._message_or_404(channel_id, message_id)
        if parent.type != GUILD_TEXT:
            raise _APIError(400, 50024, "Cannot execute action on this channel type")
        if starter.thread_id:
            raise _APIError(400, 160004, "A thread has already been created for this message")
        # On Discord a thread started from a message has the message's id.
        return await self._new_thread(parent, req.json or {}, thread_id=starter.id, type=PUBLIC_THREAD, starter=starter)

    async def _r_thread(self, req: _Req, channel_id: str) -> dict:
        parent = self._channel_or_404(channel_id)
        if parent.type != GUILD_TEXT:
            raise _APIError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        kind = int(body.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise _APIError(400, 50024, "Cannot execute action on this channel type")
        return await self._new_thread(parent, body, thread_id=self._snowflake(), type=kind, starter=None)

    def _thread_or_error(self, channel_id: str) -> Channel:
        channel = self._channel_or_404(channel_id)
        if not channel.is_thread:
            raise _APIError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _thread_member_payload(self, thread: Channel, user_id: str) -> dict:
        return {"id": thread.id, "user_id": user_id, "join_timestamp": thread.created, "flags": 0}

    async def _r_thread_members(self, req: _Req, channel_id: str) -> list:
        thread = self._thread_or_error(channel_id)
        return [self._thread_member_payload(thread, u) for u in thread.member_ids]

    async def _r_thread_member(self, req: _Req, channel_id: str, user_id: str) -> dict:
        thread = self._thread_or_error(channel_id)
        user = self._user_or_404(user_id)
        if user.id not in thread.member_ids:
            raise _APIError(404, 10007, "Unknown Member")
        return self._thread_member_payload(thread, user.id)

    async def _r_add_thread_member(self, req: _Req, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_error(channel_id)
        user = self._user_or_404(user_id)
        if thread.archived:
            raise _APIError(400, 50083, "Thread is archived")
        if user.id not in thread.member_ids:
            thread.member_ids.append(user.id)

    async def _r_remove_thread_member(self, req: _Req, channel_id: str, user_id: str) -> None:
        thread = self._thread_or_error(channel_id)
        user = self._user_or_404(user_id)
        if user.id in thread.member_ids:
            thread.member_ids.remove(user.id)

    # ------------------------------------------------------------------ REST: guild

    async def _r_guild(self, req: _Req, guild_id: str) -> dict:
        self._check_guild(guild_id)
        return {**self._guild_payload(full=False), "approximate_member_count": len(self._users)}

    async def _r_guild_channels(self, req: _Req, guild_id: str) -> list:
        self._check_guild(guild_id)
        return [self._channel_payload(c) for c in self._channels.values() if c.type == GUILD_TEXT]

    async def _r_guild_members(self, req: _Req, guild_id: str) -> list:
        self._check_guild(guild_id)
        limit = int(req.query.get("limit", 1))
        after = int(req.query.get("after", 0))
        members = sorted((u for u in self._users.values() if int(u.id) > after), key=lambda u: int(u.id))
        return [self._member_payload(u) for u in members[:limit]]

    async def _r_guild_member(self, req: _Req, guild_id: str, user_id: str) -> dict:
        self._check_guild(guild_id)
        user = self._users.get(user_id)
        if user is None:
            raise _APIError(404, 10007, "Unknown Member")
        return self._member_payload(user)

    async def _r_guild_roles(self, req: _Req, guild_id: str) -> list:
        self._check_guild(guild_id)
        return [self._role_payload(r) for r in self._roles.values()]

    async def _r_active_threads(self, req: _Req, guild_id: str) -> dict:
        self._check_guild(guild_id)
        threads = [t for t in self.threads if not t.archived]
        members = [self._thread_member_payload(t, self.bot_user_id) for t in threads if self.bot_user_id in t.member_ids]
        return {"threads": [self._channel_payload(t) for t in threads], "members": members}

    # ------------------------------------------------------------------ acting as users

    def _interaction_channel(self, user: User, channel: Any) -> Channel:
        channel_obj = self._channels.get(str(channel or self.channel_id))
        if channel_obj is None or channel_obj.deleted:
            raise ValueError(f"no channel {channel!r} in the fake Discord")
        if not self._can_see(user, channel_obj):
            raise ValueError(f"{user.username} cannot see channel {channel_obj.id} ({channel_obj.name or 'DM'})")
        return channel_obj

    def _find_command(self, name: str, *, in_dm: bool) -> tuple[dict, Optional[str]]:
        scopes: list[Optional[str]] = [None] if in_dm else [self.guild_id, None]
        for scope in scopes:
            for command in self._commands.get(scope, []):
                if command.get("name") == name and command.get("type", 1) == 1:
                    if in_dm and not self._allowed_in_dm(command):
                        raise ValueError(f"/{name} is not available in DMs")
                    return command, scope
        published = sorted({c["name"] for cmds in self._commands.values() for c in cmds})
        raise ValueError(f"/{name} is not published; published commands: {published}")

    @staticmethod
    def _allowed_in_dm(command: dict) -> bool:
        contexts = command.get("contexts")
        if contexts is not None:
            return 1 in contexts
        return command.get("dm_permission") is not False

    def _command_options(self, command: dict, path: list[str], given: dict, resolved: dict, channel: Channel,
                         focused: Optional[str]) -> list[dict]:
        definitions = command.get("options") or []
        if path:
            sub = next((o for o in definitions if o.get("name") == path[0] and o.get("type") in (1, 2)), None)
            if sub is None:
                raise ValueError(f"/{command['name']} has no subcommand {path[0]!r}")
            return [{"type": sub["type"], "name": sub["name"],
                     "options": self._command_options(sub, path[1:], given, resolved, channel, focused)}]
        if any(o.get("type") in (1, 2) for o in definitions):
            subs = [o["name"] for o in definitions]
            raise ValueError(f"/{command['name']} needs a subcommand, one of {subs} (e.g. '{command['name']} {subs[0]}')")
        by_name = {o["name"]: o for o in definitions}
        unknown = set(given) - set(by_name)
        if unknown:
            raise ValueError(f"/{command['name']} has no options {sorted(unknown)}; it has {sorted(by_name)}")
        if focused is not None and focused not in given:
            raise ValueError(f"the focused option {focused!r} needs a (typed) value in the options")
        options = []
        for definition in definitions:
            name = definition["name"]
            if name not in given:
                if definition.get("required") and focused is None:
                    raise ValueError(f"/{command['name']} needs option {name!r}")
                continue
            options.append(self._option_value(definition, given[name], resolved, channel, name == focused))
        return options

    def _option_value(self, definition: dict, value: Any, resolved: dict, channel: Channel, focused: bool) -> dict:
        t, name = definition["type"], definition["name"]
        if focused:
            if not definition.get("autocomplete"):
                raise ValueError(f"option {name!r} has no autocomplete")
            return {"type": t, "name": name, "value": str(value), "focused": True}
        if t == 3:
            value = str(value)
            if not definition.get("min_length", 0) <= len(value) <= definition.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length out of range")
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name!r} takes an integer, not {value!r}")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"option {name!r} takes a number, not {value!r}")
        elif t == 5:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} takes a boolean, not {value!r}")
        elif t in (6, 7, 8, 9):
            value = self._resolve(definition, str(value), resolved, channel)
        else:
            raise ValueError(f"option {name!r} has type {t}, which the fake Discord does not send")
        if t in (4, 10) and not definition.get("min_value", value) <= value <= definition.get("max_value", value):
            raise ValueError(f"option {name!r}: {value} out of range")
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} takes one of {[c['value'] for c in choices]}, not {value!r}")
        return {"type": t, "name": name, "value": value}

    def _resolve(self, definition: dict, value: str, resolved: dict, channel: Channel) -> str:
        t, name = definition["type"], definition["name"]
        if t in (6, 9) and value in self._users:
            user = self._users[value]
            resolved.setdefault("users", {})[value] = self._user_payload(user)
            if channel.guild_id:
                resolved.setdefault("members", {})[value] = self._member_payload(user, with_user=False, permissions=True)
        elif t in (8, 9) and value in self._roles:
            resolved.setdefault("roles", {})[value] = self._role_payload(self._roles[value])
        elif t == 7 and value in self._channels and self._channels[value].type != DM_CHANNEL:
            target = self._channels[value]
            if definition.get("channel_types") and target.type not in definition["channel_types"]:
                raise ValueError(f"option {name!r} does not take channels of type {target.type}")
            resolved.setdefault("channels", {})[value] = self._channel_payload(target, for_user=self._users[self.bot_user_id])
        else:
            raise ValueError(f"option {name!r}: nothing with id {value} to resolve (type {t})")
        return value

    async def _interact(self, interaction_type: int, user: User, channel: Channel, data: dict, *, kind: str,
                        message: Optional[Message] = None) -> InteractionResult:
        # to the shard that receives the guild's events (DMs: shard 0)
        session = await self._live_session(guild_id=channel.guild_id, any_shard=False)
        res = InteractionResult(self, id=self._snowflake(), token=f"fake-interaction-token-{next(self._counter)}",
                                interaction_type=interaction_type, kind=kind, user_id=user.id,
                                channel_id=channel.id, message=message)
        payload: dict[str, Any] = {
            "id": res.id, "application_id": self.application_id, "type": interaction_type, "data": data,
            "token": res.token, "version": 1, "channel_id": channel.id,
            "channel": self._channel_payload(channel, for_user=user), "app_permissions": str(self.bot_permissions),
            "locale": user.locale, "entitlements": [], "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if channel.guild_id:
            payload.update(guild_id=channel.guild_id, guild={"id": channel.guild_id, "locale": "en-US", "features": []},
                           guild_locale="en-US", member=self._member_payload(user, permissions=True), context=0,
                           authorizing_integration_owners={"0": channel.guild_id})
        else:
            payload.update(user=self._user_payload(user), context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            payload["message"] = self._message_payload(message)
        res.payload = payload
        self._tokens[res.token] = res
        self.interactions.append(res)
        res.shard = self.received_by[res.id] = session.shard[0]
        res.dispatched_at = time.perf_counter()
        await session.dispatch("INTERACTION_CREATE", payload)
        try:
            await self.wait_for(lambda: res.type is not None or res.rejected, self.response_deadline)
        except FakeDiscordError:
            raise InteractionFailed(f"the bot gave no response to {kind} {self._describe(data)} by "
                                    f"{user.username} within {self.response_deadline} s") from None
        if res.type is None:
            raise InteractionFailed(f"Discord refused the bot's response to {kind} {self._describe(data)}: "
                                    f"{res.rejected}")
        return res

    @staticmethod
    def _describe(data: dict) -> str:
        if "custom_id" in data:
            return repr(data["custom_id"])
        return "/" + str(data.get("name", "?"))

    async def slash(self, user: Any, command: str, options: Optional[dict] = None, *, channel: Any = None) -> InteractionResult:
        user_obj = self._user(user)
        channel_obj = self._interaction_channel(user_obj, channel)
        names = command.lstrip("/").split()
        definition, scope = self._find_command(names[0], in_dm=channel_obj.type == DM_CHANNEL)
        resolved: dict = {}
        data: dict[str, Any] = {"id": definition["id"], "name": definition["name"], "type": 1,
                                "options": self._command_options(definition, names[1:], dict(options or {}), resolved,
                                                                 channel_obj, None)}
        if resolved:
            data["resolved"] = resolved
        if scope:
            data["guild_id"] = scope
        return await self._interact(APPLICATION_COMMAND, user_obj, channel_obj, data, kind="slash")

    async def autocomplete(self, user: Any, command: str, options: dict, *, focused: str, channel: Any = None) -> list[dict]:
        user_obj = self._user(user)
        channel_obj = self._interaction_channel(user_obj, channel)
        names = command.lstrip("/").split()
        definition, scope = self._find_command(names[0], in_dm=channel_obj.type == DM_CHANNEL)
        resolved: dict = {}
        data: dict[str, Any] = {"id": definition["id"], "name": definition["name"], "type": 1,
                                "options": self._command_options(definition, names[1:], dict(options), resolved,
                                                                 channel_obj, focused)}
        if resolved:
            data["resolved"] = resolved
        if scope:
            data["guild_id"] = scope
        res = await self._interact(AUTOCOMPLETE, user_obj, channel_obj, data, kind="autocomplete")
        return list(res.choices or [])

    async def send_raw(self, user: Any, interaction_type: int, data: dict, *, channel: Any = None,
                       message_id: Any = None) -> InteractionResult:
        """An interaction carrying exactly `data`, unchecked: what a client of another release,
        an altered one or a forged one may send (for fuzzing). Returns like slash()/click()."""
        user_obj = self._user(user)
        channel_obj = self._channels[str(channel or self.channel_id)]
        msg = self._messages.get(str(message_id)) if message_id is not None else None
        kind = {APPLICATION_COMMAND: "slash", MESSAGE_COMPONENT: "component",
                AUTOCOMPLETE: "autocomplete", MODAL_SUBMIT: "modal"}[interaction_type]
        return await self._interact(interaction_type, user_obj, channel_obj, data, kind=kind, message=msg)

    def _visible_message(self, user: User, msg: Message) -> bool:
        if msg.deleted or (msg.ephemeral and msg.ephemeral_to != user.id):
            return False
        return self._can_see(user, self._channels[msg.channel_id])

    def _find_component(self, user: User, custom_id: str, message_id: Any, types: tuple) -> tuple[Message, dict]:
        if message_id is not None:
            msg = self._messages.get(str(message_id))
            if msg is None or not self._visible_message(user, msg):
                raise ValueError(f"{user.username} cannot see message {message_id}")
            candidates = [msg]
        else:
            candidates = [m for m in reversed(list(self._messages.values())) if self._visible_message(user, m)]
        for msg in candidates:
            for component in _walk_components(msg.components):
                if component.get("custom_id") == custom_id and component.get("type") in types:
                    if component.get("disabled"):
                        raise ValueError(f"component {custom_id!r} on message {msg.id} is disabled")
                    return msg, component
        seen = [cid for m in candidates[:5] for cid in m.custom_ids()]
        raise ValueError(f"{user.username} sees no component {custom_id!r} (of type {types}); recent ones: {seen}")

    async def click(self, user: Any, custom_id: str, *, message_id: Any = None) -> InteractionResult:
        user_obj = self._user(user)
        msg, _ = self._find_component(user_obj, custom_id, message_id, (2,))
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(MESSAGE_COMPONENT, user_obj, self._channels[msg.channel_id], data,
                                    kind="component", message=msg)

    async def select(self, user: Any, custom_id: str, values: list, *, message_id: Any = None) -> InteractionResult:
        user_obj = self._user(user)
        msg, component = self._find_component(user_obj, custom_id, message_id, SELECT_TYPES)
        values = [str(v) for v in values]
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo} to {hi} values, not {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"], "values": values}
        channel = self._channels[msg.channel_id]
        if component["type"] == 3:
            options = [o.get("value") for o in component.get("options") or []]
            bad = [v for v in values if v not in options]
            if bad:
                raise ValueError(f"select {custom_id!r} has no options {bad}; options: {options}")
        else:
            resolved: dict = {}
            kind = {5: 6, 6: 8, 7: 9, 8: 7}[component["type"]]
            for v in values:
                self._resolve({"type": kind, "name": custom_id}, v, resolved, channel)
            data["resolved"] = resolved
        return await self._interact(MESSAGE_COMPONENT, user_obj, channel, data, kind="component", message=msg)

    async def submit_modal(self, res: InteractionResult, values: dict) -> InteractionResult:
        """Submit the modal the bot answered `res` with, filling text inputs (and selects) by custom_id."""
        if res.type != 9 or not res.modal:
            raise ValueError(f"{res!r} was not answered with a modal")
        user = self._users[res.user_id]
        remaining = dict(values)

        def fill(component: dict) -> dict:
            custom_id = component.get("custom_id")
            if component.get("type") == 4:
                value = str(remaining.pop(custom_id, component.get("value") or ""))
                if component.get("required", True) and not value:
                    raise ValueError(f"modal field {custom_id!r} is required")
                return {"type": 4, "id": component.get("id"), "custom_id": custom_id, "value": value}
            if component.get("type") in SELECT_TYPES:
                return {"type": component["type"], "id": component.get("id"), "custom_id": custom_id,
                        "values": [str(v) for v in remaining.pop(custom_id, [])]}
            return {k: v for k, v in component.items() if k in ("type", "id", "content")}

        components = []
        for top in res.modal.get("components") or []:
            if top.get("type") == 1:
                components.append({"type": 1, "components": [fill(c) for c in top.get("components") or []]})
            elif top.get("type") == 18:
                components.append({"type": 18, "id": top.get("id"), "component": fill(top["component"])})
            else:
                components.append(fill(top))
        if remaining:
            raise ValueError(f"the modal has no fields {sorted(remaining)}")
        data = {"custom_id": res.modal["custom_id"], "components": components}
        return await self._interact(MODAL_SUBMIT, user, self._channels[res.channel_id], data, kind="modal",
                                    message=res.message)

    async def say(self, user: Any, content: str, *, channel: Any = None) -> Message:
        """A user posts a plain message (the bot gets MESSAGE_CREATE, as its intents allow)."""
        user_obj = self._user(user)
        channel_obj = self._interaction_channel(user_obj, channel)
        msg = self._new_message(channel_obj, author_id=user_obj.id, body={"content": content}, files={})
        await self._announce(msg)
        self._notify()
        return msg


class _Req:
    """What a route handler needs of a request: parsed JSON body, uploaded files, query."""

    def __init__(self, request: web.Request, body: Any, files: dict[str, tuple[str, bytes]]) -> None:
        self.json, self.files, self.query = body, files, request.query
