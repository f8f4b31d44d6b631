"""How fast the bot answers a move: drive the real bot through the in-process fake Discord and
print the time from each /move to its first response (the defer) and to the new board image in
the game's thread, median and 95th percentile.

    .venv/bin/python benchmarks/bench_bot.py [--moves 200] [--game relativity]

Target on the development machine: 95th percentile of move-to-board under 300 ms. The fake
Discord runs in the same process and event loop, so its own work is included in the times.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.app import PiecepackBot  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

TARGET_P95 = 0.300


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def new_game(fake, bot, host, guest, name):
    res = await fake.slash(host, "play", {"game": name})
    lobby = res.original
    await (await fake.click(guest, lobby.button("Join"), message_id=lobby.id)).done()
    row = (await bot.store.games_of_user(int(host)))[-1]
    thread = str(row.thread_id)
    await fake.wait_for(lambda: any(m.attachments for m in fake.messages(thread)))
    return row.id, thread


async def run(moves: int, game_name: str, seed: int) -> int:
    rng = random.Random(seed)
    game = engine.get_game(game_name)
    fake = FakeDiscord()
    await fake.start()
    fake.patch_discord()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(token=fake.token, db_path=str(Path(tmp) / "bench.sqlite3"),
                            guild_ready_timeout=0.05, log_level="WARNING")
        bot = PiecepackBot(settings)
        task = asyncio.create_task(bot.start(fake.token))
        await fake.wait_ready(10)
        await bot.wait_until_ready()
        players = [fake.add_user(f"player{i}") for i in range(2)]
        first_response: list[float] = []
        to_board: list[float] = []
        game_id, thread = await new_game(fake, bot, *players, game_name)
        while len(to_board) < moves:
            row = await bot.store.get_game(game_id)
            state = game.from_json(row.state)
            if row.status != "active":
                game_id, thread = await new_game(fake, bot, *players, game_name)
                continue
            (player,) = game.to_act(state)
            action = str(rng.choice(game.legal_actions(state, player)))
            boards = sum(1 for m in fake.messages(thread) if m.attachments)
            start = time.perf_counter()
            res = await fake.slash(player, "move", {"move": action}, channel=thread)
            first_response.append(res.responded_at - res.dispatched_at)
            await fake.wait_for(lambda: sum(1 for m in fake.messages(thread) if m.attachments) > boards)
            to_board.append(time.perf_counter() - start)
            await res.done()
        await bot.close()
        await task
    await fake.stop()

    def line(label, values):
        return (f"{label:<28} median {statistics.median(values) * 1000:7.1f} ms   "
                f"p95 {percentile(values, 0.95) * 1000:7.1f} ms   max {max(values) * 1000:7.1f} ms")

    print(f"{len(to_board)} moves of {game_name}")
    print(line("interaction -> first answer", first_response))
    print(line("interaction -> board posted", to_board))
    p95 = percentile(to_board, 0.95)
    verdict = "met" if p95 < TARGET_P95 else "MISSED"
    print(f"target: p95 move-to-board < {TARGET_P95 * 1000:.0f} ms: {verdict}")
    return 0 if p95 < TARGET_P95 else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--game", default="relativity", choices=["relativity"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(run(args.moves, args.game, args.seed)))


if __name__ == "__main__":
    main()
