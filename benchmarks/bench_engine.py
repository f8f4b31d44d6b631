"""Relativity random-play throughput: actions applied per second, legal-move generation included.

    python benchmarks/bench_engine.py [--games N] [--max-moves M]

Each step asks the player to act for their legal moves, picks one with a seeded generator and
applies it through the public contract (`legal_actions` + `apply`), as a bot would.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from engine.core import Rng  # noqa: E402

TARGET = 2000  # applied actions per second on the project's 2-core machine


def play(game, seed: int, max_moves: int) -> tuple[int, bool]:
    """Play one random game; return (actions applied, finished)."""
    chooser = Rng(seed * 7919 + 1)
    state = game.new_game(["alice", "bob"], seed=seed)
    moves = 0
    while moves < max_moves:
        to_act = game.to_act(state)
        if not to_act:
            return moves, True
        player = to_act[0]
        actions = game.legal_actions(state, player)
        state = game.apply(state, player, chooser.choice(actions))
        moves += 1
    return moves, game.outcome(state) is not None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games to play (default 20)")
    parser.add_argument("--max-moves", type=int, default=5000, help="cap per game (default 5000)")
    args = parser.parse_args(argv)

    game = engine.get_game("relativity")
    lengths = []
    unfinished = 0
    start = time.perf_counter()
    for seed in range(args.games):
        moves, finished = play(game, seed, args.max_moves)
        lengths.append(moves)
        unfinished += not finished
    elapsed = time.perf_counter() - start
    total = sum(lengths)
    rate = total / elapsed
    print(f"Relativity random play: {args.games} games, {total} actions in {elapsed:.2f} s")
    print(f"  game length: median {statistics.median(lengths):.0f}, "
          f"min {min(lengths)}, max {max(lengths)}; unfinished at cap: {unfinished}")
    print(f"  throughput: {rate:,.0f} applied actions/s (legal moves generated every step; "
          f"target >= {TARGET:,})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
