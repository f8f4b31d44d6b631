"""What the store reads and writes: games and their seats, events, notices, timers, outbox
items, ratings; and the errors of the store."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Callable

from . import migrations

GAME_STATUSES = ("lobby", "active", "finished", "cancelled")
_GAME_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, lobby_message_id, host_id, invited_id, status, "
    "state, version, options, deadline_seconds, created_at, updated_at, extras"
)


def _game_select(engine, table: str = "games") -> str:
    """A game's columns and its seats as one JSON list: a game and its seats in one trip."""
    return _select(table, engine.seat_list(table), _GAME_COLUMNS)


@functools.lru_cache
def _select(table: str, seat_list: str, columns: str) -> str:
    return (", ".join(f"{table}.{column.strip()}" for column in columns.split(","))
            + f", {seat_list} AS seat_list")


_UPDATABLE = {"thread_id", "lobby_message_id", "status", "state", "options", "deadline_seconds",
              "invited_id", "extras"}


class Conflict(Exception):
    """The game changed between reading and writing it; nothing was written."""


class SchemaTooNew(RuntimeError):
    """The database was written by a newer release of the bot."""

    def __init__(self, version: int):
        super().__init__(f"The database has schema version {version}, newer than this bot "
                         f"({migrations.SCHEMA_VERSION}); upgrade the bot.")
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


# A game's background work (a solver) waits as a timer of this kind, so that one process does
# it (its claim) and another takes it over if that one dies; a commit's timers leave it be.
SOLVE_TIMER = "solve"
KEPT_TIMERS = (SOLVE_TIMER,)


@dataclass
class Timer:
    game_id: int
    kind: str
    due_at: float
    data: dict
    claimed_by: str | None = None   # the process firing it now (see WorkStore.claim_timers)


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

def _game_row(r) -> GameRow:
    return GameRow(
        id=r["id"], game=r["game"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        thread_id=r["thread_id"], lobby_message_id=r["lobby_message_id"], host_id=r["host_id"],
        invited_id=r["invited_id"], status=r["status"], state=r["state"], version=r["version"],
        options=json.loads(r["options"]), deadline_seconds=r["deadline_seconds"],
        created_at=r["created_at"], updated_at=r["updated_at"], extras=json.loads(r["extras"]),
        seats=[Seat(seat, user_id, name, bool(dm_closed))
               for seat, user_id, name, dm_closed in sorted(json.loads(r["seat_list"]))])
