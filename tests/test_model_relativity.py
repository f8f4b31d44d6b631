"""Relativity: the engine played against an independent model of the rules, move by move.

The model below is written from the rules text (seeds/relativity.txt) and RULINGS.md only, not
from engine/relativity.py. Random games (seeded, so every failure replays) are played through
the public contract; after every move the model and the engine must agree on who acts, the legal
swaps of both players, the board, the trophies, the scores and the outcome.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine import IllegalAction, InvalidAction, NotYourTurn

GAME = engine.get_game("relativity")
VALUES = "na2345"
COLUMNS = "abcdef"
ROWS = 4
CELLS = [c + str(r) for c in COLUMNS for r in range(1, ROWS + 1)]  # a1 a2 a3 a4 b1 ...
CENTRE = ("c2", "d2", "c3", "d3")


def cell_name(col: int, row: int) -> str:
    """col 0..5, row 0..3 -> 'a1'..'f4'."""
    return COLUMNS[col] + str(row + 1)


POSITIONS = {c + str(r): (COLUMNS.index(c), r - 1) for c in COLUMNS for r in range(1, ROWS + 1)}
RANK = {v: i for i, v in enumerate(VALUES)}


def cell_pos(name: str) -> tuple[int, int]:
    return POSITIONS[name]


def swap_name(x: str, y: str) -> str:
    a, b = sorted((x, y))
    return f"{a}#{b}"


# ----------------------------------------------------------------------------- deals


def dealt_layout(rnd: random.Random) -> str:
    """A deal by the rules: each suit's six coins (one of each value) fill a 2x3 quadrant;
    deal again while the four centre coins show one value."""
    while True:
        board = {}
        for cols in ((0, 1, 2), (3, 4, 5)):
            for rows in ((0, 1), (2, 3)):
                values = rnd.sample(VALUES, 6)
                for i, (c, r) in enumerate((c, r) for c in cols for r in rows):
                    board[cell_name(c, r)] = values[i]
        if len({board[c] for c in CENTRE}) > 1:
            return layout_string(board)


def free_layout(rnd: random.Random) -> str:
    """Four coins of each value anywhere (a fixed layout is used as given; it may even hold a
    molecule already), centre coins not all equal."""
    while True:
        values = list(VALUES * 4)
        rnd.shuffle(values)
        board = dict(zip(CELLS, values))
        if len({board[c] for c in CENTRE}) > 1:
            return layout_string(board)


def planted_layout(rnd: random.Random) -> str:
    """Every column one value (six molecules ready made), then a few random swaps: molecules
    already on the board, and several made by one swap."""
    while True:
        values = rnd.sample(VALUES, 6)
        board = {name: values[COLUMNS.index(name[0])] for name in CELLS}
        for _ in range(rnd.choice([0, 1, 2, 2, 3, 4])):
            x, y = rnd.sample(CELLS, 2)
            board[x], board[y] = board[y], board[x]
        if len({board[c] for c in CENTRE}) > 1:
            return layout_string(board)


def layout_string(board: dict) -> str:
    """PPN coin string: rows 4 down to 1, columns a-f."""
    rows = reversed(range(ROWS))
    return "/".join("".join(board[cell_name(c, r)] for c in range(6)) for r in rows)


def parse_layout(text: str) -> dict:
    rows = text.split("/")
    return {cell_name(c, ROWS - 1 - i): rows[i][c] for i in range(ROWS) for c in range(6)}


LAYOUT_KINDS = [dealt_layout] * 4 + [free_layout, free_layout, planted_layout, planted_layout]


# ----------------------------------------------------------------------------- the model


def space_partners(name: str) -> set[str]:
    """The 8 neighbours on the wrapped (torus) board."""
    c, r = cell_pos(name)
    return {
        cell_name((c + dc) % 6, (r + dr) % ROWS)
        for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)
    }


SPACE_SWAPS = {swap_name(x, y) for x in CELLS for y in space_partners(x)}


def next_in_cycle(a: str, b: str) -> bool:
    return (RANK[a] - RANK[b]) % 6 in (1, 5)


def molecule_complete(board: dict, value: str) -> bool:
    """All four coins of `value` joined orthogonally, without wrapping."""
    cells = {cell_pos(n) for n, v in board.items() if v == value}
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        c, r = todo.pop()
        for nb in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells) == 4


class Model:
    def __init__(self, players: list[str], night: str, day: str):
        self.players = players
        self.layouts = {"night": night, "day": day}
        self.trophies = {p: 0 for p in players}
        self.owners = {"night": dict.fromkeys(VALUES), "day": dict.fromkeys(VALUES)}
        self.events: set[str] = set()  # what happened, for the coverage check
        self.start_round("night")
        self.over = False
        self.loser = None

    def start_round(self, name: str) -> None:
        self.round = name
        self.board = parse_layout(self.layouts[name])
        first, second = self.players
        self.space, self.time = (first, second) if name == "night" else (second, first)
        self.turn = self.space  # Space moves first in both rounds
        self.last_swap = None  # no reverse does not carry over into a new round
        self.claimed: set[str] = set()

    def to_act(self) -> tuple[str, ...]:
        return () if self.over else (self.turn,)

    def legal(self, player: str) -> set[str]:
        if self.over or player != self.turn:
            return set()
        if player == self.space:
            moves = set(SPACE_SWAPS)
        else:
            moves = {
                swap_name(x, y) for x in CELLS for y in CELLS
                if x < y and next_in_cycle(self.board[x], self.board[y])
            }
        moves.discard(self.last_swap)
        return moves

    def scoring(self, move: str) -> list[str]:
        """Values of the two coins whose trophies `move` would take (biases random play)."""
        x, y = move.split("#")
        board = dict(self.board)
        board[x], board[y] = board[y], board[x]
        return [
            v for v in {board[x], board[y]}
            if v not in self.claimed and molecule_complete(board, v)
        ]

    def apply(self, player: str, move: str) -> None:
        assert move in self.legal(player)
        x, y = move.split("#")
        self.board[x], self.board[y] = self.board[y], self.board[x]
        self.last_swap = move
        won = [v for v in VALUES if v not in self.claimed and molecule_complete(self.board, v)]
        if won and any(v not in (self.board[x], self.board[y]) for v in won):
            self.events.add("ready-molecule")
        if len(won) > 1:
            self.events.add("double")
        self.claimed |= set(won)
        self.trophies[player] += len(won)
        self.owners[self.round].update(dict.fromkeys(won, player))
        self.turn = self.time if player == self.space else self.space
        if max(self.trophies.values()) >= 6:
            self.over = True
            self.events.add("six" if self.round == "day" else "night-six")
        elif len(self.claimed) >= 5:
            if self.round == "night":
                self.start_round("day")
                self.events.add("day")
            else:
                self.over = True
                self.events.add("five-suns")
        if self.over and len(set(self.trophies.values())) == 1:
            self.events.add("tie")

    def leave(self, player: str, event: str) -> None:
        """The player resigned or let the deadline pass: the other wins at once."""
        self.over = True
        self.loser = player
        self.events.add(event)

    def winners(self) -> tuple[str, ...] | None:
        if not self.over:
            return None
        first, second = self.players
        if self.loser is not None:
            return (second,) if self.loser == first else (first,)
        a, b = self.trophies[first], self.trophies[second]
        if a == b:
            assert a == 5, "only 5-5 can tie"
            return (first,)  # the Night-round Space player
        return (first,) if a > b else (second,)


# ----------------------------------------------------------------------------- comparison


def swap_text(rnd: random.Random, move: str) -> str:
    """One of the accepted spellings of a swap."""
    x, y = move.split("#")
    if rnd.random() < 0.5:
        x, y = y, x
    sep = rnd.choice(["#", "-", " "])
    text = f"{x}{sep}{y}"
    return text.upper() if rnd.random() < 0.3 else text


def compare(state, model: Model, where) -> None:
    """`where()` describes the game so far, for failure messages."""
    where = where()
    players = model.players
    assert tuple(GAME.to_act(state)) == model.to_act(), f"{where}: to_act"
    for p in players:
        engine_moves = {str(a) for a in GAME.legal_actions(state, p)}
        model_moves = model.legal(p)
        assert engine_moves == model_moves, (
            f"{where}: legal swaps of {p}: engine only {sorted(engine_moves - model_moves)}, "
            f"model only {sorted(model_moves - engine_moves)}"
        )
    assert GAME.scores(state) == model.trophies, f"{where}: scores"
    view = GAME.view(state, None)
    assert view["coins"] == model.board, f"{where}: board"
    assert view["round"] == model.round, f"{where}: round"
    assert view["roles"] == {"space": model.space, "time": model.time}, f"{where}: roles"
    assert view["trophies"] == model.owners, f"{where}: trophies"
    outcome = GAME.outcome(state)
    winners = model.winners()
    if winners is None:
        assert outcome is None, f"{where}: engine ended the game: {outcome}"
    else:
        assert outcome is not None, f"{where}: engine did not end the game"
        assert tuple(outcome.winners) == winners, f"{where}: winners"


def play_game(seed: int, max_moves: int = 600) -> Model:
    """Play one random game, comparing at every step; returns the model at the end."""
    rnd = random.Random(seed)
    players = ["p1", "p2"]
    make = LAYOUT_KINDS[seed % len(LAYOUT_KINDS)]
    night, day = make(rnd), make(rnd)
    state = GAME.new_game(players, seed=seed, options={"layouts": [night, day]})
    model = Model(players, night, day)
    history: list[str] = []

    def where():
        return f"seed {seed} (layouts {night} {day}) after {history}"

    compare(state, model, where)
    # Trophies come rarely from blind play: take a scoring swap when one exists, most times.
    greed = rnd.choice([0.3, 0.7, 1.0])
    # a few games end early: the player to move resigns, or lets the deadline pass
    stop_at = rnd.randrange(100) if rnd.random() < 0.15 else None
    for n in range(max_moves):
        if model.over:
            break
        (player,) = model.to_act()
        if n == stop_at:
            if rnd.random() < 0.5:
                state = GAME.resign(state, player)
                model.leave(player, "resign")
            else:
                state = GAME.expire(state)
                model.leave(player, "expire")
            history.append(f"{player} leaves")
            compare(state, model, where)
            break
        legal = sorted(model.legal(player))
        if n % 3 == 2:
            check_refusals(state, model, player, rnd, where)
        scoring = [m for m in legal if model.scoring(m)]
        move = rnd.choice(scoring) if scoring and rnd.random() < greed else rnd.choice(legal)
        action = GAME.parse_action(state, player, swap_text(rnd, move))
        assert str(action) == move, f"{where()}: parsed {move} as {action}"
        state = GAME.apply(state, player, action)
        model.apply(player, move)
        history.append(move)
        compare(state, model, where)
    return model


def check_refusals(state, model: Model, player: str, rnd: random.Random, where) -> None:
    """A random swap the model says is illegal (often the reverse of the last swap, now and
    then one cell twice) is refused and changes nothing; so is unreadable text, and a move by
    the player who is not to act."""
    before = GAME.to_json(state)
    legal = model.legal(player)
    if model.last_swap and rnd.random() < 0.3:
        illegal = model.last_swap
    elif rnd.random() < 0.1:
        cell = rnd.choice(CELLS)
        illegal = f"{cell}#{cell}"
    else:
        while True:
            x, y = rnd.sample(CELLS, 2)
            if swap_name(x, y) not in legal:
                break
        illegal = swap_name(x, y)
    with pytest.raises(IllegalAction):
        GAME.apply(state, player, swap_text(rnd, illegal))
    with pytest.raises(InvalidAction):
        GAME.apply(state, player, rnd.choice(["g1#a1", "a0#a1", "a5-a4", "d3", "swap", "#"]))
    other = next(p for p in model.players if p != player)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, other, swap_text(rnd, rnd.choice(sorted(legal))))
    assert GAME.to_json(state) == before, f"{where()}: a refused move changed the state"


# ----------------------------------------------------------------------------- the tests


def test_random_games_match_the_model():
    seen = set()
    for seed in range(200):
        model = play_game(seed)
        assert model.over, f"seed {seed}: the game did not end within the move limit"
        seen |= model.events
    # the games reached every kind of situation the end rules speak of
    assert seen >= {
        "day", "double", "six", "five-suns", "tie", "night-six", "ready-molecule", "resign",
        "expire",
    }, seen
