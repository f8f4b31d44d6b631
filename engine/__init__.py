"""The rules of the piecepack games: pure, deterministic, no I/O.

    import engine
    game = engine.get_game("relativity")
    state = game.new_game(["alice", "bob"], seed=7)
"""

from __future__ import annotations

from importlib import import_module

from .core import (
    Continuation,
    FrozenDict,
    Game,
    GameError,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    Outcome,
    Prompt,
    Rng,
    freeze,
    thaw,
)

# name -> module that defines `GAME`. Games are listed here only once they are playable.
_MODULES = {
    "relativity": "engine.relativity",
    "global-warming": "engine.global_warming",
    "galaxies": "engine.galaxies",
    "byop1": "engine.byop1",
}

_loaded: dict[str, Game] = {}


def game_names() -> tuple[str, ...]:
    """The names of the playable games, in a stable order."""
    return tuple(_MODULES)


def get_game(name: str) -> Game:
    """The game called `name`; an unknown name raises KeyError listing the known ones."""
    if name not in _MODULES:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
    if name not in _loaded:
        _loaded[name] = import_module(_MODULES[name]).GAME
    return _loaded[name]


__all__ = [
    "Continuation", "FrozenDict", "Game", "GameError", "IllegalAction", "InvalidAction", "NotYourTurn",
    "Outcome", "Prompt", "Rng", "freeze", "thaw", "game_names", "get_game",
]
