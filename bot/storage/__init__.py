"""All of the bot's SQL: games, seats, events, timers and the outbox, in one SQLite file (the
default) or a PostgreSQL database (PIECEPACK_DB a postgresql:// URL; `Store.open` picks).

On SQLite, one aiosqlite connection in WAL mode; on PostgreSQL, an asyncpg pool. Every change
of a game goes through `Store.commit`, one transaction that checks the version read earlier
(`UPDATE ... WHERE id=? AND version=?`), bumps it, and writes the events, the notifications to
send (outbox) and the game's timers with it. A version mismatch raises `Conflict` and writes
nothing: of two writers on one game, in one process or two, exactly one wins.

A notice may carry a `tag` (which post of the game it is: "board", "dm:<player>", ...), so a
later notice can edit the message it became (`edit_of`, the id of that outbox row).

The package's parts: `model` (what is read and written), `migrations` (the schema), `games`,
`work` (timers, outbox), `players` (ratings, time away, daily puzzles) and
`player_settings` (/settings), the mixins the
`store.Store` is made of; `engine` (what the SQL runs through) with `sqlite` and `postgres`;
and `files` (backup, restore, the database lock: SQLite files only).
"""

from .files import BackupTargetError, DatabaseLock, NoDatabase, backup, existing, restore
from .migrations import MIGRATIONS, SCHEMA_VERSION
from .model import (GAME_STATUSES, Conflict, Event, GameRow, Notice, OutboxItem, PlayerRating,
                    RatedResult, SchemaTooNew, Seat, SOLVE_TIMER, Timer)
from .store import Store

__all__ = [
    "BackupTargetError", "Conflict", "DatabaseLock", "Event", "GAME_STATUSES", "GameRow",
    "MIGRATIONS", "NoDatabase", "Notice", "OutboxItem", "PlayerRating", "RatedResult",
    "SCHEMA_VERSION", "SchemaTooNew", "Seat", "SOLVE_TIMER", "Store", "Timer", "backup", "existing", "restore",
]
