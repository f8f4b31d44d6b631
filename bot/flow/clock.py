"""The game flow's clock: a turn's deadline and reminder timers, and what happens when a timer
fires (the deadline passes, a reminder is sent, a computer's turn comes)."""

from __future__ import annotations

from .. import computers, texts
from ..storage import Conflict, GameRow, Notice, Timer
from .common import COMPUTER_TIMER, PAUSED_UNTIL, REMINDER_SHARE, REPEAT_REMINDER, REPLACED, log, strip


class Clock:
    """GameFlow's part (bot.flow.core) that sets and fires a game's timers."""

    # ---- timers ----------------------------------------------------------------------------

    def timers_for(self, row: GameRow, now: float, clock_from: float | None = None) -> dict:
        """A turn's deadline and reminder. `clock_from`: when a player it waits for is back
        from time away, the clock starts then (its timers say so, see `retime`)."""
        start = max(now, clock_from or now)
        data = {PAUSED_UNTIL: start} if start > now else {}
        if row.deadline_seconds:
            return {"deadline": (start + row.deadline_seconds, data),
                    "reminder": (start + REMINDER_SHARE * row.deadline_seconds, data)}
        return {"reminder": (start + self.reminder_hours * 3600, data)}

    async def fire(self, timer: Timer) -> None:
        row = await self.store.get_game(timer.game_id)
        if row is None or row.status != "active":
            await self.store.drop_timers(timer.game_id)
            return
        if timer.kind in ("deadline", "reminder"):
            current = (await self.store.timers_of(row.id)).get(timer.kind)
            if current is None or current.due_at > self.clock():
                return   # moved since it was read (time away, below)
            if await self.retime(row.id) is not None:
                return   # someone it waits for is away: the clock was found running; it stands still now
        if timer.kind.startswith(COMPUTER_TIMER):
            await self._computer_due(row, timer.kind[len(COMPUTER_TIMER):])
        elif timer.kind == "deadline":
            await self._expire(row)
        elif timer.kind == "reminder":
            await self._remind(row, timer.claimed_by)
        else:
            log.warning("unknown timer %r for game %s", timer.kind, row.id)
            await self.store.set_timer(row.id, row.version, timer.kind, None, [], self.clock())

    async def _expire(self, row: GameRow) -> None:
        game = self.game_of(row)
        state = self.state_of(row)
        late = game.awaited(state)
        if any(computers.is_computer(p) for p in late):
            # A computer is never late (it was only kept from moving, by a stopped bot): it
            # moves now, and the deadline looks again in a while.
            now = self.clock()
            try:
                await self.store.set_timer(row.id, row.version, "deadline", now + 300, [], now)
            except Conflict:
                return
            for player in late:
                if computers.is_computer(player):
                    await self._computer_due(row, player)
            return
        new = game.expire(state)
        prefix = f"⏰ The deadline passed; {texts.name_list(list(late), row.names)} did not act in time."
        try:
            await self.commit_change(row, game, state, new, actor=None, kind="expire",
                                     detail=",".join(late), prefix=prefix)
        except Conflict:
            pass  # a move arrived first; it set new timers

    async def _remind(self, row: GameRow, claim: str | None = None) -> None:
        """(`claim`: the claimant of the timer that fired; if another process has taken it
        over meanwhile, the reminders are not sent twice)"""
        game = self.game_of(row)
        state = self.state_of(row)
        names = row.names
        now = self.clock()
        title = texts.game_label(game.title, row.id)
        thread = row.thread_id or row.channel_id
        deadline = (await self.store.timers_of(row.id)).get("deadline")
        when = (f" The deadline is {texts.timestamp(deadline.due_at)}." if deadline else "")
        posts = await self.store.tagged_notices(row.id)
        notices = []
        for player in game.awaited(state):
            if computers.is_computer(player):
                continue   # (a computer is never reminded: it moves by its own timer)
            prompt = game.prompt(state, player)
            private = prompt is not None and prompt.kind != "public"
            if player in row.dms_closed:
                notices.append(Notice("channel", thread, {
                    "content": f"⏰ {texts.mention(player)}, reminder: **{title}** is waiting for you."
                               + (" Press **Open my private controls**." if private else "") + when,
                    "controls": [["mine", row.id, "Open my private controls"]] if private else [],
                    "mentions": [player]}))
            elif private:
                notices += strip(posts.get(f"dm:{player}"), REPLACED)   # the reminder brings fresh ones
                notices.append(self.private_notice(
                    row, game, state, player, names,
                    reminder=f"⏰ Reminder: **{title}** is waiting for you.{when}"))
            else:
                where = f" in <#{row.thread_id}>" if row.thread_id else ""
                notices.append(Notice("user", int(player), {
                    "content": f"⏰ Reminder: **{title}**{where} is waiting for your move.{when}",
                    "fallback": {"content": f"⏰ {texts.mention(player)}, reminder: this game is "
                                            f"waiting for your move.{when}", "mentions": [player]},
                }))
        next_due = None if row.deadline_seconds else now + REPEAT_REMINDER
        try:
            await self.store.set_timer(row.id, row.version, "reminder", next_due, notices, now,
                                       claim=claim)
        except Conflict:
            return
        self.on_commit()
