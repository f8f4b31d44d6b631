"""A Game Played by Galaxies (James Wood): two black holes fall toward each other along the
collision path, dragging their systems with them; each turn both players draw a path card, play
one card in secret, and resolve them in the order System, Form, Merge, Shift.

Geometry (RULINGS.md): an unbounded square grid of cells `x,y`. `players[0]` (A) has the hole at
0,0 and the path cards on 1,0 .. 6,0 (drawn in that order); `players[1]` (B) has the hole at
13,0 and the path cards on 12,0 .. 7,0. Each turn both holes step one cell toward the centre.

Notation (any case): commit a card `system`, `form`, `merge`, `shift` (also `play merge`);
resolve with `x,y` (System, Form), `x,y>x,y` (Merge, Shift; also `x,y to x,y`, `x,y->x,y`,
`x,y x,y`) or `pass`.

Options:
    paths   ["FMSSMF", "MFSFMS"]: A's and B's face-down cards in draw order (F form, M merge,
            S shift; two of each). It fixes hidden information, so the bot never takes it.

State (`state["data"]`), hidden parts marked *:
    holes        {player: [x, y]}
    path*        {player: [kind, ...]} cards still face down, in draw order
    hands*       {player: [kind, ...]} sorted in card order
    stacks       [[x, y, [owner, ...]], ...] sorted by position; one owner per system
    turn, phase  1..6; "commit", "resolve" or "over"
    commits*     {player: kind} of this turn's commit phase
    timed_out    players who let this turn's commit deadline pass
    reveal       {turn, cards: {player: kind}, order: [player, ...], toss: bool}
    actor        who resolves now; queue: who resolves after them
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Mapping

from .core import (Game, GameError, IllegalAction, InvalidAction, Outcome, Prompt, Rng, freeze,
                   thaw)

RULES = """\
**A Game Played by Galaxies** (2 players), a game by James Wood (@jctwood), made for \
Imaginary Reviews. Two galaxies fall into each other; keep the most star systems close to your \
black hole when they meet. (The rules below are the designer's, in our words; the points \
marked *ours* are how this bot settles what the printed rules leave open.)

**Set-up.** Each player has a hand of 4 System cards and 6 action cards (2 Form, 2 Merge, \
2 Shift) shuffled face down in a row: the collision path, with the two black holes at its \
ends. *Ours*, in numbers: cells are `x,y` on an endless grid (x to the right, y up; negative \
numbers are fine). The first player (red) has the hole at 0,0 and their cards on 1,0 to 6,0; \
the second (blue) the hole at 13,0 and their cards on 12,0 down to 7,0.

**Each turn (six turns).**
1. Both black holes step one cell toward the centre at once, and each player takes the card \
they step onto into their hand (you only ever draw your own six cards).
   - Every system in the 3x3 block around a hole moves one cell with it.
   - A system on the cell the hole steps onto is discarded.
   - A moving system that lands on a system that stayed put merges with it into one stack.
   - On the sixth step the holes end side by side; systems that would land on the same cell \
are destroyed instead of merging.
2. Both players choose one card from their hand in secret; you may change it until both have \
chosen. Then both cards are shown together.
3. The cards resolve in the order **System, Form, Merge, Shift**. Two cards of the same kind: a \
coin toss (announced in the thread) says whose goes first. Each player picks the target when \
their card resolves, seeing what happened before.
   - **System** `x,y`: place that system on an empty cell next to your own hole (empty: no \
system and no black hole).
   - **Form** `x,y`: place a System card from your hand on any empty cell. *Ours:* "any cell" \
means any cell from column -1 to 14 and row -2 to 2 (the area around the collision path).
   - **Merge** `x,y>x,y`: move one stack onto another stack anywhere; from then on they count, \
move and merge as one.
   - **Shift** `x,y>x,y`: move one stack to an empty cell next to it (diagonals too).
   - `pass` declines the effect; *ours:* you may always pass when your card resolves. A card \
that can do nothing (a Form without a System in hand, a Shift with no stack able to move, ...) \
is simply spent and its owner is not asked. Played cards are discarded.
Systems may lie on cells that still hold a face-down path card.

**End.** After the sixth turn's cards (the "one more card" after the last draw), each player \
scores one point for every system in the 3x3 block around their own hole; every system in a \
stack counts, and a system next to both holes scores for both. Higher score wins; a tie is a \
draw (the designer says: play another game!).

**Hidden.** Your hand is yours: the other player sees only how many cards you hold. Nobody \
sees the order of the face-down path cards. Played cards are public once shown.

**Deadlines** (*ours*). Not choosing a card in time: you play no card this turn (your cards stay \
in your hand) and the other card resolves alone. Not giving a target in time: your effect is \
declined and the card is spent. Resigning ends the game; the other player wins.

**The board picture.** The grid shows coordinates on every edge. Each black hole is a dark \
disc ringed in its player's colour, with its scoring 3x3 outlined (dashed) in that colour; \
the current scores sit in badges of those colours above the grid, over each hole's column. \
Face-down path cards are the card backs on row 0. A stack of systems is a star with a \
number: how many systems it holds; an orange ring marks where the latest card put or moved \
one. At the top: the turn (1 to 6), each player's score and hand size (✔ once they have \
chosen); below the grid, after a reveal, the two cards played in the order they resolve. \
Your private copy (in your DMs) also shows your hand.
"""

KINDS = ("system", "form", "merge", "shift")   # also the resolution order
ACTION_LETTERS = {"F": "form", "M": "merge", "S": "shift"}
CARD_NAMES = {kind: kind.capitalize() for kind in KINDS}
TURNS = 6
START_HOLES = ((0, 0), (13, 0))
# Where a Form may place a system (our ruling on "anywhere" of the unbounded grid).
FORM_AREA = ((-1, 14), (-2, 2))  # (x from, x to), (y from, y to)
COLOURS = ("red", "blue")         # seat order: the players' colours on the board

_POS = r"\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?"
_POS_RE = re.compile(_POS)
_MOVE_RE = re.compile(rf"{_POS}(?:\s*(?:->|>|\bto\b)\s*|\s+){_POS}")
_PASS_WORDS = {"pass", "decline", "skip"}


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Play:
    """A card committed in secret."""

    kind: str

    def __post_init__(self):
        if self.kind not in KINDS:
            raise InvalidAction(f"{self.kind!r} is not a card: system, form, merge or shift.")

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True)
class Place:
    """System or Form: where the system goes."""

    cell: tuple[int, int]

    def __str__(self) -> str:
        return _pos(self.cell)


@dataclass(frozen=True)
class Move:
    """Merge or Shift: the stack at `src` goes to `dst`."""

    src: tuple[int, int]
    dst: tuple[int, int]

    def __str__(self) -> str:
        return f"{_pos(self.src)}>{_pos(self.dst)}"


@dataclass(frozen=True)
class Pass:
    """The owner declines the effect of their card."""

    def __str__(self) -> str:
        return "pass"


# --------------------------------------------------------------------------- helpers


def _pos(p) -> str:
    return f"{p[0]},{p[1]}"


def _around(p) -> Iterator[tuple[int, int]]:
    """The 8 cells adjacent to `p`."""
    for dy in (1, 0, -1):
        for dx in (-1, 0, 1):
            if dx or dy:
                yield (p[0] + dx, p[1] + dy)


def _near(p, q) -> bool:
    """Whether q lies in the 3x3 block around p."""
    return abs(p[0] - q[0]) <= 1 and abs(p[1] - q[1]) <= 1


def _stacks(d: Mapping) -> dict[tuple[int, int], list[str]]:
    return {(x, y): list(owners) for x, y, owners in d["stacks"]}


def _store_stacks(d: dict, stacks: Mapping) -> None:
    d["stacks"] = [[x, y, list(owners)] for (x, y), owners in sorted(stacks.items())]


def _holes(d: Mapping) -> dict[str, tuple[int, int]]:
    return {p: tuple(h) for p, h in d["holes"].items()}


def _direction(state: Mapping, player: str) -> int:
    return 1 if player == state["players"][0] else -1


def _sort_hand(hand) -> list[str]:
    return sorted(hand, key=KINDS.index)


def _systems(n: int) -> str:
    return f"{n} system{'' if n == 1 else 's'}"


def targets(d: Mapping, player: str, kind: str) -> list:
    """The effects `player`'s card of `kind` can have now (without `pass`)."""
    stacks = _stacks(d)
    holes = _holes(d)
    blocked = set(stacks) | set(holes.values())
    if kind == "system":
        return [Place(c) for c in sorted(_around(holes[player])) if c not in blocked]
    if kind == "form":
        if "system" not in d["hands"][player]:
            return []
        (x0, x1), (y0, y1) = FORM_AREA
        return [Place((x, y)) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
                if (x, y) not in blocked]
    if kind == "merge":
        return [Move(a, b) for a in sorted(stacks) for b in sorted(stacks) if a != b]
    return [Move(a, b) for a in sorted(stacks) for b in sorted(_around(a)) if b not in blocked]


def parse_paths(paths) -> list[list[str]]:
    """The `paths` option: two strings of six letters F/M/S, two of each."""
    if not isinstance(paths, (list, tuple)) or len(paths) != 2:
        raise GameError('The paths option is two strings such as ["FMSSMF", "MFSFMS"].')
    result = []
    for text in paths:
        letters = str(text).strip().upper()
        if sorted(letters) != sorted("FFMMSS"):
            raise GameError(f"{text!r}: each path holds two F (form), two M (merge) and two S "
                            f"(shift), six letters in all.")
        result.append([ACTION_LETTERS[c] for c in letters])
    return result


# --------------------------------------------------------------------------- the game


class Galaxies(Game):
    name = "galaxies"
    title = "A Game Played by Galaxies"
    min_players = max_players = 2
    secret_options = frozenset({"paths"})
    rules = RULES

    # ---- set-up ------------------------------------------------------------------------

    def _setup(self, players, rng: Rng, options: dict) -> dict:
        unknown = set(options) - {"paths"}
        if unknown:
            raise GameError(f"Unknown option{'s' if len(unknown) > 1 else ''} for {self.title}: "
                            f"{', '.join(sorted(unknown))}.")
        if options.get("paths") is not None:
            paths = parse_paths(options["paths"])
        else:
            paths = [rng.shuffled(["form", "form", "merge", "merge", "shift", "shift"])
                     for _ in players]
        return {
            "holes": {p: list(START_HOLES[i]) for i, p in enumerate(players)},
            "path": {p: paths[i] for i, p in enumerate(players)},
            "hands": {p: ["system"] * 4 for p in players},
            "stacks": [],
            "turn": 0,
            "phase": "commit",
            "commits": {},
            "timed_out": [],
            "reveal": None,
            "actor": None,
            "queue": [],
        }

    def new_game(self, players, seed=0, options=None):
        # The first turn starts at once: the holes take their first step and draw.
        state = super().new_game(players, seed, options)
        s = thaw(state)
        self._begin_turn(s)
        return freeze(s)

    def _resample_hidden(self, s, viewer, rng):
        """Hidden from the viewer: the order of every face-down path card, which action cards
        the other player has drawn (their Systems and hand size are known), and the card the
        other player has chosen in this turn's commit phase."""
        d = s["data"]
        for player in s["players"]:
            if player == viewer:
                d["path"][player] = rng.shuffled(d["path"][player])
                continue
            hand = d["hands"][player]
            actions = rng.shuffled([c for c in hand if c != "system"] + d["path"][player])
            drawn = len(hand) - hand.count("system")
            d["hands"][player] = _sort_hand(["system"] * hand.count("system") + actions[:drawn])
            d["path"][player] = actions[drawn:]
            if player in d["commits"]:
                d["commits"][player] = rng.choice(d["hands"][player])

    # ---- whose turn ----------------------------------------------------------------------

    def _to_act(self, state):
        d = state["data"]
        if d["phase"] == "commit":
            return [p for p in self._active(state) if p not in d["timed_out"]]
        if d["phase"] == "resolve":
            return [d["actor"]]
        return []

    def _awaited(self, state):
        d = state["data"]
        if d["phase"] == "commit":
            return [p for p in self._to_act(state) if p not in d["commits"]]
        return self._to_act(state)

    def _legal_actions(self, state, player):
        d = state["data"]
        if d["phase"] == "commit":
            return [Play(kind) for kind in KINDS if kind in d["hands"][player]]
        kind = d["reveal"]["cards"][player]
        return [*targets(d, player, kind), Pass()]

    # ---- reading and checking moves ------------------------------------------------------

    def _parse(self, state, player, text):
        t = " ".join(text.lower().split())
        if t in _PASS_WORDS:
            return Pass()
        words = t.split()
        if words and words[0] in ("play", "commit"):
            words = words[1:]
        if len(words) == 1 and words[0] in KINDS:
            return Play(words[0])
        m = _MOVE_RE.fullmatch(t)
        if m:
            x1, y1, x2, y2 = (int(g) for g in m.groups())
            return Move((x1, y1), (x2, y2))
        m = _POS_RE.fullmatch(t)
        if m:
            return Place((int(m[1]), int(m[2])))
        raise InvalidAction(f"I can't read {text!r}. Examples: a card `merge`; a cell `3,1`; "
                            f"a move `3,1>4,1`; `pass`.")

    def _check(self, state, player, action) -> None:
        d = state["data"]
        if d["phase"] == "commit":
            if not isinstance(action, Play):
                raise IllegalAction("First choose a card to play in secret: "
                                    + ", ".join(_sort_hand(set(d["hands"][player]))) + ".")
            if action.kind not in d["hands"][player]:
                raise IllegalAction(f"You have no {CARD_NAMES[action.kind]} card in your hand.")
            return
        kind = d["reveal"]["cards"][player]
        if isinstance(action, Pass):
            return
        if isinstance(action, Play):
            raise IllegalAction("The cards have been shown already; now give your card's target "
                                "or `pass`.")
        if kind in ("system", "form") and not isinstance(action, Place):
            raise IllegalAction(f"Your {CARD_NAMES[kind]} places a system: give a cell such as "
                                f"`{self._example(d, player, kind)}`, or `pass`.")
        if kind in ("merge", "shift") and not isinstance(action, Move):
            raise IllegalAction(f"Your {CARD_NAMES[kind]} moves a stack: give it as "
                                f"`{self._example(d, player, kind)}`, or `pass`.")
        if action in targets(d, player, kind):
            return
        stacks, holes = _stacks(d), _holes(d)
        if isinstance(action, Place):
            cell = action.cell
            if cell in stacks:
                raise IllegalAction(f"There is already a system at {_pos(cell)}.")
            if cell in holes.values():
                raise IllegalAction(f"A black hole is at {_pos(cell)}.")
            if kind == "system":
                raise IllegalAction(f"A System goes next to your black hole at "
                                    f"{_pos(holes[player])}.")
            (x0, x1), (y0, y1) = FORM_AREA
            raise IllegalAction(f"A Form places within columns {x0} to {x1} and rows {y0} to {y1}.")
        if action.src not in stacks:
            raise IllegalAction(f"There is no system at {_pos(action.src)}.")
        if kind == "merge":
            if action.dst == action.src:
                raise IllegalAction("Merge a stack onto another stack.")
            raise IllegalAction(f"There is no system at {_pos(action.dst)} to merge onto.")
        if not _near(action.src, action.dst) or action.src == action.dst:
            raise IllegalAction("A Shift moves a stack to a cell next to it.")
        raise IllegalAction(f"{_pos(action.dst)} is not empty.")

    @staticmethod
    def _example(d, player, kind) -> str:
        found = targets(d, player, kind)
        hole = _holes(d)[player]
        found.sort(key=lambda a: not _near(hole, a.cell if isinstance(a, Place) else a.src))
        return str(found[0]) if found else ("3,1" if kind in ("system", "form") else "3,1>4,1")

    # ---- applying moves ------------------------------------------------------------------

    def _apply(self, s, player, action, rng) -> None:
        d = s["data"]
        if isinstance(action, Play):
            # No log line: the log is public; the bot says who has chosen by itself.
            d["commits"][player] = action.kind
            if self._all_chosen(s):
                self._reveal(s, rng)
            return
        kind = d["reveal"]["cards"][player]
        card = CARD_NAMES[kind]
        stacks = _stacks(d)
        if isinstance(action, Pass):
            self._log(s, f"{player} declines the effect of their {card}.", event="pass",
                      player=player, card=kind)
        elif isinstance(action, Place):
            if kind == "form":
                d["hands"][player].remove("system")
            stacks[action.cell] = [player]
            _store_stacks(d, stacks)
            self._log(s, f"{player}'s {card} places a system at {_pos(action.cell)}.",
                      event="place", player=player, card=kind, cell=list(action.cell))
        else:
            moving = stacks.pop(action.src)
            stacks[action.dst] = stacks.get(action.dst, []) + moving
            _store_stacks(d, stacks)
            what = (f"merges the stack at {_pos(action.src)} onto {_pos(action.dst)} "
                    f"({_systems(len(stacks[action.dst]))} there now)"
                    if kind == "merge" else
                    f"shifts the stack at {_pos(action.src)} to {_pos(action.dst)}")
            self._log(s, f"{player}'s {card} {what}.", event=kind, player=player,
                      src=list(action.src), dst=list(action.dst))
        self._next_actor(s)

    def _all_chosen(self, s) -> bool:
        d = s["data"]
        return all(p in d["commits"] or p in d["timed_out"] for p in self._active(s))

    def _reveal(self, s, rng: Rng) -> None:
        d = s["data"]
        cards = {p: d["commits"][p] for p in s["players"] if p in d["commits"]}
        for p, kind in cards.items():
            d["hands"][p].remove(kind)
        order = sorted(cards, key=lambda p: KINDS.index(cards[p]))
        toss = len(order) == 2 and cards[order[0]] == cards[order[1]]
        if toss:
            first = order[0] if rng.coin() else order[1]
            order = [first] + [p for p in order if p != first]
        shown = " · ".join(f"{p} plays {CARD_NAMES[k]}" for p, k in cards.items()) \
            or "no card was played"
        missing = [p for p in s["players"] if p not in cards]
        text = f"🂠 Turn {d['turn']}: {shown}."
        if missing:
            text += " " + " and ".join(missing) + " played no card."
        if toss:
            text += f" Both played {CARD_NAMES[cards[order[0]]]}: the coin toss puts {order[0]} first."
        if len(order) == 2:
            text += f" Order: {order[0]}, then {order[1]}."
        d["reveal"] = {"turn": d["turn"], "cards": cards, "order": order, "toss": toss}
        d["commits"], d["timed_out"] = {}, []
        d["phase"], d["actor"], d["queue"] = "resolve", None, list(order)
        self._log(s, text, event="reveal", turn=d["turn"], cards=cards, order=order, toss=toss)
        self._next_actor(s)

    def _next_actor(self, s) -> None:
        """Hand the resolution to the next owner whose card can do something; after the last,
        end the turn."""
        d = s["data"]
        d["actor"] = None
        while d["queue"]:
            player = d["queue"].pop(0)
            if player not in self._active(s):
                continue
            kind = d["reveal"]["cards"][player]
            if not targets(d, player, kind):
                self._log(s, f"{player}'s {CARD_NAMES[kind]} can do nothing"
                             f"{' (no System in hand)' if kind == 'form' else ''} and is spent.",
                          event="skip", player=player, card=kind)
                continue
            d["actor"] = player
            return
        if d["turn"] >= TURNS:
            d["phase"] = "over"
            a, b = s["players"]
            score = self._count(d)
            # (the score is the result's to say: the bot states it once, under this line)
            self._log(s, "The galaxies have merged.", event="end", score={a: score[a], b: score[b]})
        else:
            self._begin_turn(s)

    def _begin_turn(self, s) -> None:
        """Both holes step toward the centre, dragging their systems, and draw."""
        d = s["data"]
        d["turn"] += 1
        d["phase"], d["reveal"], d["actor"], d["queue"] = "commit", None, None, []
        last = d["turn"] == TURNS
        holes = _holes(d)
        stacks = _stacks(d)
        moves: dict[tuple, tuple] = {}
        discarded = []
        for p, hole in holes.items():
            dx = _direction(s, p)
            onto = (hole[0] + dx, hole[1])
            for cell in sorted(stacks):
                if _near(hole, cell) and cell not in moves and cell not in discarded:
                    if cell == onto:
                        discarded.append(cell)
                    else:
                        moves[cell] = (cell[0] + dx, cell[1])
        new_holes = {p: (h[0] + _direction(s, p), h[1]) for p, h in holes.items()}
        staying = {c: o for c, o in stacks.items() if c not in moves and c not in discarded}
        arrivals: dict[tuple, list] = {}
        for src, dst in sorted(moves.items()):
            arrivals.setdefault(dst, []).append(src)
        result = dict(staying)
        merged, destroyed = [], []
        for dst, srcs in sorted(arrivals.items()):
            if dst in new_holes.values():      # cannot happen on this path; kept safe
                discarded.extend(srcs)
            elif last and (len(srcs) > 1 or dst in staying):
                destroyed.extend(srcs)
            else:
                if dst in staying or len(srcs) > 1:
                    merged.append(dst)
                result[dst] = result.get(dst, []) + [o for src in srcs for o in stacks[src]]
        for p in holes:
            d["holes"][p] = list(new_holes[p])
            d["hands"][p] = _sort_hand(d["hands"][p] + [d["path"][p].pop(0)])
        _store_stacks(d, result)
        a, b = s["players"]
        text = (f"Turn {d['turn']}: the black holes step to {_pos(new_holes[a])} and "
                f"{_pos(new_holes[b])}, and each player draws their path card.")
        moved = [src for src in moves if src not in discarded]
        if moved:
            count = sum(len(stacks[c]) for c in moved)
            text += f" {_systems(count)} move{'s' if count == 1 else ''} along."
        if discarded:
            text += " Discarded: " + ", ".join(
                f"{_systems(len(stacks[c]))} at {_pos(c)}" for c in discarded) + "."
        if merged:
            text += " Merged at " + ", ".join(_pos(c) for c in merged) + "."
        if destroyed:
            text += " Destroyed in the collision: " + ", ".join(
                f"{_systems(len(stacks[c]))} from {_pos(c)}" for c in destroyed) + "."
        self._log(s, text, event="step", turn=d["turn"],
                  moves=[[list(a_), list(b_)] for a_, b_ in sorted(moves.items())
                         if a_ not in discarded],
                  discarded=[list(c) for c in discarded], merged=[list(c) for c in merged],
                  destroyed=[list(c) for c in destroyed])

    # ---- deadlines -----------------------------------------------------------------------

    def _on_timeout(self, s, player, rng) -> None:
        d = s["data"]
        if d["phase"] == "commit":
            if player not in d["commits"] and player not in d["timed_out"]:
                d["timed_out"].append(player)
                self._log(s, f"{player} did not choose in time and plays no card this turn.",
                          event="timeout", player=player)
                if self._all_chosen(s):
                    self._reveal(s, rng)
        elif d["actor"] == player:
            kind = d["reveal"]["cards"][player]
            self._log(s, f"{player} ran out of time: their {CARD_NAMES[kind]} is spent "
                         f"without effect.", event="timeout", player=player)
            self._next_actor(s)

    # ---- results and views ---------------------------------------------------------------

    @staticmethod
    def _count(d) -> dict[str, int]:
        holes = _holes(d)
        return {p: sum(len(o) for c, o in _stacks(d).items() if _near(h, c))
                for p, h in holes.items()}

    def _scores(self, state):
        return self._count(state["data"])

    def _result(self, state):
        if state["data"]["phase"] != "over":
            return None
        score = self._count(state["data"])
        a, b = state["players"]
        if score[a] == score[b]:
            return Outcome((), f"a tie at {score[a]} each", draw=True)
        winner, loser = (a, b) if score[a] > score[b] else (b, a)
        return Outcome((winner,), f"{winner} {score[winner]}, {loser} {score[loser]}")

    def _view(self, state, viewer):
        d = state["data"]
        players = state["players"]
        commit = d["phase"] == "commit"
        path = []
        for i, p in enumerate(players):
            hole = d["holes"][p]
            dx = _direction(state, p)
            path += [{"x": hole[0] + dx * (k + 1), "y": hole[1], "owner": p}
                     for k in range(len(d["path"][p]))]
        return {
            "colours": {p: COLOURS[i] for i, p in enumerate(players)},
            "holes": {p: {"x": h[0], "y": h[1]} for p, h in d["holes"].items()},
            "stacks": [{"x": x, "y": y, "count": len(owners), "owners": list(owners)}
                       for x, y, owners in d["stacks"]],
            "path": sorted(path, key=lambda c: c["x"]),
            "hand": list(d["hands"][viewer]) if viewer is not None else None,
            "hand_sizes": {p: len(d["hands"][p]) for p in players},
            "turn": d["turn"],
            "turns": TURNS,
            "phase": d["phase"],
            "committed": [p for p in players if p in d["commits"]] if commit else [],
            "own_commit": d["commits"].get(viewer) if commit and viewer else None,
            "timed_out": list(d["timed_out"]),
            "reveal": thaw(d["reveal"]),
            "actor": d["actor"],
            "queue": list(d["queue"]),
            "form_area": {"x": list(FORM_AREA[0]), "y": list(FORM_AREA[1])},
        }

    def _prompt(self, state, player):
        d = state["data"]
        if d["phase"] == "commit":
            hand = ", ".join(CARD_NAMES[k] for k in d["hands"][player])
            mine = d["commits"].get(player)
            if mine:
                return Prompt(player, "secret", f"Your card: {CARD_NAMES[mine]} (hand: {hand}); "
                                                f"you may change it until both have chosen.")
            return Prompt(player, "secret", f"Turn {d['turn']}: choose a card to play. "
                                            f"Your hand: {hand}.")
        kind = d["reveal"]["cards"][player]
        example = self._example(d, player, kind)
        what = {
            "system": "place your system next to your black hole",
            "form": "place a system from your hand on any empty cell",
            "merge": "move a stack onto another stack",
            "shift": "move a stack to an empty cell next to it",
        }[kind]
        return Prompt(player, "public", f"Your {CARD_NAMES[kind]}: {what} (e.g. `{example}`), "
                                        f"or `pass`.")


GAME = Galaxies()
