"""Tournaments (issue 25) through the fake Discord, with the real store and a fake clock: a
7-player Swiss of 3 rounds with a withdrawal, a round deadline expiring, a restart in the
middle of a round and a paused tournament; a round robin; the standings agreeing with a hand
calculation."""

from __future__ import annotations

from bot.tournaments import standings, standings_text
from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said, settle  # noqa: F401

DAY = 86400.0


async def create(fake, bot, organiser, **options):
    """/tournament create in the channel; returns (tournament row, sign-up message)."""
    res = await command(fake, organiser, "tournament create", {"game": "relativity", **options})
    post = [m for m in res.messages if not m.ephemeral]
    assert post, said(res)
    [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
    return t, post[-1]


async def sign_up(fake, bot, tid, post, users):
    for user in users:
        res = await press(fake, user, f"pp:tour:{tid}:join", message_id=post.id)
        assert "signed up" in said(res), said(res)


async def round_games(bot, tid, number=None):
    t = await bot.store.get_tournament(tid)
    links = await bot.store.tournament_games(tid, number or t.round)
    return [(link, await bot.store.get_game(link.game_id)) for link in links]


async def resign(fake, bot, row, loser):
    res = await command(fake, loser, "resign", channel=row.thread_id)
    assert "resigned" in said(res).lower(), said(res)


def channel_texts(fake) -> list[str]:
    return [m.content or "" for m in fake.messages(fake.channel_id)]


async def test_a_small_swiss_from_sign_up_to_the_winner(fake, tmp_path, drawn):
    names = ("ann", "bob", "cy", "dee")
    users = [fake.add_user(n) for n in names]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        t, post = await create(fake, bot, users[0], format="swiss", rounds=2)
        assert "Swiss" in post.content and post.custom_ids() == [
            f"pp:tour:{t.id}:join", f"pp:tour:{t.id}:leave", f"pp:tour:{t.id}:start"]
        await sign_up(fake, bot, t.id, post, users)
        refused = await press(fake, users[1], f"pp:tour:{t.id}:start", message_id=post.id)
        assert "Only the organiser" in said(refused)
        await press(fake, users[0], f"pp:tour:{t.id}:start", message_id=post.id)
        await settle(bot)
        games = await round_games(bot, t.id, 1)
        assert len(games) == 2 and all(row.status == "active" and row.thread_id for _, row in games)
        thread_names = [fake.channel(row.thread_id).name for _, row in games]
        assert all(name.startswith(f"Tournament #{t.id}, round 1: ") for name in thread_names)
        assert any("round 1 of 2" in text for text in channel_texts(fake))
        # both games end: the second seat resigns; round 2 is paired at once
        for link, row in games:
            await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.round == 2 and t.status == "running"
        texts = channel_texts(fake)
        assert any("standings after round 1" in text for text in texts)
        assert any(m.attachments for m in fake.messages(fake.channel_id))   # the standings image
        winners = [link.seats[0] for link, _ in games]
        games2 = await round_games(bot, t.id, 2)
        assert sorted(games2[0][0].seats) == sorted(winners)   # the two winners meet
        for link, row in games2:
            await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.status == "finished"
        final = [text for text in channel_texts(fake) if "is over. The winner" in text]
        champion = games2[0][0].seats[0]
        assert len(final) == 1 and f"<@{champion}>" in final[0]


def points_by_hand(results: list[tuple[list[str], str | None]], byes: list[str]) -> dict[str, float]:
    """Swiss points counted by hand: a win 1, a draw ½ each (winner None), a bye 1."""
    points: dict[str, float] = {}
    for seats, winner in results:
        for p in seats:
            points[p] = points.get(p, 0.0) + (0.5 if winner is None else float(p == winner))
    for p in byes:
        points[p] = points.get(p, 0.0) + 1.0
    return points


async def test_a_seven_player_swiss_with_a_withdrawal_a_deadline_a_restart_and_a_pause(fake, tmp_path, drawn):
    names = ("ann", "bob", "cy", "dee", "eve", "fay", "gus")
    users = [fake.add_user(n) for n in names]
    organiser = users[0]
    clock = FakeClock()
    db = tmp_path / "bot.sqlite3"
    played: list[tuple[list[str], str | None]] = []
    async with running_bot(fake, db, clock=clock) as bot:
        t, post = await create(fake, bot, organiser, format="swiss", rounds=3, deadline="none",
                               round_deadline="1d")
        assert "Round deadline: 1 day" in post.content and "score so far" in post.content
        await sign_up(fake, bot, t.id, post, users)
        started = await command(fake, organiser, "tournament start")
        assert "has started" in said(started)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        games = await round_games(bot, t.id, 1)
        [r1] = await bot.store.rounds_of(t.id)
        assert len(games) == 3 and r1["bye"] is not None
        bye1 = str(r1["bye"])
        # round 1: two games resigned; in the third, its first seat withdraws (Leave)
        (l1, g1), (l2, g2), (l3, g3) = games
        await resign(fake, bot, g1, l1.seats[1])
        played.append((l1.seats, l1.seats[0]))
        await resign(fake, bot, g2, l2.seats[0])
        played.append((l2.seats, l2.seats[1]))
        quitter = l3.seats[0]
        asked = await press(fake, quitter, f"pp:tour:{t.id}:leave", message_id=post.id)
        assert "Withdraw" in said(asked)
        assert (await bot.store.get_tournament(t.id)).entrant(int(quitter)).status == "active"   # not yet
        left = await press(fake, quitter, f"pp:tour:{t.id}:withdraw", message_id=asked.messages[-1].id)
        assert "withdrawn" in said(left)
        played.append((l3.seats, l3.seats[1]))
        await settle(bot)
        await settle(bot)
        thread_texts = [m.content or "" for m in fake.messages(g3.thread_id)]
        assert any("forfeited" in text for text in thread_texts)
        assert any("withdrawn from" in text and "forfeited" in text for text in channel_texts(fake))
        t = await bot.store.get_tournament(t.id)
        assert (t.round, t.status) == (2, "running")
        games = await round_games(bot, t.id, 2)
        paired = [p for link, _ in games for p in link.seats]
        assert len(games) == 3 and quitter not in paired and len(set(paired)) == 6
        assert (await bot.store.rounds_of(t.id))[1]["bye"] is None
        # round 2: paused; two games end, the third is still running when the bot restarts
        paused = await command(fake, organiser, "tournament pause")
        assert "paused" in said(paused)
        not_mine = await command(fake, users[1], "tournament resume")
        assert "Only the organiser" in said(not_mine)
        (l1, g1), (l2, g2), (l3, g3) = games
        await resign(fake, bot, g1, l1.seats[1])
        played.append((l1.seats, l1.seats[0]))
        await resign(fake, bot, g2, l2.seats[1])
        played.append((l2.seats, l2.seats[0]))
        await settle(bot)
    async with running_bot(fake, db, clock=clock) as bot:
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert (t.round, t.status) == (2, "paused")
        assert (await bot.store.get_game(g3.id)).status == "active"
        # the round deadline passes: the last game stops, settled on its score so far (0-0: a draw)
        clock.advance(DAY + 60)
        await settle(bot)
        await settle(bot)
        played.append((l3.seats, None))
        assert (await bot.store.get_game(g3.id)).status == "cancelled"
        assert any("this game stops here" in (m.content or "") for m in fake.messages(g3.thread_id))
        t = await bot.store.get_tournament(t.id)
        assert (t.round, t.status) == (2, "paused")   # paused: no new round
        assert any("round 2** is over (the round deadline passed)" in text for text in channel_texts(fake))
        # the sign-up post's buttons still work after the restart
        shown = await press(fake, users[2], f"pp:tour:{t.id}:standings", message_id=post.id)
        assert "standings after round 2" in said(shown)
        await command(fake, organiser, "tournament resume")
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert (t.round, t.status) == (3, "running")
        games = await round_games(bot, t.id, 3)
        bye3 = (await bot.store.rounds_of(t.id))[2]["bye"]
        assert bye3 is None and len(games) == 3
        for link, row in games:
            await resign(fake, bot, row, link.seats[1])
            played.append((link.seats, link.seats[0]))
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.status == "finished"
        # the final standings agree with points counted by hand
        hand = points_by_hand(played, [bye1])
        final = [m.content for m in fake.messages(fake.channel_id) if "final standings" in (m.content or "")]
        assert len(final) == 1
        results, byes = await bot.get_cog("Tournaments").flow.history(t)
        table = standings("swiss", [e.id for e in t.entrants], [quitter], results, byes)
        assert {s.entrant: s.points for s in table} == {p: hand.get(p, 0.0) for p in map(str, users)}
        assert final[0].endswith(standings_text("swiss", table, t.names, limit=1900))
        # the quitter was never paired after withdrawing
        assert not any(quitter in link.seats for link in await bot.store.tournament_games(t.id) if link.round > 1)


async def test_a_round_robin_with_a_player_removed(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy", "dee")]
    organiser, moderator = users[0], fake.add_user("mod")
    fake.set_permissions(moderator, manage_events=True)
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, organiser, format="round-robin", deadline="none")
        assert "every pair once" in post.content
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert t.rounds == 3
        met = []
        for number in (1, 2, 3):
            games = await round_games(bot, t.id, number)
            for link, row in games:
                met.append(frozenset(link.seats))
                if row.status == "active":
                    await resign(fake, bot, row, link.seats[1])
            if number == 1:   # a moderator removes cy: cy's later games are forfeits, never played
                removed = await command(fake, moderator, "tournament remove", {"player": users[2]})
                assert "is out of" in said(removed)
            await settle(bot)
            await settle(bot)
        rounds = await bot.store.rounds_of(t.id)
        forfeits = [frozenset(f["seats"]) for r in rounds for f in r["forfeits"]]
        # (round 2 may have been paired before the removal: then cy's game there was forfeited in play)
        assert forfeits and all(str(users[2]) in pair for pair in forfeits)
        played_after = [link for link in await bot.store.tournament_games(t.id)
                        if link.round > 1 and str(users[2]) in link.seats]
        assert len(forfeits) + len(played_after) == 2
        assert all(link.forfeit == [str(users[2])] for link in played_after)
        assert sorted(map(sorted, met + forfeits)) == sorted(
            sorted([str(a), str(b)]) for i, a in enumerate(users) for b in users[i + 1:])   # every pair once
        t = await bot.store.get_tournament(t.id)
        assert t.status == "finished"
        results, byes = await bot.get_cog("Tournaments").flow.history(t)
        cy = next(s for s in standings("round-robin", [e.id for e in t.entrants], [str(users[2])], results, byes)
                  if s.entrant == str(users[2]))
        assert cy.withdrawn and cy.points <= 1


async def test_global_warming_tables_score_by_finishing_place(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy", "dee")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, users[0], game="global-warming", rounds=1, deadline="none")
        assert "Tables of 3-4" in post.content
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, t.id, 1)
        assert len(link.seats) == 4
        for loser in link.seats[:3]:   # the first to leave finishes last
            await resign(fake, bot, row, loser)
        await settle(bot)
        await settle(bot)
        [link] = await bot.store.tournament_games(t.id, 1)
        assert link.result["points"] == dict(zip(link.seats, (0.0, 1.0, 2.0, 3.0)))
        assert (await bot.store.get_tournament(t.id)).status == "finished"


async def test_a_start_time_starts_it_or_calls_it_off(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        t, post = await create(fake, bot, users[0], start_in_hours=2)
        await sign_up(fake, bot, t.id, post, users[:2])
        clock.advance(3600)
        await settle(bot)
        assert (await bot.store.get_tournament(t.id)).status == "signup"
        clock.advance(3601)
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert (t.status, t.round) == ("running", 1)
        # the sign-up post now shows the round and offers Leave and Standings only
        post = fake.messages(fake.channel_id)[0]
        assert "Round 1 of 1 is on" in post.content
        assert post.custom_ids() == [f"pp:tour:{t.id}:leave", f"pp:tour:{t.id}:standings"]
        # one with a single player at its start time is called off
        res = await command(fake, users[2], "tournament create", {"game": "galaxies", "start_in_hours": 1})
        [lonely] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, lonely.id, [m for m in res.messages if not m.ephemeral][-1], users[2:])
        clock.advance(3601)
        await settle(bot)
        await settle(bot)
        assert (await bot.store.get_tournament(lonely.id)).status == "cancelled"
        assert any("could not start at its start time" in text and "at least 2" in text
                   for text in channel_texts(fake))


async def test_the_organiser_ends_it_between_rounds_and_players_cannot_abort_their_games(fake, tmp_path, drawn):
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    organiser = fake.add_user("org")
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        t, post = await create(fake, bot, organiser, rounds=3, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, organiser, "tournament start")
        await settle(bot)
        [(link, row)] = await round_games(bot, t.id, 1)
        refused = await command(fake, int(link.seats[0]), "abort", channel=row.thread_id)
        assert "Only the host" in said(refused)
        await command(fake, organiser, "tournament pause")
        await resign(fake, bot, row, link.seats[1])
        await settle(bot)
        await settle(bot)
        t = await bot.store.get_tournament(t.id)
        assert (t.round, t.status) == (1, "paused")
        ended = await command(fake, organiser, "tournament end")
        assert "is over" in said(ended)
        await settle(bot)
        texts = channel_texts(fake)
        assert sum("round 1** is over" in text for text in texts) == 1   # closed once
        assert any("ends after round 1 (ended by the organiser)" in text for text in texts)
        assert any("final standings" in text for text in texts)
        assert (await bot.store.get_tournament(t.id)).status == "finished"


async def test_a_round_stored_but_not_started_before_a_crash_starts_after_the_restart(fake, tmp_path, drawn,
                                                                                      monkeypatch):
    from bot.flow.tournament import TournamentFlow

    users = [fake.add_user(n) for n in ("ann", "bob")]
    db = tmp_path / "bot.sqlite3"
    clock = FakeClock()
    async with running_bot(fake, db, clock=clock) as bot:
        t, post = await create(fake, bot, users[0], deadline="none")
        await sign_up(fake, bot, t.id, post, users)

        async def crash(self, tid):   # the process dies once round 1 is stored
            raise RuntimeError("killed")
        monkeypatch.setattr(TournamentFlow, "start_games", crash)
        await command(fake, users[0], "tournament start")
        [(link, row)] = await round_games(bot, t.id, 1)
        assert row.status == "lobby"
    monkeypatch.undo()
    async with running_bot(fake, db, clock=clock) as bot:
        await settle(bot)
        [(link, row)] = await round_games(bot, t.id, 1)
        assert row.status == "active" and row.thread_id


def test_a_standings_board_is_drawn_with_its_alt_text():
    import bot.rendering

    board = {"view": {"standings": {"title": "Tournament #1: final standings", "columns": ["#", "Player", "Pts"],
                                    "rows": [["1", "ann", "2"], ["2", "bob", "1"]], "highlight": [0],
                                    "note": "Best possible: round 1 90"}}}
    assert bot.rendering.draw_board(board).startswith(b"\x89PNG")
    alt = bot.rendering.alt_text(board)
    assert "final standings" in alt and "ann" in alt and "90" in alt


async def test_a_departure_whose_forfeits_were_not_made_is_made_good_by_the_next_look(fake, tmp_path, drawn):
    """A withdrawal stored while its round was being paired (or just before a crash): the next
    look at the tournament forfeits the games that still seat the player."""
    users = [fake.add_user(n) for n in ("ann", "bob", "cy", "dee")]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        t, post = await create(fake, bot, users[0], rounds=2, deadline="none")
        await sign_up(fake, bot, t.id, post, users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        [(link, row)] = [(link, row) for link, row in await round_games(bot, t.id, 1)
                         if str(users[2]) in link.seats]
        assert await bot.store.set_entrant_status(t.id, int(users[2]), "withdrawn", now=clock.now)
        await bot.store.set_tournament_due(t.id, clock.now)
        await settle(bot)
        await settle(bot)
        [link] = [link for link in await bot.store.tournament_games(t.id, 1) if str(users[2]) in link.seats]
        game = await bot.store.get_game(row.id)
        assert link.forfeit == [str(users[2])] and game.status == "finished"
        assert any("forfeited by them" in (m.content or "") for m in fake.messages(row.thread_id))
