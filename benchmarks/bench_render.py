"""Board render time: SVG build and PNG conversion, timed separately, medians of repeated runs.

    python benchmarks/bench_render.py [--runs N]

The views are real mid-game positions (seeded random play), drawn at the default size, as the
bot sends them. The target is for Relativity's board; Global Warming is reported alongside.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
import render  # noqa: E402
from engine.core import Rng  # noqa: E402
from render.svg import svg_to_png  # noqa: E402

TARGET_MS = 30.0  # median SVG + PNG for a Relativity board on the project's 2-core machine


def mid_game_view(name: str, players: list[str], moves: int, seed: int = 7) -> dict:
    game = engine.get_game(name)
    state = game.new_game(players, seed=seed)
    chooser = Rng(seed)
    for _ in range(moves):
        if game.outcome(state) is not None:
            break
        player = (game.awaited(state) or game.to_act(state))[0]
        state = game.apply(state, player, chooser.choice(game.legal_actions(state, player)))
    return game.view(state, None)


def time_render(view: dict, names: dict, runs: int) -> tuple[float, float, int]:
    """Median milliseconds of the SVG build and of the PNG conversion, and the PNG's size."""
    svg_ms, png_ms = [], []
    png = b""
    for _ in range(runs):
        start = time.perf_counter()
        svg = render.render_svg(view, names)
        built = time.perf_counter()
        png = svg_to_png(svg)
        svg_ms.append((built - start) * 1000)
        png_ms.append((time.perf_counter() - built) * 1000)
    return statistics.median(svg_ms), statistics.median(png_ms), len(png)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="renders per board (default 50)")
    args = parser.parse_args(argv)

    boards = [
        ("relativity", mid_game_view("relativity", ["alice", "bob"], moves=30),
         {"alice": "Alice", "bob": "Bob"}),
        ("global-warming", mid_game_view("global-warming", ["a", "b", "c", "d"], moves=40),
         {"a": "Alice", "b": "Bob", "c": "Carol", "d": "Dave"}),
    ]
    render.render_png(boards[0][1])  # warm up: imports, font files in the page cache
    ok = True
    for name, view, names in boards:
        svg_ms, png_ms, size = time_render(view, names, args.runs)
        total = svg_ms + png_ms
        line = (f"{name:15} SVG build {svg_ms:6.2f} ms   PNG conversion {png_ms:6.2f} ms   "
                f"total {total:6.2f} ms   ({size // 1024} KiB PNG, median of {args.runs})")
        if name == "relativity":
            met = total <= TARGET_MS
            ok = ok and met
            line += f"   target <= {TARGET_MS:.0f} ms: {'met' if met else 'MISSED'}"
        print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
