"""Work items: timers (deadlines, reminders, computer turns) and the outbox of notices."""

from __future__ import annotations

import json
from typing import Iterable

from .model import _OUTBOX_COLUMNS, Conflict, Notice, OutboxItem, Timer, _outbox_item


class WorkStore:
    async def _insert_notices(self, tx, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        await tx.executemany(
            "INSERT INTO outbox(game_id, target_kind, target_id, payload, created_at, "
            "next_attempt_at, tag, edit_of) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, n.target_kind, n.target_id, json.dumps(n.payload), now, now, n.tag, n.edit_of)
             for n in notices])

    # ---- timers ----------------------------------------------------------------------------

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.engine.connection() as tx:
            return [Timer(r[0], r[1], r[2], json.loads(r[3])) for r in await tx.rows(
                    "SELECT game_id, kind, due_at, data FROM timers WHERE due_at<=? "
                    "ORDER BY due_at", (now,))]

    async def timers_of(self, game_id: int) -> dict[str, Timer]:
        async with self.engine.connection() as tx:
            return {r[1]: Timer(r[0], r[1], r[2], json.loads(r[3])) for r in await tx.rows(
                    "SELECT game_id, kind, due_at, data FROM timers WHERE game_id=?", (game_id,))}

    async def set_timer(self, game_id: int, expected_version: int, kind: str, due_at: float | None,
                        notices: Iterable[Notice], now: float) -> None:
        """Reschedule (or, with due_at None, drop) one timer and queue notices, without changing
        the game: a reminder must not invalidate a move being made. Raises Conflict if the game
        moved on since it was read (that move has set fresh timers)."""
        async with self.engine.transaction() as tx:
            row = await tx.first("SELECT version FROM games WHERE id=?" + self.engine.for_update,
                                 (game_id,))
            if row is None or row[0] != expected_version:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            if due_at is None:
                await tx.execute("DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))
            else:
                await tx.execute(
                    "INSERT INTO timers(game_id, kind, due_at) VALUES(?, ?, ?) "
                    "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at",
                    (game_id, kind, due_at))
            await self._insert_notices(tx, game_id, notices, now)

    async def drop_timers(self, game_id: int) -> None:
        async with self.engine.connection() as tx:
            await tx.execute("DELETE FROM timers WHERE game_id=?", (game_id,))

    async def next_due(self) -> float | None:
        """When the next timer or notice falls due (None: nothing waits), in one trip."""
        async with self.engine.connection() as tx:
            row = await tx.first(
                "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM timers UNION ALL "
                "SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL "
                "UNION ALL SELECT MIN(digest_due) FROM player_settings) "
                "AS due_times")
            return row[0]

    # ---- outbox ----------------------------------------------------------------------------

    async def add_notices(self, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        async with self.engine.transaction() as tx:
            await self._insert_notices(tx, game_id, notices, now)

    async def pending_outbox(self, now: float, limit: int = 50) -> list[OutboxItem]:
        async with self.engine.connection() as tx:
            return [_outbox_item(r) for r in await tx.rows(
                    f"SELECT {_OUTBOX_COLUMNS} FROM outbox "
                    "WHERE delivered_at IS NULL AND failed IS NULL AND next_attempt_at<=? "
                    "ORDER BY id LIMIT ?", (now, limit))]

    async def outbox_item(self, item_id: int) -> OutboxItem | None:
        async with self.engine.connection() as tx:
            row = await tx.first(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id=?", (item_id,))
        return _outbox_item(row) if row else None

    async def tagged_notices(self, game_id: int) -> dict[str, OutboxItem]:
        """The latest notice of each tag of a game (what a new notice may edit)."""
        async with self.engine.connection() as tx:
            return {item.tag: item for item in map(_outbox_item, await tx.rows(
                    f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id IN "
                    "(SELECT MAX(id) FROM outbox WHERE game_id=? AND tag IS NOT NULL GROUP BY tag)",
                    (game_id,)))}

    async def posts_with_controls(self, game_id: int) -> list[OutboxItem]:
        """The game's messages that hold controls now, whatever their tag (or none: a closed-DM
        fallback, a reminder): for each message (a notice and the edits of it), the latest
        notice that set its controls, when they are not empty."""
        async with self.engine.connection() as tx:
            items = [_outbox_item(r) for r in await tx.rows(
                    f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id=? ORDER BY id",
                    (game_id,))]
        root: dict[int, int] = {}
        latest: dict[int, OutboxItem] = {}
        for item in items:
            first = item.id if item.edit_of is None else root.get(item.edit_of, item.edit_of)
            root[item.id] = first
            if "controls" in item.payload:
                latest[first] = item
        return [item for item in latest.values() if item.payload["controls"]]

    async def outbox_waiting(self) -> int:
        """Undelivered notices that may still be delivered (including ones waiting to retry)."""
        async with self.engine.connection() as tx:
            return (await tx.first(
                    "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL"))[0]

    async def outbox_delivered(self, item_id: int, now: float, message_id: int | None) -> None:
        """Mark a notice sent. When it showed a board, the earlier posts of its tag keep theirs
        no longer: a later edit or repost takes the board from this one (or a newer one).
        Two statements without a transaction (two trips to the database's thread, not four):
        the second only frees space, and a later delivery of the tag clears what it missed."""
        async with self.engine.connection() as tx:
            await tx.execute(
                "UPDATE outbox SET delivered_at=?, message_id=?, attempts=attempts+1 WHERE id=?",
                (now, message_id, item_id))
            # Each delivery clears its predecessors, so only the latest few can hold a board.
            e = self.engine
            await tx.execute(
                f"UPDATE outbox SET payload = {e.without_board('payload')} WHERE id IN "
                "(SELECT older.id FROM outbox AS this JOIN outbox AS older "
                f" ON {e.same('older.game_id', 'this.game_id')} AND older.tag = this.tag "
                f" AND older.id < this.id WHERE this.id=? AND {e.has_board('this.payload')} "
                " ORDER BY older.id DESC LIMIT 5) "
                "AND (delivered_at IS NOT NULL OR failed IS NOT NULL) "
                f"AND {e.has_board('payload')}", (item_id,))

    async def outbox_retry(self, item_id: int, next_attempt_at: float, *, attempted: bool = True) -> None:
        """Try again at `next_attempt_at`; `attempted=False` postpones without counting a try."""
        async with self.engine.connection() as tx:
            await tx.execute(
                "UPDATE outbox SET attempts=attempts+?, next_attempt_at=? WHERE id=?",
                (int(attempted), next_attempt_at, item_id))

    async def outbox_failed(self, item_id: int, reason: str, *, replacements: Iterable[Notice] = (),
                            game_id: int | None = None, now: float = 0.0) -> None:
        """Give up a notice; `replacements` (of game `game_id`) are queued in the same
        transaction, so a restart cannot lose them."""
        async with self.engine.transaction() as tx:
            await tx.execute(
                "UPDATE outbox SET attempts=attempts+1, failed=? WHERE id=?", (reason, item_id))
            await self._insert_notices(tx, game_id, replacements, now)

    async def superseded(self, item: OutboxItem) -> bool:
        """Whether a later notice of the game has the same tag: the game has moved on from the
        message this one was to become."""
        if item.tag is None:
            return False
        async with self.engine.connection() as tx:
            if item.game_id is None:
                return await tx.first(
                        "SELECT 1 FROM outbox WHERE game_id IS NULL AND tag=? AND id>? LIMIT 1",
                        (item.tag, item.id)) is not None
            return await tx.first(
                    "SELECT 1 FROM outbox WHERE game_id=? AND tag=? AND id>? LIMIT 1",
                    (item.game_id, item.tag, item.id)) is not None

    async def prune_outbox(self, before: float) -> int:
        """Forget notices delivered (or given up) before `before`; returns how many. Running
        games keep theirs: their messages may still be edited."""
        async with self.engine.connection() as tx:
            count = await tx.execute(
                "DELETE FROM outbox WHERE (delivered_at IS NOT NULL OR failed IS NOT NULL) "
                "AND created_at < ? AND (game_id IS NULL OR game_id NOT IN "
                "(SELECT id FROM games WHERE status='active'))", (before,))
            return count

    async def outbox_rows(self, game_id: int | None = None) -> list[dict]:
        """Every outbox row (tests, audits)."""
        sql = "SELECT * FROM outbox"
        args: tuple = ()
        if game_id is not None:
            sql += " WHERE game_id=?"
            args = (game_id,)
        async with self.engine.connection() as tx:
            rows = [dict(r) for r in await tx.rows(sql + " ORDER BY id", args)]
        for row in rows:
            row["payload"] = json.loads(row["payload"])
        return rows

    async def retime(self, game_id: int, expected_version: int, timers: dict[str, tuple[float, dict]],
                     notices: Iterable[Notice], now: float) -> None:
        """Move some of a game's timers (kind -> (due_at, data); others stay; due_at None
        drops one) and queue notices, without a new version (like set_timer). Raises Conflict
        if the game moved on since it was read."""
        async with self.engine.transaction() as tx:
            row = await tx.first("SELECT version FROM games WHERE id=?" + self.engine.for_update,
                                 (game_id,))
            if row is None or row[0] != expected_version:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            await tx.executemany(
                "INSERT INTO timers(game_id, kind, due_at, data) VALUES(?, ?, ?, ?) "
                "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at, data=excluded.data",
                [(game_id, kind, due, json.dumps(data)) for kind, (due, data) in timers.items()
                 if due is not None])
            await tx.executemany("DELETE FROM timers WHERE game_id=? AND kind=?",
                                 [(game_id, kind) for kind, (due, _) in timers.items() if due is None])
            await self._insert_notices(tx, game_id, notices, now)
