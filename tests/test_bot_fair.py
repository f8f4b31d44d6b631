"""Fair and tidy play through the bot: no live controls on the posts of a finished game, no
unintended pings, names that cannot format or ping, user text echoed only in short."""

from __future__ import annotations

import re

from tests.botkit import command, drawn, fake, press, running_bot, said, settle  # noqa: F401


def live_controls(fake, game_id: int) -> list:
    """The non-ephemeral messages that still hold controls of game `game_id`."""
    ours = re.compile(rf"pp:[a-z]+:{game_id}(:|$)")
    return [m for m in fake.all_messages
            if not m.ephemeral and any(ours.match(cid) for cid in m.custom_ids())]


async def test_every_post_of_a_finished_game_loses_its_controls(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.close_dms(bob)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        await settle(bot)
        fallback = fake.messages(row.thread_id)[-1]
        assert "cannot send you direct messages" in fallback.content
        assert fallback.custom_ids() == [f"pp:mine:{row.id}"]
        assert len(live_controls(fake, row.id)) == 3   # board post, alice's DM, the fallback

        await command(fake, alice, "resign", channel=row.thread_id)
        await settle(bot)
        assert live_controls(fake, row.id) == []


async def test_an_aborted_game_loses_its_controls_too(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.close_dms(bob)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        await settle(bot)
        assert live_controls(fake, row.id)
        await command(fake, alice, "abort", channel=row.thread_id)
        await settle(bot)
        assert live_controls(fake, row.id) == []
