"""The command tree: every command's options are checked against its published definition."""

from __future__ import annotations

import asyncio
import contextlib

import discord
from discord import app_commands

from .. import options as option_checks


class BadOptions(app_commands.AppCommandError):
    """Options Discord would not send for the command as published (see bot.options)."""


class Turns:
    """Interactions that act (commands, buttons, menus) take turns on the event loop, at most
    `size` at once; autocomplete takes none, so it is answered ahead of them.

    Each step of a handler (between two awaits) runs on some turn of the loop, and every ready
    step of every handler runs before the loop looks at its sockets again. Without turns a
    wave of 60 moves put 60 steps on each turn of the loop, and an autocomplete, a few turns
    long, waited for all of them (p95 323 ms with boards drawn at once, 30-56 ms with turns;
    benchmarks/bench_waves.py). A handler that holds its turn long (a rate limit's sleep) gives
    it up after `longest` seconds, and none waits for a turn more than `wait` seconds: Discord
    wants a first answer within 3 s."""

    def __init__(self, size: int = 3, *, longest: float = 1.0, wait: float = 1.0):
        self.size, self.longest, self.wait = size, longest, wait
        self._free = asyncio.Semaphore(size)

    @contextlib.asynccontextmanager
    async def turn(self):
        if not self._free.locked():
            await self._free.acquire()   # (at once: no extra turn of the loop, as wait_for takes)
        else:
            try:
                await asyncio.wait_for(self._free.acquire(), self.wait)
            except asyncio.TimeoutError:
                yield   # (the loop is that busy: on without a turn rather than past Discord's 3 s)
                return
        given_up = False

        def give_up() -> None:
            nonlocal given_up
            if not given_up:
                given_up = True
                self._free.release()

        timer = asyncio.get_running_loop().call_later(self.longest, give_up)
        try:
            yield
        finally:
            timer.cancel()
            give_up()


class Tree(app_commands.CommandTree):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.definitions: dict = {}   # command -> its dict as published
        self.turns = Turns()

    async def _call(self, interaction: discord.Interaction) -> None:
        # (discord.py's one entry for every command and autocomplete interaction)
        if interaction.type is discord.InteractionType.autocomplete:
            return await super()._call(interaction)
        async with self.turns.turn():
            return await super()._call(interaction)

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

