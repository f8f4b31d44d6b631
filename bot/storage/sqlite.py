"""The SQLite engine: one aiosqlite connection in WAL mode, one statement at a time."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from typing import Any, Iterable

import aiosqlite

from .engine import Engine
from .files import existing


class SqliteTx:
    """The connection, used by whoever holds the engine's lock."""

    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        return (await self.db.execute(sql, tuple(args))).rowcount

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        await self.db.executemany(sql, rows)

    # Reads take one trip to the database's thread (execute_fetchall), not three (execute,
    # fetch, close): every trip hands the GIL to that thread and back, which the event loop
    # feels when many games move at once.
    async def rows(self, sql: str, args: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        return list(await self.db.execute_fetchall(sql, tuple(args)))

    async def first(self, sql: str, args: Iterable[Any] = ()) -> aiosqlite.Row | None:
        rows = await self.rows(sql, args)
        return rows[0] if rows else None

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        return (await self.db.execute(sql, tuple(args))).lastrowid

    async def xact_lock(self, key: str) -> None:
        pass   # one writer at a time already

    async def notify(self, game_id: int | None = None) -> None:
        pass   # one process per file (the lock file): the bot wakes its own worker


class SqliteEngine(Engine):
    name = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self.db = db
        self.tx = SqliteTx(db)
        # One connection: statements of concurrent coroutines must not interleave inside a
        # transaction, so every use of the connection holds this lock.
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str, *, create: bool = True) -> "SqliteEngine":
        """`create=False` (admin commands): a missing file raises NoDatabase, never made empty."""
        db = await aiosqlite.connect(path if create else existing(path), isolation_level=None,
                                     uri=not create)
        db.row_factory = aiosqlite.Row
        try:   # a file that is not a database fails at the first statement, not at connect
            # (the wait first: another process may be migrating the file, see the switch to WAL)
            await db.execute("PRAGMA busy_timeout=5000")
            await switch_to_wal(db)
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        async with self.lock:
            await self.db.close()

    @contextlib.asynccontextmanager
    async def connection(self):
        async with self.lock:
            yield self.tx

    @contextlib.asynccontextmanager
    async def transaction(self):
        """Hold the lock and run the block in one write transaction: all of it or nothing.
        IMMEDIATE takes the file's write lock at once, so writers (other processes too) are
        serialised and a read inside sees what the write will change."""
        async with self.lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.tx
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    @contextlib.asynccontextmanager
    async def migrating(self):
        yield   # each migration's BEGIN IMMEDIATE serialises them

    # ---- dialect ---------------------------------------------------------------------------

    def seat_list(self, table: str) -> str:
        return ("(SELECT json_group_array(json_array(seat, user_id, display_name, dm_closed)) "
                f"FROM seats WHERE seats.game_id = {table}.id)")

    def without_board(self, payload: str) -> str:
        return f"json_remove({payload}, '$.board')"

    def has_board(self, payload: str) -> str:
        return f"json_extract({payload}, '$.board') IS NOT NULL"

    def same(self, a: str, b: str) -> str:
        return f"{a} IS {b}"


async def switch_to_wal(db: aiosqlite.Connection, tries: int = 50) -> None:
    """PRAGMA journal_mode=WAL, tried again while another connection holds the file: the switch
    wants the file to itself and SQLite answers "database is locked" at once, without waiting
    out busy_timeout, when several connections open a new file together."""
    for attempt in range(tries):
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == tries - 1:
                raise
            await asyncio.sleep(0.02 * (attempt + 1))
