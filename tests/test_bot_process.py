"""`python -m bot` as a separate process, configured only by environment variables, against the
in-process fake Discord: publish, lobby, /move with autocomplete, a process restart, /resign.
Also as a public instance runs: two processes (shards 0 and 1) on one PostgreSQL, the server on
shard 1, both restarted."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.botkit import command, fake_discord, press, said
from tests.processes import BotProcess, Instance

@pytest.mark.two_processes_too
async def test_python_m_bot_plays_across_a_process_restart(tmp_path, processes):
    db = tmp_path / "data" / "piecepack.sqlite3"
    db.parent.mkdir()
    async with fake_discord(guild_shard=(processes - 1, processes)) as fake:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        async with Instance(fake, db, tmp_path, processes) as first:
            await fake.wait_for(lambda: fake.command_publishes >= 1, timeout=10)
            assert {c["name"] for c in fake.published_commands[None]} >= {
                "play", "move", "board", "games", "resign", "draw", "rules", "help"}
            res = await command(fake, alice, "play", {"game": "relativity"})
            assert res.shard == first.server_shard
            lobby = res.original
            await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
            thread = await fake.wait_for(lambda: fake.threads and fake.threads[0].id)
            await fake.wait_for(lambda: fake.messages(thread))
            # the seats are drawn: the first post mentions who moves first
            first_post = fake.messages(thread)[0].content
            assert "drawn at random" in first_post
            mover, other = (alice, bob) if f"<@{alice}>" in first_post else (bob, alice)
            choices = await fake.autocomplete(mover, "move", {"move": "a1"}, focused="move", channel=thread)
            assert 0 < len(choices) <= 25 and all("a1" in c["value"] for c in choices)
            res = await command(fake, mover, "move", {"move": choices[0]["value"]}, channel=thread)
            assert "Played" in said(res)
            await fake.wait_for(lambda: len(fake.messages(thread)) >= 2)
            button = fake.messages(thread)[-1].custom_ids()[0]
            assert set(await first.stop()) == {0}
        assert fake.token not in first.output()

        async with Instance(fake, db, tmp_path, processes) as second:
            assert fake.command_publishes == 1      # unchanged commands are not published again
            opened = await press(fake, other, button)  # a button posted by the first process
            assert opened.messages[-1].select_options()
            res = await command(fake, other, "resign", {}, channel=thread)
            assert "resigned" in said(res)
            await fake.wait_for(lambda: "wins" in fake.messages(thread)[-1].content)
            # the heartbeat the Docker HEALTHCHECK reads (each process's): healthy while
            # running, stopped after
            for env in second.health_envs():
                await fake.wait_for(lambda: Path(env["PIECEPACK_HEALTH_FILE"]).exists(), timeout=10)
                assert await health(env, tmp_path) == (0, "healthy")
            assert set(await second.stop()) == {0}
        assert fake.token not in second.output()
        for env in second.health_envs():
            code, said_ = await health(env, tmp_path)
            assert code == 1 and "stopped" in said_


async def health(env: dict, cwd: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "health", cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    output, _ = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode, output.decode().strip()


async def test_sync_subcommand_publishes_and_exits(tmp_path):
    async with fake_discord() as fake:
        for args, scope in ((["sync", "--guild", fake.guild_id], fake.guild_id), (["sync"], None)):
            env = BotProcess(fake, tmp_path / "db.sqlite3", tmp_path).env
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", *args, cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            output, _ = await asyncio.wait_for(proc.communicate(), 30)
            assert proc.returncode == 0, output.decode()
            assert b"Published" in output and fake.token.encode() not in output
            assert {c["name"] for c in fake.published_commands[scope]} >= {"play", "move"}
        assert fake.connected is False and fake.command_publishes == 2
