"""The PostgreSQL engine: an asyncpg pool (asyncpg is the optional extra `postgres`).

Statements are the stores' SQLite-style text: `?` placeholders become `$1..$n` (once per
text), `insert_id` adds RETURNING id. Within a process they run one at a time, as on SQLite
(see `lock`). Transactions are READ COMMITTED: the version-checked
UPDATE of a game stays correct (a blocked writer re-checks the version once the winner
commits), and the read-then-write spots lock what they read (`for_update`, `xact_lock`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from typing import Any, Iterable

try:
    import asyncpg
except ImportError:   # pragma: no cover - the message says how to get it
    asyncpg = None

from .engine import Engine

INSTALL = "pip install 'piecepack-bot[postgres]'"
MIGRATION_LOCK = 0x70696563   # pg_advisory_lock key while migrating ("piec")
BOT_LOCK = "piecepack-bot:"   # + "all" or "shard:N": held by a running bot for its life (hold_bot_locks)
SHARD_PROBE = 4096            # shards looked for when naming the ones another bot holds
CHANNEL = "piecepack_work"    # NOTIFY channel: work was queued (see PgTx.notify)
LISTEN_RETRY = (1.0, 2.0, 5.0, 10.0)   # seconds between attempts to get the listener back

_PLACEHOLDER = re.compile(r"\?")
_translated: dict[str, str] = {}


def translate(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$n` (our SQL has no `?` inside literals: never use
    jsonb's `?` operators)."""
    text = _translated.get(sql)
    if text is None:
        counter = iter(range(1, sql.count("?") + 1))
        text = _translated[sql] = _PLACEHOLDER.sub(lambda _: f"${next(counter)}", sql)
    return text


class MissingDriver(RuntimeError):
    def __init__(self):
        super().__init__(f"PIECEPACK_DB is a PostgreSQL URL, but asyncpg is not installed: {INSTALL}")


class PgTx:
    def __init__(self, conn, sender: str = ""):
        self.conn = conn
        self.sender = sender   # the engine's name in its NOTIFYs (its own listener skips them)
        self.notified = False

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        status = await self.conn.execute(translate(sql), *args)
        count = status.rsplit(" ", 1)[-1]   # "UPDATE 1", "INSERT 0 1", "CREATE TABLE"
        return int(count) if count.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if rows:
            await self.conn.executemany(translate(sql), rows)

    async def rows(self, sql: str, args: Iterable[Any] = ()) -> list:
        return await self.conn.fetch(translate(sql), *args)

    async def first(self, sql: str, args: Iterable[Any] = ()) -> Any | None:
        return await self.conn.fetchrow(translate(sql), *args)

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        return await self.conn.fetchval(translate(sql + " RETURNING id"), *args)

    async def xact_lock(self, key: str) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", key)

    async def notify(self, game_id: int | None = None) -> None:
        # sent at commit only (and not at all on rollback); one per transaction is enough (a
        # move queues notices and timers: a round trip saved). The payload: the sender, and
        # the server of the game (its shard's process is the one to wake; see listen)
        if not self.notified:
            self.notified = True
            await self.conn.execute(
                f"SELECT pg_notify('{CHANNEL}', $1 || COALESCE(':' || "
                "(SELECT guild_id FROM games WHERE id=$2)::text, ''))", self.sender, game_id)


async def _take_bot_locks(conn, shard_ids: Iterable[int] | None) -> str | None:
    """(see PostgresEngine.hold_bot_locks)"""
    async def take(how: str, name: str) -> bool:
        return await conn.fetchval(f"SELECT pg_try_advisory_lock{how}(hashtextextended($1, 0))",
                                   BOT_LOCK + name)

    if shard_ids is None:
        if await take("", "all"):
            return None
        if not await take("_shared", "all"):
            return "all shards"   # (another bot of all the shards)
        shards = [r[0] for r in await conn.fetch(
            "SELECT s FROM generate_series(0, $2::int - 1) AS s JOIN pg_locks AS l "
            "ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 AND l.database = "
            "(SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND l.classid::bigint = (hashtextextended($1 || s, 0) >> 32) & 4294967295 "
            "AND l.objid::bigint = hashtextextended($1 || s, 0) & 4294967295 ORDER BY s",
            BOT_LOCK + "shard:", SHARD_PROBE)]
        return "shard " + ", ".join(map(str, shards)) if shards else "some shards"
    if not await take("_shared", "all"):
        return "all shards"
    for shard in sorted(shard_ids):
        if not await take("", f"shard:{shard}"):
            return f"shard {shard}"
    return None


async def _no_reset(conn) -> None:
    """What a connection needs on its way back to the pool beyond asyncpg's own rollback of an
    open transaction: nothing (the store keeps no session state: no SET, LISTEN or session
    lock outlives its use). asyncpg's default costs a round trip per use."""


class PostgresEngine(Engine):
    name = "postgresql"
    for_update = " FOR UPDATE"
    skip_locked = " FOR UPDATE SKIP LOCKED"

    def __init__(self, pool, url: str):
        self.pool = pool
        self.url = url
        self._held = None   # the connection holding the BOT_LOCK locks
        self._listener = None   # the connection LISTENing (see listen)
        self._listening: asyncio.Task | None = None
        # Named in this engine's NOTIFYs: its process wakes itself when it queues work (as on
        # SQLite), so its own NOTIFY would only make it look at the database a second time.
        self.sender = secrets.token_hex(8)
        # One statement or transaction of this process at a time, as on SQLite: a read waits
        # for the write begun before it (the bot reads what it has just answered), and the
        # process behaves the same on either engine. Other processes are kept apart by the
        # server (the version check, row locks).
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, url: str, *, process: str = "piecepack-bot") -> "PostgresEngine":
        if asyncpg is None:
            raise MissingDriver()
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=10, reset=_no_reset,
            server_settings={"application_name": process,
                             # a transaction left open (a process stopped mid-way) frees its locks
                             "idle_in_transaction_session_timeout": "60s"})
        return cls(pool, url)

    async def close(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            try:
                await self._listening
            except (asyncio.CancelledError, Exception):
                pass
            self._listening = None
        if self._held is not None:
            await self._held.close()   # (ending the session releases its lock)
            self._held = None
        await self.pool.close()

    async def hold_bot_locks(self, shard_ids: Iterable[int] | None = None) -> str | None:
        """Take the locks a running bot holds for its life, one per shard it runs (`shard_ids`;
        None: all of them, whatever their number). Several processes may share the database
        (work is claimed once, see WorkStore), but two running one shard would both answer
        its interactions. Returns None once held, else what another bot holds already
        ("shard 1", "all shards"). A connection of its own keeps them; the server releases
        them when that connection ends, however the bot ends.

        Advisory locks: "shard:N" for each shard; and "all", which a bot of all the shards
        takes alone (exclusive) and a bot of some takes beside the others (shared)."""
        conn = await asyncpg.connect(self.url, server_settings={"application_name": "piecepack-bot"})
        try:
            held = await _take_bot_locks(conn, shard_ids)
        except BaseException:
            await conn.close()
            raise
        if held is not None:
            await conn.close()
            return held
        self._held = conn
        return None

    async def listen(self, wake, serves=None) -> bool:
        """Call `wake()` on every NOTIFY of CHANNEL but this engine's own, and, with `serves`,
        only for work of the servers `serves(guild_id)` says this process serves (or of no
        server), through a connection of its own (not the pool's: LISTEN is the session's);
        if it drops, connect again (`listening` is False meanwhile, and the worker looks at
        the database more often)."""
        def heard(_conn, _pid, _channel, payload: str) -> None:
            sender, _, guild = payload.partition(":")
            if sender != self.sender and not (guild and serves and not serves(int(guild))):
                wake()

        if self._listening is None:
            self._listening = asyncio.create_task(self._listen(heard, wake), name="piecepack-listen")
        return True

    @property
    def listening(self) -> bool:
        return self._listener is not None and not self._listener.is_closed()

    async def _listen(self, heard, wake) -> None:
        failures = 0
        while True:
            dropped = asyncio.Event()
            try:
                conn = await asyncpg.connect(
                    self.url, server_settings={"application_name": "piecepack-bot listener"})
            except (OSError, asyncpg.PostgresError) as exc:
                delay = LISTEN_RETRY[min(failures, len(LISTEN_RETRY) - 1)]
                failures += 1
                logging.getLogger("bot.storage").warning(
                    "could not listen for work queued by other processes (%r); again in %g s",
                    exc, delay)
                await asyncio.sleep(delay)
                continue
            try:
                conn.add_termination_listener(lambda _conn: dropped.set())
                await conn.add_listener(CHANNEL, heard)
                self._listener = conn
                failures = 0
                wake()   # (what was queued while it was down)
                await dropped.wait()
            finally:
                self._listener = None
                conn.terminate()

    @contextlib.asynccontextmanager
    async def connection(self):
        async with self.lock, self.pool.acquire() as conn:
            yield PgTx(conn, self.sender)

    @contextlib.asynccontextmanager
    async def beside(self):
        async with self.pool.acquire() as conn:   # (not behind `lock`: see Engine.beside)
            yield PgTx(conn, self.sender)

    @contextlib.asynccontextmanager
    async def transaction(self):
        async with self.lock, self.pool.acquire() as conn, conn.transaction():
            yield PgTx(conn, self.sender)

    @contextlib.asynccontextmanager
    async def migrating(self):
        """Processes starting at once migrate one after the other (the later ones then find
        the schema current)."""
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    # ---- dialect ---------------------------------------------------------------------------

    def seat_list(self, table: str) -> str:
        return ("(SELECT COALESCE(json_agg(json_build_array(seat, user_id, display_name, "
                f"dm_closed)), '[]')::text FROM seats WHERE seats.game_id = {table}.id)")

    def without_board(self, payload: str) -> str:
        return f"({payload}::jsonb - 'board')::text"

    def has_board(self, payload: str) -> str:
        return f"({payload}::jsonb -> 'board') IS NOT NULL"

    def same(self, a: str, b: str) -> str:
        return f"{a} IS NOT DISTINCT FROM {b}"
