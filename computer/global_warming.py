"""Global Warming players. Hidden from every seat: the other side of each line coin, the bag
(order and sides) and, during the commit phase, the faces the others have chosen. The players
read only the view; where they need a full state (to simulate a turn through the engine), a
determinisation samples the hidden part consistently with what the view shows.

easy:   a random die face; with steps, walks its own pawn to the tile least likely to sink;
        with null, passes.
strong: commits by flat Monte Carlo: for each face, the same sampled worlds (the line coins'
        hidden sides, the bag, the others' faces) are played to the end of the turn through the
        engine, with a careful model of the others (each walks its own pawn to safety) and its
        own act policy; the face with the best average survival (plus opponents drowned) wins.
        Acting, it searches the reachable pawn placements (its own pawn with any one other
        pawn, up to the steps it has) and tile moves, scoring them by the exact chance each
        tile sinks at the end of this turn (and the next), computed from the visible coin sides.
"""

from __future__ import annotations

from itertools import product
from typing import Mapping

import engine
from engine import Rng, freeze
from engine.global_warming import ACTION_ORDER, DIRECTIONS, SIDES, STEP_COUNT
from engine.piecepack import SUIT_LETTERS, VALUES

from .base import ComputerPlayer

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
    afloat = sorted(tiles_of(view).values())
    candidates = [[c for c in afloat if _matches(c, side)] for side in view["coin_line"]]
    return [combo for combo in product(*candidates) if len(set(combo)) == len(combo)]


def sink_chances(view) -> list[dict[str, float]]:
    """For each line position, {tile code: chance that coin names it}. Position 0 sinks at the
    end of this turn, position 1 at the end of the next."""
    worlds = line_worlds(view)
    chances = [dict() for _ in view["coin_line"]]
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

    def free_neighbours(self, pos, tiles, occupied) -> int:
        return sum(1 for dx, dy in DIRECTIONS.values()
                   if (pos[0] + dx, pos[1] + dy) in tiles and (pos[0] + dx, pos[1] + dy) not in occupied)

    @staticmethod
    def _free_around(pos, tiles, occupied):
        for dx, dy in DIRECTIONS.values():
            q = (pos[0] + dx, pos[1] + dy)
            if q in tiles and q not in occupied:
                yield q

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


def best_steps(board: Board, me, steps: int, rng: Rng, partners=True) -> str | None:
    """The best steps for `me` as action text, or None when no step of the chosen pawns is
    possible. `partners`: also try moving each other pawn together with its own."""
    if me in board.pawns:
        groups = [(me,)]
        if partners:
            groups += [(me, p) for p in board.pawns if p != me]
    else:  # a pawnless actor (cannot happen while it survives) moves the others
        groups = [(p,) for p in board.pawns]
    best, best_value = None, None
    for movers in groups:
        found = placements(board, movers, steps)
        for config, path in rng.shuffled(sorted(found.items())):
            if not path:
                continue
            pawns = dict(board.pawns)
            pawns.update(zip(movers, config))
            value = board.score(me, pawns)
            if best_value is None or value > best_value:
                best, best_value = path, value
    return ", ".join(best) if best else None


def best_tile_move(board: Board, me, legal: list[str], rng: Rng) -> str:
    """The null action: the tile move (or pass) that scores best for `me`."""
    best, best_value = "pass", board.score(me)
    by_pos = {pos: code for pos, code in board.tiles.items()}
    for text in rng.shuffled(legal):
        if text == "pass":
            continue
        src, dst = (tuple(int(c) for c in part.split(",")) for part in text.split(">"))
        tiles = dict(by_pos)
        tiles[dst] = tiles.pop(src)
        value = board.score(me, tiles=tiles)
        if value > best_value + 1e-9:
            best, best_value = text, value
    return best


def _legal_texts(state, player) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, player)]


# --------------------------------------------------------------------------- players


def _random_walk(board: Board, steps: int, rng: Rng) -> dict:
    """The pawns after `steps` single steps of random pawns (fewer if none can step)."""
    pawns = dict(board.pawns)
    for _ in range(steps):
        occupied = set(pawns.values())
        options = [(p, q) for p, pos in sorted(pawns.items())
                   for q in Board._free_around(pos, board.tiles, occupied)]
        if not options:
            break
        player, q = rng.choice(options)
        pawns[player] = q
    return pawns


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


class EasyGlobalWarming(GlobalWarmingPlayer):
    level = "easy"

    def commit(self, view, rng):
        return rng.choice(VALUES)

    def tile_move(self, board, seat, legal, rng):
        return "pass"

    def steps(self, board, seat, count, rng):
        best, risk = None, None
        for config, path in rng.shuffled(sorted(placements(board, (seat,), count).items())):
            chance = board.now.get(board.tiles[config[0]], 0.0)
            if path and (risk is None or chance < risk):
                best, risk = path, chance
        return ", ".join(best) if best else None


class StrongGlobalWarming(GlobalWarmingPlayer):
    level = "strong"
    samples = 40

    def __init__(self, seed: int = 0, samples: int | None = None):
        super().__init__(seed)
        if samples is not None:
            self.samples = samples

    def tile_move(self, board, seat, legal, rng):
        return best_tile_move(board, seat, legal, rng)

    def steps(self, board, seat, count, rng):
        return best_steps(board, seat, count, rng)

    def commit(self, view, rng):
        """Flat Monte Carlo over the six faces, each tried in the same sampled worlds."""
        me = view["viewer"]
        others = [p for p in pawns_of(view) if p != me and p not in view["timed_out"]]
        chances = sink_chances(view)
        worlds = line_worlds(view)
        board = Board.from_view(view, chances)
        samples = []
        for _ in range(self.samples):
            faces = {p: rng.choice(VALUES) for p in others}
            samples.append((rng.next64(), faces, rng.choice(worlds)))
        totals = {}
        for face in VALUES:
            totals[face] = sum(self._play_turn(board, me, dict(faces, **{me: face}), line, seed)
                               for seed, faces, line in samples)
        best = max(totals.values())
        return rng.choice([f for f in VALUES if totals[f] >= best - 1e-9])

    @staticmethod
    def _play_turn(board: Board, me, faces, line, seed) -> float:
        """The rest of this turn in one sampled world (the others' faces, the line coins'
        tiles), on a light model of the rules: unique faces act in order, each number actor
        walks its own pawn to the safest tile it can reach, a null actor passes; then the
        leftmost coin's tile sinks. Scored for `me`: surviving, opponents drowned, and not
        standing on the tile that sinks next."""
        rng = Rng(seed)
        counts = {}
        for face in faces.values():
            counts[face] = counts.get(face, 0) + 1
        order = sorted((p for p, f in faces.items() if counts[f] == 1),
                       key=lambda p: ACTION_ORDER.index(faces[p]))
        pawns = dict(board.pawns)
        for actor in order:
            if faces[actor] == "n" or actor not in pawns:
                continue
            now = Board(board.tiles, pawns, board.colours, ())
            now.now, now.next, now.third = board.now, board.next, board.third
            if actor != me and rng.coin():
                # The others are modelled half careful, half careless: a careless actor's
                # steps go to any pawns at random (and may push ours).
                pawns = _random_walk(now, STEP_COUNT[faces[actor]], rng)
                continue
            found = placements(now, (actor,), STEP_COUNT[faces[actor]])
            best, best_value = None, None
            for (pos,), path in rng.shuffled(sorted(found.items())):
                trial = dict(pawns, **{actor: pos})
                value = now.score(actor, trial)
                if path and (best_value is None or value > best_value):
                    best, best_value = pos, value
            if best is not None:
                pawns[actor] = best
        sinking = next((pos for pos, code in board.tiles.items() if code == line[0]), None)
        drowned = {p for p, pos in pawns.items() if pos == sinking}
        if me in drowned:
            return 0.0
        value = 1.0 + 0.3 * len(drowned)
        if len(line) > 1 and board.tiles.get(pawns[me]) == line[1]:
            value -= 0.3
        if len(line) > 2 and board.tiles.get(pawns[me]) == line[2]:
            value -= 0.1
        return value


PLAYERS = {"easy": EasyGlobalWarming, "strong": StrongGlobalWarming}
