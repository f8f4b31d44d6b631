"""All of the bot's SQL: games, seats, events, timers and the outbox, in one SQLite file.

One aiosqlite connection in WAL mode. Every change of a game goes through `Store.commit`, one
transaction that checks the version read earlier (`UPDATE ... WHERE id=? AND version=?`), bumps
it, and writes the events, the notifications to send (outbox) and the game's timers with it. A
version mismatch raises `Conflict` and writes nothing.

A notice may carry a `tag` (which post of the game it is: "board", "dm:<player>", ...), so a
later notice can edit the message it became (`edit_of`, the id of that outbox row).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import secrets
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import aiosqlite

# Each entry brings the schema from version i to i+1. Never edit a released entry; add one.
MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        game             TEXT    NOT NULL,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        lobby_message_id INTEGER,
        host_id          INTEGER NOT NULL,
        invited_id       INTEGER,
        status           TEXT    NOT NULL CHECK (status IN ('lobby','active','finished','cancelled')),
        state            TEXT,
        version          INTEGER NOT NULL DEFAULT 0,
        options          TEXT    NOT NULL DEFAULT '{}',
        deadline_seconds INTEGER,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE INDEX games_thread ON games(thread_id);
    CREATE INDEX games_guild_status ON games(guild_id, status);
    CREATE TABLE seats (
        game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        display_name TEXT    NOT NULL,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE events (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        at       REAL    NOT NULL,
        actor    TEXT,
        kind     TEXT    NOT NULL,
        detail   TEXT    NOT NULL DEFAULT ''
    );
    CREATE INDEX events_game ON events(game_id, version);
    CREATE TABLE timers (
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind     TEXT    NOT NULL,
        due_at   REAL    NOT NULL,
        data     TEXT    NOT NULL DEFAULT '{}',
        PRIMARY KEY (game_id, kind)
    );
    CREATE INDEX timers_due ON timers(due_at);
    CREATE TABLE outbox (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id         INTEGER REFERENCES games(id) ON DELETE CASCADE,
        target_kind     TEXT    NOT NULL CHECK (target_kind IN ('channel','user')),
        target_id       INTEGER NOT NULL,
        payload         TEXT    NOT NULL,
        created_at      REAL    NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at REAL    NOT NULL,
        delivered_at    REAL,
        failed          TEXT,
        message_id      INTEGER
    );
    CREATE INDEX outbox_pending ON outbox(delivered_at, failed, next_attempt_at);
    """,
    # 1 -> 2: notices that edit earlier messages; players whose DMs are closed
    """
    ALTER TABLE outbox ADD COLUMN tag TEXT;
    ALTER TABLE outbox ADD COLUMN edit_of INTEGER;
    CREATE INDEX outbox_tag ON outbox(game_id, tag);
    ALTER TABLE seats ADD COLUMN dm_closed INTEGER NOT NULL DEFAULT 0;
    """,
    # 2 -> 3: a delivered board is kept only until a later post of its tag has one (each
    # carried a whole view: storage grew with the square of a game's length)
    """
    UPDATE outbox SET payload = json_remove(payload, '$.board')
    WHERE tag IS NOT NULL AND (delivered_at IS NOT NULL OR failed IS NOT NULL)
      AND json_extract(payload, '$.board') IS NOT NULL
      AND EXISTS (SELECT 1 FROM outbox AS later
                  WHERE later.game_id IS outbox.game_id AND later.tag = outbox.tag
                    AND later.id > outbox.id AND later.delivered_at IS NOT NULL
                    AND json_extract(later.payload, '$.board') IS NOT NULL)
    """,
    # 3 -> 4: facts a game gathers besides its state (e.g. the best score of a deal, worked out
    # in the background), a JSON object
    """
    ALTER TABLE games ADD COLUMN extras TEXT NOT NULL DEFAULT '{}';
    """,
    # 4 -> 5: time away: a player's absences in a server (ends_at moves to the return when they come
    # back early, so the month's allowance counts the time actually spent away)
    """
    CREATE TABLE absences (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        starts_at REAL    NOT NULL,
        ends_at   REAL    NOT NULL
    );
    CREATE INDEX absences_user ON absences(guild_id, user_id, ends_at);
    """,
    # 5 -> 6: ratings (issue 14, part 3): each server's rating per game and player, and every
    # player's rating after each rated game (its trend); a game with history rows is rated
    """
    CREATE TABLE ratings (
        guild_id     INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        user_id      INTEGER NOT NULL,
        display_name TEXT    NOT NULL,
        mu           REAL    NOT NULL,
        sigma        REAL    NOT NULL,
        games        INTEGER NOT NULL DEFAULT 0,
        wins         INTEGER NOT NULL DEFAULT 0,
        draws        INTEGER NOT NULL DEFAULT 0,
        updated_at   REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE rating_history (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        place    INTEGER NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        at       REAL    NOT NULL,
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX rating_history_user ON rating_history(user_id, id);
    """,
    # 6 -> 7: daily puzzles: who played which server's deal of the day (once each), in which game
    # (IF NOT EXISTS: a database taken back to an older schema by hand may keep the table)
    """
    CREATE TABLE IF NOT EXISTS daily_plays (
        guild_id   INTEGER NOT NULL,
        day        TEXT    NOT NULL,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        started_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, day, game, user_id)
    );
    CREATE INDEX IF NOT EXISTS daily_plays_game ON daily_plays(game_id);
    """,
    # 7 -> 8: history: a rematch of a finished game (at most one that is not cancelled), and who of
    # its players has accepted it
    """
    CREATE TABLE rematches (
        old_game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        new_game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        accepted    TEXT    NOT NULL DEFAULT '[]'
    );
    CREATE INDEX rematches_new ON rematches(new_game_id);
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)

GAME_STATUSES = ("lobby", "active", "finished", "cancelled")
_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, lobby_message_id, host_id, invited_id, status, "
    "state, version, options, deadline_seconds, created_at, updated_at, extras"
)


def _game_select(table: str = "games") -> str:
    """A game's columns and its seats as one JSON list: a game and its seats in one trip."""
    return (", ".join(f"{table}.{column.strip()}" for column in _GAME_COLUMNS.split(","))
            + ", (SELECT json_group_array(json_array(seat, user_id, display_name, dm_closed)) "
            f"FROM seats WHERE seats.game_id = {table}.id) AS seat_list")


_GAME_SELECT = _game_select()
_UPDATABLE = {"thread_id", "lobby_message_id", "status", "state", "options", "deadline_seconds",
              "invited_id", "extras"}


class Conflict(Exception):
    """The game changed between reading and writing it; nothing was written."""


class SchemaTooNew(RuntimeError):
    """The database was written by a newer release of the bot."""

    def __init__(self, version: int):
        super().__init__(f"The database has schema version {version}, newer than this bot "
                         f"({SCHEMA_VERSION}); upgrade the bot.")
        self.version = version


@dataclass
class Seat:
    seat: int
    user_id: int
    name: str
    dm_closed: bool = False   # Discord refused a DM to this player in this game


@dataclass
class GameRow:
    id: int
    game: str
    guild_id: int
    channel_id: int
    thread_id: int | None
    lobby_message_id: int | None
    host_id: int
    invited_id: int | None
    status: str
    state: str | None
    version: int
    options: dict
    deadline_seconds: int | None
    created_at: float
    updated_at: float
    seats: list[Seat] = field(default_factory=list)
    extras: dict = field(default_factory=dict)   # facts besides the state, see merge_extras

    @property
    def player_ids(self) -> list[str]:
        return [str(s.user_id) for s in self.seats]

    @property
    def names(self) -> dict[str, str]:
        return {str(s.user_id): s.name for s in self.seats}

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def dms_closed(self) -> set[str]:
        return {str(s.user_id) for s in self.seats if s.dm_closed}


@dataclass
class Event:
    kind: str
    actor: str | None = None
    detail: str = ""


@dataclass
class Notice:
    """A message to deliver after the transaction commits: to a channel/thread or a user's DM.
    With `edit_of` (an outbox id), it edits the message that notice became instead."""

    target_kind: str          # 'channel' or 'user'
    target_id: int
    payload: dict
    tag: str | None = None
    edit_of: int | None = None


@dataclass
class Timer:
    game_id: int
    kind: str
    due_at: float
    data: dict


@dataclass
class OutboxItem:
    id: int
    game_id: int | None
    target_kind: str
    target_id: int
    payload: dict
    attempts: int
    tag: str | None = None
    edit_of: int | None = None
    message_id: int | None = None
    delivered: bool = False
    failed: bool = False
    next_attempt_at: float = 0.0


_OUTBOX_COLUMNS = ("id, game_id, target_kind, target_id, payload, attempts, tag, edit_of, "
                   "message_id, delivered_at, failed, next_attempt_at")


def _outbox_item(r) -> OutboxItem:
    return OutboxItem(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6], r[7], r[8],
                      r[9] is not None, r[10] is not None, r[11])


class Store:
    def __init__(self, db: aiosqlite.Connection):
        self.db = db
        # One connection: statements of concurrent coroutines must not interleave inside a
        # transaction, so every use of the connection holds this lock.
        self.lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def _transaction(self):
        """Hold the lock and run the block in one write transaction: all of it or nothing."""
        async with self.lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    # Reads take one trip to the database's thread (execute_fetchall), not three (execute,
    # fetch, close): every trip hands the GIL to that thread and back, which the event loop
    # feels when many games move at once.
    async def _rows(self, sql: str, args: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.db.execute_fetchall(sql, tuple(args)))

    async def _first(self, sql: str, args: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self._rows(sql, args)
        return rows[0] if rows else None

    async def _insert_notices(self, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        await self.db.executemany(
            "INSERT INTO outbox(game_id, target_kind, target_id, payload, created_at, "
            "next_attempt_at, tag, edit_of) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, n.target_kind, n.target_id, json.dumps(n.payload), now, now, n.tag, n.edit_of)
             for n in notices])

    # ---- opening and the schema ------------------------------------------------------------

    @classmethod
    async def open(cls, path: str, *, create: bool = True) -> "Store":
        """`create=False` (admin commands): a missing file raises NoDatabase, never made empty."""
        db = await aiosqlite.connect(path if create else existing(path), isolation_level=None,
                                     uri=not create)
        db.row_factory = aiosqlite.Row
        store = cls(db)
        try:   # a file that is not a database fails at the first statement, not at connect
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("PRAGMA busy_timeout=5000")
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        async with self.lock:
            await self.db.close()

    async def migrate(self) -> None:
        async with self.lock:
            await self.db.execute(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            version = int(await self._meta("schema_version") or 0)
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(version)
        if 0 < version < SCHEMA_VERSION:
            logging.getLogger(__name__).info("upgrading the database from schema version %d to %d",
                                             version, SCHEMA_VERSION)
        for target in range(version + 1, SCHEMA_VERSION + 1):
            async with self._transaction():
                for statement in _statements(MIGRATIONS[target - 1]):
                    await self.db.execute(statement)
                await self._set_meta("schema_version", str(target))

    async def schema_version(self) -> int:
        return int(await self.get_meta("schema_version") or 0)

    async def ping(self, now: float) -> None:
        """A small write and read: raises if the database can no longer be written."""
        async with self._transaction():
            await self._set_meta("alive_at", repr(now))

    async def forget_guild(self, guild_id: int) -> int:
        """Delete every game of a server, with its seats, events, timers and notices (the
        foreign keys cascade); returns how many games."""
        async with self._transaction():
            await self.db.execute("DELETE FROM absences WHERE guild_id=?", (guild_id,))
            cur = await self.db.execute("DELETE FROM games WHERE guild_id=?", (guild_id,))
            await self.db.execute("DELETE FROM ratings WHERE guild_id=?", (guild_id,))
            return cur.rowcount

    # ---- meta ------------------------------------------------------------------------------

    async def _meta(self, key: str) -> str | None:
        row = await self._first("SELECT value FROM meta WHERE key=?", (key,))
        return row[0] if row else None

    async def _set_meta(self, key: str, value: str) -> None:
        await self.db.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    async def get_meta(self, key: str) -> str | None:
        async with self.lock:
            return await self._meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.lock:
            await self._set_meta(key, value)

    # ---- games -----------------------------------------------------------------------------

    async def create_game(self, *, game: str, guild_id: int, channel_id: int, host_id: int,
                          host_name: str, options: dict, deadline_seconds: int | None,
                          invited_id: int | None, now: float) -> GameRow:
        async with self._transaction():
            cur = await self.db.execute(
                "INSERT INTO games(game, guild_id, channel_id, host_id, invited_id, status, "
                "options, deadline_seconds, created_at, updated_at) "
                "VALUES(?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (game, guild_id, channel_id, host_id, invited_id, json.dumps(options),
                 deadline_seconds, now, now))
            game_id = cur.lastrowid
            await self.db.execute(
                "INSERT INTO seats(game_id, seat, user_id, display_name) VALUES(?, 0, ?, ?)",
                (game_id, host_id, host_name))
            await self._insert_event(game_id, 0, now, Event("lobby", str(host_id), game))
        return await self.get_game(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.lock:
            return await self._get_game(game_id)

    async def _get_game(self, game_id: int) -> GameRow | None:
        row = await self._first(f"SELECT {_GAME_SELECT} FROM games WHERE id=?", (game_id,))
        return _game_row(row) if row else None

    async def game_for_thread(self, thread_id: int) -> GameRow | None:
        async with self.lock:
            row = await self._first(
                    f"SELECT {_GAME_SELECT} FROM games WHERE thread_id=? ORDER BY id DESC LIMIT 1",
                    (thread_id,))
        return _game_row(row) if row else None

    async def games_of_user(self, user_id: int, guild_id: int | None = None,
                            statuses: Iterable[str] = ("lobby", "active")) -> list[GameRow]:
        statuses = tuple(statuses)
        marks = ",".join("?" * len(statuses))
        sql = (f"SELECT {_GAME_SELECT} FROM games WHERE status IN ({marks}) "
               "AND id IN (SELECT game_id FROM seats WHERE user_id=?)")
        args: list[Any] = [*statuses, user_id]
        if guild_id is not None:
            sql += " AND guild_id=?"
            args.append(guild_id)
        async with self.lock:
            return [_game_row(r) for r in await self._rows(sql + " ORDER BY id", args)]

    async def games_with_status(self, status: str) -> list[GameRow]:
        async with self.lock:
            return [_game_row(r) for r in await self._rows(
                    f"SELECT {_GAME_SELECT} FROM games WHERE status=? ORDER BY id", (status,))]

    async def merge_extras(self, game_id: int, values: dict, *, now: float,
                           notices: Iterable[Notice] = ()) -> None:
        """Add `values` to a game's extras (and post `notices`) without a new version: extras
        are facts found beside play (a solver's answer), not moves."""
        async with self._transaction():
            row = await self._first("SELECT extras FROM games WHERE id=?", (game_id,))
            if row is None:
                return
            extras = {**json.loads(row[0]), **values}
            await self.db.execute("UPDATE games SET extras=? WHERE id=?",
                                  (json.dumps(extras), game_id))
            await self._insert_notices(game_id, notices, now)

    async def finished_extras(self, game: str, guild_id: int, user_id: int) -> list[dict]:
        """The extras of the finished games of `game` in a server in which `user_id` sat."""
        async with self.lock:
            return [json.loads(r[0]) for r in await self._rows(
                    "SELECT g.extras FROM games g JOIN seats s ON s.game_id = g.id "
                    "WHERE g.game=? AND g.guild_id=? AND s.user_id=? AND g.status='finished'",
                    (game, guild_id, user_id))]

    async def commit(self, game_id: int, expected_version: int, *, now: float,
                     changes: dict[str, Any] | None = None,
                     seats: list[Seat] | None = None,
                     events: Iterable[Event] = (),
                     notices: Iterable[Notice] = (),
                     timers: dict[str, tuple[float, dict]] | None = None,
                     rated: "RatedResult | None" = None) -> int:
        """Apply one change of a game atomically; returns the new version.

        `seats` replaces all seats; `timers` (kind -> (due_at, data)) replaces all of the game's
        timers when given ({} clears them); `rated`, the result of a game that this change
        finishes, updates the ratings in the same transaction. Raises Conflict if the version
        moved on.
        """
        changes = dict(changes or {})
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        for column in ("options", "extras"):
            if column in changes:
                changes[column] = json.dumps(changes[column])
        new_version = expected_version + 1
        assignments = "".join(f", {column}=?" for column in changes)
        async with self._transaction():
            cur = await self.db.execute(
                f"UPDATE games SET version=?, updated_at=?{assignments} "
                "WHERE id=? AND version=?",
                (new_version, now, *changes.values(), game_id, expected_version))
            if cur.rowcount != 1:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            if seats is not None:
                await self.db.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
                await self.db.executemany(
                    "INSERT INTO seats(game_id, seat, user_id, display_name, dm_closed) "
                    "VALUES(?, ?, ?, ?, ?)",
                    [(game_id, s.seat, s.user_id, s.name, int(s.dm_closed)) for s in seats])
            for event in events:
                await self._insert_event(game_id, new_version, now, event)
            if rated is not None:   # (its notices may say the new ratings)
                notices = await self._rate(game_id, now, rated, list(notices))
            await self._insert_notices(game_id, notices, now)
            if timers is not None:
                await self.db.execute("DELETE FROM timers WHERE game_id=?", (game_id,))
                await self.db.executemany(
                    "INSERT INTO timers(game_id, kind, due_at, data) VALUES(?, ?, ?, ?)",
                    [(game_id, kind, due, json.dumps(data))
                     for kind, (due, data) in timers.items()])
        return new_version

    async def _insert_event(self, game_id: int, version: int, now: float, event: Event) -> None:
        await self.db.execute(
            "INSERT INTO events(game_id, version, at, actor, kind, detail) VALUES(?, ?, ?, ?, ?, ?)",
            (game_id, version, now, event.actor, event.kind, event.detail))

    async def events(self, game_id: int) -> list[dict]:
        async with self.lock:
            return [dict(r) for r in await self._rows(
                    "SELECT version, at, actor, kind, detail FROM events WHERE game_id=? ORDER BY id",
                    (game_id,))]

    async def mark_dms_closed(self, game_id: int, user_id: int) -> bool:
        """Remember that `user_id` takes no DMs in this game; False if it was known already."""
        async with self.lock:
            cur = await self.db.execute(
                "UPDATE seats SET dm_closed=1 WHERE game_id=? AND user_id=? AND dm_closed=0",
                (game_id, user_id))
            return cur.rowcount == 1

    # ---- timers ----------------------------------------------------------------------------

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.lock:
            return [Timer(r[0], r[1], r[2], json.loads(r[3])) for r in await self._rows(
                    "SELECT game_id, kind, due_at, data FROM timers WHERE due_at<=? "
                    "ORDER BY due_at", (now,))]

    async def timers_of(self, game_id: int) -> dict[str, Timer]:
        async with self.lock:
            return {r[1]: Timer(r[0], r[1], r[2], json.loads(r[3])) for r in await self._rows(
                    "SELECT game_id, kind, due_at, data FROM timers WHERE game_id=?", (game_id,))}

    async def set_timer(self, game_id: int, expected_version: int, kind: str, due_at: float | None,
                        notices: Iterable[Notice], now: float) -> None:
        """Reschedule (or, with due_at None, drop) one timer and queue notices, without changing
        the game: a reminder must not invalidate a move being made. Raises Conflict if the game
        moved on since it was read (that move has set fresh timers)."""
        async with self._transaction():
            row = await self._first("SELECT version FROM games WHERE id=?", (game_id,))
            if row is None or row[0] != expected_version:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            if due_at is None:
                await self.db.execute("DELETE FROM timers WHERE game_id=? AND kind=?", (game_id, kind))
            else:
                await self.db.execute(
                    "INSERT INTO timers(game_id, kind, due_at) VALUES(?, ?, ?) "
                    "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at",
                    (game_id, kind, due_at))
            await self._insert_notices(game_id, notices, now)

    async def drop_timers(self, game_id: int) -> None:
        async with self.lock:
            await self.db.execute("DELETE FROM timers WHERE game_id=?", (game_id,))

    async def next_due(self) -> float | None:
        """When the next timer or notice falls due (None: nothing waits), in one trip."""
        async with self.lock:
            row = await self._first(
                "SELECT MIN(due) FROM (SELECT MIN(due_at) AS due FROM timers UNION ALL "
                "SELECT MIN(next_attempt_at) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL)")
            return row[0]

    # ---- outbox ----------------------------------------------------------------------------

    async def add_notices(self, game_id: int | None, notices: Iterable[Notice], now: float) -> None:
        async with self._transaction():
            await self._insert_notices(game_id, notices, now)

    async def pending_outbox(self, now: float, limit: int = 50) -> list[OutboxItem]:
        async with self.lock:
            return [_outbox_item(r) for r in await self._rows(
                    f"SELECT {_OUTBOX_COLUMNS} FROM outbox "
                    "WHERE delivered_at IS NULL AND failed IS NULL AND next_attempt_at<=? "
                    "ORDER BY id LIMIT ?", (now, limit))]

    async def outbox_item(self, item_id: int) -> OutboxItem | None:
        async with self.lock:
            row = await self._first(f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id=?", (item_id,))
        return _outbox_item(row) if row else None

    async def tagged_notices(self, game_id: int) -> dict[str, OutboxItem]:
        """The latest notice of each tag of a game (what a new notice may edit)."""
        async with self.lock:
            return {item.tag: item for item in map(_outbox_item, await self._rows(
                    f"SELECT {_OUTBOX_COLUMNS} FROM outbox WHERE id IN "
                    "(SELECT MAX(id) FROM outbox WHERE game_id=? AND tag IS NOT NULL GROUP BY tag)",
                    (game_id,)))}

    async def posts_with_controls(self, game_id: int) -> list[OutboxItem]:
        """The game's messages that hold controls now, whatever their tag (or none: a closed-DM
        fallback, a reminder): for each message (a notice and the edits of it), the latest
        notice that set its controls, when they are not empty."""
        async with self.lock:
            items = [_outbox_item(r) for r in await self._rows(
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
        async with self.lock:
            return (await self._first(
                    "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL AND failed IS NULL"))[0]

    async def outbox_delivered(self, item_id: int, now: float, message_id: int | None) -> None:
        """Mark a notice sent. When it showed a board, the earlier posts of its tag keep theirs
        no longer: a later edit or repost takes the board from this one (or a newer one).
        Two statements without a transaction (two trips to the database's thread, not four):
        the second only frees space, and a later delivery of the tag clears what it missed."""
        async with self.lock:
            await self.db.execute(
                "UPDATE outbox SET delivered_at=?, message_id=?, attempts=attempts+1 WHERE id=?",
                (now, message_id, item_id))
            # Each delivery clears its predecessors, so only the latest few can hold a board.
            await self.db.execute(
                "UPDATE outbox SET payload = json_remove(payload, '$.board') WHERE id IN "
                "(SELECT older.id FROM outbox AS this JOIN outbox AS older "
                " ON older.game_id IS this.game_id AND older.tag = this.tag AND older.id < this.id "
                " WHERE this.id=? AND json_extract(this.payload, '$.board') IS NOT NULL "
                " ORDER BY older.id DESC LIMIT 5) "
                "AND (delivered_at IS NOT NULL OR failed IS NOT NULL) "
                "AND json_extract(payload, '$.board') IS NOT NULL", (item_id,))

    async def outbox_retry(self, item_id: int, next_attempt_at: float, *, attempted: bool = True) -> None:
        """Try again at `next_attempt_at`; `attempted=False` postpones without counting a try."""
        async with self.lock:
            await self.db.execute(
                "UPDATE outbox SET attempts=attempts+?, next_attempt_at=? WHERE id=?",
                (int(attempted), next_attempt_at, item_id))

    async def outbox_failed(self, item_id: int, reason: str, *, replacements: Iterable[Notice] = (),
                            game_id: int | None = None, now: float = 0.0) -> None:
        """Give up a notice; `replacements` (of game `game_id`) are queued in the same
        transaction, so a restart cannot lose them."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE outbox SET attempts=attempts+1, failed=? WHERE id=?", (reason, item_id))
            await self._insert_notices(game_id, replacements, now)

    async def superseded(self, item: OutboxItem) -> bool:
        """Whether a later notice of the game has the same tag: the game has moved on from the
        message this one was to become."""
        if item.tag is None:
            return False
        async with self.lock:
            return await self._first(
                    "SELECT 1 FROM outbox WHERE game_id IS ? AND tag=? AND id>? LIMIT 1",
                    (item.game_id, item.tag, item.id)) is not None

    async def prune_outbox(self, before: float) -> int:
        """Forget notices delivered (or given up) before `before`; returns how many. Running
        games keep theirs: their messages may still be edited."""
        async with self.lock:
            cur = await self.db.execute(
                "DELETE FROM outbox WHERE (delivered_at IS NOT NULL OR failed IS NOT NULL) "
                "AND created_at < ? AND (game_id IS NULL OR game_id NOT IN "
                "(SELECT id FROM games WHERE status='active'))", (before,))
            return cur.rowcount

    async def outbox_rows(self, game_id: int | None = None) -> list[dict]:
        """Every outbox row (tests, audits)."""
        sql = "SELECT * FROM outbox"
        args: tuple = ()
        if game_id is not None:
            sql += " WHERE game_id=?"
            args = (game_id,)
        async with self.lock:
            rows = [dict(r) for r in await self._rows(sql + " ORDER BY id", args)]
        for row in rows:
            row["payload"] = json.loads(row["payload"])
        return rows

    # ---- time away (issue 14 part 5) -------------------------------------------------------

    async def absences_since(self, guild_id: int, user_id: int, since: float) -> list[tuple[float, float]]:
        """(starts_at, ends_at) of the player's absences in a server that start at `since` or
        later (the month's allowance)."""
        async with self.lock:
            return [(r[0], r[1]) for r in await self._rows(
                    "SELECT starts_at, ends_at FROM absences WHERE guild_id=? AND user_id=? "
                    "AND starts_at>=? ORDER BY starts_at", (guild_id, user_id, since))]

    async def absences_now(self, guild_id: int, user_ids: Iterable[int],
                           now: float) -> dict[int, tuple[float, float]]:
        """user id -> (starts_at, ends_at) of their absence, for those of `user_ids` away in
        the server now (one each: a new absence ends the one running)."""
        user_ids = list(user_ids)
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.lock:
            return {r[0]: (r[1], r[2]) for r in await self._rows(
                    f"SELECT user_id, starts_at, ends_at FROM absences WHERE guild_id=? "
                    f"AND user_id IN ({marks}) AND starts_at<=? AND ends_at>? ORDER BY ends_at",
                    (guild_id, *user_ids, now, now))}

    async def set_absence(self, guild_id: int, user_id: int, now: float, ends_at: float | None) -> None:
        """End the player's current absence in the server now (if any) and, with `ends_at`,
        start a new one lasting until then: one transaction, so nobody is seen half-away."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE absences SET ends_at=? WHERE guild_id=? AND user_id=? AND starts_at<=? "
                "AND ends_at>?", (now, guild_id, user_id, now, now))
            if ends_at is not None:
                await self.db.execute(
                    "INSERT INTO absences(guild_id, user_id, starts_at, ends_at) VALUES(?, ?, ?, ?)",
                    (guild_id, user_id, now, ends_at))

    async def retime(self, game_id: int, expected_version: int, timers: dict[str, tuple[float, dict]],
                     notices: Iterable[Notice], now: float) -> None:
        """Move some of a game's timers (kind -> (due_at, data); others stay) and queue
        notices, without a new version (like set_timer). Raises Conflict if the game moved on
        since it was read."""
        async with self._transaction():
            row = await self._first("SELECT version FROM games WHERE id=?", (game_id,))
            if row is None or row[0] != expected_version:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            await self.db.executemany(
                "INSERT INTO timers(game_id, kind, due_at, data) VALUES(?, ?, ?, ?) "
                "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at, data=excluded.data",
                [(game_id, kind, due, json.dumps(data)) for kind, (due, data) in timers.items()])
            await self._insert_notices(game_id, notices, now)
    # ---- ratings (issue 14, part 3) ----------------------------------------------------------

    async def _rate(self, game_id: int, now: float, rated: RatedResult,
                    notices: list[Notice]) -> list[Notice]:
        """Rate a finishing game, inside the transaction of its commit: read its players'
        ratings, let `rated.rate` work out the new ones, store them with a history entry each;
        returns the commit's notices as `rated.announce` amends them (to say the new ratings).
        A game that has history entries is rated already and is left alone."""
        if await self._first("SELECT 1 FROM rating_history WHERE game_id=? LIMIT 1", (game_id,)):
            return notices
        current: dict[int, tuple[float, float] | None] = {}
        for user_id in rated.places:
            row = await self._first(
                    "SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=? AND user_id=?",
                    (rated.guild_id, rated.game, user_id))
            current[user_id] = (row[0], row[1]) if row else None
        new = rated.rate(current)
        for user_id, (mu, sigma) in new.items():
            await self.db.execute(
                "INSERT INTO ratings(guild_id, game, user_id, display_name, mu, sigma, games, wins, "
                "draws, updated_at) VALUES(?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                "ON CONFLICT(guild_id, game, user_id) DO UPDATE SET "
                "display_name=excluded.display_name, mu=excluded.mu, sigma=excluded.sigma, "
                "games=games+1, wins=wins+excluded.wins, draws=draws+excluded.draws, "
                "updated_at=excluded.updated_at",
                (rated.guild_id, rated.game, user_id, rated.names.get(user_id, str(user_id)), mu,
                 sigma, int(user_id in rated.winners), int(user_id in rated.drew), now))
            await self.db.execute(
                "INSERT INTO rating_history(game_id, user_id, place, mu, sigma, at) "
                "VALUES(?, ?, ?, ?, ?, ?)", (game_id, user_id, rated.places[user_id], mu, sigma, now))
        return rated.announce(current, new, notices) if rated.announce is not None else notices

    async def ratings_of_game(self, guild_id: int, game: str) -> list[PlayerRating]:
        """Every rated player of `game` in a server (in no particular order)."""
        async with self.lock:
            return [PlayerRating(*r) for r in await self._rows(
                    f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? AND game=?",
                    (guild_id, game))]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[PlayerRating]:
        """A player's rating in each game they have a rating for in a server."""
        async with self.lock:
            return [PlayerRating(*r) for r in await self._rows(
                    f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? AND user_id=? "
                    "ORDER BY game", (guild_id, user_id))]

    async def rating_history(self, guild_id: int, game: str, user_id: int,
                             limit: int) -> list[tuple[float, float]]:
        """A player's (mu, sigma) after each of their last `limit` rated games of `game` in a
        server, oldest first."""
        async with self.lock:
            rows = await self._rows(
                    "SELECT h.mu, h.sigma FROM rating_history h JOIN games g ON g.id = h.game_id "
                    "WHERE h.user_id=? AND g.guild_id=? AND g.game=? ORDER BY h.id DESC LIMIT ?",
                    (user_id, guild_id, game, limit))
        return [(r[0], r[1]) for r in reversed(rows)]

    # ---- daily puzzles (issue 14, part 4) ------------------------------------------------------

    async def daily_secret(self) -> str:
        """The key the daily deals are derived from: made once at random, kept in `meta` (so a
        backup keeps it and nobody can work a deal out from the source)."""
        async with self._transaction():
            await self.db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES('daily_secret', ?)",
                                  (secrets.token_hex(32),))
            return await self._meta("daily_secret")

    async def add_daily_play(self, guild_id: int, day: str, game: str, user_id: int, game_id: int,
                             now: float) -> bool:
        """Record that `user_id` plays the day's deal in game `game_id`; False (and nothing
        written) when they have played it already."""
        async with self.lock:
            cur = await self.db.execute(
                "INSERT OR IGNORE INTO daily_plays(guild_id, day, game, user_id, game_id, started_at) "
                "VALUES(?, ?, ?, ?, ?, ?)", (guild_id, day, game, user_id, game_id, now))
            return cur.rowcount == 1

    async def drop_daily_play(self, game_id: int) -> None:
        async with self.lock:
            await self.db.execute("DELETE FROM daily_plays WHERE game_id=?", (game_id,))

    async def daily_plays(self, guild_id: int, day: str, game: str) -> list[tuple[float, GameRow]]:
        """The day's plays of a server's deal: (started_at, game row), in the order started."""
        async with self.lock:
            rows = await self._rows(
                    f"SELECT d.started_at, {_game_select('g')} FROM daily_plays d "
                    "JOIN games g ON g.id = d.game_id "
                    "WHERE d.guild_id=? AND d.day=? AND d.game=? ORDER BY d.started_at, g.id",
                    (guild_id, day, game))
        return [(r["started_at"], _game_row(r)) for r in rows]

    async def daily_of_game(self, game_id: int) -> dict | None:
        """{day, game, started_at} when game `game_id` is someone's daily puzzle, else None."""
        async with self.lock:
            row = await self._first(
                    "SELECT day, game, started_at FROM daily_plays WHERE game_id=?", (game_id,))
        return dict(row) if row else None

    # ---- history: rematches (bot.history) ----------------------------------------------------

    async def open_rematch(self, old_game_id: int, *, game: str, guild_id: int, channel_id: int,
                           host_id: int, seats: list[Seat], options: dict,
                           deadline_seconds: int | None, accepted: list[str],
                           now: float) -> tuple[GameRow, bool]:
        """The rematch of a finished game: a new lobby seating `seats`, unless the game has a
        rematch already that was not cancelled (then that one, and False). One transaction,
        so two presses at once cannot open two."""
        async with self._transaction():
            existing = await self._first(
                    "SELECT r.new_game_id, g.status FROM rematches r JOIN games g "
                    "ON g.id = r.new_game_id WHERE r.old_game_id=?", (old_game_id,))
            if existing is None or existing[1] == "cancelled":
                cur = await self.db.execute(
                    "INSERT INTO games(game, guild_id, channel_id, host_id, status, options, "
                    "deadline_seconds, created_at, updated_at) VALUES(?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (game, guild_id, channel_id, host_id, json.dumps(options), deadline_seconds,
                     now, now))
                new_id = cur.lastrowid
                await self.db.executemany(
                    "INSERT INTO seats(game_id, seat, user_id, display_name) VALUES(?, ?, ?, ?)",
                    [(new_id, s.seat, s.user_id, s.name) for s in seats])
                await self._insert_event(new_id, 0, now, Event("lobby", str(host_id), game))
                await self._insert_event(new_id, 0, now, Event("rematch", str(host_id), str(old_game_id)))
                await self.db.execute(
                    "INSERT INTO rematches(old_game_id, new_game_id, accepted) VALUES(?, ?, ?) "
                    "ON CONFLICT(old_game_id) DO UPDATE SET new_game_id=excluded.new_game_id, "
                    "accepted=excluded.accepted", (old_game_id, new_id, json.dumps(accepted)))
                created = True
            else:
                new_id, created = existing[0], False
        return await self.get_game(new_id), created

    async def rematch_of(self, new_game_id: int) -> tuple[int, list[str]] | None:
        """(the old game, the players who have accepted) of a rematch; None if it is none."""
        async with self.lock:
            row = await self._first(
                    "SELECT old_game_id, accepted FROM rematches WHERE new_game_id=?",
                    (new_game_id,))
        return (row[0], json.loads(row[1])) if row else None

    async def accept_rematch(self, new_game_id: int, player: str) -> list[str]:
        """Add `player` to those who accepted the rematch; returns them all."""
        async with self._transaction():
            row = await self._first("SELECT accepted FROM rematches WHERE new_game_id=?", (new_game_id,))
            accepted = json.loads(row[0]) if row else []
            if player not in accepted:
                accepted.append(player)
                await self.db.execute("UPDATE rematches SET accepted=? WHERE new_game_id=?",
                                      (json.dumps(accepted), new_game_id))
        return accepted

    async def game_of_message(self, message_id: int) -> int | None:
        """The game whose lobby message or delivered notice `message_id` is; None if the bot
        stored no such message (an ephemeral answer, a rematch request, a pruned notice)."""
        if not 0 < message_id < 2 ** 63:
            return None
        async with self.lock:
            row = await self._first(
                "SELECT game_id FROM outbox WHERE message_id=? AND game_id IS NOT NULL "
                "UNION ALL SELECT id FROM games WHERE lobby_message_id=? LIMIT 1",
                (message_id, message_id))
        return row[0] if row else None


@dataclass
class RatedResult:
    """The result of a rated game, rated in the transaction that finishes the game (see
    bot.ratings, which makes it). `places`: user id -> place, 1 first, equal places tie;
    `rate` takes each player's (mu, sigma), None before their first rated game, and returns
    the new ones; `announce` says them (in the same transaction: once)."""

    guild_id: int
    game: str
    places: dict[int, int]
    names: dict[int, str]
    winners: frozenset[int]
    drew: frozenset[int]
    rate: Callable[[dict[int, tuple[float, float] | None]], dict[int, tuple[float, float]]]
    # (ratings before, after, the commit's notices) -> the notices, saying the new ratings
    announce: Callable[[dict, dict, list[Notice]], list[Notice]] | None = None


@dataclass
class PlayerRating:
    guild_id: int
    game: str
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int


_RATING_COLUMNS = "guild_id, game, user_id, display_name, mu, sigma, games, wins, draws"


class NoDatabase(FileNotFoundError):
    """An admin command found no database where it looked (it never creates one)."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        super().__init__(f"there is no database at {self.path}")


class BackupTargetError(OSError):
    """The file a copy goes to cannot be written (its folder, a permission): not the database's
    fault. `cause` is the OSError."""

    def __init__(self, path: str, cause: OSError):
        self.path = os.path.abspath(path)
        self.cause = cause
        super().__init__(f"cannot write {self.path}: {cause.strerror or cause}")


def existing(path: str) -> str:
    """The URI that opens the database at `path` only if it exists (sqlite3 would create it)."""
    if not os.path.isfile(path):
        raise NoDatabase(path)
    return Path(path).absolute().as_uri() + "?mode=rw"


def backup(source: str, target: str) -> int:
    """Copy the database at `source` to a new file `target` with SQLite's online backup API,
    safe while the bot runs (and writes); returns the copy's schema version. The copy is
    written beside `target` and renamed into place once complete, checked and on disk.
    Raises NoDatabase if `source` does not exist, BackupTargetError if `target` cannot be
    written, sqlite3.Error for a source that is not a usable database."""
    partial = f"{target}.partial"
    src = sqlite3.connect(existing(source), uri=True)
    try:
        src.execute("PRAGMA schema_version")   # a file that is not a database fails here
        try:   # the target's own problems (folder, permission) show here, in its name
            with open(partial, "wb"):
                pass
        except OSError as exc:
            raise BackupTargetError(target, exc) from None
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                if dst.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                    raise sqlite3.DatabaseError("the copy failed SQLite's integrity check")
                row = dst.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
                dst.execute("PRAGMA journal_mode=DELETE")   # one self-contained file
            finally:
                dst.close()
            _fsync(partial)
            os.replace(partial, target)
        except BaseException:
            if os.path.exists(partial):
                os.remove(partial)
            raise
    finally:
        src.close()
    _fsync_folder(target)
    return int(row[0]) if row else 0


def restore(source: str, db_path: str, keep_as: str) -> tuple[int, str | None]:
    """Put the backup `source` in place of the database `db_path`, all or nothing; the
    database it replaces, if any, is kept as `keep_as` (returned; None if there was none).
    The caller holds the DatabaseLock, so no bot has the database open.

    The backup is copied (and checked, and flushed to disk) beside the database first; the
    old database is copied to `keep_as`; its WAL is checkpointed into the main file, so the
    -wal and -shm files hold nothing the main file lacks and can go (a WAL must never meet
    a database it does not belong to); then one rename puts the copy in place. Whatever
    fails before that rename leaves the database as it was."""
    partial = f"{db_path}.restoring"
    version = backup(source, partial)
    try:
        kept = None
        if os.path.exists(db_path):
            _keep(db_path, keep_as)
            kept = keep_as
            try:
                with contextlib.closing(sqlite3.connect(existing(db_path), uri=True)) as old:
                    old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError:
                pass   # damaged: its files as they were are in keep_as
        for side in ("-wal", "-shm"):
            if os.path.exists(db_path + side):
                os.remove(db_path + side)
        os.replace(partial, db_path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    _fsync_folder(db_path)
    return version, kept


def _keep(db_path: str, kept: str) -> None:
    try:
        backup(db_path, kept)   # through SQLite: the WAL's transactions included, one file
    except sqlite3.DatabaseError:
        # a damaged database (perhaps why it is replaced): keep its files as they are
        for side in ("", "-wal"):
            if os.path.exists(db_path + side):
                shutil.copyfile(db_path + side, kept + side)
                _fsync(kept + side)


def _fsync(path: str) -> None:
    with open(path, "rb+") as f:
        os.fsync(f.fileno())


def _fsync_folder(path: str) -> None:
    """Make a rename in the folder of `path` durable (POSIX; Windows cannot open a folder)."""
    if os.name == "nt":
        return
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        pass   # some file systems cannot sync a folder
    finally:
        os.close(fd)


class DatabaseLock:
    """The lock on `PIECEPACK_DB + ".lock"` that a running bot holds for its whole life, and
    `restore` while it works. The operating system releases it when the process ends, however
    it ends (kill -9 included), so unlike a heartbeat or a pid file it never goes stale and
    never looks free while a bot still has the database open. flock on POSIX (per open file,
    so two opens conflict even in one process), msvcrt.locking on Windows. The file stays:
    removing a lock file while another process waits on it would let two holders in."""

    def __init__(self, db_path: str):
        self.path = f"{db_path}.lock"
        self._file = None

    def acquire(self) -> bool:
        """True if taken; False if another process holds it. OSError if the file cannot be
        made (a missing folder, a permission)."""
        f = open(self.path, "a+b")
        try:
            if os.name == "nt":
                import msvcrt

                f.seek(0)
                msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            f.close()
            if isinstance(exc, BlockingIOError) or exc.errno in (errno.EACCES, errno.EAGAIN,
                                                                 errno.EDEADLK):
                return False
            raise
        self._file = f
        return True

    def release(self) -> None:
        if self._file is not None:
            self._file.close()   # closing the file releases the lock
            self._file = None

    def __enter__(self) -> "DatabaseLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _game_row(r: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=r["id"], game=r["game"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        thread_id=r["thread_id"], lobby_message_id=r["lobby_message_id"], host_id=r["host_id"],
        invited_id=r["invited_id"], status=r["status"], state=r["state"], version=r["version"],
        options=json.loads(r["options"]), deadline_seconds=r["deadline_seconds"],
        created_at=r["created_at"], updated_at=r["updated_at"], extras=json.loads(r["extras"]),
        seats=[Seat(seat, user_id, name, bool(dm_closed))
               for seat, user_id, name, dm_closed in sorted(json.loads(r["seat_list"]))])
