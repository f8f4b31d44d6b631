"""The bot as real `python -m bot` processes against the fake Discord, configured only by
environment variables: one process of every shard (the default), or a public instance's two
processes (shards 0 and 1 of 2) on one PostgreSQL (issue 22). Shared by the process tests."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from bot.workers import running
from tests.pg import database_for

ROOT = Path(__file__).resolve().parents[1]
LEASE = 2.0   # a killed process's claims lapse fast (the default is 30 s)


class BotProcess:
    def __init__(self, fake, db: Path, cwd: Path):
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.base_url,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "PIECEPACK_DB": database_for(db),
            "PIECEPACK_HEALTH_FILE": f"{db}.health",
            "PIECEPACK_GUILD_READY_TIMEOUT": "0.05",
            "PIECEPACK_IDENTIFY_SPACING": "0",   # (Discord's 5 s between IDENTIFYs: not in tests)
            "LOG_LEVEL": "DEBUG",
        }
        self.cwd, self.fake = cwd, fake
        self.output = bytearray()
        self.shard = 0   # (the first of the shards it runs)

    async def __aenter__(self):
        # (a session of the fake newer than this is this process's, or a later one's)
        self.after = max((s.number for s in self.fake._sessions), default=0)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.cwd, env=self.env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        self.reader = asyncio.create_task(self._read())
        return self

    async def _read(self):
        while chunk := await self.proc.stdout.read(65536):
            self.output += chunk

    async def stop(self) -> int:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(self.proc.wait(), 20)
        await asyncio.wait_for(self.reader, 10)
        return code

    async def __aexit__(self, *exc):
        if self.proc.returncode is None:
            await self.kill()

    async def kill(self) -> None:
        """kill -9, and whatever it started that still runs: a worker process that outlives it
        would hold its output pipe, and waiting for the process would then wait for ever (its
        workers ending by themselves is `kill_9`'s check, not this one's)."""
        workers = descendants(self.proc.pid)
        self.proc.kill()
        while self.proc.returncode is None:   # (set at its exit, whoever holds the pipe)
            await asyncio.sleep(0.01)
        end(workers)
        await asyncio.wait_for(self.reader, 10)


class Shard(BotProcess):
    """One process of a public instance: `shard` of 2, its claims lapsing after LEASE."""

    def __init__(self, fake, db, cwd, shard: int):
        super().__init__(fake, db, cwd)
        self.env.update({"PIECEPACK_SHARD_COUNT": "2", "PIECEPACK_SHARDS": str(shard),
                         "PIECEPACK_LEASE_SECONDS": str(LEASE), "PIECEPACK_RENDER": "thread",
                         "LOG_LEVEL": "INFO", "PIECEPACK_HEALTH_FILE": f"{db}.{shard}.health"})
        self.shard = shard


async def up(fake, process: BotProcess) -> None:
    """Wait until `process` has connected its shard."""
    await fake.wait_for(lambda: process.proc.returncode is not None or any(
        s.ready and not s.ws.closed and s.shard[0] == process.shard and s.number > process.after
        for s in fake._sessions),
        timeout=30)
    assert process.proc.returncode is None, process.output.decode(errors="replace")


def descendants(pid: int) -> list[int]:
    """The processes started by `pid` and by them (Linux /proc)."""
    out = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in children.read_text().split():
            out += [int(child)] + descendants(int(child))
    return out


async def kill_9(proc: BotProcess, fake) -> None:
    """kill -9 the bot. Its worker processes (render pool, fork server) end by themselves:
    they used to outlive it, holding its output pipe open."""
    workers = descendants(proc.proc.pid)
    proc.proc.kill()
    await fake.wait_for(lambda: proc.proc.returncode is not None, timeout=10)
    try:
        await fake.wait_for(lambda: not any(running(pid) for pid in workers), timeout=30)
    finally:
        end(workers)   # (whatever happened, leave nothing running)
    proc.reader.cancel()


def end(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class Instance:
    """The bot as a test's setup runs it: one process (`processes=1`, all shards), or two
    (shards 0 and 1 of 2, on the test's PostgreSQL database), whose fake Discord must then put
    the servers on shard 1 (FakeDiscord(guild_shard=(1, 2))) so that the games' servers and the
    DMs are served by different processes. `processes[i]` is the process of shard i."""

    def __init__(self, fake, db: Path, cwd: Path, processes: int = 1):
        self.fake, self.db, self.cwd, self.count = fake, db, cwd, processes
        self.processes: list[BotProcess] = [self._new(i) for i in range(processes)]
        self.stopped: list[BotProcess] = []   # (their output stays readable)

    def _new(self, shard: int) -> BotProcess:
        if self.count == 1:
            return BotProcess(self.fake, self.db, self.cwd)
        return Shard(self.fake, self.db, self.cwd, shard)

    @property
    def server_shard(self) -> int:
        """The shard of the games' servers (so the process that serves them)."""
        return self.count - 1

    async def __aenter__(self):
        for process in self.processes:
            await process.__aenter__()
        for process in self.processes:
            await up(self.fake, process)
        return self

    async def __aexit__(self, *exc):
        for process in self.processes:
            await process.__aexit__()

    async def stop(self) -> list[int]:
        """SIGTERM every process: their exit codes."""
        self.stopped += self.processes
        return [await process.stop() for process in self.processes]

    async def kill_9(self, shard: int = 0) -> None:
        """kill -9 the process of `shard` and start it again; the others run on."""
        old = self.processes[shard]
        await kill_9(old, self.fake)
        self.stopped.append(old)
        self.processes[shard] = new = self._new(shard)
        await new.__aenter__()
        await up(self.fake, new)

    def output(self) -> str:
        return b"".join(bytes(p.output) for p in self.stopped + self.processes).decode(errors="replace")

    def health_envs(self) -> list[dict]:
        """The environment of each process (`python -m bot health` reads its health file)."""
        return [p.env for p in self.processes]


async def poll(check, *, timeout: float):
    """Wait until the coroutine `check()` gives something true."""
    deadline = time.monotonic() + timeout
    while True:
        value = await check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s: {check} gave {value!r}")
        await asyncio.sleep(0.05)
