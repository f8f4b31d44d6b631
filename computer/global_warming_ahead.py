"""The next turn, looked at from every placement of the two pawns: what the duel
(global_warming_duel.py) calls the value of a placement once this turn's tile has sunk.

On one island, for every placement of the two pawns at once (a table, not a search): the next
turn's 6x6 game of faces, each pair of faces worked out exactly for the pawns' steps (tile
moves left out: a null face there only stands still), each placement at its end judged exactly
over the tile the next coin may name and by a static guess after that (the chances of the coin
after it, the room each pawn has). The game's value is read cheaply as the middle of what each
side can make sure of with one face: no solving per placement, so a table of a few hundred
placements costs tens of milliseconds.
"""

from __future__ import annotations

from operator import itemgetter

from .global_warming_board import around

STEPS = (1, 2, 3, 4, 5)
ESCAPE = (1.0, 0.75, 0.6, 0.5, 0.5)   # how much of a later risk a pawn with 0..4 exits keeps


class Ahead:
    """{placement (mine, theirs): my chance to win from it at the start of the next turn}, for
    the island `tiles` and the chances `now` (the coin that sinks at the end of that turn) and
    `later` (the coin after it)."""

    def __init__(self, tiles, now, later):
        self.tiles = tiles
        cells = sorted(tiles)
        cfgs = [(a, b) for a in cells for b in cells if a != b]
        index = {c: i for i, c in enumerate(cfgs)}
        self.index = index
        adj = {c: [q for q in around(c) if q in tiles] for c in cells}
        # One step of either pawn onto a free tile; a placement where neither can step stays.
        nbrs = []
        for a, b in cfgs:
            out = [index[(q, b)] for q in adj[a] if q != b]
            out += [index[(a, q)] for q in adj[b] if q != a]
            nbrs.append(out)
        # (each read as a tuple of values: a lone way out twice, none: the placement itself)
        self.steps = [itemgetter(*nb) if len(nb) > 1 else itemgetter(*(nb or [i]) * 2)
                      for i, nb in enumerate(nbrs)]
        # A pawn's later risk, kept in part when it has room to flee (the other pawn's tile
        # is no room), and a little for being hemmed in.
        risk = {}
        for p in cells:
            for free in {len(adj[p]), len(adj[p]) - 1} - {-1}:
                risk[p, free] = (later.get(tiles[p], 0.0) * ESCAPE[free]
                                 + 0.04 * (3 - min(free, 3)))
        leaf = []
        for a, b in cfgs:
            lose, win = now.get(tiles[a], 0.0), now.get(tiles[b], 0.0)
            near = b in adj[a]
            mine, theirs = risk[a, len(adj[a]) - near], risk[b, len(adj[b]) - near]
            guess = min(0.98, max(0.02, 0.5 + 0.3 * (theirs - mine)))
            leaf.append(win + (1.0 - lose - win) * guess)
        self.values = self._solve(leaf)

    def value(self, cfg) -> float | None:
        i = self.index.get(cfg)
        return None if i is None else self.values[i]

    def _layers(self, start, pick):
        """[start, after 1 step, ..., after 5 steps] with each step chosen by `pick`."""
        out = [start]
        for _ in STEPS:
            prev = out[-1]
            out.append([pick(get(prev)) for get in self.steps])
        return out

    def _solve(self, leaf):
        mine = self._layers(leaf, max)     # mine[s][i]: I make s steps from i, then the leaf
        theirs = self._layers(leaf, min)
        # first[s][k]: the earlier actor's k steps against the later one's best s steps
        me_first = {s: self._layers(theirs[s], max) for s in STEPS[:-1]}
        them_first = {s: self._layers(mine[s], min) for s in STEPS[:-1]}
        faces = (0,) + STEPS                 # 0: null, standing still

        def column(f, g):   # my face f (steps; 0 for null) against their g, every placement
            if f == g:
                return leaf
            if g == 0:
                return mine[f]
            if f == 0:
                return theirs[g]
            return me_first[g][f] if f > g else them_first[f][g]   # more steps act earlier
        table = {(f, g): column(f, g) for f in faces for g in faces}
        # What I make sure of with one face, what they make sure of: the middle of the two.
        low = list(map(max, *(map(min, *(table[f, g] for g in faces)) for f in faces)))
        high = list(map(min, *(map(max, *(table[f, g] for f in faces)) for g in faces)))
        return [0.5 * (a + b) for a, b in zip(low, high)]
