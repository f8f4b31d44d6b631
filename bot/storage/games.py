"""Games, their seats and events, the version-checked commit, and rematches."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable

from .model import (_UPDATABLE, KEPT_TIMERS, Conflict, Event, GameRow, Notice, OutboxItem, RatedResult,
                    Seat, _game_row, _game_select)


class GamesStore:
    # ---- games -----------------------------------------------------------------------------

    async def create_game(self, *, game: str, guild_id: int, channel_id: int, host_id: int,
                          host_name: str, options: dict, deadline_seconds: int | None,
                          invited_id: int | None, now: float) -> GameRow:
        async with self.engine.transaction() as tx:
            game_id = await tx.insert_id(
                "INSERT INTO games(game, guild_id, channel_id, host_id, invited_id, status, "
                "options, deadline_seconds, created_at, updated_at) "
                "VALUES(?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (game, guild_id, channel_id, host_id, invited_id, json.dumps(options),
                 deadline_seconds, now, now))
            await tx.execute(
                "INSERT INTO seats(game_id, seat, user_id, display_name) VALUES(?, 0, ?, ?)",
                (game_id, host_id, host_name))
            await self._insert_event(tx, game_id, 0, now, Event("lobby", str(host_id), game))
        return await self.get_game(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.engine.connection() as tx:
            return await self._get_game(tx, game_id)

    async def _get_game(self, tx, game_id: int) -> GameRow | None:
        row = await tx.first(f"SELECT {_game_select(self.engine)} FROM games WHERE id=?",
                             (game_id,))
        return _game_row(row) if row else None

    async def game_for_thread(self, thread_id: int) -> GameRow | None:
        async with self.engine.connection() as tx:
            row = await tx.first(
                    f"SELECT {_game_select(self.engine)} FROM games WHERE thread_id=? "
                    "ORDER BY id DESC LIMIT 1", (thread_id,))
        return _game_row(row) if row else None

    async def games_of_user(self, user_id: int, guild_id: int | None = None,
                            statuses: Iterable[str] = ("lobby", "active")) -> list[GameRow]:
        statuses = tuple(statuses)
        marks = ",".join("?" * len(statuses))
        sql = (f"SELECT {_game_select(self.engine)} FROM games WHERE status IN ({marks}) "
               "AND id IN (SELECT game_id FROM seats WHERE user_id=?)")
        args: list[Any] = [*statuses, user_id]
        if guild_id is not None:
            sql += " AND guild_id=?"
            args.append(guild_id)
        async with self.engine.connection() as tx:
            return [_game_row(r) for r in await tx.rows(sql + " ORDER BY id", args)]

    async def games_with_status(self, status: str) -> list[GameRow]:
        async with self.engine.connection() as tx:
            return [_game_row(r) for r in await tx.rows(
                    f"SELECT {_game_select(self.engine)} FROM games WHERE status=? ORDER BY id",
                    (status,))]

    async def merge_extras(self, game_id: int, values: dict, *, now: float,
                           notices: Iterable[Notice] = (), done: tuple[str, str] | None = None) -> None:
        """Add `values` to a game's extras (and post `notices`) without a new version: extras
        are facts found beside play (a solver's answer), not moves. `done` (a timer's kind
        and its claimant): the work of that timer is done, which goes with it (if still held)."""
        async with self.engine.transaction() as tx:
            row = await tx.first("SELECT extras FROM games WHERE id=?" + self.engine.for_update,
                                 (game_id,))
            if row is None:
                return
            extras = {**json.loads(row[0]), **values}
            await tx.execute("UPDATE games SET extras=? WHERE id=?",
                             (json.dumps(extras), game_id))
            if done is not None:
                await tx.execute("DELETE FROM timers WHERE game_id=? AND kind=? AND claimed_by=?",
                                 (game_id, *done))
            await self._insert_notices(tx, game_id, notices, now)

    async def finished_extras(self, game: str, guild_id: int, user_id: int) -> list[dict]:
        """The extras of the finished games of `game` in a server in which `user_id` sat."""
        async with self.engine.connection() as tx:
            return [json.loads(r[0]) for r in await tx.rows(
                    "SELECT g.extras FROM games g JOIN seats s ON s.game_id = g.id "
                    "WHERE g.game=? AND g.guild_id=? AND s.user_id=? AND g.status='finished'",
                    (game, guild_id, user_id))]

    async def commit(self, game_id: int, expected_version: int, *, now: float,
                     changes: dict[str, Any] | None = None,
                     seats: list[Seat] | None = None,
                     events: Iterable[Event] = (),
                     notices: Iterable[Notice] = (),
                     timers: dict[str, tuple[float, dict]] | None = None,
                     rated: "RatedResult | None" = None,
                     strip: "Callable[[OutboxItem], list[Notice]] | None" = None) -> int:
        """Apply one change of a game atomically; returns the new version.

        `seats` replaces all seats; `timers` (kind -> (due_at, data)) replaces the game's
        timers when given ({} clears them), but for its background work (KEPT_TIMERS: it
        ends when its answer is merged, see merge_extras); a timer that stays keeps its claim
        (the work it stands for goes on: a computer thinking). `rated`, the result of a game that this change
        finishes, updates the ratings in the same transaction. `strip`, for a change that ends
        the game: the notices taking the controls off a post that still has some (one not
        edited by `notices` already), read in this transaction, so that a post queued while the
        change was planned (a closed-DM fallback) cannot keep them. Raises Conflict if the
        version moved on.
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
        async with self.engine.transaction() as tx:
            count = await tx.execute(
                f"UPDATE games SET version=?, updated_at=?{assignments} "
                "WHERE id=? AND version=?",
                (new_version, now, *changes.values(), game_id, expected_version))
            if count != 1:
                raise Conflict(f"game {game_id} is no longer at version {expected_version}")
            if strip is not None:
                notices = list(notices)
                edited = {n.edit_of for n in notices}
                notices = [n for item in await self._posts_with_controls(tx, game_id)
                           for n in strip(item) if n.edit_of not in edited] + list(notices)
            if seats is not None:
                await tx.execute("DELETE FROM seats WHERE game_id=?", (game_id,))
                await tx.executemany(
                    "INSERT INTO seats(game_id, seat, user_id, display_name, dm_closed) "
                    "VALUES(?, ?, ?, ?, ?)",
                    [(game_id, s.seat, s.user_id, s.name, int(s.dm_closed)) for s in seats])
            for event in events:
                await self._insert_event(tx, game_id, new_version, now, event)
            if rated is not None:   # (its notices may say the new ratings)
                notices = await self._rate(tx, game_id, now, rated, list(notices))
            await self._insert_notices(tx, game_id, notices, now)
            if timers is not None:
                stored = [r[0] for r in await tx.rows("SELECT kind FROM timers WHERE game_id=?",
                                                      (game_id,))]
                await tx.executemany("DELETE FROM timers WHERE game_id=? AND kind=?",
                                     [(game_id, kind) for kind in stored
                                      if kind not in timers and kind not in KEPT_TIMERS])
                await tx.executemany(
                    "INSERT INTO timers(game_id, kind, due_at, data) VALUES(?, ?, ?, ?) "
                    "ON CONFLICT(game_id, kind) DO UPDATE SET due_at=excluded.due_at, "
                    "data=excluded.data",
                    [(game_id, kind, due, json.dumps(data))
                     for kind, (due, data) in timers.items()])
                if timers:
                    await tx.notify(game_id)
        return new_version

    async def _insert_event(self, tx, game_id: int, version: int, now: float, event: Event) -> None:
        await tx.execute(
            "INSERT INTO events(game_id, version, at, actor, kind, detail) VALUES(?, ?, ?, ?, ?, ?)",
            (game_id, version, now, event.actor, event.kind, event.detail))

    async def events(self, game_id: int) -> list[dict]:
        async with self.engine.connection() as tx:
            return [dict(r) for r in await tx.rows(
                    "SELECT version, at, actor, kind, detail FROM events WHERE game_id=? ORDER BY id",
                    (game_id,))]

    async def mark_dms_closed(self, game_id: int, user_id: int) -> bool:
        """Remember that `user_id` takes no DMs in this game; False if it was known already."""
        async with self.engine.connection() as tx:
            count = await tx.execute(
                "UPDATE seats SET dm_closed=1 WHERE game_id=? AND user_id=? AND dm_closed=0",
                (game_id, user_id))
            return count == 1

    # ---- history: rematches (bot.history) ----------------------------------------------------

    async def open_rematch(self, old_game_id: int, *, game: str, guild_id: int, channel_id: int,
                           host_id: int, seats: list[Seat], options: dict,
                           deadline_seconds: int | None, accepted: list[str],
                           now: float) -> tuple[GameRow, bool]:
        """The rematch of a finished game: a new lobby seating `seats`, unless the game has a
        rematch already that was not cancelled (then that one, and False). One transaction,
        so two presses at once cannot open two."""
        async with self.engine.transaction() as tx:
            # the old game's row lock: two presses at once wait for each other
            await tx.first("SELECT 1 FROM games WHERE id=?" + self.engine.for_update, (old_game_id,))
            existing = await tx.first(
                    "SELECT r.new_game_id, g.status FROM rematches r JOIN games g "
                    "ON g.id = r.new_game_id WHERE r.old_game_id=?", (old_game_id,))
            if existing is None or existing[1] == "cancelled":
                new_id = await tx.insert_id(
                    "INSERT INTO games(game, guild_id, channel_id, host_id, status, options, "
                    "deadline_seconds, created_at, updated_at) VALUES(?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (game, guild_id, channel_id, host_id, json.dumps(options), deadline_seconds,
                     now, now))
                await tx.executemany(
                    "INSERT INTO seats(game_id, seat, user_id, display_name) VALUES(?, ?, ?, ?)",
                    [(new_id, s.seat, s.user_id, s.name) for s in seats])
                await self._insert_event(tx, new_id, 0, now, Event("lobby", str(host_id), game))
                await self._insert_event(tx, new_id, 0, now, Event("rematch", str(host_id), str(old_game_id)))
                await tx.execute(
                    "INSERT INTO rematches(old_game_id, new_game_id, accepted) VALUES(?, ?, ?) "
                    "ON CONFLICT(old_game_id) DO UPDATE SET new_game_id=excluded.new_game_id, "
                    "accepted=excluded.accepted", (old_game_id, new_id, json.dumps(accepted)))
                created = True
            else:
                new_id, created = existing[0], False
        return await self.get_game(new_id), created

    async def rematch_of(self, new_game_id: int) -> tuple[int, list[str]] | None:
        """(the old game, the players who have accepted) of a rematch; None if it is none."""
        async with self.engine.connection() as tx:
            row = await tx.first(
                    "SELECT old_game_id, accepted FROM rematches WHERE new_game_id=?",
                    (new_game_id,))
        return (row[0], json.loads(row[1])) if row else None

    async def accept_rematch(self, new_game_id: int, player: str) -> list[str]:
        """Add `player` to those who accepted the rematch; returns them all."""
        async with self.engine.transaction() as tx:
            row = await tx.first("SELECT accepted FROM rematches WHERE new_game_id=?"
                                 + self.engine.for_update, (new_game_id,))
            accepted = json.loads(row[0]) if row else []
            if player not in accepted:
                accepted.append(player)
                await tx.execute("UPDATE rematches SET accepted=? WHERE new_game_id=?",
                                 (json.dumps(accepted), new_game_id))
        return accepted

    async def game_of_message(self, message_id: int) -> int | None:
        """The game whose lobby message or delivered notice `message_id` is; None if the bot
        stored no such message (an ephemeral answer, a rematch request, a pruned notice)."""
        if not 0 < message_id < 2 ** 63:
            return None
        async with self.engine.connection() as tx:
            row = await tx.first(
                    "SELECT game_id FROM outbox WHERE message_id=? AND game_id IS NOT NULL "
                    "UNION ALL SELECT id FROM games WHERE lobby_message_id=? LIMIT 1",
                    (message_id, message_id))
        return row[0] if row else None
