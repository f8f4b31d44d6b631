"""Global Warming's secrets through the real bot and the fake Discord: a differential leak test.

The same three-player game is played twice, with the same seed and the same public deal, in
runs that differ only in what nobody may know:
- the die faces chosen before each reveal (each turn, two players first choose "decoy" faces,
  different in the two runs and changed a different number of times, then settle on the same
  final face; the third player chooses last, identically in both runs), and
- the coins: the hidden sides of the line's coins and the order of the bag (fixed through the
  engine's `coins` option, which the test injects: /play refuses it).
While the decoys stand, the last player and a spectator probe everything they can (/board,
/games, autocomplete, bad moves, the public buttons, old buttons). Everything Discord received
in the two runs, step by step (channel and thread posts, DMs, ephemeral answers, the SVG each
image was drawn from) and every log line at DEBUG, must then be the same once ids are named
alike. The only exceptions are the answers to a player's own decoy choices, which must reach
that player alone. The script stops before the first moment the coins may differ in public:
the end of turn 3, when the line's third coin is turned.

A second test drops the connection while a choice is being confirmed, and looks for the face
in the log.
"""

from __future__ import annotations

import asyncio
import difflib
import io
import json
import logging
import re
from dataclasses import dataclass, field

import aiohttp
import discord
import pytest

import engine
import render
from bot.settings import setup_logging
from tests.botkit import (audience, FakeClock, choose, command, fake_discord, press, running_bot,
                          settings_for, settle)

GAME = engine.get_game("global-warming")
SEED = 4242
PLAYERS = ("alice", "bob", "carol")
SPECTATOR = "erin"
VIA = {"alice": "dm", "bob": "move", "carol": "fallback"}   # carol's DMs are closed

# The island and starts are public and the same in both runs; the pawns stay away from the
# tiles that sink at the ends of turns 1 and 2 (S2 and Ma).
ISLAND = ["Sn Sa S2 S3 S4", "S5 Mn Ma M2 M3", "M4 M5 . Cn Ca", "C2 C3 C4 C5 An", "Aa A2 A3 A4 A5"]
STARTS = ["Sn", "A5", "Ca"]
# Coins 0 and 1 sink inside the compared window, so they are the same in both runs. Coin 2 (in
# the line from the start) and coins 3 and 4 (drawn at the ends of turns 1 and 2) show the same
# side in both runs but hide different tiles; the rest of the bag is in another order, with
# other sides up. Coin i is turned at the end of turn i + 1.
COMMON = ["S2:value", "Ma:suit"]
SHOWN = ["M2:suit", "C4:value", "A3:value", "M4:suit", "A4:value", "C3:value"]


def _coins(run: int) -> list[str]:
    first, swapped = SHOWN[:3], SHOWN[3:]
    if run == 1:
        first, swapped = swapped, first   # same side up at each place, other tiles beneath
    named = {c.split(":")[0] for c in COMMON + SHOWN}
    rest = [code for code in sorted(engine.global_warming.ALL_TILES) if code not in named]
    if run == 0:
        tail = [f"{code}:{'suit' if i % 2 else 'value'}" for i, code in enumerate(rest)]
    else:
        tail = [f"{code}:{'value' if i % 3 else 'suit'}" for i, code in enumerate(reversed(rest))]
    return COMMON + first + tail[:3] + swapped + tail[3:]


# Each turn: the players in the order they first choose; all but the last choose decoys (per
# run) and then their final face; the last chooses once, the same in both runs.
TURNS = [
    {"order": ("alice", "bob", "carol"),
     "decoys": ({"alice": ["5", "3"], "bob": ["a"]}, {"alice": ["n"], "bob": ["4", "2", "5"]}),
     "final": {"alice": "n", "bob": "3", "carol": "2"}},
    {"order": ("bob", "carol", "alice"),
     "decoys": ({"bob": ["2"], "carol": ["n"]}, {"bob": ["5"], "carol": ["3", "a"]}),
     "final": {"bob": "4", "carol": "4", "alice": "a"}},
    {"order": ("carol", "alice", "bob"),
     "decoys": ({"carol": ["a"], "alice": ["2"]}, {"carol": ["n"], "alice": ["4"]}),
     "final": {"carol": "3", "alice": "5"}},
]


@dataclass
class Run:
    """One play-through: the fake Discord's records, tagged with the step of the script that
    produced them, the SVG behind every PNG, and the log."""

    index: int
    fake: object = None
    bot: object = None
    users: dict = field(default_factory=dict)
    game_id: int | None = None
    thread: str | None = None
    steps: list = field(default_factory=list)   # (label, records from, to, log from, to)
    private: dict = field(default_factory=dict)        # interaction token -> owner name
    svgs: dict = field(default_factory=dict)           # png bytes -> set of SVG texts
    log: io.StringIO = field(default_factory=io.StringIO)

    async def step(self, label: str, action):
        """Do one thing, let the bot deliver everything it queued, and tag what it sent."""
        start, log_start = len(self.fake.all_payloads), len(self.log.getvalue())
        result = await action
        await settle(self.bot)
        self.steps.append((label, start, len(self.fake.all_payloads), log_start,
                           len(self.log.getvalue())))
        return result

    async def state(self):
        row = await self.bot.store.get_game(self.game_id)
        return GAME.from_json(row.state)


# --------------------------------------------------------------------------- who sees what


# --------------------------------------------------------------------------- normalising


def _id_namer(run: Run):
    """A function naming the ids of a run: users, channels and the game's thread by role,
    any other snowflake or interaction token by order of first appearance."""
    fake = run.fake
    named = {fake.application_id: "<bot>", fake.guild_id: "<guild>", fake.channel_id: "<games>"}
    for name, uid in run.users.items():
        named[uid] = f"<{name}>"
        dm = fake.dm_channel(uid)
        if dm:
            named[dm] = f"<dm:{name}>"
    if run.thread:
        named[run.thread] = "<thread>"
    seen: dict[str, str] = {}

    def name(match: re.Match) -> str:
        token = match[0]
        if token in named:
            return named[token]
        return seen.setdefault(token, f"<id{len(seen)}>")

    pattern = re.compile(r"fake-interaction-token-\d+|\b\d{15,21}\b")
    return lambda text: pattern.sub(name, text)


def entries(run: Run) -> list[tuple]:
    """The run's records as comparable entries: (step, stream, audience, request, body, SVG of
    each file). Within a step, records are grouped by stream
    (a channel, or one user's interaction answers), each stream in its own order: deliveries to
    different places may interleave differently from run to run."""
    fake, rename = run.fake, _id_namer(run)
    names = {uid: name for name, uid in run.users.items()}
    out = []
    for label, start, end, *_ in run.steps:
        group = []
        for n, record in enumerate(fake.all_payloads[start:end]):
            token = re.match(r"/(?:interactions/\d+|webhooks/\d+)/([^/]+)", record.path)
            seen_by = audience(fake, record)
            if token and token[1] in run.private:
                owner = run.private[token[1]]
                assert seen_by == run.users[owner], (
                    f"{label}: the answer to {owner}'s own choice reached "
                    f"{names.get(seen_by, 'everyone')}: {record.path} {record.body}")
                continue
            stream = f"answers to {names[record.user_id]}" if token else \
                channel_role(run, record.channel_id)
            files = []
            for filename, data in record.files:
                drawn = run.svgs.get(data)
                assert drawn, f"{label}: an image ({filename}) that was not drawn by render"
                files.append(sorted(drawn))
            group.append((stream, n, label, names.get(seen_by, "everyone"),
                          f"{record.method} {record.path}", json.dumps(record.body, sort_keys=True),
                          files))
        for stream, _, label, seen_by, request, body, files in sorted(group, key=lambda g: g[:2]):
            out.append((label, stream, seen_by, rename(request), rename(body),
                        tuple(tuple(rename(svg) for svg in svgs) for svgs in files)))
    return out


def channel_role(run: Run, channel_id: str | None) -> str:
    """A channel by its role, the same in both runs."""
    fake = run.fake
    roles = {fake.channel_id: "<games>", run.thread: "<thread>"}
    for name, uid in run.users.items():
        roles[fake.dm_channel(uid)] = f"<dm:{name}>"
    return roles.get(channel_id, f"<channel {channel_id}>") if channel_id else "<no channel>"


def log_lines(run: Run) -> dict[str, set]:
    """The run's log (LOG_LEVEL=DEBUG, set up as the bot's main does) by step, without times,
    durations and the ids of Discord sessions. A step's lines are a set: the runs make
    different numbers of interactions (decoys changed more or less often), and the log counts
    them. discord.py's "Dispatching event <name>" lines are left out: they hold nothing but
    event names, and may come a step late."""
    rename = _id_namer(run)
    text = run.log.getvalue()
    by_step: dict[str, set] = {}
    # Each step takes what was logged from its start to the next step's (the first step, the
    # start-up too; the last, the shut-down).
    starts = [0] + [step[3] for step in run.steps[1:]] + [len(text)]
    for (label, *_), start, end in zip(run.steps, starts, starts[1:]):
        for line in text[start:end].splitlines():
            if "Dispatching event" in line:
                continue
            line = re.sub(r"^\S+ \S+ ", "", line)                             # the time
            line = re.sub(r"\b[0-9a-f]{32}\b|session \S+|Session ID: \S+", "<session>", line)
            line = re.sub(r"\d+\.\d+(?:s| seconds| ms)", "<t>", line)
            by_step.setdefault(label, set()).add(rename(line))
    return by_step


def explain(a: list, b: list, what: str) -> str:
    """The first difference between two entry lists, readably."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            break
    else:
        i = min(len(a), len(b))
        longer = a if len(a) > len(b) else b
        return f"{what}: one run has {abs(len(a) - len(b))} more, first: {str(longer[i])[:2000]}"
    if not isinstance(x, tuple):
        return f"{what} #{i} differs:\n  {x}\n  {y}"
    lines = [f"{what} #{i} differs (step {x[0]!r} / {y[0]!r}):"]
    for part_x, part_y in zip(x, y):
        if part_x != part_y:
            sx = part_x if isinstance(part_x, str) else "\n".join(map(str, part_x))
            sy = part_y if isinstance(part_y, str) else "\n".join(map(str, part_y))
            sx, sy = re.sub(r"(>)(<)", r"\1\n\2", sx), re.sub(r"(>)(<)", r"\1\n\2", sy)
            lines += list(difflib.unified_diff(sx.splitlines(), sy.splitlines(), lineterm="",
                                               n=1))[:40]
    return "\n".join(lines)


# --------------------------------------------------------------------------- playing


async def choose_face(run: Run, name: str, face: str, *, differs_before: bool,
                      differs_after: bool) -> None:
    """`name` chooses `face` in their usual way. An answer that may show the player's own
    choice while it differs between the runs (before this choice, for the menu the fallback
    opens; after it, for the confirmation) is left out of the comparison, and must reach that
    player alone."""
    fake, user, gid = run.fake, run.users[name], run.game_id
    if VIA[name] == "dm":
        dm = [m for m in fake.dms(user) if m.custom_ids()][-1]
        button = next(c for c in dm.custom_ids() if c.endswith(f":{face}"))
        done = await press(fake, user, button, message_id=dm.id)
    elif VIA[name] == "fallback":
        opened = await press(fake, user, f"pp:mine:{gid}")
        if differs_before:
            run.private[opened.token] = name
        menu = opened.messages[-1]
        button = next(c for c in menu.custom_ids() if c.endswith(f":{face}"))
        done = await press(fake, user, button, message_id=menu.id)
    else:
        done = await command(fake, user, "move", {"move": face}, channel=run.thread)
    assert "Your choice" in done.text, done.text
    if differs_after:
        run.private[done.token] = name


async def ask_in_words(run: Run, name: str, turn: int) -> None:
    """The position in words (issue 23): asked for, and the Describe button under the board."""
    fake, user, thread = run.fake, run.users[name], run.thread
    await run.step(f"{turn}: {name} /board text", command(fake, user, "board", {"text": True},
                                                          channel=thread))
    described = [m for m in fake.messages(thread) if f"pp:describe:{run.game_id}" in m.custom_ids()]
    assert described, "the board post has a Describe button"
    await run.step(f"{turn}: {name} describe", press(fake, user, f"pp:describe:{run.game_id}",
                                                     message_id=described[-1].id))


async def probe(run: Run, name: str, turn: int) -> None:
    """Everything a player who has not chosen yet (or a spectator) can ask or press now."""
    fake, user, thread = run.fake, run.users[name], run.thread
    await run.step(f"{turn}: {name} /board", command(fake, user, "board", channel=thread))
    await run.step(f"{turn}: {name} /games", command(fake, user, "games", channel=thread))
    await run.step(f"{turn}: {name} autocomplete", fake.autocomplete(
        user, "move", {"move": ""}, focused="move", channel=thread))
    await run.step(f"{turn}: {name} bad /move", command(fake, user, "move", {"move": "up 7"},
                                                        channel=thread))
    await run.step(f"{turn}: {name} opens controls", press(fake, user, f"pp:mine:{run.game_id}"))
    await ask_in_words(run, name, turn)
    # Old public controls from earlier act phases: a step button, a tile menu.
    old = [(m, c) for m in fake.messages(thread) for c in m.custom_ids()]
    step = next(((m, c) for m, c in old if c.startswith("pp:act:")), None)
    if step:
        await run.step(f"{turn}: {name} old step", press(fake, user, step[1], message_id=step[0].id))
    tiles = next(((m, c) for m, c in old if c.startswith("pp:gwt:")), None)
    if tiles:
        value = tiles[0].select_options(tiles[1])[0]["value"]
        await run.step(f"{turn}: {name} old tile menu", choose(fake, user, tiles[1], [value],
                                                              message_id=tiles[0].id))


async def act(run: Run, turn: int) -> None:
    """The act phase, the same moves in both runs: the first tile and destination offered, the
    first step button, the first /move suggestion, by turns."""
    fake, thread = run.fake, run.thread
    names = {uid: name for name, uid in run.users.items()}
    way = 0
    while True:
        state = await run.state()
        if state["data"]["phase"] != "act" or not GAME.to_act(state):
            return
        (actor,) = GAME.to_act(state)
        user, board = actor, fake.messages(thread)[-1]
        label = f"{turn}: {names[actor]} acts ({way})"
        tile_menu = next((c for c in board.custom_ids() if c.startswith("pp:gwt:")), None)
        if tile_menu:
            source = board.select_options(tile_menu)[0]["value"]
            menu = (await run.step(label, choose(fake, user, tile_menu, [source],
                                                 message_id=board.id))).messages[-1]
            dest_menu = menu.custom_ids()[0]
            target = menu.select_options(dest_menu)[0]["value"]
            await run.step(label + " to", choose(fake, user, dest_menu, [target], message_id=menu.id))
        elif way % 2 == 0:
            step = next(c for c in board.custom_ids() if c.startswith("pp:act:"))
            await run.step(label, press(fake, user, step, message_id=board.id))
        else:
            (first, *_) = await fake.autocomplete(user, "move", {"move": ""}, focused="move",
                                                  channel=thread)
            await run.step(label, command(fake, user, "move", {"move": first["value"]},
                                          channel=thread))
        way += 1
        assert way < 20


async def play(run: Run, tmp_path) -> None:
    """The script: lobby, then three turns with decoys and probes, up to (not including) the
    last choice of turn 3."""
    async with fake_discord() as fake:
        run.fake = fake
        run.users = {name: fake.add_user(name) for name in (*PLAYERS, SPECTATOR)}
        fake.close_dms(run.users["carol"])
        handler = setup_logging(settings_for(fake, tmp_path / f"run{run.index}.sqlite3",
                                             log_level="DEBUG"), stream=run.log)
        # Only the bot's side: the fake Discord's own server logs are not the bot's.
        handler.addFilter(lambda r: not r.name.startswith(("fakediscord", "aiohttp.access",
                                                           "aiohttp.server", "aiohttp.web")))
        try:
            async with running_bot(fake, tmp_path / f"run{run.index}.sqlite3", clock=FakeClock(),
                                   seed=SEED) as bot:
                run.bot = bot
                await script(run)
        finally:
            logging.getLogger().removeHandler(handler)


async def script(run: Run) -> None:
    fake, users = run.fake, run.users
    alice = users["alice"]
    res = await run.step("/play", command(fake, alice, "play", {"game": "global-warming"}))
    lobby = res.original
    for name in ("bob", "carol"):
        await run.step(f"{name} joins", press(fake, users[name], lobby.button("Join"),
                                              message_id=lobby.id))
    await run.step("start", press(fake, alice, lobby.button("Start"), message_id=lobby.id))
    (row,) = await run.bot.store.games_of_user(int(alice))
    run.game_id, run.thread = row.id, str(row.thread_id)

    for turn, plan in enumerate(TURNS, start=1):
        *deciding, last = plan["order"]
        state = await run.state()
        assert state["data"]["turn"] == turn and state["data"]["phase"] == "commit"
        assert not state["data"]["drowned"]
        for name in deciding:
            for n, face in enumerate(plan["decoys"][run.index][name]):
                # The same label in both runs, however often the player changes their mind.
                await run.step(f"{turn}: {name} decoys", choose_face(
                    run, name, face, differs_before=n > 0, differs_after=True))
        for name in (last, SPECTATOR):
            await probe(run, name, turn)
        for name in deciding:
            await run.step(f"{turn}: {name} final", choose_face(
                run, name, plan["final"][name], differs_before=True, differs_after=False))
        if turn == len(TURNS):
            return   # the line's third coin, turned at the end of this turn, differs
        await run.step(f"{turn}: {last} chooses last",
                       choose_face(run, last, plan["final"][last], differs_before=False,
                                   differs_after=False))
        await act(run, turn)


# --------------------------------------------------------------------------- the test


@pytest.fixture
def drawings(monkeypatch):
    """Record the SVG behind every PNG the renderer makes, by the PNG's bytes, into the last
    dict of the returned list (one per run)."""
    sinks: list[dict] = [{}]
    to_png = render.svg_to_png

    def recording(svg, width=None):
        png = to_png(svg, width=width)
        sinks[-1].setdefault(png, set()).add(svg)
        return png

    monkeypatch.setattr(render, "svg_to_png", recording)
    return sinks


@pytest.fixture
def coins(monkeypatch):
    """The coins each game is dealt with: a test hook into the engine (players cannot set them)."""
    chosen: list = []
    new_game = GAME.new_game

    def dealt(players, seed=0, options=None):
        options = dict(options or {})
        if len(players) == len(PLAYERS):   # not the throw-away game that checks /play options
            options.update(island=ISLAND, starts=STARTS, coins=chosen[-1])
        return new_game(players, seed=seed, options=options)

    monkeypatch.setattr(GAME, "new_game", dealt)
    return chosen


@pytest.fixture
def quiet_logging():
    """setup_logging changes global loggers; put them back afterwards."""
    root = logging.getLogger()
    names = ("discord", "discord.http", "discord.gateway", "discord.state", "discord.webhook",
             "aiosqlite")
    saved = root.level, {n: logging.getLogger(n).level for n in names}
    yield
    root.setLevel(saved[0])
    for name, level in saved[1].items():
        logging.getLogger(name).setLevel(level)


async def test_nothing_public_depends_on_secret_faces_or_coins(tmp_path, drawings, coins,
                                                              quiet_logging):
    runs = []
    for index in (0, 1):
        coins.append(_coins(index))
        drawings.append({})
        run = Run(index, svgs=drawings[-1])
        await play(run, tmp_path)
        runs.append(run)
    a, b = runs
    # The two deals differ in hidden coins only.
    options = {"island": ISLAND, "starts": STARTS}
    unpatched = engine.global_warming.GlobalWarming()
    deal_a = unpatched.new_game(PLAYERS, SEED, {**options, "coins": _coins(0)})
    deal_b = unpatched.new_game(PLAYERS, SEED, {**options, "coins": _coins(1)})
    assert deal_a["data"]["line"] != deal_b["data"]["line"]
    assert deal_a["data"]["bag"] != deal_b["data"]["bag"]

    stream_a, stream_b = entries(a), entries(b)
    assert len(stream_a) > 100
    assert any(e[2] == "everyone" and e[5] for e in stream_a)     # public images were compared
    assert any(e[2] == "erin" for e in stream_a)                   # so were the spectator's answers
    assert stream_a == stream_b, explain(stream_a, stream_b, "payload")
    assert GAME.view(deal_a) == GAME.view(deal_b)

    logs_a, logs_b = log_lines(a), log_lines(b)
    assert any("bot.app" in line for lines in logs_a.values() for line in lines)
    for label in sorted(set(logs_a) | set(logs_b)):
        assert logs_a.get(label) == logs_b.get(label), \
            f"log of step {label!r}: {sorted(set(logs_a.get(label, ())) ^ set(logs_b.get(label, ())))}"


async def test_a_face_press_that_cannot_be_answered_logs_no_face(tmp_path, monkeypatch,
                                                                quiet_logging):
    """The connection to Discord drops while a player's choice is confirmed: the choice counts,
    the error is logged, and the log (at the default level) must not say which face it was."""
    log = io.StringIO()
    async with fake_discord() as fake:
        handler = setup_logging(settings_for(fake, tmp_path / "db"), stream=log)
        try:
            async with running_bot(fake, tmp_path / "db", clock=FakeClock(), seed=SEED) as bot:
                alice, bob = fake.add_user("alice"), fake.add_user("bob")
                lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
                await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
                await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
                await settle(bot)

                async def dropped(*args, **kwargs):
                    raise aiohttp.ClientConnectionError("Connection reset by peer")

                monkeypatch.setattr(discord.Webhook, "send", dropped)
                (dm,) = fake.dms(alice)
                await fake.click(alice, next(c for c in dm.custom_ids() if c.endswith(":5")),
                                 message_id=dm.id)
                await fake.wait_for(lambda: "Connection reset" in log.getvalue())
                await asyncio.sleep(0.1)   # discord.py logs the callback's failure last
                (row,) = await bot.store.games_of_user(int(alice))
                assert GAME.from_json(row.state)["data"]["commits"] == {alice: "5"}
        finally:
            logging.getLogger().removeHandler(handler)
    text = log.getvalue()
    assert "unexpected error in game" in text
    for secret in ("label='5'", "**5**", "action='5'"):
        assert secret not in text, text
    assert not re.search(r"pp:(act|sec):[\d:]+[0-9a-f]{8}:5", text), text
