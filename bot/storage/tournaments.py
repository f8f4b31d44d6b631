"""Tournaments (issue 25): the event, its entrants, its rounds and the games of each round.

A tournament row has a version like a game's: every change of its course (start, a new round,
a round closed, pause, end) is checked against the version read, so two processes (or two
clicks) cannot both open a round. Its one piece of timed work (`due_at`: the start time, a look
after one of its games ended, the round deadline) is claimed like a timer (`claim_tournaments`).
The games of a round are ordinary game rows, linked here to (tournament, round, table)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from .model import Conflict, Event, Notice

_COLUMNS = ("id, guild_id, channel_id, organiser_id, game, options, format, rounds, "
            "deadline_seconds, round_seconds, starts_at, status, seed, round, round_ends_at, "
            "message_id, version, due_at, created_at, updated_at")
_UPDATABLE = {"status", "rounds", "round", "round_ends_at", "message_id", "due_at", "starts_at"}
ENTRANT_STATUSES = ("active", "withdrawn", "removed")


@dataclass
class Entrant:
    user_id: int
    name: str
    joined: int
    status: str = "active"

    @property
    def id(self) -> str:
        """The entrant's id in the pure pairing and standings code: the user id as text."""
        return str(self.user_id)


@dataclass
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    options: dict
    format: str
    rounds: int | None
    deadline_seconds: int | None
    round_seconds: int | None
    starts_at: float | None
    status: str
    seed: int
    round: int
    round_ends_at: float | None
    message_id: int | None
    version: int
    due_at: float | None
    created_at: float
    updated_at: float
    entrants: list[Entrant] = field(default_factory=list)

    @property
    def active(self) -> list[Entrant]:
        return [e for e in self.entrants if e.status == "active"]

    @property
    def names(self) -> dict[str, str]:
        return {e.id: e.name for e in self.entrants}

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)


@dataclass
class TournamentGame:
    """One table of a round: its game, the seats as paired, who forfeits it, and its result
    ({"points": {entrant: points}, "forfeit": [...], "how": words}) once the round closed."""

    game_id: int
    round: int
    table_no: int
    seats: list[str]
    forfeit: list[str]
    result: dict | None


def _tournament(r, entrants: list[Entrant]) -> TournamentRow:
    values = dict(zip([c.strip() for c in _COLUMNS.split(",")], r))
    values["options"] = json.loads(values["options"])
    return TournamentRow(**values, entrants=entrants)


def _game_link(r) -> TournamentGame:
    return TournamentGame(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]),
                          json.loads(r[5]) if r[5] is not None else None)


class TournamentsStore:
    async def create_tournament(self, *, guild_id: int, channel_id: int, organiser_id: int,
                                game: str, options: dict, format: str, rounds: int | None,
                                deadline_seconds: int | None, round_seconds: int | None,
                                starts_at: float | None, seed: int, now: float) -> TournamentRow:
        async with self.engine.transaction() as tx:
            tid = await tx.insert_id(
                "INSERT INTO tournaments(guild_id, channel_id, organiser_id, game, options, format, "
                "rounds, deadline_seconds, round_seconds, starts_at, status, seed, due_at, "
                "created_at, updated_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?)",
                (guild_id, channel_id, organiser_id, game, json.dumps(options), format, rounds,
                 deadline_seconds, round_seconds, starts_at, seed, starts_at, now, now))
            if starts_at is not None:
                await tx.notify()
        return await self.get_tournament(tid)

    async def get_tournament(self, tid: int) -> TournamentRow | None:
        async with self.engine.connection() as tx:
            return await self._get_tournament(tx, tid)

    async def _get_tournament(self, tx, tid: int) -> TournamentRow | None:
        row = await tx.first(f"SELECT {_COLUMNS} FROM tournaments WHERE id=?", (tid,))
        if row is None:
            return None
        entrants = [Entrant(r[0], r[1], r[2], r[3]) for r in await tx.rows(
            "SELECT user_id, display_name, joined, status FROM tournament_entrants "
            "WHERE tournament_id=? ORDER BY joined", (tid,))]
        return _tournament(tuple(row), entrants)

    async def tournaments_in(self, guild_id: int, statuses: Iterable[str]) -> list[TournamentRow]:
        """A server's tournaments in `statuses`, newest first."""
        statuses = tuple(statuses)
        marks = ",".join("?" * len(statuses))
        async with self.engine.connection() as tx:
            ids = [r[0] for r in await tx.rows(
                f"SELECT id FROM tournaments WHERE guild_id=? AND status IN ({marks}) ORDER BY id DESC",
                (guild_id, *statuses))]
            return [await self._get_tournament(tx, tid) for tid in ids]

    async def update_tournament(self, tid: int, expected_version: int, *, now: float,
                                changes: dict[str, Any], notices: Iterable[Notice] = ()) -> int:
        """Change the tournament if it is still at `expected_version` (else Conflict, nothing
        written), with notices to post; returns the new version."""
        async with self.engine.transaction() as tx:
            version = await self._bump(tx, tid, expected_version, now, changes)
            await self._insert_notices(tx, None, notices, now)
        return version

    async def _bump(self, tx, tid: int, expected_version: int, now: float, changes: dict) -> int:
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        assignments = "".join(f", {column}=?" for column in changes)
        count = await tx.execute(
            f"UPDATE tournaments SET version=?, updated_at=?{assignments} WHERE id=? AND version=?",
            (expected_version + 1, now, *changes.values(), tid, expected_version))
        if count != 1:
            raise Conflict(f"tournament {tid} is no longer at version {expected_version}")
        if "due_at" in changes:
            await tx.notify()
        return expected_version + 1

    # ---- entrants --------------------------------------------------------------------------

    async def add_entrant(self, tid: int, user_id: int, name: str) -> bool:
        """Sign `user_id` up (at the end of the order); False if they are signed up already."""
        async with self.engine.transaction() as tx:
            await tx.first("SELECT 1 FROM tournaments WHERE id=?" + self.engine.for_update, (tid,))
            joined = (await tx.first("SELECT COALESCE(MAX(joined), 0) + 1 FROM tournament_entrants "
                                     "WHERE tournament_id=?", (tid,)))[0]
            return await tx.execute(
                "INSERT INTO tournament_entrants(tournament_id, user_id, display_name, joined) "
                "VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING", (tid, user_id, name, joined)) == 1

    async def drop_entrant(self, tid: int, user_id: int) -> bool:
        """Take a sign-up back (before the start)."""
        async with self.engine.connection() as tx:
            return await tx.execute("DELETE FROM tournament_entrants WHERE tournament_id=? AND user_id=?",
                                    (tid, user_id)) == 1

    async def set_entrant_status(self, tid: int, user_id: int, status: str, *, now: float,
                                 notices: Iterable[Notice] = ()) -> bool:
        """Withdraw or remove an active entrant (with the notices saying so); False if they
        were not active."""
        assert status in ENTRANT_STATUSES
        async with self.engine.transaction() as tx:
            changed = await tx.execute(
                "UPDATE tournament_entrants SET status=? WHERE tournament_id=? AND user_id=? "
                "AND status='active'", (status, tid, user_id)) == 1
            if changed:
                await self._insert_notices(tx, None, notices, now)
            return changed

    # ---- rounds and their games ------------------------------------------------------------

    async def open_round(self, tid: int, expected_version: int, *, number: int, bye: int | None,
                         forfeits: list[list[str]],
                         tables: list[tuple[list[str], dict[str, str]]], game: str, options: dict,
                         deadline_seconds: int | None, changes: dict, notices: Iterable[Notice],
                         now: float) -> list[int]:
        """Round `number` in one transaction: its row (with the bye), a lobby game for each
        table (`tables`: the seats in order, and their names) linked to it, and the
        tournament's `changes`. Returns the games' ids, table by table."""
        tournament = await self.get_tournament(tid)
        async with self.engine.transaction() as tx:
            await self._bump(tx, tid, expected_version, now, changes)
            await tx.execute("INSERT INTO tournament_rounds(tournament_id, round, bye, forfeits) "
                             "VALUES(?, ?, ?, ?)", (tid, number, bye, json.dumps(forfeits)))
            ids = []
            # the organiser hosts every game (so may /abort one; its players may not)
            host = tournament.organiser_id
            for n, (seats, names) in enumerate(tables, 1):
                game_id = await tx.insert_id(
                    "INSERT INTO games(game, guild_id, channel_id, host_id, status, options, "
                    "deadline_seconds, created_at, updated_at) VALUES(?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (game, tournament.guild_id, tournament.channel_id, host, json.dumps(options),
                     deadline_seconds, now, now))
                await tx.executemany(
                    "INSERT INTO seats(game_id, seat, user_id, display_name) VALUES(?, ?, ?, ?)",
                    [(game_id, i, int(p), names[p]) for i, p in enumerate(seats)])
                await self._insert_event(tx, game_id, 0, now, Event("lobby", str(host), game))
                await self._insert_event(tx, game_id, 0, now,
                                         Event("tournament", None, f"{tid}:{number}:{n}"))
                await tx.execute(
                    "INSERT INTO tournament_games(game_id, tournament_id, round, table_no, seats) "
                    "VALUES(?, ?, ?, ?, ?)", (game_id, tid, number, n, json.dumps(seats)))
                ids.append(game_id)
            await self._insert_notices(tx, None, notices, now)
        return ids

    async def tournament_games(self, tid: int, round_: int | None = None) -> list[TournamentGame]:
        sql = ("SELECT game_id, round, table_no, seats, forfeit, result FROM tournament_games "
               "WHERE tournament_id=?")
        args: list = [tid]
        if round_ is not None:
            sql += " AND round=?"
            args.append(round_)
        async with self.engine.connection() as tx:
            return [_game_link(r) for r in await tx.rows(sql + " ORDER BY round, table_no", args)]

    async def tournament_of_game(self, game_id: int) -> tuple[int, int, int] | None:
        """(tournament, round, table) of a tournament's game; None for any other game."""
        async with self.engine.connection() as tx:
            row = await tx.first("SELECT tournament_id, round, table_no FROM tournament_games "
                                 "WHERE game_id=?", (game_id,))
        return (row[0], row[1], row[2]) if row else None

    async def add_forfeit(self, game_id: int, player: str) -> None:
        """`player` forfeits this game (withdrawn or removed)."""
        async with self.engine.transaction() as tx:
            row = await tx.first("SELECT forfeit FROM tournament_games WHERE game_id=?"
                                 + self.engine.for_update, (game_id,))
            if row is None:
                return
            forfeit = json.loads(row[0])
            if player not in forfeit:
                await tx.execute("UPDATE tournament_games SET forfeit=? WHERE game_id=?",
                                 (json.dumps(forfeit + [player]), game_id))

    async def rounds_of(self, tid: int) -> list[dict]:
        """Every round so far, in order: {round, bye (a user id or None), forfeits (the
        scheduled tables not played, each a list of seats), closed}."""
        async with self.engine.connection() as tx:
            return [{"round": r[0], "bye": r[1], "forfeits": json.loads(r[2]), "closed": bool(r[3])}
                    for r in await tx.rows(
                        "SELECT round, bye, forfeits, closed FROM tournament_rounds "
                        "WHERE tournament_id=? ORDER BY round", (tid,))]

    async def close_round(self, tid: int, expected_version: int, *, number: int,
                          results: dict[int, dict], changes: dict, notices: Iterable[Notice],
                          now: float) -> None:
        """Round `number` is over: each game's result stored, the round closed and the
        tournament changed, with the notices saying so, in one transaction."""
        async with self.engine.transaction() as tx:
            await self._bump(tx, tid, expected_version, now, changes)
            await tx.executemany("UPDATE tournament_games SET result=? WHERE game_id=?",
                                 [(json.dumps(result), game_id) for game_id, result in results.items()])
            await tx.execute("UPDATE tournament_rounds SET closed=1 WHERE tournament_id=? AND round=?",
                             (tid, number))
            await self._insert_notices(tx, None, notices, now)

    # ---- timed work: claimed like a timer --------------------------------------------------

    async def set_tournament_due(self, tid: int, due_at: float | None) -> None:
        """Look at the tournament at `due_at` (a game of it ended: now), without a new version."""
        async with self.engine.transaction() as tx:
            await tx.execute("UPDATE tournaments SET due_at=? WHERE id=? AND status IN "
                             "('signup', 'running', 'paused')", (due_at, tid))
            await tx.notify()

    async def claim_tournaments(self, me: str, now: float, wall: float, until: float,
                                limit: int = 20) -> list[int]:
        """Claim the tournaments due at `now` that nobody holds (or whose lease lapsed)."""
        async with self.engine.transaction() as tx:
            rows = await tx.rows(
                "UPDATE tournaments SET claimed_by=?, lease_until=? WHERE id IN "
                "(SELECT id FROM tournaments WHERE due_at<=? AND (lease_until IS NULL OR lease_until<=?) "
                f"ORDER BY due_at LIMIT ?{self.engine.skip_locked}) RETURNING id",
                (me, until, now, wall, limit))
        return sorted(r[0] for r in rows)

    async def release_tournament(self, tid: int, me: str) -> None:
        async with self.engine.connection() as tx:
            await tx.execute("UPDATE tournaments SET claimed_by=NULL, lease_until=NULL "
                             "WHERE id=? AND claimed_by=?", (tid, me))

    async def forget_guild_tournaments(self, tx, guild_id: int) -> None:
        await tx.execute("DELETE FROM tournaments WHERE guild_id=?", (guild_id,))
