"""Malformed interactions through the fake Discord (seeded): controls altered, cut short, of no
release, empty or foreign menu values, commands with options outside their declared types and
choices, missing options, huge game numbers and texts, /play in a DM, a non-member invited.

Each must get exactly one answer, private, within Discord's limits, pinging nobody; no ERROR
line is logged; and nothing changes (games, events, messages queued).
"""

from __future__ import annotations

import logging
import random

from tests.botkit import FakeClock, drawn, fake, press, running_bot, settle  # noqa: F401
from tests.fakediscord import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, MODAL_SUBMIT

SEED = 8
ROUNDS = 160


async def snapshot(bot) -> tuple:
    async with bot.store.engine.connection() as tx:
        games = [tuple(r) for r in await tx.rows(
            "SELECT id, status, version, state FROM games ORDER BY id")]
        events = (await tx.first("SELECT COUNT(*) FROM events"))[0]
    return games, events, len(await bot.store.outbox_rows())


def altered(custom_id: str, rnd: random.Random) -> str:
    """A custom_id that is certainly not one the bot made: cut, marked, extended, or with
    another game number."""
    how = rnd.randrange(5)
    if how == 0:
        return custom_id[:rnd.randrange(1, len(custom_id))]
    if how == 1:
        i = rnd.randrange(len(custom_id))
        return custom_id[:i] + "~" + custom_id[i + 1:]
    if how == 2:
        return custom_id + rnd.choice([":", "~", ":zz", "0" * 90])
    if how == 3:
        parts = custom_id.split(":")
        if len(parts) > 2:
            parts[2] = rnd.choice(["0", "10" + "0" * 30, "999", "-1"])
            return ":".join(parts)
    return rnd.choice(["", "pp", "pp:act", "x" * 120, "pp:act:1:zzzzzzzz:red up",
                       "pp:lobby:1:accept", "pp:draw:1:join", "pp:pick:1:abcdef12:7",
                       "pp:sec:1:99:abcdef12:~", "pp:gwd:1:abcdef12:9,9:0", "pp:relp:1:abcdef12:z9"])


BAD_VALUES = [None, [], ["zz"], ["a1", "b1"], ["x" * 200], [""], [5], ["9,9"]]


def option(name, value, kind=3):
    return {"type": kind, "name": name, "value": value}


def odd_commands(fake, users, places, rnd):
    """(user, data, channel) of slash commands that are wrong in one way or another."""
    alice, bob, carol, outsider = users
    thread, dm = places["thread"], places["dm"]

    def command(name, *options):
        data = {"id": fake.command(name)["id"] if name in ("play", "move", "board", "draw", "rules",
                                                           "abort", "resign") else "1",
                "name": name, "type": 1, "options": list(options)}
        return data

    play_outsider = command("play", option("game", "relativity"), option("opponent", outsider, 6))
    play_outsider["resolved"] = {"users": {outsider: {"id": outsider, "username": "out",
                                                       "discriminator": "0", "avatar": None}}}
    return rnd.choice([
        (alice, command("chess"), None),
        (alice, command("move"), thread),
        (alice, command("move", option("move", "red up, " * 300)), thread),
        (bob, command("move", option("move", "x" * 2500)), None),
        (alice, command("move", option("move", "red up"), option("game", 10 ** 20, 4)), None),
        (alice, command("move", option("move", "red up"), option("game", -3, 4)), None),
        (alice, command("move", option("move", "red up"), option("game", "abc", 4)), None),
        (alice, command("move", option("move", 123, 4)), thread),
        (alice, command("move", option("move", "zzz"), option("foo", "bar")), thread),
        (carol, command("play", option("game", "relativity"), option("options", "=" * 2500)), None),
        (carol, command("play", option("game", "relativity"), option("options", "x" * 2500)), None),
        (carol, command("play", option("game", "global-warming"), option("options", "variant=<@" + alice + ">")), None),
        (carol, command("play", option("game", "chess")), None),
        (carol, command("play"), None),
        (carol, command("play", option("game", "relativity"), option("deadline", "2d")), None),
        (carol, command("play", option("game", "relativity")), dm),
        (carol, play_outsider, None),
        (alice, command("draw", option("action", "maybe")), thread),
        (alice, command("rules", option("game", "chess")), None),
        (alice, command("board", option("game", 10 ** 30, 4)), None),
        (alice, command("abort"), dm),
        (carol, command("resign", option("game", 0, 4)), None),
    ])


async def test_malformed_interactions_are_each_answered_once_privately_and_change_nothing(
        fake, drawn, tmp_path, caplog):
    rnd = random.Random(SEED)
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    outsider = "987654321098765432"   # a user who is not in the server
    fake.close_dms(bob)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=3) as bot:
        lobby = (await fake.slash(alice, "play", {"game": "global-warming"})).original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        await settle(bot)
        await press(fake, bob, f"pp:mine:{row.id}")     # bob's private controls, ephemeral
        dave, erin = fake.add_user("dave"), fake.add_user("erin")
        rel = (await fake.slash(carol, "play", {"game": "relativity"})).original
        await press(fake, dave, rel.button("Join"), message_id=rel.id)
        await settle(bot)
        (rel_row,) = await bot.store.games_of_user(int(dave))
        await press(fake, carol, f"pp:mine:{rel_row.id}")
        await press(fake, dave, f"pp:mine:{rel_row.id}")   # one of them gets the coin menu
        frank, gina = fake.add_user("frank"), fake.add_user("gina")
        gal = (await fake.slash(frank, "play", {"game": "galaxies"})).original
        await press(fake, gina, gal.button("Join"), message_id=gal.id)
        await settle(bot)
        other = (await fake.slash(erin, "play", {"game": "global-warming"})).original   # a lobby
        places = {"thread": str(row.thread_id), "dm": fake.dm_channel(alice, create=True)}
        with_controls = [m for m in fake.all_messages if m.custom_ids()]
        assert other.id in {m.id for m in with_controls} and len(with_controls) >= 4

        caplog.set_level(logging.INFO)
        before = await snapshot(bot)
        kinds = set()
        for n in range(ROUNDS):
            mark, errors = len(fake.all_payloads), len(fake.error_responses)
            roll = rnd.random()
            user = rnd.choice([alice, bob, carol])
            if roll < 0.45:
                msg = rnd.choice(with_controls)
                assert msg.custom_ids(), (n, msg, msg.edits)
                component = rnd.choice([c for c in msg.all_components() if c.get("custom_id")])
                data = {"custom_id": altered(component["custom_id"], rnd), "component_type": component["type"]}
                if component["type"] == 3:
                    data["values"] = ["zz"]
                channel, message_id, kind = msg.channel_id, rnd.choice([msg.id, None]), MESSAGE_COMPONENT
                if msg.ephemeral:
                    user = msg.ephemeral_to
            elif roll < 0.65:
                msg = rnd.choice([m for m in with_controls if m.selects()])
                select = rnd.choice(msg.selects())
                data = {"custom_id": select["custom_id"], "component_type": 3}
                values = rnd.choice(BAD_VALUES)
                if values is not None:
                    data["values"] = values
                channel, message_id, kind = msg.channel_id, msg.id, MESSAGE_COMPONENT
                user = msg.ephemeral_to or user
            elif roll < 0.9:
                user, data, channel = odd_commands(fake, (alice, bob, carol, outsider), places, rnd)
                message_id, kind = None, APPLICATION_COMMAND
            elif roll < 0.95:
                data = {"id": fake.command("move")["id"], "name": "move", "type": 1,
                        "options": [{"type": 3, "name": rnd.choice(["move", "game", "nope"]),
                                     "value": rnd.choice(["", "x" * 300, "<@1>", "red up, "]),
                                     "focused": True}]}
                channel, message_id, kind = places["thread"], None, AUTOCOMPLETE
            else:
                data = {"custom_id": altered("pp:modal:1", rnd) or "m", "components": []}
                channel, message_id, kind = None, None, MODAL_SUBMIT
            kinds.add(kind)
            res = await fake.send_raw(user, kind, data, channel=channel, message_id=message_id)
            if kind != AUTOCOMPLETE:
                await res.done()
                # (a deferred update of the clicked message is no answer of its own)
                answers = [m for m in res.messages if m.id != res.message_id]
                assert answers and all(m.ephemeral for m in answers), (n, data, res.text)
                assert all(len(m.text) < 600 for m in answers), (n, res.text)
            await settle(bot)
            assert await snapshot(bot) == before, (n, data)
            assert fake.error_responses[errors:] == [], (n, data)
            for record in fake.all_payloads[mark:]:
                body = record.body or {}
                mentions = (body.get("data") or body).get("allowed_mentions")
                assert mentions is None or "users" not in mentions.get("parse", []), record
                assert not (mentions or {}).get("users"), (n, data, record)
        assert kinds == {MESSAGE_COMPONENT, APPLICATION_COMMAND, AUTOCOMPLETE, MODAL_SUBMIT}
        assert await snapshot(bot) == before
        bad = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert bad == [], [r.getMessage() for r in bad]
