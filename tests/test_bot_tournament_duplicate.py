"""A duplicate Pack Solitaire tournament (issue 25) through the fake Discord: three deals, the
same for every entrant and new each round, each played in a private thread; no entrant sees
another's layout before the round closes; the deal's best possible score is shown after it; the
standings are the summed scores. (The exact solver is replaced by the daily tests' stand-in.)"""

from __future__ import annotations

import engine
from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said, settle  # noqa: F401
from tests.test_bot_daily import finish_pack, solver  # noqa: F401
from tests.test_bot_tournament import channel_texts, round_games, sign_up

PACK = engine.get_game("pack-solitaire")


async def test_three_deals_the_same_for_everyone_and_hidden_until_the_round_closes(fake, drawn, solver, tmp_path):
    names = ("ann", "bob", "cy")
    users = [fake.add_user(n) for n in names]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        res = await command(fake, users[0], "tournament create",
                            {"game": "pack-solitaire", "format": "duplicate", "rounds": 3})
        post = [m for m in res.messages if not m.ephemeral][-1]
        assert "Duplicate" in post.content
        refused = await command(fake, users[0], "tournament create",
                                {"game": "pack-solitaire", "format": "swiss"})
        assert "duplicate" in said(refused)
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, post, users)
        await press(fake, users[0], f"pp:tour:{t.id}:start", message_id=post.id)
        await settle(bot)
        totals = {str(u): 0 for u in users}
        deals = []
        for number in (1, 2, 3):
            games = await round_games(bot, t.id, number)
            assert [link.seats for link, _ in games] == [[str(u)] for u in users]
            layouts = {tuple(PACK.view(PACK.from_json(row.state))["tiles"]) for _, row in games}
            assert len(layouts) == 1   # one deal for everyone
            deals.append(layouts.pop())
            for (link, row), user in zip(games, users):
                thread = fake.channel(row.thread_id)
                assert thread.type == 12 and set(thread.member_ids) == {str(user), fake.bot_user_id}
            # nobody sees another's game before the round closes, not even by number
            other = games[1][1]
            peek = await command(fake, users[0], "board", {"game": other.id})
            assert "still being played" in said(peek) and not [m for m in peek.messages if m.attachments]
            before = len(fake.messages(fake.channel_id))
            for (link, row), user, placements in zip(games, users, (1, 2, 3)):
                totals[str(user)] += await finish_pack(fake, bot, user, row, placements)
                if user != users[-1]:
                    # the channel hears nothing of a score while others still play the deal
                    assert len(fake.messages(fake.channel_id)) == before
            await settle(bot)
            await settle(bot)
            closed = [text for text in channel_texts(fake) if f"round {number}** is over" in text]
            assert len(closed) == 1 and "best possible score: **90**" in closed[0]
            seen = await command(fake, users[0], "board", {"game": other.id})
            assert "still being played" not in said(seen)
        assert len(set(deals)) == 3   # a new deal each round
        t = await bot.store.get_tournament(t.id)
        assert t.status == "finished"
        results, byes = await bot.get_cog("Tournaments").flow.history(t)
        points = {}
        for result in results:
            for p, v in result.points.items():
                points[p] = points.get(p, 0) + v
        assert points == totals
        final = [text for text in channel_texts(fake) if "final standings" in text]
        assert len(final) == 1 and "Best possible: round 1 90, round 2 90, round 3 90" in final[0]


async def test_duplicate_byop1_scores_its_points_among_everyone_on_the_deal(fake, drawn, tmp_path):
    from engine.byop1 import solve
    byop1 = engine.get_game("byop1")
    users = [fake.add_user(n) for n in ("ann", "bob", "cy")]
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=FakeClock()) as bot:
        res = await command(fake, users[0], "tournament create", {"game": "byop1", "rounds": 1})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        games = await round_games(bot, t.id, 1)
        # ann solves it; bob solves it with two slides more; cy does not finish before the end
        for (link, row), extra in zip(games[:2], ("", "LR")):
            user = link.seats[0]
            view = byop1.view(byop1.from_json(row.state), user)
            moves = solve(view["board"]["tiles"], view["targets"]["rows"], view["targets"]["columns"])
            if extra:   # (a slide there and back, where the hole can go)
                state = byop1.from_json(row.state)
                legal = {str(a) for a in byop1.legal_actions(state, user)}
                extra = next(pair for pair in ("LR", "RL", "UD", "DU") if pair[0] in legal)
            await command(fake, int(user), "move", {"move": extra + moves}, channel=str(row.thread_id))
            await command(fake, int(user), "move", {"move": "done"}, channel=str(row.thread_id))
            await settle(bot)
        ended = await command(fake, users[0], "tournament end")
        assert "is over" in said(ended)
        await settle(bot)
        links = await bot.store.tournament_games(t.id, 1)
        points = {link.seats[0]: link.result["points"][link.seats[0]] for link in links}
        assert points == {str(users[0]): 2.0, str(users[1]): 1.0, str(users[2]): 0.0}
        assert (await bot.store.get_tournament(t.id)).status == "finished"


async def test_a_deal_nobody_finished_still_shows_its_best_score(fake, drawn, solver, tmp_path):
    import asyncio

    users = [fake.add_user(n) for n in ("ann", "bob")]
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", clock=clock) as bot:
        res = await command(fake, users[0], "tournament create",
                            {"game": "pack-solitaire", "rounds": 1, "round_deadline": "1d"})
        [t] = await bot.store.tournaments_in(int(fake.guild_id), ("signup",))
        await sign_up(fake, bot, t.id, [m for m in res.messages if not m.ephemeral][-1], users)
        await command(fake, users[0], "tournament start")
        await settle(bot)
        for job in list(bot.flow.jobs.values()):   # (the games' own background work, done)
            await job
        clock.advance(86400 + 60)
        await settle(bot)
        await asyncio.sleep(0.2)   # the solver's answer, in the background
        await settle(bot)
        texts = channel_texts(fake)
        assert any("round 1** is over (the round deadline passed)" in text for text in texts)
        assert any("best possible score was **90**" in text or "best possible score: **90**" in text
                   for text in texts)
