"""The simple Global Warming player of issue 24: a small Monte Carlo over die faces, from its
seat's view only.

Commit: each of the six faces is tried in the same few sampled worlds (the others' faces drawn
uniformly, the line coins' hidden sides drawn consistently with the visible ones); in each
world the turn is played out with every number actor walking its own pawn to the reachable
tile least likely to sink, and the face that survives most often (ties: drowns most others) is
chosen. Act: with steps, its own pawn goes to the reachable tile least likely to sink now, then
next turn, pushing another pawn along toward danger when it can; with null, it passes.
"""

from __future__ import annotations

from engine import Rng
from engine.global_warming import ACTION_ORDER, STEP_COUNT
from engine.piecepack import VALUES

from computer.base import ComputerPlayer
from computer.global_warming_board import Board, line_worlds, pawns_of, placements, sink_chances


def _risk(board: Board, pos) -> tuple[float, float]:
    code = board.tiles[pos]
    return board.now.get(code, 0.0), board.next.get(code, 0.0)


def _safest(board: Board, player, steps: int, rng: Rng):
    """(pawns, steps text) after the steps that leave its own pawn on the safest reachable
    tile; among those, the one that leaves another pawn (moved along) most at risk. None when
    its pawn cannot step."""
    best, best_key = None, None
    for movers in [(player,)] + [(player, p) for p in sorted(board.pawns) if p != player]:
        for config, path in rng.shuffled(sorted(placements(board, movers, steps).items())):
            if not path:
                continue
            pawns = dict(board.pawns, **dict(zip(movers, config)))
            now, later = _risk(board, pawns[player])
            theirs = sum(_risk(board, pawns[p])[0] for p in movers[1:])
            key = (-now, -later, theirs)
            if best_key is None or key > best_key:
                best, best_key = (pawns, ", ".join(path)), key
    return best


class BaselineGlobalWarming(ComputerPlayer):
    game_name = "global-warming"
    level = "baseline"
    samples = 16

    def decide(self, view, rng):
        me = view["viewer"]
        board = Board.from_view(view)
        if view["phase"] == "commit":
            return self.commit(view, board, rng)
        if view["reveal"]["faces"][me] == "n" or me not in board.pawns:
            return "pass"
        found = _safest(board, me, view["steps_left"], rng)
        if found is None:   # our pawn is boxed in: the first step any pawn can make
            return next(path[0] for p in sorted(board.pawns)
                        for path in placements(board, (p,), 1).values() if path)
        return found[1]

    def commit(self, view, board, rng):
        me = view["viewer"]
        others = [p for p in pawns_of(view) if p != me and p not in view["timed_out"]]
        worlds = line_worlds(view)
        samples = [({p: rng.choice(VALUES) for p in others}, rng.choice(worlds), rng.next64())
                   for _ in range(self.samples)]
        totals = {}
        for face in VALUES:
            totals[face] = sum(self._turn(board, me, dict(faces, **{me: face}), line, Rng(seed))
                               for faces, line, seed in samples)
        best = max(totals.values())
        return rng.choice([f for f in VALUES if totals[f] >= best - 1e-9])

    @staticmethod
    def _turn(board: Board, me, faces, line, rng) -> float:
        counts = {}
        for face in faces.values():
            counts[face] = counts.get(face, 0) + 1
        order = sorted((p for p, f in faces.items() if counts[f] == 1),
                       key=lambda p: ACTION_ORDER.index(faces[p]))
        pawns = dict(board.pawns)
        for actor in order:
            if faces[actor] == "n":
                continue
            now = Board(board.tiles, pawns, board.colours, [board.now, board.next])
            found = _safest(now, actor, STEP_COUNT[faces[actor]], rng)
            if found is not None:
                pawns = found[0]
        sinking = next(pos for pos, code in board.tiles.items() if code == line[0])
        if pawns[me] == sinking:
            return 0.0
        return 1.0 + 0.2 * sum(1 for p, pos in pawns.items() if pos == sinking)


def baseline(seed: int) -> BaselineGlobalWarming:
    return BaselineGlobalWarming(seed)
