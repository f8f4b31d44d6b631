"""Computer players' strength and thinking time: win rates with 95% Wilson intervals.

    python benchmarks/bench_computer.py [--games N] [--only relativity,global-warming,galaxies]

Matches (seats alternate, so each side plays first in half the games):
    Relativity       strong vs uniformly random    target: strong wins >= 95%
    Relativity       strong vs easy                target: strong wins >= 70%
    Galaxies         strong vs uniformly random    target: strong wins >= 95% (a tie is no win)
    Global Warming   strong vs three random (4p)   target: strong wins >= 50% (fair share 25%)
Each computer decision is timed (target: every one within 2 s on the project's 2-core
machine); the script prints the max and the 95th percentile. One process, seeded: the same
arguments give the same games. A "random" player picks uniformly among the legal actions.

Figures on the project's shared 2-core machine (2026-11-24, one process):
    Relativity strong vs random   100/100  100.0%  CI [96.3, 100]  p95 219 ms, max 646 ms
    Relativity strong vs easy     100/100  100.0%  CI [96.3, 100]  p95 139 ms, max 417 ms
    Galaxies strong vs random     299/300   99.7%  CI [98.1, 99.9] p95 103 ms, max 437 ms
    Global Warming 4p vs 3 random 184/300   61.3%  CI [55.7, 66.7] p95  58 ms, max 119 ms
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import computer  # noqa: E402
import engine  # noqa: E402
from engine.core import Rng  # noqa: E402

DECISION_LIMIT_S = 2.0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(name: str, seats: dict, seed: int, times: list[float], max_moves: int = 20000):
    """One game; seats {player: computer player or None (random)}. Returns the outcome."""
    game = engine.get_game(name)
    state = game.new_game(list(seats), seed=seed)
    chooser = Rng(seed * 7919 + 3)
    for _ in range(max_moves):
        if game.outcome(state) is not None:
            return game.outcome(state)
        awaited = game.awaited(state)
        seat = awaited[0] if awaited else game.to_act(state)[0]
        player = seats[seat]
        if player is None:
            action = str(chooser.choice(game.legal_actions(state, seat)))
        else:
            view = game.view(state, seat)
            start = time.perf_counter()
            action = player.choose(view)
            times.append(time.perf_counter() - start)
        state = game.apply(state, seat, action)
    return None


def match(name: str, label: str, games: int, make_seats, target: float) -> bool:
    """Play `games` games; make_seats(i) -> (seats, the seat whose wins count)."""
    wins, times, unfinished = 0, [], 0
    started = time.perf_counter()
    for i in range(games):
        seats, hero = make_seats(i)
        outcome = play(name, seats, seed=1000 + i, times=times)
        if outcome is None:
            unfinished += 1
        elif outcome.winners == (hero,):
            wins += 1
    low, high = wilson(wins, games)
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
    worst = times[-1] if times else 0.0
    ok = wins / games >= target and worst <= DECISION_LIMIT_S
    print(f"{label:<44} {wins:>4}/{games:<4} {100 * wins / games:5.1f}%  "
          f"95% CI [{100 * low:5.1f}, {100 * high:5.1f}]  target {100 * target:.0f}%  "
          f"decisions {len(times)}: p95 {1000 * p95:6.1f} ms, max {1000 * worst:6.1f} ms  "
          f"({time.perf_counter() - started:.0f} s{', %d unfinished' % unfinished if unfinished else ''})"
          f"  {'ok' if ok else 'BELOW TARGET'}", flush=True)
    return ok


def two_seat(name: str, hero_level: str, other_level: str | None):
    def make(i):
        hero = computer.get_player(name, hero_level, seed=i)
        other = computer.get_player(name, other_level, seed=i + 500) if other_level else None
        seats = {"north": hero, "south": other} if i % 2 == 0 else {"north": other, "south": hero}
        return seats, "north" if i % 2 == 0 else "south"
    return make


def four_seat_gw(i):
    names = ["red", "black", "green", "blue"]
    hero = names[i % 4]
    return {p: (computer.get_player("global-warming", "strong", seed=i) if p == hero else None)
            for p in names}, hero


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match")
    parser.add_argument("--only", default="", help="comma-separated game names")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    matches = [
        ("relativity", "Relativity: strong vs random", two_seat("relativity", "strong", None), 0.95),
        ("relativity", "Relativity: strong vs easy", two_seat("relativity", "strong", "easy"), 0.70),
        ("galaxies", "Galaxies: strong vs random", two_seat("galaxies", "strong", None), 0.95),
        ("global-warming", "Global Warming (4p): strong vs 3 random", four_seat_gw, 0.50),
    ]
    results = []
    for name, label, make, target in matches:
        if only and name not in only:
            continue
        if name not in computer.game_names():
            print(f"{label}: no computer player yet")
            continue
        results.append(match(name, label, args.games, make, target))
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
