"""Time the exact Pack Solitaire solver over seeded deals: median, 95th percentile, maximum.

    python benchmarks/bench_pack_solitaire.py [deals] [first seed]

Target on a 2-core machine: median under 1 s, maximum under 10 s. Not met: on the shared
2-core machine, seeds 0-4 took 81, 89, 103, 96 and 53 s (best scores 76, 70, 70, 74, 70).
The search: positions in rows from the top left; the bound is the score so far, plus the exact
best of the remaining suffix on its own (solved first, from the last position back), plus the
pairs towards the suffix that the best unused tile could match. A bound built on the corners
where four tiles meet (four squares there cannot have exactly three matching pairs) was tried
and was slower per node than it pruned (see the report of issue 12).
A Google OR-Tools CP-SAT model (9.15: a boolean per tile, turn and cell; per square the value
there; forbidden facing values excluded; a boolean per matching pair) was tried too and is far
slower: on seed 0 it found 72 points in 40 s with an upper bound still at 646 (2 workers;
1 worker gave nothing within 600 s), so its linear relaxation is no help here.

Also tried (not adopted, same speed or slower): counting lost pairs instead of scored ones,
iterative deepening on the loss (0, 1, 2, ...), with the same suffix bounds plus, for each
waiting cell below a placed tile, the fewest pairs the best unused tile must lose there. Seed 0
took 186 s (49 million nodes for the whole board alone). What the figures show: the suffix
bounds are loose because each suffix is solved with all sixteen tiles to pick from. On seed 0
the last two rows alone lose 0 pairs, the last three lose 4 of 34, the whole board 10 of 48:
the loss comes from having to use the tiles that are left, not from the geometry. So the
next thing to try is a bound that knows which tiles remain, memoised by (row, unused tiles),
such as the best of the rows below using only those tiles. A first cut of that (the exact
best of the rows below, solved per set of unused tiles at every node) had not finished seed 0
after 240 s: it solved about 1,000 two-row and 25,000 one-row subproblems every 20 s, one
per new set of unused tiles. It needs a cheaper bound per set, or a coarser key. Two facts any bound may use: a
corner where four tiles meet loses 0, 2, 3 or 4 pairs, never exactly 1, because three equal
pairs around it force the fourth. And no tile has two empty squares, so two corners whose
tiles overlap can never both be four empty squares.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng  # noqa: E402
from engine.pack_solitaire import _Solver, deal  # noqa: E402


def main(count: int = 100, first_seed: int = 0) -> None:
    times, scores = [], []
    for seed in range(first_seed, first_seed + count):
        tiles = deal(Rng(seed))
        started = time.perf_counter()
        best = _Solver(tiles).run().score  # uncached, unlike solve()
        times.append(time.perf_counter() - started)
        scores.append(best)
        print(f"seed {seed}: best {best} in {times[-1]:.2f} s", flush=True)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"{count} deals: median {statistics.median(times):.2f} s, p95 {p95:.2f} s, "
          f"max {times[-1]:.2f} s; best scores {min(scores)}-{max(scores)}, "
          f"median {statistics.median(scores)}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
