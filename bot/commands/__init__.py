"""Slash commands and the handlers behind every button: the bot's conversation with players.

Every handler answers within Discord's 3 seconds: it defers before anything slow (drawing a
board, opening a thread). User mistakes get a short ephemeral message and change nothing;
unexpected errors are logged with the game id and answered with an apology.

`Controller` (controller.py) is one cog made of a part per feature: answering (answering.py),
/play and lobbies (lobby.py), moves (moves.py), private boards (private.py), /board and /games
(looking.py), /resign, /draw and /abort (ending.py), /rules and /help (help.py). `Tree`
(tree.py) checks every command's options first.
"""

from .common import (APOLOGY, COMPUTER_CHOICES, DEADLINE_CHOICES, EVERYWHERE, GAME_CHOICES,
                     UNKNOWN_CONTROLS, is_moderator)
from .controller import Controller
from .tree import BadOptions, Tree

__all__ = ["APOLOGY", "COMPUTER_CHOICES", "DEADLINE_CHOICES", "EVERYWHERE", "GAME_CHOICES",
           "UNKNOWN_CONTROLS", "BadOptions", "Controller", "Tree", "is_moderator"]
