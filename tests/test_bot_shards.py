"""Shards: the settings that choose a process's shards, one process running two shards against
the fake Discord (games in servers on both; a Global Warming game on shard 1 whose secret
choices arrive by DM on shard 0), which process publishes the commands, per-shard health."""

from __future__ import annotations

import time

import pytest

from bot.app import GATEWAY_GRACE, health_problem
from bot.settings import SettingsError, load_settings
from tests.botkit import command, fake, press, running_bot, said, settle  # noqa: F401
from tests.test_bot_degraded import run_bot_process

ROOT_ENV = {"DISCORD_TOKEN": "t"}


def shards_of(**env) -> tuple:
    s = load_settings({**ROOT_ENV, **env}, cwd=None)
    return s.shard_count, s.shard_ids


# ---- settings ----------------------------------------------------------------------------------


def test_by_default_one_process_runs_discords_recommended_shards(tmp_path):
    s = load_settings(ROOT_ENV, cwd=tmp_path)
    assert (s.shard_count, s.shard_ids, s.sync_commands, s.identify_spacing) == (None, None, "auto", 5.0)
    assert shards_of(PIECEPACK_SHARD_COUNT="4") == (4, None)


@pytest.mark.parametrize("text, ids", [("0-3", (0, 1, 2, 3)), ("0,2,5-6", (0, 2, 5, 6)),
                                       (" 3 ", (3,)), ("1,1,0", (0, 1))])
def test_a_shard_list_is_read(text, ids):
    db = "postgresql://db/pp"   # (a subset of shards needs PostgreSQL)
    assert shards_of(PIECEPACK_SHARD_COUNT="8", PIECEPACK_SHARDS=text, PIECEPACK_DB=db) == (8, ids)


@pytest.mark.parametrize("cluster, count, ids", [(0, 2, (0, 1, 2)), (1, 2, (3, 4, 5)),
                                                 (0, 3, (0, 1)), (2, 3, (4, 5))])
def test_clusters_hold_contiguous_ranges_and_cluster_0_holds_shard_0(cluster, count, ids):
    db = "postgresql://db/pp"
    assert shards_of(PIECEPACK_SHARD_COUNT="6", PIECEPACK_CLUSTER_ID=str(cluster),
                     PIECEPACK_CLUSTER_COUNT=str(count), PIECEPACK_DB=db) == (6, ids)


@pytest.mark.parametrize("env, named", [
    ({"PIECEPACK_SHARD_COUNT": "0"}, "PIECEPACK_SHARD_COUNT"),
    ({"PIECEPACK_SHARD_COUNT": "two"}, "PIECEPACK_SHARD_COUNT"),
    ({"PIECEPACK_SHARDS": "0-1"}, "needs PIECEPACK_SHARD_COUNT"),
    ({"PIECEPACK_SHARD_COUNT": "2", "PIECEPACK_SHARDS": "0-2"}, "from 0 to 1"),
    ({"PIECEPACK_SHARD_COUNT": "4", "PIECEPACK_SHARDS": "3-1"}, "PIECEPACK_SHARDS"),
    ({"PIECEPACK_SHARD_COUNT": "4", "PIECEPACK_SHARDS": "a"}, "PIECEPACK_SHARDS"),
    ({"PIECEPACK_SHARD_COUNT": "4", "PIECEPACK_SHARDS": "0", "PIECEPACK_CLUSTER_ID": "0",
      "PIECEPACK_CLUSTER_COUNT": "2"}, "not both"),
    ({"PIECEPACK_SHARD_COUNT": "4", "PIECEPACK_CLUSTER_ID": "0"}, "go together"),
    ({"PIECEPACK_SHARD_COUNT": "4", "PIECEPACK_CLUSTER_ID": "2",
      "PIECEPACK_CLUSTER_COUNT": "2"}, "below PIECEPACK_CLUSTER_COUNT"),
    ({"PIECEPACK_SYNC_COMMANDS": "sometimes"}, "PIECEPACK_SYNC_COMMANDS"),
    ({"PIECEPACK_IDENTIFY_SPACING": "-1"}, "PIECEPACK_IDENTIFY_SPACING"),
])
def test_bad_shard_settings_are_named(env, named):
    with pytest.raises(SettingsError, match=named):
        load_settings({**ROOT_ENV, "PIECEPACK_DB": "postgresql://db/pp", **env}, cwd=None)


@pytest.mark.parametrize("env", [{"PIECEPACK_SHARDS": "1"},
                                 {"PIECEPACK_CLUSTER_ID": "1", "PIECEPACK_CLUSTER_COUNT": "2"}])
def test_a_subset_of_shards_on_a_sqlite_file_is_refused(env):
    with pytest.raises(SettingsError, match="several processes need PostgreSQL"):
        load_settings({**ROOT_ENV, "PIECEPACK_SHARD_COUNT": "2", **env}, cwd=None)
    # all the shards listed: one process, fine on a file
    assert shards_of(PIECEPACK_SHARD_COUNT="2", PIECEPACK_SHARDS="0-1") == (2, (0, 1))


@pytest.mark.sqlite_only   # (a file database is the point)
async def test_python_m_bot_with_a_subset_of_shards_on_a_file_exits_with_the_message(fake, tmp_path):
    code, output = await run_bot_process(fake, tmp_path, PIECEPACK_SHARD_COUNT="2", PIECEPACK_SHARDS="1")
    assert code == 2 and "several processes need PostgreSQL" in output and "Traceback" not in output
    assert fake.identify_count == 0 and fake.command_publishes == 0


# ---- one process, two shards ----------------------------------------------------------------


def servers(fake):
    """A server on each of 2 shards, with its games channel."""
    g0 = fake.add_guild("Shard Zero Club", shard=0, shard_count=2)
    g1 = fake.add_guild("Shard One Club", shard=1, shard_count=2)
    return (g0, fake.add_channel("games", guild=g0)), (g1, fake.add_channel("games", guild=g1))


async def open_relativity(fake, bot, host, guest, channel):
    res = await command(fake, host, "play", {"game": "relativity"}, channel=channel)
    join = await press(fake, guest, res.original.button("Join"), message_id=res.original.id)
    await settle(bot)
    row = (await bot.store.games_of_user(int(host)))[-1]
    assert row.status == "active"
    return row, res, join


async def test_one_process_runs_discords_recommended_two_shards_with_games_on_both(fake, tmp_path):
    fake.recommended_shards = 2   # GET /gateway/bot: no PIECEPACK_SHARD_COUNT set
    (g0, c0), (g1, c1) = servers(fake)
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    async with running_bot(fake, tmp_path / "bot.sqlite3") as bot:
        assert sorted(fake.identified_shards) == [(0, 2), (1, 2)] and bot.shard_count == 2
        assert fake.command_publishes == 1   # this process runs shard 0
        row0, *answers0 = await open_relativity(fake, bot, alice, bob, c0)
        row1, *answers1 = await open_relativity(fake, bot, carol, dave, c1)
        assert (row0.guild_id, row1.guild_id) == (int(g0), int(g1))
        assert {res.shard for res in answers0} == {0} and {res.shard for res in answers1} == {1}
        for row, (first, second) in ((row0, (alice, bob)), (row1, (carol, dave))):
            thread = str(row.thread_id)
            assert fake.channel(thread).guild_id == str(row.guild_id)
            mover = first if row.seats[0].user_id == int(first) else second
            res = await command(fake, mover, "move", {"move": "a1"}, channel=thread)   # any answer
            assert res.shard == fake.shard_of(row.guild_id, 2)
        status = await bot.health_status()
        assert status["shards"] == [0, 1] and status["shards_connected"] == [0, 1]
        assert status["gateway"] == "connected" and health_problem(status, time.time()) is None
        # one shard down longer than the grace: the process is unhealthy, and says which
        await bot.on_shard_disconnect(1)
        status = await bot.health_status()
        assert status["gateway"] == "disconnected" and status["shards_down"] == [1]
        later = status["gateway_since"] + GATEWAY_GRACE + 1
        problem = health_problem({**status, "at": later}, later)   # (a fresh heartbeat then)
        assert problem is not None and "(shard 1)" in problem
        assert health_problem(status, status["gateway_since"] + 5) is None
        await bot.on_shard_resumed(1)
        assert (await bot.health_status())["gateway"] == "connected"


async def test_global_warming_on_shard_1_takes_secret_choices_by_dm_on_shard_0(fake, tmp_path):
    (_, _), (g1, c1) = servers(fake)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=7, shard_count=2) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming"}, channel=c1)
        lobby = res.original
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        (row,) = await bot.store.games_of_user(int(alice))
        assert row.guild_id == int(g1) and row.status == "active"
        thread = str(row.thread_id)
        await settle(bot)
        posts = len(fake.messages(thread))
        for user, face in ((alice, "3"), (bob, "5")):
            (dm,) = [m for m in fake.dms(user) if m.custom_ids()]
            button = next(c for c in dm.custom_ids() if c.endswith(f":{face}"))
            chosen = await press(fake, user, button, message_id=dm.id)
            assert chosen.shard == 0 and fake.channel(chosen.channel_id).type == 1   # a DM
            assert "Your choice for turn 1" in said(chosen) or "Your choice for turn 1" in chosen.text
            await settle(bot)
        (reveal,) = fake.messages(thread)[posts:]
        assert "**alice**" in reveal.content and "**bob**" in reveal.content
        assert all(m.custom_ids() == [] for user in (alice, bob) for m in fake.dms(user))


# ---- publishing the commands ----------------------------------------------------------------


async def test_commands_are_published_by_the_process_with_shard_0_only(fake, tmp_path):
    """A process that runs shard 1 only (on a file: allowed here because tests build Settings
    directly; PIECEPACK_SHARDS refuses it, tested above) connects that shard and publishes
    nothing; the one with shard 0 publishes once."""
    (_, c0), (_, c1) = servers(fake)
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "b.sqlite3", shard_count=2, shard_ids=(1,)) as bot:
        assert fake.identified_shards == [(1, 2)] and fake.command_publishes == 0
        assert bot.own_shards() == [1] and not bot.publishes_commands()
    async with running_bot(fake, tmp_path / "a.sqlite3", shard_count=2, shard_ids=(0,)) as bot:
        assert fake.identified_shards[-1] == (0, 2) and fake.command_publishes == 1
        res = await command(fake, alice, "help", channel=c0)
        assert res.shard == 0
    # shard 1 again, with the commands there now: its server's /play is answered
    async with running_bot(fake, tmp_path / "b.sqlite3", shard_count=2, shard_ids=(1,)) as bot:
        res = await command(fake, alice, "play", {"game": "relativity"}, channel=c1)
        assert res.shard == 1 and res.original.button("Join")
    assert fake.command_publishes == 1


@pytest.mark.parametrize("mode, shards, publishes", [
    ("auto", None, True), ("auto", (0,), True), ("auto", (1, 2), False),
    ("always", (1,), True), ("never", None, False), ("never", (0,), False)])
def test_the_publishing_rule(mode, shards, publishes, tmp_path):
    from bot.app import PiecepackBot
    from bot.settings import Settings

    bot = PiecepackBot(Settings(token="t", db_path=str(tmp_path / "x.sqlite3"), sync_commands=mode,
                                shard_count=3 if shards else None, shard_ids=shards))
    assert bot.publishes_commands() is publishes


async def test_shards_identify_the_spacing_apart(fake, tmp_path):
    """Discord's 5 s between IDENTIFYs is a setting (0 in the tests, which would be slow else):
    here 0.5 s, so the second shard's connection waits that long after the first."""
    fake.recommended_shards = 2
    async with running_bot(fake, tmp_path / "bot.sqlite3", identify_spacing=0.5):
        assert sorted(fake.identified_shards) == [(0, 2), (1, 2)]
        first, second = fake.identified_at
        assert second - first >= 0.5
