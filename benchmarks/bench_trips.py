"""PostgreSQL round trips per move of one bot process: a bot in this process (the fake
Discord beside it, boards drawn in a thread) plays Relativity games by /move; every statement
and every BEGIN/COMMIT its pool, listener and lock connections send is counted (asyncpg's
connection methods), from the /move to its board delivered and the worker idle again.

    python benchmarks/bench_trips.py [--moves N]

Runs on a throwaway cluster of Debian's PostgreSQL started like the tests'.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from tests import pg  # noqa: E402
from tests.botkit import command, fake_discord, open_game, running_bot  # noqa: E402

TRIPS: collections.Counter = collections.Counter()


def counting() -> None:
    """Count each call of asyncpg that goes to the server and back."""
    from asyncpg import connection, transaction

    for cls, names in ((connection.Connection, ("execute", "executemany", "fetch", "fetchrow",
                                                 "fetchval")),
                       (transaction.Transaction, ("start", "__aexit__"))):   # (BEGIN; COMMIT or ROLLBACK)
        for name in names:
            original = getattr(cls, name)

            def counted(self, *args, __original=original, __name=name, **kwargs):
                TRIPS[__name] += 1
                return __original(self, *args, **kwargs)
            setattr(cls, name, counted)


async def play(url: str, moves: int, folder: Path) -> dict:
    async with fake_discord() as fake:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with running_bot(fake, Path(folder) / "db", db_path=url) as bot:
            games = [await open_game(fake, bot, alice, bob) for _ in range(4)]
            await asyncio.sleep(1.0)
            TRIPS.clear()
            done = 0
            while done < moves:
                for row, thread in games:
                    row = await bot.store.get_game(row.id)
                    game = engine.get_game(row.game)
                    state = game.from_json(row.state)
                    if row.status != "active":
                        continue
                    (player,) = game.awaited(state)
                    before = len(fake.messages(thread))
                    res = await command(fake, int(player), "move",
                                        {"move": str(game.legal_actions(state, player)[0])},
                                        channel=thread)
                    assert any("Played" in m.text for m in res.messages), res.messages
                    await fake.wait_for(lambda: len(fake.messages(thread)) > before, timeout=10)
                    await asyncio.sleep(0.3)   # (the worker's look after the delivery)
                    done += 1
            counts = dict(TRIPS)
    return counts


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=40)
    args = p.parse_args()
    if pg.pg_bin() is None:
        print("skipped: no Debian PostgreSQL to start")
        return
    server = pg.Server()
    server.start()
    counting()
    try:
        with tempfile.TemporaryDirectory() as folder:
            counts = asyncio.run(play(server.database("trips"), args.moves, Path(folder)))
    finally:
        server.stop()
    total = sum(counts.values())
    print(f"round trips per move: {total / args.moves:.1f} "   # (__aexit__: COMMIT or ROLLBACK)
          f"({', '.join(f'{k} {v / args.moves:.1f}' for k, v in sorted(counts.items()))})")


if __name__ == "__main__":
    main()
