"""BYOP1: the engine played against an independent model of the rules, step by step.

The model is written from the rules text (seeds/byop1.txt) and RULINGS.md only, not from
engine/byop1.py, and drives the engine through the public contract with the `deals` option and
the notation of RULINGS.md. Its players really solve their boards: the model makes each deal by
scrambling a correct board with random slides, so a player knows the way back (their own
solver), which they follow with detours of their own. Others fumble on purpose, dawdle, or
match another player's slide count to force ties. After every step the model and the engine
must agree on who acts, every player's legal moves and board, the slide counts, who has
finished and how, the points, the round and playoff, and the result.
"""

from __future__ import annotations

import functools
import random

import pytest

import engine
from engine import IllegalAction, NotYourTurn

GAME = engine.get_game("byop1")
SUITS = "SMCA"
VALUES = "a2345"
N = 5
# Where the tile comes from, seen from the hole, for each slide (the way the tile moves).
FROM = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}
UNDO = {"U": "D", "D": "U", "L": "R", "R": "L"}


# ----------------------------------------------------------------------------- boards


class Board:
    def __init__(self, cells: dict, hole: tuple[int, int]):
        self.cells = dict(cells)   # (row, col) 1-based -> code
        self.hole = hole
        self.slides = 0

    def copy(self) -> "Board":
        b = Board(self.cells, self.hole)
        b.slides = self.slides
        return b

    def can(self, move: str) -> bool:
        r, c = self.hole
        dr, dc = FROM[move]
        return 1 <= r + dr <= N and 1 <= c + dc <= N

    def move(self, move: str) -> None:
        r, c = self.hole
        dr, dc = FROM[move]
        src = (r + dr, c + dc)
        self.cells[(r, c)] = self.cells.pop(src)
        self.hole = src
        self.slides += 1

    def listing(self) -> list[str]:
        return [self.cells.get((r, c), ".") for r in range(1, N + 1) for c in range(1, N + 1)]

    def correct(self, rows: str, cols: str) -> bool:
        for (r, c), code in self.cells.items():
            if r == N:
                if code[0] != "n":
                    return False
            elif code != cols[c - 1] + rows[r - 1]:
                return False
        return True


def make_deal(rnd: random.Random, scramble: int) -> tuple[str, str, str]:
    """(deal string, rows, the slides that solve it)."""
    rows = "".join(rnd.sample(SUITS, 4))
    cols = "".join(rnd.sample(VALUES, 5))
    cells = {(r, c): cols[c - 1] + rows[r - 1] for r in range(1, N) for c in range(1, N + 1)}
    nulls = rnd.sample(["n" + s for s in SUITS], 4)
    for c in range(1, N):
        cells[(N, c)] = nulls[c - 1]
    board = Board(cells, (N, N))
    walk = []
    for _ in range(scramble):
        move = rnd.choice([m for m in "UDLR" if board.can(m)])
        board.move(move)
        walk.append(move)
    while board.hole[1] < N:       # the hole back to the bottom right corner
        board.move("L")
        walk.append("L")
    while board.hole[0] < N:
        board.move("U")
        walk.append("U")
    tiles = board.listing()
    assert tiles[-1] == "."
    solution = "".join(UNDO[m] for m in reversed(walk))
    return f"{rows}/{cols}/{' '.join(tiles[:-1])}", rows + "|" + cols, solution


def parse_model_deal(text: str) -> tuple[Board, str, str]:
    rows, cols, tiles = text.split("/")
    codes = tiles.split() + ["."]
    cells = {(i // N + 1, i % N + 1): code for i, code in enumerate(codes) if code != "."}
    return Board(cells, (N, N)), rows, cols


# ----------------------------------------------------------------------------- the model


class Model:
    def __init__(self, players, rounds, ranking, autodone, deals):
        self.players = list(players)
        self.rounds = rounds
        self.ranking = ranking
        self.autodone = autodone
        self.deals = list(deals)
        self.totals = {p: 0 for p in players}
        self.round_no = 0
        self.playoff = 0
        self.over = False
        self.winners: tuple = ()
        self.history: list[dict] = []
        self.start_round(self.players)

    def start_round(self, players) -> None:
        board, self.rows, self.cols = parse_model_deal(self.deals.pop(0))
        self.round_no += 1
        self.in_round = list(players)
        self.boards = {p: board.copy() for p in players}
        self.status = {p: "solving" for p in players}
        self.calls: list[str] = []

    def solving(self) -> list[str]:
        return [p for p in self.in_round if self.status[p] == "solving"]

    def to_act(self) -> list[str]:
        return [] if self.over else self.solving()

    def legal(self, player) -> list[str]:
        if player not in self.to_act():
            return []
        return [m for m in "UDLR" if self.boards[player].can(m)] + ["done"]

    def slides(self, player, moves: str) -> None:
        board = self.boards[player]
        for m in moves:
            board.move(m)
            if self.autodone and board.correct(self.rows, self.cols):
                self.done(player)
                return

    def done(self, player) -> None:
        ok = self.boards[player].correct(self.rows, self.cols)
        self.status[player] = "correct" if ok else "fumble"
        self.calls.append(player)
        left = self.solving()
        if (len(left) <= 1 and len(self.in_round) > 1 and self.ranking == "race") or not left:
            self.finish_round()

    def deadline(self) -> None:
        self.finish_round()

    def finish_round(self) -> None:
        # Rule 9 in its own words: fumblers score nothing; everyone else gets a point per
        # fumbler plus one per non-fumbler they beat. Correct boards beat later ones (or, by
        # slides, longer ones) and every unfinished board; unfinished boards beat nobody.
        fumblers = [p for p in self.in_round if self.status[p] == "fumble"]
        rest = [p for p in self.in_round if p not in fumblers]
        correct = [p for p in self.calls if self.status[p] == "correct"]
        if self.ranking == "slides":
            correct.sort(key=lambda p: (self.boards[p].slides, self.calls.index(p)))
        for p in rest:
            beaten = len(rest) - 1 - correct.index(p) if p in correct else 0
            self.totals[p] += beaten + len(fumblers)
        self.history.append({p: ("unfinished" if st == "solving" else st)
                             for p, st in self.status.items()})
        if self.round_no < self.rounds and not self.playoff:
            self.start_round(self.players)
            return
        pool = self.in_round if self.playoff else self.players
        top = max(self.totals[p] for p in pool)
        tied = [p for p in pool if self.totals[p] == top]
        if len(tied) == 1:
            self.over, self.winners = True, tuple(tied)
            if len(self.players) == 1:
                self.winners = tuple(tied) if self.solo_won else ()
        else:
            self.playoff += 1
            self.start_round(tied)

    @property
    def solo_won(self) -> bool:
        """Alone, a game is won when every board was called Done correct."""
        return all(h[self.players[0]] == "correct" for h in self.history)


# ----------------------------------------------------------------------------- players


class Player:
    """How one seat plays a round: `solver` follows their solution with detours and calls Done
    when correct; `fumbler` calls Done after a few slides; `dawdler` wanders and never calls;
    `matcher` solves with exactly `target` slides (to tie with someone)."""

    def __init__(self, style: str, solution: str, rnd: random.Random):
        self.style = style
        self.rnd = rnd
        self.plan = self.make_plan(solution)

    def make_plan(self, solution: str) -> list[str]:
        steps: list[str] = []
        if self.style == "fumbler":
            return ["D"] * self.rnd.randint(0, 1) + ["done"]
        if self.style == "dawdler":
            return []
        detour = self.rnd.choice(["", "DU", "RL", "DURL"])
        moves = detour + solution
        i = 0
        while i < len(moves):   # chunks of 1-6 slides, as a player would type or press
            n = self.rnd.randint(1, 6)
            steps.append(moves[i:i + n])
            i += n
        return steps + ["done"]

    def next(self, legal: list[str]) -> str:
        if self.plan:
            return self.plan.pop(0)
        return self.rnd.choice([m for m in legal if m != "done"])


SEEDS = 40
STYLES = ["solver", "solver", "solver", "fumbler", "dawdler", "matcher"]


def compare(model: Model, state) -> None:
    assert set(GAME.to_act(state)) == set(model.to_act())
    assert GAME.scores(state) == model.totals
    outcome = GAME.outcome(state)
    if model.over:
        assert outcome is not None and outcome.winners == model.winners
        return
    assert outcome is None
    view = GAME.view(state, None)
    assert view["round"] == model.round_no and view["playoff"] == model.playoff
    assert view["round_players"] == model.in_round
    assert view["targets"] == {"rows": model.rows, "columns": model.cols}
    finished = {f["player"]: f["status"] for f in view["finished"]}
    assert finished == {p: model.status[p] for p in model.calls}
    assert not any("slides" in e or "slide" in e["text"] for e in view["log"] if e.get("event") == "done")
    for p in model.players:
        assert [str(a) for a in GAME.legal_actions(state, p)] == model.legal(p)
        own = GAME.view(state, p)["board"]
        if p in model.in_round:
            assert own["tiles"] == model.boards[p].listing()
            assert own["slides"] == model.boards[p].slides
            assert own["correct"] == model.boards[p].correct(model.rows, model.cols)


@functools.lru_cache(maxsize=None)   # the coverage test looks at the same games again
def play_game(seed: int) -> tuple[Model, object]:
    rnd = random.Random(seed)
    count = rnd.choice([1, 2, 2, 3, 3, 4, 5])
    players = [f"p{i}" for i in range(count)]
    rounds = rnd.choice([1, 2, 3])
    ranking = rnd.choice(["race", "slides"])
    autodone = rnd.random() < 0.3
    made = [make_deal(rnd, rnd.randint(4, 40)) for _ in range(rounds + 12)]
    deals = [d for d, _, _ in made]
    options = {"rounds": rounds, "ranking": ranking, "autodone": autodone, "deals": deals}
    state = GAME.new_game(players, seed=seed, options=options)
    model = Model(players, rounds, ranking, autodone, deals)
    round_seen = None
    seats: dict[str, Player] = {}
    for _ in range(5000):
        compare(model, state)
        if model.over:
            return model, state
        key = (model.round_no, model.playoff)
        if key != round_seen:
            round_seen = key
            solution = made[model.round_no - 1][2]
            seats = {p: Player(rnd.choice(STYLES), solution, rnd) for p in model.in_round}
            # A matcher ties with the slide count of a plain solution: made by the solvers
            # without a detour; in a slides ranking the earlier call then wins.
            for seat in seats.values():
                if seat.style == "matcher":
                    seat.plan = [solution, "done"]
        if rnd.random() < 0.01:
            state = GAME.expire(state)     # a round deadline
            model.deadline()
            continue
        player = rnd.choice(model.to_act())
        if rnd.random() < 0.05:
            # A string with an impossible slide somewhere: refused whole, nothing changes.
            bad = "".join(rnd.choice("UDLR") for _ in range(rnd.randint(0, 3))) \
                + rnd.choice("UDLR") * 5
            if not all(_legal_run(model, model.boards[player], bad)):
                before = GAME.to_json(state)
                with pytest.raises(IllegalAction):
                    GAME.apply(state, player, bad)
                assert GAME.to_json(state) == before
        action = seats[player].next(model.legal(player))
        # Typed as a player might: any case, spaces between the slides.
        typed = " ".join(action.lower()) if action != "done" and rnd.random() < 0.3 else action
        state = GAME.apply(state, player, GAME.parse_action(state, player, typed))
        if action == "done":
            model.done(player)
        else:
            model.slides(player, action)
        for other in model.players:
            if other not in model.to_act() and not model.over:
                with pytest.raises(NotYourTurn):
                    GAME.apply(state, other, "done")
    raise AssertionError("the game did not end")


def _legal_run(model: Model, board: Board, moves: str):
    """Whether each slide can be made, up to the moment an autodone board is finished."""
    b = board.copy()
    for m in moves:
        if model.autodone and b.slides > board.slides and b.correct(model.rows, model.cols):
            return
        ok = b.can(m)
        yield ok
        if not ok:
            return
        b.move(m)


@pytest.mark.parametrize("seed", range(SEEDS))
def test_engine_matches_the_model(seed):
    model, state = play_game(seed)
    assert GAME.to_act(state) == ()
    assert GAME.from_json(GAME.to_json(state)) == state


def test_the_model_games_cover_the_rulings():
    """The seeds above meet every case at least once: fumbles, deadlines, playoffs, solo wins
    and losses, both rankings, autodone."""
    seen = set()
    for seed in range(SEEDS):
        model, state = play_game(seed)
        log = [e.get("event") for e in state["log"]]
        view = GAME.view(state, None)
        if "timeout" in log:
            seen.add("deadline")
        if any(e.get("status") == "fumble" for e in state["log"]):
            seen.add("fumble")
        if view["playoff"]:
            seen.add("playoff")
        if len(model.players) == 1:
            seen.add("solo win" if GAME.outcome(state).winners else "solo loss")
        seen.add(view["ranking"])
        if view["autodone"]:
            seen.add("autodone")
    assert seen >= {"deadline", "fumble", "playoff", "solo win", "solo loss", "race", "slides",
                    "autodone"}
