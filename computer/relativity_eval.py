"""Relativity's fast model for search, and how the strong player judges a position.

A board is held as one 24-bit mask of cells per coin value, so a swap, a molecule check and a
"who could complete what in one swap" check are a few integer operations each."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from engine.piecepack import VALUES
from engine.relativity import (CELLS, ORTHOGONAL, OTHER_ROLE, ROUND_TROPHIES, ROWS, SPACE_PARTNERS,
                               WINNING_TROPHIES)

NEXT = {v: VALUES[(i + 1) % 6] for i, v in enumerate(VALUES)}
PREV = {v: VALUES[(i - 1) % 6] for i, v in enumerate(VALUES)}
BIT = tuple(1 << i for i in range(len(CELLS)))


def _connected(cells) -> bool:
    cells = set(cells)
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        for j in ORTHOGONAL[stack.pop()]:
            if j in cells and j not in seen:
                seen.add(j)
                stack.append(j)
    return len(seen) == len(cells)


def _mask(cells) -> int:
    return sum(BIT[c] for c in cells)


def cells_of_mask(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(len(CELLS)) if mask & BIT[i])


# Every placement of a molecule (four orthogonally connected cells), as a mask; and for every
# three cells of one, the mask of the cells that would complete it.
MOLECULE_MASKS = frozenset(_mask(c) for c in combinations(range(len(CELLS)), 4)
                           if max(c) - min(c) <= 3 * ROWS + 3 and _connected(c))
COMPLETION: dict[int, int] = {}
for _m in MOLECULE_MASKS:
    for _i in range(len(CELLS)):
        if _m & BIT[_i]:
            COMPLETION[_m ^ BIT[_i]] = COMPLETION.get(_m ^ BIT[_i], 0) | BIT[_i]
SPACE_MASK = tuple(_mask(p) for p in SPACE_PARTNERS)
# Cells within two Space swaps of each cell: a coin there is one swap from being a neighbour.
SPACE2_MASK = tuple(_mask({k for j in SPACE_PARTNERS[i] for k in SPACE_PARTNERS[j]} - {i})
                    for i in range(len(CELLS)))
TWO_AWAY = {v: (VALUES[(i + 2) % 6], VALUES[(i - 2) % 6]) for i, v in enumerate(VALUES)}
SPACE_PAIRS = tuple((i, j) for i in range(len(CELLS)) for j in SPACE_PARTNERS[i] if j > i)


# Per placement of a value's four coins (a mask), precomputed: its cells, the contacts between
# them, and each coin that, moved onto one of `targets`, would complete a molecule.
PAIRS_IN_MOLECULES = frozenset(m & ~BIT[i] & ~BIT[j] for m in MOLECULE_MASKS
                               for i, j in combinations(cells_of_mask(m), 2))
CELLS_OF: dict[int, tuple[int, ...]] = {}
CONTACTS: dict[int, int] = {}
PROGRESS: dict[int, int] = {}
FINISHERS: dict[int, tuple[tuple[int, int], ...]] = {}
for _four in combinations(range(len(CELLS)), 4):
    _m = _mask(_four)
    CELLS_OF[_m] = _four
    CONTACTS[_m] = sum(1 for i in _four for j in ORTHOGONAL[i] if j > i and _m & BIT[j])
    # (progress: 3 with three coins in place of a molecule, 2 with two, else 0)
    PROGRESS[_m] = 3 if any(_m ^ BIT[i] in COMPLETION for i in _four) \
        else 2 if any(BIT[i] | BIT[j] in PAIRS_IN_MOLECULES for i, j in combinations(_four, 2)) else 0
    FINISHERS[_m] = tuple((i, COMPLETION[_m ^ BIT[i]]) for i in _four if _m ^ BIT[i] in COMPLETION)


def cells_in(mask: int) -> tuple[int, ...]:
    return CELLS_OF[mask]


class Position:
    """A mutable model of a Relativity position for search: play/undo in place."""

    def __init__(self, state):
        data = state["data"]
        self.players = tuple(state["players"])
        self.coins = list(data["coins"])
        self.masks = self._masks(self.coins)
        self.round = data["round"]
        self.day_board = data["boards"][1]
        self.role = data["turn"]
        self.last = None
        if data["last_swap"]:
            a, b = sorted(CELLS.index(c) for c in data["last_swap"])
            self.last = (a, b)
        self.claimed = {v: p is not None for v, p in data["trophies"][self.round].items()}
        self.counts = [0, 0]
        for by_value in data["trophies"].values():
            for p in by_value.values():
                if p is not None:
                    self.counts[self.players.index(p)] += 1
        self.won_this_round = sum(self.claimed.values())
        self.winner = None  # seat index once the game is over

    @staticmethod
    def _masks(coins) -> dict:
        masks = dict.fromkeys(VALUES, 0)
        for i, v in enumerate(coins):
            masks[v] |= BIT[i]
        return masks

    def coins_key(self) -> str:
        return "".join(self.coins)

    def key(self):
        """What tells two positions apart for the search (trophies held included)."""
        return (self.coins_key(), self.role, self.last, self.round, self.counts[0], self.counts[1],
                tuple(self.claimed.values()))

    def mover(self) -> int:
        """Seat index of the player to move: seat 0 is Space at Night and Time by Day."""
        space = 0 if self.round == "night" else 1
        return space if self.role == "space" else 1 - space

    def moves(self) -> list[tuple[int, int]]:
        if self.role == "space":
            pairs = SPACE_PAIRS
        else:
            masks = self.masks
            pairs = [(i, j) if i < j else (j, i)
                     for v in VALUES for i in cells_in(masks[v]) for j in cells_in(masks[NEXT[v]])]
        return [p for p in pairs if p != self.last]

    def play(self, move):
        """Make the swap; return what `undo` needs."""
        a, b = move
        coins = self.coins
        saved = (self.role, self.last, self.won_this_round, self.winner, self.counts[:], None)
        mover = self.mover()
        va, vb = coins[a], coins[b]
        coins[a], coins[b] = vb, va
        if va != vb:
            both = BIT[a] | BIT[b]
            self.masks[va] ^= both
            self.masks[vb] ^= both
        self.last = move
        self.role = OTHER_ROLE[self.role]
        took = []
        for value in (va, vb) if va != vb else (va,):
            if not self.claimed[value] and self.masks[value] in MOLECULE_MASKS:
                took.append(value)
        if took:
            for value in took:
                self.claimed[value] = True
            self.counts[mover] += len(took)
            self.won_this_round += len(took)
            saved = saved[:5] + (took,)
            if max(self.counts) >= WINNING_TROPHIES or (
                    self.round == "day" and self.won_this_round >= ROUND_TROPHIES):
                best = max(self.counts)
                self.winner = 0 if self.counts[0] == best else 1
            elif self.round == "night" and self.won_this_round >= ROUND_TROPHIES:
                saved = saved + ((self.coins, self.masks, self.claimed, self.round),)
                self.round, self.coins, self.role, self.last = "day", list(self.day_board), "space", None
                self.masks = self._masks(self.coins)
                self.claimed = dict.fromkeys(VALUES, False)
                self.won_this_round = 0
        return move, va, vb, saved

    def undo(self, token):
        move, va, vb, saved = token
        self.role, self.last, self.won_this_round, self.winner, self.counts, took = saved[:6]
        if len(saved) > 6:
            self.coins, self.masks, self.claimed, self.round = saved[6]
        if took:
            for value in took:
                self.claimed[value] = False
        a, b = move
        self.coins[a], self.coins[b] = va, vb
        if va != vb:
            both = BIT[a] | BIT[b]
            self.masks[va] ^= both
            self.masks[vb] ^= both

    def finishing(self, role) -> dict:
        """{swap: value} for the swaps open to `role` now that complete an unclaimed molecule."""
        found = {}
        masks = self.masks
        last = self.last
        for value in VALUES:
            if self.claimed[value]:
                continue
            finishers = FINISHERS[masks[value]]
            if not finishers:
                continue
            reach = masks[NEXT[value]] | masks[PREV[value]] if role == "time" else 0
            for moving, targets in finishers:
                targets &= SPACE_MASK[moving] if role == "space" else reach
                while targets:
                    low = targets & -targets
                    target = low.bit_length() - 1
                    targets ^= low
                    move = (moving, target) if moving < target else (target, moving)
                    if move != last:
                        found[move] = value
        return found

    def threats(self, role) -> set:
        """Unclaimed values that `role` could complete with one swap now."""
        found = set()
        masks = self.masks
        last = self.last
        for value in VALUES:
            if self.claimed[value]:
                continue
            finishers = FINISHERS[masks[value]]
            if not finishers:
                continue
            reach = masks[NEXT[value]] | masks[PREV[value]] if role == "time" else 0
            for moving, targets in finishers:
                targets &= SPACE_MASK[moving] if role == "space" else reach
                if last is not None and moving in last:
                    targets &= ~BIT[last[0] + last[1] - moving]
                if targets:
                    found.add(value)
                    break
        return found

    def unstoppable(self) -> bool:
        """Whether every swap of the player to move leaves the other role a molecule to
        complete at once (the mover having none of its own to take first)."""
        other = OTHER_ROLE[self.role]
        for move in self.moves():
            token = self.play(move)
            held = self.winner is None and bool(self.threats(other))
            self.undo(token)
            if not held:
                return False
        return True

    def prepared(self, role) -> int:
        """Unclaimed values `role` could make a threat of (a molecule one swap away) with one
        swap: three coins in place and the fourth, or the cell to fill, one step off."""
        count = 0
        masks = self.masks
        for value in VALUES:
            if self.claimed[value]:
                continue
            finishers = FINISHERS[masks[value]]
            if not finishers:
                continue
            if role == "time":
                far, near = TWO_AWAY[value]
                reach = masks[far] | masks[near] | masks[NEXT[value]] | masks[PREV[value]]
                if any(targets & reach for _, targets in finishers):
                    count += 1
            elif any(targets & SPACE2_MASK[moving] for moving, targets in finishers):
                count += 1
        return count

    def near(self) -> int:
        """Unclaimed values with three coins in place of a molecule (one coin to bring)."""
        return sum(1 for v in VALUES if not self.claimed[v] and FINISHERS[self.masks[v]])

    def progress(self) -> int:
        """How far the unclaimed values are on their way to molecules: 3 for three coins in
        place of one, 2 for two, summed."""
        return sum(PROGRESS[self.masks[v]] for v in VALUES if not self.claimed[v])

    def togetherness(self) -> int:
        """Orthogonal contacts between like coins of unclaimed values (molecules in the making)."""
        return sum(CONTACTS[self.masks[v]] for v in VALUES if not self.claimed[v])


WIN = 100_000
# A trophy outweighs all that the value's coins counted for before it was taken (a threat,
# its preparation, its place in the plan: up to about 200), or the player would rather keep a
# molecule one swap away than take it.
TROPHY = 250

# their_gain: what the opponent's trophies, threats and preparation count for the root player
# as a share of its own (1: as much; less while it lets a stalled round run on to its end).
# their_won: two molecules or more that the other side could complete and no swap of the side
# to move stops (checked swap by swap, so only where it matters: 0 leaves it unchecked and
# counts every double as `their_double`).
DEFAULT_WEIGHTS = {"my_threat": 85, "extra_threat": 10, "their_threat": 20, "their_double": 70,
                   "their_won": 0, "together": 6, "near": 5, "prepared": 35, "their_prepared": 35,
                   "their_gain": 1.0}

# How often the player in the role of Time takes the next trophy between two good players:
# Time's swaps reach across the board, Space's only around a coin (measured with the
# benchmark's players: Time took about four trophies in five).
TIME_SHARE = 0.8


@lru_cache(maxsize=None)
def _seat0_wins(round_name: str, c0: int, c1: int, won: int) -> float:
    """The chance that seat 0 (Space at Night, Time by Day) wins from these trophy counts if
    each further trophy goes to the player in the role of Time with chance TIME_SHARE."""
    time_seat = 1 if round_name == "night" else 0
    chance = 0.0
    for seat, share in ((time_seat, TIME_SHARE), (1 - time_seat, 1 - TIME_SHARE)):
        a, b = (c0 + 1, c1) if seat == 0 else (c0, c1 + 1)
        if max(a, b) >= WINNING_TROPHIES or (round_name == "day" and won + 1 >= ROUND_TROPHIES):
            value = 1.0 if a >= b else 0.0   # (five each: the Night's Space player wins)
        elif round_name == "night" and won + 1 >= ROUND_TROPHIES:
            value = _seat0_wins("day", a, b, 0)
        else:
            value = _seat0_wins(round_name, a, b, won + 1)
        chance += share * value
    return chance


def chances(pos: "Position", seat: int, takers: tuple[int, ...] = ()) -> float:
    """`seat`'s chance of winning by that model once the seats in `takers` have taken the next
    trophies in turn: the long view of a trophy count that the search's horizon cannot see."""
    counts = list(pos.counts)
    won = pos.won_this_round
    round_name = pos.round
    for taker in takers:
        counts[taker] += 1
        won += 1
        if max(counts) >= WINNING_TROPHIES or (round_name == "day" and won >= ROUND_TROPHIES):
            winner = 0 if counts[0] >= counts[1] else 1   # (five each: Night's Space wins)
            return 1.0 if winner == seat else 0.0
        if round_name == "night" and won >= ROUND_TROPHIES:
            round_name, won = "day", 0
    zero = _seat0_wins(round_name, counts[0], counts[1], won)
    return zero if seat == 0 else 1 - zero


def evaluate(pos: Position, weights, root: int) -> float:
    """Score for the player to move (negamax convention).

    The side to move with a molecule one swap away takes it; if it has none, two values the
    other side could complete are more than it can stop with one swap. The root player (the one
    deciding) also counts molecules in the making (contacts of like coins, and values three
    quarters done) as its plan, whoever is to move: not zero-sum on purpose, it makes the
    player build instead of only refusing the opponent's molecules, and so games end. For the
    same reason the opponent's gains count `their_gain` of the root player's own.
    """
    me = pos.mover()
    if pos.winner is not None:
        return WIN if pos.winner == me else -WIN
    gain = weights["their_gain"]
    mine_k, theirs_k = (1.0, gain) if me == root else (gain, 1.0)
    other_role = OTHER_ROLE[pos.role]
    score = TROPHY * (mine_k * pos.counts[me] - theirs_k * pos.counts[1 - me])
    mine = pos.threats(pos.role)
    if mine:
        score += mine_k * (weights["my_threat"] + weights["extra_threat"] * (len(mine) - 1))
    else:
        theirs = pos.threats(other_role)
        if len(theirs) >= 2 and weights["their_won"] and pos.unstoppable():
            score -= theirs_k * weights["their_won"]
        elif len(theirs) >= 2:
            score -= theirs_k * weights["their_double"]
        elif theirs:
            score -= theirs_k * weights["their_threat"]
    if weights["prepared"] or weights["their_prepared"]:
        # (the root player's own preparation weighs more: its plan, as below)
        mine_w, theirs_w = (weights["prepared"], weights["their_prepared"]) if me == root else \
            (weights["their_prepared"], weights["prepared"])
        score += mine_k * mine_w * pos.prepared(pos.role) - theirs_k * theirs_w * pos.prepared(other_role)
    if not (weights["together"] or weights["near"]):
        return score
    plan = weights["together"] * pos.togetherness() + weights["near"] * pos.progress()
    return score + (plan if me == root else -plan)
