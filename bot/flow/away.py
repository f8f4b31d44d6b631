"""Time away in the game flow: a game's clock stands still while a person it waits for is
away (/away, bot.away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from .. import computers, texts
from ..storage import Conflict, GameRow, Notice, OutboxItem, Timer
from .common import PAUSED_UNTIL, REMINDER_SHARE

if TYPE_CHECKING:
    from .core import GameFlow


class TimeAway:
    """GameFlow's part (bot.flow.core) that pauses and moves a game's clock for time away."""

    # ---- time away (issue 14 part 5) -------------------------------------------------------
    # The rule: a game's clock (its deadline and its reminders) stands still while any person it
    # waits for is away (/away, bot.away). A game already waiting for someone who goes away has
    # its stored deadline and reminder timers moved to when the last of them is back (and moved
    # again if that changes); a turn that begins while someone it waits for is away starts its
    # clock when they are back (timers_for). Either way the timers say until when in their data
    # (PAUSED_UNTIL), and fire by themselves once the absence is over.

    async def away_pause(self, row: GameRow, game, state, now: float) -> tuple[float | None, list[str]]:
        """When the game's clock may run again (None: it runs now), and the people it waits
        for who are away."""
        until, away, _ = await self._away(row, game, state, now)
        return until, away

    async def _away(self, row: GameRow, game, state,
                    now: float) -> tuple[float | None, list[str], float | None]:
        """away_pause, and since when the first of those away has been away."""
        if game.outcome(state) is not None:
            return None, [], None
        people = [p for p in game.awaited(state) if not computers.is_computer(p)]
        absences = await self.store.absences_now(row.guild_id, [int(p) for p in people], now)
        if not absences:
            return None, [], None
        return (max(ends for _, ends in absences.values()), [p for p in people if int(p) in absences],
                min(starts for starts, _ in absences.values()))

    def away_notices(self, row: GameRow, game, old, new, plan: "GameFlow.Plan", away: list[str],
                     clock_from: float | None) -> list[Notice]:
        """A turn that begins while someone it waits for is away: the thread says until when
        its clock waits (once, when they come to be awaited)."""
        if not plan.timers or not away or clock_from is None:
            return []
        if old is not None and all(p in game.awaited(old) for p in away):
            return []
        return [Notice("channel", row.thread_id or row.channel_id,
                       {"content": self.away_line(row, away, clock_from)})]

    @staticmethod
    def away_line(row: GameRow, away: list[str], until: float) -> str:
        return (f"⏸️ {texts.name_list(away, row.names)} {'is' if len(away) == 1 else 'are'} away "
                f"until {texts.timestamp(until, 'f')} ({texts.timestamp(until)}): this game's clock "
                "stands still until then.")

    @staticmethod
    def paused_until(timers: Mapping[str, Timer], now: float) -> float | None:
        """Until when a game's clock stands still for time away, from its stored timers."""
        until = max([t.data.get(PAUSED_UNTIL, now) for k, t in timers.items()
                     if k in ("deadline", "reminder")], default=now)
        return until if until > now else None

    async def retime(self, game_id: int, *, back: str | None = None) -> tuple[GameRow, float | None] | None:
        """Bring a running game's deadline and reminder in line with the absences of the people
        it waits for now, after an absence starts, changes or ends early (`back`: the player
        who came back): paused until the last of them is back, a deadline is pushed back by
        exactly the time its clock stood still. The thread is told. Returns the game and its
        deadline when they moved."""
        for _ in range(5):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                return None
            game = self.game_of(row)
            state = self.state_of(row)
            now = self.clock()
            until, away, since = await self._away(row, game, state, now)
            target = max(now, until or now)
            stored = {k: t for k, t in (await self.store.timers_of(row.id)).items()
                      if k in ("deadline", "reminder")}
            if not stored:
                return None
            # When the clock stopped: the pause the timers carry; else, for a game found running
            # while someone it waits for is away (a stop of the bot, or a move at that very
            # moment, came between the absence and this), when they left or the turn began.
            base = max(t.data.get(PAUSED_UNTIL, 0) for t in stored.values())
            if base <= now:
                base = now if until is None else max(
                    base, since, stored["deadline"].due_at - row.deadline_seconds
                    if "deadline" in stored and row.deadline_seconds else since)
            shift = target - base
            if abs(shift) < 1:
                return None
            if shift > 0 and "deadline" in stored and stored["deadline"].due_at <= base:
                return None   # late already when they left: the deadline fires as it would have
            data = {PAUSED_UNTIL: target} if target > now else {}
            timers = {k: (t.due_at + shift, {**{key: v for key, v in t.data.items() if key != PAUSED_UNTIL},
                                             **data})
                      for k, t in stored.items()}
            deadline = timers.get("deadline", (None,))[0]
            if deadline is not None and "reminder" not in timers and row.deadline_seconds:
                # The reminder was sent before: one more, when the clock runs again.
                timers["reminder"] = (max(target, deadline - (1 - REMINDER_SHARE) * row.deadline_seconds), data)
            lines = [f"▶️ **{texts.display(row.names.get(back, back))}** is back."] if back else []
            if target > now:
                lines.append(self.away_line(row, away, target))
            else:
                lines.append("▶️ This game's clock runs again." if not back else "This game's clock runs again.")
            if deadline is not None:
                lines.append(f"⏳ Deadline {texts.timestamp(deadline, 'f')} ({texts.timestamp(deadline)}).")
            notices = [Notice("channel", row.thread_id or row.channel_id, {"content": " ".join(lines)})]
            if "deadline" in stored:
                notices[:0] = self.moved_deadline((await self.store.tagged_notices(row.id)).get("board"),
                                                  stored["deadline"].due_at, deadline)
            try:
                await self.store.retime(row.id, row.version, timers, notices, now)
            except Conflict:
                continue   # a move came first: look again at the game as it is now
            self.on_commit()
            return row, deadline
        return None

    @staticmethod
    def moved_deadline(post: OutboxItem | None, old: float, new: float) -> list[Notice]:
        """An edit of the turn post (or round's status post) that showed deadline `old`, to
        show `new`; the rest of it stays as it is (its image too)."""
        if post is None or (post.failed and post.edit_of is None):
            return []
        shown = post.payload.get("deadline_at")
        if shown is None or abs(shown - old) >= 1:
            return []
        payload = {k: v for k, v in post.payload.items() if k != "board"}
        payload["content"] = str(payload.get("content", "")).replace(texts.timestamp(shown),
                                                                      texts.timestamp(new))
        payload.update(deadline_at=new, repost=True)
        return [Notice(post.target_kind, post.target_id, payload, tag=post.tag, edit_of=post.id)]

    async def retime_games_of(self, guild_id: int, user_id: int, *,
                              back: bool = False) -> list[tuple[GameRow, float | None]]:
        """`retime` every running game of the player in the server (after their absence
        changed); returns those whose timers moved."""
        moved = []
        for row in await self.store.games_of_user(user_id, guild_id, statuses=("active",)):
            result = await self.retime(row.id, back=str(user_id) if back else None)
            if result is not None:
                moved.append(result)
        return moved
