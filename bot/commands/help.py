"""/rules and /help."""

from __future__ import annotations

import discord
from discord import app_commands

import engine

from .. import texts
from ..flow import UserError
from .common import EVERYWHERE, GAME_CHOICES


class Help:
    # ---- help --------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="The rules of a game, with our rulings")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def rules(self, interaction: discord.Interaction, game: str):
        async with self.answering(interaction):
            if game not in engine.game_names():
                raise UserError("Choose a game from the list.")
            g = engine.get_game(game)
            text = getattr(g, "rules", "") or f"No rules text for {g.title} yet."
            for part in texts.chunks(text):
                await self.say(interaction, part)

    @app_commands.command(name="help", description="How to play with this bot")
    @app_commands.allowed_contexts(**EVERYWHERE)
    async def help(self, interaction: discord.Interaction):
        await self.say(interaction, texts.HELP)
        await self.say(interaction, texts.HELP_TOURNAMENTS)
