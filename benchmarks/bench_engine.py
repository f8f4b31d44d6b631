"""Relativity random-play throughput: actions applied per second, legal-move generation included;
and what `apply` and `view` cost at move 1000 of a long game against move 10.

    python benchmarks/bench_engine.py [--games N] [--max-moves M]

Each step asks the player to act for their legal moves, picks one with a seeded generator and
applies it through the public contract (`legal_actions` + `apply`), as a bot would. The long
game avoids scoring moves while it can, so that it lasts 1000 moves and more.
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
GROWTH_TARGET = 1.5   # apply at move 1000 at most this many times its cost at move 10


def long_game(game, moves: int, seed: int = 1) -> list:
    """The states of one game kept going for `moves` moves (no scoring while avoidable)."""
    chooser = Rng(seed)
    states = [game.new_game(["alice", "bob"], seed=seed)]
    while len(states) <= moves:
        state = states[-1]
        player = game.to_act(state)[0]
        actions = chooser.shuffled(game.legal_actions(state, player))
        scores = game.scores(state)
        following = (game.apply(state, player, a) for a in actions)
        quiet = next((s for s in following if game.scores(s) == scores and game.outcome(s) is None),
                     None)
        states.append(quiet or game.apply(state, player, actions[0]))
    return states


def cost_us(call, repeats: int = 300) -> float:
    """Median microseconds of `call()` over batches of ten."""
    times = []
    for _ in range(repeats // 10):
        start = time.perf_counter()
        for _ in range(10):
            call()
        times.append((time.perf_counter() - start) / 10 * 1e6)
    return statistics.median(times)


def growth(game) -> bool:
    states = long_game(game, 1000)
    results = {}
    for move in (10, 1000):
        state = states[move]
        player = game.to_act(state)[0]
        action = game.legal_actions(state, player)[0]
        results[move] = (cost_us(lambda: game.apply(state, player, action)),
                         cost_us(lambda: game.view(state, None)), len(state["log"]))
    ratio = results[1000][0] / results[10][0]
    for move, (apply_us, view_us, log) in results.items():
        print(f"  at move {move:4}: apply {apply_us:6.1f} us, view {view_us:6.1f} us "
              f"(log of {log} entries)")
    met = ratio <= GROWTH_TARGET
    print(f"  apply at move 1000 / at move 10: {ratio:.2f}x (target <= {GROWTH_TARGET}x: "
          f"{'met' if met else 'MISSED'})")
    return met


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
    print("Relativity, a long game:")
    met = growth(game)
    return 0 if met and rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
