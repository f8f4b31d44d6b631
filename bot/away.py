"""/away: time away from a server's games (issue 14 part 5).

`/away days:<n>` pauses the clock (deadline and reminders) of every game in the server that
waits for the player, until they are back; the games' threads are told until when. A game that
comes to wait for them meanwhile starts its clock when they are back. `/away days:0` ends the
absence early: each paused deadline is then pushed back by exactly the time its clock stood
still. When the absence runs out, the deadlines resume by themselves (the timers were moved,
see GameFlow.retime). `/away` alone says where the player stands.

Each player has ALLOWANCE_DAYS of time away per calendar month (UTC) in each server: an
absence counts in the month it starts, for as long as it lasts (booked while it runs, the time
actually spent away once the player is back).

Time away is counted to the second but told to the nearest hour (half an hour rounds up): a
player back after a second has "14 days" left, not "13 days and 23 hours". What is told is
what may be taken: a request fits when it is within the time left so rounded.
"""

from __future__ import annotations

import datetime as dt
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from . import texts
from .errors import UserError

ALLOWANCE_DAYS = 14   # of time away per player, server and calendar month (UTC)
DAY = 86400.0


def month_bounds(now: float) -> tuple[float, float]:
    """The start of the calendar month (UTC) holding `now`, and of the next one."""
    day = dt.datetime.fromtimestamp(now, dt.timezone.utc)
    start = day.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    following = (start + dt.timedelta(days=32)).replace(day=1)
    return start.timestamp(), following.timestamp()


def whole_hours(seconds: float) -> int:
    """Time away as it is told: to the nearest hour (see the module's note)."""
    return int((max(0.0, seconds) + 1800) // 3600)


def span(seconds: float) -> str:
    """A stretch of time away in days and hours, to the nearest hour ("3 days", "13 days and
    5 hours", "14 days" for 14 days less a second)."""
    hours = whole_hours(seconds)
    if not hours:
        return "less than an hour" if seconds >= 60 else "no time"
    days, hours = divmod(hours, 24)
    parts = [texts.plural(days, "day")] if days else []
    if hours:
        parts.append(texts.plural(hours, "hour"))
    return " and ".join(parts)


class Away(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @property
    def store(self):
        return self.bot.store

    async def allowance_left(self, guild_id: int, user_id: int, now: float) -> float:
        """Seconds of time away the player may still take this month (a running absence
        counts only up to now: it ends if they go away again)."""
        start, _ = month_bounds(now)
        used = sum(min(ends, now) - starts for starts, ends in
                   await self.store.absences_since(guild_id, user_id, start))
        return ALLOWANCE_DAYS * DAY - used

    @app_commands.command(name="away", description="Pause the deadlines of your games here while you are away")
    @app_commands.describe(days=f"How many days you are away (1-{ALLOWANCE_DAYS}); 0 when you are back early")
    @app_commands.guild_only()
    async def away(self, interaction: discord.Interaction,
                   days: Optional[app_commands.Range[int, 0, ALLOWANCE_DAYS]] = None):
        controller = self.bot.controller
        async with controller.answering(interaction):
            if interaction.guild_id is None:
                raise UserError("Use `/away` in a server: time away pauses the games of that server.")
            guild_id, user_id = interaction.guild_id, interaction.user.id
            now = self.bot.now()
            absence = (await self.store.absences_now(guild_id, [user_id], now)).get(user_id)
            away = absence[1] if absence else None   # when the running absence ends
            left = await self.allowance_left(guild_id, user_id, now)
            _, renews = month_bounds(now)
            booked = left - (away - now if away else 0)   # once the running absence is over
            allowance = (f"Time away left this month: {span(booked)} (of {ALLOWANCE_DAYS} days a "
                         f"calendar month; more from {texts.timestamp(renews, 'D')}).")
            if days is None:
                where = (f"You are away until {texts.timestamp(away, 'f')}." if away else
                         "You are not away.")
                await controller.say(interaction, f"{where} `/away days:<n>` pauses your games here "
                                                  f"for n days; `/away days:0` ends it early. {allowance}")
                return
            if not 0 <= days <= ALLOWANCE_DAYS:
                raise UserError(f"You can be away for 1 to {ALLOWANCE_DAYS} days at a time "
                                "(0 ends your time away).")
            if days == 0:
                if away is None:
                    raise UserError("You are not away. (`/away days:<n>` pauses your games here.)")
                await interaction.response.defer(ephemeral=True, thinking=True)
                await self.store.set_absence(guild_id, user_id, now, None)
                moved = await self.bot.flow.retime_games_of(guild_id, user_id, back=True)
                lines = ["Welcome back: the clocks of your games here run again."]
                lines += self.game_lines(moved)
                lines.append(f"Time away left this month: {span(left)}.")
                await controller.say(interaction, "\n".join(lines))
                return
            if days * 24 > whole_hours(left):   # (what was told is what may be taken)
                raise UserError(f"That is more time away than you have left. Time away left this "
                                f"month: {span(left)} (of {ALLOWANCE_DAYS} days a calendar month; "
                                f"more from {texts.timestamp(renews, 'D')})."
                                + (" A new `/away` replaces the absence you are on, counting the "
                                   "time spent so far." if away else ""))
            await interaction.response.defer(ephemeral=True, thinking=True)
            ends = now + days * DAY
            await self.store.set_absence(guild_id, user_id, now, ends)
            moved = await self.bot.flow.retime_games_of(guild_id, user_id)
            lines = [f"🌴 You are away until {texts.timestamp(ends, 'f')} ({texts.timestamp(ends)})."]
            if moved:
                lines.append("Paused, and their threads told until when:")
                lines += self.game_lines(moved)
            elif not away:
                lines.append("None of your games here waits for you now.")
            lines.append("A game that comes to wait for you meanwhile starts its clock when you are "
                         "back. Back early? `/away days:0`.")
            lines.append(f"Time away left this month: {span(left - days * DAY)}.")
            await controller.say(interaction, "\n".join(lines))

    def game_lines(self, moved) -> list[str]:
        lines = []
        for row, deadline in moved:
            title = texts.game_label(self.bot.flow.game_of(row).title, row.id)
            where = f" in <#{row.thread_id or row.channel_id}>"
            when = f": deadline {texts.timestamp(deadline, 'f')}" if deadline else ""
            lines.append(f"- **{title}**{where}{when}")
        return lines
