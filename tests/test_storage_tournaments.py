"""The tournaments' storage (issue 25) on SQLite and PostgreSQL: entrants, rounds with their
games, version-checked changes, and the tournament's timed work claimed once."""

import pytest

from bot.storage import Conflict, Notice, Store
from tests.pg import database_for


async def new_tournament(store, **kwargs):
    values = dict(guild_id=1, channel_id=2, organiser_id=10, game="relativity", options={},
                  format="swiss", rounds=3, deadline_seconds=86400, round_seconds=None,
                  starts_at=None, seed=7, now=100.0)
    values.update(kwargs)
    return await store.create_tournament(**values)


async def test_entrants_rounds_games_and_results(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        t = await new_tournament(store)
        assert (t.status, t.round, t.version) == ("signup", 0, 0)
        for user, name in [(10, "Ann"), (11, "Bob"), (12, "Cy"), (12, "Cy again")]:
            await store.add_entrant(t.id, user, name)
        assert await store.drop_entrant(t.id, 11)
        assert await store.add_entrant(t.id, 11, "Bob")
        t = await store.get_tournament(t.id)
        assert [(e.user_id, e.name) for e in t.entrants] == [(10, "Ann"), (12, "Cy"), (11, "Bob")]
        ids = await store.open_round(
            t.id, t.version, number=1, bye=11, forfeits=[["11", "9"]], tables=[(["12", "10"], {"12": "Cy", "10": "Ann"})],
            game="relativity", options={}, deadline_seconds=86400,
            changes={"status": "running", "round": 1}, notices=[Notice("channel", 2, {"content": "R1"})],
            now=110.0)
        with pytest.raises(Conflict):   # the same version twice: one round opens
            await store.open_round(t.id, t.version, number=1, bye=None, forfeits=[], tables=[], game="relativity",
                                   options={}, deadline_seconds=None, changes={"round": 1},
                                   notices=[], now=111.0)
        game = await store.get_game(ids[0])
        assert (game.status, game.player_ids, game.host_id) == ("lobby", ["12", "10"], 10)   # the organiser
        assert await store.tournament_of_game(ids[0]) == (t.id, 1, 1)
        assert await store.tournament_of_game(ids[0] + 1) is None
        assert await store.rounds_of(t.id) == [{"round": 1, "bye": 11, "forfeits": [["11", "9"]],
                                                "closed": False}]
        await store.add_forfeit(ids[0], "10")
        await store.add_forfeit(ids[0], "10")
        t = await store.get_tournament(t.id)
        await store.close_round(t.id, t.version, number=1,
                                results={ids[0]: {"points": {"12": 1, "10": 0}, "forfeit": ["10"]}},
                                changes={"round_ends_at": None}, notices=[], now=120.0)
        assert (await store.rounds_of(t.id))[0]["closed"]
        [link] = await store.tournament_games(t.id, 1)
        assert (link.seats, link.forfeit, link.result["points"]) == (["12", "10"], ["10"], {"12": 1, "10": 0})
        assert await store.set_entrant_status(t.id, 10, "withdrawn", now=121.0)
        assert not await store.set_entrant_status(t.id, 10, "removed", now=122.0)
        t = await store.get_tournament(t.id)
        assert [e.user_id for e in t.active] == [12, 11]
        assert [x.id for x in await store.tournaments_in(1, ("running",))] == [t.id]
        assert await store.forget_guild(1) == 1
        assert await store.get_tournament(t.id) is None
    finally:
        await store.close()


async def test_timed_work_is_claimed_once_and_released(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        t = await new_tournament(store, starts_at=500.0)
        assert await store.claim_tournaments("a", 400.0, 1000.0, 1030.0) == []
        assert await store.claim_tournaments("a", 500.0, 1000.0, 1030.0) == [t.id]
        assert await store.claim_tournaments("b", 500.0, 1000.0, 1030.0) == []   # held by a
        assert await store.claim_tournaments("b", 500.0, 1031.0, 1060.0) == [t.id]   # a's lapsed
        assert await store.claimants() == {"b"}   # (a restart frees a dead claimant's tournaments too)
        await store.release_leases("b")
        assert await store.claim_tournaments("a", 500.0, 1040.0, 1070.0) == [t.id]   # at once
        await store.release_tournament(t.id, "a")
        await store.set_tournament_due(t.id, None)
        assert await store.claim_tournaments("a", 9999.0, 1100.0, 1130.0) == []
    finally:
        await store.close()


async def test_the_worker_wakes_for_a_tournaments_timed_work(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        assert await store.next_wake(100.0, 1000.0) is None
        await new_tournament(store, starts_at=500.0)
        assert await store.next_wake(100.0, 1000.0) == 400.0
    finally:
        await store.close()
