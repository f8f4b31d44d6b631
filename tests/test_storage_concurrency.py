"""Several processes on one database: two Store objects (each its own connections) writing at
once lose nothing and never both win (on SQLite too: two connections to one file)."""

import asyncio
import hashlib

from bot.storage import Conflict, Event, RatedResult, Seat, Store, migrations
from tests import pg
from tests.pg import database_for


async def two_stores(tmp_path):
    target = database_for(tmp_path / "db.sqlite3")
    return await Store.open(target), await Store.open(target)


async def new_game(store, host=10):
    return await store.create_game(game="relativity", guild_id=1, channel_id=2, host_id=host,
                                   host_name="A", options={}, deadline_seconds=None,
                                   invited_id=None, now=1.0)


async def test_concurrent_commits_to_one_game_exactly_one_wins(tmp_path):
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    for version in range(3):
        results = await asyncio.gather(
            *(store.commit(game.id, version, now=2.0, changes={"state": f"{i}"},
                           events=[Event("move", str(i))], timers={"deadline": (9.0, {"i": i})})
              for i, store in enumerate([a, b] * 4)), return_exceptions=True)
        assert sum(r == version + 1 for r in results) == 1
        assert all(isinstance(r, Conflict) for r in results if r != version + 1)
    events = await b.events(game.id)
    assert [e["kind"] for e in events] == ["lobby", "move", "move", "move"]
    assert len(await a.timers_of(game.id)) == 1
    await a.close()
    await b.close()


async def test_read_then_write_spots_lose_nothing(tmp_path):
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    await asyncio.gather(*(store.merge_extras(game.id, {f"k{i}": i}, now=1.0)
                           for i, store in enumerate([a, b] * 5)))
    assert (await a.get_game(game.id)).extras == {f"k{i}": i for i in range(10)}

    seats = [Seat(0, 10, "A"), Seat(1, 11, "B")]
    opened = await asyncio.gather(*(store.open_rematch(
        game.id, game="relativity", guild_id=1, channel_id=2, host_id=10, seats=seats,
        options={}, deadline_seconds=None, accepted=[], now=3.0) for store in [a, b] * 3))
    assert sum(created for _, created in opened) == 1
    assert len({row.id for row, _ in opened}) == 1
    new_id = opened[0][0].id
    await asyncio.gather(*(store.accept_rematch(new_id, str(p)) for p, store in
                           zip(range(20, 30), [a, b] * 5)))
    assert sorted((await a.rematch_of(new_id))[1]) == [str(p) for p in range(20, 30)]

    await asyncio.gather(*(store.set_absence(1, 10, now=5.0 + i / 100, ends_at=99.0)
                           for i, store in enumerate([a, b] * 3)))
    assert len(await a.absences_now(1, [10], now=6.0)) == 1
    await a.close()
    await b.close()


async def test_ratings_of_games_finishing_at_once_count_every_game(tmp_path):
    a, b = await two_stores(tmp_path)
    games = [await new_game(a) for _ in range(6)]

    def result(winner):
        return RatedResult(guild_id=1, game="relativity", places={10: 1, 11: 2} if winner == 10
                           else {11: 1, 10: 2}, names={10: "A", 11: "B"},
                           winners=frozenset({winner}), drew=frozenset(),
                           rate=lambda now: {u: ((r or (25.0, 8.0))[0] + 1, 8.0)
                                             for u, r in now.items()})

    await asyncio.gather(*(store.commit(g.id, 0, now=2.0, changes={"status": "finished"},
                                        rated=result(10 if i % 2 else 11))
                           for i, (g, store) in enumerate(zip(games, [a, b] * 3))))
    ratings = {r.user_id: r for r in await b.ratings_of_game(1, "relativity")}
    assert {u: (r.games, r.wins, r.mu) for u, r in ratings.items()} == {
        10: (6, 3, 31.0), 11: (6, 3, 31.0)}
    await a.close()
    await b.close()


async def test_migrations_run_once_when_two_opens_race(tmp_path, monkeypatch):
    extra = ("CREATE TABLE IF NOT EXISTS runs (x INTEGER); INSERT INTO runs VALUES (1)")
    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + [extra])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", len(migrations.MIGRATIONS))
    if pg.ENGINE["name"] == "sqlite":
        target = str(tmp_path / "fresh.sqlite3")
    else:   # an empty database, not the migrated template
        name = "e_" + hashlib.sha1(str(tmp_path).encode()).hexdigest()[:12]
        pg.SERVER.admin(f'CREATE DATABASE "{name}"')
        pg.SERVER.made.append(name)
        target = pg.SERVER.url_of(name)
    stores = await asyncio.gather(*(Store.open(target) for _ in range(4)))
    for store in stores:
        assert await store.schema_version() == migrations.SCHEMA_VERSION
    async with stores[0].engine.connection() as tx:
        assert (await tx.first("SELECT COUNT(*) FROM runs"))[0] == 1
    for store in stores:
        await store.close()


async def test_a_reminder_set_while_a_move_commits_never_outlives_the_move(tmp_path):
    """set_timer (a reminder) reads the game's version, then writes its timer: a move committed
    in between replaces the game's timers, so the reminder must fail (Conflict) or come first."""
    a, b = await two_stores(tmp_path)
    game = await new_game(a)
    for version in range(30):
        results = await asyncio.gather(
            a.commit(game.id, version, now=2.0, timers={"deadline": (50.0, {})}),
            b.set_timer(game.id, version, "reminder", 40.0, [], now=2.0),
            return_exceptions=True)
        assert results[0] == version + 1
        assert results[1] is None or isinstance(results[1], Conflict)
        assert set(await a.timers_of(game.id)) == {"deadline"}, version
    await a.close()
    await b.close()
