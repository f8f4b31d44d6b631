"""Controls act only on what they were made for. Real Discord delivers presses of components
that exist on the pressed message only; a forged (or altered) custom_id, or a proxy forging the
message too, must not make a control act in another phase of its game (a rematch request is
not a lobby) or on another game's message. Each such press is answered privately like controls
that are out of date, changes nothing in the database and leaves the pressed message as it is.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.commands import UNKNOWN_CONTROLS
from bot.components import DYNAMIC_ITEMS
from tests.botkit import (FakeClock, command, drawn, fake, open_game, press,  # noqa: F401
                          running_bot, settle)
from tests.fakediscord import MESSAGE_COMPONENT
from tests.test_bot_hostile_options import dump


def game_of(custom_id: str) -> int:
    return int(custom_id.split(":")[2])


async def forge(fake, bot, user, custom_id: str, message, *, proxy: bool, values: list | None = None):
    """`user` presses `custom_id` on `message` (a button; with `values`, chooses them in a
    menu); with `proxy`, the message as the bot is told of it carries that component too.
    Returns the answer after checking that it is a private refusal and that nothing changed."""
    before, shown = await dump(bot), (message.content, message.custom_ids(), message.edits)
    component = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id} if values is None else \
        {"type": 3, "custom_id": custom_id, "options": [{"label": v, "value": v} for v in values]}
    added = {"type": 1, "components": [component]}
    if proxy:
        message.components.append(added)
    data = {"custom_id": custom_id, "component_type": component["type"]}
    if values is not None:
        data["values"] = values
    try:
        res = await fake.send_raw(user, MESSAGE_COMPONENT, data, channel=message.channel_id,
                                  message_id=message.id)
        await res.done()
    finally:
        if added in message.components:
            message.components.remove(added)
    await settle(bot)
    answers = [m for m in res.messages if m.id != message.id]
    assert answers and all(m.ephemeral for m in answers), (custom_id, res.text)
    assert UNKNOWN_CONTROLS in res.text, (custom_id, res.text)
    assert (message.content, message.custom_ids(), message.edits) == shown, custom_id
    assert await dump(bot) == before, custom_id
    return res


async def pending_rematch(fake, bot, alice, bob):
    """A Relativity game bob resigned, and alice's request for its rematch (bob has not
    answered): (the rematch's id, the request message)."""
    row, thread = await open_game(fake, bot, alice, bob)
    await command(fake, bob, "resign", channel=thread)
    await settle(bot)
    result = fake.messages(thread)[-1]
    request = (await press(fake, alice, f"pp:rematch:{row.id}", message_id=result.id)).messages[-1]
    new_id = game_of(request.custom_ids()[0])
    assert (await bot.store.get_game(new_id)).status == "lobby"
    return new_id, request


@pytest.mark.parametrize("proxy", [False, True], ids=["forged-button", "forged-message"])
async def test_a_forged_lobby_start_does_not_start_a_rematch_nobody_accepted(fake, drawn, tmp_path, proxy):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=[1, 2]) as bot:
        new_id, request = await pending_rematch(fake, bot, alice, bob)
        await forge(fake, bot, alice, f"pp:lobby:{new_id}:start", request, proxy=proxy)
        assert (await bot.store.get_game(new_id)).status == "lobby"
        # the request still works as it should
        await press(fake, bob, f"pp:rematch:{new_id}:accept", message_id=request.id)
        assert (await bot.store.get_game(new_id)).status == "active"


@pytest.mark.parametrize("proxy", [False, True], ids=["forged-button", "forged-message"])
async def test_a_forged_leave_does_not_open_a_rematch_request_to_outsiders(fake, drawn, tmp_path, proxy):
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=[1, 2]) as bot:
        new_id, request = await pending_rematch(fake, bot, alice, bob)
        seats = (await bot.store.get_game(new_id)).player_ids
        await forge(fake, bot, bob, f"pp:lobby:{new_id}:leave", request, proxy=proxy)
        await forge(fake, bot, carol, f"pp:lobby:{new_id}:join", request, proxy=proxy)
        row = await bot.store.get_game(new_id)
        assert row.status == "lobby" and row.player_ids == seats


@pytest.mark.parametrize("proxy", [False, True], ids=["forged-button", "forged-message"])
async def test_a_forged_private_board_button_of_another_game_leaves_the_dm_board(fake, drawn, tmp_path, proxy):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=[3, 4]) as bot:
        boards = {}
        for guest in ([bob], []):
            lobby = (await command(fake, alice, "play", {"game": "byop1"})).original
            for user in guest:
                await press(fake, user, lobby.button("Join"), message_id=lobby.id)
            await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
            await settle(bot)
            board = [m for m in fake.dms(alice) if m.custom_ids()][-1]
            boards[game_of(board.custom_ids()[0])] = board
        (first, first_board), (second, second_board) = boards.items()
        assert first != second
        for _ in range(500):   # the solo game's solver stores its answer: before the snapshots
            if "solver_slides" in (await bot.store.get_game(second)).extras:
                break
            await asyncio.sleep(0.01)
        for custom_id in second_board.custom_ids():   # every button of the other game's board
            await forge(fake, bot, alice, custom_id, first_board, proxy=proxy)
        # (the boards' own buttons still work)
        slide = next(b["custom_id"] for b in first_board.buttons() if not b.get("disabled"))
        await press(fake, alice, slide, message_id=first_board.id)
        assert first_board.edits == 1


async def every_control(fake, bot):
    """Games in every phase whose messages carry every kind of control: a lobby, a rematch
    request, a finished game, a Relativity game with a draw offer and a player's private
    controls, Global Warming, BYOP1's DM boards."""
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await command(fake, carol, "play", {"game": "galaxies"})             # a lobby
    await pending_rematch(fake, bot, alice, bob)                         # finished + request
    row, thread = await open_game(fake, bot, alice, bob)
    await command(fake, alice, "draw", {"action": "offer"}, channel=thread)
    await settle(bot)
    for user in (alice, bob):
        await (await fake.click(user, f"pp:mine:{row.id}")).done()        # someone's controls
    for host, guest, game in ((bob, carol, "global-warming"), (alice, bob, "byop1")):
        lobby = (await command(fake, host, "play", {"game": game})).original
        await press(fake, guest, lobby.button("Join"), message_id=lobby.id)
        await press(fake, host, lobby.button("Start"), message_id=lobby.id)
    await command(fake, carol, "play", {"game": "pack-solitaire"})       # starts at once
    await fake.wait_for(lambda: bot.flow.jobs)
    (solitaire, job), = bot.flow.jobs.items()   # its solver, whose answer goes to the game's extras
    await job
    for _ in range(500):
        if (await bot.store.get_game(solitaire)).extras:
            break
        await asyncio.sleep(0.01)
    row, _ = await open_game(fake, bot, carol, alice, game="galaxies")
    await settle(bot)
    for user in (carol, alice):
        await (await fake.click(user, f"pp:mine:{row.id}")).done()
    for prefix, user in (("relc", None), ("packt", carol)):   # a first step: its second one
        message = next(m for m in fake.all_messages if any(c.startswith(f"pp:{prefix}:") for c in m.custom_ids()))
        custom_id = next(c for c in message.custom_ids() if c.startswith(f"pp:{prefix}:"))
        value = message.select_options(custom_id)[0]["value"]
        await (await fake.select(message.ephemeral_to or user, custom_id, [value], message_id=message.id)).done()
    return alice, bob, carol


def who_may_press(fake, message, players) -> str:
    if message.ephemeral_to:
        return message.ephemeral_to
    channel = fake.channel(message.channel_id)
    return channel.recipient_id or players[0]


@pytest.mark.parametrize("proxy", [False, True], ids=["forged-button", "forged-message"])
async def test_every_control_kind_pressed_on_another_games_message_is_refused(fake, drawn, tmp_path,
                                                                             caplog, proxy):
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=[5, 6, 7, 8, 9, 10]) as bot:
        players = await every_control(fake, bot)
        messages = [m for m in fake.all_messages if m.custom_ids() and not m.deleted]
        controls = {}   # a control of each kind (its component class): (custom_id, its message)
        for message in messages:
            for custom_id in message.custom_ids():
                kind = next(c for c in DYNAMIC_ITEMS if c.__discord_ui_compiled_template__.fullmatch(custom_id))
                controls.setdefault(f"{kind.__name__}:{custom_id.split(':')[1]}", (custom_id, message))
        assert {"OpButton:lobby", "OpButton:draw", "RematchButton:rematch", "RematchAnswer:rematch",
                "MineButton:mine", "PrivateBoardButton:pb", "SecretButton:sec", "ActButton:act",
                "PickSelect:pick", "CoinSelect:relc", "PartnerSelect:relp", "TileSelect:packt"} <= set(controls), \
            sorted(controls)
        if proxy:   # (a message the bot did not keep, an ephemeral, may take any of the
            # presser's controls with a forged message: they act as pressed where they belong)
            stored = {str(r["message_id"]) for r in await bot.store.outbox_rows() if r["game_id"]}
            stored |= {str((await bot.store.get_game(game_of(c))).lobby_message_id)
                       for m in messages for c in m.custom_ids()}
            messages = [m for m in messages if m.id in stored]
        caplog.set_level(logging.INFO)
        pressed = 0
        for custom_id, home in controls.values():
            user = who_may_press(fake, home, players)
            is_menu = any(s["custom_id"] == custom_id for s in home.selects())
            values = [home.select_options(custom_id)[0]["value"]] if is_menu else None
            for message in messages:
                if {game_of(c) for c in message.custom_ids()} != {game_of(custom_id)}:
                    await forge(fake, bot, user, custom_id, message, proxy=proxy, values=values)
                    pressed += 1
        assert pressed >= (2 if proxy else 5) * len(controls)
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
