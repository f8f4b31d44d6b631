"""Computer players through the bot and the fake Discord: a person plays each multi-player game
to its end against a computer (the person's moves picked at random among the legal ones, sent
with /move), the lobby's buttons seat computers, /play fills the seats with them, a game of
computers only is refused, and a restart while the computer is to move makes it move after the
restart, once. Computers move at once here (computer_pace=0) and think in a thread."""

from __future__ import annotations

import computer
import engine
from bot import computers
from bot.flow import COMPUTER_TIMER, GameFlow, UserError, public_part
from bot.storage import Event, Seat, Store
from computer.relativity_eval import Position
from engine import Rng
from engine.byop1 import solve
from tests.botkit import FakeClock, command, drawn, fake, press, running_bot, said  # noqa: F401
from tests.pg import database_for

import pytest


async def settle(bot) -> None:
    """Deliver everything and let every computer that is due move, until nothing is left."""
    for _ in range(500):
        await bot.run_due()
        if not bot.flow.thinking:
            timers = [t for t in await bot.store.due_timers(bot.now())
                      if t.kind.startswith(COMPUTER_TIMER)]
            if not timers:
                await bot.run_due()
                return
        await bot.flow.computers_idle()
    raise AssertionError("the computers never settled")


async def notices_to_computers(bot) -> int:
    """Notices ever queued for a computer's DMs (there must be none)."""
    async with bot.store.engine.connection() as tx:
        return (await tx.first(
            "SELECT COUNT(*) FROM outbox WHERE target_kind='user' AND target_id<0"))[0]


async def running(bot, host):
    (row,) = [r for r in await bot.store.games_of_user(int(host)) if r.status != "lobby"]
    return row


async def play_out(fake, bot, clock, host, game_id, seed, limit=3000):
    """The person moves at random among their legal moves (through /move), a second of the
    fake clock per move, until the game ends; computers move when their timers are due.
    Returns the number of the person's moves."""
    rng = Rng(seed)
    game = engine.get_game((await bot.store.get_game(game_id)).game)
    moves = 0
    for _ in range(limit):
        clock.advance(1)
        await settle(bot)
        row = await bot.store.get_game(game_id)
        if row.status != "active":
            return moves
        state = game.from_json(row.state)
        if str(host) not in game.awaited(state):
            continue   # a computer is to move: its pause runs
        view = game.view(state, str(host))
        action = rng.choice(game.legal_actions(state, str(host)))
        if row.game == "byop1" and view["board"] and rng.below(10):
            # (a random slider would take an age: the person mostly slides towards the solution,
            # a few slides at a time, and says done when the board is right)
            board, targets = view["board"], view["targets"]
            action = solve(board["tiles"], targets["rows"], targets["columns"])[:12] or "done"
        res = await command(fake, host, "move", {"move": str(action), "game": game_id})
        assert "✅" in said(res) or "🔒" in said(res) or row.game == "byop1", said(res)
        moves += 1
    raise AssertionError("the game did not end")


GAMES = [("relativity", "strong"), ("global-warming", "strong"), ("galaxies", "easy"),
         ("byop1", "strong")]


@pytest.mark.parametrize("name,level", GAMES)
async def test_a_person_plays_a_whole_game_against_the_computer(fake, drawn, tmp_path, name, level):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=4242, clock=clock) as bot:
        res = await command(fake, alice, "play", {"game": name})
        lobby = res.original
        await press(fake, alice, lobby.button(f"Add computer ({level})"), message_id=lobby.id)
        row = (await bot.store.games_of_user(int(alice)))[-1]
        if row.status == "lobby":
            await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        row = await running(bot, alice)
        assert row.status == "active"
        cpu = next(p for p in row.player_ids if computers.is_computer(p))
        assert row.names[cpu] == f"Computer ({level})"
        assert await play_out(fake, bot, clock, alice, row.id, seed=7) > 0
        row = await bot.store.get_game(row.id)
        assert row.status == "finished"
        events = await bot.store.events(row.id)
        assert any(e["actor"] == cpu and e["kind"] == "move" for e in events)
        # The thread names the computer, never pings it, and nobody got a DM for it.
        thread_text = "\n".join(m.content or "" for m in fake.messages(row.thread_id))
        assert f"<@{cpu}>" not in thread_text
        assert f"Computer ({level})" in thread_text
        assert not [t for t in await bot.store.timers_of(row.id)]   # nothing left to fire
        assert await notices_to_computers(bot) == 0
        # The events replay to the stored state: the computer's moves went the usual way.
        game = engine.get_game(name)
        assert game.to_json(await bot.flow.replay(row.id)) == row.state


async def test_play_fills_the_seats_with_computers(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=11, computer_pace=0) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming", "computers": "easy"})
        row = await running(bot, alice)
        assert row.status == "active"
        # The answer to /play says the game is on, and where (no lobby buttons).
        assert f"The game is on in <#{row.thread_id}>" in res.original.content
        assert res.original.buttons() == []
        assert len(row.seats) == 4
        assert sorted(row.names[p] for p in row.player_ids if p != str(alice)) == [
            "Computer (easy)", "Computer 2 (easy)", "Computer 3 (easy)"]
        # A game without computer players says so.
        for game in engine.game_names():
            if not computers.plays(game) and engine.get_game(game).max_players > 1:
                res = await command(fake, alice, "play", {"game": game, "computers": "easy"})
                assert "no computer player" in said(res)


async def test_lobby_buttons_add_and_remove_computers(fake, drawn, tmp_path):
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=5, computer_pace=0) as bot:
        res = await command(fake, alice, "play", {"game": "global-warming"})
        lobby = res.original
        refused = await press(fake, bob, lobby.button("Add computer (easy)"), message_id=lobby.id)
        assert "Only the host" in said(refused)
        await press(fake, alice, lobby.button("Add computer (easy)"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Add computer (strong)"), message_id=lobby.id)
        row = (await bot.store.games_of_user(int(alice)))[-1]
        assert [row.names[p] for p in row.player_ids] == ["alice", "Computer (easy)", "Computer 2 (strong)"]
        assert [computers.level_of(p) for p in row.player_ids[1:]] == ["easy", "strong"]
        await press(fake, alice, lobby.button("Remove a computer"), message_id=lobby.id)
        row = await bot.store.get_game(row.id)
        assert [row.names[p] for p in row.player_ids] == ["alice", "Computer (easy)"]
        await press(fake, bob, lobby.button("Join"), message_id=lobby.id)
        await press(fake, alice, lobby.button("Start"), message_id=lobby.id)
        row = await bot.store.get_game(row.id)
        assert row.status == "active" and len(row.seats) == 3
        await settle(bot)
        # The computer's secret choice is in, the people's are awaited; it got no DM.
        game = engine.get_game("global-warming")
        state = game.from_json((await bot.store.get_game(row.id)).state)
        cpu = next(p for p in row.player_ids if computers.is_computer(p))
        assert cpu not in game.awaited(state)
        assert set(game.awaited(state)) == {str(alice), str(bob)}
        assert await notices_to_computers(bot) == 0


async def test_a_game_of_computers_only_is_refused(tmp_path):
    store = await Store.open(database_for(tmp_path / "db.sqlite3"))
    try:
        flow = GameFlow(store, lambda: 1000.0, computer_pace=0)
        row = await flow.open_lobby(game_name="relativity", guild_id=1, channel_id=2, host_id=3,
                                    host_name="host", deadline=None, opponent_id=None, options={})
        await store.commit(row.id, row.version, now=1000.0, seats=[
            Seat(0, computers.seat_id(1, "easy"), "Computer (easy)"),
            Seat(1, computers.seat_id(2, "strong"), "Computer 2 (strong)")])
        row = await flow.get(row.id)
        with pytest.raises(UserError, match="at least one person"):
            flow.can_start(row, None)
    finally:
        await store.close()


async def test_a_restart_while_the_computer_is_to_move_makes_it_move_once(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    db = tmp_path / "db.sqlite3"
    clock = FakeClock()
    game = engine.get_game("relativity")
    async with running_bot(fake, db, seed=99, clock=clock, computer_pace=1.0) as bot:
        row, (cpu,) = await against(fake, bot, alice, levels=["easy"])
        for _ in range(3):   # until it is the computer's turn
            await settle(bot)
            row = await bot.store.get_game(row.id)
            state = game.from_json(row.state)
            if cpu in game.awaited(state):
                break
            action = game.legal_actions(state, str(alice))[0]
            await command(fake, alice, "move", {"move": str(action), "game": row.id})
        assert cpu in game.awaited(state)
        timers = await bot.store.timers_of(row.id)
        assert timers[COMPUTER_TIMER + cpu].due_at > clock()   # its pause has not passed yet
        version = row.version
    # The bot stops before the computer moved; time passes; it starts again.
    clock.advance(5)
    async with running_bot(fake, db, seed=99, clock=clock, computer_pace=1.0) as bot:
        await settle(bot)
        row = await bot.store.get_game(row.id)
        moves = [e for e in await bot.store.events(row.id) if e["actor"] == cpu and e["kind"] == "move"]
        assert len(moves) == 1 and row.version == version + 1
        state = game.from_json(row.state)
        assert cpu not in game.awaited(state) and str(alice) in game.awaited(state)
        await settle(bot)   # nothing more happens
        assert len([e for e in await bot.store.events(row.id) if e["actor"] == cpu and e["kind"] == "move"]) == 1


async def test_the_computer_declines_a_draw_offer(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice)
        await command(fake, alice, "draw", {"action": "offer", "game": row.id})
        clock.advance(2)
        await settle(bot)
        declines = [e for e in await bot.store.events(row.id) if e["kind"] == "decline"]
        assert [e["actor"] for e in declines] == [cpu]
        game = engine.get_game("relativity")
        assert game.from_json((await bot.store.get_game(row.id)).state)["draw_offer"] is None
        thread_text = "\n".join(m.content or "" for m in fake.messages(row.thread_id))
        assert "Computer (strong)" in thread_text and f"<@{cpu}>" not in thread_text
        # It says why: the game has only begun.
        assert "💬 **Computer (strong)**: No thanks" in thread_text


async def test_the_computers_secret_choice_shows_only_that_it_has_chosen(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    game = engine.get_game("global-warming")
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=8, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice, "global-warming")
        await settle(bot)
        before = game.from_json((await bot.store.get_game(row.id)).state)
        assert set(game.awaited(before)) == {str(alice), cpu}
        posts = [(m.id, m.content) for m in fake.messages(row.thread_id)]
        clock.advance(2)   # the computer's pause passes: it chooses
        await settle(bot)
        after = game.from_json((await bot.store.get_game(row.id)).state)
        assert game.awaited(after) == (str(alice),)
        assert public_part(game.view(after, None)) == public_part(game.view(before, None))
        # No new post: the turn post's status line now says who has chosen, never what.
        now = [(m.id, m.content) for m in fake.messages(row.thread_id)]
        assert [i for i, _ in now] == [i for i, _ in posts]
        assert "🔒 1 of 2 chosen: **Computer (strong)**; waiting for **alice**." in now[-1][1]
        assert now[-1][1].replace("1 of 2 chosen: **Computer (strong)**; waiting for **alice**",
                                  "0 of 2 chosen; waiting for **alice** and **Computer (strong)**") \
            == posts[-1][1]


async def test_boards_after_a_computers_move_wait_behind_the_ones_people_wait_for(fake, drawn, tmp_path):
    from bot.rendering import UNHURRIED, URGENT

    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=4242, clock=clock) as bot:
        asked = []   # (priority, who made the last move on the board)
        png = bot.renderer.png

        async def recording(board, priority=URGENT):
            log = board["view"]["log"]
            asked.append((priority, log[-1].get("player") if log else None))
            return await png(board, priority)

        bot.renderer.png = recording
        await command(fake, alice, "play", {"game": "relativity", "computers": "easy"})
        row = await running(bot, alice)
        await play_out(fake, bot, clock, alice, row.id, seed=3)
    cpu = next(p for p in row.player_ids if computers.is_computer(p))
    after_computer = {priority for priority, mover in asked if mover == cpu}
    after_alice = {priority for priority, mover in asked if mover == str(alice)}
    assert after_computer == {UNHURRIED}
    assert after_alice == {URGENT}


# --------------------------------------------------------------------------- draws, leaving

RELATIVITY = engine.get_game("relativity")


async def stall(bot, clock, row, cpu, want) -> None:
    """Play the Relativity game on (straight into the database, move events and all) with
    quiet swaps, no trophy and no molecule one swap away, for at least 40 moves, until
    `want(player, view of the computer)` holds for the computer's own judgement."""
    state = RELATIVITY.from_json(row.state)
    player = computer.get_player("relativity", computers.level_of(cpu),
                                 computers.seed_for(state["seed"], cpu))
    rng = Rng(5)
    events = []
    for ply in range(400):
        if ply >= 40 and want(player, RELATIVITY.view(state, cpu)):
            break
        mover = RELATIVITY.to_act(state)[0]
        quiet = None
        for action in rng.shuffled(RELATIVITY.legal_actions(state, mover)):
            after = RELATIVITY.apply(state, mover, action)
            pos = Position(after)
            if RELATIVITY.scores(after) == RELATIVITY.scores(state) and \
                    not pos.threats("space") and not pos.threats("time"):
                quiet = (action, after)
                break
        assert quiet is not None
        events.append(Event("move", mover, str(quiet[0])))
        state = quiet[1]
    else:
        raise AssertionError("no such position found")
    timers = await bot.flow.with_computer_timers(row, RELATIVITY, state, {}, clock())
    await bot.store.commit(row.id, row.version, now=clock(), changes={"state": RELATIVITY.to_json(state)},
                           events=events, timers=timers)


async def against(fake, bot, person, game="relativity", levels=("strong",)):
    """`person` hosts `game` with computers of `levels` (added through the lobby's buttons) and
    starts it; returns (row, the computers' player ids)."""
    lobby = (await command(fake, person, "play", {"game": game})).original
    for level in levels:
        await press(fake, person, lobby.button(f"Add computer ({level})"), message_id=lobby.id)
    if (await bot.store.games_of_user(int(person)))[-1].status == "lobby":   # (room for more)
        await press(fake, person, lobby.button("Start"), message_id=lobby.id)
    row = await running(bot, person)
    return row, [p for p in row.player_ids if computers.is_computer(p)]


def thread_text(fake, row) -> str:
    return "\n".join(m.content or "" for m in fake.messages(row.thread_id))


async def test_the_computer_accepts_a_draw_in_an_even_stalled_game(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice)
        await stall(bot, clock, row, cpu, lambda player, view: view["turn"] == str(alice)
                    and player.answer_draw(view)[0])
        await command(fake, alice, "draw", {"action": "offer", "game": row.id})
        clock.advance(2)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "finished"
        outcome = RELATIVITY.outcome(RELATIVITY.from_json(row.state))
        assert outcome.draw and not outcome.winners
        assert [e["kind"] for e in await bot.store.events(row.id)][-2:] == ["offer", "accept"]
        assert "💬 **Computer (strong)**: I accept: no trophy in the last" in thread_text(fake, row)
        assert RELATIVITY.to_json(await bot.flow.replay(row.id)) == row.state


async def test_the_computer_offers_a_draw_after_a_long_stretch_without_a_trophy(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=3, clock=clock) as bot:
        row, (cpu,) = await against(fake, bot, alice)
        await stall(bot, clock, row, cpu, lambda player, view: view["turn"] == cpu
                    and player.offers_draw(view))
        clock.advance(2)
        await settle(bot)
        row = await bot.store.get_game(row.id)
        events = await bot.store.events(row.id)
        assert [(e["kind"], e["actor"]) for e in events][-2:] == [("move", cpu), ("offer", cpu)]
        state = RELATIVITY.from_json(row.state)
        assert state["draw_offer"]["by"] == cpu
        assert str(alice) in RELATIVITY.awaited(state)   # its offer stands on alice's turn
        offer = fake.messages(row.thread_id)[-1]
        assert "💬 **Computer (strong)**: No trophy in the last" in offer.content
        assert "shall we call it a draw?" in offer.content and f"<@{alice}>" in offer.content
        await press(fake, alice, offer.button("Accept the draw"), message_id=offer.id)
        row = await bot.store.get_game(row.id)
        assert row.status == "finished"
        assert RELATIVITY.outcome(RELATIVITY.from_json(row.state)).draw


async def test_when_the_last_person_leaves_the_computers_do_not_play_on(fake, drawn, tmp_path):
    alice = fake.add_user("alice")
    clock = FakeClock()
    async with running_bot(fake, tmp_path / "db.sqlite3", seed=11, clock=clock) as bot:
        await command(fake, alice, "play", {"game": "global-warming", "computers": "easy"})
        row = await running(bot, alice)
        assert len(row.seats) == 4
        clock.advance(2)
        await settle(bot)
        res = await command(fake, alice, "resign", {"game": row.id})
        assert "You resigned" in said(res)
        before = len(await bot.store.events(row.id))
        for _ in range(3):
            clock.advance(60)
            await settle(bot)
        row = await bot.store.get_game(row.id)
        assert row.status == "cancelled"
        assert len(await bot.store.events(row.id)) == before   # no computer moved since
        assert not await bot.store.timers_of(row.id)
        assert "No person is left in the game, so it ends here, without a result." in thread_text(fake, row)
        # Every control of the game is gone (nobody can move in it any more).
        assert all(not m.buttons() for m in fake.messages(row.thread_id))
