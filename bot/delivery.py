"""The outbox dispatcher: sends the notices that game changes queued in the database.

A notice is delivered at least once and in order per pass; a Discord error that may pass
(5xx, rate limits, network) is retried later with a growing delay; a DM refused (the player's
DMs are closed, error 50007) is remembered for that game and replaced by the notice's
`fallback` posted in the game's thread (once per game when `fallback_once`); any other refusal
is recorded as failed and logged.

A notice with `edit_of` edits the message an earlier notice became: its content, image and
controls, each only when the payload has it. It waits for that notice to be delivered (when
that one was given up, it edits the message that one was to edit). When there is no message to
edit, or Discord will not edit it, it is posted as a new one if `repost` and no later notice of
its tag has been queued (that one says what is current: an old post must not come back after
it); else it is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import replace

import aiohttp
import discord

from . import texts
from .components import build_view
from .rendering import UNHURRIED, URGENT, board_file
from .storage import Notice, OutboxItem
from .work import claimant, lease_of, renewing

log = logging.getLogger(__name__)

DM_CLOSED = 50007
RETRY_DELAYS = (2, 10, 60, 300, 1800, 3600)   # seconds, then give up
BOARD_FILE = "board.png"


def pings(payload: dict) -> discord.AllowedMentions:
    """Exactly the users the notice means to notify (a name or text that looks like a
    mention pings nobody)."""
    users = sorted(set(payload.get("pinged", [])) | set(payload.get("mentions", [])))
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(int(u)) for u in users])


class Delivery:
    def __init__(self, bot):
        self.bot = bot
        self.lock = asyncio.Lock()
        self.dm_channels: dict[int, int] = {}
        self.drawings: dict[int, asyncio.Future] = {}   # notice id -> its board being drawn
        self._looking: asyncio.Future | None = None
        self._queued = asyncio.Event()
        self._look_again = False
        self._stopped = False
        self.me = claimant()   # the games whose notices this process delivers hold its lease
        self.lease = lease_of(bot)

    async def deliver_due(self) -> int:
        """Send every notice that is due, in order within each game; returns how many were
        sent. Games are served side by side: one game's slow board holds up only that game's
        later notices, and notices queued meanwhile for other games go out at once. Each game's
        notices are leased (`Store.claim_outbox`): of several processes, one delivers them."""
        sent = 0
        store = self.bot.store
        async with self.lock:
            running: dict[int | None, asyncio.Task] = {}
            groups: dict[int | None, list[OutboxItem]] = {}
            renewal = asyncio.create_task(renewing(store, self.me, self.lease))
            try:
                while True:
                    self._queued.clear()
                    wall = time.time()
                    items = await store.claim_outbox(self.me, self.bot.now(), wall, wall + self.lease)
                    self.start_drawing(items)
                    by_game: dict[int | None, list[OutboxItem]] = {}
                    for item in items:
                        if item.game_id not in running:   # (a running game fetches its own next)
                            by_game.setdefault(item.game_id, []).append(item)
                    for game_id, group in by_game.items():
                        running[game_id] = asyncio.create_task(self.deliver_in_order(group))
                        groups[game_id] = group
                    if not running:
                        return sent
                    queued = asyncio.create_task(self._queued.wait())
                    try:
                        await asyncio.wait([*running.values(), queued], return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        queued.cancel()
                    for game_id, task in list(running.items()):
                        if task.done():
                            del running[game_id]
                            sent += task.result()
                            # (a notice of no game is a "game" of its own)
                            for item in groups.pop(game_id)[:1 if game_id is not None else None]:
                                await store.release_outbox(game_id, item.id, self.me, self.bot.now())
            finally:   # (cancelled: the bot is closing)
                renewal.cancel()
                for task in running.values():
                    task.cancel()

    async def deliver_in_order(self, items: list[OutboxItem]) -> int:
        sent = 0
        for item in items:
            try:
                if await self.deliver(item):
                    sent += 1
            finally:
                drawing = self.drawings.pop(item.id, None)
                if drawing is not None:   # (not sent now: drawn again when it is)
                    drawing.cancel()
        return sent

    # Boards are drawn ahead: as soon as notices are queued (`wake`), every board among the
    # due notices starts drawing, so the renderer's workers share them out while earlier
    # notices are still being sent; each is then sent in its turn.

    def wake(self) -> None:
        """Notices were queued: start drawing their boards now (and let a dispatcher that is
        busy with other games take them up)."""
        self._queued.set()
        if self._stopped:
            return
        if self._looking is not None and not self._looking.done():
            self._look_again = True
            return
        self._looking = asyncio.ensure_future(self._look_ahead())

    async def stop(self) -> None:
        """The bot closes: no more looking ahead (it claims: not while the store closes)."""
        self._stopped = True
        if self._looking is not None:
            self._looking.cancel()
            with contextlib.suppress(BaseException):
                await self._looking

    async def _look_ahead(self) -> None:
        while True:
            self._look_again = False
            try:
                # only the notices this process will send: the games whose notices it holds,
                # claimed now as the dispatcher would (another process's boards are its own)
                wall = time.time()
                self.start_drawing(await self.bot.store.claim_outbox(
                    self.me, self.bot.now(), wall, wall + self.lease))
            except Exception as exc:   # (the store closing); the dispatcher draws them anyway
                log.debug("could not look ahead at the outbox: %r", exc)
                return
            if not self._look_again:
                return

    def start_drawing(self, items) -> None:
        for item in items:
            board = item.payload.get("board")
            if board and item.id not in self.drawings:
                self.drawings[item.id] = self.draw(item)

    def draw(self, item: OutboxItem) -> asyncio.Future:
        priority = UNHURRIED if item.payload.get("unhurried") else URGENT
        drawing = asyncio.ensure_future(self.bot.renderer.png(item.payload["board"], priority))
        # (a board whose notice is not sent after all is never awaited: its error is dropped)
        drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
        return drawing

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
            message = await self.message_of(target)
            if message is None and not await self.may_repost(item):
                await store.outbox_failed(item.id, "nothing to edit")
                return False
        try:
            if message:
                message_id = await self.edit(item, message)
            else:
                message_id = await self.send(replace(item, payload=await self.reposted(item)))
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

    async def message_of(self, item: OutboxItem | None) -> int | None:
        """The message an edit of `item` goes to: the one it became; if it was given up (an
        edit that failed), the one it was to edit, and so on."""
        while item is not None and item.failed and item.edit_of is not None:
            item = await self.bot.store.outbox_item(item.edit_of)
        return item.message_id if item is not None and item.delivered else None

    async def may_repost(self, item: OutboxItem) -> bool:
        return bool(item.payload.get("repost")) and not await self.bot.store.superseded(item)

    async def reposted(self, item: OutboxItem) -> dict:
        """What an edit posted as a new message shows: its own parts, and the image of the
        message it was to edit when it has none (a status line's edit)."""
        payload, earlier = item.payload, item
        while "board" not in payload and earlier.edit_of is not None:
            earlier = await self.bot.store.outbox_item(earlier.edit_of)
            if earlier is None:
                break
            if "board" in earlier.payload:
                payload = {**payload, "board": earlier.payload["board"]}
        return payload

    async def describable(self, item: OutboxItem, specs: list) -> bool:
        """Whether the message of `item`, with controls `specs`, gets a Describe button: a
        channel post of a running game that shows a board (a DM is its player's own, answered
        by /board text:true)."""
        if item.target_kind != "channel" or not item.game_id or not (item.payload.get("board") or specs):
            return False
        row = await self.bot.store.get_game(item.game_id)
        return row is not None and row.status == "active" and await self.shows_board(item)

    async def shows_board(self, item: OutboxItem) -> bool:
        """Whether the message of `item` shows a board: its own, or one an earlier notice it
        edits put there."""
        while "board" not in item.payload:
            if item.edit_of is None:
                return False
            item = await self.bot.store.outbox_item(item.edit_of)
            if item is None:
                return False
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
        await store.outbox_failed(item.id, "thread gone", game_id=row.id, now=self.bot.now(),
                                  replacements=[Notice("channel", row.channel_id, item.payload, tag=item.tag)])
        return True

    async def edit_refused(self, item: OutboxItem, exc: discord.HTTPException) -> None:
        """The message to edit is gone (or may not be edited): post anew when the notice says
        so and is still the latest of its tag; else it does not matter (it only took old
        controls off, or a later post replaces it)."""
        log.info("notice %s for game %s could not edit its message: %s", item.id, item.game_id, exc)
        repost = [Notice(item.target_kind, item.target_id, await self.reposted(item), tag=item.tag)] \
            if await self.may_repost(item) else []
        await self.bot.store.outbox_failed(item.id, f"edit refused {exc.status} {exc.code}",
                                           replacements=repost, game_id=item.game_id, now=self.bot.now())

    async def dm_refused(self, item: OutboxItem, exc: discord.HTTPException) -> None:
        store = self.bot.store
        if exc.code != DM_CLOSED:
            log.warning("notice %s for game %s: cannot send a DM (%s)", item.id, item.game_id, exc)
        reason = "dm closed" if exc.code == DM_CLOSED else f"dm refused {exc.status} {exc.code}"
        if item.payload.get("digest") and exc.code == DM_CLOSED:
            # (else no game would remind them: each leaves its reminders to the digest)
            await store.digest_refused(item.target_id, self.bot.now())
        fallback = item.payload.get("fallback")
        row = await store.get_game(item.game_id) if item.game_id else None
        newly = row is not None and await store.mark_dms_closed(row.id, item.target_id)
        posted = []
        if fallback and row is not None and (newly or not item.payload.get("fallback_once")):
            posted = [Notice("channel", row.thread_id or row.channel_id, fallback)]
        # Only while the game runs, checked in the transaction: a DM refused after (or as) its
        # game ends needs no button; the end took the controls off every post it knew.
        await store.outbox_failed(item.id, reason, replacements=posted, game_id=item.game_id,
                                  now=self.bot.now(), while_active=True)

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
        # The nonce (with enforce_nonce, which discord.py sets with it): sent again after a crash
        # between Discord's answer and outbox_delivered (or by another process that took the
        # game over), Discord gives back the message it made the first time.
        with discord.http.handle_message_parameters(
                previous_allowed_mentions=self.bot.allowed_mentions, nonce=f"pp{item.id}",
                **kwargs) as params:
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
        kwargs: dict = {"allowed_mentions": pings(payload)}
        if "content" in parts:
            kwargs["content"] = texts.clip(payload.get("content") or "")
        if "controls" in parts:
            specs = list(payload.get("controls") or [])
            # A post of a running game that shows a board gets a Describe button (the position
            # in words, from the presser's view); controls taken off (none given, no new
            # board) take it off too, as the end of the game does.
            if await self.describable(item, specs):
                specs.append(["describe", item.game_id])
            kwargs["view"] = build_view(specs)   # None: no components
        board = payload.get("board") if "board" in parts else None
        if board:
            drawing = self.drawings.get(item.id) or self.draw(replace(item, payload=payload))
            try:
                png = await drawing
            except Exception:
                log.exception("could not draw the board of game %s", item.game_id)
                kwargs["attachments"] = []   # an edited post's old image shows an old board
            else:
                kwargs["file"] = board_file(png, board, BOARD_FILE)
        return kwargs
