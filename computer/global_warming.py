"""Global Warming players. Hidden from every seat: the other side of each line coin, the bag
(order and sides) and, during the commit phase, the faces the others have chosen. The players
read only the view; where they need a full state (to simulate a turn through the engine), a
determinisation samples the hidden part consistently with what the view shows.

easy:   any die face, except that when its tile may sink this turn it usually picks a number;
        with steps, walks its own pawn to the tile least likely to sink (never pushes);
        with null, passes.
strong: in a game of two, judges the 36 pairs of faces exactly, then plays the best answer
        to the faces it expects of the other three times in four, that game's equilibrium
        otherwise (global_warming_duel.py). At a table of three or four (and there to the end):
        searches its information set (computer/search.py; the game's side of it is in
        global_warming_search.py): worlds drawn from its view (the line coins' hidden sides,
        the bag; the others' faces are left to the tree, half the time guessed from the faces
        they have shown), everyone's faces chosen at once by decoupled UCT, then each actor's
        best few actions (its own pawn's walks and pushes of another pawn, tile moves beside a
        pawn, scored by `Board` from the public sink chances), the last actor taking its best
        outright; each turn is judged in expectation over which tile sinks: who is out, and
        the chance to win of those afloat.
"""

from __future__ import annotations

from itertools import product
from typing import Mapping

import engine
from engine import Rng, freeze
from engine.global_warming import DIRECTIONS, SIDES
from engine.piecepack import SUIT_LETTERS, VALUES

from .base import ComputerPlayer
from .search import search

GAME = engine.get_game("global-warming")
LETTER_SUIT = {letter: suit for suit, letter in SUIT_LETTERS.items()}


# --------------------------------------------------------------------------- reading the view


def tiles_of(view) -> dict[tuple[int, int], str]:
    """{position: tile code} of the island."""
    return {(t["x"], t["y"]): SUIT_LETTERS[t["suit"]] + t["value"] for t in view["island"]}


def pawns_of(view) -> dict[str, tuple[int, int]]:
    """{player: position} of the pawns still on the island."""
    return {p: (q["x"], q["y"]) for p, q in view["pawns"].items() if q is not None}


def _matches(code: str, side: Mapping) -> bool:
    if side["side"] == "suit":
        return LETTER_SUIT[code[0]] == side["suit"]
    return code[1] == side["value"]


def line_worlds(view) -> list[tuple[str, ...]]:
    """Every assignment of afloat tiles to the line coins that agrees with their visible
    sides. Each is equally likely: every coin lies on a random side, in a random order."""
    return _worlds(sorted(tiles_of(view).values()), view["coin_line"])


def _worlds(afloat, sides) -> list[tuple[str, ...]]:
    candidates = [[c for c in afloat if _matches(c, side)] for side in sides]
    return [combo for combo in product(*candidates) if len(set(combo)) == len(combo)]


def sink_chances(view) -> list[dict[str, float]]:
    """For each line position, {tile code: chance that coin names it}. Position 0 sinks at the
    end of this turn, position 1 at the end of the next."""
    return _chances(line_worlds(view), len(view["coin_line"]))


def _chances(worlds, length) -> list[dict[str, float]]:
    chances = [dict() for _ in range(length)]
    for world in worlds:
        for k, code in enumerate(world):
            chances[k][code] = chances[k].get(code, 0.0) + 1.0 / len(worlds)
    return chances


# --------------------------------------------------------------------------- view -> state


def determinise(view: Mapping, rng: Rng, faces: Mapping[str, str] | None = None):
    """An engine state whose view for the viewer is `view` (log aside): the line coins are one
    consistent assignment drawn uniformly, the bag a random order with random sides, and the
    others' faces (in a commit phase) are `faces` or drawn at random."""
    viewer = view["viewer"]
    worlds = line_worlds(view)
    line_codes = list(rng.choice(worlds))
    sides = [side["side"] for side in view["coin_line"]]
    rest = [c for c in sorted(tiles_of(view).values()) if c not in line_codes]
    bag = [[code, SIDES[rng.below(2)]] for code in rng.shuffled(rest)]
    assert len(bag) == view["bag_count"], "the view's coins do not add up"
    commits = {}
    if view["phase"] == "commit":
        for p in view["committed"]:
            if p == viewer:
                commits[p] = view["own_commit"]
            else:
                commits[p] = (faces or {}).get(p) or rng.choice(VALUES)
    # Who went out, in order: a player out scores how many went out before them.
    gone = [p for p in view["players"] if p in view["drowned"] or p in view["left"]]
    out = sorted(gone, key=lambda p: view["scores"][p])
    tiles = tiles_of(view)
    data = {
        "variant": view["variant"],
        "tiles": {code: list(pos) for pos, code in sorted(tiles.items())},
        "pawns": {p: ([q["x"], q["y"]] if q is not None else None)
                  for p, q in view["pawns"].items()},
        "colours": dict(view["colours"]),
        "drowned": list(view["drowned"]),
        "out": out,
        "bag": bag,
        "line": [[code, side] for code, side in zip(line_codes, sides)],
        "sunk": [SUIT_LETTERS[t["suit"]] + t["value"] for t in view["sunk"]],
        "turn": view["turn"],
        "phase": view["phase"],
        "commits": commits,
        "timed_out": list(view["timed_out"]),
        "reveal": view["reveal"],
        "actor": view["actor"],
        "steps_left": view["steps_left"],
    }
    return freeze({
        "game": GAME.name, "players": list(view["players"]), "seed": 0, "rng": rng.next64(),
        "move_number": view["move_number"], "left": list(view["left"]),
        "draw_offer": view["draw_offer"], "result": None, "log": [], "data": data,
    })


# --------------------------------------------------------------------------- judging a position


class Board:
    """Tiles and pawns in plain dicts, with the sink chances of the decision they serve."""

    def __init__(self, tiles, pawns, colours, chances):
        self.tiles = tiles            # {pos: code}
        self.pawns = pawns            # {player: pos} of pawns afloat
        self.colours = colours
        self.now = chances[0] if chances else {}
        self.next = chances[1] if len(chances) > 1 else {}
        self.third = chances[2] if len(chances) > 2 else {}

    @classmethod
    def from_view(cls, view, chances=None):
        return cls(tiles_of(view), pawns_of(view), view["colours"],
                   sink_chances(view) if chances is None else chances)

    @staticmethod
    def free_neighbours(pos, tiles, occupied) -> int:
        return sum(1 for dx, dy in DIRECTIONS.values()
                   if (pos[0] + dx, pos[1] + dy) in tiles and (pos[0] + dx, pos[1] + dy) not in occupied)

    @staticmethod
    def _free_around(pos, tiles, occupied):
        for dx, dy in DIRECTIONS.values():
            q = (pos[0] + dx, pos[1] + dy)
            if q in tiles and q not in occupied:
                yield q

    def risk(self, pos) -> float:
        code = self.tiles[pos]
        return self.now.get(code, 0.0) + 0.4 * self.next.get(code, 0.0)

    def score(self, me, pawns=None, tiles=None) -> float:
        """How good the placement is for `me` at the end of this turn's actions."""
        pawns = self.pawns if pawns is None else pawns
        tiles = self.tiles if tiles is None else tiles
        occupied = set(pawns.values())
        total = 0.0
        for player, pos in pawns.items():
            code = tiles[pos]
            now = self.now.get(code, 0.0)
            later = self.next.get(code, 0.0) + 0.4 * self.third.get(code, 0.0)
            exits = self.free_neighbours(pos, tiles, occupied)
            trapped = 1.0 if exits == 0 else 0.0
            if player == me:
                total -= 100 * now + (30 + 30 * trapped) * later + 3 * trapped - 1.0 * min(exits, 3)
                # A later actor could push my pawn onto a neighbouring tile that may sink.
                total -= 10 * sum(self.now.get(tiles[q], 0.0) for q in self._free_around(
                    pos, tiles, occupied))
            else:
                total += 30 * now + (5 + 10 * trapped) * later + 1 * trapped - 0.3 * min(exits, 3)
        return total


def placements(board: Board, movers, steps: int, cap: int = 4000):
    """{final pawn placement: steps taking there} reachable by exactly `steps` single steps of
    the pawns in `movers` (fewer only when no pawn at all can step any more)."""
    start = tuple(board.pawns[p] for p in movers)
    fixed = {q for p, q in board.pawns.items() if p not in movers}
    tiles = board.tiles
    frontier = {start: ()}
    finals = {}
    for _ in range(steps):
        following = {}
        for config, path in frontier.items():
            occupied = fixed | set(config)
            moved = False
            for i, player in enumerate(movers):
                x, y = config[i]
                for direction, (dx, dy) in DIRECTIONS.items():
                    q = (x + dx, y + dy)
                    if q in tiles and q not in occupied:
                        moved = True
                        new = config[:i] + (q,) + config[i + 1:]
                        if new not in following and len(following) < cap:
                            following[new] = path + (f"{board.colours[player]} {direction}",)
            if not moved and not _any_step(tiles, occupied):
                finals.setdefault(config, path)  # stuck everywhere: the other steps are lost
        frontier = following
    finals.update({c: p for c, p in frontier.items() if c not in finals})
    return {config: path for config, path in finals.items()}


def _any_step(tiles, occupied) -> bool:
    return any((x + dx, y + dy) in tiles and (x + dx, y + dy) not in occupied
               for x, y in occupied for dx, dy in DIRECTIONS.values())


def _legal_texts(state, player) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, player)]


# --------------------------------------------------------------------------- players


class GlobalWarmingPlayer(ComputerPlayer):
    game_name = "global-warming"

    def decide(self, view, rng):
        seat = view["viewer"]
        if view["phase"] == "commit":
            return self.commit(view, rng)
        state = determinise(view, rng)
        legal = _legal_texts(state, seat)
        # What the seat may do never depends on what it cannot see.
        assert legal == _legal_texts(determinise(view, Rng(rng.next64())), seat)
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
        from . import global_warming_draws as draws   # it reads this module's helpers
        chance = None if self.level == "easy" else \
            draws.playout_chance(view, self.rng_for(view), draws.PLAYOUTS)
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
    """Searches over its information set (computer/search.py): this turn's faces, everyone's
    actions and the sink, in worlds drawn from its view."""

    level = "strong"
    per_pawn = 150   # iterations per pawn afloat: more players, more faces to weigh (measured)

    def __init__(self, seed: int = 0, iterations: int | None = None):
        super().__init__(seed)
        self.iterations = iterations

    def decide(self, view, rng):
        if len(view["players"]) == 2 and len(pawns_of(view)) == 2:
            from .global_warming_duel import decide   # it reads this module's helpers
            return decide(view, rng)
        from .global_warming_search import SearchModel   # it reads this module's helpers
        budget = self.iterations or self.per_pawn * len(pawns_of(view))
        return search(SearchModel(), view, rng, budget, tree_turns=1, rollout_turns=1)


PLAYERS = {"easy": EasyGlobalWarming, "strong": StrongGlobalWarming}
