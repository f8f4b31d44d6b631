"""Ratings through the bot (fake Discord, real SQLite): after a few games, among them a
four-player Global Warming game, the stored and shown ratings are openskill's own figures for
the same results, computed here by calling the library directly; a resignation counts, an
aborted game and a game against the computer do not; two resignations at once and a restart
rate nothing twice; /leaderboard and /stats show the numbers, names escaped, pinging nobody."""

from __future__ import annotations

import asyncio

import pytest
from openskill.models import PlackettLuce

import engine
from bot import computers, ratings
from bot.storage import Seat, Store
from tests.botkit import (command, drawn, fake, open_game, press, running_bot, said,  # noqa: F401
                          settle)
from tests.pg import database_for

GW = engine.get_game("global-warming")


def shown(rating) -> int:
    """The README's shown rating: 1000 + 40 × openskill's ordinal (mu - 3 sigma)."""
    return round(1000 + 40 * rating.ordinal())


class Expected:
    """The ratings as the test works them out: openskill's PlackettLuce model, called directly,
    on the results in the order the games finished."""

    def __init__(self):
        self.model = PlackettLuce()
        self.ratings: dict[tuple[str, str], object] = {}
        self.history: dict[tuple[str, str], list[int]] = {}
        self.counts: dict[tuple[str, str], list[int]] = {}   # games, wins, draws

    def game(self, name: str, ranks: dict[str, int], winners=(), draw=False) -> dict[str, tuple]:
        """Rate a game; returns each player's shown rating (before, after)."""
        players = list(ranks)
        teams = [[self.ratings.get((name, p)) or self.model.rating()] for p in players]
        new = self.model.rate(teams, ranks=[ranks[p] for p in players])
        changes = {}
        for p, [old], [rating] in zip(players, teams, new):
            changes[p] = (shown(old), shown(rating))
            self.ratings[name, p] = rating
            self.history.setdefault((name, p), []).append(shown(rating))
            games, wins, draws = self.counts.get((name, p), [0, 0, 0])
            self.counts[name, p] = [games + 1, wins + (p in winners), draws + draw]
        return changes

    def players(self, name: str) -> set[str]:
        return {p for g, p in self.ratings if g == name}


async def stored(bot, game: str) -> dict[str, object]:
    return {str(r.user_id): r for r in await bot.store.ratings_of_game(int(bot.guilds[0].id), game)}


async def check_stored(bot, expected: Expected) -> None:
    for game in ratings.RATED_GAMES:
        rows = await stored(bot, game)
        assert set(rows) == expected.players(game), game
        for player, row in rows.items():
            want = expected.ratings[game, player]
            assert row.mu == pytest.approx(want.mu, abs=1e-9)
            assert row.sigma == pytest.approx(want.sigma, abs=1e-9)
            assert [row.games, row.wins, row.draws] == expected.counts[game, player]
            assert ratings.shown(row.mu, row.sigma) == shown(want)


def ratings_posts(fake, thread) -> list[str]:
    """The ratings lines of a game's thread."""
    return [line for m in fake.messages(thread) for line in m.content.splitlines()
            if line.startswith("📈")]


def ratings_line(changes: dict[str, tuple], names: dict[str, str], order: list[str]) -> str:
    return "📈 Ratings: " + ", ".join(
        f"**{names[p]}** {changes[p][1]} ({changes[p][1] - changes[p][0]:+d})" for p in order)


async def play_global_warming_to_the_end(fake, bot, users, thread, game_id) -> dict:
    """Everyone left commits the same face each turn (all cancel) until the island has drowned
    all but one, or all; returns the final state."""
    for _ in range(60):
        row = await bot.store.get_game(game_id)
        if row.status != "active":
            return GW.from_json(row.state)
        state = GW.from_json(row.state)
        for user in users:
            if str(user) in GW.awaited(state):
                res = await command(fake, user, "move", {"move": "a"}, channel=thread)
                assert "choice" in said(res).lower() or "played" in said(res).lower(), said(res)
        await settle(bot)
    raise AssertionError("the game did not end")


async def test_ratings_follow_openskill_over_several_games_and_a_restart(fake, drawn, tmp_path):
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    dave = fake.add_user("dave", display_name="*Dave* @everyone")
    names = {str(alice): "alice", str(bob): "bob", str(carol): "carol", str(dave): "*Dave* @everyone"}
    db = tmp_path / "bot.sqlite3"
    expected = Expected()
    async with running_bot(fake, db, seed=7) as bot:
        assert {"leaderboard", "stats"} <= {c["name"] for c in fake.published_commands[None]}
        board = fake.command("leaderboard")
        assert [c["value"] for c in board["options"][0]["choices"]] == \
            ["relativity", "global-warming", "galaxies", "byop1"]   # not Pack Solitaire
        refused = await command(fake, alice, "stats", {})
        assert "no rating in this server yet" in said(refused)
        refused = await command(fake, alice, "leaderboard", {"game": "relativity"})
        assert "Nobody has a rating for Relativity" in said(refused)

        # 1. Relativity: bob resigns, twice at the same moment: one counts, once.
        row, thread = await open_game(fake, bot, alice, bob)
        answers = await asyncio.gather(*(command(fake, bob, "resign", {}, channel=thread) for _ in range(2)))
        assert sorted("You resigned." in said(a) for a in answers) == [False, True]
        await settle(bot)
        changes = expected.game("relativity", {str(alice): 1, str(bob): 2}, winners={str(alice)})
        await check_stored(bot, expected)
        # the result post says the new ratings, once, under the result
        assert ratings_posts(fake, thread) == [ratings_line(changes, names, [str(alice), str(bob)])]
        end = fake.messages(thread)[-1].content.splitlines()
        assert end[-2].startswith("🏁") and end[-1].startswith("📈")
        assert changes[str(bob)][1] < 1000 < changes[str(alice)][1]

        # 2. Relativity aborted by its host: no rating changes, carol gets none.
        row, thread = await open_game(fake, bot, alice, carol)
        await command(fake, alice, "move", {"move": next(iter(
            engine.get_game("relativity").legal_actions(
                engine.get_game("relativity").from_json((await bot.store.get_game(row.id)).state),
                str(alice))))}, channel=thread)
        aborted = await command(fake, alice, "abort", {}, channel=thread)
        assert "aborted" in said(aborted)
        assert (await bot.store.get_game(row.id)).status == "cancelled"
        await check_stored(bot, expected)

        # 3. Galaxies: bob and carol agree a draw.
        row, thread = await open_game(fake, bot, bob, carol, game="galaxies")
        await command(fake, bob, "draw", {"action": "offer"}, channel=thread)
        await command(fake, carol, "draw", {"action": "accept"}, channel=thread)
        await settle(bot)
        assert (await bot.store.get_game(row.id)).status == "finished"
        changes = expected.game("galaxies", {str(bob): 1, str(carol): 1}, draw=True)
        await check_stored(bot, expected)
        assert ratings_posts(fake, thread) == [ratings_line(changes, names, [str(bob), str(carol)])]

        # 4. Global Warming for four: dave resigns at once, the island drowns the others in
        # turn. Places come from the engine: the winner, then by players outlasted.
        lobby = (await command(fake, alice, "play", {"game": "global-warming"})).original
        for user in (bob, carol, dave):
            await press(fake, user, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        row = (await bot.store.games_of_user(int(alice), statuses=("active",)))[-1]
        thread = str(row.thread_id)
        await settle(bot)
        assert "You resigned." in said(await command(fake, dave, "resign", {}, channel=thread))
        await settle(bot)
        state = await play_global_warming_to_the_end(fake, bot, [alice, bob, carol, dave], thread, row.id)
        scores = GW.scores(state)
        assert scores[str(dave)] == 0 and len(set(scores.values())) > 1
        gw_ranks = {p: 1 + sum(s > scores[p] for s in scores.values()) for p in scores}
        changes = expected.game("global-warming", gw_ranks, winners=set(GW.outcome(state).winners))
        await check_stored(bot, expected)
        (line,) = ratings_posts(fake, thread)
        escaped = {**names, str(dave): "\\*Dave\\* @\u200beveryone"}
        assert line == ratings_line(changes, escaped, sorted(gw_ranks, key=gw_ranks.get))   # (ties: seat order)

        # 5. Relativity against the computer: not rated, whoever wins.
        await command(fake, alice, "play", {"game": "relativity", "computers": "easy"})
        cpu_game = (await bot.store.games_of_user(int(alice), statuses=("active",)))[-1]
        assert any(computers.is_computer(p) for p in cpu_game.player_ids)
        await command(fake, alice, "resign", {"game": cpu_game.id})
        await settle(bot)
        assert (await bot.store.get_game(cpu_game.id)).status == "finished"
        await check_stored(bot, expected)
        assert ratings_posts(fake, cpu_game.thread_id) == []

        # /leaderboard: the shown ratings, best first, names escaped, nobody pinged.
        mark = len(fake.all_payloads)
        res = await command(fake, carol, "leaderboard", {"game": "global-warming"})
        assert not res.original.ephemeral
        lines = res.original.content.splitlines()
        assert "of 4 rated players" in lines[0]
        table = sorted(expected.players("global-warming"),
                       key=lambda p: -expected.ratings["global-warming", p].ordinal())
        for n, player in enumerate(table, 1):
            want = shown(expected.ratings["global-warming", player])
            assert lines[n].endswith(f"**: **{want}** ({', '.join(ratings_record(expected, 'global-warming', player))})")
            shown_name = lines[n].split("**")[1]
            if player == str(dave):
                assert shown_name == "\\*Dave\\* @\u200beveryone"
            else:
                assert shown_name == names[player]
        (callback,) = [r for r in fake.all_payloads[mark:] if "/callback" in r.path]
        assert callback.body["data"]["allowed_mentions"]["parse"] == []

        # /stats: games, wins, the rating and its trend, for oneself or someone else.
        res = await command(fake, bob, "stats", {})
        text = res.original.content
        bob_rel = expected.history["relativity", str(bob)]
        assert f"**Relativity**: **{bob_rel[-1]}**, 1 game, 0 wins; {bob_rel[-1] - 1000:+d} in the first game" in text
        bob_gal = expected.history["galaxies", str(bob)]
        assert f"**A Game Played by Galaxies**: **{bob_gal[-1]}**, 1 game, 0 wins, 1 draw;" in text
        res = await command(fake, bob, "stats", {"player": dave})
        assert "**\\*Dave\\* @\u200beveryone**" in res.original.content
        assert "Relativity" not in res.original.content and "Global Warming" in res.original.content
        res = await command(fake, carol, "stats", {"player": carol})
        assert "Relativity" not in res.original.content   # (the aborted game)
        snapshot = {g: await stored(bot, g) for g in ratings.RATED_GAMES}
        finished = row.id

    # A restart, and the end of the Global Warming game committed again with its result (as a
    # second delivery of it would be): nothing is rated twice.
    async with running_bot(fake, db) as bot:
        await settle(bot)
        assert {g: await stored(bot, g) for g in ratings.RATED_GAMES} == snapshot
        row = await bot.store.get_game(finished)
        state = GW.from_json(row.state)
        await bot.store.commit(row.id, row.version, now=bot.now(),
                               rated=ratings.rated_result(row, GW, state))
        assert {g: await stored(bot, g) for g in ratings.RATED_GAMES} == snapshot
        await check_stored(bot, expected)
        await settle(bot)
        assert len(ratings_posts(fake, row.thread_id)) == 1

        # Another Relativity game: alice's second; her trend covers both.
        row, thread = await open_game(fake, bot, bob, alice)
        await command(fake, alice, "resign", {}, channel=thread)
        await settle(bot)
        expected.game("relativity", {str(bob): 1, str(alice): 2}, winners={str(bob)})
        await check_stored(bot, expected)
        res = await command(fake, alice, "stats", {})
        history = expected.history["relativity", str(alice)]
        assert f"**Relativity**: **{history[-1]}**, 2 games, 1 win; {history[-1] - 1000:+d} over the last 2 games " \
            in res.original.content


def ratings_record(expected: Expected, game: str, player: str) -> list[str]:
    games, wins, draws = expected.counts[game, player]
    parts = [f"{games} game" + ("s" if games != 1 else ""), f"{wins} win" + ("s" if wins != 1 else "")]
    return parts + ([f"{draws} draw" + ("s" if draws != 1 else "")] if draws else [])


class StubGame:
    """Only what `ratings.places` reads of a finished game: its outcome and public view."""

    def __init__(self, players, scores, winners=(), draw=False, left=()):
        self.players, self.scores, self.left = list(players), dict(scores), list(left)
        self.result = engine.Outcome(tuple(winners), "over", draw)

    def outcome(self, state):
        return self.result

    def view(self, state, viewer=None):
        return {"players": self.players, "scores": self.scores, "left": self.left}


@pytest.mark.parametrize("game, places", [
    # BYOP1-like: the winner by points; a player who resigned with more points is still last
    (StubGame("abcd", {"a": 9, "b": 4, "c": 4, "d": 12}, winners="a", left="d"),
     {"a": 1, "b": 2, "c": 2, "d": 4}),
    # two left: the later one is ahead; a tie for the win
    (StubGame("abcd", {"a": 5, "b": 5, "c": 0, "d": 0}, winners="ab", left="cd"),
     {"a": 1, "b": 1, "d": 3, "c": 4}),
    # an agreed draw after one player resigned: the others tie, whatever their scores
    (StubGame("abc", {"a": 3, "b": 1, "c": 7}, draw=True, left="c"), {"a": 1, "b": 1, "c": 3}),
    # nobody won (all drowned): by score
    (StubGame("abc", {"a": 1, "b": 2, "c": 0}), {"b": 1, "a": 2, "c": 3}),
])
def test_places_winners_then_score_then_who_left_last(game, places):
    assert ratings.places(game, None) == places


async def rated_game(store, guild: int, game: str, places: dict[int, int], names: dict[int, str]) -> None:
    """A game of `game` between `places`' players that finishes with those places, through
    the store alone (the bot's tests above play theirs)."""
    players = list(places)
    row = await store.create_game(game=game, guild_id=guild, channel_id=5, host_id=players[0],
                                  host_name=names[players[0]], options={}, deadline_seconds=None,
                                  invited_id=None, now=1.0)
    await store.commit(row.id, row.version, now=2.0, changes={"status": "active"},
                       seats=[Seat(n, p, names[p]) for n, p in enumerate(players)])
    row = await store.get_game(row.id)
    rated = ratings.RatedResult(
        guild_id=guild, game=game, places=places, names=names,
        winners=frozenset(p for p in places if places[p] == 1), drew=frozenset(),
        rate=lambda current: ratings.rate(current, places))
    await store.commit(row.id, row.version, now=3.0, changes={"status": "finished"}, rated=rated)


async def test_a_long_leaderboard_shows_the_top_ten_ties_and_you_and_a_long_trend(fake, tmp_path):
    users = [fake.add_user(f"p{n:02d}") for n in range(12)]
    names = {int(u): f"p{n:02d}" for n, u in enumerate(users)}
    expected = Expected()
    async with running_bot(fake, tmp_path / "bot.sqlite3") as bot:
        guild = int(fake.guild_id)
        # BYOP1 for twelve: places 1 to 10, and the last two tie
        places = {int(u): min(n + 1, 11) for n, u in enumerate(users)}
        await rated_game(bot.store, guild, "byop1", places, names)
        expected.game("byop1", {str(p): place for p, place in places.items()})
        res = await command(fake, users[11], "leaderboard", {"game": "byop1"})
        lines = res.original.content.splitlines()
        assert "the top 10 of 12 rated players" in lines[0]
        for n in range(10):
            want = shown(expected.ratings["byop1", str(users[n])])
            assert lines[1 + n].startswith(f"{n + 1}. **p{n:02d}**: **{want}** (1 game, ")
        assert "p10" not in res.original.content   # 11th, tied with the caller, but not them
        want = shown(expected.ratings["byop1", str(users[11])])
        assert lines[11:13] == ["…", f"11. **p11** (you): **{want}** (1 game, 0 wins)"]

        # seven Relativity games of p00 and p01, p00 winning all but the third: the trend is
        # the change over the last five, and a line of all seven
        for n in range(7):
            first, second = (users[1], users[0]) if n == 2 else (users[0], users[1])
            await rated_game(bot.store, guild, "relativity", {int(first): 1, int(second): 2}, names)
            expected.game("relativity", {str(first): 1, str(second): 2}, winners={str(first)})
        history = expected.history["relativity", str(users[0])]
        res = await command(fake, users[1], "stats", {"player": users[0]})
        line = next(li for li in res.original.content.splitlines() if li.startswith("**Relativity**"))
        assert line.startswith(f"**Relativity**: **{history[-1]}**, 7 games, 6 wins; "
                               f"{history[-1] - history[-6]:+d} over the last 5 games ")
        spark = line.rsplit(" ", 1)[1]
        assert len(spark) == 7 and spark[2] == min(spark) and spark[-1] == "█"


async def test_forget_guild_forgets_the_servers_ratings_only(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        for guild in (1, 2):
            await rated_game(store, guild, "relativity", {10: 1, 20: 2}, {10: "alice", 20: "bob"})
        assert len(await store.ratings_of_game(1, "relativity")) == 2
        await store.forget_guild(1)
        assert await store.ratings_of_game(1, "relativity") == []
        assert await store.rating_history(1, "relativity", 10, 10) == []
        (kept, _) = sorted(await store.ratings_of_game(2, "relativity"), key=lambda r: r.user_id)
        assert kept.wins == 1 and len(await store.rating_history(2, "relativity", 10, 10)) == 1
    finally:
        await store.close()
