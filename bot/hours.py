"""A player's own hours (/settings): when their quiet hours end, when their next digest is due,
in their time zone (zoneinfo; daylight saving time included)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from .storage.player_settings import PlayerSettings


def zone(s: PlayerSettings) -> ZoneInfo:
    return ZoneInfo(s.time_zone)


def _next_at_hour(tz: ZoneInfo, hour: int, now: float) -> float:
    """The first moment after `now` when the clocks of `tz` show `hour`:00."""
    local = dt.datetime.fromtimestamp(now, tz)
    for days in range(3):   # (a day whose hour is skipped by a clock change: the next one)
        day = local.date() + dt.timedelta(days=days)
        at = dt.datetime.combine(day, dt.time(hour), tzinfo=tz).timestamp()
        if at > now:
            return at
    raise AssertionError("unreachable")


def in_quiet(quiet: tuple[int, int], hour: int) -> bool:
    start, end = quiet
    return start <= hour < end if start < end else (hour >= start or hour < end)


def quiet_ends(s: PlayerSettings | None, now: float) -> float | None:
    """When the player's quiet hours end, if `now` is in them; else None."""
    if s is None or s.quiet is None:
        return None
    tz = zone(s)
    if not in_quiet(s.quiet, dt.datetime.fromtimestamp(now, tz).hour):
        return None
    return _next_at_hour(tz, s.quiet_end, now)


def next_digest(s: PlayerSettings, now: float) -> float | None:
    """When the player's next digest is due (None: they take a reminder per game)."""
    return None if s.digest_hour is None else _next_at_hour(zone(s), s.digest_hour, now)
