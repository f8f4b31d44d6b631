"""Tournaments (issue 25) played from the outside, as an organiser and players would: the
things people do wrong, who is told what (pings, secrets), and the standings by hand."""

from __future__ import annotations

from tests import fakediscord
from tests.botkit import FakeClock, break_route, command, drawn, fake, press, running_bot, said, settle  # noqa: F401
from tests.test_bot_daily import finish_pack, solver  # noqa: F401
from tests.test_bot_fair import pinged_by
from tests.test_bot_tournament import create, resign, round_games, sign_up


async def test_wrong_steps_are_answered_for_what_they_are(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        nothing = await command(fake, organiser, "tournament standings")
        assert "There is no tournament here" in said(nothing)
        t, post = await create(fake, bot, organiser, deadline="none")
        early = await command(fake, users[0], "tournament standings")
        assert f"Tournament #{t.id} has not started yet" in said(early)
        too_few = await press(fake, organiser, f"pp:tour:{t.id}:start", message_id=post.id)
        assert "needs at least 2 players" in said(too_few)
        await sign_up(fake, bot, t.id, post, users)
        twice = await press(fake, users[0], f"pp:tour:{t.id}:join", message_id=post.id)
        assert "signed up for" in said(twice) and "already" in said(twice)
        left = await press(fake, users[2], f"pp:tour:{t.id}:leave", message_id=post.id)
        assert "You have left" in said(left)
        stranger = await command(fake, organiser, "tournament remove", {"player": users[2]})
        assert "is not playing in" in said(stranger)
        not_running = await command(fake, organiser, "tournament pause")
        assert "is not running" in said(not_running)
        not_mine = await press(fake, users[1], f"pp:tour:{t.id}:start", message_id=post.id)
        assert "Only the organiser" in said(not_mine)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        again = await command(fake, organiser, "tournament start")
        assert f"Tournament #{t.id} has started already" in said(again)
        not_paused = await command(fake, organiser, "tournament resume")
        assert f"Tournament #{t.id} is not paused" in said(not_paused)
        await command(fake, organiser, "tournament pause")
        paused_twice = await command(fake, organiser, "tournament pause")
        assert "is paused already" in said(paused_twice)
        # Leave during the event, by one who is not playing (who left before the start):
        # no Withdraw to confirm, just why not
        onlooker = await press(fake, users[2], f"pp:tour:{t.id}:leave", message_id=post.id)
        assert "You are not playing in" in said(onlooker) and not onlooker.messages[-1].custom_ids()
        t = await bot.store.get_tournament(t.id)
        assert (t.status, t.round, [e.id for e in t.active]) == ("paused", 1, [str(u) for u in users[:2]])


async def test_standings_asked_for_in_a_game_thread_are_its_tournaments(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        first, post = await create(fake, bot, users[0], deadline="none", rounds=1)
        await sign_up(fake, bot, first.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, first.id, 1)
        await resign(fake, bot, row, link.seats[0])
        await settle(bot)
        await settle(bot)
        second, post = await create(fake, bot, users[0], deadline="none", rounds=1)
        await sign_up(fake, bot, second.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, second.id, 1)
        in_thread = said(await command(fake, users[1], "tournament standings", channel=row.thread_id))
        assert f"Tournament #{second.id}: standings, round 1 in play" in in_thread
        # elsewhere in the server: the one tournament not over
        elsewhere = said(await command(fake, users[1], "tournament standings", channel=fake.add_channel("chat")))
        assert f"Tournament #{second.id}: standings" in elsewhere


async def test_bad_options_are_refused_and_make_nothing(fake, tmp_path, drawn):
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        for options, why in (({"game": "pack-solitaire", "options": "tiles=1"}, "would fix the deals"),
                             ({"game": "relativity", "options": "layouts=x"}, "would fix the deals"),
                             ({"game": "pack-solitaire", "options": "colour=red"}, "Those options do not work"),
                             ({"game": "global-warming", "format": "swiss"}, "played as tables"),
                             # a BYOP1 game of several deals would be scored on its last deal alone
                             ({"game": "byop1", "options": "rounds=3"}, "each round is one deal")):
            refused = await command(fake, organiser, "tournament create", options)
            assert why in said(refused), (options, said(refused))
        assert await bot.store.tournaments_in(int(fake.guild_id), ("signup",)) == []
        assert not fake.messages(fake.channel_id)


async def test_each_pairing_pings_its_players_and_the_bye_and_the_end_pings_the_winner(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=1, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, t.id, 1)
        [r1] = await bot.store.rounds_of(t.id)
        paired = [r for r in fake.all_payloads if r.contains("round 1 of 1")]
        assert len(paired) == 1
        assert pinged_by(paired[0]) == {*link.seats, str(r1["bye"])}
        await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        # (the bye's point ties the game's winner: both share first place)
        [end] = [r for r in fake.all_payloads if r.contains("is over. ")]
        assert pinged_by(end) == {link.seats[0], str(r1["bye"])}


async def test_a_player_removed_by_the_organiser_is_pinged_and_one_who_withdraws_is_not(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy", "dee")]
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, organiser, format="swiss", rounds=2, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        removed = await command(fake, organiser, "tournament remove", {"player": users[1]})
        assert "is out of" in said(removed)
        asked = await press(fake, users[2], f"pp:tour:{t.id}:leave", message_id=post.id)
        await press(fake, users[2], f"pp:tour:{t.id}:withdraw", message_id=asked.messages[-1].id)
        await settle(bot)
        [out] = [r for r in fake.all_payloads if r.contains("was removed from **")]
        [gone] = [r for r in fake.all_payloads if r.contains("has withdrawn from **")]
        assert pinged_by(out) == {str(users[1])} and pinged_by(gone) == set()


async def test_standings_asked_for_during_a_round_say_which_rounds_they_count(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=2, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        shown = said(await press(fake, users[1], f"pp:tour:{t.id}:standings", message_id=post.id))
        assert "standings, round 1 in play" in shown and "after round 1" not in shown
        [(link, row)] = await round_games(bot, t.id, 1)
        await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        shown = said(await command(fake, users[1], "tournament standings"))
        assert "standings after round 1, round 2 in play" in shown


async def test_a_duplicate_deal_cannot_be_shared_before_its_round_closes(fake, tmp_path, drawn, solver):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        res = await command(fake, users[0], "tournament create",
                            {"game": "pack-solitaire", "rounds": 1, "deadline": "none"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        (_, mine), (_, theirs) = await round_games(bot, t.id, 1)
        await finish_pack(fake, bot, users[0], mine, 1)
        before = len(fake.messages(fake.channel_id))
        shared = await command(fake, users[0], "record", {"game": mine.id, "share": True})
        assert "others are still playing" in said(shared)
        assert len(fake.messages(fake.channel_id)) == before and not shared.messages[-1].attachments
        alone = await command(fake, users[0], "record", {"game": mine.id})   # (to its player alone: fine)
        assert alone.messages[-1].ephemeral and alone.messages[-1].attachments
        await finish_pack(fake, bot, users[1], theirs, 1)
        await settle(bot)
        await settle(bot)
        shared = await command(fake, users[0], "record", {"game": mine.id, "share": True})
        assert not shared.messages[-1].ephemeral and shared.messages[-1].attachments


async def test_duplicate_games_that_cannot_open_their_private_threads_are_said_and_tried_again(fake, tmp_path,
                                                                                               drawn, solver):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    organiser = fake.add_user("org")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        res = await command(fake, organiser, "tournament create",
                            {"game": "pack-solitaire", "rounds": 1, "deadline": "none", "round_deadline": "1d"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        # the bot may not open private threads here (Create Private Threads missing)
        refused = break_route(fake, ("POST", r"/channels/(\d+)/threads"),
                              lambda: fakediscord._APIError(403, 50013, "Missing Permissions"), times=2)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        await settle(bot)
        assert refused and all(row.status == "lobby" for _, row in await round_games(bot, t.id, 1))
        warned = [r for r in fake.all_payloads if r.contains("could not start")]
        assert len(warned) == 1 and pinged_by(warned[0]) == {str(organiser)}
        assert "Create Private Threads" in warned[0].body["content"]
        # a moderator grants it: the next try (within minutes, long before the round deadline) starts them
        clock.advance(601)
        await settle(bot)
        await settle(bot)
        games = await round_games(bot, t.id, 1)
        assert all(row.status == "active" and fake.channel(row.thread_id).type == 12 for _, row in games)


async def test_a_round_whose_deals_never_started_promises_nothing_and_posts_no_stop_in_the_channel(fake, tmp_path,
                                                                                                  drawn, solver):
    users = [fake.add_user(n) for n in ("ann", "bob")]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        res = await command(fake, users[0], "tournament create",
                            {"game": "pack-solitaire", "rounds": 1, "deadline": "none", "round_deadline": "1d"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        break_route(fake, ("POST", r"/channels/(\d+)/threads"),
                    lambda: fakediscord._APIError(403, 50013, "Missing Permissions"))
        await command(fake, users[0], "tournament start")
        await settle(bot)
        clock.advance(86400 + 60)
        await settle(bot)
        await settle(bot)
        texts = [m.content or "" for m in fake.messages(fake.channel_id)]
        assert not any("this game stops here" in text for text in texts)
        [over] = [text for text in texts if "round 1** is over" in text]
        assert "still being worked out" not in over and over.count("(not played)") == 2


# ---- Done means: a Swiss, a round robin and a duplicate, run from Discord alone, whose final
# standings agree with a hand calculation (done here from the definitions, apart from the bot's
# own standings code, on the games as they were played) ---------------------------------------

def by_hand(fmt: str, games: list[tuple[list[str], dict[str, float]]], byes: list[str],
            everyone: list[str], names: dict[str, str]) -> list[list[str]]:
    """The final table's rows as the bot writes them: place, name, points, tiebreaks, games
    (and byes for the pairing formats). `games`: (seats, points) of each game played."""
    points = {p: 0.0 for p in everyone}
    for _, got in games:
        for p, v in got.items():
            points[p] += v
    if fmt == "swiss":
        for p in byes:
            points[p] += 1.0

    def opponents(p):
        return [(next(o for o in seats if o != p), got[p]) for seats, got in games if p in seats]

    breaks = {}
    for p in everyone:
        if fmt == "swiss":   # Buchholz, Sonneborn-Berger
            breaks[p] = (sum(points[o] for o, _ in opponents(p)),
                         sum(points[o] * mine for o, mine in opponents(p)))
        elif fmt == "round-robin":   # head-to-head among the level, games won
            breaks[p] = (sum(mine for o, mine in opponents(p) if points[o] == points[p]),
                         sum(1.0 for _, mine in opponents(p) if mine == 1))
        else:   # duplicate: the best single round
            breaks[p] = (max(got[p] for seats, got in games if p in seats),)
    key = {p: (points[p], *breaks[p]) for p in everyone}
    order = sorted(everyone, key=lambda p: tuple(-k for k in key[p]))

    def num(v):
        return f"{v:g}"
    rows = []
    for p in order:
        place = 1 + sum(1 for o in everyone if key[o] > key[p])
        played = sum(1 for seats, _ in games if p in seats)
        rows.append([str(place), names[p], num(points[p]), *map(num, breaks[p]), str(played)]
                    + ([str(byes.count(p))] if fmt != "duplicate" else []))
    return rows


def posted_rows(fake, tid: int) -> list[list[str]]:
    """The rows of the final standings posted in the channel (its code block)."""
    [post] = [m.content for m in fake.messages(fake.channel_id)
              if f"Tournament #{tid}: final standings" in (m.content or "")]
    block = post.split("```")[1].strip().splitlines()
    return [line.split() for line in block[1:] if line[:1].isdigit()]


async def run_pairs(fake, bot, tid: int, outcome) -> tuple[list, list[str]]:
    """Play every round of a two-player tournament: `outcome(round, table, first, second)`
    ("win", "draw" agreed, or "upset") of each game between the player who signed up first
    and the other. Returns the games and byes."""
    t = await bot.store.get_tournament(tid)
    order = [e.id for e in t.entrants]
    games, byes = [], []
    for number in range(1, t.rounds + 1):
        paired = await round_games(bot, tid, number)
        for table, (link, row) in enumerate(paired, 1):
            first, second = sorted(link.seats, key=order.index)
            result = outcome(number, table, first, second)
            if result == "draw":
                await command(fake, int(first), "draw", {"action": "offer"}, channel=row.thread_id)
                accepted = await command(fake, int(second), "draw", {"action": "accept"}, channel=row.thread_id)
                assert "accepted the draw" in said(accepted), said(accepted)
                games.append((link.seats, {first: 0.5, second: 0.5}))
            else:
                winner, loser = (first, second) if result == "win" else (second, first)
                await resign(fake, bot, row, loser)
                games.append((link.seats, {winner: 1.0, loser: 0.0}))
        bye = (await bot.store.rounds_of(tid))[number - 1]["bye"]
        byes += [str(bye)] if bye is not None else []
        await settle(bot)
        await settle(bot)
    assert (await bot.store.get_tournament(tid)).status == "finished"
    return games, byes


async def test_a_swiss_a_round_robin_and_a_duplicate_run_from_discord_agree_with_the_hand(fake, tmp_path, drawn,
                                                                                        solver):
    names = ("ann", "bob", "cy", "dee", "eve")
    users = [fake.add_user(n) for n in names]
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        # a Swiss of five (three rounds by default, a bye each round), with a draw in round 2
        t, post = await create(fake, bot, organiser, format="swiss", deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await press(fake, organiser, f"pp:tour:{t.id}:start", message_id=post.id)
        await settle(bot)
        games, byes = await run_pairs(fake, bot, t.id, lambda n, table, a, b: "draw" if (n, table) == (2, 1) else "win")
        assert len(games) == 6 and len(byes) == 3 == len(set(byes))
        everyone = [str(u) for u in users]
        named = dict(zip(everyone, names))
        assert posted_rows(fake, t.id) == by_hand("swiss", games, byes, everyone, named)

        # a round robin of four (every pair once, three rounds): ann and bob level on 2 points,
        # ann ahead by beating bob; cy and dee level on 1, dee ahead by beating cy
        t, post = await create(fake, bot, organiser, format="round-robin", deadline="none")
        await sign_up(fake, bot, t.id, post, users[:4])
        await command(fake, organiser, "tournament start", {"tournament": t.id})
        await settle(bot)
        upsets = [{everyone[0], everyone[2]}, {everyone[2], everyone[3]}]
        games, byes = await run_pairs(fake, bot, t.id, lambda n, table, a, b: "upset" if {a, b} in upsets else "win")
        assert sorted(sorted(seats) for seats, _ in games) == sorted(
            sorted([a, b]) for i, a in enumerate(everyone[:4]) for b in everyone[i + 1:4])
        assert posted_rows(fake, t.id) == by_hand("round-robin", games, byes, everyone[:4], named) == [
            ["1", "ann", "2", "1", "2", "3", "0"], ["2", "bob", "2", "0", "2", "3", "0"],
            ["3", "dee", "1", "1", "1", "3", "0"], ["4", "cy", "1", "0", "1", "3", "0"]]

        # a duplicate Pack Solitaire of two deals for three players
        res = await command(fake, organiser, "tournament create",
                            {"game": "pack-solitaire", "rounds": 2, "deadline": "none"})
        post = [m for m in res.messages if not m.ephemeral][-1]
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, post, users[:3])
        await command(fake, organiser, "tournament start", {"tournament": t.id})
        await settle(bot)
        games = []
        for number, placements in ((1, (1, 3, 2)), (2, (3, 1, 1))):
            for (link, row), user, n in zip(await round_games(bot, t.id, number), users, placements):
                score = await finish_pack(fake, bot, user, row, n)
                games.append((link.seats, {str(user): float(score)}))
            await settle(bot)
            await settle(bot)
        assert (await bot.store.get_tournament(t.id)).status == "finished"
        assert posted_rows(fake, t.id) == by_hand("duplicate", games, [], everyone[:3], named)


async def test_a_large_field_is_paired_in_posts_within_discords_limits(fake, tmp_path, drawn):
    """121 players: one post would pass 2,000 characters and 100 pings (Discord refuses it, and
    clipping it would lose tables). The pairing comes in several posts, in order, every table
    and the bye named once, each player pinged once, by the post that names them."""
    users = [fake.add_user(f"p{i}") for i in range(121)]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=1, deadline="none")
        for i, user in enumerate(users):   # (straight into the store: 121 presses add nothing here)
            await bot.store.add_entrant(t.id, int(user), f"p{i}")
        await command(fake, users[0], "tournament start")
        await settle(bot)
        links = [link for link, _ in await round_games(bot, t.id, 1)]
        [r1] = await bot.store.rounds_of(t.id)
        posts = [r for r in fake.all_payloads if isinstance(r.body, dict) and r.channel_id == fake.channel_id
                 and ("Table " in (r.body.get("content") or "") or "Bye: " in (r.body.get("content") or ""))]
        shown = [m.content for m in fake.messages(fake.channel_id) if "Table " in m.content or "Bye: " in m.content]
        assert len(posts) == len(shown) >= 2
        text = "\n".join(shown)
        assert len(links) == 60 and all(len(content) <= 2000 for content in shown)
        assert text.startswith(f"🎲 **") and text.count("Bye: ") == 1
        assert [line.split(":")[0] for line in text.splitlines() if line.startswith("Table ")] == [
            f"Table {n}" for n in range(1, 61)]
        pings = [pinged_by(p) for p in posts]
        assert all(len(p) <= 100 for p in pings)
        everyone = [u for p in pings for u in p]
        assert sorted(everyone) == sorted([*(s for link in links for s in link.seats), str(r1["bye"])])
