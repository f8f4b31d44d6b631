"""Computer seats in the bot: who they are, and their thinking, done off the event loop.

A computer seat is stored like a person's seat, with a negative user id (Discord's ids are
positive, so the two never collide) that also says its level: -(10 * n + 1) is the n-th easy
computer, -(10 * n + 2) the n-th strong one. Its name says it is a computer ("Computer
(strong)"). It gets no DMs, no pings and no reminders; the flow asks it to move through a
stored timer (see GameFlow.fire), so a restart while it is to move loses nothing.

`Thinker` runs `computer.get_player(...).choose(view)` (and its judgement of draws) where it
cannot stall the bot: a worker process by default (the players are CPU-bound pure Python: a
thread would hold the GIL), a thread in tests. It only ever gets the view of the computer's own
seat.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import computer
from bot.workers import WorkerPool

LEVELS = computer.LEVELS            # ("easy", "strong")
PAUSE = 1.5                         # seconds before a computer's move (times the pace setting)


def is_computer(player) -> bool:
    """Whether a player id (str or int) is a computer seat's."""
    try:
        return int(player) < 0
    except (TypeError, ValueError):
        return False


def seat_id(number: int, level: str) -> int:
    return -(10 * number + LEVELS.index(level) + 1)


def level_of(player) -> str:
    return LEVELS[(-int(player)) % 10 - 1]


def display_name(number: int, level: str) -> str:
    return f"Computer ({level})" if number == 1 else f"Computer {number} ({level})"


def plays(game_name: str) -> bool:
    return game_name in computer.game_names()


def seed_for(game_seed: int, player: str) -> int:
    """The computer's own seed: from the game's seed and its seat, so a restart asks the same
    question and gets the same answer (and the game's seed itself is never handed over)."""
    key = f"computer|{game_seed}|{player}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") >> 1


class Decision(NamedTuple):
    """What a computer does on its turn: `action`, after `delay` seconds (BYOP1's pace; 0
    elsewhere), then offering a draw saying `offer` (else None); or, with `resign` (what it
    says), it resigns instead (and `action` is None)."""

    action: str | None
    delay: float = 0.0
    offer: str | None = None
    resign: str | None = None


def decide(game_name: str, level: str, seed: int, view: dict) -> Decision:
    """The computer's decision on its own view. Runs in a worker."""
    player = computer.get_player(game_name, level, seed)
    why = player.resigns(view)
    if why:
        return Decision(None, resign=why)
    action = player.choose(view)
    delay = getattr(player, "delay", None)
    offer = player.draw_reason(view) if player.offers_draw(view) else None
    return Decision(action, float(delay(action)) if delay else 0.0, offer)


def answer_draw(game_name: str, level: str, seed: int, view: dict) -> tuple[bool, str]:
    """Whether the computer accepts the draw offered, and why (in players' words). In a worker."""
    return computer.get_player(game_name, level, seed).answer_draw(view)


class Thinker(WorkerPool):
    """One worker process, at a lower priority: a computer may take a moment longer, a person
    waiting for a board should not."""

    what = "computer players"

    def __init__(self, mode: str = "process", workers: int = 1):
        super().__init__(mode, workers, nice=15)

    async def decide(self, game_name: str, level: str, seed: int, view: dict) -> Decision:
        return await self.run(decide, game_name, level, seed, view)

    async def answer_draw(self, game_name: str, level: str, seed: int, view: dict) -> tuple[bool, str]:
        return await self.run(answer_draw, game_name, level, seed, view)
