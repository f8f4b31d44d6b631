"""Galaxies' secrets through the real bot and the fake Discord: a differential leak test.

The same game is played twice, with the same seed, in runs that differ only in what bob's
opponent and a spectator may not know:
- bob's path (so his whole hand), and the order of alice's face-down cards she has not drawn
  yet (fixed through the engine's `paths` option, which the test injects: /play refuses it);
- the cards bob picks and changes before his final choice each turn ("decoys").
Both players play a System every turn (always in hand), so the reveals are the same. While
bob's decoys stand, alice (before she chooses) and a spectator probe everything they can.
Everything Discord received in the two runs that anyone but bob can see (thread posts, alice's
DMs and ephemeral answers, erin's answers, the SVG behind each image) and every log line at
DEBUG must be the same once ids are named alike. bob's closed DMs make him use the ephemeral
fallback, which must reach him alone. The script stops before alice draws a card that differs.
"""

from __future__ import annotations

import logging
import re

import pytest

import engine
from bot.settings import setup_logging
from tests.botkit import FakeClock, command, fake_discord, press, running_bot, settings_for
from tests.test_bot_leaks import Run, ask_in_words, entries, explain, log_lines
from tests.test_bot_leaks import drawings, quiet_logging  # noqa: F401  (fixtures)

GAME = engine.get_game("galaxies")
SEED = 99
PATHS = (["FMSSMF", "FMSSMF"], ["FMSFSM", "SSMFFM"])   # alice's first three cards alike
DECOYS = (  # bob's choices before his final System, per run, per turn
    {1: ["form"], 2: ["merge", "form"], 3: ["shift"]},
    {1: ["shift", "system", "shift"], 2: ["shift"], 3: ["merge", "shift"]},
)


def renumbered(stream: list[tuple]) -> list[tuple]:
    """Ids named again by first appearance within `stream` (bob's own interactions, left out,
    took different numbers in the two runs)."""
    seen: dict[str, str] = {}

    def name(match):
        return seen.setdefault(match[0], f"<n{len(seen)}>")

    def fix(part):
        if isinstance(part, str):
            return re.sub(r"<id\d+>", name, part)
        return tuple(fix(p) for p in part)

    return [tuple(fix(part) for part in entry) for entry in stream]


class GalaxiesRun(Run):
    async def state(self):
        return GAME.from_json((await self.bot.store.get_game(self.game_id)).state)


async def bob_chooses(run, card):
    fake, bob = run.fake, run.users["bob"]
    opened = await press(fake, bob, f"pp:mine:{run.game_id}")
    menu = opened.messages[-1]
    assert menu.ephemeral_to == str(bob)
    button = next(c for c in menu.custom_ids() if c.endswith(f":{card}"))
    done = await press(fake, bob, button, message_id=menu.id)
    assert "Your choice" in done.text, done.text


async def alice_chooses(run, card):
    fake, alice = run.fake, run.users["alice"]
    dm = [m for m in fake.dms(alice) if m.custom_ids()][-1]
    button = next(c for c in dm.custom_ids() if c.endswith(f":{card}"))
    done = await press(fake, alice, button, message_id=dm.id)
    assert "Your choice" in done.text, done.text


async def probe(run, name, turn):
    fake, user, thread = run.fake, run.users[name], run.thread
    await run.step(f"{turn}: {name} /board", command(fake, user, "board", channel=thread))
    await run.step(f"{turn}: {name} /games", command(fake, user, "games", channel=thread))
    await run.step(f"{turn}: {name} autocomplete", fake.autocomplete(
        user, "move", {"move": ""}, focused="move", channel=thread))
    await run.step(f"{turn}: {name} bad /move", command(fake, user, "move", {"move": "7,7>8,8"},
                                                        channel=thread))
    await run.step(f"{turn}: {name} opens controls", press(fake, user, f"pp:mine:{run.game_id}"))
    await ask_in_words(run, name, turn)
    old = [(m, c) for m in fake.messages(thread) for c in m.custom_ids() if c.startswith("pp:act:")]
    if old:
        await run.step(f"{turn}: {name} old target", press(fake, user, old[0][1],
                                                           message_id=old[0][0].id))


async def resolve(run, turn):
    """Both Systems resolve: each owner presses the first cell button under the board."""
    fake, thread = run.fake, run.thread
    names = {uid: name for name, uid in run.users.items()}
    for n in range(2):
        state = await run.state()
        if state["data"]["phase"] != "resolve":
            return
        (actor,) = GAME.to_act(state)
        board = fake.messages(thread)[-1]
        cell = next(c for c in board.custom_ids() if c.startswith("pp:act:"))
        await run.step(f"{turn}: {names[actor]} target {n}",
                       press(fake, actor, cell, message_id=board.id))


async def script(run):
    fake, users = run.fake, run.users
    alice = users["alice"]
    res = await run.step("/play", command(fake, alice, "play", {"game": "galaxies"}))
    lobby = res.original
    await run.step("bob joins", press(fake, users["bob"], lobby.button("Join"), message_id=lobby.id))
    (row,) = await run.bot.store.games_of_user(int(alice))
    run.game_id, run.thread = row.id, str(row.thread_id)
    for turn in (1, 2, 3):
        state = await run.state()
        assert state["data"]["turn"] == turn and state["data"]["phase"] == "commit"
        for card in DECOYS[run.index][turn]:
            await run.step(f"{turn}: bob decoys", bob_chooses(run, card))
        for name in ("alice", "erin"):
            await probe(run, name, turn)
        await run.step(f"{turn}: bob final", bob_chooses(run, "system"))
        if turn == 3:
            return    # alice's fourth card, drawn after this turn, differs
        await run.step(f"{turn}: alice chooses", alice_chooses(run, "system"))
        await resolve(run, turn)


async def play(run, tmp_path):
    async with fake_discord() as fake:
        run.fake = fake
        run.users = {name: fake.add_user(name) for name in ("alice", "bob", "erin")}
        fake.close_dms(run.users["bob"])
        db = tmp_path / f"run{run.index}.sqlite3"
        handler = setup_logging(settings_for(fake, db, log_level="DEBUG"), stream=run.log)
        handler.addFilter(lambda r: not r.name.startswith(("fakediscord", "aiohttp.access",
                                                           "aiohttp.server", "aiohttp.web")))
        try:
            async with running_bot(fake, db, clock=FakeClock(), seed=SEED) as bot:
                run.bot = bot
                await script(run)
        finally:
            logging.getLogger().removeHandler(handler)


@pytest.fixture
def paths(monkeypatch):
    """The paths each game is dealt with: a test hook into the engine (players cannot set them)."""
    chosen: list = []
    new_game = GAME.new_game

    def dealt(players, seed=0, options=None):
        options = dict(options or {})
        if not players[0].startswith("seat"):   # not the throw-away game checking /play options
            options["paths"] = chosen[-1]
        return new_game(players, seed=seed, options=options)

    monkeypatch.setattr(GAME, "new_game", dealt)
    return chosen


async def test_nothing_bobs_opponent_or_a_spectator_sees_depends_on_his_secrets(
        tmp_path, drawings, paths, quiet_logging):  # noqa: F811
    runs = []
    for index in (0, 1):
        paths.append(PATHS[index])
        drawings.append({})
        run = GalaxiesRun(index, svgs=drawings[-1])
        await play(run, tmp_path)
        runs.append(run)
    a, b = runs
    # bob's hands really differed, and so did what he was shown
    all_a, all_b = entries(a), entries(b)
    assert [e for e in all_a if e[2] == "bob"] != [e for e in all_b if e[2] == "bob"]
    stream_a = renumbered([e for e in all_a if e[2] != "bob"])
    stream_b = renumbered([e for e in all_b if e[2] != "bob"])
    assert len(stream_a) > 60
    assert any(e[2] == "everyone" and e[5] for e in stream_a)     # public images compared
    assert any(e[2] == "alice" and e[5] for e in stream_a)        # alice's own images too
    assert any(e[2] == "erin" for e in stream_a)
    assert stream_a == stream_b, explain(stream_a, stream_b, "payload")

    logs_a, logs_b = log_lines(a), log_lines(b)
    assert any("bot.app" in line for lines in logs_a.values() for line in lines)
    for label in sorted(set(logs_a) | set(logs_b)):
        assert logs_a.get(label) == logs_b.get(label), \
            f"log of step {label!r}: {sorted(set(logs_a.get(label, ())) ^ set(logs_b.get(label, ())))}"
