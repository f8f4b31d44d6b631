"""Fair and tidy play through the bot: no live controls on the posts of a finished game, no
unintended pings, names that cannot format or ping, user text echoed only in short."""

from __future__ import annotations

import json
import re

from tests.botkit import command, drawn, fake, press, running_bot, said, settle  # noqa: F401


def live_controls(fake, game_id: int) -> list:
    """The non-ephemeral messages that still hold controls of game `game_id` (but the result
    post's Rematch button, which is for after the game)."""
    ours = re.compile(rf"pp:(?!rematch:)[a-z]+:{game_id}(:|$)")
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


def pinged_by(record) -> set[str]:
    """Who Discord would notify for a message payload: the mentions in its text that its
    allowed_mentions let through."""
    body = record.body if isinstance(record.body, dict) else {}
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    text = json.dumps(data.get("content") or "")
    mentioned = set(re.findall(r"<@!?(\d+)>", text))
    allowed = data.get("allowed_mentions")
    if allowed is None:   # Discord's default: everyone mentioned
        return mentioned
    if "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {str(u) for u in allowed.get("users", [])}


async def test_names_that_look_like_mentions_ping_nobody_and_format_nothing(fake, drawn, tmp_path):
    carol = fake.add_user("carol")
    alice = fake.add_user("alice", display_name=f"<@{carol}> **@everyone**")
    bob = fake.add_user("bob", display_name=f"<@{carol}>")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        lobby = (await command(fake, alice, "play", {"game": "global-warming", "opponent": bob})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        await settle(bot)
        await command(fake, alice, "draw", {"action": "offer"}, channel=row.thread_id)
        await command(fake, bob, "resign", channel=row.thread_id)
        await settle(bot)
        sent = [r for r in fake.all_payloads if pinged_by(r)]
        assert sent   # the invitation, the turn posts, the draw offer
        for record in fake.all_payloads:
            assert pinged_by(record) <= {alice, bob}, record
            if "/threads" not in record.path:   # (a thread's name is plain text)
                assert "**@everyone**" not in json.dumps(record.body), record
        assert f"<@{carol}>" not in fake.message(lobby.id).content
        invitation = next(r for r in fake.all_payloads if "you are invited" in json.dumps(r.body))
        assert pinged_by(invitation) == {bob}


async def test_long_typed_text_is_echoed_only_in_short(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        res = await command(fake, alice, "play", {"game": "relativity", "options": "zz" * 1250})
        assert 0 < len(said(res)) < 300 and "zz" * 30 not in said(res)
        res = await command(fake, alice, "play", {"game": "global-warming",
                                                  "options": "variant=" + "y" * 2500})
        assert 0 < len(said(res)) < 600 and "y" * 300 not in said(res)
        lobby = (await command(fake, alice, "play", {"game": "relativity"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(bob))
        for text in ("x" * 2500, "x" * 1500, "<@" + bob + "> " * 300, "a1#b1 " * 300, "zz " * 500):
            res = await command(fake, alice, "move", {"move": text}, channel=row.thread_id)
            assert 0 < len(said(res)) < 300 and not pinged_by_any(fake, res)


def pinged_by_any(fake, res) -> bool:
    return any(pinged_by(r) for r in fake.all_payloads if res.token in r.path)


async def test_the_seats_are_drawn_at_random_stored_and_shown(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    firsts = []
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=list(range(1, 13)),
                           draw_seats=True) as bot:
        for _ in range(12):   # alice hosts every game; bob joins
            lobby = (await command(fake, alice, "play", {"game": "relativity"})).original
            await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
            row = (await bot.store.games_of_user(int(alice), statuses=("active",)))[-1]
            await settle(bot)
            state = bot.flow.state_of(row)
            assert list(state["players"]) == row.player_ids     # the seats table follows the draw
            start = json.loads((await bot.store.events(row.id))[-1]["detail"])
            assert start["players"] == row.player_ids          # stored with the start
            assert bot.flow.state_of(row) == await bot.flow.replay(row.id)
            first_post = fake.messages(row.thread_id)[0].content
            names = [{alice: "alice", bob: "bob"}[p] for p in row.player_ids]
            assert f"drawn at random: **{names[0]}** and **{names[1]}**, in this order" in first_post
            assert f"<@{row.player_ids[0]}>, your turn" in first_post   # Night's Space moves first
            firsts.append(row.player_ids[0])
            await command(fake, alice, "resign", channel=row.thread_id)
    assert {alice, bob} == set(firsts)   # the host is not always first
