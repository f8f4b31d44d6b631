"""Computer players: pure, seeded, deciding only from the view of their own seat.

    import computer, engine
    game = engine.get_game("relativity")
    player = computer.get_player("relativity", "strong", seed=12345)
    text = player.choose(game.view(state, seat))     # e.g. "d3#e3"
    state = game.apply(state, seat, text)

A player sees exactly what the bot would show that seat (`game.view(state, seat)`) and answers
with action text, the same text a person would type in `/move`; the bot applies it through the
same contract, so a computer can do nothing a person could not. `choose` is a pure function of
(game, level, seed, view): the same view gives the same answer, also after a restart.

How the bot should call it (not wired yet):
- Only ask a computer seat that the table is waiting for (`game.awaited(state)`, or
  `game.to_act(state)` outside commit phases); pass `game.view(state, seat)`. In a commit phase
  a computer that has chosen is still in `to_act` (it may change its mind): do not ask again.
- Run `choose` off the event loop (`loop.run_in_executor` with a process pool, or a thread:
  it is CPU-bound pure Python, so a process keeps the loop fully responsive). A decision takes
  well under 2 s (see benchmarks/bench_computer.py); views are JSON-ready, so they pickle.
- Seed: derive it from the game's stored seed and the seat (e.g. `seed * 31 + seat_index`), so
  a replay or a restart asks the same question and gets the same answer. The player mixes in
  the view's move number itself.
- Pause before applying, so the thread reads naturally; BYOP1 players say how long with
  `player.delay(action)` (their level's pace: the race is a race).
- Secret commits (Global Warming faces, Galaxies cards) go through the same commit path as a
  person's; nothing about the answer may show before the reveal.
- After `choose`, re-check that the state has not moved on (version check) before applying;
  if it has, ask again with the new view.

Draws: every player also has `answer_draw(view) -> (accept, reason)` and `offers_draw(view)`
(with `draw_reason(view)` to say why); by default it declines ("I would rather play on.") and
never offers. Relativity's players judge by a short search (see computer/relativity.py),
Galaxies' and Global Warming's by the expected end (computer/galaxies.py,
computer/global_warming_draws.py); only Relativity's offer draws.

Levels: `easy` plays legal, plausible moves; `strong` searches (see each game's module).
Each game plugs in with one module exposing `PLAYERS = {"easy": cls, "strong": cls}`; every
class takes `(seed)` and has `choose(view) -> str`. Games with hidden information also have
`determinise(view, rng) -> state`: an engine state whose view for the seat equals the given
view, the hidden part drawn at random consistently with it (tests check the round trip). The
engine's `Game.resample_hidden` does the same from a full state, which a player never has.
"""

from __future__ import annotations

from importlib import import_module

from .base import ComputerPlayer

LEVELS = ("easy", "strong")

# game name -> module with PLAYERS. Listed only once the game's players work.
_MODULES = {
    "relativity": "computer.relativity",
    "global-warming": "computer.global_warming",
    "galaxies": "computer.galaxies",
    "byop1": "computer.byop1",
}


def game_names() -> tuple[str, ...]:
    """The games that have computer players."""
    return tuple(_MODULES)


def get_player(game_name: str, level: str, seed: int = 0) -> ComputerPlayer:
    """A computer player for `game_name` at `level` ("easy" or "strong")."""
    if game_name not in _MODULES:
        raise KeyError(f"no computer player for {game_name!r}; available: {', '.join(_MODULES)}")
    if level not in LEVELS:
        raise KeyError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    return import_module(_MODULES[game_name]).PLAYERS[level](seed)


__all__ = ["ComputerPlayer", "LEVELS", "game_names", "get_player"]
