"""Relativity (Marty and Ron Hale-Evans): two players, Space and Time, swap coins on a 4x6
board to build DNA molecules, over a Night round and a Day round with roles swapped.

Cells use Portable Piecepack Notation: columns a-f left to right, rows 1-4 bottom to top.
Internally a board is a 24-character string of coin values indexed by cell, in the order
a1 a2 a3 a4 b1 ... f4, which is also the alphabetical order of the cell names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from .core import Game, GameError, IllegalAction, InvalidAction, Outcome, Prompt, Rng
from .piecepack import VALUE_RANK, VALUES, value_name

COLUMNS = "abcdef"
ROWS = 4
CELLS = tuple(f"{c}{r}" for c in COLUMNS for r in range(1, ROWS + 1))
CELL_INDEX = {cell: i for i, cell in enumerate(CELLS)}
CENTRE = tuple(CELL_INDEX[c] for c in ("c2", "d2", "c3", "d3"))
ROUNDS = ("night", "day")
ROUND_SUIT = {"night": "Moons", "day": "Suns"}
ROLE_NAME = {"space": "Space", "time": "Time"}
OTHER_ROLE = {"space": "time", "time": "space"}
ROUND_TROPHIES = 5   # the round (Night) or the game (Day) ends once this many are won in it
WINNING_TROPHIES = 6  # the game ends as soon as one player holds this many


def _index(col: int, row: int) -> int:
    return col * ROWS + row


def _space_partners(i: int) -> tuple[int, ...]:
    """The 8 neighbours of cell i on the wrapped (torus) board."""
    col, row = divmod(i, ROWS)
    return tuple(sorted(
        _index((col + dc) % len(COLUMNS), (row + dr) % ROWS)
        for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr
    ))


def _orthogonal(i: int) -> tuple[int, ...]:
    """Orthogonal neighbours of cell i without wrapping (molecules do not wrap)."""
    col, row = divmod(i, ROWS)
    out = []
    for dc, dr in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        c, r = col + dc, row + dr
        if 0 <= c < len(COLUMNS) and 0 <= r < ROWS:
            out.append(_index(c, r))
    return tuple(out)


SPACE_PARTNERS = tuple(_space_partners(i) for i in range(len(CELLS)))
ORTHOGONAL = tuple(_orthogonal(i) for i in range(len(CELLS)))
# Time's partners by value: the values next to it in the cycle null-ace-2-3-4-5-null.
TIME_PARTNER_VALUES = {
    v: (VALUES[(VALUE_RANK[v] - 1) % 6], VALUES[(VALUE_RANK[v] + 1) % 6]) for v in VALUES
}


# --------------------------------------------------------------------------- the action


@dataclass(frozen=True, eq=False)
class Swap:
    """Swap the coins on two cells. Equal regardless of order; str() is the canonical PPN
    notation with the cells sorted, e.g. `d3#e3`. The cells keep the order they were typed
    (for error messages); applied, a swap is its sorted cells, so equal swaps give equal
    states (a game replayed from its records is the game that was played)."""

    first: str
    second: str

    @property
    def cells(self) -> tuple[str, str]:
        return (self.first, self.second) if self.first <= self.second else (self.second, self.first)

    def __eq__(self, other) -> bool:
        return isinstance(other, Swap) and self.cells == other.cells

    def __hash__(self) -> int:
        return hash(self.cells)

    def __str__(self) -> str:
        return "#".join(self.cells)


# One canonical Swap per pair of cells, built once: legal-move generation only picks from it.
_SWAPS = {(i, j): Swap(CELLS[i], CELLS[j]) for i in range(len(CELLS)) for j in range(i + 1, len(CELLS))}
_SPACE_PAIRS = tuple((i, j) for i in range(len(CELLS)) for j in SPACE_PARTNERS[i] if j > i)

_SWAP_TEXT = re.compile(r"([a-z])(\d+)\s*(?:[#\-\u2013\u2014x,/]\s*|\s)?\s*([a-z])(\d+)")


def _cell(letter: str, number: str) -> str:
    cell = f"{letter}{number}"
    if cell not in CELL_INDEX:
        raise InvalidAction(
            f"{cell} is not a cell of the board: columns are a-f and rows 1-4 (for example d3)."
        )
    return cell


# --------------------------------------------------------------------------- boards


def layout_to_coins(layout: str) -> str:
    """A PPN coin string (rows 4 down to 1, e.g. `n45a5n/3a2243/3n4a2n/a25345`) -> board."""
    if not isinstance(layout, str):
        raise GameError("A Relativity layout is a string such as n45a5n/3a2243/3n4a2n/a25345.")
    rows = [r for r in re.split(r"[/\s]+", layout.strip().lower()) if r]
    if len(rows) != ROWS or any(len(r) != len(COLUMNS) for r in rows):
        raise GameError(
            f"Layout {layout!r} must have 4 rows of 6 coins separated by '/', "
            "from row 4 down to row 1, e.g. n45a5n/3a2243/3n4a2n/a25345."
        )
    aliases = {"0": "n", "1": "a"}
    grid = {}
    for k, row_text in enumerate(rows):
        row = ROWS - 1 - k
        for col, ch in enumerate(row_text):
            value = aliases.get(ch, ch)
            if value not in VALUE_RANK:
                raise GameError(f"Layout {layout!r}: {ch!r} is not a coin value (n for null, "
                                "a for ace, 2, 3, 4, 5).")
            grid[_index(col, row)] = value
    coins = "".join(grid[i] for i in range(len(CELLS)))
    for v in VALUES:
        if coins.count(v) != 4:
            raise GameError(
                f"Layout {layout!r} has {coins.count(v)} coins of value {value_name(v)}; "
                "a piecepack has four of each value."
            )
    return coins


def coins_to_layout(coins: str) -> str:
    return "/".join(
        "".join(coins[_index(col, row)] for col in range(len(COLUMNS)))
        for row in range(ROWS - 1, -1, -1)
    )


def is_misdeal(coins: str) -> bool:
    return len({coins[i] for i in CENTRE}) == 1


def deal_once(rng: Rng) -> str:
    """Each suit's six coins fill one 2x3 quadrant (so each quadrant holds one of each value)."""
    grid = {}
    for col0 in (0, 3):
        for row0 in (0, 2):
            values = rng.shuffled(VALUES)
            for k, (dc, dr) in enumerate((dc, dr) for dr in (0, 1) for dc in (0, 1, 2)):
                grid[_index(col0 + dc, row0 + dr)] = values[k]
    return "".join(grid[i] for i in range(len(CELLS)))


def deal(rng: Rng) -> str:
    """A deal, re-dealt while the four centre coins show one value (the misdeal)."""
    while True:
        coins = deal_once(rng)
        if not is_misdeal(coins):
            return coins


def molecule(coins: str, value: str) -> tuple[int, ...] | None:
    """The four cells of `value` if they are orthogonally connected (no wrap), else None."""
    cells = [i for i, v in enumerate(coins) if v == value]
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        for j in ORTHOGONAL[stack.pop()]:
            if j not in seen and coins[j] == value:
                seen.add(j)
                stack.append(j)
    return tuple(cells) if len(seen) == len(cells) else None


# --------------------------------------------------------------------------- rules text


RULES = """\
# Relativity

*A piecepack game for two by Marty and Ron Hale-Evans (version 110808a, © 2011, CC BY-SA \
3.0). Their rules in our words; our own rulings are marked as ours.*

**Board.** 24 coins, value side up, on a 4x6 grid: columns a-f, rows 1-4 (row 1 at the \
bottom). Each suit's six coins fill one 2x3 quadrant, so each quadrant has one coin of every \
value. If the four centre coins (c2, d2, c3, d3) all show one value, it is a misdeal: deal \
again.

**Roles.** One player is Space, the other Time. Space moves first. Players take turns \
swapping two coins. Write a swap as `d3#e3` (`d3-e3`, `d3 e3`, any order or case also work).
- **Space** swaps a coin with one of its 8 neighbours (orthogonal or diagonal). The board \
wraps: the left edge touches the right edge and the top touches the bottom, so corners touch.
- **Time** swaps any two coins, anywhere, whose values are next to each other in the cycle \
null-ace-2-3-4-5-null (a 5 and a null are next to each other).
- Either way every coin has exactly 8 possible partners.
- **No reverse:** you may not swap back the same two coins your opponent just swapped.

**Molecules and trophies.** A molecule is four coins of one value joined edge to edge (not \
diagonally, and not across the wrapped edges). When your swap makes a molecule, you take that \
value's trophy for the round (Moons at Night, Suns by Day), unless it was already taken this \
round; make several at once and you take them all.

**Rounds.** The Night round ends as soon as five Moon trophies are won. If one trophy is then \
left, it is set aside and nobody scores it (a single swap can win the fifth and sixth \
together, and then both count). The board is dealt afresh, the players swap roles, and Day \
begins; Space again moves first.

**End.** The game ends as soon as a player holds six or more trophies, or when the fifth Sun \
trophy is won (a last Sun trophy left over is set aside the same way). Most trophies wins; \
at five each, the player who was Space at Night wins.

**Our rulings** (the authors' text does not say):
- Who plays Space at Night is drawn at random when the game starts.
- A Space swap may exchange two neighbours showing the same value, and a swap must be \
between two different cells.
- "No reverse" does not carry over into a new round.
- A trophy goes to whoever's swap leaves a complete molecule of an unclaimed value. A board \
the bot deals never starts with one.
- Both boards are dealt when the game starts; the Day board stays hidden until Day.
- Nothing stops a game from running long: either player may resign or offer a draw at any \
time.
- When a move deadline passes, the player who was to move loses.
"""


# --------------------------------------------------------------------------- the game


class Relativity(Game):
    name = "relativity"
    title = "Relativity"
    min_players = 2
    max_players = 2
    # Fixed layouts would let whoever sets them know the Day board before Day.
    secret_options = frozenset({"layouts"})
    rules = RULES

    # ---- setup ---------------------------------------------------------------------------

    def _setup(self, players, rng, options):
        unknown = set(options) - {"layouts"}
        if unknown:
            raise GameError(f"Unknown Relativity option(s): {', '.join(sorted(unknown))}. "
                            "The only option is 'layouts'.")
        layouts = options.get("layouts")
        if layouts is None:
            layouts = []
        elif isinstance(layouts, str):
            layouts = [layouts]
        elif not isinstance(layouts, (list, tuple)) or not 1 <= len(layouts) <= 2:
            raise GameError("'layouts' is a list of one or two PPN coin strings: [night, day].")
        layouts = list(layouts) + [None] * (2 - len(layouts))
        boards = [layout_to_coins(text) if text is not None else deal(rng) for text in layouts]
        return {
            "round": "night",
            "boards": boards,          # [night, day]; the Day board is not shown before Day
            "coins": boards[0],
            "turn": "space",
            "last_swap": None,
            "trophies": {r: {v: None for v in VALUES} for r in ROUNDS},
            "molecules": [],
            "end": None,               # {"winners": [...], "reason": str} once play ends it
        }

    def _resample_hidden(self, s, viewer, rng):
        """The Day board is hidden from everyone until Day."""
        data = s["data"]
        if data["round"] == "night":
            data["boards"][1] = deal(rng)

    # ---- whose turn ----------------------------------------------------------------------

    @staticmethod
    def roles(state: Mapping) -> dict[str, str]:
        """{"space": player, "time": player} for the current round."""
        first, second = state["players"]
        if state["data"]["round"] == "night":
            return {"space": first, "time": second}
        return {"space": second, "time": first}

    def _to_act(self, state):
        data = state["data"]
        if data["end"] is not None:
            return ()
        return (self.roles(state)[data["turn"]],)

    # ---- moves ---------------------------------------------------------------------------

    def _legal_actions(self, state, player):
        data = state["data"]
        coins = data["coins"]
        if data["turn"] == "space":
            pairs = _SPACE_PAIRS
        else:
            pairs = []
            by_value = {v: [] for v in VALUES}
            for i, v in enumerate(coins):
                by_value[v].append(i)
            for k, v in enumerate(VALUES):
                following = VALUES[(k + 1) % 6]
                pairs.extend((i, j) if i < j else (j, i) for i in by_value[v] for j in by_value[following])
            pairs.sort()
        last = data["last_swap"]
        banned = None
        if last is not None:
            a, b = CELL_INDEX[last[0]], CELL_INDEX[last[1]]
            banned = (a, b) if a < b else (b, a)
        return [_SWAPS[p] for p in pairs if p != banned]

    def _parse(self, state, player, text):
        match = _SWAP_TEXT.fullmatch(text.strip().lower())
        if match is None:
            raise InvalidAction(
                f"{text!r} is not a swap. Name two cells, for example `d3#e3` "
                "(`d3-e3` and `d3 e3` work too)."
            )
        first = _cell(match[1], match[2])
        second = _cell(match[3], match[4])
        return Swap(first, second)

    def _check(self, state, player, action):
        if not isinstance(action, Swap):
            raise IllegalAction("In Relativity every move is a swap of two coins, e.g. `d3#e3`.")
        for cell in (action.first, action.second):
            if cell not in CELL_INDEX:
                raise IllegalAction(f"{cell} is not a cell of the board (columns a-f, rows 1-4).")
        if action.first == action.second:
            raise IllegalAction("A swap needs two different cells.")
        data = state["data"]
        a, b = CELL_INDEX[action.first], CELL_INDEX[action.second]
        if data["turn"] == "space":
            if b not in SPACE_PARTNERS[a]:
                raise IllegalAction(
                    f"{action.first} and {action.second} are not neighbours. As Space you can swap "
                    "only with one of the 8 neighbours (the board wraps at the edges)."
                )
        else:
            va, vb = data["coins"][a], data["coins"][b]
            if vb not in TIME_PARTNER_VALUES[va]:
                raise IllegalAction(
                    f"{action.first} shows {value_name(va)} and {action.second} shows "
                    f"{value_name(vb)}. As Time you can swap only coins whose values are next "
                    "in the cycle null-ace-2-3-4-5-null."
                )
        last = data["last_swap"]
        if last is not None and {action.first, action.second} == set(last):
            raise IllegalAction(
                f"You may not reverse the swap your opponent just made ({last[0]}#{last[1]})."
            )

    def _apply(self, s, player, action, rng):
        data = s["data"]
        role = data["turn"]
        first, second = action.cells
        a, b = CELL_INDEX[first], CELL_INDEX[second]
        coins = list(data["coins"])
        self._log(s, f"{player} ({ROLE_NAME[role]}) swapped {first} "
                     f"({value_name(coins[a])}) and {second} ({value_name(coins[b])}).",
                  event="swap", player=player, role=role, cells=[first, second])
        coins[a], coins[b] = coins[b], coins[a]
        data["coins"] = "".join(coins)
        data["last_swap"] = [first, second]
        data["turn"] = OTHER_ROLE[role]
        self._claim_molecules(s, player)
        self._end_round_or_game(s)

    def _claim_molecules(self, s: dict, player: str) -> None:
        """`player` takes the trophy of every value now in a molecule and unclaimed this round."""
        data = s["data"]
        round_name = data["round"]
        trophies = data["trophies"][round_name]
        for value in VALUES:
            if trophies[value] is not None:
                continue
            cells = molecule(data["coins"], value)
            if cells is None:
                continue
            trophies[value] = player
            data["molecules"].append({"value": value, "cells": [CELLS[i] for i in cells],
                                      "player": player, "round": round_name})
            self._log(s, f"{player} made a molecule of {value_name(value)}s and takes the "
                         f"{value_name(value)} of {ROUND_SUIT[round_name]}.",
                      event="trophy", player=player, value=value, round=round_name)

    def _end_round_or_game(self, s: dict) -> None:
        """Day follows a Night with five trophies won; the game ends at six trophies held or
        five won by Day."""
        data = s["data"]
        round_name = data["round"]
        trophies = data["trophies"][round_name]
        counts = self._trophy_counts(s)
        won_this_round = sum(p is not None for p in trophies.values())
        if max(counts.values()) >= WINNING_TROPHIES or (
            round_name == "day" and won_this_round >= ROUND_TROPHIES
        ):
            self._finish(s, counts)
        elif round_name == "night" and won_this_round >= ROUND_TROPHIES:
            aside = [value_name(v) for v, p in trophies.items() if p is None]
            data["round"] = "day"
            data["coins"] = data["boards"][1]
            data["turn"] = "space"
            data["last_swap"] = None  # no-reverse does not carry into a new round
            first, second = s["players"]
            note = f" (the {aside[0]} of Moons is set aside)" if aside else ""
            self._log(s, f"Night ends with {won_this_round} Moon trophies won{note}. Day begins on "
                         f"a fresh board: {second} is Space, {first} is Time.",
                      event="round", round="day")

    def _finish(self, s: dict, counts: dict[str, int]) -> None:
        first = s["players"][0]
        best = max(counts.values())
        leaders = [p for p, n in counts.items() if n == best]
        if len(leaders) == 1:
            winner = leaders[0]
            reason = f"{winner} wins with {best} trophies"
        else:
            # Only 5-5 can tie; the rules give it to Night's Space, the first seat.
            winner = first
            reason = f"{best} trophies each: {winner}, Space in the Night round, wins"
        s["data"]["end"] = {"winners": [winner], "reason": reason}
        self._log(s, f"Game over: {reason}.", event="end", winners=[winner])

    # ---- results and views -----------------------------------------------------------------

    @staticmethod
    def _trophy_counts(state: Mapping) -> dict[str, int]:
        counts = {p: 0 for p in state["players"]}
        for by_value in state["data"]["trophies"].values():
            for p in by_value.values():
                if p is not None:
                    counts[p] += 1
        return counts

    def _scores(self, state):
        return self._trophy_counts(state)

    def _result(self, state):
        end = state["data"]["end"]
        if end is None:
            return None
        return Outcome(tuple(end["winners"]), end["reason"])

    def _view(self, state, viewer):
        data = state["data"]
        over = data["end"] is not None or state["result"] is not None
        to_act = () if over else self._to_act(state)
        # A round that closed with five trophies won leaves its last trophy set aside, unscored.
        set_aside = {}
        for r in ROUNDS:
            unclaimed = [v for v in VALUES if data["trophies"][r][v] is None]
            closed = data["round"] == "day" if r == "night" else data["end"] is not None
            set_aside[r] = unclaimed if closed and len(unclaimed) <= 6 - ROUND_TROPHIES else []
        return {
            "round": data["round"],
            "roles": self.roles(state),
            "turn": to_act[0] if to_act else None,
            "coins": {cell: data["coins"][i] for i, cell in enumerate(CELLS)},
            "layout": coins_to_layout(data["coins"]),
            "last_swap": list(data["last_swap"]) if data["last_swap"] else None,
            # The swap was made by the role that is not to move now.
            "last_swap_role": OTHER_ROLE[data["turn"]] if data["last_swap"] else None,
            # In the order of the values, not of the state's keys (a stored state has them
            # sorted): a board drawn live and its replay hold the trophies alike.
            "trophies": {r: {v: data["trophies"][r][v] for v in VALUES} for r in ROUNDS},
            "trophy_counts": self._trophy_counts(state),
            "set_aside": set_aside,
            "molecules": [
                {"value": m["value"], "cells": list(m["cells"]), "player": m["player"],
                 "round": m["round"]}
                for m in data["molecules"]
            ],
        }

    def _prompt(self, state, player):
        data = state["data"]
        role = data["turn"]
        round_title = data["round"].capitalize()
        if role == "space":
            power = ("swap a coin with one of its 8 neighbours, diagonals included; "
                     "the board wraps at the edges")
        else:
            power = ("swap any two coins whose values are next in the cycle "
                     "null-ace-2-3-4-5-null, anywhere on the board")
        text = f"{round_title} round: you are {ROLE_NAME[role]}. Your move: {power}. Example: d3#e3."
        last = data["last_swap"]
        if last:
            text += f" You may not reverse your opponent's swap {last[0]}#{last[1]}."
        return Prompt(player, "public", text)


GAME = Relativity()
