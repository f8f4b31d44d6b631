"""`python -m bot` as a separate process playing the newest games as players would: a whole
Galaxies game by /move with autocomplete (every suggestion taken as it is), the process killed
(kill -9) in the middle of a secret choice and started again, one player without DMs; then no
post keeps live controls, only players were pinged, and no text went over Discord's limits.
Also as a public instance runs: two processes (shards 0 and 1) on one PostgreSQL, the server on
shard 1; the process of the server's shard is the one killed."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.botkit import command, fake_discord, press, said
from tests.processes import Instance, kill_9
from tests.test_bot_fair import pinged_by


def public_controls(fake) -> list:
    """Public messages with live controls (but a result post's Rematch, for after the game)."""
    return [m for m in fake.all_messages if not m.ephemeral and not m.deleted
            and any(c.get("custom_id") and not c.get("disabled")
                    and not c["custom_id"].startswith("pp:rematch:") for c in m.all_components())]


@pytest.mark.two_processes_too
async def test_a_galaxies_game_by_move_across_a_kill(tmp_path, processes):
    rnd = random.Random(3)
    db = tmp_path / "bot.sqlite3"
    async with fake_discord(guild_shard=(processes - 1, processes)) as fake:
        alice, bob = fake.add_user("alice"), fake.add_user("bob")
        fake.close_dms(bob)
        bots = Instance(fake, db, tmp_path, processes)
        try:
            await bots.__aenter__()
            await fake.wait_for(lambda: fake.command_publishes >= 1, timeout=30)
            lobby = (await command(fake, alice, "play", {"game": "galaxies"})).original
            await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
            thread = await fake.wait_for(lambda: fake.threads and fake.threads[0].id, timeout=10)
            killed, moves = False, 0
            for step in range(60):
                if any("🏁" in m.content for m in fake.messages(thread)):
                    break
                moved = False
                for user in rnd.sample([alice, bob], 2):
                    choices = await fake.autocomplete(user, "move", {"move": ""}, focused="move",
                                                      channel=thread)
                    if not choices:
                        continue
                    value = rnd.choice(choices)["value"]
                    res = await command(fake, user, "move", {"move": value}, channel=thread)
                    assert "Played" in said(res) or "Your choice" in said(res), (value, said(res))
                    moved, moves = True, moves + 1
                    if not killed and "Nobody else sees it" in said(res):
                        # a secret choice is made, the other is awaited: the process (of the
                        # server's shard) dies and is started again
                        assert res.shard == bots.server_shard
                        await bots.kill_9(bots.server_shard)
                        killed = True
                    break
                if not moved:    # nobody may act yet: the bot is still posting
                    await asyncio.sleep(0.2)
            assert killed and moves >= 12 and any("🏁" in m.content for m in fake.messages(thread))
            assert public_controls(fake) == []
            players = {alice, bob}
            for record in fake.all_payloads:
                assert pinged_by(record) <= players
                body = record.body if isinstance(record.body, dict) else {}
                data = body.get("data") if isinstance(body.get("data"), dict) else body
                assert len(data.get("content") or "") <= 2000
            assert set(await bots.stop()) == {0}
            assert fake.token not in bots.output()
        finally:
            for process in bots.processes:
                if process.proc.returncode is None:
                    await kill_9(process, fake)
