"""Work items: timers (deadlines, reminders, computer turns) and the outbox of notices.

Several processes may share a database, so each item is claimed before it runs: a due timer
by `claim_timers` (its claimed_by, until lease_until), a game's notices by `claim_outbox` (a
lease on the game in outbox_leases: one process delivers a game's notices, in order). A
claimant renews its leases while it works; a process that dies leaves them to lapse, and
another takes the work over then. Lease times are wall-clock seconds (time.time(), the same
on every machine kept by NTP); due times are the bot's clock (`now`).
"""

from __future__ import annotations

import json
from typing import Iterable

from .model import _OUTBOX_COLUMNS, Conflict, Notice, OutboxItem, Timer, _outbox_item


def _columns(table: str) -> str:
    return ", ".join(f"{table}.{c.strip()}" for c in _OUTBOX_COLUMNS.split(","))


class WorkStore:
    async def _insert_notices(self, tx, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        rows = [(game_id, n.target_kind, n.target_id, json.dumps(n.payload), now, now, n.tag, n.edit_of)
                for n in notices]
        if rows:
            await tx.executemany(
                "INSERT INTO outbox(game_id, target_kind, target_id, payload, created_at, "
                "next_attempt_at, tag, edit_of) VALUES(?, ?, ?, ?, ?, ?, ?, ?)", rows)
            await tx.notify(game_id)

    # ---- timers ----------------------------------------------------------------------------

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.engine.connection() as tx:
            return [Timer(r[0], r[1], r[2], json.loads(r[3])) for r in await tx.rows(
                    "SELECT game_id, kind, due_at, data FROM timers WHERE due_at<=? "
                    "ORDER BY due_at", (now,))]

    async def timers_of(self, game_id: int) -> dict[str, Timer]:
        async with self.engine.connection() as tx:
            return {r[1]: Timer(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in await tx.rows(
                    "SELECT game_id, kind, due_at, data, claimed_by FROM timers WHERE game_id=?",
                    (game_id,))}

    async def games_short_of_timers(self, prefix: str) -> list[tuple[int, int]]:
        """(id, guild_id) of the active games with fewer timers whose kind starts with `prefix`
        than computer seats: the games a computer may wait in for ever (its timer lost). (Also
        the many where a person is to move: the caller looks at who is awaited.)"""
        async with self.engine.connection() as tx:
            return [(r[0], r[1]) for r in await tx.rows(
                    "SELECT g.id, g.guild_id FROM games AS g WHERE g.status='active' "
                    "AND (SELECT COUNT(*) FROM timers AS t WHERE t.game_id=g.id AND t.kind LIKE ?) "
                    "< (SELECT COUNT(*) FROM seats AS s WHERE s.game_id=g.id AND s.user_id<0) "
                    "ORDER BY g.id", (prefix + "%",))]

    async def _still(self, tx, game_id: int, expected_version: int,
                     claim: tuple[str, str] | None) -> None:
        """Conflict unless the game is still at `expected_version` and, with `claim` (a
        timer's kind and its claimant), that timer is still claimed by it; both rows locked
        until the transaction ends."""
        row = await tx.first("SELECT version FROM games WHERE id=?" + self.engine.for_update,
                             (game_id,))
        if row is None or row[0] != expected_version:
            raise Conflict(f"game {game_id} is no longer at version {expected_version}")
        if claim is not None:
            kind, me = claim
            held = await tx.first("SELECT claimed_by FROM timers WHERE game_id=? AND kind=?"
                                  + self.engine.for_update, (game_id, kind))
            if held is None or held[0] != me:
                raise Conflict(f"timer {kind} of game {game_id} is no longer claimed by {me}")

    async def set_timer(self, game_id: int, expected_version: int, kind: str, due_at: float | None,
                        notices: Iterable[Notice], now: float, *, claim: str | None = None) -> None:
        """Reschedule (or, with due_at None, drop) one timer and queue notices, without changing
        the game: a reminder must not invalidate a move being made. Raises Conflict if the game
        moved on since it was read (that move has set fresh timers), or, with `claim`, if the
        timer is no longer claimed by `claim` (its lease lapsed and another process fired it:
        the notices must not go out twice). A timer moved is a new item, claimed by nobody."""
        async with self.engine.transaction() as tx:
            await self._still(tx, game_id, expected_version, (kind, claim) if claim else None)
            if due_at is None:
                await tx.execute("DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))
            else:
                await tx.execute(
                    "INSERT INTO timers(game_id, kind, due_at) VALUES(?, ?, ?) "
                    "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at, "
                    "claimed_by=NULL, lease_until=NULL", (game_id, kind, due_at))
                await tx.notify(game_id)
            await self._insert_notices(tx, game_id, notices, now)

    async def claim_timers(self, me: str, now: float, wall: float, until: float,
                           limit: int = 50) -> list[Timer]:
        """Claim the timers due at `now` that nobody holds (or whose lease lapsed by `wall`)
        for `me` until `until`, soonest first. Concurrent claimants get disjoint timers: on
        PostgreSQL the rows one locks are skipped by the others, on SQLite writers take
        turns. One statement, atomic by itself: no transaction around it (one round trip)."""
        async with self.engine.connection() as tx:
            rows = await tx.rows(
                "UPDATE timers SET claimed_by=?, lease_until=? WHERE (game_id, kind) IN "
                "(SELECT game_id, kind FROM timers WHERE due_at<=? "
                "AND (lease_until IS NULL OR lease_until<=?) "
                f"ORDER BY due_at LIMIT ?{self.engine.skip_locked}) "
                "RETURNING game_id, kind, due_at, data, claimed_by",
                (me, until, now, wall, limit))
        return sorted((Timer(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows),
                      key=lambda t: (t.due_at, t.game_id, t.kind))

    async def claim_timer(self, game_id: int, kind: str, me: str, wall: float,
                          until: float) -> bool | None:
        """Claim one timer, due or not, for `me` until `until` (work that starts before its
        timer is due: a game's solver at its start, a late computer's turn): True if `me`
        holds it now, False if another claimant does (its lease still runs at `wall`), None
        if there is no such timer. One statement when it is claimed (the usual case)."""
        async with self.engine.connection() as tx:
            if await tx.execute(
                    "UPDATE timers SET claimed_by=?, lease_until=? WHERE game_id=? AND kind=? "
                    "AND (claimed_by IS NULL OR claimed_by=? OR lease_until IS NULL OR lease_until<=?)",
                    (me, until, game_id, kind, me, wall)):
                return True
            held = await tx.first("SELECT 1 FROM timers WHERE game_id=? AND kind=?", (game_id, kind))
            return None if held is None else False

    async def renew_timer(self, game_id: int, kind: str, me: str, until: float) -> bool:
        """Keep `me`'s claim on one timer until `until`; False if `me` no longer holds it."""
        async with self.engine.beside() as tx:
            return await tx.execute("UPDATE timers SET lease_until=? WHERE game_id=? AND kind=? "
                                    "AND claimed_by=?", (until, game_id, kind, me)) > 0

    async def release_timer(self, game_id: int, kind: str, me: str) -> None:
        """Done with a claimed timer (if it is still there and still `me`'s: firing it may have
        moved or dropped it)."""
        async with self.engine.connection() as tx:
            await tx.execute("UPDATE timers SET claimed_by=NULL, lease_until=NULL "
                             "WHERE game_id=? AND kind=? AND claimed_by=?", (game_id, kind, me))

    async def release_leases(self, me: str | None) -> None:
        """Give up all that `me` holds (a process stopping); None: all that anyone holds (a
        bot starting on SQLite, one process per file: what a killed run held is free now)."""
        async with self.engine.transaction() as tx:
            await tx.execute("UPDATE timers SET claimed_by=NULL, lease_until=NULL "
                             "WHERE claimed_by=? OR CAST(? AS TEXT) IS NULL", (me, me))
            await tx.execute("DELETE FROM outbox_leases WHERE claimed_by=? OR CAST(? AS TEXT) IS NULL",
                             (me, me))
            await tx.execute("UPDATE tournaments SET claimed_by=NULL, lease_until=NULL "
                             "WHERE claimed_by=? OR CAST(? AS TEXT) IS NULL", (me, me))
            await tx.notify()

    async def claimants(self) -> set[str]:
        """Who holds some work now (a timer, a game's outbox, a tournament's timed work)."""
        async with self.engine.connection() as tx:
            return {r[0] for r in await tx.rows(
                    "SELECT claimed_by FROM timers WHERE claimed_by IS NOT NULL "
                    "UNION SELECT claimed_by FROM outbox_leases "
                    "UNION SELECT claimed_by FROM tournaments WHERE claimed_by IS NOT NULL")}

    async def renew_leases(self, me: str, until: float) -> None:
        """Keep what `me` holds (timers, games' outboxes) until `until`: it is still at work."""
        async with self.engine.beside() as tx:
            await tx.execute("UPDATE timers SET lease_until=? WHERE claimed_by=?", (until, me))
            await tx.execute("UPDATE outbox_leases SET lease_until=? WHERE claimed_by=?", (until, me))
            await tx.execute("UPDATE tournaments SET lease_until=? WHERE claimed_by=?", (until, me))

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

    async def next_wake(self, now: float, wall: float) -> float | None:
        """In how many seconds work may be there to claim (None: nothing waits): the next timer
        or notice due that nobody holds, or the next lease to lapse (work that another
        process holds is taken over then, if that process has died)."""
        async with self.engine.connection() as tx:
            row = await tx.first(
                "SELECT (SELECT MIN(due_at) FROM timers WHERE lease_until IS NULL OR lease_until<=?), "
                "(SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL), "
                "(SELECT MIN(lease_until) FROM timers WHERE lease_until>?), "
                "(SELECT MIN(lease_until) FROM outbox_leases), "
                "(SELECT MIN(due_at) FROM tournaments WHERE lease_until IS NULL OR lease_until<=?)",
                (wall, wall, wall))
        waits = [row[0] - now if row[0] is not None else None,
                 row[1] - now if row[1] is not None else None,
                 row[2] - wall if row[2] is not None else None,
                 row[3] - wall if row[3] is not None else None,
                 row[4] - now if row[4] is not None else None]   # (a tournament's start or round deadline)
        waits = [w for w in waits if w is not None]
        return max(0.0, min(waits)) if waits else None

    # ---- outbox ----------------------------------------------------------------------------

    async def add_notices(self, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        async with self.engine.transaction() as tx:
            await self._insert_notices(tx, game_id, notices, now)

    async def claim_outbox(self, me: str, now: float, wall: float, until: float,
                           limit: int = 200) -> list[OutboxItem]:
        """Take (or keep) the lease on every game with notices due that no other process holds,
        and return the due notices of the games `me` holds, in order. A racing claimant waits
        for the lease row and then finds it held: each game has one deliverer at a time. No
        transaction: the leases taken hold between the two statements, and when none was taken
        or kept (the usual look that finds nothing), `me` holds no game with notices due: one
        round trip."""
        async with self.engine.connection() as tx:
            if not await tx.execute(
                "INSERT INTO outbox_leases(game_key, claimed_by, lease_until) "
                "SELECT DISTINCT COALESCE(o.game_id, -o.id), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION) "
                "FROM outbox AS o "
                "WHERE o.delivered_at IS NULL AND o.failed IS NULL AND o.next_attempt_at<=? "
                "ORDER BY 1 "   # (claimants lock the games in one order: no deadlock)

                "ON CONFLICT(game_key) DO UPDATE SET claimed_by=excluded.claimed_by, "
                "lease_until=excluded.lease_until "
                "WHERE outbox_leases.lease_until<=? OR outbox_leases.claimed_by=excluded.claimed_by",
                (me, until, now, wall)):
                return []
            return [_outbox_item(r) for r in await tx.rows(
                    f"SELECT {_columns('o')} FROM outbox AS o JOIN outbox_leases AS l "
                    "ON l.game_key = COALESCE(o.game_id, -o.id) WHERE l.claimed_by=? "
                    "AND o.delivered_at IS NULL AND o.failed IS NULL AND o.next_attempt_at<=? "
                    "ORDER BY o.id LIMIT ?", (me, now, limit))]

    async def release_outbox(self, game_id: int | None, item_id: int, me: str, now: float) -> bool:
        """Give up `me`'s lease on a game's notices (`item_id`: one of them, which names a
        notice of no game) if none is due any more; False if one is (deliver it first)."""
        key = game_id if game_id is not None else -item_id
        async with self.engine.connection() as tx:
            return await tx.execute(
                "DELETE FROM outbox_leases WHERE game_key=? AND claimed_by=? AND NOT EXISTS "
                "(SELECT 1 FROM outbox AS o WHERE COALESCE(o.game_id, -o.id)=? "
                "AND o.delivered_at IS NULL AND o.failed IS NULL AND o.next_attempt_at<=?)",
                (key, me, key, now)) > 0

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
            return await self._posts_with_controls(tx, game_id)

    async def _posts_with_controls(self, tx, game_id: int) -> list[OutboxItem]:
        items = [_outbox_item(r) for r in await tx.rows(
                f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE game_id=? ORDER BY id", (game_id,))]
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
                            game_id: int | None = None, now: float = 0.0,
                            while_active: bool = False) -> None:
        """Give up a notice; `replacements` (of game `game_id`) are queued in the same
        transaction, so a restart cannot lose them. With `while_active`, only if the game is
        still running: they would bring live controls back to a game that is over."""
        async with self.engine.transaction() as tx:
            await tx.execute(
                "UPDATE outbox SET attempts=attempts+1, failed=? WHERE id=?", (reason, item_id))
            # The no-op update locks the game's row: a commit that ends the game waits for this
            # transaction (and then takes its controls off too, see commit), or this one sees
            # the game over.
            if while_active and not await tx.execute(
                    "UPDATE games SET version=version WHERE id=? AND status='active'", (game_id,)):
                return
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
                     notices: Iterable[Notice], now: float, *,
                     claim: tuple[str, str] | None = None) -> None:
        """Move some of a game's timers (kind -> (due_at, data); others stay; due_at None
        drops one) and queue notices, without a new version (like set_timer). Raises Conflict
        if the game moved on since it was read, or, with `claim` (a timer's kind and its
        claimant), if that timer is no longer claimed by it (as set_timer)."""
        async with self.engine.transaction() as tx:
            await self._still(tx, game_id, expected_version, claim)
            await tx.executemany(
                "INSERT INTO timers(game_id, kind, due_at, data) VALUES(?, ?, ?, ?) "
                "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at, data=excluded.data, "
                "claimed_by=NULL, lease_until=NULL",
                [(game_id, kind, due, json.dumps(data)) for kind, (due, data) in timers.items()
                 if due is not None])
            await tx.executemany("DELETE FROM timers WHERE game_id=? AND kind=?",
                                 [(game_id, kind) for kind, (due, _) in timers.items() if due is None])
            await tx.notify(game_id)
            await self._insert_notices(tx, game_id, notices, now)
