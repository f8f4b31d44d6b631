"""The Store: opening the database, the schema, meta values and admin deletes; the games,
work (timers, outbox) and players (ratings, time away, daily) parts come from its mixins."""

from __future__ import annotations

import logging

from . import migrations
from .engine import Engine, is_url
from .games import GamesStore
from .model import SchemaTooNew
from .player_settings import PlayerSettingsStore
from .players import PlayersStore
from .sqlite import SqliteEngine
from .tournaments import TournamentsStore
from .work import WorkStore


class Store(GamesStore, WorkStore, PlayersStore, PlayerSettingsStore, TournamentsStore):
    def __init__(self, engine: Engine):
        self.engine = engine

    @property
    def db(self):
        """The SQLite connection (tests and SQLite-only admin code)."""
        return self.engine.db

    # ---- opening and the schema ------------------------------------------------------------

    @classmethod
    async def open(cls, target: str, *, create: bool = True) -> "Store":
        """Open the database `target` names: a PostgreSQL URL or a SQLite file. `create=False`
        (admin commands): a missing file raises NoDatabase, never made empty."""
        if is_url(target):
            from .postgres import PostgresEngine   # asyncpg is an optional extra

            engine = await PostgresEngine.open(target)
        else:
            engine = await SqliteEngine.open(target, create=create)
        store = cls(engine)
        try:
            await store.migrate()
        except BaseException:
            await engine.close()
            raise
        return store

    async def close(self) -> None:
        await self.engine.close()

    async def migrate(self) -> None:
        async with self.engine.migrating():
            async with self.engine.connection() as tx:
                await tx.execute(
                    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                version = int(await self._meta(tx, "schema_version") or 0)
            if version > migrations.SCHEMA_VERSION:
                raise SchemaTooNew(version)
            if 0 < version < migrations.SCHEMA_VERSION:
                logging.getLogger("bot.storage").info(
                    "upgrading the database from schema version %d to %d",
                    version, migrations.SCHEMA_VERSION)
            for target in range(version + 1, migrations.SCHEMA_VERSION + 1):
                async with self.engine.transaction() as tx:
                    # read again inside: another process may have run it meanwhile
                    if int(await self._meta(tx, "schema_version") or 0) >= target:
                        continue
                    for statement in migrations.statements(target - 1, self.engine.name):
                        await tx.execute(statement)
                    await self._set_meta(tx, "schema_version", str(target))

    async def schema_version(self) -> int:
        return int(await self.get_meta("schema_version") or 0)

    async def ping(self, now: float) -> None:
        """A small write and read: raises if the database can no longer be written."""
        async with self.engine.transaction() as tx:
            await self._set_meta(tx, "alive_at", repr(now))

    async def forget_guild(self, guild_id: int) -> int:
        """Delete every game of a server, with its seats, events, timers and notices (the
        foreign keys cascade); returns how many games."""
        async with self.engine.transaction() as tx:
            await tx.execute("DELETE FROM absences WHERE guild_id=?", (guild_id,))
            await self.forget_guild_tournaments(tx, guild_id)
            count = await tx.execute("DELETE FROM games WHERE guild_id=?", (guild_id,))
            await tx.execute("DELETE FROM ratings WHERE guild_id=?", (guild_id,))
            return count

    # ---- meta ------------------------------------------------------------------------------

    async def _meta(self, tx, key: str) -> str | None:
        row = await tx.first("SELECT value FROM meta WHERE key=?", (key,))
        return row[0] if row else None

    async def _set_meta(self, tx, key: str, value: str) -> None:
        await tx.execute(
            "INSERT INTO meta(key, value) VALUES(?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    async def get_meta(self, key: str) -> str | None:
        async with self.engine.connection() as tx:
            return await self._meta(tx, key)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.engine.connection() as tx:
            await self._set_meta(tx, key, value)

