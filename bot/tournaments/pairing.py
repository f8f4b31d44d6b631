"""Pairing a tournament's rounds: pure functions of plain data, deterministic given `seed`.

Formats (issue 25):
- ``swiss`` (two-player games): entrants are ranked by the current standings (points, then the
  Swiss tiebreaks; entrants still level in a seeded random order, so round 1 is a seeded draw).
  An odd count gives one entrant a bye: the lowest-placed among those with the fewest byes
  (so nobody has a second bye while someone has none), skipping upwards only when that
  entrant's bye would force a rematch another's would not. The rest are paired top-down:
  the highest unpaired entrant meets the nearest below them in the ranking, provided the
  entrants still unpaired can then be paired with no more rematches than the fewest possible
  for the whole round (checked exactly with a maximum matching, so the search never paints
  itself into a corner). Pairs where both entrants already had one seat two more times than
  the other (one of them would reach three) are avoided the same way when that costs no
  rematch; when it would, the rematch is avoided first. Seats: whoever had first seat
  less often (firsts minus seconds) gets it; level, whoever sat second last time; still level,
  a seeded coin.
- ``round-robin``: the circle method (Berger tables) over the whole field: every pair meets
  exactly once, first seats differ from second seats by at most one for every entrant. An odd
  field has one bye a round (scores nothing: everyone has exactly one). The schedule is fixed
  by the field that started; an entrant who leaves stays in it, and their remaining games are
  returned as `Round.forfeits` (the flow records them as forfeits) instead of being played.
- ``tables`` (Global Warming): tables of 3 or 4, fewer only when the count forces it (2 -> 2,
  5 -> 3+2), as few tables as possible and as even as possible, bigger tables first. Entrants are
  seated by standing: the top ones at table 1, and so on. Within a table, whoever has sat later
  on average so far sits earlier.
- ``duplicate`` (BYOP1, Pack Solitaire): every entrant has a table of their own each round, all
  playing the same deal.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from .matching import Matcher

FORMATS = ("swiss", "round-robin", "tables", "duplicate")

_GAME_FORMATS = {
    "relativity": ("swiss", "round-robin"),
    "galaxies": ("swiss", "round-robin"),
    "global-warming": ("tables",),
    "byop1": ("duplicate",),
    "pack-solitaire": ("duplicate",),
}

# Rounds when the organiser does not choose, for formats without a natural count.
DEFAULT_TABLE_ROUNDS = 3
DEFAULT_DUPLICATE_ROUNDS = 3


def formats_for(game_name: str) -> tuple[str, ...]:
    """The tournament formats a game can be played in; the first is the default.
    Unknown game -> KeyError."""
    return _GAME_FORMATS[game_name]


def default_rounds(fmt: str, entrants: int) -> int:
    """Rounds a format plays for `entrants` when the organiser does not say: round robin n-1
    for an even n, n for an odd one (everyone meets everyone); Swiss ceil(log2 n) (enough to
    leave one entrant with all wins); tables and duplicate 3."""
    _check_format(fmt)
    n = max(entrants, 1)
    if fmt == "round-robin":
        return max(n - 1 if n % 2 == 0 else n, 1)
    if fmt == "swiss":
        return max(math.ceil(math.log2(n)), 1)
    if fmt == "tables":
        return DEFAULT_TABLE_ROUNDS
    return DEFAULT_DUPLICATE_ROUNDS


@dataclass(frozen=True)
class Table:
    """One game of a round."""
    seats: tuple[str, ...]  # entrant ids in seat order (first seat first); 1 for duplicate


@dataclass(frozen=True)
class Round:
    """One round's games. `bye`: who sits out with a bye (Swiss: scores `bye_points`; round
    robin: the odd field's rest, scores nothing). `forfeits`: round robin games of the schedule
    with an entrant who has left (seat order as scheduled); the flow records each as a forfeit
    loss for the one who left, without playing it."""
    number: int  # 1-based
    tables: tuple[Table, ...]
    bye: str | None = None
    forfeits: tuple[Table, ...] = ()


@dataclass(frozen=True)
class Result:
    """One finished (or settled) table."""
    round: int
    seats: tuple[str, ...]
    # swiss/rr: 1 / 0.5 / 0; tables: by finishing place (table_points); duplicate: the score
    points: dict[str, float]
    forfeit: tuple[str, ...] = ()  # who lost by forfeit (withdrawn, removed, deadline policy)


def pair_round(fmt: str, entrants: list[str], results: list[Result], byes: list[str],
               number: int, seed: int, *, withdrawn: list[str] = ()) -> Round:
    """Pair round `number` (1-based).

    `entrants`: those still playing (withdrawn/removed left out), in sign-up order;
    `results`: every earlier table's result; `byes`: who had a bye so far (in order);
    `withdrawn`: who left after the start (only round robin needs it, to keep its schedule:
    anyone seen in `results` or `byes` counts as well). The same arguments always give the
    same round.
    """
    _check_format(fmt)
    if number < 1:
        raise ValueError("rounds are numbered from 1")
    entrants = list(dict.fromkeys(entrants))
    if fmt == "swiss":
        return _swiss(entrants, results, byes, number, seed)
    if fmt == "round-robin":
        return _round_robin(entrants, results, byes, number, seed, withdrawn)
    if fmt == "tables":
        return _tables(entrants, results, byes, number, seed)
    return Round(number, tuple(Table((e,)) for e in entrants))


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown tournament format {fmt!r}; formats: {', '.join(FORMATS)}")


def _rng(seed: int, number: int, what: str) -> random.Random:
    # A string seed is hashed the same way on every run and platform.
    return random.Random(f"{seed}:{what}:{number}")


def _ranking(fmt: str, entrants: list[str], results: list[Result], byes: list[str],
             rng: random.Random) -> tuple[list[str], dict[str, float]]:
    """Entrants best first by the standings (entrants level on everything in a seeded order),
    and everyone's points (byes included)."""
    from .standings import standings  # standings imports Result from here

    order = list(entrants)
    rng.shuffle(order)
    tie = {e: i for i, e in enumerate(order)}
    rows = {s.entrant: s for s in standings(fmt, entrants, [], results, byes)}
    ranked = sorted(order, key=lambda e: (rows[e].place, tie[e]))
    return ranked, {e: s.points for e, s in rows.items()}


# --- Swiss ----------------------------------------------------------------------------------

def _seat_history(results: list[Result]) -> tuple[Counter, dict[str, int]]:
    """Firsts minus seconds per entrant over two-seat results, and each one's last seat (0/1)."""
    balance: Counter = Counter()
    last: dict[str, int] = {}
    for r in sorted(results, key=lambda r: r.round):
        if len(r.seats) != 2:
            continue
        first, second = r.seats
        balance[first] += 1
        balance[second] -= 1
        last[first], last[second] = 0, 1
    return balance, last


def _swiss(entrants: list[str], results: list[Result], byes: list[str], number: int,
           seed: int) -> Round:
    rng = _rng(seed, number, "swiss")
    ranked, points = _ranking("swiss", entrants, results, byes, rng)
    met = {frozenset(r.seats) for r in results if len(r.seats) == 2}
    balance, last = _seat_history(results)

    def rematch(a: str, b: str) -> bool:
        return frozenset((a, b)) in met

    def strained(a: str, b: str) -> bool:
        # both already two first (or two second) seats ahead: one of them would reach three
        return rematch(a, b) or (balance[a] >= 2 and balance[b] >= 2) or (
            balance[a] <= -2 and balance[b] <= -2)

    bye = None
    if len(ranked) % 2:
        matcher = Matcher(ranked, rematch)
        count = Counter(byes)
        fewest = min(count[e] for e in ranked)
        candidates = [e for e in reversed(ranked) if count[e] == fewest]
        best = None
        for c in candidates:
            need = matcher.shortfall([e for e in ranked if e != c])
            if best is None or need < best[0]:
                best = (need, c)
            if need == 0:
                break
        bye = best[1]
        ranked = [e for e in ranked if e != bye]

    # Avoid strained seats too when that costs no rematch: a pairing with as few bad pairs
    # (rematch or strained) as the fewest rematches possible has no strained pair at all.
    matcher, loose = Matcher(ranked, strained), Matcher(ranked, rematch)
    if matcher.shortfall(ranked) > loose.shortfall(ranked):
        matcher = loose
    position = {e: i for i, e in enumerate(ranked)}

    def wants_first(e: str) -> int:
        if balance[e]:
            return -1 if balance[e] > 0 else 1
        return {0: -1, 1: 1}.get(last.get(e), 0)

    def prefer(a: str, others: list[str]) -> list[str]:
        # no third seat ahead when it can be helped (only matters when rematches are forced);
        # nearest score; among equals, one whose seat wish fits a's; then nearest below
        return sorted(others, key=lambda b: (strained(a, b) and not rematch(a, b),
                                              abs(points[a] - points[b]),
                                              wants_first(a) * wants_first(b) > 0,
                                              position[b]))

    tables = []
    for a, b in matcher.pair(ranked, prefer):
        key_a = (balance[a], -last.get(a, 0.5))
        key_b = (balance[b], -last.get(b, 0.5))
        if key_a == key_b:
            first = a if rng.random() < 0.5 else b
        else:
            first = a if key_a < key_b else b
        tables.append(Table((first, b if first == a else a)))
    return Round(number, tuple(tables), bye)


# --- round robin ----------------------------------------------------------------------------

def _id_key(entrant: str):
    # Discord ids are numbers in text: order them as numbers, anything else after, as text.
    return (0, int(entrant), "") if entrant.isdigit() else (1, 0, entrant)


def round_robin_schedule(field: list[str]) -> list[list[tuple[str | None, str | None]]]:
    """Berger tables for `field` in order: one list of (first seat, second seat) per round;
    None is the rest of an odd field. Every pair once; everyone's first and second seats differ
    by at most one."""
    players: list[str | None] = list(field)
    if len(players) % 2:
        players.append(None)
    n = len(players)
    if n < 2:
        return []
    fixed, ring = players[-1], players[:-1]
    rounds = []
    for r in range(n - 1):
        spin = ring[r:] + ring[:r]
        pairs = [(spin[0], fixed) if r % 2 == 0 else (fixed, spin[0])]
        for i in range(1, n // 2):
            pairs.append((spin[i], spin[n - 1 - i]))
        rounds.append(pairs)
    return rounds


def _round_robin(entrants: list[str], results: list[Result], byes: list[str], number: int,
                 seed: int, withdrawn) -> Round:
    # The field that started: the same set every round, whoever has left since.
    everyone = set(entrants) | set(withdrawn) | set(byes)
    for r in results:
        everyone.update(r.seats)
    field = sorted(everyone, key=_id_key)
    _rng(seed, 0, "round-robin").shuffle(field)
    schedule = round_robin_schedule(field)
    if not schedule:
        return Round(number, ())
    playing = set(entrants)
    tables, forfeits, bye = [], [], None
    # Past the last round the schedule starts again (a double round robin swaps seats).
    cycle, index = divmod(number - 1, len(schedule))
    for first, second in schedule[index]:
        if cycle % 2:
            first, second = second, first
        if first is None or second is None:
            sitter = first or second
            bye = sitter if sitter in playing else None
        elif first in playing and second in playing:
            tables.append(Table((first, second)))
        elif first in playing or second in playing:
            forfeits.append(Table((first, second)))
    return Round(number, tuple(tables), bye, tuple(forfeits))


# --- tables (Global Warming) ----------------------------------------------------------------

def table_sizes(count: int) -> list[int]:
    """Table sizes for `count` entrants, biggest first: tables of 3-4, as few and as even as
    possible; 2 -> [2], 5 -> [3, 2] where the count forces a smaller table; 1 -> [] (a bye)."""
    if count < 2:
        return []
    if count == 5:
        return [3, 2]
    if count <= 4:
        return [count]
    tables = math.ceil(count / 4)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _tables(entrants: list[str], results: list[Result], byes: list[str], number: int,
            seed: int) -> Round:
    rng = _rng(seed, number, "tables")
    ranked, _ = _ranking("tables", entrants, results, byes, rng)
    seat_sum: Counter = Counter()
    seat_count: Counter = Counter()
    for r in results:
        if len(r.seats) > 1:
            for i, e in enumerate(r.seats):
                seat_sum[e] += i / (len(r.seats) - 1)  # 0 first .. 1 last, whatever the size
                seat_count[e] += 1
    tables, start = [], 0
    for size in table_sizes(len(ranked)):
        group = ranked[start:start + size]
        start += size
        tie = {e: rng.random() for e in group}
        group.sort(key=lambda e: (-(seat_sum[e] / seat_count[e]) if seat_count[e] else -0.5,
                                  tie[e]))
        tables.append(Table(tuple(group)))
    bye = ranked[0] if len(ranked) == 1 else None
    return Round(number, tuple(tables), bye)
