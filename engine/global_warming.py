"""Global Warming (Mark Biggar, Aron Wall, Gloria Wall): be the last pawn standing on a sinking
island. Every turn all survivors commit a die face in secret; faces chosen twice cancel; the
others act in the order null, 5, 4, 3, 2, ace; then the leftmost coin of the line is turned and
the tile it names sinks.

Positions are integer pairs: x is the column (left to right), y the row (bottom to top); the
dealt island fills x 1..5, y 1..5 with the hole at 3,3. Tiles may later move anywhere, so
coordinates can grow beyond that range or go negative.

Notation (any case): a die face `n`, `a`, `2`..`5` (also `null`, `blank`, `ace`, `1`,
`die 5`); a tile move `2,3>6,3` (also `2,3 to 6,3`, `move 2,3 6,3`, `(2,3)->(6,3)`; a bare
dash is refused, as it could be a minus sign); `pass`; pawn steps `red up` (pawn: colour or
suit; direction: up/down/left/right, u/d/l/r or north/south/east/west), several at once as
`red up, red up, blue left` or `red up up blue left`.

Options (all optional; they fix the deal for tests and replays):
    variant  "standard" (default), "orthogonal" or "diagonal"
    island   five rows, top (y=5) first, of five tile codes with "." for the centre hole:
             ["Sn Sa S2 S3 S4", "S5 Mn Ma M2 M3", "M4 M5 . Cn Ca", ...] (or one string with
             "/" between rows); the variant's moves are made after it
    starts   start tiles: ["Sn", "S4"] in seat order, or {player: "Sn"}; others are random
    coins    the first coins of the bag in draw order, "CODE:side" with the side lying up:
             ["A5:suit", "A4:value", ...]; the first three form the line; coins not named
             follow in random order with random sides

State (`state["data"]`), hidden parts marked *:
    variant          "standard" | "orthogonal" | "diagonal"
    tiles            {tile code: [x, y]} of the tiles still afloat; a code is suit letter +
                     value, e.g. "S3", "Mn", "Ca"
    pawns            {player: [x, y] or None}; colours {player: colour}
    drowned, out     players drowned; players out of play (drowned or left), in order
    bag*, line*      coins as [tile code, side up]; bag in draw order; only the up side of a
                     line coin is public
    sunk             tile codes in the order they sank
    turn, phase      turn number (from 1); "commit" or "act"
    commits*         {player: face} of this turn's commit phase
    timed_out        players who let this turn's commit deadline pass
    reveal           the latest reveal: {turn, faces, cancelled, order, timed_out}
    actor, steps_left  who acts now in the act phase, and their remaining steps

Public log events with positions (the board image marks the latest action from them):
    tile_move  src, dst: [x, y]     steps  paths: {player: [[x, y], ...]} from start to end
    sink       tile, pos: [x, y]    reveal faces, cancelled, order, timed_out
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterator, Mapping

from .core import (
    Continuation,
    Game,
    GameError,
    IllegalAction,
    InvalidAction,
    Outcome,
    Prompt,
    Rng,
    thaw,
)
from .piecepack import SUIT_COLOURS, SUIT_LETTERS, SUITS, VALUES, parse_value, value_name

RULES = """\
**Global Warming** (2-4 players). The island sinks one tile a turn; the last survivor wins.

*A piecepack game by Mark Biggar, Aron Wall and Gloria Wall (version 1.1, © 2003, 2004). \
Their rules in our words; our own rulings are marked as ours.*

**Set-up.** The 24 tiles are dealt face up into a 5x5 island with the centre (3,3) empty. \
Positions are `x,y`: x is the column from the left, y the row from the bottom. Each player \
has a pawn and a die of one colour. Each pawn starts on the tile named by a coin drawn for it; \
those coins go back. Three coins form the line, each with one random side up; nobody (players \
included) sees the other side until it is turned.

**Each turn.**
1. Every survivor chooses a die face in secret: null, ace, 2, 3, 4 or 5. You may change it \
until the last player chooses; then all faces are shown at once.
2. Faces chosen by two or more players cancel: those players do nothing this turn.
3. The others act in the order null, 5, 4, 3, 2, ace.
   - Null: move one tile without a pawn to an empty position sharing an edge with another \
tile (not with itself where it was), e.g. `2,3>6,3`. The island may split or spread \
anywhere. Or `pass`.
   - A number: exactly that many single steps up, down, left or right, shared among any \
pawns (yours or others'), each onto a tile without a pawn, e.g. `red up, red up, blue left` \
(all at once or one by one). Moving away and back is fine.
4. A coin from the bag goes to the right end of the line (while any remain); the leftmost \
coin is turned and the tile it names sinks, wherever it is, with that coin. A pawn on it \
drowns and its player is out.

**End.** The last survivor wins.

**Variants** (the authors'). *Orthogonal* moves the four tiles beside the hole, *diagonal* \
the four tiles at its corners, to just outside the middle of each edge: to 3,6 (top), 6,3 \
(right), 3,0 (bottom) and 0,3 (left). Orthogonal: each tile straight out (3,4 to 3,6, 4,3 to \
6,3, ...); diagonal: clockwise (2,4 to top, 4,4 to right, 4,2 to bottom, 2,2 to left). \
Choose one with `/play options: variant=diagonal`.

**Our rulings** (the authors' text does not say):
- Two or three players may play too (the printed rules say four).
- Seats take colours in order: red (suns), black (moons), green (crowns), blue (arms).
- When no step is possible, the remaining steps are lost; an actor who can do nothing (no \
tile can move, no step possible) is skipped.
- The game always ends: each coin names a different tile and each pawn stands on its own \
tile, so pawns drown one by one, within 24 turns.
- Deadlines: not choosing in time means no action this turn, and you cancel nobody. An actor \
out of time loses the rest of the action.
- A player who resigns leaves; their pawn is taken off (the tile stays) and play goes on.
- Score: how many players went out (drowned or left) before you. The first out scores 0; the \
winner scores one less than the number of players.
"""

# The order in which revealed faces act, and how many steps a number gives.
ACTION_ORDER = ("n", "5", "4", "3", "2", "a")
STEP_COUNT = {"a": 1, "2": 2, "3": 3, "4": 4, "5": 5}
COLOURS = tuple(SUIT_COLOURS[s] for s in SUITS)  # seat order: red, black, green, blue
DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
VARIANTS = ("standard", "orthogonal", "diagonal")
HOLE = (3, 3)
# Variant moves, each to just outside the middle of one edge: (from, to).
VARIANT_MOVES = {
    "standard": (),
    "orthogonal": (((3, 4), (3, 6)), ((4, 3), (6, 3)), ((3, 2), (3, 0)), ((2, 3), (0, 3))),
    "diagonal": (((2, 4), (3, 6)), ((4, 4), (6, 3)), ((4, 2), (3, 0)), ((2, 2), (0, 3))),
}
SIDES = ("suit", "value")

_LETTER_SUIT = {letter: suit for suit, letter in SUIT_LETTERS.items()}
_DIRECTION_WORDS = {
    "up": "up", "u": "up", "north": "up",
    "down": "down", "d": "down", "south": "down",
    "left": "left", "l": "left", "west": "left",
    "right": "right", "r": "right", "east": "right",
}
_PAWN_WORDS = {c: c for c in COLOURS}
for _suit, _colour in SUIT_COLOURS.items():
    _PAWN_WORDS[_suit] = _PAWN_WORDS[_suit[:-1]] = _colour
_PASS_WORDS = {"pass", "decline", "skip", "no move"}
_FILLER_WORDS = {"move", "and", "then"}
_COMMIT_PREFIXES = {"die", "face", "commit", "choose", "play"}
_POS = r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?"
# A separator is required: in "2,3-6,3" the dash could be a minus sign, so it is refused.
_TILE_MOVE_RE = re.compile(rf"(?:move\s+)?{_POS}(?:\s*(?:->|>|\bto\b)\s*|\s+){_POS}")

ALL_TILES = tuple(SUIT_LETTERS[s] + v for s in SUITS for v in VALUES)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Commit:
    """A die face chosen in secret: "n", "a", "2".."5"."""

    face: str

    def __post_init__(self):
        if self.face not in VALUES:
            raise InvalidAction(f"{self.face!r} is not a die face (n, a, 2, 3, 4 or 5).")

    def __str__(self) -> str:
        return self.face


@dataclass(frozen=True)
class TileMove:
    """The null action: move the tile at `src` to the empty position `dst`."""

    src: tuple[int, int]
    dst: tuple[int, int]

    def __post_init__(self):
        for p in (self.src, self.dst):
            if not (isinstance(p, tuple) and len(p) == 2
                    and all(type(c) is int for c in p)):  # bool is an int; not a coordinate
                raise InvalidAction(f"{p!r} is not a position such as 2,3.")

    def __str__(self) -> str:
        return f"{_pos(self.src)}>{_pos(self.dst)}"


@dataclass(frozen=True)
class Pass:
    """The null actor declines to move a tile."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Step:
    """One orthogonal step of the pawn of `colour`."""

    colour: str
    direction: str

    def __post_init__(self):
        if self.colour not in COLOURS or self.direction not in DIRECTIONS:
            raise InvalidAction(f"{self.colour} {self.direction} is not a step such as `red up`.")

    def __str__(self) -> str:
        return f"{self.colour} {self.direction}"


@dataclass(frozen=True)
class Steps:
    """Several steps given at once, applied in order (all or nothing)."""

    steps: tuple[Step, ...]

    def __post_init__(self):
        if not self.steps or not all(isinstance(step, Step) for step in self.steps):
            raise InvalidAction("Give at least one step, such as `red up`.")

    def __str__(self) -> str:
        return ", ".join(str(step) for step in self.steps)


# --------------------------------------------------------------------------- small helpers


def _pos(p) -> str:
    return f"{p[0]},{p[1]}"


def _suit_of(code: str) -> str:
    return _LETTER_SUIT[code[0]]


def tile_name(code: str) -> str:
    return f"the {value_name(code[1])} of {_suit_of(code)}"


def parse_tile(text: str) -> str:
    """'S3', 's3', 'MN', 'Aa' -> canonical tile code (suit letter upper, value as in VALUES)."""
    t = str(text).strip()
    if len(t) == 2 and t[0].upper() in _LETTER_SUIT and t[1].lower() in VALUES:
        return t[0].upper() + t[1].lower()
    raise GameError(f"{text!r} is not a tile: write a suit letter (S, M, C, A) and a value "
                    f"(n, a, 2-5), e.g. S3 or Mn.")


def _neighbours(p) -> Iterator[tuple[int, int]]:
    for dx, dy in DIRECTIONS.values():
        yield (p[0] + dx, p[1] + dy)


def _tile_positions(d: Mapping) -> dict[tuple[int, int], str]:
    return {tuple(p): code for code, p in d["tiles"].items()}


def _pawn_positions(d: Mapping) -> dict[tuple[int, int], str]:
    return {tuple(p): player for player, p in d["pawns"].items() if p is not None}


def _tile_moves(d: Mapping) -> Iterator[TileMove]:
    return tile_moves(_tile_positions(d), _pawn_positions(d))


def tile_moves(tiles, pawns) -> Iterator[TileMove]:
    """The null actor's moves with tiles at the positions `tiles` and pawns at `pawns`: a tile
    without a pawn to an empty position beside another tile."""
    # empty position -> the tiles it shares an edge with
    touching: dict[tuple[int, int], set] = {}
    for p in tiles:
        for q in _neighbours(p):
            if q not in tiles:
                touching.setdefault(q, set()).add(p)
    for src in sorted(tiles):
        if src in pawns:
            continue
        for dst in sorted(touching):
            if touching[dst] - {src}:
                yield TileMove(src, dst)


def _pawn_steps(d: Mapping, pawns: Mapping | None = None) -> Iterator[Step]:
    """The possible steps, with the pawns where they are (or at `pawns`: {player: (x, y)})."""
    return pawn_steps(_tile_positions(d), d["pawns"] if pawns is None else pawns, d["colours"])


def pawn_steps(tiles, pawns: Mapping, colours: Mapping) -> Iterator[Step]:
    """The single steps possible with tiles at the positions `tiles` and the pawns at `pawns`
    ({player: (x, y), or None}): a pawn onto a free tile beside it, in the order of `pawns`."""
    taken = {tuple(p) for p in pawns.values() if p is not None}
    for player, p in pawns.items():
        if p is None:
            continue
        for direction, (dx, dy) in DIRECTIONS.items():
            q = (p[0] + dx, p[1] + dy)
            if q in tiles and q not in taken:
                yield Step(colours[player], direction)


def acting_order(faces: Mapping[str, str]) -> list[str]:
    """Who acts, in order, with these faces shown ({player: face}): equal faces cancel, the
    others act null first, then 5 down to ace."""
    counts = Counter(faces.values())
    return sorted((p for p in faces if counts[faces[p]] == 1),
                  key=lambda p: ACTION_ORDER.index(faces[p]))


def _step_error(d: Mapping, pawns: dict, step: Step) -> str | None:
    """Why `step` is impossible with pawns at `pawns` ({player: (x, y)}), or None."""
    player = next((p for p, c in d["colours"].items() if c == step.colour), None)
    if player is None or pawns.get(player) is None:
        return f"there is no {step.colour} pawn on the island"
    x, y = pawns[player]
    dx, dy = DIRECTIONS[step.direction]
    q = (x + dx, y + dy)
    if q not in _tile_positions(d):
        return f"there is no tile at {_pos(q)}"
    if q in {p for p in pawns.values() if p is not None}:
        return f"{_pos(q)} already has a pawn"
    return None


def _as_steps(action) -> tuple[Step, ...]:
    return action.steps if isinstance(action, Steps) else (action,)


def _steps(count: int) -> str:
    return f"{count} step{'' if count == 1 else 's'}"


def _names(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _paths(d: Mapping, steps: tuple[Step, ...]) -> dict[str, list[tuple[int, int]]]:
    """{player: positions from start to end} of each pawn that the (checked) `steps` move."""
    player_of = {colour: player for player, colour in d["colours"].items()}
    paths: dict[str, list[tuple[int, int]]] = {}
    for step in steps:
        player = player_of[step.colour]
        path = paths.setdefault(player, [tuple(d["pawns"][player])])
        dx, dy = DIRECTIONS[step.direction]
        path.append((path[-1][0] + dx, path[-1][1] + dy))
    return paths


def _steps_text(d: Mapping, steps: tuple[Step, ...]) -> str:
    """The (checked) steps with where each pawn ends: 'black up, up to 3,5, then red left to
    1,2'."""
    at = {d["colours"][p]: tuple(q) for p, q in d["pawns"].items() if q is not None}
    runs: list[list] = []  # [colour, directions, end position] per run of one pawn's steps
    for step in steps:
        dx, dy = DIRECTIONS[step.direction]
        at[step.colour] = (at[step.colour][0] + dx, at[step.colour][1] + dy)
        if runs and runs[-1][0] == step.colour:
            runs[-1][1].append(step.direction)
            runs[-1][2] = at[step.colour]
        else:
            runs.append([step.colour, [step.direction], at[step.colour]])
    return ", then ".join(f"{colour} {', '.join(directions)} to {_pos(end)}"
                          for colour, directions, end in runs)


def _example_step(d: Mapping, player: str) -> str:
    """A step possible now, with the player's own pawn if it can move."""
    steps = list(_pawn_steps(d))
    own = [step for step in steps if step.colour == d["colours"][player]]
    return str((own or steps)[0]) if steps else f"{d['colours'][player]} up"


def _reveal_text(turn: int, faces: Mapping, cancelled: list, order: list) -> str:
    """'🎲 Turn 1: ann null · bob 4 · cat 4. Cancelled: bob and cat (both 4). Order: ann (tile
    move).'"""
    shown = " · ".join(f"{p} {value_name(f)}" for p, f in faces.items()) or "nobody chose"
    by_face: dict[str, list[str]] = {}
    for p in cancelled:
        by_face.setdefault(faces[p], []).append(p)
    cancel = ", ".join(f"{_names(ps)} ({'both' if len(ps) == 2 else 'all'} {value_name(f)})"
                       for f, ps in by_face.items()) or "none"
    acts = " → ".join(f"{p} ({'tile move' if faces[p] == 'n' else _steps(STEP_COUNT[faces[p]])})"
                      for p in order) or "nobody acts"
    return f"🎲 Turn {turn}: {shown}. Cancelled: {cancel}. Order: {acts}."


# --------------------------------------------------------------------------- the game


class GlobalWarming(Game):
    name = "global-warming"
    title = "Global Warming"
    min_players = 2
    max_players = 4
    secret_options = frozenset({"coins"})  # the bag's order and the coins' hidden sides
    rules = RULES

    # ---- set-up ------------------------------------------------------------------------

    def _setup(self, players, rng: Rng, options: dict) -> dict:
        known = {"variant", "island", "starts", "coins"}
        unknown = set(options) - known
        if unknown:
            raise GameError(f"Unknown option{'s' if len(unknown) > 1 else ''} for {self.title}: "
                            f"{', '.join(sorted(unknown))}.")
        variant = str(options.get("variant") or "standard").strip().lower()
        if variant not in VARIANTS:
            raise GameError(f"Unknown variant {options.get('variant')!r}: choose one of "
                            f"{', '.join(VARIANTS)}.")

        grid = _island_option(options["island"]) if options.get("island") is not None \
            else _random_island(rng)
        for src, dst in VARIANT_MOVES[variant]:
            grid[dst] = grid.pop(src)
        tiles = {code: list(p) for p, code in sorted(grid.items())}

        starts = _starts_option(options.get("starts"), players)
        free = [c for c in rng.shuffled(ALL_TILES) if c not in starts.values()]
        for player in players:
            if player not in starts:
                starts[player] = free.pop()

        coins = _coins_option(options.get("coins"))
        named = {code for code, _ in coins}
        for code in rng.shuffled(ALL_TILES):
            if code not in named:
                coins.append([code, SIDES[rng.below(2)]])

        return {
            "variant": variant,
            "tiles": tiles,
            "pawns": {p: list(tiles[starts[p]]) for p in players},
            "colours": {p: COLOURS[i] for i, p in enumerate(players)},
            "drowned": [],
            "out": [],
            "bag": coins[3:],
            "line": coins[:3],
            "sunk": [],
            "turn": 1,
            "phase": "commit",
            "commits": {},
            "timed_out": [],
            "reveal": None,
            "actor": None,
            "steps_left": None,
        }

    # ---- whose turn ----------------------------------------------------------------------

    def _active(self, s: Mapping) -> list[str]:
        return [p for p in super()._active(s) if p not in s["data"]["drowned"]]

    def _to_act(self, state):
        d = state["data"]
        if d["phase"] == "commit":
            return [p for p in self._active(state) if p not in d["timed_out"]]
        return [d["actor"]] if d["actor"] is not None else []

    def _awaited(self, state):
        d = state["data"]
        if d["phase"] == "commit":
            return [p for p in self._active(state)
                    if p not in d["commits"] and p not in d["timed_out"]]
        return self._to_act(state)

    def _legal_actions(self, state, player):
        d = state["data"]
        if d["phase"] == "commit":
            return [Commit(face) for face in VALUES]
        if d["reveal"]["faces"][player] == "n":
            return [*_tile_moves(d), Pass()]
        return list(_pawn_steps(d))

    # ---- reading and checking moves ------------------------------------------------------

    def _parse(self, state, player, text):
        t = " ".join(text.lower().split())
        if t in _PASS_WORDS:
            return Pass()
        m = _TILE_MOVE_RE.fullmatch(t)
        if m:
            x1, y1, x2, y2 = (int(g) for g in m.groups())
            return TileMove((x1, y1), (x2, y2))
        words = [w for w in re.split(r"[\s,;]+", t) if w and w not in _FILLER_WORDS]
        if len(words) == 2 and words[0] in _COMMIT_PREFIXES:
            return Commit(parse_value(words[1]))
        if len(words) == 1 and words[0] not in _PAWN_WORDS and words[0] not in _DIRECTION_WORDS:
            try:
                return Commit(parse_value(words[0]))
            except InvalidAction:
                pass
        if any(w in _PAWN_WORDS or w in _DIRECTION_WORDS for w in words):
            return _parse_steps(words)
        raise InvalidAction(
            f"I can't read {text!r}. Examples: a die face `5` or `n`; a tile move `2,3>6,3`; "
            f"`pass`; pawn steps `red up, red up, blue left`.")

    def _check(self, state, player, action) -> None:
        d = state["data"]
        if d["phase"] == "commit":
            if not isinstance(action, Commit):
                raise IllegalAction("First choose a die face in secret: n, a, 2, 3, 4 or 5.")
            return
        face = d["reveal"]["faces"][player]
        if isinstance(action, Commit):
            raise IllegalAction("The faces have been shown already; now it is time to act.")
        if face == "n":
            if isinstance(action, Pass):
                return
            if not isinstance(action, TileMove):
                raise IllegalAction("You chose null: move a tile (e.g. `2,3>6,3`) or `pass`.")
            self._check_tile_move(d, action)
            return
        if not isinstance(action, (Step, Steps)):
            raise IllegalAction(f"You chose {value_name(face)}: make "
                                f"{_steps(d['steps_left'])} with any pawns, e.g. "
                                f"`{_example_step(d, player)}`.")
        self._walk(d, _as_steps(action))

    @staticmethod
    def _check_tile_move(d: Mapping, move: TileMove) -> None:
        tiles = _tile_positions(d)
        if move.src not in tiles:
            raise IllegalAction(f"There is no tile at {_pos(move.src)}.")
        if move.src in _pawn_positions(d):
            raise IllegalAction(f"The tile at {_pos(move.src)} has a pawn on it; move a tile "
                                f"without a pawn.")
        if move.dst == move.src:
            raise IllegalAction("Move the tile to another position.")
        if move.dst in tiles:
            raise IllegalAction(f"There is already a tile at {_pos(move.dst)}.")
        if not any(q in tiles and q != move.src for q in _neighbours(move.dst)):
            raise IllegalAction(f"{_pos(move.dst)} must share an edge with another tile of "
                                f"the island.")

    @staticmethod
    def _walk(d: Mapping, steps: tuple[Step, ...]) -> dict:
        """The pawn positions after `steps`, or IllegalAction naming the first bad step."""
        if len(steps) > d["steps_left"]:
            raise IllegalAction(f"You have only {_steps(d['steps_left'])} left; you gave "
                                f"{len(steps)}.")
        pawns = {p: (tuple(q) if q is not None else None) for p, q in d["pawns"].items()}
        for i, step in enumerate(steps):
            error = _step_error(d, pawns, step)
            if error:
                where = f"Step {i + 1} ({step})" if len(steps) > 1 else f"{step}"
                raise IllegalAction(f"{where}: {error}. Nothing was moved.")
            player = next(p for p, c in d["colours"].items() if c == step.colour)
            dx, dy = DIRECTIONS[step.direction]
            pawns[player] = (pawns[player][0] + dx, pawns[player][1] + dy)
        return pawns

    def _continuations(self, state, player, head):
        """Further steps after the steps typed so far: from the pawns where those steps put
        them, within the actor's steps (never past the end of the turn)."""
        d = state["data"]
        if d["phase"] != "act" or d["steps_left"] is None:
            return None
        action = self._parse(state, player, head)
        if not isinstance(action, (Step, Steps)):
            return None
        steps = _as_steps(action)
        pawns = self._walk(d, steps)
        more = d["steps_left"] > len(steps)
        parts = tuple(str(step) for step in _pawn_steps(d, pawns)) if more else ()
        return Continuation(str(action), parts, complete=True)

    # ---- applying moves ------------------------------------------------------------------

    def _apply(self, s, player, action, rng) -> None:
        d = s["data"]
        if isinstance(action, Commit):
            # No log line: the log is public, and the bot shows who has chosen by itself.
            d["commits"][player] = action.face
            if self._all_chosen(s):
                self._reveal(s)
        elif isinstance(action, Pass):
            self._log(s, f"{self._who(s, player)} declines to move a tile.", event="pass",
                      player=player)
            self._next_actor(s)
        elif isinstance(action, TileMove):
            code = _tile_positions(d)[action.src]
            d["tiles"][code] = list(action.dst)
            self._log(s, f"{self._who(s, player)} moves {tile_name(code)} from "
                         f"{_pos(action.src)} to {_pos(action.dst)}.",
                      event="tile_move", player=player, move=str(action),
                      src=list(action.src), dst=list(action.dst))
            self._next_actor(s)
        else:
            steps = _as_steps(action)
            moved = _steps_text(d, steps)
            paths = _paths(d, steps)
            for p, path in paths.items():
                d["pawns"][p] = list(path[-1])
            d["steps_left"] -= len(steps)
            left = d["steps_left"]
            self._log(s, f"{self._who(s, player)} moves {moved}"
                         + (f"; {_steps(left)} left." if left else "."),
                      event="steps", player=player, move=str(action),
                      paths={p: [list(q) for q in path] for p, path in paths.items()})
            self._settle(s)

    def _all_chosen(self, s) -> bool:
        d = s["data"]
        return all(p in d["commits"] or p in d["timed_out"] for p in self._active(s))

    def _reveal(self, s) -> None:
        d = s["data"]
        active = self._active(s)
        faces = {p: d["commits"][p] for p in active if p in d["commits"]}
        order = acting_order(faces)
        cancelled = [p for p in faces if p not in order]
        timed_out = [p for p in active if p in d["timed_out"]]
        d["reveal"] = {"turn": d["turn"], "faces": faces, "cancelled": cancelled,
                       "order": order, "timed_out": timed_out}
        d["commits"], d["timed_out"] = {}, []
        d["phase"], d["actor"], d["steps_left"] = "act", None, None
        self._log(s, _reveal_text(d["turn"], faces, cancelled, order), event="reveal",
                  faces=faces, cancelled=cancelled, order=order, timed_out=timed_out)
        self._next_actor(s)

    def _next_actor(self, s) -> None:
        """Hand the act phase to the next actor who can do something; end the turn after the
        last one."""
        d = s["data"]
        order = d["reveal"]["order"]
        start = 0 if d["actor"] is None else order.index(d["actor"]) + 1
        d["actor"], d["steps_left"] = None, None
        active = self._active(s)
        for player in order[start:]:
            if player not in active:
                continue
            face = d["reveal"]["faces"][player]
            if face == "n":
                if next(_tile_moves(d), None) is None:
                    self._log(s, f"{self._who(s, player)} has no tile that can move.",
                              event="skip", player=player)
                    continue
            elif next(_pawn_steps(d), None) is None:
                self._log(s, f"{self._who(s, player)} can make no step: "
                             f"{_steps(STEP_COUNT[face])} lost.", event="skip", player=player)
                continue
            else:
                d["steps_left"] = STEP_COUNT[face]
            d["actor"] = player
            return
        self._end_turn(s)

    def _settle(self, s) -> None:
        """After steps, or a pawn leaving: end the action when nothing more can happen. (Steps
        alone never block the next step: a pawn's piece of island keeps its free tile. A pawn
        taken off can leave the actor with nothing to move.)"""
        d = s["data"]
        if d["phase"] != "act" or d["actor"] is None or d["steps_left"] is None:
            return
        if d["steps_left"] > 0 and next(_pawn_steps(d), None) is None:
            self._log(s, f"No step is possible: {self._who(s, d['actor'])} loses "
                         f"{_steps(d['steps_left'])}.", event="steps_lost", player=d["actor"])
            d["steps_left"] = 0
        if d["steps_left"] == 0:
            self._next_actor(s)

    def _end_turn(self, s) -> None:
        d = s["data"]
        if d["bag"]:
            coin = d["bag"].pop(0)
            d["line"].append(coin)
            self._log(s, f"A coin joins the line showing {_coin_face_text(coin)}.",
                      event="draw")
        # Each afloat tile has its coin in the bag or the line, and two or more survivors
        # stand on two or more tiles, so the line is never empty here.
        code, _ = d["line"].pop(0)
        where = d["tiles"].pop(code)
        d["sunk"].append(code)
        self._log(s, f"The leftmost coin is turned: {tile_name(code)} at {_pos(where)} sinks.",
                  event="sink", tile=code, pos=list(where))
        for player, p in d["pawns"].items():
            if p == where:
                d["pawns"][player] = None
                d["drowned"].append(player)
                d["out"].append(player)
                self._log(s, f"{self._who(s, player)} drowns.", event="drowned", player=player)
        d["actor"], d["steps_left"] = None, None
        survivors = self._active(s)
        if len(survivors) == 1:
            self._log(s, f"{self._who(s, survivors[0])} is the last survivor.", event="end")
        if len(survivors) > 1:
            d["turn"] += 1
            d["phase"] = "commit"

    # ---- what a player cannot see ----------------------------------------------------------

    def _resample_hidden(self, s, viewer, rng) -> None:
        """Others' die faces in a commit phase (who has chosen is public), and the coins: the
        hidden side of each coin in the line, the bag's order and sides."""
        d = s["data"]
        for player in d["commits"]:
            if player != viewer:
                d["commits"][player] = rng.choice(VALUES)
        pool = [code for code, _ in d["line"]] + [code for code, _ in d["bag"]]
        for _ in range(50):   # a random matching of the line's coins to fitting tiles
            free = rng.shuffled(pool)
            line = []
            for code, side in d["line"]:
                shown = _visible_side([code, side])
                fits = [c for c in free if _visible_side([c, side]) == shown]
                if not fits:
                    break
                pick = rng.choice(fits)
                free.remove(pick)
                line.append([pick, side])
            else:
                d["line"] = line
                d["bag"] = [[code, SIDES[rng.below(2)]] for code in free]
                return

    # ---- leaving and deadlines -----------------------------------------------------------

    def _drop_player(self, s, player, reason) -> None:
        d = s["data"]
        if player in d["drowned"]:
            return
        d["pawns"][player] = None
        d["out"].append(player)
        if d["phase"] == "commit":
            d["commits"].pop(player, None)
            if player in d["timed_out"]:
                d["timed_out"].remove(player)
            if self._all_chosen(s):
                self._reveal(s)
        elif d["actor"] == player:
            self._next_actor(s)
        else:
            self._settle(s)  # the pawn that left may have been the only one able to step

    def _on_timeout(self, s, player, rng) -> None:
        d = s["data"]
        if d["phase"] == "commit":
            if player in self._active(s) and player not in d["commits"] \
                    and player not in d["timed_out"]:
                d["timed_out"].append(player)
                self._log(s, f"{self._who(s, player)} did not choose in time and takes no "
                             f"action this turn.", event="timeout", player=player)
                if self._all_chosen(s):
                    self._reveal(s)
        elif d["actor"] == player:
            self._log(s, f"{self._who(s, player)} ran out of time and loses the rest of "
                         f"the action.", event="timeout", player=player)
            self._next_actor(s)

    # ---- results and views ---------------------------------------------------------------

    def _result(self, state):
        survivors = self._active(state)
        if len(survivors) == 1:
            return Outcome((survivors[0],), f"{survivors[0]} is the last survivor")
        if not survivors:
            return Outcome((), "nobody survived")
        return None

    def _scores(self, state):
        """Players outlasted: for those out, how many went out (drowned or left) before them;
        for survivors, everyone out so far. The winner ends with one less than the players."""
        d = state["data"]
        out = list(d["out"])
        active = self._active(state)
        gone = len(state["players"]) - len(active)
        return {p: (out.index(p) if p in out else gone if p in active else len(out))
                for p in state["players"]}

    def _view(self, state, viewer):
        d = state["data"]
        commit_phase = d["phase"] == "commit"
        return {
            "variant": d["variant"],
            "island": [{"x": p[0], "y": p[1], "suit": _suit_of(code), "value": code[1]}
                       for p, code in sorted(_tile_positions(d).items(),
                                             key=lambda item: (-item[0][1], item[0][0]))],
            "pawns": {p: ({"x": q[0], "y": q[1]} if q is not None else None)
                      for p, q in d["pawns"].items()},
            "colours": thaw(d["colours"]),
            "drowned": list(d["drowned"]),
            "coin_line": [_visible_side(coin) for coin in d["line"]],
            "sunk": [{"suit": _suit_of(code), "value": code[1]} for code in d["sunk"]],
            "bag_count": len(d["bag"]),
            "phase": d["phase"],
            "turn": d["turn"],
            "committed": [p for p in state["players"] if p in d["commits"]]
            if commit_phase else [],
            "timed_out": list(d["timed_out"]),
            "reveal": thaw(d["reveal"]),
            "actor": d["actor"],
            "steps_left": d["steps_left"],
            "own_commit": d["commits"].get(viewer) if commit_phase and viewer else None,
        }

    def _prompt(self, state, player):
        d = state["data"]
        if d["phase"] == "commit":
            if player in d["commits"]:
                # Only this player is shown their prompt: their own choice is no secret to them.
                return Prompt(player, "secret", f"Your choice: {value_name(d['commits'][player])}; "
                                                f"you may change it until everyone has chosen.")
            return Prompt(player, "secret", "Choose a die face: n (null), a (ace), 2, 3, 4 "
                                            "or 5.")
        face = d["reveal"]["faces"][player]
        if face == "n":
            move = next(_tile_moves(d), None)
            example = f" (e.g. {move})" if move else ""
            return Prompt(player, "public", f"Null: move a tile without a pawn next to another "
                                            f"tile{example}, or pass.")
        left = d["steps_left"]
        example = _example_step(d, player)
        if left == STEP_COUNT[face]:
            how = ", one by one or all at once" if left > 1 else ""
            return Prompt(player, "public", f"Make {_steps(left)} with any pawns{how} "
                                            f"(e.g. {example}).")
        return Prompt(player, "public", f"{_steps(left)} left (e.g. {example}).")

    @staticmethod
    def _who(s, player) -> str:
        return f"{player} ({s['data']['colours'][player]})"


# --------------------------------------------------------------------------- parsing helpers


def _parse_steps(words: list[str]) -> Step | Steps:
    steps, colour = [], None
    for w in words:
        if w in _PAWN_WORDS:
            colour = _PAWN_WORDS[w]
        elif w in _DIRECTION_WORDS:
            if colour is None:
                raise InvalidAction("Name the pawn before the direction, e.g. `red up`.")
            steps.append(Step(colour, _DIRECTION_WORDS[w]))
        else:
            raise InvalidAction(f"{w!r} is neither a pawn colour (red, black, green, blue) nor "
                                f"a direction (up, down, left, right).")
    if not steps:
        raise InvalidAction("Say which way the pawn steps, e.g. `red up`.")
    return steps[0] if len(steps) == 1 else Steps(tuple(steps))


def _coin_face_text(coin) -> str:
    code, side = coin
    return _suit_of(code) if side == "suit" else value_name(code[1])


def _visible_side(coin) -> dict:
    code, side = coin
    if side == "suit":
        return {"side": "suit", "suit": _suit_of(code)}
    return {"side": "value", "value": code[1]}


def _random_island(rng: Rng) -> dict[tuple[int, int], str]:
    cells = [(x, y) for y in range(5, 0, -1) for x in range(1, 6) if (x, y) != HOLE]
    return dict(zip(cells, rng.shuffled(ALL_TILES)))


def _island_option(rows) -> dict[tuple[int, int], str]:
    """Five rows, top (y=5) first, each five tile codes (a list, or one string separated by
    spaces) with "." for the hole at the centre; or one string with rows separated by "/"."""
    if isinstance(rows, str):
        rows = rows.split("/")
    if not isinstance(rows, (list, tuple)) or len(rows) != 5:
        raise GameError("The island option needs five rows of five tiles, top row first.")
    grid = {}
    for i, row in enumerate(rows):
        cells = row.split() if isinstance(row, str) else list(row)
        if len(cells) != 5:
            raise GameError(f"Row {i + 1} of the island needs five entries, not {len(cells)}.")
        for x, cell in enumerate(cells, start=1):
            pos = (x, 5 - i)
            if str(cell).strip() == ".":
                if pos != HOLE:
                    raise GameError("The hole ('.') must be in the centre of the island.")
                continue
            if pos == HOLE:
                raise GameError("The centre of the island must be the hole ('.').")
            grid[pos] = parse_tile(cell)
    if sorted(grid.values()) != sorted(ALL_TILES):
        raise GameError("The island must hold each of the 24 tiles exactly once.")
    return grid


def _starts_option(starts, players) -> dict[str, str]:
    """{player id (or int seat index): tile code}, or a list of codes in seat order; players
    not named start on tiles drawn at random from the rest."""
    if starts is None:
        return {}
    if isinstance(starts, (list, tuple)):
        if len(starts) > len(players):
            raise GameError("More start tiles than players.")
        starts = dict(enumerate(starts))
    if not isinstance(starts, Mapping):
        raise GameError("The starts option is a list of tile codes or a mapping player -> tile.")
    chosen = {}
    for key, code in starts.items():
        if key in players:
            player = key
        elif isinstance(key, int) and 0 <= key < len(players):
            player = players[key]
        else:
            raise GameError(f"{key!r} is not a player of this game.")
        chosen[player] = parse_tile(code)
    if len(set(chosen.values())) != len(chosen):
        raise GameError("Each pawn needs its own start tile.")
    return chosen


def _coins_option(coins) -> list[list[str]]:
    """The first coins of the bag in draw order as "CODE:side" (side `suit` or `value`: the
    side lying up). The first three form the starting line. Coins not named follow in random
    order with random sides."""
    if coins is None:
        return []
    if isinstance(coins, str) or not isinstance(coins, (list, tuple)):
        raise GameError('The coins option is a list like ["S3:suit", "M4:value"].')
    result = []
    for item in coins:
        code, sep, side = str(item).partition(":")
        side = side.strip().lower()
        if not sep or side not in SIDES:
            raise GameError(f"{item!r}: write a coin as CODE:suit or CODE:value, e.g. S3:suit.")
        result.append([parse_tile(code), side])
    if len({code for code, _ in result}) != len(result):
        raise GameError("Each coin can be drawn only once.")
    return result


GAME = GlobalWarming()
