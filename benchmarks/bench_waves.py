"""Waves of moves through real bot processes: one on SQLite, then one, two and four on
PostgreSQL (shard ranges), against the fake Discord in this process (apart from every bot).

    .venv/bin/python benchmarks/bench_waves.py [--quick] [--setups sqlite1,pg1,pg2,pg4]
                                               [--waves 3] [--pace-seconds 30]

For each setup: 60 Relativity games (two players moving in turn: every move changes the board
in the game's thread) spread over the processes' servers, then
- waves of 20 and of 60 simultaneous moves (one in each of 20 or 60 games at the same instant),
  `--waves` times each: moves per second (the wave's moves over the time to its last board)
  and move -> board p50/p95 (from the /move sent to the first board image posted or edited
  into the game's thread after it, as the fake Discord received it);
- 50 of the games (`--pace-games`) at a human pace for `--pace-seconds` (each player thinks 2-20 s);
- the event loop's CPU time per move: the CPU time of each bot process's main thread (which
  runs the loop; boards are drawn in its workers), from /proc, less what the loops take when
  idle (measured for 2 s before the waves), over the moves;
- on PostgreSQL, its count of transactions committed per move at the human pace (a statement
  outside a transaction counts one), from the server's statistics;
- autocomplete latency: all along the waves another player, in a game of their own that does
  not move, types into /move's option; from the interaction sent to its answer received.

The bots are `python -m bot` processes configured by environment variables only, as an admin
runs them (PostgreSQL: a throwaway cluster of Debian's packages, as the tests start it). This
process runs the fake Discord and the players: its own work (reading uploads) is not in the
bots' CPU figures, but it shares the machine's cores with them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.rendering import default_workers  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.workers import cores  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

# Relativity: two players moving in turn, so that every move changes the board in the thread
# (Galaxies' and Global Warming's secret choices change no board until all have chosen).
GAMES = ["relativity"]
SETUPS = {"sqlite1": ("sqlite", 1), "pg1": ("postgresql", 1), "pg2": ("postgresql", 2),
          "pg4": ("postgresql", 4)}
WAVES = (20, 60)
IDLE_SECONDS = 2.0        # the bots' loops measured idle, before the waves
AUTOCOMPLETE_GAP = 0.02   # seconds between one autocomplete answered and the next typed

TARGET_PG_RATIO = 1.3        # PostgreSQL's move -> board p95 over SQLite's, one process
TARGET_TWO_PROCESSES = 1.7   # moves/s of two processes over one, where the cores allow
TARGET_AUTOCOMPLETE = 0.050  # p95 during waves
TARGET_WAVE60_P95 = 0.300    # four processes


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def loop_cpu(pid: int) -> float:
    """CPU seconds of a process's main thread (the bot's event loop), from the scheduler."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


async def transactions(database: str) -> int:
    """PostgreSQL's count of transactions committed in the database so far (a statement outside
    a transaction is one); 0 on SQLite."""
    if "://" not in database:
        return 0
    import asyncpg

    conn = await asyncpg.connect(database)
    try:
        return await conn.fetchval("SELECT pg_stat_get_db_xact_commit(oid) FROM pg_database "
                                   "WHERE datname = current_database()") - 1   # (this one)
    finally:
        await conn.close()


class Bots:
    """`count` bot processes, process i running shard i of `count`, on one database."""

    def __init__(self, fake: FakeDiscord, database: str, count: int, folder: Path):
        self.fake, self.database, self.count, self.folder = fake, database, count, folder
        self.procs: list[asyncio.subprocess.Process] = []
        self.logs: list[Path] = []

    async def start(self) -> None:
        for i in range(self.count):
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
                "DISCORD_TOKEN": self.fake.token, "DISCORD_API_BASE": self.fake.base_url,
                "DISCORD_GATEWAY_URL": self.fake.gateway_url, "PIECEPACK_DB": self.database,
                "PIECEPACK_HEALTH_FILE": str(self.folder / f"bot{i}.health"),
                "PIECEPACK_GUILD_READY_TIMEOUT": "0.05", "PIECEPACK_IDENTIFY_SPACING": "0",
                "LOG_LEVEL": "WARNING",
            }
            if "PIECEPACK_RENDER_WORKERS" in os.environ:
                env["PIECEPACK_RENDER_WORKERS"] = os.environ["PIECEPACK_RENDER_WORKERS"]
            if self.count > 1:
                env.update(PIECEPACK_SHARD_COUNT=str(self.count), PIECEPACK_SHARDS=str(i))
            log = self.folder / f"bot{i}.log"
            self.logs.append(log)
            with open(log, "wb") as out:
                self.procs.append(await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=self.folder, env=env, stdout=out,
                    stderr=asyncio.subprocess.STDOUT))
        fake = self.fake
        try:
            await fake.wait_for(lambda: sum(s.ready for s in fake._sessions) >= self.count, 90)
            await fake.wait_for(lambda: fake.command_publishes >= 1, 30)
        except Exception:
            for log in self.logs:
                print(log.read_text()[-2000:], file=sys.stderr)
            raise

    def loop_cpu(self) -> float:
        return sum(loop_cpu(p.pid) for p in self.procs)

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.returncode is None:
                proc.terminate()
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()


class Table:
    """One game in play: its players, server channel and thread."""

    def __init__(self, fake: FakeDiscord, store: Store, name: str, channel: str, n: int):
        self.fake, self.store, self.name, self.channel = fake, store, name, channel
        self.players = [fake.add_user(f"t{n}p{i}") for i in range(2)]
        self.game = engine.get_game(name)
        self.id: int | None = None
        self.thread: str | None = None

    async def open(self) -> None:
        host, guest = self.players
        lobby = (await (await self.fake.slash(host, "play", {"game": self.name},
                                              channel=self.channel)).done(30)).original
        await (await self.fake.click(guest, lobby.button("Join"), message_id=lobby.id)).done(30)
        row = (await self.store.games_of_user(int(host)))[-1]
        if row.status == "lobby":
            await (await self.fake.click(host, lobby.button("Start"), message_id=lobby.id)).done(30)
            row = await self.store.get_game(row.id)
        self.id, self.thread = row.id, str(row.thread_id)
        await self.fake.wait_for(lambda: self.images(), 60)

    def images(self) -> set[str]:
        """The ids of the images in the thread's latest messages."""
        return {a.id for m in self.fake.messages(self.thread)[-6:] for a in m.files}

    def new_board(self, before: set[str]) -> float | None:
        """When the fake received a board image not among `before` (posted or edited in)."""
        return min((m.edited_at or m.created_at for m in self.fake.messages(self.thread)[-6:]
                    if any(a.id not in before for a in m.files)), default=None)

    async def next_move(self, rng: random.Random) -> tuple[str, str] | None:
        """(player, move) for the player to move; None when the game is over."""
        row = await self.store.get_game(self.id)
        if row.status != "active":
            return None
        state = self.game.from_json(row.state)
        player = rng.choice(sorted(self.game.awaited(state)) or sorted(self.game.to_act(state)))
        return player, str(rng.choice(self.game.legal_actions(state, player)))

    async def move(self, rng: random.Random) -> float | None:
        """One /move; the seconds from it to its board in the thread (None: the game was over)."""
        move = await self.next_move(rng)
        if move is None:
            return None
        player, text = move
        before, start = self.images(), time.perf_counter()
        res = await self.fake.slash(player, "move", {"move": text}, channel=self.thread)
        await res.done(30)
        board = await self.fake.wait_for(lambda: self.new_board(before), 60)
        return board - start


class Ticker:
    """A 1 ms ticker on this process's loop: how late the fake Discord itself is (it stamps
    the interactions' times, so its lateness is in the autocomplete figures)."""

    def __init__(self):
        self.gaps: list[float] = []
        self.task: asyncio.Task | None = None

    async def _tick(self) -> None:
        last = time.perf_counter()
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.gaps.append(now - last - 0.001)
            last = now

    def start(self) -> None:
        self.task = asyncio.create_task(self._tick())

    def stop(self) -> None:
        self.task.cancel()


class Typist:
    """A player typing into /move's option in a game that does not move, one request at a time."""

    def __init__(self, fake: FakeDiscord, table: Table):
        self.fake, self.table = fake, table
        self.latencies: list[float] = []
        self.running = False
        self.task: asyncio.Task | None = None

    async def _type(self) -> None:
        user = self.table.players[0]
        while self.running:
            choices = await self.fake.autocomplete(user, "move", {"move": "a"}, focused="move",
                                                   channel=self.table.thread)
            assert choices is not None
            res = next(r for r in reversed(self.fake.interactions) if r.user_id == user)
            self.latencies.append(res.responded_at - res.dispatched_at)
            await asyncio.sleep(AUTOCOMPLETE_GAP)

    def start(self) -> None:
        self.running = True
        self.task = asyncio.create_task(self._type())

    async def stop(self) -> None:
        self.running = False
        await self.task


async def setup_run(engine_name: str, processes: int, args, pg_server, folder: Path) -> dict:
    fake = FakeDiscord(response_deadline=30.0)
    await fake.start()
    if engine_name == "sqlite":
        database = str(folder / "bench.sqlite3")
    else:
        database = pg_server.database(f"{folder}/waves-{processes}")
    bots = Bots(fake, database, processes, folder)
    channels = [fake.channel_id] if processes == 1 else [
        fake.add_channel("games", guild=fake.add_guild(f"Club {i}", shard=i, shard_count=processes))
        for i in range(processes)]
    result: dict = {"waves": {}, "autocomplete": []}
    store = None
    try:
        await bots.start()
        store = await Store.open(database)
        count = max(args.wave_sizes + [args.pace_games if args.pace_seconds else 0])
        tables = [Table(fake, store, GAMES[n % len(GAMES)], channels[n % len(channels)], n)
                  for n in range(count)]
        idle = [Table(fake, store, "relativity", channel, count + i) for i, channel in enumerate(channels)]
        for start in range(0, len(tables + idle), 10):   # (ten at a time: a start-up, not timed)
            await asyncio.gather(*(t.open() for t in (tables + idle)[start:start + 10]))
        await asyncio.sleep(1.0)   # (the openings' aftermath settles)
        cpu_before = bots.loop_cpu()
        await asyncio.sleep(IDLE_SECONDS)
        idle_cpu = (bots.loop_cpu() - cpu_before) / IDLE_SECONDS   # seconds per second, all bots
        result["idle_cpu"] = idle_cpu / processes
        rng = random.Random(args.seed)
        typists = [Typist(fake, table) for table in idle]
        ticker = Ticker()
        for size in args.wave_sizes:
            boards, rates, cpu = [], [], []
            for _ in range(args.waves):
                for table in tables[:size]:   # a game that ended makes way for a new one
                    if (await store.get_game(table.id)).status != "active":
                        await table.open()
                await asyncio.sleep(0.5)   # the last wave's aftermath (notices, edits) settles
                for typist in typists:
                    typist.start()
                ticker.start()
                await asyncio.sleep(0.2)
                cpu_before, started = bots.loop_cpu(), time.perf_counter()
                times = await asyncio.gather(*(t.move(random.Random(rng.random()))
                                               for t in tables[:size]))
                elapsed = time.perf_counter() - started
                cpu.append(bots.loop_cpu() - cpu_before - idle_cpu * elapsed)
                for typist in typists:
                    await typist.stop()
                ticker.stop()
                times = [t for t in times if t is not None]
                boards += times
                rates.append(len(times) / elapsed)
            result["waves"][size] = {"boards": boards, "rate": statistics.median(rates),
                                     "cpu": sum(cpu) / max(1, len(boards))}
        result["autocomplete"] = [x for t in typists for x in t.latencies]
        result["fake_stalls"] = ticker.gaps
        if args.pace_seconds:
            xacts_before = await transactions(database)
            result["pace"] = await human_pace(tables[:args.pace_games], bots, args, rng, idle_cpu)
            await asyncio.sleep(1.5)   # (the last deliveries; the server counts each second)
            result["pace"]["xacts"] = ((await transactions(database) - xacts_before)
                                       / max(1, len(result["pace"]["boards"])))
    finally:
        if store is not None:
            await store.close()
        await bots.stop()
        await fake.stop()
    return result


async def human_pace(tables: list[Table], bots: Bots, args, rng: random.Random,
                     idle_cpu: float) -> dict:
    boards: list[float] = []
    until = time.perf_counter() + args.pace_seconds

    async def play(table: Table, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, 10))
        while time.perf_counter() < until:
            took = await table.move(rng)
            if took is None:
                await table.open()
            else:
                boards.append(took)
            await asyncio.sleep(rng.uniform(2, 20))

    cpu_before, started = bots.loop_cpu(), time.perf_counter()
    await asyncio.gather(*(play(t, random.Random(rng.random())) for t in tables))
    elapsed = time.perf_counter() - started
    return {"boards": boards, "rate": len(boards) / elapsed,
            "cpu": (bots.loop_cpu() - cpu_before - idle_cpu * elapsed) / max(1, len(boards))}


def report(results: dict, args) -> bool:
    """Prints the figures and targets; False if a target was missed."""
    here = cores()
    print(f"\nmachine: {here} cores, {os.cpu_count()} in all; load average at the end "
          f"{load_average()}; render workers per process: "
          f"{os.environ.get('PIECEPACK_RENDER_WORKERS') or default_workers(here)}")
    print(f"{'setup':<22} {'what':<16} {'moves/s':>8} {'p50':>8} {'p95':>8}  loop CPU/move"
          f"  PostgreSQL transactions/move")
    for key, result in results.items():
        engine_name, processes = SETUPS[key]
        label = f"{processes} process{'es' if processes > 1 else ''}, {engine_name}"
        rows = [(f"wave of {size}", r) for size, r in result["waves"].items()]
        if "pace" in result:
            rows.append((f"{args.pace_games} games, pace", result["pace"]))
        for what, r in rows:
            print(f"{label:<22} {what:<16} {r['rate']:8.1f} {ms(percentile(r['boards'], .5)):>8} "
                  f"{ms(percentile(r['boards'], .95)):>8}  {r['cpu'] * 1000:8.1f} ms"
                  + (f"  {r['xacts']:.1f}" if r.get("xacts") else ""))
            label = ""
        print(f"{'':<22} (an idle loop takes {result['idle_cpu'] * 1000:.1f} ms of CPU a second "
              f"per process: not in the figures per move)")
        auto = result["autocomplete"]
        if auto:
            print(f"{'':<22} autocomplete during the waves ({len(auto)}): p50 "
                  f"{ms(percentile(auto, .5))}, p95 {ms(percentile(auto, .95))}, max {ms(max(auto))}")
            stalls = result["fake_stalls"]
            print(f"{'':<22} (the fake Discord's own loop meanwhile, which stamps them: late by "
                  f"p95 {ms(percentile(stalls, .95))}, max {ms(max(stalls))})")

    print("\ntargets, on this machine:")
    missed = []

    def target(line: str) -> None:
        print(line)
        missed.append("MISSED" in line)

    target(f"- render pool from the cores: {default_workers(here)} workers on {here} cores "
          f"(PIECEPACK_RENDER_WORKERS sets it): met")
    big = max(args.wave_sizes)

    def p95(key, size=big):
        return percentile(results[key]["waves"][size]["boards"], .95)

    if "sqlite1" in results and "pg1" in results:
        slower = p95("pg1") / p95("sqlite1")
        fewer = results["sqlite1"]["waves"][big]["rate"] / results["pg1"]["waves"][big]["rate"]
        met = max(slower, fewer) <= TARGET_PG_RATIO
        target(f"- PostgreSQL within {TARGET_PG_RATIO}x of SQLite, one process (wave of {big}): "
              f"p95 {slower:.2f}x SQLite's, moves/s {1 / fewer:.2f}x: {'met' if met else 'MISSED'}")
    if "pg1" in results and "pg2" in results:
        ratio = results["pg2"]["waves"][big]["rate"] / results["pg1"]["waves"][big]["rate"]
        verdict = ("met" if ratio >= TARGET_TWO_PROCESSES else
                   "MISSED" if here >= 4 else f"not possible here: {here} cores shared by the "
                   f"bots, their render workers, PostgreSQL and the fake Discord")
        target(f"- two processes >= {TARGET_TWO_PROCESSES}x the moves/s of one (wave of {big}): "
              f"{ratio:.2f}x: {verdict}")
    for key, result in results.items():
        auto = result["autocomplete"]
        if not auto:
            continue
        worst, (engine_name, processes) = percentile(auto, .95), SETUPS[key]
        busy = processes * (1 + default_workers(here)) + (engine_name == "postgresql") > here + 1
        verdict = ("met" if worst <= TARGET_AUTOCOMPLETE else
                   "MISSED, where the bots' loops, their render workers and PostgreSQL outnumber "
                   f"the {here} cores: its few steps wait for a core" if busy else "MISSED")
        target(f"- autocomplete within {ms(TARGET_AUTOCOMPLETE)} during a wave, {key}: p95 "
              f"{ms(worst)}: {verdict}")
    if "pg4" in results and 60 in results["pg4"]["waves"]:
        worst = p95("pg4", 60)
        verdict = ("met" if worst < TARGET_WAVE60_P95 else "MISSED" if here >= 8 else
                   f"MISSED, and not possible here: four processes share {here} cores, each "
                   f"board takes about 15 ms of a core to draw")
        target(f"- wave of 60 on four processes, p95 under {ms(TARGET_WAVE60_P95)}: "
              f"{ms(worst)}: {verdict}")
    return not any(missed)


async def run(args) -> int:
    results = {}
    pg_server = None
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for key in args.setups:
                engine_name, processes = SETUPS[key]
                if engine_name == "postgresql" and pg_server is None:
                    from tests import pg

                    if not pg.available():
                        print(f"{key}: skipped, {pg.SKIPPED}")
                        continue
                    pg_server = pg.Server()
                    pg_server.start()
                folder = Path(tmp) / key
                folder.mkdir()
                started = time.perf_counter()
                results[key] = await setup_run(engine_name, processes, args, pg_server, folder)
                print(f"{key}: done in {time.perf_counter() - started:.0f} s (load {load_average()})",
                      flush=True)
        finally:
            if pg_server is not None:
                pg_server.stop()
    return 0 if report(results, args) else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default=",".join(SETUPS),
                        help=f"comma-separated, of {', '.join(SETUPS)}")
    parser.add_argument("--waves", type=int, default=3, help="waves of each size")
    parser.add_argument("--wave-sizes", default="20,60")
    parser.add_argument("--pace-seconds", type=float, default=30.0,
                        help="how long the games play at a human pace (0: skip)")
    parser.add_argument("--pace-games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="a small subset: SQLite and two processes on PostgreSQL, one wave "
                             "of 20, 20 games at a human pace for 10 s")
    args = parser.parse_args()
    if args.quick:
        (args.setups, args.waves, args.wave_sizes, args.pace_seconds,
         args.pace_games) = "sqlite1,pg2", 1, "20", 10.0, 20
    args.setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = [s for s in args.setups if s not in SETUPS]
    if unknown:
        parser.error(f"unknown setups {unknown}: choose from {', '.join(SETUPS)}")
    args.wave_sizes = [int(n) for n in str(args.wave_sizes).split(",")]
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
