"""The outbox dispatcher: sends the notices that game changes queued in the database.

A notice is delivered at least once and in order per pass; a Discord error that may pass
(5xx, rate limits, network) is retried later with a growing delay; a DM refused (the player's
DMs are closed, error 50007) is remembered for that game and replaced by the notice's
`fallback` posted in the game's thread (once per game when `fallback_once`); any other refusal
is recorded as failed and logged.

A notice with `edit_of` edits the message an earlier notice became: its content, image and
controls, each only when the payload has it. It waits for that notice to be delivered; when
there is no message to edit, it is posted as a new one if `repost`, else dropped.
"""

from __future__ import annotations

import asyncio
import io
import logging

import aiohttp
import discord

from .components import build_view
from .storage import Notice, OutboxItem

log = logging.getLogger(__name__)

DM_CLOSED = 50007
RETRY_DELAYS = (2, 10, 60, 300, 1800, 3600)   # seconds, then give up
BOARD_FILE = "board.png"


def render_board(board: dict) -> bytes:
    import render  # the renderer is slow to import; only the dispatcher needs it

    return render.render_png(board["view"], names=board.get("names"))


class Delivery:
    def __init__(self, bot):
        self.bot = bot
        self.lock = asyncio.Lock()
        self.dm_channels: dict[int, int] = {}

    async def deliver_due(self) -> int:
        """Send every notice that is due; returns how many were sent."""
        sent = 0
        async with self.lock:
            while True:
                items = await self.bot.store.pending_outbox(self.bot.now())
                if not items:
                    return sent
                for item in items:
                    if await self.deliver(item):
                        sent += 1

    async def deliver(self, item: OutboxItem) -> bool:
        store = self.bot.store
        message = None
        if item.edit_of is not None:
            target = await store.outbox_item(item.edit_of)
            if target is not None and not target.delivered and not target.failed:
                # that message is not posted yet: wait for it (this is no attempt of ours)
                await store.outbox_retry(item.id, max(target.next_attempt_at, self.bot.now() + 1),
                                         attempted=False)
                return False
            if target is not None and target.delivered and target.message_id:
                message = target.message_id
            elif not item.payload.get("repost"):
                await store.outbox_failed(item.id, "nothing to edit")
                return False
        try:
            message_id = await (self.edit(item, message) if message else self.send(item))
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                await self.retry(item, f"HTTP {exc.status}")
            elif message:
                await self.edit_refused(item, exc)
            elif item.target_kind == "user":
                # DMs closed (50007), or no DMs at all: the notice's fallback goes to the thread
                await self.dm_refused(item, exc)
            elif isinstance(exc, discord.NotFound) and await self.to_lobby_channel(item):
                pass
            else:
                log.warning("notice %s for game %s refused: %s", item.id, item.game_id, exc)
                await store.outbox_failed(item.id, f"http {exc.status} {exc.code}")
            return False
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            await self.retry(item, repr(exc))
            return False
        except Exception:
            log.exception("could not deliver notice %s for game %s", item.id, item.game_id)
            await self.retry(item, "error")
            return False
        await store.outbox_delivered(item.id, self.bot.now(), message_id)
        return True

    async def retry(self, item: OutboxItem, reason: str) -> None:
        if item.attempts >= len(RETRY_DELAYS):
            log.warning("giving up notice %s for game %s after %s attempts: %s",
                        item.id, item.game_id, item.attempts + 1, reason)
            await self.bot.store.outbox_failed(item.id, reason)
            return
        delay = RETRY_DELAYS[item.attempts]
        log.info("notice %s for game %s will be retried in %ss: %s", item.id, item.game_id, delay, reason)
        await self.bot.store.outbox_retry(item.id, self.bot.now() + delay)

    async def to_lobby_channel(self, item: OutboxItem) -> bool:
        """A post to a game's thread that Discord does not know (deleted, or never really made)
        goes to the lobby channel instead."""
        store = self.bot.store
        row = await store.get_game(item.game_id) if item.game_id else None
        if item.target_kind != "channel" or row is None or item.target_id == row.channel_id:
            return False
        log.warning("notice %s for game %s: thread %s unknown; posting in the channel", item.id, row.id, item.target_id)
        await store.outbox_failed(item.id, "thread gone")
        await store.add_notices(row.id, [Notice("channel", row.channel_id, item.payload, tag=item.tag)],
                                self.bot.now())
        return True

    async def edit_refused(self, item: OutboxItem, exc: discord.HTTPException) -> None:
        """The message to edit is gone (or may not be edited): post anew when the notice says
        so; else it does not matter (it only took old controls off)."""
        store = self.bot.store
        log.info("notice %s for game %s could not edit its message: %s", item.id, item.game_id, exc)
        await store.outbox_failed(item.id, f"edit refused {exc.status} {exc.code}")
        if item.payload.get("repost"):
            await store.add_notices(item.game_id, [Notice(item.target_kind, item.target_id,
                                                          item.payload, tag=item.tag)], self.bot.now())

    async def dm_refused(self, item: OutboxItem, exc: discord.HTTPException) -> None:
        store = self.bot.store
        if exc.code != DM_CLOSED:
            log.warning("notice %s for game %s: cannot send a DM (%s)", item.id, item.game_id, exc)
        await store.outbox_failed(item.id, "dm closed" if exc.code == DM_CLOSED else f"dm refused {exc.status} {exc.code}")
        fallback = item.payload.get("fallback")
        row = await store.get_game(item.game_id) if item.game_id else None
        if row is None:
            return
        newly = await store.mark_dms_closed(row.id, item.target_id)
        if fallback and (newly or not item.payload.get("fallback_once")):
            target = row.thread_id or row.channel_id
            await store.add_notices(row.id, [Notice("channel", target, fallback)], self.bot.now())

    async def channel_for(self, item: OutboxItem) -> int:
        if item.target_kind == "channel":
            return item.target_id
        channel_id = self.dm_channels.get(item.target_id)
        if channel_id is None:
            data = await self.bot.http.start_private_message(item.target_id)
            channel_id = self.dm_channels[item.target_id] = int(data["id"])
        return channel_id

    async def send(self, item: OutboxItem) -> int | None:
        """Post the notice; the new message's id (None if the answer lacks it). Through the HTTP
        client, not Messageable.send: a message that was posted must count as delivered even when
        the answer lacks fields discord.py needs to build a Message (else it would be re-posted)."""
        kwargs = await self.message_parts(item, ("content", "controls", "board"))
        kwargs["content"] = kwargs.get("content") or None
        channel_id = await self.channel_for(item)
        with discord.http.handle_message_parameters(
                previous_allowed_mentions=self.bot.allowed_mentions, **kwargs) as params:
            data = await self.bot.http.send_message(channel_id, params=params)
        message_id = data.get("id") if isinstance(data, dict) else None
        return int(message_id) if message_id else None

    async def edit(self, item: OutboxItem, message_id: int) -> int:
        """Edit message `message_id` with the parts the notice has; returns the message id."""
        kwargs = await self.message_parts(item, [k for k in ("content", "controls", "board")
                                                 if k in item.payload])
        channel_id = await self.channel_for(item)
        with discord.http.handle_message_parameters(
                previous_allowed_mentions=self.bot.allowed_mentions, **kwargs) as params:
            await self.bot.http.edit_message(channel_id, message_id, params=params)
        return message_id

    async def message_parts(self, item: OutboxItem, parts) -> dict:
        """discord.py's message parameters for the given parts of the notice's payload: a
        new image replaces the old one; empty controls remove the old ones."""
        payload = item.payload
        kwargs: dict = {"allowed_mentions": discord.AllowedMentions(everyone=False, roles=False, users=True)}
        if "content" in parts:
            kwargs["content"] = payload.get("content") or ""
        if "controls" in parts:
            kwargs["view"] = build_view(payload.get("controls"))   # None: no components
        board = payload.get("board") if "board" in parts else None
        if board:
            try:
                png = await asyncio.to_thread(render_board, board)
            except Exception:
                log.exception("could not draw the board of game %s", item.game_id)
            else:
                kwargs["file"] = discord.File(io.BytesIO(png), filename=BOARD_FILE)
        return kwargs
