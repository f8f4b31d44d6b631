"""Global Warming strong at a table of three or four pawns afloat: each turn played out from
the seat's view. `TurnModel` is the game as it sees a turn, from the public part of the view
only (the island, the pawns, the sink chances the coins' visible sides allow): the candidate
actions of each player, a turn played out on plain positions, and the judgement of where a
turn leaves the pawns. `FaceChoice` picks the seat's face against the faces it expects of the
others; `best_action` its action once the faces are shown.

Nothing is drawn from the hidden part (the others' faces are weighed by the chances
`FaceChoice.expected` gives them; the sink by the chances the view shows), so the seat's
decision is the same whatever it cannot see. A turn is played out on plain positions rather
than through the engine's `apply` (which cost two thirds of the time, freezing and thawing the
state); tests check that it moves pawns and tiles as the engine does.

Measured against the benchmark's baseline at four players (benchmarks/README.md): this won
about 47% of games, against 30% for the search over the information set it replaced (decoupled
UCT over everyone's faces, computer/search.py, which Galaxies still uses)."""

from __future__ import annotations

from itertools import product

from engine.global_warming import DIRECTIONS, STEP_COUNT, acting_order, pawn_steps, tile_moves
from engine.piecepack import VALUES

from . import global_warming_board as gw
from .global_warming_board import Board, around, placements

Tiles = dict   # {position: tile code}
Pawns = dict   # {player: position} of the pawns afloat


class TurnModel:
    """The game as the seat's look at a turn sees it (see the module's docstring)."""

    width = 5   # candidate actions kept per decision

    def __init__(self, view):
        self.players = list(view["players"])
        self.colours = dict(view["colours"])
        self.tiles, self.pawns = gw.tiles_of(view), gw.pawns_of(view)
        self.out = gw.out_of(view)
        self.root = gw.sink_chances(view)   # which tile sinks this turn, the next...
        self._options = {}

    def board(self, tiles: Tiles, pawns: Pawns) -> Board:
        return Board(tiles, pawns, self.colours, self.root)

    def options(self, tiles: Tiles, pawns: Pawns, player, face: str, steps: int):
        """[(action text, tiles after, pawns after, steps still left)]: `player`'s candidate
        actions with `face` (and `steps` steps left), the best first by `Board`."""
        key = (tuple(sorted(tiles.items())), tuple(sorted(pawns.items())), player, face, steps)
        if key not in self._options:
            self._options[key] = self._candidates(self.board(tiles, pawns), player, face, steps)
        return self._options[key]

    def _candidates(self, board: Board, player, face: str, steps: int):
        scored = {}
        if face == "n":
            scored["pass"] = (board.score(player), board.tiles, board.pawns)
            # Tile moves that matter take a tile from beside a pawn or put one there.
            near = {q for pos in board.pawns.values() for q in around(pos)}
            for move in tile_moves(board.tiles, set(board.pawns.values())):
                if move.src in near or move.dst in near:
                    tiles = dict(board.tiles)
                    tiles[move.dst] = tiles.pop(move.src)
                    scored[str(move)] = (board.score(player, tiles=tiles), tiles, board.pawns)
        else:
            for own, pawns, path, score in self._own_walks(board, player, steps):
                if path and own == steps:   # fewer steps would only defer the rest
                    scored[", ".join(path)] = (score, board.tiles, pawns)
                if own == steps:
                    continue
                # The steps left push one other pawn (after its own walk, so the text is legal).
                after = Board(board.tiles, pawns, board.colours, ())
                for other in sorted(pawns):
                    if other == player:
                        continue
                    risk = board.risk(pawns[other])
                    for (pos,), more in sorted(placements(after, (other,), steps - own).items()):
                        if more and board.risk(pos) > risk:   # a push worth making
                            moved = dict(pawns, **{other: pos})
                            scored[", ".join(path + more)] = (board.score(player, moved),
                                                              board.tiles, moved)
        ranked = sorted(scored, key=lambda t: (-scored[t][0], t))[:self.width]
        if not ranked and face != "n":
            return self._any_step(board, steps)
        return [(text, scored[text][1], scored[text][2], 0) for text in ranked]

    def _any_step(self, board: Board, steps: int):
        """The first single step any pawn can make, in the engine's order, when no candidate
        uses the steps (the engine offers it first; the actor then has a step fewer left)."""
        step = next(pawn_steps(board.tiles, board.pawns, self.colours), None)
        if step is None:
            return []
        player = next(p for p, c in self.colours.items() if c == step.colour)
        (x, y), (dx, dy) = board.pawns[player], DIRECTIONS[step.direction]
        moved = dict(board.pawns, **{player: (x + dx, y + dy)})
        return [(str(step), board.tiles, moved, steps - 1)]

    @staticmethod
    def _own_walks(board, player, steps):
        """(steps used, pawns after, path, its score) for the own pawn's walks of 0..steps
        steps: for each count the two best by the own pawn's safety (all of them at the full
        count)."""
        for used in range(steps, -1, -1):
            found = placements(board, (player,), used) if used else {(board.pawns[player],): ()}
            walks = sorted((board.score(player, dict(board.pawns, **{player: pos})), path, pos)
                           for (pos,), path in found.items() if path or not used)
            for score, path, pos in (walks if used == steps else walks[-2:]):
                yield used, dict(board.pawns, **{player: pos}), path, score

    def play(self, tiles: Tiles, pawns: Pawns, turns, faces, me) -> float:
        """The seat's value of the rest of the turn, `turns` ((actor, steps left) in order)
        acting with `faces`: each takes its candidate ranked first, the seat its best against
        those after it."""
        for i, (actor, steps) in enumerate(turns):
            options = self.options(tiles, pawns, actor, faces[actor], steps)
            if actor == me and len(options) > 1:
                return max(self.play(t, p, ((actor, left),) * bool(left) + turns[i + 1:], faces, me)
                           for _, t, p, left in options)
            if options:
                _, tiles, pawns, left = options[0]
                if left:
                    return self.play(tiles, pawns, ((actor, left),) + turns[i + 1:], faces, me)
        return self.evaluate(tiles, pawns)[me]

    def evaluate(self, tiles: Tiles, pawns: Pawns) -> dict[str, float]:
        """Each player's value after this turn's actions, in expectation over which tile sinks
        at its end (the chances the seat sees)."""
        now = self.root[0]
        chance = {p: now.get(tiles[pos], 0.0) for p, pos in pawns.items()}
        values = self._judge(tiles, pawns, self.out)
        values = {p: v * (1 - sum(chance.values())) for p, v in values.items()}
        for victim, c in chance.items():
            if c > 0:
                sunk = dict(tiles)
                del sunk[pawns[victim]]
                rest = {p: q for p, q in pawns.items() if p != victim}
                for p, v in self._judge(sunk, rest, self.out + [victim]).items():
                    values[p] += c * v
        return values

    def _judge(self, tiles, pawns, out) -> dict[str, float]:
        """Outlasting the others is what counts, as a chance to win: a player out scores a
        little by how late they went out, the last one afloat 1; those afloat share the win,
        each less the risk that their tile sinks soon, plus a little for free tiles around."""
        n = len(self.players) - 1
        values = {p: 0.3 * out.index(p) / n for p in out}
        if len(pawns) == 1:
            return dict(values, **{p: 1.0 for p in pawns})
        later, third = self.root[1:2] or [{}], self.root[2:3] or [{}]
        occupied = set(pawns.values())
        strength = {}
        for p, pos in pawns.items():
            code = tiles[pos]
            risk = later[0].get(code, 0.0) + 0.4 * third[0].get(code, 0.0)
            exits = Board.free_neighbours(pos, tiles, occupied)
            strength[p] = (1 - 0.5 * min(risk, 1.0)) * (0.8 + 0.05 * min(exits, 4))
        total = sum(strength.values())
        return dict(values, **{p: v / total for p, v in strength.items()})


def turns_of(faces) -> tuple[tuple[str, int], ...]:
    """(actor, steps) in the order they act (the engine's `acting_order`)."""
    return tuple((p, STEP_COUNT.get(faces[p], 0)) for p in acting_order(faces))


# --------------------------------------------------------------------------- a turn played out


class FaceChoice:
    """The seat's face at a table of three or four: the face best against the faces it expects
    of the others, each turn played out from the view (see `best_face`)."""

    def __init__(self, model: TurnModel, view, rng):
        self.model, self.view, self.rng = model, view, rng
        gone = set(view["left"]) | set(view["drowned"]) | set(view["timed_out"])
        self.committing = [p for p in view["players"] if p not in gone]
        self.cache = {}

    def value(self, faces, who) -> float:
        """`who`'s value of the turn with these faces (see `TurnModel.play`)."""
        turns = turns_of(faces)
        key = (who, tuple((p, faces[p]) for p, _ in turns))
        if key not in self.cache:
            model = self.model
            self.cache[key] = model.play(model.tiles, model.pawns, turns, faces, who)
        return self.cache[key]

    def expected(self, player, samples: int) -> list[float]:
        """The faces expected of `player`: those shown so far (the view's log), after the faces
        best for them against `samples` draws of faces at random for everyone else."""
        rest = [p for p in self.committing if p != player]
        draws = [(1.0, {p: self.rng.choice(VALUES) for p in rest}) for _ in range(samples)]
        return gw.expected_faces(gw.shown_faces(self.view, player), self.gains(player, draws))

    def gains(self, player, draws) -> list[float]:
        """`player`'s value of each face on average over `draws`: (weight, everyone else's
        faces)."""
        total = sum(w for w, _ in draws)
        return [sum(w * self.value(dict(d, **{player: f}), player) for w, d in draws) / total
                for f in VALUES]

    def best(self, me, samples: int) -> str:
        """The seat's face: the best in expectation over the faces expected of the others
        (`expected`), every combination of theirs weighed by its chance."""
        expect = {p: self.expected(p, samples) for p in self.committing if p != me}
        gains = self.gains(me, likely_faces(expect))
        top = max(gains)
        return self.rng.choice([f for f, g in zip(VALUES, gains) if g >= top - 1e-9])


def likely_faces(shares, least: float = 1e-4) -> list[tuple[float, dict]]:
    """(chance, {player: face}) of each combination of faces, from each player's `shares`
    (independent); combinations less likely than `least` are left out, as they cost a turn
    played out each for nearly nothing."""
    players = list(shares)
    found = []
    for combo in product(range(len(VALUES)), repeat=len(players)):
        chance = 1.0
        for p, i in zip(players, combo):
            chance *= shares[p][i]
        if chance >= least:
            found.append((chance, {p: VALUES[i] for p, i in zip(players, combo)}))
    return found


def best_face(view, rng, samples: int) -> str:
    """The seat's face (see `FaceChoice.best`)."""
    return FaceChoice(TurnModel(view), view, rng).best(view["viewer"], samples)


def best_action(view, rng) -> str:
    """The seat's action once the faces are shown: its best candidate against the best
    actions of those acting after it (as `TurnModel.play` plays them)."""
    model = TurnModel(view)
    me = view["viewer"]
    reveal = view["reveal"]
    faces, order = reveal["faces"], list(reveal["order"])
    # (a player who left since the reveal has no pawn and is skipped, as the engine skips them)
    later = tuple((p, STEP_COUNT.get(faces[p], 0)) for p in order[order.index(me) + 1:]
                  if p in model.pawns)
    options = model.options(model.tiles, model.pawns, me, faces[me], view["steps_left"] or 0)
    values = [model.play(t, p, ((me, left),) * bool(left) + later, faces, me)
              for _, t, p, left in options]
    return options[max(range(len(options)), key=lambda i: (values[i], -i))][0]
