"""The cog of every command and control: one class made of the parts beside this module."""

from __future__ import annotations

import asyncio

from discord.ext import commands

from .answering import Answering
from .ending import Ending
from .help import Help
from .lobby import Lobby
from .looking import Looking
from .moves import Moves
from .private import PrivateBoards
from .settings import PlayerSettingsCommand


# discord.py lists a cog's commands base class by base class, the last base first: the bases
# come in reverse so that the commands stay in their published order (and its hash, bot.app).
class Controller(PlayerSettingsCommand, Help, Ending, Looking, PrivateBoards, Moves, Lobby, Answering, commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self.lobby_locks: dict[int, asyncio.Lock] = {}

    @property
    def flow(self):
        return self.bot.flow


for _command in (Controller.move, Controller.board, Controller.resign, Controller.draw, Controller.abort):
    _command.autocomplete("game")(Controller.your_games)
