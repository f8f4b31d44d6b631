"""What every game's drawing shows alike, apart from the pieces: players' names, the headline
of a finished game, and the gold that marks the player to act or the winner."""

from __future__ import annotations

HIGHLIGHT = "#ffc533"


def display_names(view: dict, names: dict[str, str] | None) -> dict[str, str]:
    """player id -> the name to draw: the given display name, else the id."""
    return {p: str((names or {}).get(p, p)) for p in view["players"]}


def outcome_headline(outcome: dict, names: dict[str, str]) -> str:
    """`Ann wins` (winners joined by &), `Game drawn`, or `Game over: nobody won`."""
    if outcome["winners"] and not outcome.get("draw"):
        return " & ".join(names[w] for w in outcome["winners"]) + " wins"
    return "Game drawn" if outcome.get("draw") else "Game over: nobody won"
