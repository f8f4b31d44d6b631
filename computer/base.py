"""What every computer player shares: the seeded choice and the view it must decide from."""

from __future__ import annotations

import hashlib
from typing import Mapping

from engine import Rng


class ComputerPlayer:
    """Base of the players. A subclass implements `decide(view, rng) -> str`.

    `choose` gives `decide` a generator seeded from the player's seed, the seat and the view's
    move number, so the answer is a pure function of (seed, view)."""

    game_name = ""
    level = ""

    def __init__(self, seed: int = 0):
        self.seed = int(seed)

    def choose(self, view: Mapping) -> str:
        if view.get("game") != self.game_name:
            raise ValueError(f"this player plays {self.game_name}, not {view.get('game')}")
        seat = view.get("viewer")
        if seat is None or seat not in view.get("to_act", ()):
            raise ValueError("ask a computer only for a seat that is to act, with that seat's view")
        return self.decide(view, self.rng_for(view))

    def rng_for(self, view: Mapping) -> Rng:
        key = f"{self.game_name}|{self.level}|{self.seed}|{view['viewer']}|{view['move_number']}"
        return Rng(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))

    def decide(self, view: Mapping, rng: Rng) -> str:
        raise NotImplementedError

    # ---- draws: the default judgement, for games whose players have none of their own ----

    def answer_draw(self, view: Mapping) -> tuple[bool, str]:
        """Whether to accept the draw offered in `view` (the player's own view), and why, in a
        short sentence to the other players."""
        return False, "I would rather play on."

    def offers_draw(self, view: Mapping) -> bool:
        """Whether to offer a draw now, before its move; `draw_reason` then says why."""
        return False

    def draw_reason(self, view: Mapping) -> str:
        """Why it offers a draw (only asked after `offers_draw` said yes)."""
        return "Shall we call it a draw?"

    def resigns(self, view: Mapping) -> str | None:
        """Why it resigns instead of moving, when it can no longer win whatever anyone does
        (playing on could only hold the game up); None to play on."""
        return None
