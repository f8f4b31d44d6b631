"""BYOP1 players: a sliding-puzzle race, so a computer is a solver with a pace.

Each decision returns the next few slides of the engine's own solver (`engine.byop1.solve`,
a quick, human-like method) from the board in the seat's view, or `done` once the board is
correct. The pace is the level's: `seconds_per_slide` says how long the bot should let pass
per slide before applying the answer (the thinking itself is instant), so a race against the
computer is a race. The easy player also wanders now and then (a slide and back).
"""

from __future__ import annotations

from engine.byop1 import possible_slides, solve

from .base import ComputerPlayer

REVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}


class Byop1Player(ComputerPlayer):
    game_name = "byop1"
    chunk = 4                 # slides per answer: the board updates in visible steps
    seconds_per_slide = 1.0
    wander = 0.0              # chance of a wasted slide-and-back before the next chunk

    def decide(self, view, rng):
        board = view["board"]
        if board is None or board["correct"]:
            return "done"
        targets = view["targets"]
        plan = solve(board["tiles"], targets["rows"], targets["columns"])
        text = plan[:self.chunk]
        if self.wander and rng.below(1000) < self.wander * 1000:
            detour = rng.choice(possible_slides(board["tiles"]))
            text = detour + REVERSE[detour] + text
        return text or "done"

    def delay(self, action: str) -> float:
        """Seconds the bot should wait before applying `action` (the level's pace)."""
        return self.seconds_per_slide * max(1, sum(ch in "UDLR" for ch in action))


class EasyByop1(Byop1Player):
    level = "easy"
    seconds_per_slide = 2.0
    wander = 0.3


class StrongByop1(Byop1Player):
    level = "strong"
    seconds_per_slide = 0.6


PLAYERS = {"easy": EasyByop1, "strong": StrongByop1}
