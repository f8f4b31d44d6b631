"""Piecepack components shared by every game: suits, values and their notation."""

from __future__ import annotations

from .core import InvalidAction

# Suits in the standard order, with the colours of the piecepack look.
SUITS = ("suns", "moons", "crowns", "arms")
SUIT_COLOURS = {"suns": "red", "moons": "black", "crowns": "green", "arms": "blue"}
SUIT_LETTERS = {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}

# Values in rank order; notation as in Portable Piecepack Notation: n a 2 3 4 5.
VALUES = ("n", "a", "2", "3", "4", "5")
VALUE_NAMES = {"n": "null", "a": "ace", "2": "2", "3": "3", "4": "4", "5": "5"}
# The mark a value shows on a piece. A real null is blank: drawings give it a ring instead.
VALUE_SYMBOLS = {"a": "A", "2": "2", "3": "3", "4": "4", "5": "5"}
VALUE_RANK = {v: i for i, v in enumerate(VALUES)}  # null 0, ace 1, ... 5

_VALUE_WORDS = {
    "n": "n", "null": "n", "blank": "n", "0": "n",
    "a": "a", "ace": "a", "1": "a",
    "2": "2", "two": "2", "3": "3", "three": "3", "4": "4", "four": "4", "5": "5", "five": "5",
}


def parse_value(text: str) -> str:
    """'N', 'null', 'blank', '0' -> 'n'; 'A', 'ace', '1' -> 'a'; '2'..'5' -> themselves."""
    value = _VALUE_WORDS.get(text.strip().lower())
    if value is None:
        raise InvalidAction(f"{text!r} is not a piecepack value (null, ace, 2, 3, 4 or 5).")
    return value


def value_name(value: str) -> str:
    return VALUE_NAMES[value]
