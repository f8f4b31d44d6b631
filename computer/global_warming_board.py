"""Global Warming as its computer players read it, from a seat's view only: the island, the
pawns, the chances that each tile sinks this turn and later (from the line coins' visible
sides), a state drawn consistently with the view for simulations, and `Board`, which judges a
position from the public sink chances. The players (global_warming.py), their search
(global_warming_search.py), the two-player judgement (global_warming_duel.py) and the draw
judgement (global_warming_draws.py) all read it."""

from __future__ import annotations

import functools
import math
from itertools import product
from typing import Mapping

import engine
from engine import Rng, freeze
from engine.global_warming import DIRECTIONS, SIDES
from engine.piecepack import SUIT_LETTERS, VALUES

GAME = engine.get_game("global-warming")
LETTER_SUIT = {letter: suit for suit, letter in SUIT_LETTERS.items()}


@functools.cache
def around(pos) -> tuple[tuple[int, int], ...]:
    """The four places beside `pos` (in the engine's order of directions). (Cached: the
    searches ask it millions of times of a few dozen places.)"""
    return tuple((pos[0] + dx, pos[1] + dy) for dx, dy in DIRECTIONS.values())


# --------------------------------------------------------------------------- reading the view


def tiles_of(view) -> dict[tuple[int, int], str]:
    """{position: tile code} of the island."""
    return {(t["x"], t["y"]): SUIT_LETTERS[t["suit"]] + t["value"] for t in view["island"]}


def pawns_of(view) -> dict[str, tuple[int, int]]:
    """{player: position} of the pawns still on the island."""
    return {p: (q["x"], q["y"]) for p, q in view["pawns"].items() if q is not None}


def out_of(view) -> list[str]:
    """Who went out, in order (a player out scores how many went out before them)."""
    gone = [p for p in view["players"] if p in view["drowned"] or p in view["left"]]
    return sorted(gone, key=lambda p: view["scores"][p])


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


# --------------------------------------------------------------------------- the faces others show

NAIVE = 3.0   # pseudo-counts of the faces a player would pick for themselves, before those shown
SHARP = 20.0  # how firmly a player is expected to pick the faces best for them


def shown_faces(view, player) -> list[float]:
    """How often `player` showed each face in the view's log."""
    counts = [0.0] * len(VALUES)
    for event in view["log"]:
        face = (event.get("faces") or {}).get(player) if event.get("event") == "reveal" else None
        if face in VALUES:
            counts[VALUES.index(face)] += 1
    return counts


def expected_faces(shown, gains) -> list[float]:
    """The share of each face expected of a player: the faces they have shown (`shown`, counts
    per face), after those a naive player would pick in their place (`gains`: their value of
    each face; a soft choice among the best few)."""
    weights = [math.exp(SHARP * (g - max(gains))) for g in gains]
    counts = [c + NAIVE * w / sum(weights) for c, w in zip(shown, weights)]
    return [c / sum(counts) for c in counts]


def pick_face(shares, rng: Rng) -> str:
    """A face drawn in the proportions `shares`."""
    pick = rng.below(1 << 30) / (1 << 30)
    for face, share in zip(VALUES, shares):
        pick -= share
        if pick < 0:
            return face
    return VALUES[max(range(len(VALUES)), key=lambda i: shares[i])]


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
    out = out_of(view)
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
        return sum(1 for q in around(pos) if q in tiles and q not in occupied)

    def risk(self, pos) -> float:
        code = self.tiles[pos]
        return self.now.get(code, 0.0) + 0.4 * self.next.get(code, 0.0)

    def score(self, me, pawns=None, tiles=None) -> float:
        """How good the placement is for `me` at the end of this turn's actions."""
        pawns = self.pawns if pawns is None else pawns
        tiles = self.tiles if tiles is None else tiles
        occupied = set(pawns.values())
        chance_now, chance_next, chance_third = self.now, self.next, self.third
        total = 0.0
        for player, pos in pawns.items():
            code = tiles[pos]
            now = chance_now.get(code, 0.0)
            later = chance_next.get(code, 0.0) + 0.4 * chance_third.get(code, 0.0)
            free = [q for q in around(pos) if q in tiles and q not in occupied]
            exits = len(free)
            trapped = 1.0 if exits == 0 else 0.0
            if player == me:
                total -= 100 * now + (30 + 30 * trapped) * later + 3 * trapped - 1.0 * min(exits, 3)
                # A later actor could push my pawn onto a neighbouring tile that may sink.
                total -= 10 * sum([chance_now.get(tiles[q], 0.0) for q in free])
            else:
                total += 30 * now + (5 + 10 * trapped) * later + 1 * trapped - 0.3 * min(exits, 3)
        return total


def placements(board: Board, movers, steps: int, cap: int = 4000):
    """{final pawn placement: steps taking there} reachable by exactly `steps` single steps of
    the pawns in `movers` (fewer only when no pawn at all can step any more)."""
    start = tuple(board.pawns[p] for p in movers)
    fixed = {q for p, q in board.pawns.items() if p not in movers}
    tiles = board.tiles
    texts = [_step_texts(board.colours[p]) for p in movers]
    frontier = {start: ()}
    finals = {}
    for _ in range(steps):
        following = {}
        for config, path in frontier.items():
            moved = False
            for i, pos in enumerate(config):
                for q, text in zip(around(pos), texts[i]):
                    if q in tiles and q not in fixed and q not in config:
                        moved = True
                        new = config[:i] + (q,) + config[i + 1:]
                        if new not in following and len(following) < cap:
                            following[new] = path + (text,)
            if not moved and not _any_step(tiles, fixed.union(config)):
                finals.setdefault(config, path)  # stuck everywhere: the other steps are lost
        frontier = following
    finals.update({c: p for c, p in frontier.items() if c not in finals})
    return finals


@functools.cache
def _step_texts(colour: str) -> tuple[str, ...]:
    """A pawn's step texts, in the engine's order of directions (the order `around` gives)."""
    return tuple(f"{colour} {direction}" for direction in DIRECTIONS)


def _any_step(tiles, occupied) -> bool:
    return any(q in tiles and q not in occupied for p in occupied for q in around(p))


def legal_texts(state, player) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, player)]
