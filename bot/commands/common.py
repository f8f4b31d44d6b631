"""What the commands share: their answers to odd input, the choices of their options, who moderates."""

from __future__ import annotations

import discord
from discord import app_commands

import engine

from .. import computers as bot_computers
from ..settings import DEADLINES

APOLOGY = "Sorry, something went wrong on my side; nothing was changed. Please try again later."
UNKNOWN_CONTROLS = ("Those controls are not in use any more (or I cannot read them). Use the "
                    "newest ones in the game's thread, or `/board` and `/move`.")


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=engine.get_game(name).title, value=name)
            for name in engine.game_names()]


GAME_CHOICES = _game_choices()
DEADLINE_CHOICES = [
    app_commands.Choice(name="no deadline", value="none"),
    app_commands.Choice(name="1 day per move", value="1d"),
    app_commands.Choice(name="3 days per move", value="3d"),
    app_commands.Choice(name="7 days per move", value="7d"),
]
assert {c.value for c in DEADLINE_CHOICES} == set(DEADLINES)
COMPUTER_CHOICES = [app_commands.Choice(name=f"{level} computer players", value=level)
                    for level in bot_computers.LEVELS]

EVERYWHERE = dict(guilds=True, dms=True, private_channels=False)


def is_moderator(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_messages or perms.administrator))

