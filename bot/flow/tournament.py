"""Tournaments (issue 25): the course of one, from sign-up to the final standings. The pairing
and standings are pure (bot.tournaments); this is the flow around them, on the database alone.

Each table of a round is an ordinary game (a lobby row made with the round, started through
the lobby's start with the seats as paired, in a thread of the tournament's channel; duplicate
play: a private thread each, so nobody sees another's layout before the round closes). A round
closes when all its games have ended, or at its deadline, where a game still running is stopped
and settled by the stated rule (POLICY); the next round is paired at once (unless the
tournament is paused) and the standings are posted, as text and as an image.

Everything lives in the database: the tournament's one piece of timed work (`due_at`: its start
time, a look after one of its games ended, its round deadline) is claimed like a timer, and
`check` does whatever is due from what it reads, so a restart (or a crash between two steps)
only means the next check does the rest: a round's games not started yet are started, a round
whose games are all over is closed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable

import engine
from engine import GameError

from .. import texts
from ..errors import UserError
from ..settings import DEADLINES
from ..storage import Conflict, Event, GameRow, Notice
from ..storage.tournaments import TournamentRow
from ..tournaments import pairing
from .tournament_rounds import (DEAL_OPTIONS, FORMAT_NAMES, MIN_ENTRANTS, ROUND_DEADLINES, Rounds,
                                label, round_seed)

log = logging.getLogger("bot.tournaments")
START_RETRY = 600   # seconds between tries to start a round's games that could not start


class TournamentFlow(Rounds):
    """The tournaments' course, for the cog (bot.commands.tournament). `create_thread(row,
    name, private)` opens a game's thread."""

    def __init__(self, flow, create_thread: Callable[[GameRow, str, bool], Awaitable[int | None]]):
        self.flow = flow
        self.store = flow.store
        self.create_thread = create_thread
        self.wake: Callable[[], None] = lambda: None
        self.locks: dict[int, asyncio.Lock] = {}
        self.warned: set[tuple[int, int]] = set()   # (tournament, round) whose games could not start, said
        # async (tournament id) after its timed work ran: the sign-up post shows the news
        self.changed: Callable[[int], Awaitable[None]] | None = None

    @property
    def clock(self):
        return self.flow.clock

    # ---- creating and signing up -----------------------------------------------------------

    async def create(self, *, guild_id: int, channel_id: int, organiser_id: int, game: str,
                     fmt: str | None, options: dict, rounds: int | None, deadline: str | None,
                     round_deadline: str | None, starts_in_hours: int | None) -> TournamentRow:
        if game not in engine.game_names():
            raise UserError("Choose a game from the list.")
        g = engine.get_game(game)
        formats = pairing.formats_for(game)
        fmt = fmt or formats[0]
        if fmt not in formats:
            raise UserError(f"{g.title} is played as {' or '.join(FORMAT_NAMES[f] for f in formats)} "
                            "in a tournament.")
        fixed = sorted((set(g.secret_options) | (DEAL_OPTIONS if fmt == "duplicate" else set())) & set(options))
        if fixed:
            raise UserError(f"`{'`, `'.join(fixed)}` would fix the deals, which the tournament draws itself.")
        if fmt == "duplicate" and "rounds" in options:   # (its scoring reads one deal a game)
            raise UserError("In a duplicate tournament each round is one deal: set the number of deals "
                            "with the tournament's own `rounds:`, not in `options`.")
        seats = 1 if fmt == "duplicate" else g.min_players
        try:
            g.new_game([f"seat{i}" for i in range(seats)], seed=0, options=options)
        except GameError as exc:
            raise UserError(f"Those options do not work: {texts.defuse(exc)}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise UserError(f"Those options do not work ({texts.defuse(exc)}).") from None
        if deadline is not None and deadline not in DEADLINES:
            raise UserError("The move deadline is none, 1d, 3d or 7d.")
        if round_deadline is not None and round_deadline not in ROUND_DEADLINES:
            raise UserError("The round deadline is none, 1d, 3d, 7d or 14d.")
        now = self.clock()
        return await self.store.create_tournament(
            guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, game=game,
            options=options, format=fmt, rounds=rounds,
            deadline_seconds=DEADLINES[deadline or self.flow.default_deadline],
            round_seconds=ROUND_DEADLINES[round_deadline or "none"],
            starts_at=now + starts_in_hours * 3600 if starts_in_hours else None,
            seed=int(self.flow.seed_source()), now=now)

    async def get(self, tid: int) -> TournamentRow:
        t = await self.store.get_tournament(tid) if isinstance(tid, int) and 0 < tid < 2 ** 63 else None
        if t is None:
            raise UserError(f"There is no tournament #{tid}.")
        return t

    async def join(self, tid: int, user_id: int, name: str) -> TournamentRow:
        t = await self.get(tid)
        if t.status != "signup":
            raise UserError(f"{label(t)} has started: sign-up is closed.")
        if not await self.store.add_entrant(t.id, user_id, name):
            raise UserError(f"You are signed up for {label(t)} already.")
        return await self.get(tid)

    async def leave(self, tid: int, user_id: int) -> TournamentRow:
        t = await self.get(tid)
        self.check_playing(t, user_id)
        if t.status == "signup":
            await self.store.drop_entrant(t.id, user_id)
        elif t.status in ("running", "paused"):
            await self.withdraw(t, user_id, "withdrawn")
        else:
            raise UserError(f"{label(t)} is over.")
        return await self.get(tid)

    @staticmethod
    def check_playing(t: TournamentRow, user_id: int) -> None:
        entrant = t.entrant(user_id)
        if entrant is None or entrant.status != "active":
            raise UserError(f"You are not playing in {label(t)}.")

    @staticmethod
    def check_organiser(t: TournamentRow, user_id: int, moderator: bool) -> None:
        if user_id != t.organiser_id and not moderator:
            raise UserError(f"Only the organiser of {label(t)} (or a moderator with Manage Server "
                            "or Manage Events) can do that.")

    # ---- start, pause, resume, remove, end --------------------------------------------------

    async def start(self, tid: int, user_id: int | None, moderator: bool = False) -> TournamentRow:
        t = await self.get(tid)
        if user_id is not None:
            self.check_organiser(t, user_id, moderator)
        if t.status != "signup":
            raise UserError(f"{label(t)} has started already.")
        if len(t.active) < MIN_ENTRANTS:
            raise UserError(f"{label(t)} needs at least {MIN_ENTRANTS} players to start.")
        rounds = t.rounds or pairing.default_rounds(t.format, len(t.active))
        try:
            await self.open_round(t, {"status": "running", "rounds": rounds, "starts_at": self.clock()})
        except Conflict:
            raise UserError(f"{label(t)} changed at the same moment; please try again.") from None
        # (its games are started by the claimed timed work, due now: only one process opens them)
        return await self.get(tid)

    async def pause(self, tid: int, user_id: int, moderator: bool) -> TournamentRow:
        t = await self.get(tid)
        self.check_organiser(t, user_id, moderator)
        if t.status != "running":
            raise UserError(f"{label(t)} is not running." if t.status != "paused" else f"{label(t)} is paused already.")
        await self.change(t, {"status": "paused"}, f"⏸️ **{label(t)}** is paused: the games in play go "
                          "on, but no new round starts until it is resumed.")
        return await self.get(tid)

    async def resume(self, tid: int, user_id: int, moderator: bool) -> TournamentRow:
        t = await self.get(tid)
        self.check_organiser(t, user_id, moderator)
        if t.status != "paused":
            raise UserError(f"{label(t)} is not paused.")
        await self.change(t, {"status": "running", "due_at": self.clock()},
                          f"▶️ **{label(t)}** goes on: the next round starts as soon as it is due.")
        return await self.get(tid)

    async def remove(self, tid: int, user_id: int, moderator: bool, who: int) -> TournamentRow:
        t = await self.get(tid)
        self.check_organiser(t, user_id, moderator)
        entrant = t.entrant(who)
        if entrant is None or entrant.status != "active":
            raise UserError(f"{texts.mention(str(who))} is not playing in {label(t)}.")
        if t.status == "signup":
            await self.store.drop_entrant(t.id, who)
        elif t.status in ("running", "paused"):
            await self.withdraw(t, who, "removed")
        else:
            raise UserError(f"{label(t)} is over.")
        return await self.get(tid)

    async def end(self, tid: int, user_id: int, moderator: bool) -> TournamentRow:
        """End the tournament now: the round in play is settled as at its deadline, and the
        standings are final (before the start: it is called off)."""
        t = await self.get(tid)
        self.check_organiser(t, user_id, moderator)
        if t.status == "signup":
            await self.change(t, {"status": "cancelled", "due_at": None},
                              f"🛑 **{label(t)}** was called off before it started.")
        elif t.status in ("running", "paused") and await self.round_open(t):
            await self.close_round(t, final=True, why="ended by the organiser")
        elif t.status in ("running", "paused"):
            await self.finish(t, "ended by the organiser")
        else:
            raise UserError(f"{label(t)} is over already.")
        return await self.get(tid)

    async def change(self, t: TournamentRow, changes: dict, announce: str) -> None:
        try:
            await self.store.update_tournament(t.id, t.version, now=self.clock(), changes=changes,
                                               notices=[Notice("channel", t.channel_id, {"content": announce})])
        except Conflict:
            raise UserError(f"{label(t)} changed at the same moment; please try again.") from None
        self.wake()

    async def withdraw(self, t: TournamentRow, user_id: int, status: str) -> None:
        """A player leaves (or is removed): never paired again; their games in play are
        forfeited (said in each game's thread and in the channel) and the round waits not on them."""
        name = texts.display(t.names[str(user_id)])
        verb = "has withdrawn from" if status == "withdrawn" else "was removed from"
        # (one removed is told, pinged: they did not ask for it)
        who = f"**{name}**" if status == "withdrawn" else f"**{name}** ({texts.mention(str(user_id))})"
        if not await self.store.set_entrant_status(t.id, user_id, status, now=self.clock(), notices=[
                Notice("channel", t.channel_id, {"content": f"🏳️ {who} {verb} **{label(t)}**: "
                                                            "any game of theirs in play is forfeited, and "
                                                            "they are not paired again.",
                                                 "mentions": [str(user_id)] if status == "removed" else []})]):
            raise UserError(f"{texts.mention(str(user_id))} is not playing in {label(t)}.")
        await self.forfeit_departed(t.id)
        await self.store.set_tournament_due(t.id, self.clock())   # (and again, as the round may close)
        self.wake()

    async def forfeit_departed(self, tid: int) -> None:
        """Forfeit the games in play of the current round that seat someone who has left (by
        withdraw; and by each check, for a round paired at the very moment they left)."""
        t = await self.get(tid)
        gone = {e.id: e.status for e in t.entrants if e.status != "active"}
        for link in await self.store.tournament_games(t.id, t.round):
            for player in [p for p in link.seats if p in gone and p not in link.forfeit]:
                row = await self.store.get_game(link.game_id)
                if row is None or row.status not in ("active", "lobby"):
                    continue
                await self.store.add_forfeit(row.id, player)
                if row.status == "lobby":   # (its round opened, the game not started yet: it never will)
                    try:
                        await self.store.commit(row.id, row.version, now=self.clock(), changes={"status": "cancelled"},
                                                events=[Event("tournament-forfeit", player)])
                        continue
                    except Conflict:   # (started at this moment: resigned below)
                        row = await self.store.get_game(row.id)
                verb = "has withdrawn from" if gone[player] == "withdrawn" else "was removed from"
                await self.store.add_notices(row.id, [Notice("channel", row.thread_id or row.channel_id, {
                    "content": f"🏳️ **{texts.display(t.names[player])}** {verb} {label(t)}: this game "
                               "is forfeited by them."})], self.clock())
                if row.status == "active":
                    try:
                        await self.flow.act(row.id, int(player), "resign")
                    except UserError:
                        pass   # (over meanwhile: the round closes on what it came to)

    # ---- rounds ----------------------------------------------------------------------------

    async def open_round(self, t: TournamentRow, changes: dict | None = None) -> None:
        """Pair the next round and make its games (started by start_games)."""
        number = t.round + 1
        results, byes = await self.history(t)
        active = [e.id for e in t.active]
        gone = [e.id for e in t.entrants if e.status != "active"]
        paired = pairing.pair_round(t.format, active, results, byes, number, t.seed, withdrawn=gone)
        names = t.names
        now = self.clock()
        ends = now + t.round_seconds if t.round_seconds else None
        rounds = (changes or {}).get("rounds", t.rounds)
        lines = [f"🎲 **{label(t)}, round {number} of {rounds}** is paired"
                 + (f"; it ends {texts.timestamp(ends)} at the latest." if ends else ".")]
        # (mentions: the pairing is how its players learn that their games have begun)
        for n, table in enumerate(paired.tables, 1):
            lines.append(f"Table {n}: " + " vs ".join(texts.mention(p) for p in table.seats))
        if t.format == "duplicate":
            lines[1:] = ["Everyone plays the same deal, each in a private thread: "
                         + ", ".join(texts.mention(tb.seats[0]) for tb in paired.tables) + "."]
        if paired.bye:
            lines.append(f"Bye: {texts.mention(paired.bye)}"
                         + (" (a win)." if t.format == "swiss" else " (sits this round out)."))
        forfeits = [{"seats": list(tb.seats), "gone": [p for p in tb.seats if p in gone]}
                    for tb in paired.forfeits]
        for table in forfeits:
            lines.append(f"Not played (forfeited by {texts.name_list(table['gone'], names)}): "
                         + " vs ".join(texts.display(names[p]) for p in table["seats"]) + ".")
        await self.store.open_round(
            t.id, t.version, number=number, bye=int(paired.bye) if paired.bye else None,
            forfeits=forfeits, tables=[(list(tb.seats), names) for tb in paired.tables],
            game=t.game, options=t.options, deadline_seconds=t.deadline_seconds,
            # (a look at once: it starts any game a crash kept from starting, then waits for
            # the round's deadline)
            changes={**(changes or {}), "round": number, "round_ends_at": ends, "due_at": now},
            notices=self.pairing_posts(t, lines, [p for tb in paired.tables for p in tb.seats]
                                       + ([paired.bye] if paired.bye else [])),
            now=now)
        self.wake()

    async def start_games(self, tid: int) -> int:
        """Start the games of the current round that have not started (all of them after
        open_round; the rest after a restart between the two). Returns how many could not."""
        # one start at a time per tournament in this process: a Start press and the worker's
        # look must not both open a thread for one game
        async with self.locks.setdefault(tid, asyncio.Lock()):
            return await self._start_games(tid)

    async def _start_games(self, tid: int) -> int:
        t = await self.get(tid)
        if t.status not in ("running", "paused"):
            return 0
        failed: list[UserError] = []
        for link in await self.store.tournament_games(t.id, t.round):
            row = await self.store.get_game(link.game_id)
            if row is None or row.status != "lobby":
                continue
            duplicate = t.format == "duplicate"

            async def thread(row, name, private=duplicate):
                return await self.create_thread(row, name, private)
            try:
                await self.flow.start(
                    row, thread, seed=round_seed(t.seed, t.round) if duplicate else None,
                    seating="set by the tournament's pairing", tag=f"{label(t)}, round {t.round}: ")
            except UserError as exc:   # (another process started it; or it cannot be dealt)
                log.warning("could not start game %s of tournament %s: %s", row.id, t.id, exc)
                if (await self.store.get_game(row.id)).status == "lobby":
                    failed.append(exc)
        if failed and (t.id, t.round) not in self.warned:
            # (else nobody would know why nothing happens: say so once, to the organiser)
            self.warned.add((t.id, t.round))
            await self.store.add_notices(None, [Notice("channel", t.channel_id, {
                "content": f"⚠️ {texts.mention(str(t.organiser_id))}: **{label(t)}, round {t.round}**: "
                           f"{texts.plural(len(failed), 'game')} could not start. {failed[0]} "
                           f"I try again every {START_RETRY // 60} minutes; `/tournament end` ends the "
                           "tournament instead.",
                "mentions": [str(t.organiser_id)]})], self.clock())
            self.wake()
        return len(failed)

    async def game_ended(self, game_id: int) -> None:
        """The flow's ended hook: a game of a tournament has ended, so its round may be over."""
        link = await self.store.tournament_of_game(game_id)
        if link is not None:
            await self.store.set_tournament_due(link[0], self.clock())
            self.wake()

    async def run_due(self, me: str, lease: float) -> None:
        """The tournaments whose timed work is due: each claimed, checked, released."""
        wall = time.time()
        for tid in await self.store.claim_tournaments(me, self.clock(), wall, wall + lease):
            try:
                await self.check(tid)
                if self.changed is not None:
                    await self.changed(tid)
            except Exception:
                log.exception("tournament %s: its timed work failed", tid)
            finally:
                await self.store.release_tournament(tid, me)

    async def check(self, tid: int) -> None:
        """Do what is due: start at the start time; start the round's games not started yet;
        close a round whose games are over (or whose deadline passed); pair the next one."""
        t = await self.store.get_tournament(tid)
        if t is None:
            return
        now = self.clock()
        if t.status == "signup":
            if t.starts_at is not None and t.starts_at <= now:
                try:
                    await self.start(tid, None)
                except UserError as exc:
                    t = await self.get(tid)
                    await self.store.update_tournament(t.id, t.version, now=now, changes={
                        "status": "cancelled", "due_at": None}, notices=[Notice("channel", t.channel_id, {
                            "content": f"🛑 **{label(t)}** could not start at its start time: {exc}"})])
                    self.wake()
            return
        if t.status not in ("running", "paused"):
            await self.store.set_tournament_due(tid, None)
            return
        unstarted = await self.start_games(tid)
        await self.forfeit_departed(tid)
        if await self.round_open(t):
            late = t.round_ends_at is not None and t.round_ends_at <= now
            if not late:
                # (the look a game's end asked for is taken before the games are read: a game
                # ending from now on asks again; games that could not start are tried again)
                retry = now + START_RETRY if unstarted else None
                await self.store.set_tournament_due(tid, min(filter(None, (t.round_ends_at, retry)), default=None))
            rows = [await self.store.get_game(link.game_id) for link in await self.store.tournament_games(tid, t.round)]
            if not late and any(r.status in ("lobby", "active") for r in rows):
                return
            await self.close_round(t, final=t.round >= (t.rounds or 0),
                                   why="the round deadline passed" if late else None)
            t = await self.get(tid)
        if t.status == "running" and t.round < (t.rounds or 0):
            if len(t.active) < MIN_ENTRANTS:
                await self.finish(t, "too few players are left")
                return
            await self.open_round(t)
            await self.start_games(tid)
        elif t.status == "paused":
            await self.store.set_tournament_due(tid, None)
