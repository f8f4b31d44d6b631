"""Standings: points, tiebreaks and places, and the standings as channel text.

Points are the sum of an entrant's `Result.points`, plus, in Swiss only, `bye_points` for each
bye (a bye counts as a win). A forfeit counts like any other result: the winner's point and the
loser's 0 are in `Result.points`, and the game counts for the tiebreaks, with the real opponent.

Tiebreaks, in order, after points:
- Swiss: **Buchholz**, the sum of the final points of every opponent met (a bye has no
  opponent and adds 0: no "virtual opponent"); then **Sonneborn-Berger**, the sum over games of
  the opponent's final points times what the entrant scored against them (a win counts the
  opponent's points in full, a draw half, a loss nothing; byes add 0).
- Round robin: **head-to-head**, the points an entrant scored in games against the entrants
  level with them on points; then **wins**, games won outright (forfeit wins included). A round
  robin bye scores nothing: every entrant of an odd field has exactly one.
- Tables (Global Warming): points by finishing place (`table_points`: one point for every
  entrant at the table finished ahead of, shared places split), then **wins**, tables finished
  first alone.
- Duplicate: summed score, then **best** single score.

Entrants level on points and every tiebreak share a place (1, 2, 2, 4). Withdrawn entrants keep
their place and results, marked as withdrawn.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from .pairing import FORMATS, Result

_TIEBREAKS = {
    "swiss": ("Buchholz", "Sonneborn-Berger"),
    "round-robin": ("Head-to-head", "Wins"),
    "tables": ("Wins",),
    "duplicate": ("Best",),
}
# Short column heads for tables, in the same order.
_SHORT = {
    "Buchholz": "Buch", "Sonneborn-Berger": "SB", "Head-to-head": "H2H", "Wins": "Wins",
    "Best": "Best",
}
# Narrower heads for the text table, which must fit a phone's width.
_TEXT_HEADS = {"Games": "GP", "Byes": "Bye"}
# What the short heads mean, under the text table (a line each fits a phone).
_LEGEND = {
    "swiss": "Buch Buchholz, SB Sonneborn-Berger",
    "round-robin": "H2H head-to-head, Wins games won",
    "tables": "Wins tables finished first",
    "duplicate": "Best best single score",
}
TEXT_LIMIT = 2000  # Discord's message length


@dataclass(frozen=True)
class Standing:
    place: int  # 1-based; shared by entrants level on points and tiebreaks
    entrant: str
    points: float
    tiebreaks: tuple[float, ...]  # in the order of tiebreak_names(fmt)
    played: int  # tables sat at (forfeits included)
    byes: int
    withdrawn: bool


def tiebreak_names(fmt: str) -> tuple[str, ...]:
    """The tiebreaks of a format, in the order they count."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown tournament format {fmt!r}")
    return _TIEBREAKS[fmt]


def table_points(scores: dict[str, float], forfeit=()) -> dict[str, float]:
    """Points by finishing place at a table (Global Warming): one for every entrant finished
    ahead of, shared places split (a table of 4 gives 3, 2, 1, 0; two sharing first get 2.5
    each). Higher score finishes ahead; whoever forfeited finishes behind everyone who did not."""
    rank = {e: (e not in forfeit, s) for e, s in scores.items()}
    return {e: sum(1.0 if rank[e] > rank[o] else 0.5 if rank[e] == rank[o] else 0.0
                   for o in scores if o != e)
            for e in scores}


def _sole_winner(result: Result, entrant: str) -> bool:
    mine = result.points.get(entrant, 0.0)
    return len(result.seats) > 1 and all(mine > result.points.get(o, 0.0)
                                         for o in result.seats if o != entrant)


def standings(fmt: str, entrants: list[str], withdrawn: list[str], results: list[Result],
              byes: list[str], bye_points: float = 1.0) -> list[Standing]:
    """Everyone ranked, best first. `entrants`: everyone who took part (sign-up order; anyone
    in `withdrawn` may be in it or not); `withdrawn`: who left or was removed; `results`: every
    finished or settled table; `byes`: one entry per bye had."""
    tiebreak_names(fmt)  # refuses an unknown format
    # everyone who took part, whoever the caller left out of `entrants`
    people = list(dict.fromkeys([*entrants, *withdrawn, *(e for r in results for e in r.seats),
                                 *byes]))
    bye_count = Counter(byes)
    points: Counter = Counter()
    played: Counter = Counter()
    for r in results:
        for e in r.seats:
            points[e] += r.points.get(e, 0.0)
            played[e] += 1
    if fmt == "swiss":
        for e, n in bye_count.items():
            points[e] += n * bye_points

    breaks: dict[str, tuple[float, ...]] = {}
    if fmt == "swiss":
        for e in people:
            buchholz = sonneborn = 0.0
            for r in results:
                if e in r.seats and len(r.seats) == 2:
                    other = r.seats[1] if r.seats[0] == e else r.seats[0]
                    buchholz += points[other]
                    sonneborn += points[other] * r.points.get(e, 0.0)
            breaks[e] = (buchholz, sonneborn)
    elif fmt == "round-robin":
        level = defaultdict(set)
        for e in people:
            level[points[e]].add(e)
        for e in people:
            group = level[points[e]]
            h2h = sum(r.points.get(e, 0.0) for r in results
                      if e in r.seats and any(o in group for o in r.seats if o != e))
            wins = sum(1 for r in results if e in r.seats and _sole_winner(r, e))
            breaks[e] = (h2h, float(wins))
    elif fmt == "tables":
        for e in people:
            breaks[e] = (float(sum(1 for r in results if e in r.seats and _sole_winner(r, e))),)
    else:
        for e in people:
            mine = [r.points.get(e, 0.0) for r in results if e in r.seats]
            breaks[e] = (max(mine) if mine else 0.0,)

    order = sorted(range(len(people)),
                   key=lambda i: (-points[people[i]], tuple(-b for b in breaks[people[i]]), i))
    gone = set(withdrawn)
    rows, place, previous = [], 0, None
    for position, i in enumerate(order, 1):
        e = people[i]
        key = (points[e], breaks[e])
        if key != previous:
            place, previous = position, key
        rows.append(Standing(place, e, float(points[e]), breaks[e], played[e], bye_count[e],
                             e in gone))
    return rows


def best_possible_note(best: dict[int, float]) -> str:
    """Pack Solitaire duplicate: the best score each closed round's deal allowed (the engine's
    solver gives it), e.g. 'Best possible: round 1 48, round 2 52'."""
    if not best:
        return ""
    return "Best possible: " + ", ".join(f"round {r} {_number(v)}" for r, v in sorted(best.items()))


def _number(value: float) -> str:
    """1.0 -> '1', 2.5 -> '2.5', 2.25 -> '2.25' (Sonneborn-Berger can reach quarters)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def standings_table(fmt: str, rows: list[Standing], names: dict[str, str]
                    ) -> tuple[list[str], list[list[str]]]:
    """Column heads and one row of plain strings per standing (for the image and its alt
    text): place, name (withdrawn ones marked), points, each tiebreak, games, byes."""
    columns = ["#", "Player", "Pts", *(_SHORT[t] for t in tiebreak_names(fmt)), "Games"]
    show_byes = fmt in ("swiss", "round-robin")
    if show_byes:
        columns.append("Byes")
    table = []
    for s in rows:
        name = names.get(s.entrant, s.entrant) + (" (withdrawn)" if s.withdrawn else "")
        row = [str(s.place), name, _number(s.points), *(_number(t) for t in s.tiebreaks),
               str(s.played)]
        if show_byes:
            row.append(str(s.byes))
        table.append(row)
    return columns, table


def standings_text(fmt: str, rows: list[Standing], names: dict[str, str],
                   limit: int = TEXT_LIMIT, note: str = "") -> str:
    """The standings as a Discord code block, at most `limit` characters: names cut to fit a
    phone's width, and when the field is too long the last rows left out with a line saying
    how many. Withdrawn entrants are marked with a dagger. `note` (e.g. `best_possible_note`)
    goes below the table, inside the block."""
    columns, table = standings_table(fmt, rows, names)
    name_width = 14
    cells = []
    for s, row in zip(rows, table):
        # a backtick in a display name would end the code block early
        name = names.get(s.entrant, s.entrant).replace("`", "'")
        room = name_width - 2 if s.withdrawn else name_width
        name = name if len(name) <= room else name[:room - 1] + "…"
        if s.withdrawn:
            name += " †"
        cells.append([row[0], name, *row[2:]])
    heads = [_TEXT_HEADS.get(c, c) for c in columns]
    widths = [max(len(r[i]) for r in [heads, *cells]) for i in range(len(heads))]

    def line(cols: list[str]) -> str:
        out = [cols[0].rjust(widths[0]), cols[1].ljust(widths[1])]
        out += [c.rjust(w) for c, w in zip(cols[2:], widths[2:])]
        return " ".join(out).rstrip()

    legend = ", ".join(["GP games played", *(["Bye byes"] if "Byes" in columns else []),
                        *(["† withdrawn"] if any(s.withdrawn for s in rows) else [])])
    head = ["```", line(heads)]
    body = [line(c) for c in cells]
    for shown in range(len(body), -1, -1):
        tail = []
        if shown < len(body):
            tail.append(f"… and {len(body) - shown} more")
        tail += [_LEGEND[fmt], legend]
        if note:
            tail.append(note.replace("`", "'"))
        text = "\n".join(head + body[:shown] + tail + ["```"])
        if len(text) <= limit:
            return text
    return text[:limit]
