"""/settings: a player's own time zone, quiet hours, reminders (one per game or a daily
digest) and palette of their private views. They are the person's, for every server (a
Discord user is one person everywhere): kept per user, deleted by `/settings reset:true`."""

from __future__ import annotations

import datetime as dt
import functools
import re
import zoneinfo
from dataclasses import replace
from typing import Literal, Optional

import discord
from discord import app_commands

from .. import hours, texts
from ..flow import UserError
from ..storage.player_settings import PlayerSettings
from .common import EVERYWHERE

PALETTES = ("standard", "colour-safe")   # render.PALETTES (a test checks), without importing render
DEFAULT_DIGEST_HOUR = 8
HOUR = re.compile(r"(\d{1,2})(?::00)?")
QUIET = re.compile(r"(\d{1,2})(?::00)?\s*(?:-|–|to)\s*(\d{1,2})(?::00)?")
OFF = {"off", "none", "no"}


@functools.cache
def time_zones() -> dict[str, str]:
    """Every IANA time zone the machine knows (the `tzdata` package where the system has none),
    by its lower-case name."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def time_zone(text: str) -> str:
    name = time_zones().get(text.strip().lower().replace(" ", "_"))
    if name is None:
        raise UserError(f"I do not know the time zone {texts.excerpt(text)}. Start "
                        "typing your city and pick from the list: Europe/Berlin, America/New_York, "
                        "Asia/Tokyo, UTC... Nothing was changed.")
    return name


def hour_of(text: str, what: str) -> int:
    match = HOUR.fullmatch(text.strip())
    if not match or int(match[1]) > 23:
        raise UserError(f"{what} is a whole hour from 0 to 23, such as `8` or `08:00`. Nothing was changed.")
    return int(match[1])


def quiet_hours(text: str) -> tuple[int, int] | tuple[None, None]:
    if text.strip().lower() in OFF:
        return None, None
    match = QUIET.fullmatch(text.strip())
    if not match or int(match[1]) > 23 or int(match[2]) > 23:
        raise UserError("Quiet hours are two whole hours from 0 to 23, when they start and when they "
                        "end, such as `22-7` (10 pm to 7 am) or `off`. Nothing was changed.")
    if match[1] == match[2] or int(match[1]) == int(match[2]):
        raise UserError("Quiet hours must end at another hour than they start (`22-7`), or be "
                        "`off`. Nothing was changed.")
    return int(match[1]), int(match[2])


def changed(old: PlayerSettings, *, zone: str | None, quiet: str | None, reminders: str | None,
            digest_at: str | None, palette: str | None) -> PlayerSettings:
    """The settings with the options given applied; UserError (nothing changed) for bad ones."""
    new = old
    if zone is not None:
        new = replace(new, time_zone=time_zone(zone))
    if quiet is not None:
        start, end = quiet_hours(quiet)
        new = replace(new, quiet_start=start, quiet_end=end)
    if digest_at is not None:
        if reminders == "each game":
            raise UserError("`digest_at` is the time of the daily digest: choose `reminders:daily "
                            "digest` with it. Nothing was changed.")
        new = replace(new, digest_hour=hour_of(digest_at, "The digest's time"))
    elif reminders == "daily digest" and new.digest_hour is None:
        new = replace(new, digest_hour=DEFAULT_DIGEST_HOUR)
    if reminders == "each game":
        new = replace(new, digest_hour=None)
    if palette is not None:
        if palette not in PALETTES:
            raise UserError(f"Choose a palette from the list: {', '.join(PALETTES)}. Nothing was changed.")
        new = replace(new, palette=palette)
    if new.digest:   # (chosen again: Discord's refusal of the last one is history)
        new = replace(new, digest_refused_at=None)
    if new.digest and new.quiet and hours.in_quiet(new.quiet, new.digest_hour):
        raise UserError(f"Your digest at {new.digest_hour:02}:00 would fall in your quiet hours "
                        f"({new.quiet_start:02}:00 to {new.quiet_end:02}:00): choose another time "
                        "for one of them. Nothing was changed.")
    return new


def describe(s: PlayerSettings, now: float) -> str:
    local = dt.datetime.fromtimestamp(now, hours.zone(s))
    quiet = ("none" if s.quiet is None else
             f"{s.quiet_start:02}:00 to {s.quiet_end:02}:00: no reminder reaches you then; one "
             "that falls due waits until they end (deadlines do not move)")
    reminders = ("a reminder for each game that waits on you" if not s.digest else
                 f"one daily digest by DM at {s.digest_hour:02}:00, listing every game that waits on "
                 f"you, in every server, with its link and deadline (next: "
                 f"{texts.timestamp(hours.next_digest(s, now), 'f')}); no reminder per game")
    if not s.digest and s.digest_refused_at is not None:
        reminders += (f". Your daily digest was turned off {texts.timestamp(s.digest_refused_at)}: "
                      "Discord refused my direct message to you (your DMs are closed to me). Open "
                      "them and choose `reminders:daily digest` to have it again")
    return "\n".join([
        "**Your settings** (yours alone, the same in every server where you play with me):",
        f"- Time zone: {s.time_zone} (it is {local:%H:%M} there now)",
        f"- Quiet hours: {quiet}",
        f"- Reminders: {reminders}",
        f"- Palette of your own boards (DMs and boards only you see): {s.palette}",
        "Change one with `/settings` and its option; `/settings reset:true` deletes them all."])


class PlayerSettingsCommand:
    # ---- /settings -------------------------------------------------------------------------------

    async def cog_load(self) -> None:
        # the palettes the players chose, for the renderer to draw their private views in
        self.bot.renderer.palettes = {str(user): palette for user, palette
                                      in (await self.bot.store.palettes()).items()}

    @app_commands.command(name="settings", description="Your own time zone, quiet hours, reminders and palette")
    @app_commands.describe(
        time_zone="Your time zone, such as Europe/Berlin (start typing your city)",
        quiet="Hours without reminders, in your time zone: start-end, such as 22-7; or off",
        reminders="A reminder for each game, or one daily digest by DM",
        digest_at="The hour of your daily digest, in your time zone (0-23, such as 8)",
        palette="The colours of your own boards (DMs, boards only you see)",
        reset="Delete all your settings (the defaults apply again)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def settings(self, interaction: discord.Interaction, time_zone: Optional[str] = None,
                       quiet: Optional[str] = None,
                       reminders: Optional[Literal["each game", "daily digest"]] = None,
                       digest_at: Optional[str] = None,
                       palette: Optional[Literal["standard", "colour-safe"]] = None,
                       reset: Optional[bool] = False):
        async with self.answering(interaction):
            store = self.bot.store
            user = interaction.user.id
            now = self.bot.now()
            given = {"time_zone": time_zone, "quiet": quiet, "reminders": reminders,
                     "digest_at": digest_at, "palette": palette}
            if reset:
                if any(v is not None for v in given.values()):
                    raise UserError("`reset:true` deletes all your settings: use it alone. Nothing "
                                    "was changed.")
                deleted = await store.delete_player_settings(user)
                self.bot.renderer.palettes.pop(str(user), None)
                await self.say(interaction, ("Your settings are deleted. " if deleted else
                                             "You had no settings of your own. ")
                               + "The defaults apply: " + describe(PlayerSettings(user), now))
                return
            old = await store.player_settings(user) or PlayerSettings(user)
            if all(v is None for v in given.values()):
                await self.say(interaction, describe(old, now))
                return
            new = changed(old, zone=time_zone, quiet=quiet, reminders=reminders,
                          digest_at=digest_at, palette=palette)
            await store.save_player_settings(new, hours.next_digest(new, now), now)
            if new.palette == "standard":
                self.bot.renderer.palettes.pop(str(user), None)
            else:
                self.bot.renderer.palettes[str(user)] = new.palette
            await self.say(interaction, "Saved. " + describe(new, now))

    @settings.autocomplete("time_zone")
    async def time_zone_autocomplete(self, interaction: discord.Interaction, current: str):
        """The time zones whose name holds what was typed (25 at most, Discord's limit)."""
        typed = current.strip().lower().replace(" ", "_")
        names = sorted(name for key, name in time_zones().items() if typed in key)
        names.sort(key=lambda name: not name.lower().split("/")[-1].startswith(typed))
        return [app_commands.Choice(name=name, value=name) for name in names[:25]]
