"""The interface the stores' SQL runs through, on SQLite (`sqlite.SqliteEngine`) or PostgreSQL
(`postgres.PostgresEngine`).

The stores write one SQL text for both engines, with `?` placeholders; an engine supplies
the few pieces that differ (the `dialect` methods below) and runs statements through a `Tx`:
`connection()` for single statements and reads, `transaction()` for all-or-nothing writes.

Read-then-write spots take a lock so that a concurrent writer cannot slip in between: the
row's (`for_update`, appended to the SELECT) or a named one (`Tx.xact_lock`). SQLite runs one
writer at a time anyway (BEGIN IMMEDIATE), so there both are nothing.
"""

from __future__ import annotations

import re
from contextlib import AbstractAsyncContextManager
from typing import Any, Iterable, Protocol

URL_SCHEMES = ("postgresql://", "postgres://")


def is_url(target: str) -> bool:
    """Whether PIECEPACK_DB names a PostgreSQL server rather than a SQLite file."""
    return target.startswith(URL_SCHEMES)


def without_password(url: str) -> str:
    """The URL to show in messages and logs: its password (if any) replaced by ***."""
    return re.sub(r"^(\w+://[^:/@]*):[^@/]*@", r"\1:***@", url)


class Tx(Protocol):
    """A connection in use (in a transaction or not)."""

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None: ...

    async def rows(self, sql: str, args: Iterable[Any] = ()) -> list: ...

    async def first(self, sql: str, args: Iterable[Any] = ()) -> Any | None: ...

    async def insert_id(self, sql: str, args: Iterable[Any] = ()) -> int:
        """Run an INSERT into a table with an `id` key; returns the new row's id."""

    async def xact_lock(self, key: str) -> None:
        """Hold a lock named `key` until the transaction ends (nothing on SQLite)."""

    async def notify(self, game_id: int | None = None) -> None:
        """Tell the other processes, when the transaction commits, that work was queued (for
        `game_id`: the process serving its server's shard wakes; None: every process)
        (PostgreSQL's NOTIFY; nothing on SQLite, where one process runs)."""


class Engine:
    name = ""
    for_update = ""   # appended to a SELECT whose rows the transaction then writes
    skip_locked = ""  # appended to a SELECT of work to claim: rows another claimant locks are passed by

    def connection(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    def beside(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for a statement that must not wait behind this process's others: a
        lease renewal, while a transaction waits for another process's lock (waiting, the
        lease would lapse and the work go to another process). SQLite: `connection()`."""
        return self.connection()

    def migrating(self) -> AbstractAsyncContextManager[None]:
        """Held while the schema is brought up to date: one process at a time."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def listen(self, wake, serves=None) -> bool:
        """Call `wake()` whenever another process queues work (`Tx.notify`) of a server that
        `serves(guild_id)` says this process serves (None: any), or of no server, until
        closed; False if this engine has no such thing (SQLite: one process per file)."""
        return False

    @property
    def listening(self) -> bool:
        """Whether `listen`'s connection is up now (while it is down, look more often)."""
        return False

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> int:
        """One statement on its own (admin commands, tests)."""
        async with self.connection() as tx:
            return await tx.execute(sql, args)

    # ---- what differs between the engines' SQL --------------------------------------------

    def seat_list(self, table: str) -> str:
        """A game's seats as the text of one JSON list of [seat, user_id, name, dm_closed]."""
        raise NotImplementedError

    def without_board(self, payload: str) -> str:
        """The JSON text `payload` without its "board" key."""
        raise NotImplementedError

    def has_board(self, payload: str) -> str:
        """Whether the JSON text `payload` has a "board" key."""
        raise NotImplementedError

    def same(self, a: str, b: str) -> str:
        """`a` equals `b`, NULL equal to NULL."""
        raise NotImplementedError
