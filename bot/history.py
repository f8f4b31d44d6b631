"""After a game: finished games in `/games`, `/record` (the moves as a file) and `/replay`
(the board after any move, as a spectator saw it); rematches are the cog's part in bot.rematch.
"""

from __future__ import annotations

import asyncio
import io
from typing import Optional

import discord
from discord import app_commands
from discord.ext import commands

from . import records, texts
from .commands import EVERYWHERE
from .daily import check_may_see, check_may_share
from .errors import UserError
from .rematch import (  # noqa: F401  (the rest also imported from here)
    RematchAnswer, RematchButton, Rematches, history_cog, humans, request_link)
from .storage import GameRow

FINISHED_LIMIT = 1800   # characters of /games status:finished lines (a message holds 2000)


class History(Rematches, commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.locks: dict[int, asyncio.Lock] = {}

    @property
    def flow(self):
        return self.bot.flow

    @property
    def controller(self):
        return self.bot.controller

    # ---- finished games in /games ------------------------------------------------------------

    async def finished_lines(self, user_id: int, guild_id: int | None, *,
                             share: float = 1.0) -> list[str]:
        """The player's finished games here, newest first, each with its result, in `share`
        of a message (the rest is for running games)."""
        rows = [r for r in await self.bot.store.games_of_user(
            user_id, guild_id, statuses=("finished", "cancelled")) if r.state is not None]   # (not lobbies)
        lines: list[str] = []
        size = 0
        for n, row in enumerate(reversed(rows)):
            line = self.finished_line(row, str(user_id))
            if size + len(line) > FINISHED_LIMIT * share:
                lines.append(f"…and {len(rows) - n} older finished games (see `/record game:<number>`).")
                break
            lines.append(line)
            size += len(line) + 1
        return lines

    def finished_line(self, row: GameRow, me: str) -> str:
        game = self.flow.game_of(row)
        outcome = game.outcome(self.flow.state_of(row))
        others = [n for p, n in row.names.items() if p != me]
        label = f"**{texts.game_label(game.title, row.id)}**"
        if others:
            label += " with " + ", ".join(texts.display(n) for n in others)
        link = f" <#{row.thread_id or row.channel_id}>"
        if row.status == "cancelled" or outcome is None:
            return f"{label}: 🛑 aborted, without a result, ended {texts.timestamp(row.updated_at)}.{link}"
        solo = len(row.player_ids) == 1
        reason = texts.with_names(texts.defuse(outcome.reason), row.names)
        icon = ("🏁 " if solo else "🤝 " if outcome.draw else
                "🏆 " if me in outcome.winners else "")
        if texts.says_result(outcome.reason, solo):
            result = f"{icon}{reason}"
        elif outcome.draw:
            result = f"{icon}a draw ({reason})"
        elif me in outcome.winners:
            result = f"{icon}you won ({reason})"
        elif outcome.winners:
            result = f"won by {texts.name_list(list(outcome.winners), row.names)} ({reason})"
        else:
            result = f"no winner ({reason})"
        return f"{label}: {result}, ended {texts.timestamp(row.updated_at)}.{link}"

    # ---- /record and /replay -----------------------------------------------------------------

    async def viewable(self, interaction: discord.Interaction, game_id: int | None) -> GameRow:
        """A game the caller may look back at: any game of this server (in DMs, their own)
        that has started."""
        row = await self.flow.resolve(interaction.user.id, interaction.guild_id,
                                      interaction.channel_id, game_id)
        if row.status == "lobby":
            raise UserError(f"Game #{row.id} has not started yet: it has no moves.")
        if row.state is None:
            raise UserError(f"Game #{row.id} was cancelled before it started: it has no moves.")
        await check_may_see(self.bot.store, row, interaction.user.id)   # a daily's spoilers
        return row

    async def history_of(self, row: GameRow) -> records.History:
        events = await self.bot.store.events(row.id)
        # Replaying a long game through the engine takes a while: not on the event loop.
        hist = await asyncio.to_thread(records.history, row.game, events)
        if hist is None:
            raise UserError(f"Game #{row.id} has no moves.")
        return hist

    def result_text(self, row: GameRow, state) -> str | None:
        """The result in plain words (for a file), None while the game runs."""
        if row.status == "cancelled":
            return "aborted, without a result"
        game = self.flow.game_of(row)
        outcome = game.outcome(state)
        if outcome is None:
            return None
        names = row.names
        plain = [records._plain(names.get(p, p)) for p in outcome.winners]
        reason = records.plain_names(outcome.reason, names)
        if texts.says_result(outcome.reason, len(row.player_ids) == 1):
            return reason
        if outcome.draw:
            return f"a draw ({reason})"
        if plain:
            return f"{' and '.join(plain)} won ({reason})"
        return f"no winner ({reason})"

    @app_commands.command(name="record", description="A game's record as a file: every move, who made it and when")
    @app_commands.describe(game="Game number (when not in its thread)",
                           share="Post it in the channel for everyone (default: only you see it)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def record(self, interaction: discord.Interaction, game: Optional[int] = None,
                     share: Optional[bool] = False):
        async with self.controller.answering(interaction, game):
            row = await self.viewable(interaction, game)
            if share:
                await check_may_share(self.bot.store, row, self.bot.now())
            await interaction.response.defer(ephemeral=not share, thinking=True)
            hist = await self.history_of(row)
            g = self.flow.game_of(row)
            result = self.result_text(row, hist.final)
            where = getattr(interaction.guild, "name", "") or ""
            if row.game == "relativity":
                text = records.ppn_text(hist, game_id=row.id, names=row.names, result=result, where=where)
                filename = f"relativity-{row.id}.ppn"
            else:
                text = records.record_text(hist, title=g.title, game_id=row.id, names=row.names,
                                           result=result, where=where)
                filename = f"{row.game}-{row.id}.txt"
            hidden = sum(not e.shown for e in hist.entries)
            summary = (f"The record of **{texts.game_label(g.title, row.id)}**: "
                       + texts.plural(len(hist.entries), "move")
                       + (", finished." if row.status == "finished" else
                          ", aborted." if row.status == "cancelled" else " so far.")
                       + (f" {texts.plural(hidden, 'secret or private move')} "
                          f"{texts.verb(hidden, 'is', 'are')} not shown: "
                          f"{texts.verb(hidden, 'it was', 'they were')} not revealed"
                          + (" yet." if row.status == "active" else ".") if hidden else ""))
            await interaction.followup.send(
                summary, file=discord.File(io.BytesIO(text.encode()), filename=filename),
                ephemeral=not share)

    @app_commands.command(name="replay", description="The board of a game after a given move, as onlookers saw it")
    @app_commands.describe(move="Move number (0: the start; /record numbers the moves)",
                           game="Game number (when not in its thread)",
                           text="The position in words instead of an image (for screen readers)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def replay(self, interaction: discord.Interaction, move: int, game: Optional[int] = None,
                     text: Optional[bool] = False):
        async with self.controller.answering(interaction, game):
            row = await self.viewable(interaction, game)
            if move < 0:
                raise UserError("Moves are numbered from 0 (the start).")
            await interaction.response.defer(ephemeral=True, thinking=True)
            hist = await self.history_of(row)
            last = len(hist.entries)
            if move > last:
                raise UserError(f"Game #{row.id} has moves 0 to {last}"
                                + (" so far" if row.status == "active" else "")
                                + " (0 is the start).")
            upto = hist.event_of(move)
            state = await asyncio.to_thread(records.replay, row.game, hist.events, upto)
            g = self.flow.game_of(row)
            view = g.view(state, None)     # what an onlooker saw then: no secret, no own board
            names = row.names
            lines = [f"**{texts.game_label(g.title, row.id)}** after move {move} of {last}"
                     + ("" if row.status != "active" else " so far") + "."]
            if move:
                entry = hist.entries[move - 1]
                who = texts.display(names.get(entry.actor, entry.actor)) if entry.actor else "—"
                if records.visible_at(entry, upto):
                    lines.append(f"Move {move}: **{who}** {texts.defuse(records.action_text(entry))}.")
                else:
                    lines.append(f"Move {move}: **{who}** made a "
                                 f"{'secret choice' if entry.hidden == 'secret' else 'move on their own board'}"
                                 " (not public yet at that point).")
            if text:
                await self.controller.send_words(interaction, "\n".join(lines), view, names)
                return
            files = await self.controller.board_files(view, names=names)
            await interaction.followup.send(texts.clip("\n".join(lines)), files=files, ephemeral=True)

    async def any_game(self, interaction: discord.Interaction, current: str):
        """Suggestions for game: the caller's games here, newest first, finished ones too."""
        rows = await self.bot.store.games_of_user(interaction.user.id, interaction.guild_id,
                                                  statuses=("active", "finished", "cancelled"))
        choices = []
        for row in reversed(rows):
            if row.state is None:   # (a lobby cancelled before it started: no moves)
                continue
            g = self.flow.game_of(row)
            others = [n for p, n in row.names.items() if p != str(interaction.user.id)]
            label = f"#{row.id} {g.title}" + (f" with {', '.join(others)}" if others else "") \
                + {"finished": " (finished)", "cancelled": " (aborted)"}.get(row.status, "")
            if current and current.lower() not in label.lower():
                continue
            choices.append(app_commands.Choice(name=label[:100], value=row.id))
        return choices[:25]


History.record.autocomplete("game")(History.any_game)
History.replay.autocomplete("game")(History.any_game)
