"""Slash command options that real Discord cannot send (a buggy client, a proxy): values of
the wrong JSON type, out of the declared range, unresolvable users, and autocomplete given
such values. Each is refused where interactions come in (bot.options, checked against the
command's synced definition): a short private answer (no suggestions for autocomplete), a log
line below ERROR, and nothing changes in the database.

The first test sends the inputs the fuzzing found; the second generalises to every option of
every published command and every wrong JSON type.
"""

from __future__ import annotations

import logging

import pytest

from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, settle  # noqa: F401
from tests.fakediscord import APPLICATION_COMMAND, AUTOCOMPLETE, InteractionFailed

STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10


async def dump(bot) -> dict:
    """Every row of every table: nothing may change (on either engine)."""
    engine = bot.store.engine
    tables_sql = ("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
                  if engine.name == "sqlite" else
                  "SELECT table_name FROM information_schema.tables "
                  "WHERE table_schema = current_schema() ORDER BY table_name")
    rows = {}
    async with engine.connection() as tx:
        for (table,) in await tx.rows(tables_sql):
            rows[table] = sorted(map(repr, map(tuple, await tx.rows(f"SELECT * FROM {table}"))))  # noqa: S608
    return rows


async def two_games(fake, bot):
    """alice: a BYOP1 game alone (its thread) and a Relativity game with bob."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = (await command(fake, alice, "play", {"game": "byop1"})).original
    await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
    await settle(bot)
    lobby = (await command(fake, alice, "play", {"game": "relativity"})).original
    await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
    await settle(bot)
    rows = {r.game: r for r in await bot.store.games_of_user(int(alice))}
    assert {r.status for r in rows.values()} == {"active"}, rows
    return alice, bob, rows


def data_of(fake, name, *options, resolved=None) -> dict:
    data = {"id": fake.command(name)["id"], "name": name, "type": 1,
            "options": [{"type": t, "name": n, "value": v, **({"focused": True} if f else {})}
                        for t, n, v, *f in options]}
    if resolved is not None:
        data["resolved"] = resolved
    return data


async def refused(fake, bot, sends, caplog) -> list:
    """Send each (user, kind, data, channel); the problems seen (empty when every one was
    answered privately, without suggestions, changing nothing and logging no ERROR)."""
    caplog.set_level(logging.INFO)
    fake.response_deadline = 1.0   # (the code before the fix left some unanswered)
    before = await dump(bot)
    problems = []
    for user, kind, data, channel in sends:
        caplog.clear()
        try:
            res = await fake.send_raw(user, kind, data, channel=channel)
            if kind == AUTOCOMPLETE:
                if res.type != 8 or res.choices:
                    problems.append((data, "suggested", res.choices))
            else:
                await res.done()
                answers = res.messages
                if not answers or not all(m.ephemeral and m.text for m in answers):
                    problems.append((data, "not a private answer", res.text))
        except InteractionFailed as exc:
            problems.append((data, "unanswered", str(exc)[:80]))
        await settle(bot)
        errors = [r.getMessage()[:80] for r in caplog.records if r.levelno >= logging.ERROR]
        if errors:
            problems.append((data, "ERROR logged", errors))
        if fake.error_responses:
            problems.append((data, "refused by Discord", fake.error_responses[:]))
            fake.error_responses.clear()
        if await dump(bot) != before:
            problems.append((data, "changed the database"))
            before = await dump(bot)
    return problems


def summary(problem) -> str:
    data, what, *detail = problem
    options = " ".join(f"{o['name']}:{o['value']!r}" + ("*" if o.get("focused") else "")
                       for o in data["options"])
    return f"/{data['name']} {options}: {what} {detail}"[:200]


async def test_the_fuzzers_wrong_typed_options_are_refused_privately(fake, drawn, tmp_path, caplog):
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=3) as bot:
        alice, bob, rows = await two_games(fake, bot)
        byop1, relativity = str(rows["byop1"].thread_id), str(rows["relativity"].thread_id)
        channel = fake.channel_id
        some_user = {}
        fake._resolve({"type": USER, "name": "player"}, bob, some_user, fake.channel(channel))
        slash = [
            ("away", (INTEGER, "days", "3")),
            ("away", (INTEGER, "days", 1.5)),
            ("away", (INTEGER, "days", True)),
            ("away", (INTEGER, "days", 15)),          # the range is 0-14
            ("away", (INTEGER, "days", -1)),
            ("replay", (INTEGER, "move", "1")),
            ("stats", (USER, "player", "abc")),
            ("stats", (USER, "player", "-1")),
            ("stats", (USER, "player", 2 ** 70)),
            ("stats", (USER, "player", str(2 ** 70))),
            ("stats", (USER, "player", 12345)),       # not resolved
            ("play", (STRING, "game", "relativity"), (USER, "opponent", "abc")),
            ("play", (STRING, "game", 3)),
            ("play", (STRING, "game", "relativity"), (INTEGER, "rematch", "1")),
            ("board", (INTEGER, "game", 2 ** 70)),
            ("draw", (STRING, "action", True)),
        ]
        sends = [(alice, APPLICATION_COMMAND, data_of(fake, name, *options), channel)
                 for name, *options in slash]
        sends += [
            (alice, APPLICATION_COMMAND, data_of(fake, "move", (INTEGER, "move", 12)), byop1),
            (alice, APPLICATION_COMMAND, data_of(fake, "move", (STRING, "move", 12)), byop1),
            (alice, APPLICATION_COMMAND, data_of(fake, "move", (STRING, "move", ["a"])), relativity),
            (alice, APPLICATION_COMMAND, data_of(fake, "move", (STRING, "move", "red up"),
                                                 (INTEGER, "game", "abc")), channel),
            (alice, APPLICATION_COMMAND, data_of(fake, "stats", (USER, "player", bob),
                                                 resolved=some_user) | {"options": [
                                                     {"type": USER, "name": "player", "value": int(bob)}]}, channel),
        ]
        autocomplete = [
            (byop1, "move", (STRING, "move", 12, True)),
            (relativity, "move", (STRING, "move", None, True)),
            (relativity, "move", (STRING, "move", "red", True), (INTEGER, "game", "abc")),
            (channel, "move", (STRING, "move", "red", True), (INTEGER, "game", 2 ** 70)),
            (channel, "move", (INTEGER, "game", ["x"], True), (STRING, "move", "red")),
            (channel, "board", (INTEGER, "game", {"a": 1}, True)),
            (channel, "play", (STRING, "game", 5), (STRING, "options", "v", True)),
            (channel, "play", (STRING, "game", "relativity"), (STRING, "options", 5, True)),
        ]
        sends += [(alice, AUTOCOMPLETE, data_of(fake, name, *options), where)
                  for where, name, *options in autocomplete]
        problems = await refused(fake, bot, sends, caplog)
        assert problems == [], "\n".join(map(summary, problems))


def wrong_values(option: dict, autocomplete: bool = False) -> list:
    """Values of every JSON type but the option's own, and its own type out of range (an
    unresolved user is no such value in autocomplete, which comes without resolved users)."""
    kind = option["type"]
    values = {STRING: ["x", ""], INTEGER: [3, 0, 2 ** 70, -(2 ** 70)], NUMBER: [1.5],
              BOOLEAN: [True, False], "null": [None], "list": [[1]], "object": [{"a": 1}]}
    own = {STRING: [STRING], INTEGER: [INTEGER], NUMBER: [INTEGER, NUMBER], BOOLEAN: [BOOLEAN],
           USER: [STRING]}[kind]
    out = [v for k, vs in values.items() if k not in own for v in vs]
    if kind == INTEGER:
        out += [2 ** 70, -(2 ** 70)]
        if "min_value" in option:
            out.append(option["min_value"] - 1)
        if "max_value" in option:
            out.append(option["max_value"] + 1)
    if kind == STRING and option.get("choices"):
        out.append("not-a-choice")
    if kind == USER:
        out += ["abc", "-1", str(2 ** 70)] + ([] if autocomplete else ["12345"])
    if kind == STRING and "max_length" in option:
        out.append("x" * (option["max_length"] + 1))
    return out


def filled(option: dict, fake, user):
    """A value of the option's own type (for the other options of a command)."""
    kind = option["type"]
    if option.get("choices"):
        return option["choices"][0]["value"]
    return {STRING: "x", INTEGER: option.get("min_value", 1), NUMBER: 1.0, BOOLEAN: False,
            USER: user}[kind]


def leaves(command: dict, part: dict | None = None, path: tuple = ()) -> list:
    """(command, path of subcommands, its options) for a command and each of its subcommands
    (/tournament's), at any depth."""
    options = (part or command).get("options") or []
    subs = [o for o in options if o["type"] in (1, 2)]
    if not subs:
        return [(command, path, options)]
    return [leaf for sub in subs for leaf in leaves(command, sub, path + ((sub["type"], sub["name"]),))]


def nested(path: tuple, given: list) -> list:
    """`given` as the options of the subcommand at `path`."""
    for kind, name in reversed(path):
        given = [{"type": kind, "name": name, "options": given}]
    return given


@pytest.mark.parametrize("focus", [False, True], ids=["command", "autocomplete"])
async def test_every_option_of_every_command_refuses_every_wrong_type(fake, drawn, tmp_path, caplog,
                                                                       focus):
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=3) as bot:
        alice, bob, rows = await two_games(fake, bot)
        resolved = {}   # bob, as Discord resolves a user option (for the other options)
        fake._resolve({"type": USER, "name": "opponent"}, bob, resolved, fake.channel(fake.channel_id))
        commands = fake.published_commands[None]
        assert {c["name"] for c in commands} >= {"play", "move", "away", "stats", "replay", "daily"}
        sends = []
        kinds = set()
        for definition, path, options in (leaf for d in commands for leaf in leaves(d)):
            for bad in options:
                others = [o for o in options if o is not bad and (o.get("required") or focus)]
                focused = next((o for o in others if o.get("autocomplete")), None) if focus else None
                if focus and focused is None and not bad.get("autocomplete"):
                    continue   # (no autocomplete beside this option)
                for value in wrong_values(bad, focus):
                    kinds.add(bad["type"])
                    given = [{"type": bad["type"], "name": bad["name"], "value": value}]
                    if focus and focused is None:
                        given[0]["focused"] = True   # the wrong value is the one being typed
                        if bad["type"] == STRING and isinstance(value, str):
                            continue   # (a partial text is what autocomplete is for)
                        if bad["type"] == INTEGER and isinstance(value, str):
                            continue   # (the digits typed so far, as Discord sends them)
                    given += [{"type": o["type"], "name": o["name"],
                               "value": "x" if o is focused else filled(o, fake, bob),
                               **({"focused": True} if o is focused else {})} for o in others]
                    data = {"id": definition["id"], "name": definition["name"], "type": 1,
                            "options": nested(path, given), "resolved": resolved}
                    sends.append((alice, AUTOCOMPLETE if focus else APPLICATION_COMMAND, data,
                                  fake.channel_id))
        assert kinds >= ({STRING, INTEGER} if focus else {STRING, INTEGER, USER})
        problems = await refused(fake, bot, sends, caplog)
        assert problems == [], f"{len(problems)} of {len(sends)}:\n" + "\n".join(map(summary, problems))


async def test_autocomplete_as_discord_sends_it_still_suggests(fake, drawn, tmp_path, caplog):
    """What real Discord sends is not refused: the typed text of an integer option, an empty
    one, and a user filled in beside (autocomplete comes without resolved users)."""
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock(), seed=3) as bot:
        alice, bob, rows = await two_games(fake, bot)
        sends = [
            data_of(fake, "play", (STRING, "game", "global-warming"), (USER, "opponent", bob),
                    (STRING, "options", "", True)),
            data_of(fake, "board", (INTEGER, "game", "", True)),
            data_of(fake, "board", (INTEGER, "game", "Rel", True)),
            data_of(fake, "move", (STRING, "move", "", True), (INTEGER, "game", rows["relativity"].id)),
        ]
        caplog.set_level(logging.INFO)
        for data in sends:
            res = await fake.send_raw(alice, AUTOCOMPLETE, data)
            assert res.type == 8 and res.choices, data
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
