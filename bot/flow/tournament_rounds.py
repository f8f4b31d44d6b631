"""Tournaments' rounds closing (bot.flow.tournament's part): each table's points (by the
format, the round deadline's rule and forfeits), the results and standings posted, the final
post with the winners; and the words and numbers both parts share."""

from __future__ import annotations

import asyncio
import hashlib

import engine

from .. import ratings, texts
from .. import tournaments as ranking   # (the pure part: pairing, standings)
from ..errors import UserError
from ..storage import Conflict, Event, GameRow, Notice
from ..storage.tournaments import TournamentGame, TournamentRow
from ..tournaments import pairing
from .common import strip_at_end

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


def signup_text(t: TournamentRow) -> str:
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

def signup_controls(t: TournamentRow) -> list[list]:
    if t.status == "signup":
        return [["tour", t.id, op] for op in ("join", "leave", "start")]
    if t.status in ("running", "paused"):
        return [["tour", t.id, op] for op in ("leave", "standings")]
    return [["tour", t.id, "standings"]] if t.status == "finished" else []


class Rounds:
    """TournamentFlow's part that settles and closes a round, and tells the standings."""

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

    async def stop_game(self, t: TournamentRow, row: GameRow, why: str) -> GameRow:
        """A game still running when its round ends: stopped, and settled by the policy."""
        for _ in range(5):
            if row.status not in ("active", "lobby"):
                return row
            notices = []
            if row.status == "active":   # (a game that never started has no thread to tell)
                notices.append(Notice("channel", row.thread_id or row.channel_id, {
                    "content": f"⏰ {label(t)}, round {t.round}: {why}, so this game stops here. {POLICY}"}))
            try:
                await self.store.commit(row.id, row.version, now=self.clock(), changes={"status": "cancelled"},
                                        events=[Event("tournament-stop", None, why)], notices=notices, timers={},
                                        strip=strip_at_end)
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
            return {p: 0.0 if p in forfeit else duplicate_scores.get(p, 0.0)}, ("not played" if row.state is None else "")
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
        if t.game == "pack-solitaire" and any(r.state is not None for r in rows):   # (a deal was dealt)
            best = self.best_of_round(t, rows)
            lines.append(f"The deal's best possible score: **{best}**." if best is not None
                         else "The deal's best possible score is still being worked out: it follows here.")
        results, byes = await self.history(t)
        for link in links:
            results.append(pairing.Result(t.round, tuple(link.seats),
                                          settled[link.game_id]["points"], tuple(link.forfeit)))
        table = self.standings(t, results, byes)
        notices = [Notice("channel", t.channel_id, {"content": texts.clip("\n".join(lines))}),
                   await self.standings_notice(t, table, final, closing=t.round)]
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

    @staticmethod
    def pairing_posts(t: TournamentRow, lines: list[str], players: list[str]) -> list[Notice]:
        """The pairing, in as many posts as Discord's limits take (a large field passes 2,000
        characters and 100 pings); each pings the players it names."""
        return [Notice("channel", t.channel_id, {"content": part, "mentions": [
                    p for p in texts.MENTION.findall(part) if p in players]})
                for part in texts.pack_lines(lines)]

    def winners_notice(self, t: TournamentRow, table: list) -> Notice:
        winners = [s.entrant for s in table if s.place == 1]
        pings = [texts.mention(p) for p in winners]
        return Notice("channel", t.channel_id, {
            "content": f"🏆 **{label(t)}** is over. "
                       + ("The winner: " if len(winners) == 1 else "Sharing first place: ")
                       + (", ".join(pings[:-1]) + " and " if len(pings) > 1 else "") + pings[-1]
                       + "! Congratulations.",
            "mentions": winners})

    async def finish(self, t: TournamentRow, why: str) -> None:
        """The end between two rounds (the last one closed): the final standings and winners."""
        results, byes = await self.history(t)
        table = self.standings(t, results, byes)
        await self.store.update_tournament(t.id, t.version, now=self.clock(), changes={
            "status": "finished", "due_at": None, "round_ends_at": None}, notices=[
            Notice("channel", t.channel_id, {"content": f"🏁 **{label(t)}** ends after round {t.round} ({why})."}),
            await self.standings_notice(t, table, True), self.winners_notice(t, table)])
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
        dealt = [r for r in rows if r.state is not None]
        if known is not None or not dealt:
            return known
        row, number = dealt[0], t.round

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

    async def standings_notice(self, t: TournamentRow, table: list, final: bool,
                               closing: int | None = None) -> Notice:
        """The standings post: text and image (`closing`: the round being closed, whose deal's
        best score may now be said)."""
        names = t.names
        in_play = closing is None and t.status in ("running", "paused") and await self.round_open(t)
        title = (f"{label(t)}: final standings" if final or t.status == "finished"
                 else f"{label(t)}: standings after round {t.round}" if not in_play
                 # (asked for while a round is played: its games do not count yet)
                 else f"{label(t)}: standings after round {t.round - 1}, round {t.round} in play" if t.round > 1
                 else f"{label(t)}: standings, round 1 in play")
        columns, rows = ranking.standings_table(t.format, table, names)
        note = await self.best_note(t, closing)
        text = ranking.standings_text(t.format, table, names, limit=texts.MESSAGE_LIMIT - 100, note=note)
        return Notice("channel", t.channel_id, {
            "content": f"📊 **{title}**\n{text}",
            "board": {"view": {"standings": {"title": title, "columns": columns, "rows": rows, "note": note,
                                             "highlight": [i for i, s in enumerate(table) if s.place == 1]}}}})

    async def best_note(self, t: TournamentRow, closing: int | None) -> str:
        """Pack Solitaire: the best score each closed round's deal allowed (never an open
        round's: it would tell its players something of their deal)."""
        if t.game != "pack-solitaire":
            return ""
        closed = {r["round"] for r in await self.store.rounds_of(t.id) if r["closed"]} | {closing}
        best: dict[int, float] = {}
        for link in await self.store.tournament_games(t.id):
            row = await self.store.get_game(link.game_id) if link.round in closed else None
            if row is not None and "best" in row.extras:
                best.setdefault(link.round, row.extras["best"])
        return ranking.best_possible_note(best)

    async def standings_now(self, tid: int) -> tuple[TournamentRow, str, dict]:
        """`/tournament standings`: the text and the image's board, from the results so far."""
        t = await self.get(tid)
        results, byes = await self.history(t)
        notice = await self.standings_notice(t, self.standings(t, results, byes), t.status == "finished")
        return t, notice.payload["content"], notice.payload["board"]


async def open_deal_of(store, row: GameRow) -> TournamentRow | None:
    """The duplicate tournament whose round still being played deals this game, if any: its
    deal is everyone's in that round, so it is shown to nobody else until the round closes."""
    link = await store.tournament_of_game(row.id)
    if link is None:
        return None
    t = await store.get_tournament(link[0])
    if t is not None and t.format == "duplicate" and t.round == link[1] and t.status in ("running", "paused"):
        rounds = await store.rounds_of(t.id)
        if rounds and not rounds[-1]["closed"]:
            return t
    return None


async def check_may_see(store, row: GameRow, user_id: int) -> None:
    """A duplicate tournament's game is its player's own until its round closes: another
    entrant would see the deal they are playing too."""
    if row.seat_of(user_id):
        return
    t = await open_deal_of(store, row)
    if t is not None:
        raise UserError(f"Game #{row.id} is a deal of {label(t)} still being played: it is shown "
                        "once the round is over.")


async def check_may_share(store, row: GameRow) -> None:
    """Nor may its own player post it for everyone before the round closes."""
    t = await open_deal_of(store, row)
    if t is not None:
        raise UserError(f"Game #{row.id} is a deal of {label(t)} that others are still playing: its "
                        "record would give the deal away. Without `share` it is shown to you alone; "
                        "once the round is over it may be shared.")
