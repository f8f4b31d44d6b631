"""Time the exact Pack Solitaire solver over seeded deals: median, 95th percentile, maximum.

    python benchmarks/bench_pack_solitaire.py [deals] [first seed]
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
