"""Tournament pairing rules as properties over thousands of seeded random tournaments (issue 25):
no rematch while one can be avoided (checked against a brute-force search), byes, seat
balance, every round robin pair exactly once, table sizes."""

from __future__ import annotations

import random
import time
from collections import Counter
from functools import lru_cache

import pytest

from bot.tournaments import (FORMATS, Result, default_rounds, formats_for, pair_round,
                             round_robin_schedule, standings, table_sizes)


def ids(n: int) -> list[str]:
    return [str(100000 + 7 * i) for i in range(n)]


def play(table, rng: random.Random, number: int) -> Result:
    """A random finished two-player game: win, loss or (now and then) a draw."""
    first, second = table.seats
    score = rng.choice((1.0, 0.0, 1.0, 0.0, 0.5))
    return Result(number, table.seats, {first: score, second: 1.0 - score})


def fewest(people: tuple[str, ...], cost) -> tuple[int, ...]:
    """Brute force: the least total `cost(a, b)` (a tuple, compared in order) of any pairing
    of `people` (an even count)."""
    @lru_cache(maxsize=None)
    def best(rest: tuple[str, ...]) -> tuple[int, ...]:
        if not rest:
            return (0, 0)
        a, others = rest[0], rest[1:]
        found = None
        for b in others:
            here, after = cost(a, b), best(tuple(o for o in others if o != b))
            total = tuple(x + y for x, y in zip(here, after))
            found = total if found is None else min(found, total)
            if found == (0, 0):
                break
        return found
    return best(people)


def fewest_rematches(people: tuple[str, ...], met: frozenset) -> int:
    """Brute force: the fewest rematches any pairing of `people` (an even count) needs."""
    return fewest(people, lambda a, b: (frozenset((a, b)) in met, 0))[0]


def seat_balance(results) -> Counter:
    """First seats minus second seats, per entrant."""
    balance = Counter()
    for r in results:
        balance[r.seats[0]] += 1
        balance[r.seats[1]] -= 1
    return balance


def strained(balance, a, b) -> bool:
    """Both two first seats ahead (or two second seats): one of them would reach three."""
    return (balance[a] >= 2 and balance[b] >= 2) or (balance[a] <= -2 and balance[b] <= -2)


def check_swiss_round(rnd, active, results, byes):
    seated = [e for t in rnd.tables for e in t.seats]
    assert all(len(t.seats) == 2 for t in rnd.tables)
    assert sorted(seated + ([rnd.bye] if rnd.bye else [])) == sorted(active), "everyone once"
    assert (rnd.bye is not None) == (len(active) % 2 == 1)
    met = frozenset(frozenset(r.seats) for r in results)
    rematches = sum(frozenset(t.seats) in met for t in rnd.tables)
    # seats: no entrant three seats ahead unless every pairing with the fewest rematches
    # (given the bye) does that to someone
    balance = seat_balance(results)
    used = sum(strained(balance, *t.seats) for t in rnd.tables)
    paired = tuple(sorted(e for e in active if e != rnd.bye))
    best = fewest(paired, lambda a, b: (frozenset((a, b)) in met, strained(balance, a, b)))
    assert rematches == best[0], "a rematch that could be avoided"
    assert used == 0 or best[1] > 0, "a third seat ahead that could be avoided"
    if rnd.bye is None:
        return used
    count = Counter(byes)
    least = min(count[e] for e in active)
    assert count[rnd.bye] == least, "a second bye while someone has had none"
    need = {c: fewest_rematches(tuple(sorted(e for e in active if e != c)), met)
            for c in active if count[c] == least}
    assert rematches == need[rnd.bye] == min(need.values()), "a rematch that could be avoided"
    # the lowest-placed: nobody placed lower (with as few byes) could have had it as cheaply
    rows = {s.entrant: s for s in standings("swiss", active, [], results, byes)}
    for c in need:
        if rows[c].place > rows[rnd.bye].place:
            assert need[c] > need[rnd.bye], f"{c} is placed lower and could have had the bye"
    return used


def test_swiss_properties_over_random_tournaments():
    started = time.perf_counter()
    rng = random.Random(2025)
    rounds_checked = forced = forced_seats = 0
    for t in range(1200):
        n = rng.randint(2, 11)
        people = ids(n)
        active = list(people)
        results: list[Result] = []
        byes: list[str] = []
        # sometimes more rounds than a rematch-free event allows, to force rematches
        rounds = rng.randint(1, min(n + 1, 7))
        for number in range(1, rounds + 1):
            if len(active) > 2 and rng.random() < 0.1:
                active.remove(rng.choice(active))  # a withdrawal between rounds
            rnd = pair_round("swiss", active, results, byes, number, seed=t)
            if t % 10 == 0:
                assert rnd == pair_round("swiss", active, results, byes, number, seed=t)
            forced_seats += check_swiss_round(rnd, active, results, byes) > 0
            met = {frozenset(r.seats) for r in results}
            forced += sum(frozenset(tb.seats) in met for tb in rnd.tables)
            results += [play(tb, rng, number) for tb in rnd.tables]
            if rnd.bye:
                byes.append(rnd.bye)
            rounds_checked += 1
        if number <= default_rounds("swiss", n) + 1:
            # an event of ordinary length: firsts and seconds differ by at most 2 for everyone
            assert max(map(abs, seat_balance(results).values()), default=0) <= 2, t
    # the forced branches were exercised
    assert rounds_checked > 3000 and forced > 0 and forced_seats > 0
    assert time.perf_counter() - started < 20


def test_swiss_first_round_is_a_seeded_draw_and_scores_pair_together():
    people = ids(8)
    one = pair_round("swiss", people, [], [], 1, seed=1)
    assert one == pair_round("swiss", people, [], [], 1, seed=1)
    assert any(pair_round("swiss", people, [], [], 1, seed=s) != one for s in range(2, 6))
    # round 1: the first seat wins at two tables, the second seat at the other two
    results = [Result(1, t.seats, {t.seats[0]: float(i % 2 == 0), t.seats[1]: float(i % 2)})
               for i, t in enumerate(one.tables)]
    winners = {e for r in results for e, p in r.points.items() if p == 1.0}
    sat_second = {t.seats[1] for t in one.tables}
    two = pair_round("swiss", people, results, [], 2, seed=1)
    for t in two.tables:
        # winners meet winners, and whoever sat second in round 1 sits first now
        assert (t.seats[0] in winners) == (t.seats[1] in winners)
        assert t.seats[0] in sat_second and t.seats[1] not in sat_second


def test_swiss_does_not_paint_itself_into_a_corner():
    # Four entrants after two rounds where the greedy top-down choice (A-C, then B-D) would be a
    # rematch: A met B and D; B met A and C. Score order A, B, C, D. Only A-C/B-D avoids rematches.
    a, b, c, d = ids(4)
    results = [
        Result(1, (a, b), {a: 1.0, b: 0.0}), Result(1, (c, d), {c: 1.0, d: 0.0}),
        Result(2, (d, a), {a: 1.0, d: 0.0}), Result(2, (b, c), {b: 1.0, c: 0.0}),
    ]
    rnd = pair_round("swiss", [a, b, c, d], results, [], 3, seed=0)
    assert {frozenset(t.seats) for t in rnd.tables} == {frozenset((a, c)), frozenset((b, d))}


def test_swiss_bye_goes_to_the_lowest_placed_without_one():
    people = ids(5)
    top, second, third, fourth, low = people
    results = [Result(1, (top, second), {top: 1.0, second: 0.0}),
               Result(1, (third, fourth), {third: 1.0, fourth: 0.0})]
    rnd = pair_round("swiss", people, results, [low], 2, seed=3)
    # `low` had the round 1 bye (1 point): the lowest without a bye is second or fourth (0)
    assert rnd.bye in (second, fourth)
    rnd3 = pair_round("swiss", people, results, [low, fourth], 3, seed=3)
    assert rnd3.bye not in (low, fourth)


def test_swiss_sixty_four_entrants_pair_quickly():
    people = ids(64)
    rng = random.Random(7)
    results, byes = [], []
    started = time.perf_counter()
    for number in range(1, 8):
        rnd = pair_round("swiss", people, results, byes, number, seed=5)
        met = {frozenset(r.seats) for r in results}
        assert not any(frozenset(t.seats) in met for t in rnd.tables)
        results += [play(t, rng, number) for t in rnd.tables]
    assert time.perf_counter() - started < 5


def test_round_robin_every_pair_once_and_seats_balanced():
    rng = random.Random(11)
    for n in range(2, 17):
        for seed in range(6):
            people = ids(n)
            rng.shuffle(people)
            results, byes = [], []
            for number in range(1, default_rounds("round-robin", n) + 1):
                rnd = pair_round("round-robin", people, results, byes, number, seed)
                seated = [e for t in rnd.tables for e in t.seats]
                assert len(seated) == len(set(seated))
                assert sorted(seated + ([rnd.bye] if rnd.bye else [])) == sorted(people)
                results += [play(t, rng, number) for t in rnd.tables]
                if rnd.bye:
                    byes.append(rnd.bye)
            pairs = Counter(frozenset(r.seats) for r in results)
            assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}
            firsts = Counter(r.seats[0] for r in results)
            seconds = Counter(r.seats[1] for r in results)
            assert all(abs(firsts[e] - seconds[e]) <= 1 for e in people)
            assert sorted(byes) == (sorted(people) if n % 2 else [])


def test_round_robin_schedule_seats_balanced_for_every_size():
    for n in range(2, 40):
        schedule = round_robin_schedule(ids(n))
        first, second = Counter(), Counter()
        for pairs in schedule:
            for a, b in pairs:
                if a is not None and b is not None:
                    first[a] += 1
                    second[b] += 1
        assert all(abs(first[e] - second[e]) <= 1 for e in ids(n)), n


def test_round_robin_withdrawal_drops_the_remaining_games_as_forfeits():
    rng = random.Random(5)
    for trial in range(300):
        n = rng.randint(3, 12)
        people = ids(n)
        active = list(people)
        gone: list[str] = []
        results, byes = [], []
        scheduled = Counter()
        for number in range(1, default_rounds("round-robin", n) + 1):
            if len(active) > 2 and rng.random() < 0.2:
                leaver = rng.choice(active)
                active.remove(leaver)
                gone.append(leaver)
            rnd = pair_round("round-robin", active, results, byes, number, trial, withdrawn=gone)
            for t in rnd.tables:
                assert set(t.seats) <= set(active)
                scheduled[frozenset(t.seats)] += 1
            for t in rnd.forfeits:
                assert len(set(t.seats) & set(gone)) == 1 and len(set(t.seats) & set(active)) == 1
                scheduled[frozenset(t.seats)] += 1
                leaver = next(e for e in t.seats if e in gone)
                results.append(Result(number, t.seats, {e: float(e != leaver) for e in t.seats},
                                      forfeit=(leaver,)))
            assert rnd.bye is None or rnd.bye in active
            results += [play(t, rng, number) for t in rnd.tables]
            if rnd.bye:
                byes.append(rnd.bye)
        # no pair twice; every pair of those still playing met exactly once
        assert set(scheduled.values()) <= {1}
        for i, a in enumerate(active):
            for b in active[i + 1:]:
                assert scheduled[frozenset((a, b))] == 1


def test_table_sizes():
    assert {n: table_sizes(n) for n in range(1, 12)} == {
        1: [], 2: [2], 3: [3], 4: [4], 5: [3, 2], 6: [3, 3], 7: [4, 3], 8: [4, 4],
        9: [3, 3, 3], 10: [4, 3, 3], 11: [4, 4, 3]}
    for n in range(6, 200):
        sizes = table_sizes(n)
        assert sum(sizes) == n and set(sizes) <= {3, 4} and len(sizes) == -(-n // 4)


def test_tables_seat_everyone_by_standing():
    rng = random.Random(3)
    for n in range(2, 30):
        people = ids(n)
        results = []
        for number in range(1, 4):
            rnd = pair_round("tables", people, results, [], number, seed=n)
            seated = [e for t in rnd.tables for e in t.seats]
            assert sorted(seated) == sorted(people)
            assert [len(t.seats) for t in rnd.tables] == table_sizes(n)
            rows = {s.entrant: s.points for s in standings("tables", people, [], results, [])}
            # nobody at a later table has more points than anyone at an earlier one
            for earlier, later in zip(rnd.tables, rnd.tables[1:]):
                assert min(rows[e] for e in earlier.seats) >= max(rows[e] for e in later.seats)
            for t in rnd.tables:
                places = list(t.seats)
                rng.shuffle(places)
                results.append(Result(number, t.seats, {e: float(len(places) - 1 - places.index(e))
                                                        for e in t.seats}))


def test_duplicate_gives_everyone_a_table_of_their_own():
    people = ids(9)
    rnd = pair_round("duplicate", people, [], [], 2, seed=0)
    assert [t.seats for t in rnd.tables] == [(e,) for e in people] and rnd.bye is None


def test_formats_and_default_rounds():
    assert formats_for("relativity") == formats_for("galaxies") == ("swiss", "round-robin")
    assert formats_for("global-warming") == ("tables",)
    assert formats_for("byop1") == formats_for("pack-solitaire") == ("duplicate",)
    assert default_rounds("round-robin", 8) == 7 and default_rounds("round-robin", 7) == 7
    assert default_rounds("swiss", 7) == 3 and default_rounds("swiss", 8) == 3
    assert default_rounds("swiss", 9) == 4
    with pytest.raises(ValueError):
        pair_round("knockout", ids(4), [], [], 1, seed=0)
    assert set(FORMATS) == {"swiss", "round-robin", "tables", "duplicate"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_tiny_fields(fmt):
    assert pair_round(fmt, [], [], [], 1, seed=0).tables == ()
    one = pair_round(fmt, ids(1), [], [], 1, seed=0)
    assert [t.seats for t in one.tables] == ([(ids(1)[0],)] if fmt == "duplicate" else [])
    assert one.bye == (None if fmt == "duplicate" else ids(1)[0])
    two = pair_round(fmt, ids(2), [], [], 1, seed=0)
    assert sorted(e for t in two.tables for e in t.seats) == ids(2) and two.bye is None


def test_double_round_robin_swaps_seats():
    people = ids(6)
    rounds = default_rounds("round-robin", 6)
    first = [t.seats for n in range(1, rounds + 1)
             for t in pair_round("round-robin", people, [], [], n, seed=4).tables]
    second = [t.seats for n in range(rounds + 1, 2 * rounds + 1)
              for t in pair_round("round-robin", people, [], [], n, seed=4).tables]
    assert second == [(b, a) for a, b in first]


def test_blossom_matching_is_maximum():
    from bot.tournaments.matching import _max_matching

    def brute(n, edges):
        @lru_cache(maxsize=None)
        def best(free: frozenset) -> int:
            if not free:
                return 0
            v = min(free)
            rest = free - {v}
            return max([best(rest)] + [1 + best(rest - {w}) for w in rest if (v, w) in edges])
        return best(frozenset(range(n)))

    rng = random.Random(9)
    for trial in range(600):
        n = rng.randint(1, 11)
        p = rng.choice((0.2, 0.35, 0.5))
        edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < p}
        edges |= {(b, a) for a, b in edges}
        adj = [{b for a, b in edges if a == v} for v in range(n)]
        match = _max_matching(n, adj)
        assert all(match[v] == -1 or (v, match[v]) in edges and match[match[v]] == v
                   for v in range(n))
        assert sum(m != -1 for m in match) // 2 == brute(n, frozenset(edges))


def test_swiss_counts_a_bye_as_a_win_when_pairing_by_score():
    a, b, c, d, e, f, g = ids(7)
    results = [Result(1, (a, b), {a: 1.0, b: 0.0}), Result(1, (c, d), {c: 1.0, d: 0.0}),
               Result(1, (f, g), {f: 1.0, g: 0.0})]
    for seed in range(12):
        rnd = pair_round("swiss", ids(7), results, [e], 2, seed)
        assert rnd.bye in (b, d, g)
        # the four on one point (the bye's included) meet each other; the two on 0 likewise
        for t in rnd.tables:
            assert (set(t.seats) <= {a, c, e, f}) or (set(t.seats) <= {b, d, g}), (seed, t)
