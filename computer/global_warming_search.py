"""Global Warming strong at a table of three or four pawns afloat: each turn played out from
the seat's view. `TurnModel` is the game as it sees a turn: the candidate actions of each
player and the judgement of where a turn leaves the pawns, from the public part of a state
drawn from the view (the sink chances follow the coins' visible sides, never the drawn hidden
ones). `FaceChoice` picks the seat's face against the faces it expects of the others;
`best_action` its action once the faces are shown.

Measured against the benchmark's baseline at four players (benchmarks/README.md): this won
about 47% of games, against 30% for the search over the information set it replaced (decoupled
UCT over everyone's faces, computer/search.py, which Galaxies still uses)."""

from __future__ import annotations

from engine.piecepack import VALUES

from . import global_warming_board as gw
from .global_warming_board import GAME, LETTER_SUIT, Board, around, placements


class TurnModel:
    """The game as the seat's look at a turn sees it (see the module's docstring)."""

    width = 5   # candidate actions kept per decision

    def __init__(self):
        self._moves, self._chances, self.root = {}, {}, None

    def determinise(self, view, rng):
        """A state agreeing with the view, nobody's face chosen yet this turn."""
        if self.root is None:
            self.root = gw.sink_chances(view)   # which tile sinks this turn, the next...
        return gw.determinise(dict(view, committed=[], own_commit=None), rng)

    @staticmethod
    def clock(state) -> int:
        return state["data"]["turn"]

    def board(self, d) -> Board:
        afloat = tuple(sorted(d["tiles"]))
        sides = tuple((side, code[0] if side == "suit" else code[1]) for code, side in d["line"])
        key = (afloat, sides)
        if key not in self._chances:
            visible = [{"side": "suit", "suit": LETTER_SUIT[v]} if side == "suit" else
                       {"side": "value", "value": v} for side, v in sides]
            self._chances[key] = gw._chances(gw._worlds(afloat, visible), len(sides))
        return Board({tuple(p): code for code, p in d["tiles"].items()},
                     {p: tuple(q) for p, q in d["pawns"].items() if q is not None},
                     d["colours"], self._chances[key])

    def moves(self, state, player) -> list[str]:
        d = state["data"]
        if d["phase"] == "commit":
            return list(VALUES)
        key = (tuple(sorted((c, tuple(p)) for c, p in d["tiles"].items())),
               tuple(sorted((p, tuple(q)) for p, q in d["pawns"].items() if q is not None)),
               player, d["steps_left"], tuple(side for _, side in d["line"]))
        if key not in self._moves:
            self._moves[key] = self._candidates(state, player)
        return self._moves[key]

    def _candidates(self, state, player) -> list[str]:
        d = state["data"]
        board = self.board(d)
        scored = {}
        if d["reveal"]["faces"][player] == "n":
            scored["pass"] = board.score(player)
            # Tile moves that matter take a tile from beside a pawn or put one there.
            near = {q for pos in board.pawns.values() for q in around(pos)}
            for text in gw.legal_texts(state, player):
                if text == "pass":
                    continue
                src, dst = (tuple(int(c) for c in part.split(",")) for part in text.split(">"))
                if src in near or dst in near:
                    tiles = dict(board.tiles)
                    tiles[dst] = tiles.pop(src)
                    scored[text] = board.score(player, tiles=tiles)
        else:
            steps = d["steps_left"]
            for own, pawns, path in self._own_walks(board, player, steps):
                if path and own == steps:   # fewer steps would only defer the rest
                    scored[", ".join(path)] = board.score(player, pawns)
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
                            scored[", ".join(path + more)] = board.score(
                                player, dict(pawns, **{other: pos}))
        ranked = sorted(scored, key=lambda t: (-scored[t], t))[:self.width]
        return ranked or [str(a) for a in GAME.legal_actions(state, player)][:1]

    @staticmethod
    def _own_walks(board, player, steps):
        """(steps used, pawns after, path) for the own pawn's walks of 0..steps steps: for
        each count the two best by the own pawn's safety (all of them at the full count)."""
        if player not in board.pawns:
            yield 0, board.pawns, ()
            return
        for used in range(steps, -1, -1):
            found = placements(board, (player,), used) if used else {(board.pawns[player],): ()}
            walks = sorted((board.score(player, dict(board.pawns, **{player: pos})), path, pos)
                           for (pos,), path in found.items() if path or not used)
            for _, path, pos in (walks if used == steps else walks[-2:]):
                yield used, dict(board.pawns, **{player: pos}), path

    def evaluate(self, state) -> dict[str, float]:
        """Each player's value after this turn, in expectation over which tile sinks (the
        chances the seat sees), not only the tile that sank in this sampled world: the pawns
        are put back where the turn's actions left them, before the sink."""
        d = state["data"]
        log = state["log"]
        sink = next((e for e in log if e.get("event") == "sink"), None)
        if sink is None:    # the turn did not end (a player left): judge what is there
            board = self.board(d)
            return self._judge(board.tiles, board.pawns, list(d["out"]), state["players"])
        drowned = [e["player"] for e in log if e.get("event") == "drowned"]
        tiles = {tuple(p): code for code, p in d["tiles"].items()}
        tiles[tuple(sink["pos"])] = sink["tile"]
        pawns = {p: tuple(q) for p, q in d["pawns"].items() if q is not None}
        pawns.update({p: tuple(sink["pos"]) for p in drowned})
        out = [p for p in d["out"] if p not in drowned]
        now = self.root[0]
        chance = {p: now.get(tiles[pos], 0.0) for p, pos in pawns.items()}
        values = self._judge(tiles, pawns, out, state["players"])
        values = {p: v * (1 - sum(chance.values())) for p, v in values.items()}
        for victim, c in chance.items():
            if c > 0:
                sunk = dict(tiles)
                del sunk[pawns[victim]]
                rest = {p: q for p, q in pawns.items() if p != victim}
                for p, v in self._judge(sunk, rest, out + [victim], state["players"]).items():
                    values[p] += c * v
        return values

    def _judge(self, tiles, pawns, out, players) -> dict[str, float]:
        """Outlasting the others is what counts, as a chance to win: a player out scores a
        little by how late they went out, the last one afloat 1; those afloat share the win,
        each less the risk that their tile sinks soon, plus a little for free tiles around."""
        n = len(players) - 1
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


# --------------------------------------------------------------------------- a turn played out


class FaceChoice:
    """The seat's face at a table of three or four: the face best against the faces it expects
    of the others, each played out to the end of the turn (see `best_face`). Nothing hidden
    changes a turn's value (the sink is judged in expectation over what the view shows), so
    one world drawn from the view serves every turn played out."""

    def __init__(self, model: TurnModel, view, rng):
        self.model, self.view, self.rng = model, view, rng
        self.base = model.determinise(view, rng)
        self.turn = model.clock(self.base)
        self.committing = GAME.awaited(self.base)
        self.cache = {}

    def value(self, faces, who) -> float:
        """`who`'s value of the turn with these faces: whoever acts takes the action `moves`
        ranks first for them, `who` its best against those acting after it."""
        counts = {}
        for f in faces.values():
            counts[f] = counts.get(f, 0) + 1
        key = (who, tuple(sorted((p, f) for p, f in faces.items() if counts[f] == 1)))
        if key not in self.cache:
            state = self.base
            for p in self.committing:
                state = GAME.apply(state, p, faces[p])
            self.cache[key] = _turn_value(self.model, state, who, self.turn)
        return self.cache[key]

    def expected(self, player, samples: int) -> list[float]:
        """The faces expected of `player`: those shown so far (the view's log), after the faces
        best for them against faces drawn at random for everyone else."""
        rest = [p for p in self.committing if p != player]
        gains = self.gains(player, [{p: self.rng.choice(VALUES) for p in rest}
                                    for _ in range(samples)])
        return gw.expected_faces(gw.shown_faces(self.view, player), gains)

    def gains(self, player, draws) -> list[float]:
        """`player`'s value of each face on average over `draws` of everyone else's faces."""
        return [sum(self.value(dict(d, **{player: f}), player) for d in draws) / len(draws)
                for f in VALUES]

    def best(self, me, samples: int) -> str:
        """The seat's face: the best on average over `samples` draws of the others' faces from
        `expected`, the same draws for each of its six."""
        others = [p for p in self.committing if p != me]
        expect = {p: self.expected(p, max(1, samples // 3)) for p in others}
        draws = [{p: gw.pick_face(expect[p], self.rng) for p in others} for _ in range(samples)]
        gains = self.gains(me, draws)
        top = max(gains)
        return self.rng.choice([f for f, g in zip(VALUES, gains) if g >= top - 1e-9])


def best_face(view, rng, samples: int) -> str:
    """The seat's face (see `FaceChoice.best`)."""
    return FaceChoice(TurnModel(), view, rng).best(view["viewer"], samples)


def _turn_value(model, state, me, turn) -> float:
    """The seat's value of the turn `turn` from `state` (faces revealed; the turn may be over
    already, when every face cancelled): the others act as `moves` ranks first for them, the
    seat takes its best action against that."""
    while GAME.outcome(state) is None and model.clock(state) == turn:
        actor = GAME.awaited(state)[0]
        options = model.moves(state, actor)
        if actor == me and len(options) > 1:
            return max(_turn_value(model, GAME.apply(state, me, a), me, turn) for a in options)
        state = GAME.apply(state, actor, options[0])
    return model.evaluate(state)[me]


def best_action(view, rng) -> str:
    """The seat's action once the faces are shown: its best candidate against the best
    actions of those acting after it (as `_turn_value` plays them)."""
    model = TurnModel()
    me = view["viewer"]
    base = model.determinise(view, rng)
    turn = model.clock(base)
    options = model.moves(base, me)
    values = [_turn_value(model, GAME.apply(base, me, a), me, turn) for a in options]
    return options[max(range(len(options)), key=lambda i: (values[i], -i))]
