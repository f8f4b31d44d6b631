"""`piecepack-bot migrate-db`: copy everything of a SQLite database into an empty PostgreSQL
database, all or nothing.

The SQLite file is snapshot with the backup API (the copy is migrated to the current schema
like any database the bot opens), then every table is copied in the order its foreign keys
need, in one PostgreSQL transaction; the identity sequences are moved past the copied ids,
and the counts of both sides are compared before the transaction commits: any difference
rolls it all back.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile

from .files import backup
from .model import SchemaTooNew
from .store import Store

# Every table of the schema, parents before the rows that reference them. A new table must
# be added here (tests/test_migrate_db.py checks this list against the schema).
COPY_ORDER = ("meta", "games", "seats", "events", "timers", "outbox", "absences", "ratings",
              "rating_history", "daily_plays", "rematches", "player_settings", "tournaments",
              "tournament_entrants", "tournament_rounds", "tournament_games")
IDENTITY_TABLES = ("games", "events", "outbox", "absences", "rating_history", "tournaments")
# meta rows that belong to the database they are in, not to what it holds
LOCAL_META = ("schema_version", "alive_at")
# what running processes hold, not what the database holds: claims start free on the target
NOT_COPIED = ("outbox_leases",)
FREED_COLUMNS = {"timers": ("claimed_by", "lease_until"), "tournaments": ("claimed_by", "lease_until")}


class TargetNotEmpty(Exception):
    def __init__(self, games: int, rows: dict[str, int]):
        self.games = games
        self.rows = rows
        what = f"{games} games" if games else ", ".join(f"{n} rows in {t}" for t, n in rows.items())
        super().__init__(f"it already holds {what}")


class CopyMismatch(Exception):
    """The copy's counts differ from the source's: nothing was kept."""


class TargetInUse(Exception):
    """A bot runs on the PostgreSQL database."""


class SourceError(Exception):
    """The SQLite database cannot be read (`cause`: sqlite3.Error, OSError, or SchemaTooNew for
    a file of a newer release)."""

    def __init__(self, cause: BaseException):
        self.cause = cause
        super().__init__(f"{type(cause).__name__}: {cause}")


def schema_tables(db: sqlite3.Connection) -> list[str]:
    """The tables of a SQLite database of the bot (SQLite's own left out)."""
    return [name for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]


def read_source(path: str) -> dict[str, tuple[list[str], list[tuple]]]:
    """Each table's columns and rows (meta without its LOCAL_META rows)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        missing = set(schema_tables(db)) - set(COPY_ORDER) - set(NOT_COPIED)
        if missing:   # (a table this release does not know: never drop data silently)
            raise CopyMismatch(f"tables not known to migrate-db: {', '.join(sorted(missing))}")
        tables = {}
        for table in COPY_ORDER:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")
                       if row[1] not in FREED_COLUMNS.get(table, ())]
            rows = db.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            if table == "meta":
                rows = [row for row in rows if row[0] not in LOCAL_META]
            tables[table] = (columns, rows)
    db.close()
    return tables


def _exact_int(value) -> int:
    number = int(value)
    if number != value and str(number) != value:
        raise ValueError(f"{value!r} is not a whole number")
    return number


def _converter(data_type: str):
    """How a SQLite value becomes the PostgreSQL column's type (asyncpg's COPY is strict:
    SQLite may hold 1 in a REAL column, or a number in a TEXT one)."""
    if data_type == "bigint":
        return _exact_int
    if data_type == "double precision":
        return float
    return str


def _records(table: str, columns: list[str], types: dict[str, str], rows: list[tuple]) -> list:
    convert = [_converter(types[c]) for c in columns]
    try:
        return [tuple(None if v is None else f(v) for f, v in zip(convert, row)) for row in rows]
    except (TypeError, ValueError) as exc:   # (a value SQLite took that PostgreSQL would not)
        raise CopyMismatch(f"a value of {table} does not fit PostgreSQL's column: {exc}") from None


async def copy_database(source: str, url: str) -> dict[str, int]:
    """Copy the SQLite database at `source` into the PostgreSQL database `url` (made ready by
    the migrations if it is new); returns the rows copied per table. The caller keeps bots
    off `source` (its DatabaseLock). Raises SourceError, TargetNotEmpty, TargetInUse or
    CopyMismatch, with nothing written."""
    # the snapshot beside the file (where there is room for it, unlike a container's /tmp)
    beside = os.path.dirname(os.path.abspath(source))
    with tempfile.TemporaryDirectory(prefix=".migrate-", dir=beside) as folder:
        snapshot = os.path.join(folder, "snapshot.sqlite3")
        try:
            backup(source, snapshot)
            store = await Store.open(snapshot)   # (brings an older schema up to date)
            await store.close()
            tables = read_source(snapshot)
        except (sqlite3.Error, OSError, SchemaTooNew) as exc:
            raise SourceError(exc) from None
    target = await Store.open(url)
    try:
        if await target.engine.hold_bot_locks() is not None:   # (a bot of any shard runs)
            raise TargetInUse()
        async with target.engine.transaction() as tx:
            conn = tx.conn
            held = {t: await conn.fetchval(f"SELECT COUNT(*) FROM {t}") for t in COPY_ORDER
                    if t != "meta"}
            if any(held.values()):
                raise TargetNotEmpty(held["games"], {t: n for t, n in held.items() if n})
            for table, (columns, rows) in tables.items():
                types = dict(await conn.fetch(
                    "SELECT column_name, data_type FROM information_schema.columns "
                    "WHERE table_schema = current_schema() AND table_name = $1", table))
                records = _records(table, columns, types, rows)
                if table == "meta":   # (the target's own keys stay; copied ones replace theirs)
                    await conn.execute("DELETE FROM meta WHERE key = ANY($1::text[])",
                                       [r[0] for r in records])
                if records:
                    await conn.copy_records_to_table(table, records=records, columns=columns)
            for table in IDENTITY_TABLES:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
            await _check(conn, tables)
    finally:
        await target.close()
    return {table: len(rows) for table, (_, rows) in tables.items()}


async def _check(conn, tables) -> None:
    """Raise CopyMismatch (rolling the copy back) if any table's count differs."""
    differ = []
    for table, (columns, rows) in tables.items():
        if table == "meta":
            keys = [r[0] for r in rows]
            count = await conn.fetchval("SELECT COUNT(*) FROM meta WHERE key = ANY($1::text[])",
                                        keys)
        else:
            count = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
        if count != len(rows):
            differ.append(f"{table}: {len(rows)} in the file, {count} copied")
    versions = sum(row[tables["games"][0].index("version")] for row in tables["games"][1])
    copied = await conn.fetchval("SELECT COALESCE(SUM(version), 0) FROM games")
    if copied != versions:
        differ.append(f"games' versions: {versions} in the file, {copied} copied")
    if differ:
        raise CopyMismatch("; ".join(differ))
