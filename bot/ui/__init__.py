"""Per-game UI adapters: which buttons go under a game's board, and how a player's choices are
offered. Everything here is plain data ("control specs"); bot.components turns specs into
Discord components. A game without an adapter gets the generic one, which works for any game
through its legal actions.

A control spec is a list: [kind, game_id, ...]. Kinds are registered in bot.components.
"""

from __future__ import annotations

import hashlib
from typing import Iterable, Mapping

CUSTOM_ID_LIMIT = 100
MAX_BUTTONS = 20        # 4 rows of 5; the fifth row stays free for a game's extra button
SELECT_SIZE = 25
MAX_SELECTS = 5


def stamp(game, state, player: str) -> str:
    """A short fingerprint of what `player` may do now. Components that carry an action also
    carry the stamp they were built for; a different stamp now means they are out of date.
    (A commit phase offers the same choices every turn, so its buttons stay valid: pressing
    one always means "this is my choice now".)"""
    prompt = game.prompt(state, player)
    actions = sorted(str(a) for a in game.legal_actions(state, player))
    # Not the prompt's text: it may change when a player commits (and may change again).
    text = repr((prompt.kind if prompt else None, actions))
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def choice_specs(game_id: int, stamp_: str, actions: Iterable[str]) -> list[list]:
    """Buttons for a few short actions, else select menus of up to 25 each."""
    texts = [str(a) for a in actions]
    if len(texts) <= MAX_BUTTONS and all(
            len(f"pp:act:{game_id}:{stamp_}:{t}") <= CUSTOM_ID_LIMIT for t in texts):
        return [["act", game_id, stamp_, t] for t in texts]
    fitting = [t for t in texts if len(t) <= 100]
    groups = [fitting[i:i + SELECT_SIZE] for i in range(0, len(fitting), SELECT_SIZE)]
    return [["pick", game_id, stamp_, i, group] for i, group in enumerate(groups[:MAX_SELECTS])]


def choices_cover(actions: Iterable[str], specs: list[list]) -> bool:
    """Whether the specs offer every action (else the player is told to use /move)."""
    offered = set()
    for spec in specs:
        if spec[0] == "act":
            offered.add(spec[3])
        elif spec[0] == "pick":
            offered.update(spec[4])
    return set(map(str, actions)) <= offered


def normalise(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


class Adapter:
    """The generic UI: a button under the board that opens the presser's own choices."""

    option_hints: list[str] = []   # suggestions for /play options:

    def matches(self, action: str, typed: str) -> bool:
        """Whether `action` fits what the player has typed so far (for autocomplete)."""
        return normalise(typed) in normalise(action)

    def action_labels(self, game, state, player: str, actions: list[str]) -> list[str]:
        """How actions are listed in autocomplete."""
        return list(actions)

    def turn_controls(self, game_id: int, game, state, view: Mapping) -> list[list]:
        """Controls under a public board post (the game is running)."""
        kinds = {p: game.prompt(state, p).kind for p in game.to_act(state)}
        if not kinds:
            return []
        if any(kind != "public" for kind in kinds.values()):
            return [["mine", game_id, "Open my private controls"]]
        return [["mine", game_id, "Choose my move"]]

    def player_controls(self, game_id: int, game, state, player: str) -> tuple[list[list], str]:
        """The choices of one player (in a DM or an ephemeral message), and a note for the text."""
        actions = [str(a) for a in game.legal_actions(state, player)]
        if not actions:
            return [], ""
        specs = choice_specs(game_id, stamp(game, state, player), actions)
        note = "" if choices_cover(actions, specs) else (
            "\nNot every move fits in the menus: type `/move` to see them all.")
        return specs, note

    def describe_action(self, game, state, player: str, action: str) -> str:
        """How the bot confirms an applied action to the player who made it."""
        return f"`{action}`"


_ADAPTERS: dict[str, Adapter] = {}
_DEFAULT = Adapter()


def register(game_name: str, adapter: Adapter) -> None:
    _ADAPTERS[game_name] = adapter


def adapter_for(game_name: str) -> Adapter:
    if not _ADAPTERS:
        from . import global_warming, relativity  # noqa: F401  (they register themselves)
    return _ADAPTERS.get(game_name, _DEFAULT)
