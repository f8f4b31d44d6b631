"""/board and /games; the Describe button (a position in words, privately)."""

from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands

from .. import texts
from ..daily import check_may_see
from ..flow import UserError
from .common import EVERYWHERE

MOVES_LISTED = 40      # legal moves spelled out in a description; more: /move lists them
DESCRIPTION_MESSAGES = 5


def legal_moves_line(game, state, player: str) -> str:
    """The player's own legal moves (the engine's list for that player only), when few."""
    if player not in game.to_act(state):
        return ""
    moves = [str(a) for a in game.legal_actions(state, player)]
    if not moves:
        return ""
    if len(moves) > MOVES_LISTED:
        return (f"You have {len(moves)} legal moves: type /move and the list narrows as you "
                "type.")
    return "Your legal moves, as you would type them after /move: " + ", ".join(moves) + "."


class Looking:
    # ---- looking ---------------------------------------------------------------------------

    @app_commands.command(name="board", description="Show a game's board (and what only you may see)")
    @app_commands.describe(game="Game number (when not in its thread)",
                           text="The whole position in words instead of images (for screen readers)")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def board(self, interaction: discord.Interaction, game: Optional[int] = None,
                    text: Optional[bool] = False):
        async with self.answering(interaction, game):
            await interaction.response.defer(ephemeral=True, thinking=True)
            row = await self.board_row(interaction, game)
            if text:
                await self.send_description(interaction, row)
                return
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

    async def board_row(self, interaction: discord.Interaction, game_id: int | None):
        """The game whose board the caller asks for, checked to have one they may see."""
        row = await self.resolve(interaction, game_id, require_running=False, require_seat=False)
        await check_may_see(self.bot.store, row, interaction.user.id)
        if row.status in ("lobby", "cancelled") or row.state is None:
            raise UserError(f"Game #{row.id} has no board (it {'has not started' if row.status == 'lobby' else 'was cancelled'}).")
        return row

    async def describe_pressed(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Describe button of a board post: the position now, in words, privately."""
        async with self.answering(interaction, game_id):
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.send_description(interaction, await self.board_row(interaction, game_id))

    async def send_description(self, interaction: discord.Interaction, row) -> None:
        """The position in words from the caller's own view (a seated player's hand and board;
        an onlooker's the spectator's), with their legal moves when few."""
        g = self.flow.game_of(row)
        state = self.flow.state_of(row)
        player = str(interaction.user.id)
        seated = bool(row.seat_of(interaction.user.id))
        view = g.view(state, player if seated else None)
        header = (f"{texts.game_label(g.title, row.id)}, the position now"
                  + ("" if seated else ", as onlookers see it") + " (only you see this message):")
        await self.send_words(interaction, header, view, row.names,
                              legal_moves_line(g, state, player) if seated else "")

    async def send_words(self, interaction: discord.Interaction, header: str, view: dict,
                         names: dict, tail: str = "") -> None:
        """A view in words (render.describe) as ephemeral messages of plain text, as many as it
        takes (a screen reader reads each as it comes; embeds are read less well)."""
        from render.describe import describe

        lines = "\n".join(line for line in (header, describe(view, names), tail) if line)
        messages = texts.pack_lines(lines.split("\n"))
        if len(messages) > DESCRIPTION_MESSAGES:   # (no game's position comes near this)
            messages = messages[:DESCRIPTION_MESSAGES]
            messages[-1] = texts.clip(messages[-1] + "\n(cut short here)")
        for message in messages:
            await interaction.followup.send(message, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())

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

