"""/board and /games."""

from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from .. import texts
from ..daily import check_may_see
from ..flow import UserError
from .common import EVERYWHERE


class Looking:
    # ---- looking ---------------------------------------------------------------------------

    @app_commands.command(name="board", description="Show a game's board (and what only you may see)")
    @app_commands.describe(game="Game number (when not in its thread)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def board(self, interaction: discord.Interaction, game: Optional[int] = None):
        async with self.answering(interaction, game):
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.resolve(interaction, game, require_running=False, require_seat=False)
            await check_may_see(self.bot.store, row, interaction.user.id)
            if row.status in ("lobby", "cancelled") or row.state is None:
                raise UserError(f"Game #{row.id} has no board (it {'has not started' if row.status == 'lobby' else 'was cancelled'}).")
            g = self.flow.game_of(row)
            state = self.flow.state_of(row)
            names = row.names
            public = g.view(state, None)
            views = [public]
            lines = [f"**{texts.game_label(g.title, row.id)}**"
                     + f" in <#{row.thread_id or row.channel_id}>"]
            player = str(interaction.user.id)
            if g.outcome(state) is not None:
                lines.append(self.flow.result_line(g, state, names))
            else:
                waiting = list(g.awaited(state))
                lines.append(f"Waiting for {texts.name_list(waiting, names)}.")
            if row.seat_of(interaction.user.id):
                own = g.view(state, player)
                if {k: v for k, v in own.items() if k != "viewer"} != \
                        {k: v for k, v in public.items() if k != "viewer"}:
                    views.append(own)
                    lines.append("The second image is your own view: only you see it.")
                prompt = g.prompt(state, player)
                if prompt is not None:
                    text = texts.with_names(prompt.text, names)
                    lines.append(f"Your turn: {text}" if player in g.awaited(state) else text)
            files = await self.board_files(*views, names=names)
            await interaction.followup.send(texts.clip("\n".join(lines)), files=files, ephemeral=True)

    @app_commands.command(name="games", description="Your games in this server and which wait on you")
    @app_commands.describe(status="active (default): running games and lobbies; finished: with their results; all")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def games(self, interaction: discord.Interaction,
                    status: Optional[Literal["active", "finished", "all"]] = None):
        async with self.answering(interaction):
            status = status or "active"
            rows = [] if status == "finished" else \
                await self.bot.store.games_of_user(interaction.user.id, interaction.guild_id)
            finished = [] if status == "active" else await self.bot.get_cog("History").finished_lines(
                interaction.user.id, interaction.guild_id, share=0.5 if status == "all" else 1.0)
            if not rows and not finished:
                raise UserError("You have no finished games here yet." if status == "finished" else
                                "You have no open games here. Start one with `/play`.")
            lines = []
            for row in rows:
                g = self.flow.game_of(row)
                others = [n for p, n in row.names.items() if p != str(interaction.user.id)]
                label = f"**{texts.game_label(g.title, row.id)}**"
                if others:
                    label += " with " + ", ".join(texts.display(n) for n in others)
                if row.status == "lobby":
                    lines.append(f"{label}: lobby, {len(row.seats)}/{g.max_players} seated.")
                    continue
                state = self.flow.state_of(row)
                waiting = g.awaited(state)
                if str(interaction.user.id) in waiting:
                    where = "⏳ **waits on you**"
                else:
                    where = f"waiting for {texts.name_list(list(waiting), row.names)}"
                timers = await self.bot.store.timers_of(row.id)
                deadline = timers.get("deadline")
                if deadline:
                    where += f", deadline {texts.timestamp(deadline.due_at)}"
                paused = self.flow.paused_until(timers, self.bot.now())
                if paused:   # (time away, bot.away)
                    where += f", ⏸️ clock paused until {texts.timestamp(paused)}"
                link = f" <#{row.thread_id or row.channel_id}>"  # no thread: played in the channel
                lines.append(f"{label}: {where}.{link}")
            if finished and rows:
                lines.append("**Finished:**")
            lines += finished
            await self.say(interaction, texts.clip("\n".join(lines)))

