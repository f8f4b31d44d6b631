"""The life of a game, independent of Discord objects: lobbies, actions, timers, and what to tell
whom after each change.

Every change is: read the game row (with its version), compute the new state with the engine,
then commit state + event + notices + timers in one transaction that checks the version. The
notices are delivered afterwards by the outbox dispatcher (bot.delivery), so a crash or a Discord
error between the two loses nothing.

What is said where:
- the game's thread gets the public view only (board image, new public log lines, who is to act);
  the newest board post holds the controls (older ones lose theirs). A player who goes on with
  the same action (several steps) gets that post edited rather than a new one and a new ping;
- a player asked for a secret or private decision gets a DM with their own view and controls
  (unless their DMs are known to be closed: the thread then says to use the button instead);
- during a secret phase a commit only edits the turn post's "2 of 4 chosen" line (who, never
  what); the reveal is the first public change after the last commit, posted as one message;
- a draw offer, and its answers, are short text posts (the offer with Accept and Decline);
- a post pings exactly the players its payload lists ("pinged" or "mentions"), nobody else.

Where each part is (GameFlow, in core, is made of the others: one class each):
- common: constants, GENERIC_OPS, ViewsOnce, Done, parse_options, and the notices that take
  controls off a message;
- core: GameFlow itself, its state, and reading (a game's row, state and views; `resolve`);
- lobby: a game's lobby up to its start;
- play: actions, background work, the commit of every change, replays;
- plan: what to say after a change, and to whom;
- notices: draw notices, turn lines, the result line, private notices;
- computer_turns: computers' timers and moves;
- clock: deadlines, reminders, and firing timers;
- away: time away (a game's clock stands still).
"""

from __future__ import annotations

from ..errors import StaleControls, UserError  # noqa: F401  (also imported from here)
from .common import (  # noqa: F401  (all also imported from here)
    CLOSED, CLOSED_BOARD, COMPUTER_RETRY, COMPUTER_TIMER, DRAW_OVER, FILL_TO, GENERIC_OPS, OPTION_KEY,
    PAUSED_UNTIL, REMINDER_SHARE, REPEAT_REMINDER, REPLACED, SEAT_DRAW_SALT, VOLATILE_VIEW_KEYS, Done,
    ViewsOnce, closed_note, compose, draw_seats, log, parse_options, public_part, rematch_controls,
    strip)
from .core import GameFlow  # noqa: F401
