"""Pack Solitaire: the engine played against an independent model of the rules, move by move.

The model is written from the rules text (seeds/pack-solitaire.txt) and RULINGS.md only, not
from engine/pack_solitaire.py. Random games (seeded) go through the public contract with the
`tiles` option and the notation; after every move the model and the engine must agree on the
legal moves, the layout, the score and the outcome.
"""

from __future__ import annotations

import random

import pytest

import engine

GAME = engine.get_game("pack-solitaire")
VALUES = "na2345"
CELLS = [c + r for c in "abcd" for r in "1234"]


def model_deal(rnd: random.Random) -> list[str]:
    tiles = []
    for _ in range(2):
        coins = list(VALUES * 4)
        rnd.shuffle(coins)
        tiles += ["".join(coins[i:i + 3]) for i in range(0, 24, 3)]
    return tiles


def corners(tile: str, turn: int) -> dict[str, str]:
    """Square name -> value ('' empty) after `turn` quarter turns clockwise."""
    ring = ["UL", "UR", "LR", "LL"]            # clockwise
    dealt = {"UL": tile[0], "UR": tile[1], "LR": "", "LL": tile[2]}
    return {ring[(i + turn) % 4]: dealt[ring[i]] for i in range(4)}


def facing(cell: str):
    """(my square, neighbour cell, its square) for each neighbour of `cell`."""
    col, row = "abcd".index(cell[0]), int(cell[1])
    out = []
    if col > 0:
        left = "abcd"[col - 1] + str(row)
        out += [("UL", left, "UR"), ("LL", left, "LR")]
    if col < 3:
        right = "abcd"[col + 1] + str(row)
        out += [("UR", right, "UL"), ("LR", right, "LL")]
    if row < 4:
        up = cell[0] + str(row + 1)
        out += [("UL", up, "LL"), ("UR", up, "LR")]
    if row > 1:
        down = cell[0] + str(row - 1)
        out += [("LL", down, "UL"), ("LR", down, "UR")]
    return out


def fine(x: str, y: str) -> bool:
    if x == y or not x or not y:
        return True
    return VALUES.index(x) + VALUES.index(y) == 5


class Model:
    def __init__(self, tiles):
        self.tiles = tiles
        self.board: dict[str, tuple[int, int]] = {}   # cell -> (tile, turn)

    def fits(self, tile, cell, turn):
        mine = corners(self.tiles[tile - 1], turn)
        for square, other, theirs in facing(cell):
            if other in self.board and self.board[other][0] != tile:
                t, o = self.board[other]
                if not fine(mine[square], corners(self.tiles[t - 1], o)[theirs]):
                    return False
        return True

    def legal(self):
        where = {t: c for c, (t, o) in self.board.items()}
        moves = {"done"} | {f"{t}@off" for t in where}
        for tile in range(1, 17):
            for cell in CELLS:
                if cell in self.board and self.board[cell][0] != tile:
                    continue
                for turn in range(4):
                    if self.board.get(cell) == (tile, turn):
                        continue
                    if self.fits(tile, cell, turn):
                        moves.add(f"{tile}@{cell}/{turn}")
        return moves

    def play(self, move):
        if move == "done":
            return
        tile = int(move.split("@")[0])
        self.board = {c: v for c, v in self.board.items() if v[0] != tile}
        if not move.endswith("@off"):
            cell, turn = move.split("@")[1].split("/")
            self.board[cell] = (tile, int(turn))

    def score(self):
        points = 0
        for cell, (t, o) in self.board.items():     # each tile against each neighbour
            mine = corners(self.tiles[t - 1], o)
            for square, other, theirs in facing(cell):
                if other in self.board:
                    u, p = self.board[other]
                    points += mine[square] == corners(self.tiles[u - 1], p)[theirs]
        return points


@pytest.mark.parametrize("seed", range(4))
def test_engine_agrees_with_the_model(seed):
    rnd = random.Random(seed)
    tiles = model_deal(rnd)
    state = GAME.new_game(["me"], seed=seed, options={"tiles": tiles})
    model = Model(tiles)
    for _ in range(60):
        legal = model.legal()
        assert {str(a) for a in GAME.legal_actions(state, "me")} == legal
        # Prefer placements, so layouts fill up; finish now and then.
        places = sorted(m for m in legal if "/" in m)
        move = rnd.choice(places) if places and rnd.random() < 0.8 else rnd.choice(sorted(legal))
        if move == "done" and rnd.random() < 0.7:
            continue
        state = GAME.apply(state, "me", move)
        model.play(move)
        view = GAME.view(state)
        assert {c: (p["tile"], p["orientation"]) for c, p in view["placed"].items()} == model.board
        assert GAME.scores(state) == {"me": model.score()}
        if move == "done":
            assert GAME.outcome(state).winners == ("me",)
            assert f"{model.score()} points" in GAME.outcome(state).reason
            return
        assert GAME.outcome(state) is None
