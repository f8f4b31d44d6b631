"""Global Warming for the search over the seat's information set (computer/search.py), as
the strong player uses it: candidate actions, a quick policy and the judgement of a turn, all
from the public part of a sampled state (the sink chances follow the coins' visible sides,
never the sampled hidden ones)."""

from __future__ import annotations

from engine.piecepack import VALUES

from . import global_warming_board as gw
from .global_warming_board import GAME, LETTER_SUIT, Board, around, placements


class SearchModel:
    """The game as the search sees it (see the module's docstring)."""

    game = GAME
    width = 5   # candidate actions kept per decision

    def __init__(self):
        self._moves, self._chances, self.root = {}, {}, None

    def determinise(self, view, rng):
        if self.root is None:
            self.root = gw.sink_chances(view)   # which tile sinks this turn, the next...
            self.habits = {p: [1] * len(VALUES) for p in view["players"]}
            for event in view["log"]:
                for p, face in (event.get("faces") or {}).items():
                    self.habits[p][VALUES.index(face)] += 1
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

    def guess(self, state, player, rng) -> str | None:
        """Half the time, another player's face as their habits suggest (the faces they have
        shown, as far back as the view's log goes); otherwise the tree's choice for them."""
        if state["data"]["phase"] != "commit" or rng.below(2):
            return None
        weights = self.habits[player]
        pick = rng.below(sum(weights))
        for face, weight in zip(VALUES, weights):
            pick -= weight
            if pick < 0:
                return face

    def policy(self, state, player, rng) -> str:
        if state["data"]["phase"] == "commit":
            return rng.choice(VALUES)
        return self.moves(state, player)[0]

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
