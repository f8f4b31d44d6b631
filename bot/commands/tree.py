"""The command tree: every command's options are checked against its published definition."""

from __future__ import annotations

import discord
from discord import app_commands

from .. import options as option_checks


class BadOptions(app_commands.AppCommandError):
    """Options Discord would not send for the command as published (see bot.options)."""


class Tree(app_commands.CommandTree):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.definitions: dict = {}   # command -> its dict as published

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every command's options (and autocomplete's) are checked here once, against the
        command's published definition, before discord.py reads them: a client of another
        release, an altered one or a proxy gets a plain refusal (see command_failed), never a
        command run on values of the wrong type or range."""
        data = interaction.data or {}
        if data.get("type", 1) != 1:
            return True
        name = str(data.get("name", ""))
        command = self.get_command(name) or (
            self.get_command(name, guild=interaction.guild) if interaction.guild else None)
        if command is None:
            return True   # discord.py says CommandNotFound
        problem = option_checks.problem(self.definition(command), data,
                                         autocomplete=interaction.type is discord.InteractionType.autocomplete)
        if problem:
            raise BadOptions(problem)
        return True

    def definition(self, command) -> dict:
        """The command as published (computed once per command)."""
        if command not in self.definitions:
            self.definitions[command] = command.to_dict(self)
        return self.definitions[command]

