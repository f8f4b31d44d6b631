"""Time the exact Pack Solitaire solver over seeded deals: median, 95th percentile, maximum.

    python benchmarks/bench_pack_solitaire.py [deals] [first seed]

Target on the project's 2-core machine: median under 1 s, maximum under 10 s (one solve in one
process, as the bot's background worker runs it). Each layout found is checked: legal, and
scoring what the solver says; for seeds 0-19 the best score is also compared with what an
independent exact solver found (a SAT model: python-sat with CaDiCaL 1.5.3, a one-hot value
per square, the loss counted corner by corner; 1-90 s a deal, so not a dependency).

How the solver got here (engine/pack_solitaire.py, the notes above `_Search`): the earlier
branch and bound (rows from the top left, bounded by the exact best of each suffix solved
first with all sixteen tiles) took 53-190 s a deal, because those suffix bounds cannot know
which tiles are left. Tried and dropped on the way: iterative deepening on the lost pairs
(186 s on seed 0), memoising the rows below per set of unused tiles, a centre-first order
with a bound on four-tile corners (107 s), OR-Tools CP-SAT (its linear relaxation spreads
every tile over every cell and loses nothing: no bound) and SAT models (about 30 s a deal).
What made the difference is the quarter-turn cut: one of the four turns of any layout loses
at most half its weighed pairs in the part of the board searched first (median 1.0 s). The last
third came from cheaper nodes rather than a tighter bound (helper-8's profile: building the
candidate lists of new neighbour signatures took 30% of a solve): candidates combined from two
cached half-tables, the weighed waiting bound carried from step to step like the other, and
failed searches of the bottom rows remembered by the tiles left and what the placed cells show
(median 0.67 s). Tried and dropped there: other cut weights (only 19/13 sixteenths beat 9/7
eighths, by 1%), waiting cells counting on distinct tiles (5% fewer nodes, slower), other cell
orders (2-4x the nodes), remembering at more positions (under 1% more).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.core import Rng  # noqa: E402
from engine.pack_solitaire import GAME, deal, solve_cells  # noqa: E402

MEDIAN_S, MAX_S = 1.0, 10.0
# The independent SAT solver's best scores of the deals of seeds 0-19.
SAT_BEST = [76, 70, 70, 74, 70, 72, 76, 70, 66, 74, 68, 72, 78, 74, 74, 72, 80, 82, 70, 72]


def checked_score(tiles: list[str], solution) -> int:
    """The score of the solution's layout played through the engine (illegal moves raise)."""
    state = GAME.new_game(["solo"], seed=0, options={"tiles": tiles})
    for action in solution.actions():
        state = GAME.apply(state, "solo", GAME.parse_action(state, "solo", str(action)))
    return GAME.scores(state)["solo"]


def main(count: int = 100, first_seed: int = 0) -> int:
    times, scores, ok = [], [], True
    for seed in range(first_seed, first_seed + count):
        tiles = deal(Rng(seed))
        started = time.perf_counter()
        best = solve_cells(tiles, range(16))   # uncached, unlike solve()
        times.append(time.perf_counter() - started)
        scores.append(best.score)
        notes = []
        if checked_score(tiles, best) != best.score:
            notes.append("its layout does NOT score that")
            ok = False
        if seed < len(SAT_BEST) and SAT_BEST[seed] != best.score:
            notes.append(f"the SAT solver found {SAT_BEST[seed]}")
            ok = False
        print(f"seed {seed}: best {best.score} in {times[-1]:.2f} s {'; '.join(notes)}", flush=True)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    median = statistics.median(times)
    met = median < MEDIAN_S and times[-1] < MAX_S
    print(f"{count} deals: median {median:.2f} s, p95 {p95:.2f} s, max {times[-1]:.2f} s "
          f"(target: median < {MEDIAN_S:.0f} s, max < {MAX_S:.0f} s: {'met' if met else 'MISSED'}); "
          f"best scores {min(scores)}-{max(scores)}, median {statistics.median(scores)}")
    return 0 if ok and met else 1


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
