"""Screen readers (issue 23): board images carry alt text; the Describe button, /board text:true
and /replay text:true say the position in words, privately, from the asker's own view, within
Discord's limits. (Every test's fake Discord also checks that no image went out without alt
text: tests.botkit.fake_discord.)"""

from __future__ import annotations

import io

import discord
import pytest

import engine
from render.describe import alt_text, describe, hand_words
from tests.botkit import command, drawn, fake, open_game, press, running_bot, said, settle  # noqa: F401
from tests.fakediscord import ALT_TEXT_LIMIT

GALAXIES = engine.get_game("galaxies")


def describe_button(fake, thread, game_id):
    posts = [m for m in fake.messages(thread) if f"pp:describe:{game_id}" in m.custom_ids()]
    assert posts, "a board post with a Describe button"
    return posts[-1]


async def test_describe_answers_each_presser_from_their_own_view(fake, tmp_path, drawn):
    alice, bob, erin = (fake.add_user(n) for n in ("alice", "bob", "erin"))
    async with running_bot(fake, tmp_path / "db.sqlite3") as bot:
        row, thread = await open_game(fake, bot, alice, bob, game="galaxies")
        state = GALAXIES.from_json((await bot.store.get_game(row.id)).state)
        post = describe_button(fake, thread, row.id)
        names = {str(alice): "alice", str(bob): "bob"}
        # the image's alt text is the public view's, word for word
        public = GALAXIES.view(state, None)
        assert post.alt_texts["board.png"] == alt_text(public, names)
        assert "A Game Played by Galaxies, turn 1 of 6" in post.alt_texts["board.png"]

        for user, name in ((alice, "alice"), (bob, "bob")):
            res = await press(fake, user, f"pp:describe:{row.id}", message_id=post.id)
            assert res.messages and all(m.ephemeral and len(m.content) <= 2000 for m in res.messages)
            text = said(res)
            own = GALAXIES.view(state, str(user))
            assert describe(own, names) in text
            assert f"Your hand (only you see it): {hand_words(own['hand'])}." in text
            moves = [str(a) for a in GALAXIES.legal_actions(state, str(user))]
            assert f"Your legal moves, as you would type them after /move: {', '.join(moves)}." in text \
                or not moves

        res = await press(fake, erin, f"pp:describe:{row.id}", message_id=post.id)
        text = said(res)
        assert "as onlookers see it" in text and "Your hand" not in text and "legal moves" not in text
        assert describe(public, names) in text


async def test_board_text_and_replay_text_say_the_position_in_words(fake, tmp_path, drawn):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "db.sqlite3") as bot:
        row, thread = await open_game(fake, bot, alice, bob, game="relativity")
        game = engine.get_game("relativity")
        state = game.from_json((await bot.store.get_game(row.id)).state)
        res = await command(fake, alice, "board", {"text": True}, channel=thread)
        text = said(res)
        assert not any(m.attachments for m in res.messages)
        for r in "4321":
            assert f"Row {r}: a{r}: " in text
        to_move = game.view(state, None)["turn"]
        count = len(list(game.legal_actions(state, to_move)))
        if to_move == str(alice):
            assert f"You have {count} legal moves" in text
        # /replay text:true: the start, as onlookers saw it
        res = await command(fake, alice, "replay", {"move": 0, "text": True}, channel=thread)
        text = said(res)
        assert "after move 0" in text and "Row 4: a4: " in text and not any(m.attachments for m in res.messages)


def test_pack_solitaire_reveal_carries_words():
    """The "one way to reach" reveal says its layout in words; its image has alt text."""
    from bot.ui.pack_solitaire import ADAPTER

    game = engine.get_game("pack-solitaire")
    state = game.new_game(["1"], seed=4)
    state = game.apply(state, "1", "done")
    layout = [(1, "a1", 0), (2, "b1", 1)]
    ((content, view),) = ADAPTER.final_posts(game, state, {"best_layout": layout, "best": 12, "score": 0})
    assert content.startswith("One way to reach 12:")
    assert "Row 1: a1 " in content and "b1 " in content
    assert "One way to 12" in alt_text(view, {"1": "ann"})


async def test_the_fake_refuses_alt_text_longer_than_discord_allows(fake, tmp_path):
    async with running_bot(fake, tmp_path / "db.sqlite3") as bot:
        channel = bot.get_channel(int(fake.channel_id))
        too_long = discord.File(io.BytesIO(b"\x89PNG"), filename="x.png", description="x" * (ALT_TEXT_LIMIT + 1))
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(file=too_long)
        assert refused.value.status == 400
        fits = discord.File(io.BytesIO(b"\x89PNG"), filename="x.png", description="x" * ALT_TEXT_LIMIT)
        await channel.send(file=fits)
        assert fake.messages(fake.channel_id)[-1].alt_texts == {"x.png": "x" * ALT_TEXT_LIMIT}
