"""The game flow's clock: a turn's deadline and reminder timers, and what happens when a timer
fires (the deadline passes, a reminder is sent, a computer's turn comes)."""

from __future__ import annotations

from .. import computers, hours, texts
from ..storage import SOLVE_TIMER, Conflict, GameRow, Notice, Timer
from .common import COMPUTER_TIMER, PAUSED_UNTIL, REMINDER_SHARE, REPEAT_REMINDER, REPLACED, log, strip

# + a player id: that player's reminder, postponed to the end of their quiet hours (/settings)
LATER = "reminder:"


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

    async def fire(self, timer: Timer) -> bool:
        """Do what the timer says. True: work that goes on (a computer thinking, a solver)
        holds its claim now, and gives it up when done; else the caller does."""
        row = await self.store.get_game(timer.game_id)
        if row is None or row.status != "active":
            await self.store.drop_timers(timer.game_id)
            return False
        if timer.kind == SOLVE_TIMER:
            return await self.solve_due(row, timer.claimed_by)
        if timer.kind in ("deadline", "reminder") or timer.kind.startswith(LATER):
            timers = await self.store.timers_of(row.id)
            current = timers.get(timer.kind)
            if current is None or current.due_at > self.clock():
                return False   # moved since it was read (time away, below)
            if timer.kind.startswith(LATER):
                if self.paused_until(timers, self.clock()):   # the clock stands still: no reminders
                    try:
                        await self.store.retime(row.id, row.version, {timer.kind: (None, {})}, [],
                                                self.clock())
                    except Conflict:
                        pass   # a move came first: it set new timers
                else:
                    await self._remind(row, only=timer.kind[len(LATER):], claim=timer.claimed_by)
                return False
            if await self.retime(row.id) is not None:
                return False   # someone it waits for is away: the clock was found running; it stands still now
        if timer.kind.startswith(COMPUTER_TIMER):
            return await self._computer_due(row, timer.kind[len(COMPUTER_TIMER):], timer.claimed_by)
        elif timer.kind == "deadline":
            await self._expire(row)
        elif timer.kind == "reminder":
            await self._remind(row, claim=timer.claimed_by)
        else:
            log.warning("unknown timer %r for game %s", timer.kind, row.id)
            await self.store.set_timer(row.id, row.version, timer.kind, None, [], self.clock())
        return False

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

    async def _remind(self, row: GameRow, only: str | None = None,
                      claim: str | None = None) -> None:
        """Remind the players the game waits for (`only`: that one, whose quiet hours are
        over). A player in their quiet hours is reminded when they end; a player who takes
        the daily digest is not reminded here (the digest lists the game). `claim`: the
        claimant of the timer that fired; if another process has taken it over meanwhile,
        the reminders are not sent twice."""
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
        # (a computer is never reminded: it moves by its own timer)
        players = [p for p in game.awaited(state) if not computers.is_computer(p)
                   and (only is None or p == only)]
        own = await self.store.players_settings(int(p) for p in players)
        later: dict[str, tuple[float | None, dict]] = {}
        for player in players:
            if own.get(int(player)) and own[int(player)].digest and player not in row.dms_closed:
                continue   # (the digest comes by DM: a player known to refuse DMs is told in the thread)
            quiet_ends = hours.quiet_ends(own.get(int(player)), now)
            if quiet_ends is not None:
                later[LATER + player] = (quiet_ends, {})
                continue
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
        if only is None:
            later["reminder"] = (None if row.deadline_seconds else now + REPEAT_REMINDER, {})
        else:
            later.setdefault(LATER + only, (None, {}))   # (sent: dropped)
        try:
            fired = "reminder" if only is None else LATER + only
            await self.store.retime(row.id, row.version, later, notices, now,
                                    claim=(fired, claim) if claim else None)
        except Conflict:
            return
        self.on_commit()

    # ---- the daily digest (/settings) ----------------------------------------------------------

    async def send_digests(self) -> None:
        """Send the digests that are due: each lists every game, in every server, that waits
        on the player (only if there is one), and sets their next one."""
        now = self.clock()
        for mine, due in await self.store.due_digests(now):
            try:
                notices = await self.digest_notices(mine.user_id, now)
            except Exception:   # (one player's digest must not hold up the others')
                log.exception("could not make the digest of a player")
                notices = []
            if await self.store.digest_sent(mine.user_id, due, hours.next_digest(mine, now),
                                            notices, now):
                self.on_commit()

    async def digest_notices(self, user_id: int, now: float) -> list[Notice]:
        """The digest DM: the games waiting on the player, each with its link and deadline;
        only what anyone may see in the game's thread (who is awaited), never a secret."""
        player = str(user_id)
        lines = []
        for row in await self.store.games_of_user(user_id, statuses=("active",)):
            game = self.game_of(row)
            if player not in game.awaited(self.state_of(row)):
                continue
            timers = await self.store.timers_of(row.id)
            line = f"- **{texts.game_label(game.title, row.id)}**"
            others = [n for p, n in row.names.items() if p != player]
            if others:
                line += " with " + ", ".join(texts.display(n) for n in others)
            line += f": https://discord.com/channels/{row.guild_id}/{row.thread_id or row.channel_id}"
            paused = self.paused_until(timers, now)
            if paused:
                line += f" (clock paused until {texts.timestamp(paused)})"
            elif "deadline" in timers:
                line += f" (deadline {texts.timestamp(timers['deadline'].due_at)})"
            lines.append(line)
        if not lines:
            return []
        head = f"⏰ Your daily digest: {texts.plural(len(lines), 'game')} waiting for you."
        # ("digest": a refusal turns the digest off, see Delivery.dm_refused)
        return [Notice("user", user_id, {"content": digest_text(head, lines), "digest": True})]


def digest_text(head: str, lines: list[str]) -> str:
    """The head and as many games as fit in one message, then how many more: the first lines
    are the ones kept (texts.clip keeps a log's last ones)."""
    kept: list[str] = []
    for i, line in enumerate(lines):
        more = f"…and {texts.plural(len(lines) - i, 'more game')} waiting for you."
        if len("\n".join([head, *kept, line, more])) > texts.MESSAGE_LIMIT:
            return "\n".join([head, *kept, more])
        kept.append(line)
    return "\n".join([head, *kept])
