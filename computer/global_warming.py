"""Global Warming players. Hidden from every seat: the other side of each line coin, the bag
(order and sides) and, during the commit phase, the faces the others have chosen. The players
read only the view; where they need a full state (to simulate a turn through the engine), a
determinisation samples the hidden part consistently with what the view shows.

easy:   any die face, except that when its tile may sink this turn it usually picks a number;
        with steps, walks its own pawn to the tile least likely to sink (never pushes);
        with null, passes.
strong: with two pawns afloat (at any table), judges the 36 pairs of faces exactly (where they
        leave the pawns by the next turn's game, global_warming_ahead.py), then plays the best
        answer to the faces it expects of the other three times in four, that game's
        equilibrium otherwise (global_warming_duel.py). With three or four afloat
        (global_warming_search.py): the faces it expects of each other player (those best for
        them against faces at random, then those they have shown), and for each of its own
        faces the turn played out against every likely combination of theirs, weighed by its
        chance (on the island's positions, not through the engine): every actor takes its best
        action by `Board` (its own pawn's walks and pushes of another pawn, tile moves beside
        a pawn, from the public sink chances), itself its best against those acting after it;
        each turn is judged in expectation over which tile sinks: who is out, and the chance
        to win of those afloat. Once the faces are shown it acts the same way.
"""

from __future__ import annotations

from engine import Rng
from engine.piecepack import VALUES

from . import global_warming_draws as draws
from .base import ComputerPlayer
from .global_warming_board import Board, legal_texts, determinise, pawns_of, placements
from .global_warming_duel import decide as duel_decide
from .global_warming_search import best_action, best_face


# --------------------------------------------------------------------------- players


class GlobalWarmingPlayer(ComputerPlayer):
    game_name = "global-warming"

    def decide(self, view, rng):
        seat = view["viewer"]
        if view["phase"] == "commit":
            return self.commit(view, rng)
        state = determinise(view, rng)
        legal = legal_texts(state, seat)
        # What the seat may do never depends on what it cannot see.
        assert legal == legal_texts(determinise(view, Rng(rng.next64())), seat)
        board = Board.from_view(view)
        face = view["reveal"]["faces"][seat]
        if face == "n":
            return self.tile_move(board, seat, legal, rng)
        text = self.steps(board, seat, view["steps_left"], rng)
        if text is None:
            text = rng.choice(legal)
        return text

    def commit(self, view, rng) -> str:
        raise NotImplementedError

    def tile_move(self, board, seat, legal, rng) -> str:
        raise NotImplementedError

    def steps(self, board, seat, count, rng) -> str | None:
        raise NotImplementedError

    def answer_draw(self, view):
        """By its chance to outlast the others against a fair share (global_warming_draws):
        easy reads it off the tiles now, strong plays the next turns out."""
        chance = None if self.level == "easy" else \
            draws.playout_chance(view, self.rng_for(view), draws.PLAYOUTS, EasyGlobalWarming(0))
        return draws.answer(view, chance)


class EasyGlobalWarming(GlobalWarmingPlayer):
    level = "easy"

    def commit(self, view, rng):
        """When its tile may sink this turn it usually picks a number, to walk away; otherwise
        any face. It never thinks about what the others pick."""
        board = Board.from_view(view)
        pos = board.pawns.get(view["viewer"])
        if pos is not None and board.now.get(board.tiles[pos], 0.0) > 0 and rng.below(4):
            return rng.choice(VALUES[1:])
        return rng.choice(VALUES)

    def tile_move(self, board, seat, legal, rng):
        return "pass"

    def steps(self, board, seat, count, rng):
        """Its own pawn to the reachable tile least likely to sink this turn, then next turn;
        it never pushes another pawn."""
        best, risk = None, None
        for config, path in rng.shuffled(sorted(placements(board, (seat,), count).items())):
            code = board.tiles[config[0]]
            chance = (board.now.get(code, 0.0), board.next.get(code, 0.0))
            if path and (risk is None or chance < risk):
                best, risk = path, chance
        return ", ".join(best) if best else None


class StrongGlobalWarming(GlobalWarmingPlayer):
    """Two pawns afloat, at any table: the 6x6 game of faces (global_warming_duel.py). Three or
    four: each turn played out from its view (global_warming_search.py)."""

    level = "strong"
    samples = 12   # draws behind each other player's expected faces (measured)

    def __init__(self, seed: int = 0, samples: int | None = None):
        super().__init__(seed)
        self.samples = samples or self.samples

    def decide(self, view, rng):
        if len(pawns_of(view)) == 2:
            return duel_decide(view, rng)
        if view["phase"] == "commit":
            return best_face(view, rng, self.samples)
        return best_action(view, rng)


PLAYERS = {"easy": EasyGlobalWarming, "strong": StrongGlobalWarming}
