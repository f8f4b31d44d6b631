"""What the parts of the game flow share: its constants, the actions every game has, a game
whose views are built once, an action's result, `/play`'s options, and the small notices that
take controls off a message."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Mapping

from engine import Game, Rng

from .. import texts
from ..errors import UserError
from ..storage import GameRow, Notice, OutboxItem

log = logging.getLogger("bot.flow")   # (one logger for the whole package, as before its split)

# Keys of a view that change with every commit of a secret phase without showing anything new.
VOLATILE_VIEW_KEYS = frozenset({"log", "log_start", "move_number", "to_act", "awaited", "committed",
                                "draw_offer"})
SEAT_DRAW_SALT = 0x5EA70D5A   # the seat draw uses its own stream of the game's seed
REMINDER_SHARE = 0.8          # remind at 80% of a deadline
REPEAT_REMINDER = 86400.0     # without a deadline, remind again daily
COMPUTER_RETRY = 30.0         # a computer that failed to move (an error) tries again this much later
COMPUTER_TIMER = "computer:"  # + the computer's player id: the timer that makes it move
FILL_TO = 4                   # /play computers: fills a table up to this many seats
PAUSED_UNTIL = "paused_until"  # a paused game's deadline and reminder timers: when its clock runs again


# The actions every game has besides moves: event kind -> the engine's call.
GENERIC_OPS = {"resign": Game.resign, "offer": Game.offer_draw, "accept": Game.accept_draw,
               "decline": Game.decline_draw}


class ViewsOnce:
    """A game whose `view` is built once per (state, viewer) and then shared: callers read
    views, never change them. Everything else is the game's own."""

    def __init__(self, game: Game):
        self.game = game
        self._views: dict[tuple[int, str | None], tuple[object, dict]] = {}

    def __getattr__(self, name):
        return getattr(self.game, name)

    def view(self, state, viewer: str | None = None) -> dict:
        key = (id(state), viewer)
        cached = self._views.get(key)
        if cached is None or cached[0] is not state:   # (the state is kept: ids stay unique)
            cached = self._views[key] = (state, self.game.view(state, viewer))
        return cached[1]


@dataclass
class Done:
    """The result of an applied action: what to tell the actor, and the game afterwards."""

    message: str
    row: GameRow
    state: Mapping
    private: bool = False   # a move on the player's own private board
    of_round: object = None  # (private) the round of private boards the move was made in


OPTION_KEY = re.compile(r"(?:^|(?<=[\s;,]))([A-Za-z_][\w-]*)\s*=\s*")


def parse_options(text: str | None, *, example: str = "") -> dict:
    """`/play options:` text: a JSON object, or `key=value` pairs separated by spaces, `;` or
    commas (`rounds=2, ranking=slides`; spaces around `=` are fine). A value that reads as JSON
    is taken as JSON; a value with commas becomes a list (`starts=Sn, S4`). `example`: a
    key=value of the game at hand, for the error message."""
    text = (text or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"The options are not valid JSON: {exc.msg} (at character {exc.pos}).") from None
        if not isinstance(value, dict):
            raise UserError("The options must be a JSON object.")
        return value

    def refuse(part: str) -> UserError:
        return UserError("Write options as key=value" + (f", for example {example}" if example else "")
                         + f" (not {texts.excerpt(part)}).")

    keys = list(OPTION_KEY.finditer(text))
    if not keys or keys[0].start() > 0:
        raise refuse(text[:keys[0].start()].strip(" ;,") if keys else text)
    options: dict = {}
    for key, after in zip(keys, keys[1:] + [None]):
        value = text[key.end():after.start() if after else len(text)].strip().strip(";,").strip()
        try:
            options[key.group(1)] = json.loads(value)
            continue
        except json.JSONDecodeError:
            pass
        items = [item.strip() for item in value.split(",")]
        if any(re.search(r"\s", item) for item in items):   # a word that is no key=value
            raise refuse(next(w for item in items for w in item.split()[1:]))
        if len(items) > 1 and "" in items:
            raise refuse(value)
        options[key.group(1)] = items if len(items) > 1 else value
    return options


def public_part(view: Mapping) -> dict:
    return {k: v for k, v in view.items() if k not in VOLATILE_VIEW_KEYS}


CLOSED = "*(Closed: this choice is over; see the thread.)*"
CLOSED_BOARD = "*(Closed: play on this board is over; see the thread.)*"
REPLACED = "*(Replaced by the newer message below.)*"
DRAW_OVER = "*(This draw offer is over.)*"   # a move lets it lapse without a word in the log


def strip(item: OutboxItem | None, note: str = "") -> list[Notice]:
    """A notice that takes the controls off the message `item` became, if it had live ones
    (and with `note`, says why under its text). An edit that was given up still has its
    message, with the controls it had before."""
    if item is None or not item.payload.get("controls") or (item.failed and item.edit_of is None):
        return []
    payload: dict = {"controls": []}
    if note and item.payload.get("content"):
        payload["content"] = texts.clip(f"{item.payload['content']}\n{note}")
    return [Notice(item.target_kind, item.target_id, payload, tag=item.tag, edit_of=item.id)]


def strip_at_end(item: OutboxItem) -> list[Notice]:
    """Taking the controls off a message for good, as a game ends (store.commit's `strip`):
    a private message also says why."""
    return strip(item, closed_note(item) if item.target_kind == "user" else "")


def closed_note(item: OutboxItem) -> str:
    """What a private message says once its controls are off for good: a private board's
    words, or a choice's (its payload says which kind of prompt it was made for)."""
    return CLOSED_BOARD if item.payload.get("prompt") == "private" else CLOSED


def rematch_controls(row: GameRow) -> list[list]:
    """The result post's controls: a Rematch button for the game's players (bot.history);
    none under a daily puzzle (its deal is the day's, played once: the next is tomorrow's)."""
    return [] if row.extras.get("daily") else [["rematch", row.id]]


def compose(head: str, tail: list[str]) -> str:
    return texts.clip("\n".join(line for line in [head, *tail] if line))


def draw_seats(seats: list, seed: int) -> list:
    """The order of the seats, drawn from the game's seed (so it is stored with the start):
    hosting or joining first gives no seat of one's choosing (in Relativity the first seat is
    Night's Space, who also wins a tie)."""
    return Rng(seed ^ SEAT_DRAW_SALT).shuffled(seats)

