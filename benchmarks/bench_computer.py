"""Computer players' strength and thinking time against the simple baseline players (issue 24).

    python benchmarks/bench_computer.py [--games N] [--only relativity,...] [--quick]
                                        [--first-deal SEED] [--tables 2,4] [--strong-only]
                                        [--jobs N]

For every game with a baseline player in benchmarks/baselines/<module>.py (a two-ply search in
Relativity, a small Monte Carlo over die faces in Global Warming, greedy targets in Galaxies,
each deciding from its own seat's view only), on the same deals with the seats rotated (each
deal is played once per seat, so every side sits everywhere):
    strong vs baseline    target: strong wins >= 80% of decisive games (45% of all at four
                          players in Global Warming, where a fair share is 25%)
    easy vs baseline      (no target: easy is meant to be beatable)
    easy vs random        target: easy wins most games (> 50%)
In Relativity also the share of games with 100 plies in a row without a trophy (target < 10%),
and how many of those had a draw offered by the computer first (the baseline neither offers nor
accepts one; a person could). A computer resigns as in the bot (a game it can no longer win).
A game still running after the cap of plies counts as a draw. Every decision is timed: p50,
p95 and max per level (target: p95 <= 2 s of one core). Seeded: the same arguments play the
same games, in one process or shared among `--jobs` (the same results). "random" picks
uniformly among the legal actions. A target counts as met ("ok") only when the 95% interval
is on its side; when only the point estimate is, the line says "not shown by the interval"
(more games would tell) and the script fails, as it does for a miss.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import computer  # noqa: E402
import engine  # noqa: E402
from engine.core import Rng  # noqa: E402

DECISION_P95_S = 2.0
STALL_PLIES = 100          # Relativity: plies in a row without a trophy that count as stalling
MAX_PLIES = {"relativity": 400}   # a game still running then counts as a draw
# Table sizes benchmarked per game (default: two players); the target of strong vs baseline.
TABLES = {"global-warming": (2, 4)}
TARGET_VS_BASELINE = {2: 0.80, 4: 0.45}
NAMES = ["ann", "bob", "cat", "dan"]


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def baseline_for(name: str):
    """The game's baseline factory `baseline(seed)`, or None."""
    try:
        return import_module(f"benchmarks.baselines.{name.replace('-', '_')}").baseline
    except ModuleNotFoundError:
        return None


class Seat:
    """A seat's decider: a computer player, a baseline, or None (uniformly random)."""

    def __init__(self, label: str, player):
        self.label, self.player = label, player


def play(name: str, seats: dict[str, Seat], seed: int, times: dict[str, list[float]]):
    """One game. Returns (outcome or None at the cap, longest run of plies without a change of
    score, whether a computer would have offered a draw in a run before it reached
    STALL_PLIES: the baseline players make and take no offers, a person could)."""
    game = engine.get_game(name)
    state = game.new_game(list(seats), seed=seed)
    chooser = Rng(seed * 7919 + 3)
    scores, still, longest = game.scores(state), 0, 0
    offered_at, offered = None, False
    for _ in range(MAX_PLIES.get(name, 20000)):
        if game.outcome(state) is not None:
            return game.outcome(state), longest, offered
        awaited = game.awaited(state)
        who = awaited[0] if awaited else game.to_act(state)[0]
        seat = seats[who]
        if seat.player is None:
            action = str(chooser.choice(game.legal_actions(state, who)))
        else:
            view = game.view(state, who)
            start = time.perf_counter()
            resigns = seat.player.resigns(view) if hasattr(seat.player, "resigns") else None
            action = None if resigns else seat.player.choose(view)
            times.setdefault(seat.label, []).append(time.perf_counter() - start)
            if resigns:   # (as in the bot: a computer resigns a game it can no longer win)
                state = game.resign(state, who)
                continue
            if offered_at is None and still >= 40 and hasattr(seat.player, "offers_draw") \
                    and seat.player.offers_draw(view):
                offered_at = still
        state = game.apply(state, who, action)
        now = game.scores(state)
        still = 0 if now != scores else still + 1
        if still == 0:
            offered_at = None
        elif still == STALL_PLIES and offered_at is not None:
            offered = True
        scores, longest = now, max(longest, still)
    return game.outcome(state), longest, offered


def make(label: str, factory, seed: int) -> Seat:
    return Seat(label, None if factory is None else factory(seed))


def play_deal(name: str, n: int, hero: tuple, other: tuple, seed: int):
    """One deal played n times, the hero in each seat in turn and `other` in the rest.
    Returns ([(result "W", "L" or "D", stalled, draw offered) per game], decision times)."""
    times: dict[str, list[float]] = {}
    games = []
    for shift in range(n):
        seats = {}
        for k, p in enumerate(NAMES[:n]):
            label, factory = hero if k == shift else other
            seats[p] = make(label, factory, seed * 10 + k)
        outcome, longest, offer = play(name, seats, seed, times)
        result = ("D" if outcome is None or not outcome.winners
                  else "W" if NAMES[shift] in outcome.winners else "L")
        games.append((result, longest >= STALL_PLIES, offer))
    return games, times


def verdict(hits: int, n: int, target: float, above: bool = True) -> str:
    """Whether the 95% interval around the share `hits`/`n` shows the target met (at or above
    it, or below it when `above` is false): "ok"; "not shown by the interval" when the share
    meets it and the interval does not (more games would tell); otherwise a miss."""
    share = hits / n if n else 0.0
    low, high = wilson(hits, n)
    met, point = (low >= target, share >= target) if above else (high < target, share < target)
    if met:
        return "ok"
    return "not shown by the interval" if point else ("BELOW TARGET" if above else "ABOVE TARGET")


def match(name: str, n: int, hero: tuple, other: tuple, deals: int, times, target, stall: bool,
          first: int = 1000, jobs: int = 1):
    """`deals` deals, each played n times with the hero in every seat and `other` in the rest.
    hero/other: (label, factory or None; picklable when jobs > 1). The deals are shared out
    among `jobs` processes; the results are the same as in one. Prints one line; returns
    whether the interval shows the target met."""
    started = time.perf_counter()
    seeds = range(first, first + deals)
    deal = partial(play_deal, name, n, hero, other)
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            done = list(pool.map(deal, seeds))
    else:
        done = list(map(deal, seeds))
    results = [game for games, _ in done for game in games]
    for _, deal_times in done:
        for label, values in deal_times.items():
            times.setdefault(label, []).extend(values)
    wins = sum(r == "W" for r, _, _ in results)
    losses = sum(r == "L" for r, _, _ in results)
    draws = sum(r == "D" for r, _, _ in results)
    stalled = sum(s for _, s, _ in results)
    offered = sum(o for _, _, o in results)
    games = deals * n
    decisive = wins + losses
    low, high = wilson(wins, decisive)
    share = wins / decisive if decisive else 0.0
    said = "ok" if target is None else verdict(wins, decisive, target)
    ok = said == "ok"
    line = (f"  {hero[0]} vs {other[0]:<9} {wins:>4} wins {losses:>4} losses {draws:>4} draws of "
            f"{games:<4} {100 * share:5.1f}% of decisive  95% CI [{100 * low:5.1f}, {100 * high:5.1f}]")
    if target is not None:
        line += f"  target >= {100 * target:.0f}% {said}"
    if stall:
        s_low, s_high = wilson(stalled, games)
        s_said = verdict(stalled, games, 0.10, above=False)
        line += (f"\n    games with {STALL_PLIES} plies in a row without a trophy: {stalled}/{games}"
                 f" ({100 * stalled / games:.1f}%, 95% CI [{100 * s_low:.1f}, {100 * s_high:.1f}])"
                 f"  target < 10% {s_said}"
                 f"\n    of those, with a draw offered by the computer before the {STALL_PLIES}th ply"
                 f" (the baseline plays on; a person could accept): {offered}")
        ok = ok and s_said == "ok"
    print(f"{line}  ({time.perf_counter() - started:.0f} s)", flush=True)
    return ok


def timing(times: dict[str, list[float]]) -> bool:
    ok = True
    for label, values in sorted(times.items()):
        values = sorted(values)
        if not values:
            continue

        def at(q):
            return values[min(len(values) - 1, int(q * len(values)))]
        within = at(0.95) <= DECISION_P95_S
        ok = ok and (within or label == "baseline")
        print(f"  decisions of {label:<8} {len(values):>6}: p50 {1000 * at(0.5):6.1f} ms  "
              f"p95 {1000 * at(0.95):6.1f} ms  max {1000 * values[-1]:6.1f} ms"
              + ("" if label == "baseline" else f"  target p95 <= {DECISION_P95_S:.0f} s "
                 + ("ok" if within else "ABOVE TARGET")))
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="deals per match (each played once per seat)")
    parser.add_argument("--only", default="", help="comma-separated game names")
    parser.add_argument("--quick", action="store_true", help="a few deals per match (a smoke run)")
    parser.add_argument("--first-deal", type=int, default=1000, help="seed of the first deal")
    parser.add_argument("--tables", default="", help="comma-separated table sizes (default: each game's)")
    parser.add_argument("--strong-only", action="store_true", help="only strong vs baseline")
    parser.add_argument("--jobs", type=int, default=1,
                        help="processes the deals are shared among (same results; decision "
                             "times are then measured on a busier machine)")
    args = parser.parse_args()
    deals = 3 if args.quick else args.games
    only = set(filter(None, args.only.split(",")))
    tables = {int(t) for t in args.tables.split(",") if t}
    results = []
    for name in computer.game_names():
        base = baseline_for(name)
        if base is None or (only and name not in only):
            continue

        def level(lvl):
            return lvl, partial(computer.get_player, name, lvl)
        for n in TABLES.get(name, (2,)):
            if tables and n not in tables:
                continue
            times: dict[str, list[float]] = {}
            print(f"{engine.get_game(name).title}, {n} players, {deals} deals x {n} seats:", flush=True)
            stall = name == "relativity"
            first, jobs = args.first_deal, args.jobs
            results.append(match(name, n, level("strong"), ("baseline", base), deals, times,
                                 TARGET_VS_BASELINE[n], stall, first, jobs))
            if not args.strong_only:
                match(name, n, level("easy"), ("baseline", base), deals, times, None, False,
                      first, jobs)
                results.append(match(name, n, level("easy"), ("random", None), deals, times,
                                     0.5, False, first, jobs))
            results.append(timing(times))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
