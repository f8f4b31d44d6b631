"""`docker stop` (SIGTERM, then SIGKILL after 10 s) stops `python -m bot` in time whatever its
connection to Discord is doing, and the database is closed cleanly with nothing lost."""

from __future__ import annotations

import asyncio
import re
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from tests.botkit import command, fake_discord
from tests.processes import BotProcess

STOP_SECONDS = 4.0   # well within Docker's 10 s grace, with room for a busy machine


class Cable:
    """A TCP relay between the bot and the fake Discord that can be cut like a network that
    stops answering: connections stay open, and nothing more gets through either way."""

    def __init__(self, port: int):
        self.port = port
        self.cut = asyncio.Event()
        self.tasks: set[asyncio.Task] = set()
        self.writers: list[asyncio.StreamWriter] = []

    async def __aenter__(self) -> Cable:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.relay_port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        for task in self.tasks:
            task.cancel()
        for writer in self.writers:
            writer.close()

    async def _relay(self, reader, writer) -> None:
        try:
            far_reader, far_writer = await asyncio.open_connection("127.0.0.1", self.port)
        except OSError:   # the far side is down: so is this connection, as through a proxy
            writer.close()
            return
        self.writers += [writer, far_writer]
        for source, sink in ((reader, far_writer), (far_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink))
            self.tasks.add(task)

    async def _pump(self, source, sink) -> None:
        while data := await source.read(65536):
            if self.cut.is_set():
                await asyncio.Event().wait()   # held for ever: the far side hears nothing
            sink.write(data)
            await sink.drain()
        sink.close()   # one side closed: so is the other, as through a proxy (the bot would
        # otherwise reuse a dead kept-alive connection for its next gateway connection)


async def silent_listener(port: int) -> tuple[asyncio.Server, list]:
    """Accepts connections on `port` and never answers: a gateway that hangs mid-handshake.
    Also returns the list of connections it holds."""
    held = []

    async def hold(reader, writer):
        held.append(writer)
        await reader.read()

    return await asyncio.start_server(hold, "127.0.0.1", port), held


def reconnect_delays(output: bytearray) -> list[float]:
    return [float(s) for s in re.findall(rb"Attempting a reconnect (?:for shard ID \d+ )?in ([0-9.]+)s", output)]


def assert_clean(db: Path) -> None:
    """Closed cleanly (SQLite removes the write-ahead log when the last connection closes),
    intact, and the game opened before the stop is still there."""
    assert not Path(f"{db}-wal").exists()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (1,)
    conn.close()
    assert '"stopped": true' in Path(f"{db}.health").read_text()


@pytest.mark.parametrize("state", ["backing off", "connecting", "connected, silent"])
async def test_sigterm_stops_the_bot_promptly_while_discord_is_unreachable(tmp_path, state):
    db = tmp_path / "piecepack.sqlite3"
    async with fake_discord() as fake, Cable(fake.port) as cable:
        alice = fake.add_user("alice")
        bot = BotProcess(fake, db, tmp_path)
        bot.env["DISCORD_API_BASE"] = f"http://127.0.0.1:{cable.relay_port}/api/v10"
        bot.env["DISCORD_GATEWAY_URL"] = f"ws://127.0.0.1:{cable.relay_port}/"
        async with bot:
            await fake.wait_for(lambda: fake.identify_count >= 1 and fake.connected, timeout=30)
            await command(fake, alice, "play", {"game": "relativity"})   # a game to keep
            listener = None
            if state == "connected, silent":
                cable.cut.set()
                await asyncio.sleep(0.5)   # (the bot notices nothing: no heartbeat is due)
            else:
                await fake.stop()   # Discord goes away; the bot resumes at the fake's own address
                if state == "connecting":
                    listener, held = await silent_listener(fake.port)
                    await fake.wait_for(lambda: held, timeout=30)   # its resume: no handshake
                    await asyncio.sleep(0.2)
                else:
                    # discord.py's back-off grows (1-2 s, then up to 4, 8 s...): wait for a
                    # long one, which the bot used to sit out before it stopped
                    deadline = time.monotonic() + 60
                    while not any(delay >= 4 for delay in reconnect_delays(bot.output)):
                        assert time.monotonic() < deadline, bot.output.decode(errors="replace")
                        await asyncio.sleep(0.05)
            started = time.monotonic()
            bot.proc.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.wait_for(bot.proc.wait(), STOP_SECONDS)
            except TimeoutError:
                pytest.fail(f"still running {STOP_SECONDS} s after SIGTERM ({state}):\n"
                            + bot.output.decode(errors="replace")[-3000:])
            finally:
                if listener is not None:
                    listener.close()
            took = time.monotonic() - started
            await bot.reader
        assert code == 0, bot.output.decode(errors="replace")[-3000:]
        assert took < STOP_SECONDS
        assert_clean(db)
