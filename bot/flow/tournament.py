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
import hashlib
import logging
import time
from typing import Awaitable, Callable

import engine
from engine import GameError

from .. import ratings, texts
from ..errors import UserError
from ..settings import DEADLINES
from ..storage import Conflict, Event, GameRow, Notice
from ..storage.tournaments import TournamentGame, TournamentRow
from .. import tournaments as ranking   # (the pure part: pairing, standings)
from ..tournaments import pairing

log = logging.getLogger("bot.tournaments")

FORMAT_NAMES = {"swiss": "Swiss", "round-robin": "round robin", "tables": "tables",
                "duplicate": "duplicate"}
ROUND_DEADLINES = {"none": None, "1d": 86400, "3d": 3 * 86400, "7d": 7 * 86400, "14d": 14 * 86400}
POLICY = ("At the round deadline a game still running stops and is settled on its score so far: "
          "the higher score wins, equal scores draw (at a table, places go by score; in duplicate "
          "play the score so far counts).")
FORMAT_RULES = {
    "swiss": "Swiss: each round pairs players on equal points, never twice the same pair while "
             "that can be avoided, first and second seats balanced; an odd player out gets a bye "
             "(a win). Win 1, draw ½, loss 0; ties broken by Buchholz, then Sonneborn-Berger.",
    "round-robin": "Round robin: everyone plays everyone once, first and second seats balanced. "
                   "Win 1, draw ½, loss 0; ties broken by head-to-head, then wins.",
    "tables": "Tables of 3-4 (fewer only when the count forces it), seated by standing; one point "
              "for each player at the table finished ahead of (3, 2, 1, 0 at four; shared places "
              "split); ties broken by wins.",
    "duplicate": "Duplicate: everyone plays the same deal each round, in a private thread, drawn "
                 "for the tournament and hidden until the round opens; ranked by summed score "
                 "(BYOP1: its points among everyone who played the deal, by fewest slides); ties "
                 "broken by the best single round.",
}
# options that fix a deal: a duplicate tournament draws its own deals
DEAL_OPTIONS = frozenset({"tiles", "deals", "layouts", "paths"})
MIN_ENTRANTS = 2


def round_seed(seed: int, number: int) -> int:
    """The deal of a duplicate round: the same for every entrant, derived from the
    tournament's secret seed (kept in the database), unknown before the round opens."""
    digest = hashlib.sha256(f"tournament|{seed}|{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def number(value: float) -> str:
    """1.0 -> '1', 0.5 -> '0.5'."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def label(t: TournamentRow) -> str:
    return f"Tournament #{t.id}"


def result_of(link: TournamentGame) -> pairing.Result:
    return pairing.Result(link.round, tuple(link.seats),
                          {p: float(v) for p, v in link.result["points"].items()},
                          tuple(link.result.get("forfeit", ())))


def two_player_points(seats: list[str], scores: dict[str, float], forfeit) -> dict[str, float]:
    """Win 1, draw ½, loss 0: by the scores (higher wins); one who forfeits loses."""
    a, b = seats
    key = {p: (p not in forfeit, scores.get(p, 0)) for p in seats}
    if key[a] == key[b]:
        return {a: 0.5, b: 0.5} if a not in forfeit else {a: 0.0, b: 0.0}
    return {a: 1.0, b: 0.0} if key[a] > key[b] else {a: 0.0, b: 1.0}


def byop1_points(entries: dict[str, tuple[str, int, float]]) -> dict[str, float]:
    """BYOP1's points among everyone who played a deal (its rules 5-9, ranked by slides): a
    fumbler scores 0; of the m others, correct boards rank by fewest slides (then the earlier
    finish), unfinished ones last and tied; the k-th scores (m - k) + f (f: the fumblers)."""
    fumblers = [p for p, (status, _, _) in entries.items() if status == "fumble"]
    others = [p for p in entries if p not in fumblers]
    correct = sorted((p for p in others if entries[p][0] == "correct"),
                     key=lambda p: (entries[p][1], entries[p][2]))
    points = {p: 0.0 for p in fumblers}
    for k, p in enumerate(correct, 1):
        points[p] = float(len(others) - k + len(fumblers))
    for p in others:
        points.setdefault(p, float(len(fumblers)))
    return points


class TournamentFlow:
    """The tournaments' course, for the cog (bot.commands.tournament). `create_thread(row,
    name, private)` opens a game's thread."""

    def __init__(self, flow, create_thread: Callable[[GameRow, str, bool], Awaitable[int | None]]):
        self.flow = flow
        self.store = flow.store
        self.create_thread = create_thread
        self.wake: Callable[[], None] = lambda: None
        self.locks: dict[int, asyncio.Lock] = {}
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

    def text(self, t: TournamentRow) -> str:
        """The sign-up post: what, how, when, who."""
        g = engine.get_game(t.game)
        rounds = (f"{texts.plural(t.rounds, 'round')}" if t.rounds else
                  "every pair once" if t.format == "round-robin" else "rounds by the number of players")
        lines = [f"🏆 **{label(t)}**: {g.title}, {FORMAT_NAMES[t.format]}, {rounds}; organised by "
                 f"{texts.mention(str(t.organiser_id))}.",
                 FORMAT_RULES[t.format],
                 f"Move deadline: {texts.duration(t.deadline_seconds)} per move." if t.deadline_seconds
                 else "Move deadline: none.",
                 (f"Round deadline: {texts.duration(t.round_seconds)}. {POLICY}" if t.round_seconds
                  else "Round deadline: none (a round ends when all its games have).")]
        if t.options:
            lines.append("Options: " + texts.display(", ".join(f"{k}={v}" for k, v in sorted(t.options.items())))[:300])
        entrants = [e for e in t.entrants if e.status == "active"]
        lines.append(f"Players ({len(entrants)}): "
                     + (texts.name_list([e.id for e in entrants], t.names) if entrants else "nobody yet") + ".")
        if t.status == "signup":
            lines.append(f"Starts {texts.timestamp(t.starts_at)} (or when the organiser presses **Start**)."
                         if t.starts_at else "Starts when the organiser presses **Start**.")
            lines.append("Press **Join** to play, **Leave** to take your name back.")
        elif t.status in ("running", "paused"):
            lines.append(f"Round {t.round} of {t.rounds} is on" + (" (paused: no new round starts)."
                                                                  if t.status == "paused" else ".")
                         + " **Leave** withdraws you: your remaining games are forfeits.")
        elif t.status == "finished":
            lines.append("The tournament is over: `/tournament standings` shows the final table.")
        else:
            lines.append("This tournament was called off.")
        return texts.clip("\n".join(lines))

    def controls(self, t: TournamentRow) -> list[list]:
        if t.status == "signup":
            return [["tour", t.id, op] for op in ("join", "leave", "start")]
        if t.status in ("running", "paused"):
            return [["tour", t.id, op] for op in ("leave", "standings")]
        return [["tour", t.id, "standings"]] if t.status == "finished" else []

    async def join(self, tid: int, user_id: int, name: str) -> TournamentRow:
        t = await self.get(tid)
        if t.status != "signup":
            raise UserError(f"{label(t)} has started: sign-up is closed.")
        if not await self.store.add_entrant(t.id, user_id, name):
            raise UserError(f"You are signed up for {label(t)} already.")
        return await self.get(tid)

    async def leave(self, tid: int, user_id: int) -> TournamentRow:
        t = await self.get(tid)
        entrant = t.entrant(user_id)
        if entrant is None or entrant.status != "active":
            raise UserError(f"You are not playing in {label(t)}.")
        if t.status == "signup":
            await self.store.drop_entrant(t.id, user_id)
        elif t.status in ("running", "paused"):
            await self.withdraw(t, user_id, "withdrawn")
        else:
            raise UserError(f"{label(t)} is over.")
        return await self.get(tid)

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
        await self.start_games(t.id)
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
        links = [link for link in await self.store.tournament_games(t.id, t.round)
                 if str(user_id) in link.seats]
        playing = []
        for link in links:
            row = await self.store.get_game(link.game_id)
            if row is not None and row.status in ("active", "lobby"):
                playing.append(row)
        tail = (f" {texts.plural(len(playing), 'game')} in play {texts.verb(len(playing), 'is', 'are')} "
                "forfeited." if playing else "")
        if not await self.store.set_entrant_status(t.id, user_id, status, now=self.clock(), notices=[
                Notice("channel", t.channel_id, {"content": f"🏳️ **{name}** {verb} **{label(t)}**.{tail} "
                                                            "They are not paired again."})]):
            raise UserError(f"{texts.mention(str(user_id))} is not playing in {label(t)}.")
        for row in playing:
            await self.store.add_forfeit(row.id, str(user_id))
            if row.status == "lobby":   # (its round opened, the game not started yet: it never will)
                try:
                    await self.store.commit(row.id, row.version, now=self.clock(), changes={"status": "cancelled"},
                                            events=[Event("tournament-forfeit", str(user_id))])
                    continue
                except Conflict:   # (started at this moment: resigned below)
                    row = await self.store.get_game(row.id)
            await self.store.add_notices(row.id, [Notice("channel", row.thread_id or row.channel_id, {
                "content": f"🏳️ **{name}** {verb} {label(t)}: this game is forfeited by them."})], self.clock())
            if row.status == "active":
                try:
                    await self.flow.act(row.id, user_id, "resign")
                except UserError:
                    pass   # (over meanwhile: the round closes on what it came to)
        await self.store.set_tournament_due(t.id, self.clock())
        self.wake()

    # ---- rounds ----------------------------------------------------------------------------

    async def history(self, t: TournamentRow) -> tuple[list[pairing.Result], list[str]]:
        """Every settled table so far (games, and scheduled games not played), and the byes."""
        results = [result_of(link) for link in await self.store.tournament_games(t.id) if link.result]
        byes = []
        for r in await self.store.rounds_of(t.id):
            if r["bye"] is not None:
                byes.append(str(r["bye"]))
            for table in r["forfeits"]:
                results.append(pairing.Result(r["round"], tuple(table["seats"]),
                                              two_player_points(table["seats"], {}, table["gone"]),
                                              tuple(table["gone"])))
        return results, byes

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
        for n, table in enumerate(paired.tables, 1):
            who = " vs ".join(f"**{texts.display(names[p])}**" for p in table.seats)
            lines.append(f"Table {n}: {who}" if t.format != "duplicate" else f"- {who}")
        if t.format == "duplicate":
            lines[1:] = [f"Everyone plays the same deal, each in a private thread: "
                         f"{texts.name_list([tb.seats[0] for tb in paired.tables], names)}."]
        if paired.bye:
            lines.append(f"Bye: **{texts.display(names[paired.bye])}**"
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
            notices=[Notice("channel", t.channel_id, {"content": texts.clip("\n".join(lines)),
                                                      "mentions": [p for tb in paired.tables for p in tb.seats]})],
            now=now)
        self.wake()

    async def start_games(self, tid: int) -> None:
        """Start the games of the current round that have not started (all of them after
        open_round; the rest after a restart between the two)."""
        # one start at a time per tournament in this process: a Start press and the worker's
        # look must not both open a thread for one game
        async with self.locks.setdefault(tid, asyncio.Lock()):
            await self._start_games(tid)

    async def _start_games(self, tid: int) -> None:
        t = await self.get(tid)
        if t.status not in ("running", "paused"):
            return
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
        await self.start_games(tid)
        if await self.round_open(t):
            late = t.round_ends_at is not None and t.round_ends_at <= now
            if not late:
                # (the look a game's end asked for is taken before the games are read: a game
                # ending from now on asks again)
                await self.store.set_tournament_due(tid, t.round_ends_at)
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

    async def stop_game(self, t: TournamentRow, row: GameRow, why: str) -> GameRow:
        """A game still running when its round ends: stopped, and settled by the policy."""
        for _ in range(5):
            if row.status not in ("active", "lobby"):
                return row
            notices = await self.flow.strip_all(row.id)
            notices.append(Notice("channel", row.thread_id or row.channel_id, {
                "content": f"⏰ {label(t)}, round {t.round}: {why}, so this game stops here. {POLICY}"}))
            try:
                await self.store.commit(row.id, row.version, now=self.clock(), changes={"status": "cancelled"},
                                        events=[Event("tournament-stop", None, why)], notices=notices, timers={})
                self.flow.on_commit()
            except Conflict:
                pass
            row = await self.store.get_game(row.id)
        return row

    def table_points(self, t: TournamentRow, link: TournamentGame, row: GameRow,
                     duplicate_scores: dict[str, float]) -> tuple[dict[str, float], str]:
        """A table's points, and how it came to them."""
        forfeit = set(link.forfeit)
        if t.format == "duplicate":
            p = link.seats[0]
            return {p: 0.0 if p in forfeit else duplicate_scores.get(p, 0.0)}, ""
        if row.state is None:
            scores, how = {p: 0 for p in link.seats}, "not played"
        else:
            game = self.flow.game_of(row)
            state = self.flow.state_of(row)
            if row.status == "finished":
                places = ratings.places(game, state)
                scores, how = {p: -places.get(p, 99) for p in link.seats}, ""
            else:
                scores, how = dict(game.scores(state)), "settled on the score so far"
        if t.format == "tables":
            return ranking.table_points({p: scores.get(p, 0) for p in link.seats}, tuple(forfeit)), how
        return two_player_points(link.seats, scores, forfeit), how

    def duplicate_scores(self, t: TournamentRow, rows: list[GameRow]) -> dict[str, float]:
        """Each entrant's score on the round's deal: Pack Solitaire's score (a game stopped at the
        deadline: its score so far); BYOP1's points among everyone who played the deal."""
        scores: dict[str, float] = {}
        entries: dict[str, tuple[str, int, float]] = {}
        for row in rows:
            if row.state is None:
                continue
            p = row.player_ids[0]
            game = self.flow.game_of(row)
            state = self.flow.state_of(row)
            if t.game == "byop1":
                history = game.view(state, None)["history"]
                mine = history[-1]["results"].get(p) if history else None
                done = row.status == "finished" and mine is not None
                entries[p] = ((mine["status"] if done else "unfinished"),
                              (mine or {}).get("slides", 0), row.updated_at)
            elif row.status == "finished" and "score" in row.extras:
                scores[p] = float(row.extras["score"])
            else:
                scores[p] = float(game.scores(state).get(p, 0))
        return byop1_points(entries) if t.game == "byop1" else scores

    async def close_round(self, t: TournamentRow, *, final: bool, why: str | None) -> None:
        """Settle the round's games (stopping those still running), post the results and the
        standings, and, with `final`, the winners."""
        links = await self.store.tournament_games(t.id, t.round)
        rows = []
        for link in links:
            row = await self.store.get_game(link.game_id)
            if row.status in ("active", "lobby"):
                row = await self.stop_game(t, row, why or "the round ends")
            rows.append(row)
        links = await self.store.tournament_games(t.id, t.round)   # (forfeits added meanwhile)
        duplicate = self.duplicate_scores(t, rows) if t.format == "duplicate" else {}
        names = t.names
        settled: dict[int, dict] = {}
        lines = [f"🏁 **{label(t)}, round {t.round}** is over" + (f" ({why})." if why else ".")]
        for link, row in zip(links, rows):
            points, how = self.table_points(t, link, row, duplicate)
            settled[link.game_id] = {"points": points, "forfeit": link.forfeit, "how": how}
            shown = ", ".join(f"{texts.display(names[p])} {number(points[p])}"
                              + (" (forfeit)" if p in link.forfeit else "") for p in link.seats)
            where = f" <#{row.thread_id}>" if row.thread_id and t.format != "duplicate" else ""
            lines.append(f"- {shown}" + (f" ({how})" if how else "") + where)
        if t.game == "pack-solitaire":
            best = self.best_of_round(t, rows)
            lines.append(f"The deal's best possible score: **{best}**." if best is not None
                         else "The deal's best possible score is still being worked out: it follows here.")
        results, byes = await self.history(t)
        for link in links:
            results.append(pairing.Result(t.round, tuple(link.seats),
                                          settled[link.game_id]["points"], tuple(link.forfeit)))
        table = self.standings(t, results, byes)
        notices = [Notice("channel", t.channel_id, {"content": texts.clip("\n".join(lines))}),
                   self.standings_notice(t, table, final)]
        changes: dict = {"round_ends_at": None, "due_at": self.clock()}
        if final:
            changes.update(status="finished", due_at=None)
            notices.append(self.winners_notice(t, table))
        try:
            await self.store.close_round(t.id, t.version, number=t.round, results=settled,
                                         changes=changes, notices=notices, now=self.clock())
        except Conflict:
            raise UserError(f"{label(t)} changed at the same moment; please try again.") from None
        self.wake()

    def winners_notice(self, t: TournamentRow, table: list) -> Notice:
        winners = [s.entrant for s in table if s.place == 1]
        return Notice("channel", t.channel_id, {
            "content": f"🏆 **{label(t)}** is over. "
                       + ("The winner: " if len(winners) == 1 else "Sharing first place: ")
                       + texts.name_list(winners, t.names) + "! Congratulations.",
            "mentions": winners})

    async def finish(self, t: TournamentRow, why: str) -> None:
        """The end between two rounds (the last one closed): the final standings and winners."""
        results, byes = await self.history(t)
        table = self.standings(t, results, byes)
        await self.store.update_tournament(t.id, t.version, now=self.clock(), changes={
            "status": "finished", "due_at": None, "round_ends_at": None}, notices=[
            Notice("channel", t.channel_id, {"content": f"🏁 **{label(t)}** ends after round {t.round} ({why})."}),
            self.standings_notice(t, table, True), self.winners_notice(t, table)])
        self.wake()

    async def round_open(self, t: TournamentRow) -> bool:
        """Whether the current round is still being played (not closed yet)."""
        rounds = await self.store.rounds_of(t.id)
        return bool(rounds) and not rounds[-1]["closed"]

    def best_of_round(self, t: TournamentRow, rows: list[GameRow]) -> int | None:
        """Pack Solitaire: the deal's best score, from a game that knows it (a finished game
        does: its end waited for it). Else the solver works it out in the background pool
        (minutes on some deals: the round does not wait) and it is posted when it comes."""
        known = next((r.extras["best"] for r in rows if "best" in r.extras), None)
        if known is not None or not rows or rows[0].state is None:
            return known
        row, number = rows[0], t.round

        async def post_later() -> None:
            values = await self.flow.background_result(row, self.flow.game_of(row), self.flow.state_of(row))
            if "best" in values:
                await self.store.add_notices(None, [Notice("channel", t.channel_id, {
                    "content": f"🧮 {label(t)}, round {number}: the deal's best possible score was "
                               f"**{values['best']}**."})], self.clock())
                self.wake()
        asyncio.get_running_loop().create_task(post_later())
        return None

    def standings(self, t: TournamentRow, results, byes) -> list:
        everyone = [e.id for e in t.entrants]
        gone = [e.id for e in t.entrants if e.status != "active"]
        return ranking.standings(t.format, everyone, gone, results, byes,
                                 bye_points=1.0 if t.format == "swiss" else 0.0)

    def standings_notice(self, t: TournamentRow, table: list, final: bool) -> Notice:
        names = t.names
        title = (f"{label(t)}: final standings" if final or t.status == "finished"
                 else f"{label(t)}: standings after round {t.round}")
        columns, rows = ranking.standings_table(t.format, table, names)
        text = ranking.standings_text(t.format, table, names, limit=texts.MESSAGE_LIMIT - 100)
        return Notice("channel", t.channel_id, {
            "content": f"📊 **{title}**\n{text}",
            "board": {"view": {"standings": {"title": title, "columns": columns, "rows": rows,
                                             "highlight": [i for i, s in enumerate(table) if s.place == 1]}}}})

    async def standings_now(self, tid: int) -> tuple[TournamentRow, str, dict]:
        """`/tournament standings`: the text and the image's board, from the results so far."""
        t = await self.get(tid)
        results, byes = await self.history(t)
        notice = self.standings_notice(t, self.standings(t, results, byes), t.status == "finished")
        return t, notice.payload["content"], notice.payload["board"]


async def check_may_see(store, row: GameRow, user_id: int) -> None:
    """A duplicate tournament's game is its player's own until its round closes: another
    entrant would see the deal they are playing too."""
    if row.seat_of(user_id):
        return
    link = await store.tournament_of_game(row.id)
    if link is None:
        return
    t = await store.get_tournament(link[0])
    if t is not None and t.format == "duplicate" and t.round == link[1] and t.status in ("running", "paused"):
        rounds = await store.rounds_of(t.id)
        if rounds and not rounds[-1]["closed"]:
            raise UserError(f"Game #{row.id} is a deal of {label(t)} still being played: it is shown "
                            "once the round is over.")
