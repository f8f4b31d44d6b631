"""Global Warming players. Hidden from every seat: the other side of each line coin, the bag
(order and sides) and, during the commit phase, the faces the others have chosen. The players
read only the view; where they need a full state (to simulate a turn through the engine), a
determinisation samples the hidden part consistently with what the view shows.

easy:   one move ahead, never guessing the others' faces: four times in five a face that
        would take its own pawn to the best place it sees if nobody else moved, acting late
        when a push could hurt it (any face otherwise); with steps, its own pawn to the best
        place it can reach, pushing one other pawn toward danger on the way where it can;
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

from engine.global_warming import ACTION_ORDER, STEP_COUNT
from engine.piecepack import VALUES

from . import global_warming_draws as draws
from .base import ComputerPlayer
from .global_warming_board import Board, around, legal_texts, determinise, pawns_of, placements
from .global_warming_duel import decide as duel_decide
from .global_warming_search import best_action, best_face


# --------------------------------------------------------------------------- players


class GlobalWarmingPlayer(ComputerPlayer):
    game_name = "global-warming"

    def answer_draw(self, view):
        """By its chance to outlast the others against a fair share (global_warming_draws):
        easy reads it off the tiles now, strong plays the next turns out."""
        if self.level == "easy":
            return draws.answer(view, None)
        others = EasyGlobalWarming(0, pushes=False)
        chance = draws.playout_chance(view, self.rng_for(view), draws.PLAYOUTS, others)
        return draws.answer(view, chance)


class EasyGlobalWarming(GlobalWarmingPlayer):
    """One move ahead, by `Board`'s judgement of where the pawns stand, never guessing the
    others' faces; four faces in five chosen so, the fifth any face at all."""

    level = "easy"
    careless = 5   # one face in so many is any face at all: a chance left for its opponents
    pushed = 60    # how much it fears a later actor pushing it onto the riskiest tile beside it

    def __init__(self, seed: int = 0, pushes: bool = True):
        super().__init__(seed)
        self.pushes = pushes   # (strong's look at a draw offer plays everyone without them)

    def decide(self, view, rng):
        if view["phase"] == "commit":
            return self.face(Board.from_view(view), view["viewer"], rng)
        text = self.act(view, rng)
        if text is None:   # (what the seat may do never depends on what it cannot see)
            text = rng.choice(legal_texts(determinise(view, rng), view["viewer"]))
        return text

    def face(self, board, seat, rng) -> str:
        """For each face, the best place its own pawn could reach with it if nobody else moved
        (null: it stays), less the fear of a push onto a risky tile beside it by someone
        acting after that face; any face among the best."""
        if seat not in board.pawns or not rng.below(self.careless):
            return rng.choice(VALUES)
        others = len(board.pawns) - 1
        values = []
        for face in VALUES:
            later = len(ACTION_ORDER) - 1 - ACTION_ORDER.index(face)
            fear = 1 - (1 - later / len(VALUES)) ** others   # someone acts after this face
            stay = self.judge(board, seat, board.pawns, fear)
            walks = [] if face == "n" else self.walks(board, seat, STEP_COUNT[face], fear)
            values.append(max((value for _, value in walks), default=stay))
        best = max(values)
        return rng.choice([face for face, value in zip(VALUES, values) if value >= best - 0.5])

    def act(self, view, rng) -> str | None:
        """Once the faces are shown: with null it passes, with steps see `steps`. None when
        no pawn it would move can step."""
        seat = view["viewer"]
        if view["reveal"]["faces"][seat] == "n":
            return "pass"
        order = view["reveal"]["order"]
        later = seat in order and order.index(seat) < len(order) - 1
        return self.steps(Board.from_view(view), seat, view["steps_left"], rng, later)

    def steps(self, board, seat, count, rng, later: bool) -> str | None:
        """The best placement it can reach, its own pawn moved and perhaps one other pushed
        along (`later`: someone acts after it this turn, and could push it)."""
        movers = [(seat,)] + [(seat, p) for p in sorted(board.pawns) if p != seat and self.pushes]
        fear = 1.0 if later else 0.0
        walks = [walk for who in movers for walk in self.walks(board, seat, count, fear, who)]
        if not walks:
            return None
        best = max(value for _, value in walks)
        return ", ".join(rng.choice([path for path, value in walks if value == best]))

    def walks(self, board, seat, count, fear, movers=None) -> list[tuple[tuple[str, ...], float]]:
        """(steps, value) of each placement of `movers` (its own pawn alone by default)
        reachable by `count` steps."""
        movers = movers or (seat,)
        return [(path, self.judge(board, seat, {**board.pawns, **dict(zip(movers, at))}, fear))
                for at, path in sorted(placements(board, movers, count).items()) if path]

    def judge(self, board, seat, pawns, fear) -> float:
        """`Board`'s score of the placement for the seat, less `fear` (the chance of a later
        actor) times the chance that the riskiest free tile beside its pawn sinks this turn."""
        beside = [board.now.get(board.tiles[q], 0.0) for q in around(pawns[seat])
                  if q in board.tiles and q not in pawns.values()]
        return board.score(seat, pawns) - self.pushed * fear * max(beside, default=0.0)


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
