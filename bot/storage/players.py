"""Players: time away, ratings, daily puzzles."""

from __future__ import annotations

import secrets
from typing import Iterable

from .model import (_RATING_COLUMNS, GameRow, Notice, PlayerRating, RatedResult, _game_row,
                    _game_select)


class PlayersStore:
    # ---- time away (issue 14 part 5) -------------------------------------------------------

    async def absences_since(self, guild_id: int, user_id: int, since: float) -> list[tuple[float, float]]:
        """(starts_at, ends_at) of the player's absences in a server that start at `since` or
        later (the month's allowance)."""
        async with self.engine.connection() as tx:
            return [(r[0], r[1]) for r in await tx.rows(
                    "SELECT starts_at, ends_at FROM absences WHERE guild_id=? AND user_id=? "
                    "AND starts_at>=? ORDER BY starts_at", (guild_id, user_id, since))]

    async def absences_now(self, guild_id: int, user_ids: Iterable[int],
                           now: float) -> dict[int, tuple[float, float]]:
        """user id -> (starts_at, ends_at) of their absence, for those of `user_ids` away in
        the server now (one each: a new absence ends the one running)."""
        user_ids = list(user_ids)
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.engine.connection() as tx:
            return {r[0]: (r[1], r[2]) for r in await tx.rows(
                    f"SELECT user_id, starts_at, ends_at FROM absences WHERE guild_id=? "
                    f"AND user_id IN ({marks}) AND starts_at<=? AND ends_at>? ORDER BY ends_at",
                    (guild_id, *user_ids, now, now))}

    async def set_absence(self, guild_id: int, user_id: int, now: float, ends_at: float | None) -> None:
        """End the player's current absence in the server now (if any) and, with `ends_at`,
        start a new one lasting until then: one transaction, so nobody is seen half-away."""
        async with self.engine.transaction() as tx:
            await tx.xact_lock(f"absence:{guild_id}:{user_id}")
            await tx.execute(
                "UPDATE absences SET ends_at=? WHERE guild_id=? AND user_id=? AND starts_at<=? "
                "AND ends_at>?", (now, guild_id, user_id, now, now))
            if ends_at is not None:
                await tx.execute(
                    "INSERT INTO absences(guild_id, user_id, starts_at, ends_at) VALUES(?, ?, ?, ?)",
                    (guild_id, user_id, now, ends_at))

    # ---- ratings (issue 14, part 3) ----------------------------------------------------------

    async def _rate(self, tx, game_id: int, now: float, rated: RatedResult,
                    notices: list[Notice]) -> list[Notice]:
        """Rate a finishing game, inside the transaction of its commit: read its players'
        ratings, let `rated.rate` work out the new ones, store them with a history entry each;
        returns the commit's notices as `rated.announce` amends them (to say the new ratings).
        A game that has history entries is rated already and is left alone."""
        if await tx.first("SELECT 1 FROM rating_history WHERE game_id=? LIMIT 1", (game_id,)):
            return notices
        # two games of the server finishing at once read-then-write the same ratings
        await tx.xact_lock(f"ratings:{rated.guild_id}:{rated.game}")
        current: dict[int, tuple[float, float] | None] = {}
        for user_id in rated.places:
            row = await tx.first(
                    "SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=? AND user_id=?",
                    (rated.guild_id, rated.game, user_id))
            current[user_id] = (row[0], row[1]) if row else None
        new = rated.rate(current)
        for user_id, (mu, sigma) in new.items():
            await tx.execute(
                "INSERT INTO ratings(guild_id, game, user_id, display_name, mu, sigma, games, wins, "
                "draws, updated_at) VALUES(?, ?, ?, ?, ?, ?, 1, ?, ?, ?) "
                "ON CONFLICT(guild_id, game, user_id) DO UPDATE SET "
                "display_name=excluded.display_name, mu=excluded.mu, sigma=excluded.sigma, "
                "games=ratings.games+1, wins=ratings.wins+excluded.wins, "
                "draws=ratings.draws+excluded.draws, "
                "updated_at=excluded.updated_at",
                (rated.guild_id, rated.game, user_id, rated.names.get(user_id, str(user_id)), mu,
                 sigma, int(user_id in rated.winners), int(user_id in rated.drew), now))
            await tx.execute(
                "INSERT INTO rating_history(game_id, user_id, place, mu, sigma, at) "
                "VALUES(?, ?, ?, ?, ?, ?)", (game_id, user_id, rated.places[user_id], mu, sigma, now))
        return rated.announce(current, new, notices) if rated.announce is not None else notices

    async def ratings_of_game(self, guild_id: int, game: str) -> list[PlayerRating]:
        """Every rated player of `game` in a server (in no particular order)."""
        async with self.engine.connection() as tx:
            return [PlayerRating(*r) for r in await tx.rows(
                    f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? AND game=?",
                    (guild_id, game))]

    async def ratings_of_user(self, guild_id: int, user_id: int) -> list[PlayerRating]:
        """A player's rating in each game they have a rating for in a server."""
        async with self.engine.connection() as tx:
            return [PlayerRating(*r) for r in await tx.rows(
                    f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id=? AND user_id=? "
                    "ORDER BY game", (guild_id, user_id))]

    async def rating_history(self, guild_id: int, game: str, user_id: int,
                             limit: int) -> list[tuple[float, float]]:
        """A player's (mu, sigma) after each of their last `limit` rated games of `game` in a
        server, oldest first."""
        async with self.engine.connection() as tx:
            rows = await tx.rows(
                    "SELECT h.mu, h.sigma FROM rating_history h JOIN games g ON g.id = h.game_id "
                    "WHERE h.user_id=? AND g.guild_id=? AND g.game=? ORDER BY h.id DESC LIMIT ?",
                    (user_id, guild_id, game, limit))
        return [(r[0], r[1]) for r in reversed(rows)]

    # ---- daily puzzles (issue 14, part 4) ------------------------------------------------------

    async def daily_secret(self) -> str:
        """The key the daily deals are derived from: made once at random, kept in `meta` (so a
        backup keeps it and nobody can work a deal out from the source)."""
        async with self.engine.transaction() as tx:
            await tx.execute("INSERT INTO meta(key, value) VALUES('daily_secret', ?) "
                             "ON CONFLICT DO NOTHING",
                                  (secrets.token_hex(32),))
            return await self._meta(tx, "daily_secret")

    async def add_daily_play(self, guild_id: int, day: str, game: str, user_id: int, game_id: int,
                             now: float) -> bool:
        """Record that `user_id` plays the day's deal in game `game_id`; False (and nothing
        written) when they have played it already."""
        async with self.engine.connection() as tx:
            count = await tx.execute(
                "INSERT INTO daily_plays(guild_id, day, game, user_id, game_id, started_at) "
                "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, game, user_id, game_id, now))
            return count == 1

    async def drop_daily_play(self, game_id: int) -> None:
        async with self.engine.connection() as tx:
            await tx.execute("DELETE FROM daily_plays WHERE game_id=?", (game_id,))

    async def daily_plays(self, guild_id: int, day: str, game: str) -> list[tuple[float, GameRow]]:
        """The day's plays of a server's deal: (started_at, game row), in the order started."""
        async with self.engine.connection() as tx:
            rows = await tx.rows(
                    f"SELECT d.started_at, {_game_select(self.engine, 'g')} FROM daily_plays d "
                    "JOIN games g ON g.id = d.game_id "
                    "WHERE d.guild_id=? AND d.day=? AND d.game=? ORDER BY d.started_at, g.id",
                    (guild_id, day, game))
        return [(r["started_at"], _game_row(r)) for r in rows]

    async def daily_of_game(self, game_id: int) -> dict | None:
        """{day, game, started_at} when game `game_id` is someone's daily puzzle, else None."""
        async with self.engine.connection() as tx:
            row = await tx.first(
                    "SELECT day, game, started_at FROM daily_plays WHERE game_id=?", (game_id,))
        return dict(row) if row else None
