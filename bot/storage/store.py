"""The Store: opening the database, the schema, meta values and admin deletes; the games,
work (timers, outbox) and players (ratings, time away, daily) parts come from its mixins."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Iterable

import aiosqlite

from . import migrations
from .files import existing
from .games import GamesStore
from .model import SchemaTooNew
from .players import PlayersStore
from .work import WorkStore


class Store(GamesStore, WorkStore, PlayersStore):
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
        if version > migrations.SCHEMA_VERSION:
            raise SchemaTooNew(version)
        if 0 < version < migrations.SCHEMA_VERSION:
            logging.getLogger("bot.storage").info("upgrading the database from schema version %d to %d",
                                             version, migrations.SCHEMA_VERSION)
        for target in range(version + 1, migrations.SCHEMA_VERSION + 1):
            async with self._transaction():
                for statement in migrations.statements(migrations.MIGRATIONS[target - 1]):
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

