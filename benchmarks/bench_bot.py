"""The bot at scale: many games at once, driven through the in-process fake Discord.

    .venv/bin/python benchmarks/bench_bot.py [--games 50] [--seconds 60] [--long 1000]

Part 1: `--games` games of mixed kinds (GAMES, one line per game) open, then play at once for
`--seconds`: players think for 1 to `--max-ticks` ticks (`--tick` seconds each), so on every tick
several games move at the same moment (about games / (max_ticks / 2) of them). Each move is a /move in the game's thread. Printed: the time
from a move to its board delivered (the new image posted or edited in), p50/p95/p99; the first
answer to the interaction; the longest stall of a 1 ms ticker on the event loop; database
bytes per move; the memory of the bot's process (which also runs the fake Discord) and of its
render workers.

Part 2: one Relativity game kept going (no scoring while avoidable) for `--long` moves; the
database's growth per move over its last 100 moves.

The bot draws its boards as it does in production (worker processes). The fake Discord runs in
the same process and event loop, so its own work is in every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sqlite3
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

# One line per game: its name and how many players sit at each table.
GAMES = [
    ("relativity", 2),
    ("global-warming", 4),
    ("galaxies", 2),
]

TARGET_P95 = 0.300
TARGET_P99 = 1.0
TARGET_BYTES_PER_MOVE = 5 * 1024


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def rss_kib(pid: int | str = "self") -> tuple[int, int]:
    """(current, peak) resident memory of a process in KiB, from /proc (0, 0 elsewhere)."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    except OSError:
        return 0, 0
    return int(fields["VmRSS"].split()[0]), int(fields.get("VmHWM", "0 kB").split()[0])


def db_bytes(path: Path) -> int:
    """The database's size with its write-ahead log folded in (checkpointed first)."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path.stat().st_size


class Watch:
    """Counts of board notices queued and delivered per game (from the store and the
    dispatcher, wrapped), and when the last board of a game was delivered."""

    def __init__(self, bot: PiecepackBot):
        self.queued: dict[int, int] = {}
        self.delivered: dict[int, int] = {}
        self.changed = asyncio.Event()
        store, delivery = bot.store, bot.delivery
        commit, deliver = store.commit, delivery.deliver

        async def counting_commit(game_id, *args, **kwargs):
            version = await commit(game_id, *args, **kwargs)
            boards = sum("board" in n.payload for n in kwargs.get("notices", ()))
            self.queued[game_id] = self.queued.get(game_id, 0) + boards
            return version

        async def counting_deliver(item):
            sent = await deliver(item)
            if "board" in item.payload and item.game_id is not None:
                self.delivered[item.game_id] = self.delivered.get(item.game_id, 0) + 1
                self.changed.set()
                self.changed = asyncio.Event()
            return sent

        store.commit = counting_commit
        delivery.deliver = counting_deliver

    async def boards_out(self, game_id: int, timeout: float = 30.0) -> None:
        """Wait until every board queued for the game so far has been delivered."""
        deadline = time.perf_counter() + timeout
        while self.delivered.get(game_id, 0) < self.queued.get(game_id, 0):
            if time.perf_counter() > deadline:
                raise TimeoutError(f"game {game_id}: boards not delivered")
            event = self.changed
            try:
                await asyncio.wait_for(event.wait(), 0.05)
            except asyncio.TimeoutError:
                pass


class Table:
    """One game in play: its players and thread."""

    def __init__(self, fake, bot, name: str, players: list[str]):
        self.fake, self.bot, self.name, self.players = fake, bot, name, players
        self.game = engine.get_game(name)
        self.id: int | None = None
        self.thread: str | None = None

    async def open(self) -> None:
        host, *guests = self.players
        res = await self.fake.slash(host, "play", {"game": self.name})
        lobby = (await res.done(30)).original
        for guest in guests:
            await (await self.fake.click(guest, lobby.button("Join"), message_id=lobby.id)).done(30)
        row = (await self.bot.store.games_of_user(int(host)))[-1]
        if row.status == "lobby":
            await (await self.fake.click(host, lobby.button("Start"), message_id=lobby.id)).done(30)
            row = await self.bot.store.get_game(row.id)
        self.id, self.thread = row.id, str(row.thread_id)

    async def next_move(self, rng: random.Random) -> tuple[str, str] | None:
        """(player, move text) for a player the game waits on; None when the game is over."""
        row = await self.bot.store.get_game(self.id)
        if row.status != "active":
            return None
        state = self.game.from_json(row.state)
        waiting = list(self.game.awaited(state)) or list(self.game.to_act(state))
        player = rng.choice(waiting)
        return player, str(rng.choice(self.game.legal_actions(state, player)))


async def drive(table: Table, watch: Watch, rng: random.Random, tick: float, max_ticks: int,
                until: float, results: dict) -> None:
    """Play `table` until `until`: think a random number of ticks, move, time the board."""
    while time.perf_counter() < until:
        await asyncio.sleep(tick * rng.randint(1, max_ticks))
        move = await table.next_move(rng)
        if move is None:   # over: a new game at the same table
            await table.open()
            continue
        player, text = move
        queued = watch.queued.get(table.id, 0)
        start = time.perf_counter()
        res = await table.fake.slash(player, "move", {"move": text}, channel=table.thread)
        await res.done(30)
        if res.responded_at is not None:
            results["first"].append(res.responded_at - res.dispatched_at)
        if watch.queued.get(table.id, 0) > queued:   # this move changed a board: time it
            await watch.boards_out(table.id)
            results["board"].append(time.perf_counter() - start)
        results["moves"] += 1


async def ticker(gaps: list[float], stop: asyncio.Event) -> None:
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now


async def many_games(fake, bot, db: Path, games: int, seconds: float, tick: float,
                     max_ticks: int, seed: int) -> bool:
    watch = Watch(bot)
    rng = random.Random(seed)
    tables = []
    for n in range(games):
        name, seats = GAMES[n % len(GAMES)]
        players = [fake.add_user(f"g{n}p{i}") for i in range(seats)]
        tables.append(Table(fake, bot, name, players))
    # All games open first (their first boards drawn), then play is timed.
    await asyncio.gather(*(table.open() for table in tables))
    await asyncio.gather(*(watch.boards_out(table.id, timeout=300) for table in tables))
    idle: list[float] = []
    stop = asyncio.Event()
    idle_task = asyncio.create_task(ticker(idle, stop))
    await asyncio.sleep(1.0)
    stop.set()
    await idle_task

    size_before = db_bytes(db)
    results: dict = {"first": [], "board": [], "moves": 0}
    gaps: list[float] = []
    stop = asyncio.Event()
    tick_task = asyncio.create_task(ticker(gaps, stop))
    until = time.perf_counter() + seconds
    started, loop_cpu = time.perf_counter(), time.thread_time()
    await asyncio.gather(*(drive(t, watch, random.Random(rng.random()), tick, max_ticks, until, results)
                           for t in tables))
    elapsed, loop_cpu = time.perf_counter() - started, time.thread_time() - loop_cpu
    stop.set()
    await tick_task
    size_after = db_bytes(db)

    board, first = results["board"], results["first"]
    kinds = ", ".join(f"{name} ({seats} players)" for name, seats in GAMES)
    print(f"{games} games at once ({kinds}), {results['moves']} moves in {elapsed:.0f} s "
          f"({results['moves'] / elapsed:.1f} moves/s; each game moves every 1-{max_ticks} ticks "
          f"of {tick} s)")

    def line(label, values):
        return (f"  {label:<24} p50 {percentile(values, .5) * 1000:6.0f} ms   "
                f"p95 {percentile(values, .95) * 1000:6.0f} ms   "
                f"p99 {percentile(values, .99) * 1000:6.0f} ms   max {max(values) * 1000:6.0f} ms")

    print(line("move -> first answer", first))
    print(line(f"move -> board ({len(board)})", board))
    stall = (max(gaps) - 0.001) * 1000
    print(f"  event loop: longest stall {stall:.1f} ms, p99.9 "
          f"{(percentile(gaps, .999) - 0.001) * 1000:.1f} ms "
          f"(idle, before play: longest {(max(idle) - 0.001) * 1000:.1f} ms); the loop thread's CPU "
          f"{loop_cpu / max(1, results['moves']) * 1000:.1f} ms per move (bot, fake Discord and "
          f"ticker; boards are drawn in the workers)")
    print(f"  database: {(size_after - size_before) / max(1, results['moves']) / 1024:.1f} KiB "
          f"per move ({size_after / 1024 / 1024:.1f} MiB in all)")
    own, peak = rss_kib()
    workers = [rss_kib(pid)[0] for pid in getattr(bot.renderer._pool, "_processes", {}) or {}]
    print(f"  memory: bot process (with the fake Discord) {own / 1024:.0f} MiB (peak "
          f"{peak / 1024:.0f} MiB); {len(workers)} render workers "
          f"{sum(workers) / 1024:.0f} MiB together")
    p95, p99 = percentile(board, .95), percentile(board, .99)
    met = p95 < TARGET_P95 and p99 < TARGET_P99
    print(f"  targets: p95 < {TARGET_P95 * 1000:.0f} ms, p99 < {TARGET_P99 * 1000:.0f} ms: "
          f"{'met' if met else 'MISSED'}")
    return met


async def long_game(fake, bot, db: Path, moves: int, seed: int) -> bool:
    """One Relativity game kept going for `moves` moves; DB growth over the last 100."""
    game = engine.get_game("relativity")
    watch = Watch(bot)
    table = Table(fake, bot, "relativity", [fake.add_user(f"long{i}") for i in range(2)])
    await table.open()
    rng = random.Random(seed)
    sizes = {}
    for move in range(1, moves + 1):
        row = await bot.store.get_game(table.id)
        state = game.from_json(row.state)
        if row.status != "active":
            print(f"  the long game ended at move {move - 1}")
            return False
        (player,) = game.to_act(state)
        actions = game.legal_actions(state, player)
        rng.shuffle(actions)
        scores = game.scores(state)
        quiet = next((a for a in actions if game.scores(after := game.apply(state, player, a)) == scores
                      and game.outcome(after) is None), actions[0])
        res = await fake.slash(player, "move", {"move": str(quiet)}, channel=table.thread)
        await res.done(30)
        await watch.boards_out(table.id)
        if move in (moves - 100, moves):
            await bot.run_due()
            sizes[move] = db_bytes(db)
    growth = (sizes[moves] - sizes[moves - 100]) / 100
    met = growth <= TARGET_BYTES_PER_MOVE
    print(f"One Relativity game of {moves} moves: the database grows {growth / 1024:.2f} KiB per "
          f"move over moves {moves - 100}-{moves} (target <= {TARGET_BYTES_PER_MOVE // 1024} KiB: "
          f"{'met' if met else 'MISSED'}); {sizes[moves] / 1024 / 1024:.1f} MiB in all")
    return met


async def run(args) -> int:
    fake = FakeDiscord()
    await fake.start()
    fake.patch_discord()
    ok = True
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for part in ("many", "long"):
                if (part == "many" and not args.games) or (part == "long" and not args.long):
                    continue
                db = Path(tmp) / f"{part}.sqlite3"
                settings = Settings(token=fake.token, db_path=str(db), guild_ready_timeout=0.05,
                                    log_level="WARNING")
                bot = PiecepackBot(settings)
                task = asyncio.create_task(bot.start(fake.token))
                await fake.wait_ready(10)
                await bot.wait_until_ready()
                try:
                    if part == "many":
                        ok &= await many_games(fake, bot, db, args.games, args.seconds, args.tick,
                                               args.max_ticks, args.seed)
                    else:
                        ok &= await long_game(fake, bot, db, args.long, args.seed)
                finally:
                    await bot.close()
                    await task
    finally:
        await fake.stop()
    return 0 if ok else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games at once (0: skip)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--tick", type=float, default=2.0, help="seconds per thinking tick")
    parser.add_argument("--max-ticks", type=int, default=10, help="longest thought, in ticks")
    parser.add_argument("--long", type=int, default=1000, help="moves of the long game (0: skip)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
