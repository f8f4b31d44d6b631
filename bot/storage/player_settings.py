"""A player's own settings (/settings): time zone, quiet hours, daily digest, palette; and the
digest's timer (one per player, `digest_due`). They are the person's, kept per Discord user
and not per server: `forget-guild` leaves them, `/settings reset:true` deletes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .model import Notice


@dataclass(frozen=True)
class PlayerSettings:
    user_id: int
    time_zone: str = "UTC"             # an IANA name (zoneinfo)
    quiet_start: int | None = None     # quiet hours: from this hour (local) ...
    quiet_end: int | None = None       # ... until this one; None: no quiet hours
    digest_hour: int | None = None     # a daily digest at this hour (local); None: a reminder per game
    palette: str = "standard"          # of their private views (render.PALETTES)
    digest_refused_at: float | None = None   # when Discord refused their digest (it was turned off)

    @property
    def quiet(self) -> tuple[int, int] | None:
        return None if self.quiet_start is None else (self.quiet_start, self.quiet_end)

    @property
    def digest(self) -> bool:
        return self.digest_hour is not None


_COLUMNS = "user_id, time_zone, quiet_start, quiet_end, digest_hour, palette, digest_refused_at"


def _settings(r) -> PlayerSettings:
    return PlayerSettings(r[0], r[1], r[2], r[3], r[4], r[5], r[6])


class PlayerSettingsStore:
    async def player_settings(self, user_id: int) -> PlayerSettings | None:
        """The player's settings, None when they never set any (the defaults apply)."""
        async with self.engine.connection() as tx:
            row = await tx.first(f"SELECT {_COLUMNS} FROM player_settings WHERE user_id=?",
                                 (user_id,))
        return _settings(row) if row else None

    async def players_settings(self, user_ids: Iterable[int]) -> dict[int, PlayerSettings]:
        """The settings of those of `user_ids` who have any."""
        user_ids = list(user_ids)
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        async with self.engine.connection() as tx:
            return {r[0]: _settings(r) for r in await tx.rows(
                    f"SELECT {_COLUMNS} FROM player_settings WHERE user_id IN ({marks})", user_ids)}

    async def palettes(self) -> dict[int, str]:
        """user id -> palette, of the players who chose one other than the standard."""
        async with self.engine.connection() as tx:
            return {r[0]: r[1] for r in await tx.rows(
                    "SELECT user_id, palette FROM player_settings WHERE palette <> 'standard'")}

    async def save_player_settings(self, s: PlayerSettings, digest_due: float | None,
                                   now: float) -> None:
        async with self.engine.connection() as tx:
            await tx.execute(
                f"INSERT INTO player_settings({_COLUMNS}, digest_due, updated_at) "
                "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET "
                "time_zone=excluded.time_zone, quiet_start=excluded.quiet_start, "
                "quiet_end=excluded.quiet_end, digest_hour=excluded.digest_hour, "
                "palette=excluded.palette, digest_refused_at=excluded.digest_refused_at, "
                "digest_due=excluded.digest_due, updated_at=excluded.updated_at",
                (s.user_id, s.time_zone, s.quiet_start, s.quiet_end, s.digest_hour, s.palette,
                 s.digest_refused_at, digest_due, now))

    async def delete_player_settings(self, user_id: int) -> bool:
        """Forget the player's settings (and their digest); False when there were none."""
        async with self.engine.connection() as tx:
            return await tx.execute("DELETE FROM player_settings WHERE user_id=?", (user_id,)) == 1

    async def due_digests(self, now: float) -> list[tuple[PlayerSettings, float]]:
        """The players whose digest is due, with when it was due."""
        async with self.engine.connection() as tx:
            return [(_settings(r), r[7]) for r in await tx.rows(
                    f"SELECT {_COLUMNS}, digest_due FROM player_settings "
                    "WHERE digest_due<=? ORDER BY digest_due", (now,))]

    async def digest_refused(self, user_id: int, now: float) -> bool:
        """Discord refused the player's digest (their DMs are closed): turn it off, so that
        their games remind them in their threads again, and remember when (/settings says
        so). False if it was off already."""
        async with self.engine.connection() as tx:
            return await tx.execute(
                "UPDATE player_settings SET digest_hour=NULL, digest_due=NULL, digest_refused_at=?, "
                "updated_at=? WHERE user_id=? AND digest_hour IS NOT NULL", (now, now, user_id)) == 1

    async def digest_sent(self, user_id: int, due: float, next_due: float,
                          notices: Iterable[Notice], now: float) -> bool:
        """Queue a player's digest and set their next one, in one transaction: a digest goes
        out once however the bot stops. False (nothing written) when the timer moved since it
        was read (the player changed their settings, or another run sent it)."""
        async with self.engine.transaction() as tx:
            if await tx.execute("UPDATE player_settings SET digest_due=? WHERE user_id=? AND "
                                "digest_due=?", (next_due, user_id, due)) != 1:
                return False
            await self._insert_notices(tx, None, notices, now)
            return True
