"""Daily puzzles: `/daily game:pack-solitaire` and `/daily game:byop1` deal everyone in a server
the same puzzle for the day (the UTC day), once each.

The deal's seed is HMAC-SHA256 of the day, the server and the game under a random key the bot
makes once and keeps in its database (`Store.daily_secret`): nobody can compute a deal in
advance, even from this source, and a backup keeps the key (restored days deal the same).

No spoilers: a daily game is played in a private thread of the channel (only the player, and
moderators with Manage Threads, see it; the player cannot invite others). The channel is only
told that someone has played; the day's table (scores or slides, and times) is shown, privately,
to players who have finished the puzzle; the shareable one-line summary holds the result, never
the layout. Another player's daily board cannot be looked at with `/board` either.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import logging
from dataclasses import replace
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

import engine

from . import texts
from .errors import UserError
from .flow.tournament_rounds import check_may_see as tournament_may_see, check_may_share as tournament_may_share
from .storage import GameRow, Notice
from .ui.byop1 import clock

log = logging.getLogger(__name__)

DAILY_GAMES = ("pack-solitaire", "byop1")
GAME_CHOICES = [app_commands.Choice(name=engine.get_game(name).title, value=name)
                for name in DAILY_GAMES]
SHOW_CHOICES = [app_commands.Choice(name="play it (or go back to my game)", value="play"),
                app_commands.Choice(name="the day's table", value="table")]
SUMMARY_PREFIX = "piecepack-bot daily"


# ---- the deal and the day: pure functions ---------------------------------------------------------


def utc_day(at: float) -> str:
    """The UTC date of the time `at` (seconds since the epoch), as 2026-11-25: a daily puzzle
    changes at midnight UTC, the same moment for every server."""
    return datetime.datetime.fromtimestamp(at, datetime.timezone.utc).date().isoformat()


def daily_seed(secret: str, day: str, guild_id: int, game: str) -> int:
    """The seed of a server's deal of the day: HMAC-SHA256 keyed by the bot's secret, so the
    same (day, server, game) always gives the same deal and nothing else can predict it."""
    message = f"daily|{day}|{int(guild_id)}|{game}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1   # 63 bits, as the games' other seeds


def result_of(row: GameRow, started_at: float) -> dict | None:
    """What a finished daily game came to: {score, slides, status, seconds}; None while it
    runs. (A daily cancelled by a moderator counts as played, without a result.)"""
    if row.status not in ("finished", "cancelled"):
        return None
    out: dict = {"status": "aborted" if row.status == "cancelled" else "unfinished",
                 "seconds": max(0.0, row.updated_at - started_at)}
    if row.status == "cancelled" or row.state is None:
        return out
    game = engine.get_game(row.game)
    state = game.from_json(row.state)
    player = row.player_ids[0]
    if row.game == "pack-solitaire":
        if "score" in row.extras:
            out.update(status="scored", score=row.extras["score"])
        else:
            out["status"] = "resigned"
    else:
        history = game.view(state, None)["history"]
        mine = history[-1]["results"].get(player) if history else None
        if mine:
            out.update(status=mine["status"], slides=mine["slides"])
        if player in state["left"]:
            out["status"] = "resigned"
    return out


def result_words(game_name: str, result: dict, best: int | None) -> str:
    """'62/76 in 7 min 03 s', 'solved in 84 slides, 6 min 10 s': a result without the layout."""
    time = clock(result["seconds"])
    status = result["status"]
    if game_name == "pack-solitaire" and status == "scored":
        return f"{result['score']}/{best} in {time}" if best is not None else f"{result['score']} in {time}"
    if game_name == "byop1" and status == "correct":
        return f"solved in {texts.plural(result['slides'], 'slide')}, {time}"
    if status == "fumble":
        return f"fumble after {texts.plural(result['slides'], 'slide')}, {time}"
    return {"aborted": "aborted", "resigned": f"resigned after {time}"}.get(status, f"not solved, {time}")


def summary_line(game_name: str, day: str, result: dict, best: int | None) -> str:
    """The shareable one-line summary: the game, the day and the result, never the solution."""
    title = engine.get_game(game_name).title
    return f"{SUMMARY_PREFIX} {title} {day}: {result_words(game_name, result, best)}"


def rank_key(game_name: str, result: dict):
    """Best first: Pack Solitaire by score, BYOP1 by slides of a solved board; then time."""
    if game_name == "pack-solitaire":
        return (result["status"] != "scored", -result.get("score", 0), result["seconds"])
    return (result["status"] != "correct", result.get("slides", 0), result["seconds"])


def best_known(rows: list[GameRow]) -> int | None:
    """The deal's best score, from whichever of the day's games has it (one deal, one best)."""
    return next((r.extras["best"] for r in rows if "best" in r.extras), None)


# ---- the cog ------------------------------------------------------------------------------------


class Daily(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        bot.flow.end_hooks.append(self.end_notices)

    @property
    def flow(self):
        return self.bot.flow

    @app_commands.command(name="daily", description="Today's puzzle: the same deal for everyone in this server, once each")
    @app_commands.describe(game="Which puzzle", show="Play (default), or see the day's table once you have played")
    @app_commands.choices(game=GAME_CHOICES, show=SHOW_CHOICES)
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction, game: str, show: Optional[str] = None):
        controller = self.bot.controller
        async with controller.answering(interaction):
            if game not in DAILY_GAMES:
                raise UserError("The daily puzzles are Pack Solitaire and BYOP1: choose one from the list.")
            if interaction.guild_id is None:
                raise UserError("Use `/daily` in a text channel of a server: each server has its own puzzle.")
            day = utc_day(self.bot.now())
            title = engine.get_game(game).title
            plays = await self.bot.store.daily_plays(interaction.guild_id, day, game)
            mine = next(((at, r) for at, r in plays if r.seat_of(interaction.user.id)), None)
            if mine is not None and result_of(mine[1], mine[0]) is None:
                row = mine[1]
                where = f"<#{row.thread_id}>" if row.thread_id else f"game #{row.id}"
                if row.thread_id:   # (one who left a private thread cannot go back by themselves)
                    try:
                        await self.bot.http.add_user_to_thread(row.thread_id, interaction.user.id)
                    except discord.HTTPException as exc:
                        log.info("could not add user %s back to daily game %s: %s",
                                 interaction.user.id, row.id, exc)
                raise UserError(f"Your daily {title} of {day} is waiting for you in {where} "
                                "(your private thread). The table opens once you have finished it.")
            if mine is not None or show == "table":
                await controller.say(interaction, self.table_text(game, day, plays, interaction.user.id))
                return
            await self.start_daily(interaction, game, day, plays)

    async def start_daily(self, interaction: discord.Interaction, game: str, day: str,
                          plays: list[tuple[float, GameRow]]) -> None:
        if getattr(interaction.channel, "type", None) not in (discord.ChannelType.text, None):
            raise UserError("Use `/daily` in a text channel: your puzzle gets a private thread there.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        user = interaction.user
        store = self.bot.store
        row = await self.flow.open_lobby(
            game_name=game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host_id=user.id, host_name=user.display_name, deadline="none", opponent_id=None,
            options={})
        if not await store.add_daily_play(interaction.guild_id, day, game, user.id, row.id, self.bot.now()):
            # a second /daily at the same moment: that one plays
            await self.flow.cancel(row.id, user.id, False)
            raise UserError(f"You are playing today's daily {engine.get_game(game).title} already.")
        try:
            # (marked: its result offers no rematch, see GameFlow.rematch_controls)
            await store.merge_extras(row.id, {"daily": day}, now=self.bot.now())
            await self.share_background(row, [r for _, r in plays])
            secret = await store.daily_secret()
            row = await self.flow.start(await self.flow.lobby(row.id), self.private_thread,
                                        seed=daily_seed(secret, day, interaction.guild_id, game))
        except BaseException:
            await store.drop_daily_play(row.id)
            if (await store.get_game(row.id)).status == "lobby":
                await self.flow.cancel(row.id, user.id, False)
            raise
        await interaction.followup.send(
            f"Your daily **{engine.get_game(game).title}** of {day} (the UTC day) is in <#{row.thread_id}>, "
            "a private thread: only you (and the server's moderators) see it. You play it once; "
            "when you finish, the channel is only told that you played, and `/daily` shows you "
            "the day's table and a summary line to share.", ephemeral=True)

    async def share_background(self, row: GameRow, others: list[GameRow]) -> None:
        """Every game of the day has the same deal: its best score is worked out once. A new
        game takes it from one that knows it, or waits on the solver already at work."""
        known = {k: r.extras[k] for r in others for k in ("best", "best_layout") if k in r.extras}
        if "best" in known:
            await self.bot.store.merge_extras(row.id, known, now=self.bot.now())
            return
        job = next((self.flow.jobs[r.id] for r in others if r.id in self.flow.jobs), None)
        if job is not None:
            self.flow.jobs[row.id] = job   # (launch_background then uses it, not a second solver)

    async def private_thread(self, row: GameRow, name: str) -> int:
        """The daily's thread: private, the player added, nobody else invitable. Never the
        channel itself (the board would spoil the puzzle): no thread, no game."""
        http = self.bot.http
        try:
            data = await http.start_thread_without_message(
                row.channel_id, name=name, auto_archive_duration=1440,
                type=discord.ChannelType.private_thread.value, invitable=False)
            thread_id = int(data["id"])
        except (discord.HTTPException, KeyError, TypeError, ValueError) as exc:
            log.warning("could not open a private thread for daily game %s: %s", row.id, exc)
            raise UserError("I could not open a private thread for your puzzle in this channel (I "
                            "need the **Create Private Threads** permission here). Nothing was "
                            "played: try another channel, or ask a moderator.") from None
        try:
            await http.add_user_to_thread(thread_id, row.host_id)
        except discord.HTTPException as exc:   # the first post mentions them, which adds them too
            log.warning("could not add the player of daily game %s to its thread: %s", row.id, exc)
        return thread_id

    def table_text(self, game: str, day: str, plays: list[tuple[float, GameRow]], viewer: int) -> str:
        title = engine.get_game(game).title
        done = [(r, result_of(r, at)) for at, r in plays]
        finished = [(r, res) for r, res in done if res is not None]
        playing = [r for r, res in done if res is None]
        if not any(r.seat_of(viewer) for r, _ in finished):
            return (f"The table of the daily {title} of {day} opens once you have played it: "
                    f"`/daily game:{game}`. {texts.plural(len(finished), 'player')} "
                    f"{texts.verb(len(finished), 'has', 'have')} finished it so far.")
        best = best_known([r for r, _ in done])
        head = f"**Daily {title}, {day}** (UTC day), in this server"
        if game == "pack-solitaire":
            head += f": best possible score **{best}**." if best is not None else " (best possible score: still being worked out)."
        lines = [head]
        finished.sort(key=lambda item: rank_key(game, item[1]))
        for place, (r, res) in enumerate(finished, 1):
            name = texts.display(r.seats[0].name)
            me = " ← you" if r.seat_of(viewer) else ""
            lines.append(f"{place}. **{name}**: {result_words(game, res, best)}{me}")
        if playing:
            lines.append(f"Still playing: {texts.name_list([r.player_ids[0] for r in playing], {r.player_ids[0]: r.seats[0].name for r in playing})}.")
        own = next(res for r, res in finished if r.seat_of(viewer))
        lines.append(f"Your summary to share (no spoilers): `{summary_line(game, day, own, best)}`")
        return texts.clip("\n".join(lines))

    async def end_notices(self, row: GameRow, game, state, extras) -> list[Notice]:
        """With a daily game's end: the player's summary in its private thread, and in the
        channel only that they have played (the result would spoil it for the others)."""
        daily = await self.bot.store.daily_of_game(row.id)
        if daily is None:
            return []
        now = self.bot.now()
        finished_row = replace(row, status="finished", state=game.to_json(state), updated_at=now,
                               extras=dict(extras))
        result = result_of(finished_row, daily["started_at"])
        plays = await self.bot.store.daily_plays(row.guild_id, daily["day"], daily["game"])
        others_done = sum(1 for at, r in plays if r.id != row.id and result_of(r, at) is not None)
        best = extras.get("best", best_known([r for _, r in plays]))
        title = game.title
        name = texts.display(row.seats[0].name)
        summary = summary_line(daily["game"], daily["day"], result, best)
        return [
            Notice("channel", row.thread_id or row.channel_id, {
                "content": f"🗓️ Your summary to share (no spoilers): `{summary}`\n"
                           f"`/daily game:{daily['game']}` shows you the day's table."}),
            Notice("channel", row.channel_id, {
                "content": f"🗓️ **{name}** has played the daily {title} of {daily['day']} "
                           f"({others_done + 1} so far in this server). Play it with "
                           f"`/daily game:{daily['game']}`; the table opens once you have."}),
        ]


async def check_may_see(store, row: GameRow, user_id: int) -> None:
    """A daily game is its player's own: nobody else may look at its board (a spoiler)."""
    await tournament_may_see(store, row, user_id)   # (so is a duplicate tournament's deal)
    if not row.seat_of(user_id) and await store.daily_of_game(row.id) is not None:
        raise UserError(f"Game #{row.id} is someone's daily puzzle: only they see it.")


async def check_may_share(store, row: GameRow, now: float) -> None:
    """Nor may its player post its moves for everyone while others can still play that deal."""
    await tournament_may_share(store, row)   # (nor a duplicate tournament's, its round open)
    daily = await store.daily_of_game(row.id)
    if daily is not None and daily["day"] == utc_day(now):
        raise UserError(f"Game #{row.id} is today's daily puzzle: its record would give the deal away "
                        "to everyone who has not played it yet. Without `share` it is shown to you "
                        "alone; the summary line in its thread is the one to share. From midnight "
                        "UTC, when the puzzle changes, it may be shared.")
