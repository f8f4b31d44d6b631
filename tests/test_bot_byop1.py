"""BYOP1 through the bot: private boards in DMs updated in place by their buttons, /move strings
answered privately with the board, the closed-DM fallback (an ephemeral board, updated in place
too), Done's fumble warning, the thread's status post per round, the round's result, a restart
in the middle of a round, a solo game, and a leak test: during a round nobody receives another
player's board. Boards are not drawn here (see tests.botkit.drawn): what each image shows is
its view."""

from __future__ import annotations

import json
import re

import engine
from engine.byop1 import solve
from tests.botkit import (FakeClock, audience, command, drawn, fake, press,  # noqa: F401
                          running_bot, said, settle)

GAME = engine.get_game("byop1")


class Table:
    def __init__(self, fake, bot):
        self.fake, self.bot = fake, bot
        self.game_id = None
        self.thread = None

    async def state(self):
        row = await self.bot.store.get_game(self.game_id)
        return GAME.from_json(row.state)

    async def own(self, user):
        return GAME.view(await self.state(), str(user))

    async def solution(self, user) -> str:
        """The player's own way to solve their board from where it stands now."""
        view = await self.own(user)
        return solve(view["board"]["tiles"], view["targets"]["rows"], view["targets"]["columns"])

    def board_message(self, user):
        """The player's DM board message of the current round (the last DM with buttons)."""
        with_buttons = [m for m in self.fake.dms(user) if m.custom_ids()]
        return with_buttons[-1] if with_buttons else None


def slide_button(message, move: str) -> str:
    return next(c for c in message.custom_ids() if c.split(":")[-1] == move)


async def start(fake, bot, host, guests, options=None, deadline=None):
    args = {"game": "byop1"}
    if options:
        args["options"] = options
    if deadline:
        args["deadline"] = deadline
    res = await command(fake, host, "play", args)
    lobby = res.original
    for user in guests:
        await press(fake, user, lobby.button("Join"), message_id=lobby.id)
    await press(fake, host, lobby.button("Start"), message_id=lobby.id)
    (row,) = [r for r in await bot.store.games_of_user(int(host)) if r.status == "active"]
    await settle(bot)
    table = Table(fake, bot)
    table.game_id, table.thread = row.id, str(row.thread_id)
    return table


def check_no_leak(fake, records, rendered) -> int:
    """No image of a player's own board went to anyone but that player, and the public
    pictures hold no board of a round still being played."""
    for record in records:
        seen_by = audience(fake, record)
        for _, content in record.files:
            view = rendered[content]
            if view["board"] is not None:
                assert view["viewer"] == seen_by, record.path
            else:
                assert "tiles" not in json.dumps({k: v for k, v in view.items()
                                                  if k != "history"})
    return len(records)


async def test_a_three_player_race_by_buttons_and_move_with_a_closed_dm(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    fake.close_dms(carol)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=77) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=1")
        posts = fake.messages(table.thread)
        status = posts[0]
        assert "Round 1 of 1" in status.content and status.custom_ids() == [f"pp:mine:{table.game_id}"]
        assert f"<@{alice}>" in status.content and f"<@{bob}>" in status.content
        assert any(f"<@{carol}>" in m.content and "cannot send you direct messages" in m.content
                   and "to see your board here" in m.content for m in posts)
        for user in (alice, bob):
            (dm,) = fake.dms(user)
            assert rendered[dm.attachments[0][1]]["viewer"] == str(user)
            labels = [b["label"] for b in dm.buttons()]
            assert labels[-1] == "Done" and len(labels) == 5
            # The hole starts bottom right: only the tiles left of it and above it can move.
            assert [b.get("disabled", False) for b in dm.buttons()[:4]] == [True, True, False, False]
        assert fake.dms(carol) == []

        # alice: ten slides by the buttons of her DM, each updating that same message.
        dm = table.board_message(alice)
        plan = await table.solution(alice)
        for move in plan[:10]:
            res = await press(fake, alice, slide_button(fake.message(dm.id), move), message_id=dm.id)
            assert res.type == 7 and res.original.id == dm.id
        assert len(fake.dms(alice)) == 1
        own = await table.own(alice)
        assert own["board"]["slides"] == 10
        shown = rendered[fake.message(dm.id).attachments[0][1]]
        assert shown["board"]["tiles"] == own["board"]["tiles"]
        assert "10 slides" in fake.message(dm.id).content

        # Her board in a second place (the thread's button), then a slide in the DM: the
        # other message's buttons are out of date; pressing one shows the board as it is now.
        opened = await press(fake, alice, f"pp:mine:{table.game_id}", message_id=status.id)
        other = opened.messages[-1]
        await press(fake, alice, slide_button(fake.message(dm.id), plan[10]), message_id=dm.id)
        res = await press(fake, alice, slide_button(other, "done"), message_id=other.id)
        assert "out of date" in res.original.content and res.original.id == other.id
        assert (await table.own(alice))["board"]["slides"] == 11
        assert rendered[res.original.attachments[0][1]]["board"]["slides"] == 11

        # bob types strings with /move in the thread: answered privately with his board; his
        # DM follows.
        bob_plan = await table.solution(bob)
        res = await command(fake, bob, "move", {"move": " ".join(bob_plan[:6].lower())},
                            channel=table.thread)
        assert all(m.ephemeral for m in res.messages)
        board = rendered[res.files[0][1]]
        assert board["viewer"] == str(bob) and board["board"]["slides"] == 6
        await settle(bot)
        bob_dm = table.board_message(bob)
        assert len(fake.dms(bob)) == 1 and rendered[bob_dm.attachments[0][1]]["board"]["slides"] == 6
        choices = await fake.autocomplete(bob, "move", {"move": bob_plan[6:8]}, focused="move",
                                          channel=table.thread)
        assert choices[0]["value"] == bob_plan[6:8]
        assert {c["value"][:2] for c in choices} == {bob_plan[6:8]}
        assert await fake.autocomplete(carol, "move", {"move": "zz"}, focused="move",
                                       channel=table.thread) == []

        # carol (closed DMs): her board as an ephemeral message, updated in place as well.
        opened = await press(fake, carol, f"pp:mine:{table.game_id}", message_id=status.id)
        eph = opened.messages[-1]
        assert eph.ephemeral_to == str(carol)
        assert rendered[eph.attachments[0][1]]["viewer"] == str(carol)
        carol_plan = await table.solution(carol)
        res = await press(fake, carol, slide_button(eph, carol_plan[0]), message_id=eph.id)
        assert res.type == 7 and res.original.id == eph.id
        assert rendered[fake.message(eph.id).attachments[0][1]]["board"]["slides"] == 1

        await settle(bot)
        check_no_leak(fake, fake.all_payloads, rendered)

        # alice finishes by /move, then Done by her DM's button.
        rest = (await table.solution(alice))
        await command(fake, alice, "move", {"move": rest}, channel=table.thread)
        await settle(bot)
        dm = table.board_message(alice)
        assert "press **Done**" in dm.content
        res = await press(fake, alice, dm.button("Done"), message_id=dm.id)
        assert res.original.custom_ids() == [] and "correct" in res.original.content
        await settle(bot)
        status = fake.message(status.id)
        assert "1st: **alice**, correct" in status.content
        assert "Still solving: **bob** and **carol**" in status.content

        # bob calls Done on an incorrect board: asked first, then a fumble.
        bob_dm = table.board_message(bob)
        res = await press(fake, bob, bob_dm.button("Done"), message_id=bob_dm.id)
        assert "fumble" in res.original.content
        assert GAME.to_act(await table.state()) == (str(alice), str(bob), str(carol))[1:]
        res = await press(fake, bob, res.original.button("Yes, do it"), message_id=bob_dm.id)
        await settle(bot)
        # carol is left alone: the race is over, and with one round, the game.
        state = await table.state()
        assert GAME.outcome(state).winners == (str(alice),)
        assert GAME.scores(state) == {str(alice): 2, str(bob): 0, str(carol): 1}
        final = fake.messages(table.thread)[-1]
        assert "alice** wins" in final.content and "Points: alice 2, carol 1, bob 0." in final.content
        picture = rendered[final.attachments[0][1]]
        assert picture["viewer"] is None and len(picture["history"][0]["results"]) == 3
        assert fake.message(status.id).custom_ids() == []
        assert all(m.custom_ids() == [] for u in (alice, bob) for m in fake.dms(u))
        check_no_leak(fake, fake.all_payloads, rendered)


async def test_move_done_on_an_incorrect_board_asks_first(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob])
        res = await command(fake, alice, "move", {"move": "done"}, channel=table.thread)
        assert "fumble" in said(res)
        assert GAME.to_act(await table.state()) == (str(alice), str(bob))
        question = res.messages[-1]
        back = await press(fake, alice, question.button("No, go back"), message_id=question.id)
        assert back.original.button("Done") and GAME.to_act(await table.state()) == (str(alice), str(bob))


async def test_a_restart_in_the_middle_of_a_round(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    db = tmp_path / "bot.sqlite3"
    async with running_bot(fake, db, seed=9) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=2")
        dm = table.board_message(alice)
        plan = await table.solution(alice)
        await press(fake, alice, slide_button(dm, plan[0]), message_id=dm.id)
    async with running_bot(fake, db, seed=9) as bot:
        table.bot = bot
        dm = table.board_message(alice)
        res = await press(fake, alice, slide_button(fake.message(dm.id), plan[1]), message_id=dm.id)
        assert res.type == 7 and (await table.own(alice))["board"]["slides"] == 2
        await command(fake, alice, "move", {"move": plan[2:]}, channel=table.thread)
        await settle(bot)   # her DM follows the /move
        res = await press(fake, alice, fake.message(dm.id).button("Done"), message_id=dm.id)
        await settle(bot)
        # bob is left alone: round 2 begins, with new boards in new DMs and a new status post.
        state = await table.state()
        assert GAME.view(state, None)["round"] == 2 and GAME.scores(state)[str(alice)] == 1
        posts = fake.messages(table.thread)
        result = next(m for m in posts if m.attachments and "Round 1 is over" in m.content)
        assert rendered[result.attachments[0][1]]["history"][0]["results"][str(alice)]["points"] == 1
        assert "Round 2 of 2" in posts[-1].content
        assert len([m for m in fake.dms(alice) if m.custom_ids()]) == 1
        assert len(fake.dms(alice)) == 2 and fake.message(dm.id).custom_ids() == []
        check_no_leak(fake, fake.all_payloads, rendered)


async def test_a_solo_game_reports_slides_time_the_solvers_and_the_best_so_far(fake, drawn, tmp_path):
    """Alone, the result says what a solo player cares about: solved, slides, time, how that
    compares with the engine's solver on the same deal (worked out off the loop at the start,
    told only at the end) and with their earlier solo games in the server; no ranks, no
    points, no "wins"."""
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3, clock=clock) as bot:
        finals = []
        for seconds, detour in ((200, "DU"), (150, "")):
            since = len(fake.all_payloads)
            table = await start(fake, bot, alice, [])
            first = fake.messages(table.thread)[0].content
            assert "The puzzle" in first and "Round 1 of 1" not in first and "race" not in first
            await bot.flow.jobs[table.game_id]   # the solver, started with the game
            deal = (await table.own(alice))["board"]["tiles"]
            targets = (await table.own(alice))["targets"]
            best = len(solve(deal, targets["rows"], targets["columns"]))
            assert (await bot.store.get_game(table.game_id)).extras["solver_slides"] == best
            plan = detour + await table.solution(alice) if detour else await table.solution(alice)
            clock.advance(seconds)
            mark = len(fake.all_payloads)
            await command(fake, alice, "move", {"move": plan}, channel=table.thread)
            await settle(bot)
            dm = table.board_message(alice)
            # (the solver's count is not told before the board is done)
            assert "My own method" not in json.dumps([r.body for r in fake.all_payloads[since:]])
            await press(fake, alice, dm.button("Done"), message_id=dm.id)
            await settle(bot)
            final = fake.messages(table.thread)[-1].content
            finals.append(final)
            assert f"solved the board in {len(plan)} slides" in final
            assert f"My own method solves this deal in {best} slides" in final
            for odd in ("wins", "points", "correct call", "Round 1 is over", "Still solving"):
                assert odd not in final and odd not in "\n".join(
                    r.body.get("content", "") for r in fake.all_payloads[mark:]
                    if isinstance(r.body, dict)), odd
        assert "Time: 3 min 20 s" in finals[0] and ", 2 fewer than you." in finals[0]
        assert "Your first solved puzzle in this server." in finals[0]
        assert "Time: 2 min 30 s" in finals[1] and "just as many as you" in finals[1]
        assert (f"Your best so far in this server: {len(plan)} slides (a new record!), "
                "2 min 30 s (a new record!).") in finals[1]


async def test_a_round_deadline_ends_the_round_and_slides_do_not_restart_it(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=12, clock=clock) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=2 ranking=slides",
                            deadline="1d")
        status = fake.messages(table.thread)[0]
        assert "⏳ Deadline" in status.content
        due = (await bot.store.timers_of(table.game_id))["deadline"].due_at
        clock.advance(40000)
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        await settle(bot)
        dm = table.board_message(alice)
        await press(fake, alice, dm.button("Done"), message_id=dm.id)
        await settle(bot)
        assert (await bot.store.timers_of(table.game_id))["deadline"].due_at == due
        assert "**alice**: correct" in fake.message(status.id).content
        clock.advance(86400 - 40000 + 1)
        await settle(bot)
        # bob's board of round 1 (the reminder's, which replaced the first) says how it ended
        *_, reminded, round_2 = fake.dms(bob)
        assert "Reminder" not in reminded.content and round_2.custom_ids()
        assert "your board was **not finished** when the round ended (0 slides): **+0 points**" \
            in reminded.content
        state = await table.state()
        result = GAME.view(state, None)["history"][0]["results"]
        # bob and carol did not finish: both last, tied (m = 3, no fumbler).
        assert {p: r["points"] for p, r in result.items()} == \
            {str(alice): 2, str(bob): 0, str(carol): 0}
        assert GAME.view(state, None)["round"] == 2
        text = "\n".join(m.content for m in fake.messages(table.thread))
        assert "⏰ Time is up for this round: **bob**, **carol** did not finish." in text
        assert (await bot.store.timers_of(table.game_id))["deadline"].due_at == clock.now + 86400
        check_no_leak(fake, fake.all_payloads, rendered)


async def test_leak_during_a_round_nobody_sees_another_players_board(fake, drawn, tmp_path):
    """Every way a board reaches a player (DM, its button updates, /move answers, the
    ephemeral fallback, autocomplete) and every thread post, while a round is played: images
    of a board go only to its owner, texts name nobody else's slide count before they finish,
    and the thread's pictures hold no board of the round."""
    rendered = drawn
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    fake.close_dms(carol)
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=31) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=1")
        status = fake.messages(table.thread)[0]
        mark = len(fake.all_payloads)
        for user, moves in ((alice, 7), (bob, 5), (carol, 3)):
            plan = await table.solution(user)
            if user == carol:
                opened = await press(fake, carol, f"pp:mine:{table.game_id}", message_id=status.id)
                message = opened.messages[-1]
            else:
                message = table.board_message(user)
            for move in plan[:moves]:
                await press(fake, user, slide_button(fake.message(message.id), move),
                            message_id=message.id)
            await command(fake, user, "move", {"move": plan[moves:moves + 2]}, channel=table.thread)
            await fake.autocomplete(user, "move", {"move": ""}, focused="move", channel=table.thread)
            await command(fake, user, "board", {}, channel=table.thread)
        await settle(bot)
        records = fake.all_payloads[mark:]
        assert check_no_leak(fake, records, rendered) > 20
        counts = {str(u): (await table.own(u))["board"]["slides"] for u in (alice, bob, carol)}
        assert sorted(counts.values()) == [5, 7, 9]
        # Sliding is private: the thread stays quiet.
        assert [r for r in records if audience(fake, r) is None] == []
        # A fumble is public, without its slide count (counts come with the round's result).
        mark = len(fake.all_payloads)
        dm = table.board_message(bob)
        asked = await press(fake, bob, dm.button("Done"), message_id=dm.id)
        await press(fake, bob, asked.original.button("Yes, do it"), message_id=dm.id)
        await settle(bot)
        public = [r for r in fake.all_payloads[mark:] if audience(fake, r) is None]
        fumbled = counts[str(bob)]
        assert public and "**bob**: fumble (0 points)" in fake.message(status.id).content
        for record in public:
            said_counts = re.findall(r"(\d+) slides?\b", json.dumps(record.body))
            assert said_counts == [], record.path
        assert f"{fumbled} slides" in fake.message(dm.id).content   # (his own, to him)
        check_no_leak(fake, fake.all_payloads, rendered)
        # Nobody else's board image reached anyone: each owner got their own images only.
        for user in (alice, bob, carol):
            owned = [rendered[c] for r in records if audience(fake, r) == str(user)
                     for _, c in r.files]
            assert owned and all(v["viewer"] in (None, str(user)) for v in owned)


async def test_play_refuses_the_deals_option(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=1):
        res = await command(fake, alice, "play", {"game": "byop1",
                                                  "options": "deals=MSAC/24a53/2M"})
        assert "cannot be chosen at /play" in said(res)


def shown(rendered, message) -> dict:
    """The view drawn in a message's image."""
    return rendered[message.attachments[0][1]]


async def test_each_dm_board_ends_saying_how_the_round_ended_for_that_player(fake, drawn, tmp_path):
    """When a round ends, every player's DM board of the round says how it ended for them
    (correct with place and slides, fumble, unfinished) under the final position, whichever
    way they finished: a Done button (its answer in place), a confirmed fumble, or not at all."""
    rendered = drawn
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=77) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=2")
        dms = {u: table.board_message(u) for u in (alice, bob, carol)}
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        await command(fake, carol, "move", {"move": (await table.solution(carol))[:3]},
                      channel=table.thread)
        await settle(bot)
        res = await press(fake, alice, fake.message(dms[alice].id).button("Done"),
                          message_id=dms[alice].id)
        assert "**correct** (the 1st correct call)" in res.original.content
        await settle(bot)
        bob_dm = fake.message(dms[bob].id)
        asked = await press(fake, bob, bob_dm.button("Done"), message_id=bob_dm.id)
        # bob's fumble leaves carol alone: the round is over. His answer says so, and how.
        res = await press(fake, bob, asked.original.button("Yes, do it"), message_id=bob_dm.id)
        answer = res.original
        assert "Round 1 of 2 is over" in answer.content and "**fumble**: 0 points" in answer.content
        assert answer.custom_ids() == [] and shown(rendered, answer)["round"] == 1
        assert shown(rendered, answer)["board"]["status"] == "fumble"
        await settle(bot)
        state = await table.state()
        results = GAME.view(state, None)["history"][0]["results"]
        expected = {alice: f"your board was **correct** in {len(plan)} slides: 1st, **+2 points**",
                    bob: "you called Done on an incorrect board, a **fumble**: 0 points",
                    carol: "your board was **not finished** when the round ended (3 slides): "
                           "**+1 point**"}
        for user, words in expected.items():
            final = fake.message(dms[user].id)
            assert "Round 1 of 2 is over: " + words in final.content, final.content
            assert "Round 2 of 2 has begun, on a new board." in final.content
            assert "press **Done**" not in final.content and final.custom_ids() == []
            view = shown(rendered, final)
            assert view["viewer"] == str(user) and view["round"] == 1
            assert view["board"]["tiles"] == results[str(user)]["tiles"]
            assert view["board"]["slides"] == results[str(user)]["slides"]
            assert view["board"]["result"]["points"] == results[str(user)]["points"]
            # and round 2 comes in a new DM, with its controls
            assert table.board_message(user).id != dms[user].id
        check_no_leak(fake, fake.all_payloads, rendered)


async def test_a_confirmed_fumble_that_ends_the_game_says_so(fake, drawn, tmp_path):
    rendered = drawn
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob], options="rounds=1")
        dm = table.board_message(bob)
        asked = await press(fake, bob, dm.button("Done"), message_id=dm.id)
        res = await press(fake, bob, asked.original.button("Yes, do it"), message_id=dm.id)
        assert (await table.state())["data"]["finished"]
        text = res.original.content
        assert "a **fumble**: 0 points" in text and "See the result in the thread." in text
        assert shown(rendered, res.original)["board"]["status"] == "fumble"
        await settle(bot)
        assert fake.message(dm.id).content == text
        final = fake.message(table.board_message(alice).id) if table.board_message(alice) else \
            fake.dms(alice)[-1]
        assert "not finished" in final.content and "+1 point" in final.content


async def test_the_dm_shows_the_last_position_however_the_last_slide_came(fake, drawn, tmp_path):
    """With autodone, the slide that makes a board correct also calls Done: typed with /move
    (alone: the game ends), or by a button (with others: the round ends). Either way the
    player's DM board ends on the last position and says how it went."""
    rendered = drawn
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=3) as bot:
        table = await start(fake, bot, alice, [], options="autodone=on")
        dm = table.board_message(alice)
        plan = await table.solution(alice)
        res = await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        assert f"**solved** in {len(plan)} slides" in said(res)
        assert GAME.outcome(await table.state()).winners == (str(alice),)
        await settle(bot)
        final = fake.message(dm.id)
        assert f"**solved** in {len(plan)} slides!" in final.content and "press" not in final.content
        assert shown(rendered, final)["board"]["slides"] == len(plan)
        assert shown(rendered, final)["board"]["correct"] and final.custom_ids() == []

        table = await start(fake, bot, alice, [bob], options="autodone=on rounds=1")
        dm = table.board_message(alice)
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": plan[:-1]}, channel=table.thread)
        await settle(bot)
        res = await press(fake, alice, slide_button(fake.message(dm.id), plan[-1]), message_id=dm.id)
        assert "your board was **correct** in" in res.original.content
        await settle(bot)
        final = fake.message(dm.id)
        assert f"**correct** in {len(plan)} slides: 1st, **+1 point**" in final.content
        assert shown(rendered, final)["board"]["slides"] == len(plan) and final.custom_ids() == []
        check_no_leak(fake, fake.all_payloads, rendered)


async def test_an_aborted_games_dm_board_says_its_board_is_closed(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=5) as bot:
        table = await start(fake, bot, alice, [bob])
        dm = table.board_message(bob)
        await command(fake, alice, "abort", channel=table.thread)
        await settle(bot)
        closed = fake.message(dm.id)
        assert closed.custom_ids() == []
        assert closed.content.endswith("*(Closed: play on this board is over; see the thread.)*")
        assert "choice" not in closed.content

        # A game ended by a resignation in its second round: that round's boards were never
        # finished (the first round's result is not theirs to show); the resigner's closes too.
        table = await start(fake, bot, alice, [bob], options="rounds=2")
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": plan}, channel=table.thread)
        await command(fake, alice, "move", {"move": "done"}, channel=table.thread)
        await settle(bot)
        assert (await table.state())["data"]["round"] == 2
        dms = {u: table.board_message(u) for u in (alice, bob)}
        await command(fake, bob, "resign", channel=table.thread)
        await settle(bot)
        assert GAME.outcome(await table.state()).winners == (str(alice),)
        for user in (alice, bob):
            closed = fake.message(dms[user].id)
            assert closed.custom_ids() == [] and "Round 2 of 2 · 0 slides" in closed.content
            assert closed.content.endswith("*(Closed: play on this board is over; see the thread.)*")


async def test_slide_counts_stay_secret_until_the_round_is_over(fake, drawn, tmp_path):
    """Under ranking=slides a finished player's count is the number to beat: during the round
    nobody else learns it (thread, status post, own board images, /board), only who has
    finished and how; the counts come with the round's result."""
    rendered = drawn
    alice, bob, carol = (fake.add_user(n) for n in ("alice", "bob", "carol"))
    async with running_bot(fake, tmp_path / "bot.sqlite3", seed=31) as bot:
        table = await start(fake, bot, alice, [bob, carol], options="rounds=1 ranking=slides")
        status = fake.messages(table.thread)[0]
        mark = len(fake.all_payloads)
        plan = await table.solution(alice)
        await command(fake, alice, "move", {"move": "DU" + plan}, channel=table.thread)
        await settle(bot)
        dm = table.board_message(alice)
        await press(fake, alice, dm.button("Done"), message_id=dm.id)
        bob_plan = await table.solution(bob)
        await command(fake, bob, "move", {"move": bob_plan[:5]}, channel=table.thread)
        await command(fake, carol, "board", {}, channel=table.thread)
        await settle(bot)
        count = str(len(plan) + 2)
        assert "**alice**: correct" in fake.message(status.id).content
        for record in fake.all_payloads[mark:]:
            if audience(fake, record) == str(alice):
                continue
            # (as a number of its own: the digits may turn up inside a snowflake id)
            assert not re.search(rf"(?<!\d){count}(?!\d)", json.dumps(record.body)), record.path
            for _, content in record.files:
                view = rendered[content]
                assert all("slides" not in f for f in view["finished"])
                assert all("slides" not in e for e in view["log"])
        await command(fake, bob, "move", {"move": bob_plan[5:]}, channel=table.thread)
        await settle(bot)
        res = await press(fake, bob, table.board_message(bob).button("Done"),
                          message_id=table.board_message(bob).id)
        carol_dm = table.board_message(carol)
        asked = await press(fake, carol, carol_dm.button("Done"), message_id=carol_dm.id)
        await press(fake, carol, asked.original.button("Yes, do it"), message_id=carol_dm.id)
        await settle(bot)
        result = fake.messages(table.thread)[-1]
        counts = {p: r["slides"] for p, r in shown(rendered, result)["history"][0]["results"].items()}
        assert counts[str(alice)] == len(plan) + 2 and counts[str(bob)] == len(bob_plan)
