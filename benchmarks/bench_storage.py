"""What a move costs the database, on SQLite and on PostgreSQL: µs per move, a move being its
reads (the game, the tagged notices it may edit) and its commit (the state, one event, three
notices, two timers), as the bot does for /move.

    python benchmarks/bench_storage.py [--moves N] [--url postgresql://...]

SQLite runs on a temporary file (WAL, synchronous=NORMAL: the bot's settings). PostgreSQL runs
on --url, else on a throwaway cluster of Debian's PostgreSQL started like the tests' (unix
socket; fsync off, as in the tests: a real server with fsync on adds its disk's flush time).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.storage import Event, Notice, Seat, Store  # noqa: E402


async def bench(target: str, moves: int, games: int = 10) -> float:
    store = await Store.open(target)
    rows = []
    for g in range(games):
        row = await store.create_game(game="relativity", guild_id=1, channel_id=2, host_id=10 + g,
                                      host_name="A", options={}, deadline_seconds=86400,
                                      invited_id=None, now=0.0)
        version = await store.commit(row.id, 0, now=0.0, changes={"status": "active", "state": "{}"},
                                     seats=[Seat(0, 10 + g, "A"), Seat(1, 99, "B")])
        rows.append((row.id, version))
    state = '{"board": [' + ", ".join(["[1, 2, 3]"] * 60) + "]}"
    start = time.perf_counter()
    for n in range(moves):
        game_id, version = rows[n % games]
        row = await store.get_game(game_id)
        await store.tagged_notices(game_id)
        version = await store.commit(
            game_id, row.version, now=float(n), changes={"state": state},
            events=[Event("move", "10", "a1-b2")],
            notices=[Notice("channel", 3, {"content": "moved", "board": {"n": n}}, tag="board"),
                     Notice("user", 10, {"content": "your turn"}, tag="dm:10"),
                     Notice("user", 99, {"content": "waiting"}, tag="dm:99")],
            timers={"deadline": (n + 86400.0, {}), "reminder": (n + 3600.0, {"n": 1})})
        rows[n % games] = (game_id, version)
    elapsed = time.perf_counter() - start
    await store.close()
    return elapsed / moves * 1e6


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--url", help="a PostgreSQL database (it gets the bot's tables)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        us = asyncio.run(bench(str(Path(folder) / "bench.sqlite3"), args.moves))
        print(f"sqlite       {us:8.0f} µs per move")
    server = None
    url = args.url
    if url is None:
        from tests import pg

        if pg.pg_bin() is None:
            print("postgresql   skipped: no --url and no Debian PostgreSQL to start")
            return
        server = pg.Server()
        server.start()
        url = server.database("bench")
    try:
        us = asyncio.run(bench(url, args.moves))
        print(f"postgresql   {us:8.0f} µs per move (unix socket)" if server else
              f"postgresql   {us:8.0f} µs per move")
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
