"""BYOP1 (Ron and Marty Hale-Evans): everyone slides an identical private copy of the same 5x5
board of tiles into order, a 15-puzzle race over rounds; alone, a solitaire puzzle.

Notation (RULINGS.md): tiles are value then suit, `2M` (values n a 2 3 4 5, suits S M C A);
rows 1-5 from the top, columns 1-5 from the left. A slide is the direction the tile moves into
the hole: `U` (the tile below the hole moves up), `D`, `L`, `R`; a string such as `UULDR` is one
action, its slides applied one by one (all or nothing). `done` calls Done.

Options (all optional):
    rounds    number of rounds agreed at the start (default 3; 1 for a player alone)
    ranking   "race" (default: order of correct calls) or "slides" (fewest slides, ties by the
              earlier call)
    autodone  true: a board calls Done by itself the moment it is correct
    deals     the deals in round order (playoffs after), each `<row suits>/<column values>/<24
              tiles>`, e.g. `MSAC/24a53/2M 4A ... nC`; rounds beyond them are dealt at random.
              It fixes what every player will face, so it is secret.

State (`state["data"]`), hidden parts marked *:
    rounds, ranking, autodone   the options
    deals*       the deals of the option, not yet used
    round        number of the round being played (playoffs count on: 4, 5, ...)
    playoff      0 for the agreed rounds, 1, 2, ... for playoff rounds
    targets      {"rows": "MSAC", "columns": "24a53"} of the current round
    deal         the current round's dealt tiles (25, row by row, "." the hole)
    boards*      {player: {"tiles": 25 codes row by row, "." the hole, "slides": int,
                 "status": "solving" | "correct" | "fumble" | "unfinished" | "left",
                 "call": order of the Done call in the round or None}}; only the players of the
                 current round (a playoff's are the tied players)
    calls        Done calls made this round
    totals       {player: points}
    history      finished rounds: {round, playoff, targets, deal, results: {player: {status,
                 slides, call, rank, points, tiles}}} (boards are public once a round is over)
    finished     True when the last round (and any playoff) is over
    expired_at   move number of the last round deadline (one deadline ends one round)
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .core import (Game, GameError, IllegalAction, InvalidAction, Outcome, Prompt, Rng, freeze,
                   thaw)
from .piecepack import SUIT_LETTERS, SUITS, VALUE_NAMES

RULES = """\
**BYOP1** by Ron and Marty Hale-Evans (2002), for any number of players; alone it is a \
solitaire puzzle. Everyone solves a private copy of the same board; finishing first scores most.

**The deal.** The bot is the Caller. Each round, the 24 tiles are dealt face up into a 5x5 \
board with the hole at the bottom right. A pawn of each suit is drawn for rows 1-4 (from the \
top) and the coins ace to 5 for columns 1-5 (from the left): they say where each tile belongs. \
Every player gets an identical copy of the board, visible only to them.

**Play.** Slide a tile next to the hole into it. A slide is written by the way the tile moves: \
`U` (the tile below the hole moves up), `D`, `L`, `R`; several at once, e.g. `UULDR`, are made \
one by one (if one of them is impossible, none is made). Call `done` when you think your board \
is correct.

**Correct board.** Row 1-4: the five tiles of the suit of that row's pawn, in the column order \
of the coins. Row 5, the *parity sponge*: the four nulls and the hole, in any order. Thanks to \
the sponge every deal can be solved.

**Scoring a round.** Calling Done on a board that is not correct is a *fumble*: 0 points, and \
you are out of the round. The other players are ranked: by the order of correct calls (a race), \
the last one still solving last. A player ranked k of these m players scores m - k, plus one \
point for every fumbler of the round (the authors' rule 9). In a race the round ends when one \
player is left solving.

**Game.** Rounds are agreed at the start (3 by default). Points add up; the most points wins. \
Players tied for the most points after the last round play a playoff round among themselves; \
if they are tied again, another one.

**Our rulings** (not in the authors' text):
- Ranking `slides` (for play over days): correct boards rank by fewest slides, a tie going to \
the earlier call; the round ends when every board is done.
- Option `autodone`: your board calls Done by itself the moment it is correct (slides typed \
after that moment are not made).
- A round deadline ends the round: boards not done rank last, tied. Players tied at the bottom \
beat none of each other: each scores as the last of them (just the fumble points).
- Only a tie for the most points is played off; the playoff's points add to the totals.
- A player who leaves is out of the rest of the game, and of the current round's scoring.
- Alone: one round unless you agree on more; the game ends when your board is done. A correct \
board wins (the bot reports your slides and time); a fumble or a deadline does not.
- During a round you see your own board only, and of the others just who has finished and how \
(correct or fumble; in a race, in which order). Slide counts and all boards are shown when the \
round is over.
"""

SIZE = 5
HOLE = "."
VALUE_ORDER = ("a", "2", "3", "4", "5")      # the coins above the columns
SUIT_ORDER = tuple(SUIT_LETTERS[s] for s in SUITS)   # S M C A
ALL_TILES = tuple(v + s for s in SUIT_ORDER for v in ("n",) + VALUE_ORDER)
SUIT_NAMES = {SUIT_LETTERS[s]: s for s in SUITS}
RANKINGS = ("race", "slides")
# A slide: the tile moves this way into the hole. (row, column) step from the hole to the tile.
SLIDE_FROM = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}
SLIDE_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}
_ARROWS = {"↑": "U", "↓": "D", "←": "L", "→": "R"}
_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n", ""}


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Slides:
    """One slide (`U`) or several made one by one (`UULDR`)."""

    moves: str

    def __post_init__(self):
        if not self.moves or any(m not in SLIDE_FROM for m in self.moves):
            raise InvalidAction(f"{self.moves!r} is not a string of slides (U, D, L, R).")

    def __str__(self) -> str:
        return self.moves


@dataclass(frozen=True)
class Done:
    """Call Done: the board is checked; an incorrect one is a fumble."""

    def __str__(self) -> str:
        return "done"


# --------------------------------------------------------------------------- tiles and boards


def parse_tile(text: str) -> str:
    """'2m', '2M', 'NC', 'aa' -> canonical code, value then suit: '2M', 'nC', 'aA'."""
    t = str(text).strip()
    if len(t) == 2 and t[0].lower() in ("n",) + VALUE_ORDER and t[1].upper() in SUIT_NAMES:
        return t[0].lower() + t[1].upper()
    raise GameError(f"{text!r} is not a tile: write a value (n, a, 2-5) then a suit (S, M, C, "
                    f"A), e.g. 2M for the 2 of Moons.")


def tile_name(code: str) -> str:
    return f"{VALUE_NAMES[code[0]]} of {SUIT_NAMES[code[1]]}"


def target_of(row_suits: str, column_values: str, index: int) -> str | None:
    """The tile that belongs at cell `index` (0-24, row by row), None in row 5 (a null or the
    hole)."""
    row, col = divmod(index, SIZE)
    if row == SIZE - 1:
        return None
    return column_values[col] + row_suits[row]


def in_place(tiles: Sequence[str], row_suits: str, column_values: str) -> list[bool]:
    """For each cell, whether it holds what belongs there (row 5: a null or the hole)."""
    out = []
    for i, code in enumerate(tiles):
        want = target_of(row_suits, column_values, i)
        out.append(code == HOLE or code[0] == "n" if want is None else code == want)
    return out


def is_correct(tiles: Sequence[str], row_suits: str, column_values: str) -> bool:
    return all(in_place(tiles, row_suits, column_values))


def slide(tiles: Sequence[str], move: str) -> list[str] | None:
    """The board after one slide, or None when no tile can move that way."""
    hole = list(tiles).index(HOLE)
    r, c = divmod(hole, SIZE)
    dr, dc = SLIDE_FROM[move]
    tr, tc = r + dr, c + dc
    if not (0 <= tr < SIZE and 0 <= tc < SIZE):
        return None
    out = list(tiles)
    out[hole], out[tr * SIZE + tc] = out[tr * SIZE + tc], HOLE
    return out


def possible_slides(tiles: Sequence[str]) -> list[str]:
    return [m for m in "UDLR" if slide(tiles, m) is not None]


def moving_tile(tiles: Sequence[str], move: str) -> str | None:
    """The tile a slide would move (for button labels), or None."""
    hole = list(tiles).index(HOLE)
    r, c = divmod(hole, SIZE)
    dr, dc = SLIDE_FROM[move]
    tr, tc = r + dr, c + dc
    if not (0 <= tr < SIZE and 0 <= tc < SIZE):
        return None
    return tiles[tr * SIZE + tc]


def _slide_error(tiles: Sequence[str], move: str) -> str:
    hole = list(tiles).index(HOLE)
    r, c = divmod(hole, SIZE)
    where = {"U": f"the hole is in the bottom row", "D": "the hole is in the top row",
             "L": "the hole is in the rightmost column", "R": "the hole is in the leftmost column"}
    return f"no tile can slide {SLIDE_WORDS[move]} ({where[move]}, row {r + 1} column {c + 1})"


# --------------------------------------------------------------------------- deals


def format_deal(deal: Mapping) -> str:
    """A deal as the `deals` option writes it: `MSAC/24a53/2M 4A ... nC`."""
    return f"{deal['rows']}/{deal['columns']}/{' '.join(deal['tiles'][:24])}"


def parse_deal(text: str) -> dict:
    """`<row suits>/<column values>/<24 tiles>` -> {"rows", "columns", "tiles" (25, hole last)}."""
    parts = str(text).split("/")
    if len(parts) != 3:
        raise GameError("A deal is written `<row suits>/<column values>/<24 tiles>`, e.g. "
                        "`MSAC/24a53/2M 4A ... nC`.")
    rows = parts[0].strip().upper()
    columns = parts[1].strip().lower()
    if sorted(rows) != sorted(SUIT_ORDER):
        raise GameError(f"The row suits {parts[0].strip()!r} must be S, M, C and A in some order.")
    if sorted(columns) != sorted(VALUE_ORDER):
        raise GameError(f"The column values {parts[1].strip()!r} must be a, 2, 3, 4 and 5 in "
                        f"some order.")
    tiles = [parse_tile(t) for t in parts[2].split()]
    if len(tiles) != 24 or sorted(tiles) != sorted(ALL_TILES):
        raise GameError("A deal lists each of the 24 tiles exactly once, row by row from the top "
                        "left; the hole is at the bottom right.")
    return {"rows": rows, "columns": columns, "tiles": tiles + [HOLE]}


def random_deal(rng: Rng) -> dict:
    return {"rows": "".join(rng.shuffled(SUIT_ORDER)),
            "columns": "".join(rng.shuffled(VALUE_ORDER)),
            "tiles": rng.shuffled(ALL_TILES) + [HOLE]}


def _bool_option(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise GameError(f"The {name} option is on or off.")


# --------------------------------------------------------------------------- the solver


def _neighbours(cell: int) -> list[tuple[int, str]]:
    """(next cell for the hole, the slide that moves the tile from there into the hole)."""
    r, c = divmod(cell, SIZE)
    out = []
    for move, (dr, dc) in SLIDE_FROM.items():
        tr, tc = r + dr, c + dc
        if 0 <= tr < SIZE and 0 <= tc < SIZE:
            out.append((tr * SIZE + tc, move))
    return out


_NEIGHBOURS = [_neighbours(cell) for cell in range(SIZE * SIZE)]


def _search(tiles: list[str], locked: set[int], groups: list[tuple[list[int], set[int] | None]],
            goal) -> str:
    """Breadth-first search moving the hole through unlocked cells, tracking only the pieces in
    `groups` (each a list of positions of interchangeable pieces); `goal(groups positions)` says
    when they are where we want them. Returns the slides (other tiles just get pushed about)."""
    hole = tiles.index(HOLE)
    start = (hole, tuple(tuple(sorted(ps)) for ps, _ in groups))
    seen = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        h, tracked = state
        if goal(tracked):
            moves = []
            while seen[state] is not None:
                state, move = seen[state]
                moves.append(move)
            return "".join(reversed(moves))
        for nxt, move in _NEIGHBOURS[h]:
            if nxt in locked:
                continue
            new = tuple(tuple(sorted(h if p == nxt else p for p in ps)) if nxt in ps else ps
                        for ps in tracked)
            key = (nxt, new)
            if key not in seen:
                seen[key] = (state, move)
                queue.append(key)
    raise ValueError("no way to place these tiles")  # never for a real deal: see the tests


def solve(tiles: Sequence[str], row_suits: str, column_values: str) -> str:
    """Slides that make the board correct (not the shortest: a quick, human-like method).

    Rows 1-3 are filled in order (a row's last two tiles together), then rows 4-5 column by
    column for columns 1-2 (a row 4 tile with any null under it), then the last 2x3 corner is
    searched whole. The nulls are interchangeable, which is how the sponge absorbs the parity
    that makes half of all 15-puzzle positions unsolvable."""
    board = list(tiles)
    out = []
    locked: set[int] = set()

    def run(groups, goal, lock):
        nonlocal board
        moves = _search(board, locked, [(ps, None) for ps in groups], goal)
        for m in moves:
            board = slide(board, m)
        out.append(moves)
        locked.update(lock)

    def where(code):
        return board.index(code)

    for row in range(3):
        cells = [row * SIZE + c for c in range(SIZE)]
        for cell in cells[:3]:
            code = target_of(row_suits, column_values, cell)
            run([[where(code)]], lambda t, cell=cell: t[0] == (cell,), [cell])
        a, b = cells[3], cells[4]
        ca, cb = target_of(row_suits, column_values, a), target_of(row_suits, column_values, b)
        run([[where(ca)], [where(cb)]],
            lambda t, a=a, b=b: t[0] == (a,) and t[1] == (b,), [a, b])
    for col in range(2):
        top, bottom = 3 * SIZE + col, 4 * SIZE + col
        code = target_of(row_suits, column_values, top)
        nulls = [i for i, t in enumerate(board) if t[0] == "n" and i not in locked]
        run([[where(code)], nulls],
            lambda t, top=top, bottom=bottom: t[0] == (top,) and bottom in t[1], [top, bottom])
    last = [3 * SIZE + c for c in range(2, SIZE)]
    codes = [target_of(row_suits, column_values, cell) for cell in last]
    run([[where(code)] for code in codes],
        lambda t: all(t[i] == (cell,) for i, cell in enumerate(last)), [])
    return "".join(out)


def permutation_parity(tiles: Sequence[str]) -> int:
    """Parity (0 even, 1 odd) of the 24 tiles read row by row, skipping the hole."""
    order = {code: i for i, code in enumerate(ALL_TILES)}
    seq = [order[t] for t in tiles if t != HOLE]
    inversions = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
    return inversions % 2


# --------------------------------------------------------------------------- the game


class Byop1(Game):
    name = "byop1"
    title = "BYOP1"
    min_players = 1
    max_players = 12
    allows_draw = False
    secret_options = frozenset({"deals"})
    rules = RULES

    # ---- set-up --------------------------------------------------------------------------

    def _setup(self, players, rng, options):
        unknown = set(options) - {"rounds", "ranking", "autodone", "deals"}
        if unknown:
            raise GameError(f"Unknown option{'s' if len(unknown) > 1 else ''} for {self.title}: "
                            f"{', '.join(sorted(unknown))}.")
        default = 1 if len(players) == 1 else 3
        try:
            rounds = int(options.get("rounds", default))
        except (TypeError, ValueError):
            raise GameError("The rounds option is a whole number, e.g. 3.") from None
        if not 1 <= rounds <= 20:
            raise GameError("Play 1 to 20 rounds.")
        ranking = str(options.get("ranking", "race")).strip().lower()
        if ranking not in RANKINGS:
            raise GameError("The ranking option is race or slides.")
        deals = options.get("deals") or []
        if isinstance(deals, str):
            deals = [deals]
        if not isinstance(deals, (list, tuple)):
            raise GameError("The deals option is a list of deals, one per round.")
        d = {
            "rounds": rounds,
            "ranking": ranking,
            "autodone": _bool_option(options.get("autodone", False), "autodone"),
            "deals": [parse_deal(text) for text in deals],
            "round": 0,
            "playoff": 0,
            "targets": None,
            "boards": {},
            "calls": 0,
            "totals": {p: 0 for p in players},
            "history": [],
            "finished": False,
            "expired_at": None,
        }
        self._start_round({"data": d}, list(players), rng)
        return d

    def new_game(self, players, seed=0, options=None):
        state = super().new_game(players, seed, options)
        # _setup returns only the game's data, so the first round's start is logged here.
        s = thaw(state)
        self._log(s, self._round_text(s["data"]), event="round_start",
                  round=s["data"]["round"], playoff=s["data"]["playoff"],
                  players=list(s["data"]["boards"]))
        return freeze(s)

    def _start_round(self, s, players: list[str], rng: Rng) -> None:
        d = s["data"]
        deal = d["deals"].pop(0) if d["deals"] else random_deal(rng)
        d["round"] += 1
        d["targets"] = {"rows": deal["rows"], "columns": deal["columns"]}
        d["deal"] = list(deal["tiles"])
        d["boards"] = {p: {"tiles": list(deal["tiles"]), "slides": 0, "status": "solving",
                           "call": None} for p in players}
        d["calls"] = 0

    @staticmethod
    def _round_text(d) -> str:
        what = f"Playoff {d['playoff']}" if d["playoff"] else f"Round {d['round']} of {d['rounds']}"
        if len(d["totals"]) == 1 and d["rounds"] == 1:
            what = "The puzzle"   # alone, one board: no rounds to count
        t = d["targets"]
        rows = ", ".join(SUIT_NAMES[x] for x in t["rows"])
        cols = " ".join(VALUE_NAMES[v] for v in t["columns"])
        return f"{what}: rows {rows}; columns {cols}. Start sliding!"

    # ---- whose turn ----------------------------------------------------------------------

    def _to_act(self, state):
        d = state["data"]
        if d["finished"]:
            return []
        return [p for p, b in d["boards"].items() if b["status"] == "solving"]

    def _legal_actions(self, state, player):
        tiles = state["data"]["boards"][player]["tiles"]
        return [Slides(m) for m in possible_slides(tiles)] + [Done()]

    def _prompt(self, state, player):
        return Prompt(player, "private", "Slide tiles into the hole (U, D, L, R: the way the tile "
                                         "moves) and call Done when your board is correct.")

    # ---- reading and checking moves ------------------------------------------------------

    def _parse(self, state, player, text):
        t = text.strip().lower().rstrip("!")
        if t in ("done", "call done", "d o n e"):
            return Done()
        moves = "".join(_ARROWS.get(ch, ch.upper()) for ch in text if ch not in " ,;")
        if moves and all(m in SLIDE_FROM for m in moves):
            return Slides(moves)
        raise InvalidAction(f"I can't read {text!r}. Slides are U, D, L, R (the way the tile "
                            f"moves into the hole), one or several such as `UULDR`; or `done`.")

    def _check(self, state, player, action):
        if isinstance(action, Done):
            return
        if not isinstance(action, Slides):
            raise IllegalAction(f"{action} is not a BYOP1 move.")
        d = state["data"]
        tiles = d["boards"][player]["tiles"]
        for i, move in enumerate(action.moves):
            if i and d["autodone"] and is_correct(tiles, **_targets(d)):
                return  # the board is done here; the rest is not made
            after = slide(tiles, move)
            if after is None:
                where = f"Slide {i + 1} of {len(action.moves)} ({move})" if len(action.moves) > 1 \
                    else f"`{move}`"
                raise IllegalAction(f"{where}: {_slide_error(tiles, move)}. Nothing was moved.")
            tiles = after

    # ---- applying moves ------------------------------------------------------------------

    def _apply(self, s, player, action, rng):
        d = s["data"]
        board = d["boards"][player]
        if isinstance(action, Slides):
            for move in action.moves:
                board["tiles"] = slide(board["tiles"], move)
                board["slides"] += 1
                if d["autodone"] and is_correct(board["tiles"], **_targets(d)):
                    break
            # No log line for a slide: the log is public, and a board is its player's own.
            if not (d["autodone"] and is_correct(board["tiles"], **_targets(d))):
                return
        self._call_done(s, player, rng)

    def _call_done(self, s, player, rng) -> None:
        d = s["data"]
        board = d["boards"][player]
        t = d["targets"]
        d["calls"] += 1
        board["call"] = d["calls"]
        correct = is_correct(board["tiles"], t["rows"], t["columns"])
        board["status"] = "correct" if correct else "fumble"
        # The log is public: no slide count before the round is over (under `slides` it would
        # tell the others the number to beat). Alone, the round's end says how it went.
        if len(d["totals"]) > 1:
            if correct:
                place = sum(1 for b in d["boards"].values() if b["status"] == "correct")
                how = f"correct ({_ordinal(place)} correct call)" if d["ranking"] == "race" \
                    else "correct"
            else:
                how = "fumble (the board is not correct)"
            self._log(s, f"{player} calls Done: {how}.", event="done", player=player,
                      status=board["status"], call=board["call"])
        self._maybe_end_round(s, rng)

    def _maybe_end_round(self, s, rng) -> None:
        d = s["data"]
        solving = [p for p, b in d["boards"].items() if b["status"] == "solving"]
        in_round = [p for p, b in d["boards"].items() if b["status"] != "left"]
        if d["ranking"] == "race" and len(in_round) > 1:
            over = len(solving) <= 1
        else:
            over = not solving
        if over:
            self._end_round(s, rng)

    def _end_round(self, s, rng) -> None:
        d = s["data"]
        for b in d["boards"].values():
            if b["status"] == "solving":
                b["status"] = "unfinished"
        results = round_points(d["boards"], d["ranking"])
        for p, r in results.items():
            d["totals"][p] += r["points"]
            r["tiles"] = list(d["boards"][p]["tiles"])
        d["history"].append({"round": d["round"], "playoff": d["playoff"],
                             "targets": dict(d["targets"]), "deal": d["deal"],
                             "results": results})
        ranked = sorted((p for p in results if results[p]["rank"] is not None),
                        key=lambda p: results[p]["rank"])
        parts = [f"{p} {_count(results[p]['points'], 'point')}" for p in ranked]
        parts += [f"{p} fumbled (0)" for p in results if results[p]["status"] == "fumble"]
        what = f"Playoff {d['playoff']}" if d["playoff"] else f"Round {d['round']}"
        if len(d["totals"]) == 1:   # alone: how the board went, not points
            (player, r), = results.items()
            parts = [f"{player} {_solo_how(r)}"]
        if len(d["totals"]) > 1 or d["round"] < d["rounds"]:   # (alone, the last one: the end says it)
            self._log(s, f"{what} is over: {', '.join(parts)}.", event="round_end",
                      round=d["round"], playoff=d["playoff"],
                      points={p: r["points"] for p, r in results.items()})
        self._next_round(s, rng)

    def _next_round(self, s, rng) -> None:
        d = s["data"]
        active = self._active(s)
        if not active:
            d["finished"] = True
            return
        if d["round"] < d["rounds"] and not d["playoff"]:
            self._start_round(s, active, rng)
        else:
            pool = active if not d["playoff"] else \
                [p for p in d["history"][-1]["results"] if p in active]
            best = max(d["totals"][p] for p in pool)
            tied = [p for p in pool if d["totals"][p] == best]
            if len(tied) > 1:
                d["playoff"] += 1
                self._start_round(s, tied, rng)
            else:
                d["finished"] = True
                self._log(s, self._end_text(s, tied[0]), event="end")
                return
        self._log(s, self._round_text(d), event="round_start", round=d["round"],
                  playoff=d["playoff"], players=list(d["boards"]))

    # ---- leaving and deadlines -----------------------------------------------------------

    def _drop_player(self, s, player, reason):
        d = s["data"]
        if player in d["boards"] and not d["finished"]:
            board = d["boards"][player]
            was_solving = board["status"] == "solving"
            board["status"] = "left"
            if was_solving:
                rng = Rng(s["rng"])
                self._maybe_end_round(s, rng)
                s["rng"] = rng.state

    def _on_timeout(self, s, player, rng):
        """The round deadline passed: the round ends at once, boards not done rank last. One
        deadline ends one round (expire calls this for each awaited player in turn)."""
        d = s["data"]
        if d["expired_at"] == s["move_number"]:
            return
        d["expired_at"] = s["move_number"]
        late = [p for p, b in d["boards"].items() if b["status"] == "solving"]
        self._log(s, f"Time is up for this round: {', '.join(late)} did not finish.",
                  event="timeout", players=late)
        self._end_round(s, rng)

    # ---- results and views ---------------------------------------------------------------

    def _result(self, state):
        d = state["data"]
        if not d["finished"]:
            return None
        if len(state["players"]) == 1:
            p = state["players"][0]
            won = bool(d["history"]) and all(h["results"][p]["status"] == "correct"
                                             for h in d["history"])
            return Outcome((p,) if won else (), self._solo_reason(state, p))
        active = self._active(state)
        best = max(d["totals"][p] for p in active)
        winners = tuple(p for p in active if d["totals"][p] == best)
        return Outcome(winners, self._result_reason(state, winners[0]))

    def _solo_reason(self, state, player) -> str:
        d = state["data"]
        if len(d["history"]) == 1:
            return f"{player} {_solo_how(d['history'][0]['results'][player])}"
        slides = sum(h["results"][player]["slides"] for h in d["history"])
        solved = sum(1 for h in d["history"] if h["results"][player]["status"] == "correct")
        if solved == len(d["history"]):
            return f"{player} solved all {len(d['history'])} boards in {_count(slides, 'slide')}"
        return f"{player} solved {solved} of {len(d['history'])} boards"

    def _end_text(self, state, winner) -> str:
        """The log's last line. With others, who won and the points are the result's to say
        (the bot states them once, under this line); alone, how the board went."""
        if len(state["players"]) == 1:
            return self._solo_reason(state, winner) + "."
        d = state["data"]
        playoffs = f" and {_count(d['playoff'], 'playoff')}" if d["playoff"] else ""
        return f"The game is over after {_count(d['round'] - d['playoff'], 'round')}{playoffs}."

    def _result_reason(self, state, winner) -> str:
        if len(state["players"]) == 1:
            return self._solo_reason(state, winner)
        return f"{winner} wins with {_count(state['data']['totals'][winner], 'point')}"

    def _scores(self, state):
        return dict(state["data"]["totals"])

    def _resample_hidden(self, s, viewer, rng):
        """Hidden from the viewer: the boards of the others (how far they are, in how many
        slides); of a called board, only its result and the order of the call are public."""
        d = s["data"]
        for player, board in d["boards"].items():
            if player == viewer:
                continue
            tiles = list(d["deal"])
            count = rng.below(40)
            for _ in range(count):
                tiles = slide(tiles, rng.choice(possible_slides(tiles)))
            board["tiles"], board["slides"] = tiles, count

    def _view(self, state, viewer):
        d = state["data"]
        t = d["targets"]
        # (no slide counts: they come with the round's result)
        finished = [{"player": p, "status": b["status"], "call": b["call"]}
                    for p, b in sorted(d["boards"].items(), key=lambda kv: kv[1]["call"] or 99)
                    if b["call"] is not None]
        own = d["boards"].get(viewer) if viewer is not None else None
        view = {
            "round": d["round"],
            "rounds": d["rounds"],
            "playoff": d["playoff"],
            "ranking": d["ranking"],
            "autodone": d["autodone"],
            "targets": dict(t),
            "round_players": list(d["boards"]),
            "solving": [p for p, b in d["boards"].items() if b["status"] == "solving"],
            "finished": finished,
            "totals": dict(d["totals"]),
            "history": thaw(d["history"]),
            "board": None,
        }
        if own is not None and not d["finished"]:
            tiles = list(own["tiles"])
            view["board"] = {
                "tiles": tiles,
                "slides": own["slides"],
                "status": own["status"],
                "in_place": in_place(tiles, t["rows"], t["columns"]),
                "correct": is_correct(tiles, t["rows"], t["columns"]),
                "moving": {m: moving_tile(tiles, m) for m in "UDLR"},
            }
        return view


def round_points(boards: Mapping[str, Mapping], ranking: str) -> dict[str, dict]:
    """Rules 5-9 in one formula. Fumblers score 0; the m others are ranked (race: order of
    correct calls; slides: fewest slides, then earlier call; boards not done last, tied); rank k
    of m scores (m - k) + f, f the number of fumblers, a tie at the bottom scoring as its last."""
    playing = {p: b for p, b in boards.items() if b["status"] != "left"}
    fumblers = [p for p, b in playing.items() if b["status"] == "fumble"]
    others = [p for p in playing if p not in fumblers]
    f, m = len(fumblers), len(others)
    correct = [p for p in others if playing[p]["status"] == "correct"]
    if ranking == "slides":
        correct.sort(key=lambda p: (playing[p]["slides"], playing[p]["call"]))
    else:
        correct.sort(key=lambda p: playing[p]["call"])
    out = {}
    for p, b in playing.items():
        if p in fumblers:
            rank, points = None, 0
        elif p in correct:
            rank = correct.index(p) + 1
            points = m - rank + f
        else:
            rank, points = m, f
        out[p] = {"status": b["status"], "slides": b["slides"], "call": b["call"],
                  "rank": rank, "points": points}
    return out


def _targets(d: Mapping) -> dict:
    return {"row_suits": d["targets"]["rows"], "column_values": d["targets"]["columns"]}


def _solo_how(result: Mapping) -> str:
    """How a board played alone went."""
    if result["status"] == "correct":
        return f"solved the board in {_count(result['slides'], 'slide')}"
    if result["status"] == "fumble":
        return "called Done on an incorrect board (a fumble)"
    return "did not finish the board in time"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


GAME = Byop1()
