"""Global Warming: the engine played against an independent model of the rules, move by move.

The model below is written from the rules text (seeds/global-warming.txt), RULINGS.md and the
module's RULES summary (for the project's rulings on deadlines and resigning), not from
engine/global_warming.py. Each game's deal is fixed through the options from a seeded
generator, so the model knows every hidden coin. Random games of 2, 3 and 4 players are played
through the public contract; after every call the model and the engine must agree on who acts
and who is awaited, the legal actions, the island, the pawns, the coin line, scores and outcome.
"""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import IllegalAction, NotYourTurn

GAME = engine.get_game("global-warming")
SUIT_LETTERS = {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}
SUIT_NAMES = {letter: suit for suit, letter in SUIT_LETTERS.items()}
COLOURS = ("red", "black", "green", "blue")  # by seat: suns, moons, crowns, arms
FACES = ("n", "a", "2", "3", "4", "5")
ACTING_ORDER = ("n", "5", "4", "3", "2", "a")
STEPS = {"a": 1, "2": 2, "3": 3, "4": 4, "5": 5}
DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
CODES = [s + v for s in "SMCA" for v in FACES]
DEALT = [(x, y) for y in range(5, 0, -1) for x in range(1, 6) if (x, y) != (3, 3)]
VARIANT_MOVES = {
    "standard": {},
    "orthogonal": {(3, 4): (3, 6), (4, 3): (6, 3), (3, 2): (3, 0), (2, 3): (0, 3)},
    "diagonal": {(2, 4): (3, 6), (4, 4): (6, 3), (4, 2): (3, 0), (2, 2): (0, 3)},
}


def neighbours(pos):
    x, y = pos
    return [(x + dx, y + dy) for dx, dy in DIRECTIONS.values()]


def pos_name(pos) -> str:
    return f"{pos[0]},{pos[1]}"


def tile_move_name(src, dst) -> str:
    return f"{pos_name(src)}>{pos_name(dst)}"


# ----------------------------------------------------------------------------- deals


def random_deal(rnd: random.Random, players: list[str]) -> dict:
    """Options that fix everything: island, variant, starts and the whole bag with sides."""
    starts = rnd.sample(CODES, len(players))
    codes = rnd.sample(CODES, 24)
    rows = []
    for y in range(5, 0, -1):
        row = []
        for x in range(1, 6):
            row.append("." if (x, y) == (3, 3) else codes.pop())
        rows.append(" ".join(row))
    return {
        "variant": rnd.choice(["standard", "standard", "orthogonal", "diagonal"]),
        "island": rows if rnd.random() < 0.5 else "/".join(rows),
        "starts": starts if rnd.random() < 0.5 else dict(zip(players, starts)),
        "coins": [f"{code}:{rnd.choice(['suit', 'value'])}" for code in rnd.sample(CODES, 24)],
    }


# ----------------------------------------------------------------------------- the model


class Model:
    def __init__(self, players: list[str], options: dict):
        self.players = players
        self.colour = dict(zip(players, COLOURS))
        self.by_colour = {c: p for p, c in self.colour.items()}
        rows = options["island"]
        rows = rows.split("/") if isinstance(rows, str) else rows
        self.at: dict[tuple, str] = {}  # position -> tile code
        for row, y in zip(rows, range(5, 0, -1)):
            for code, x in zip(row.split(), range(1, 6)):
                if code != ".":
                    self.at[(x, y)] = code
        for src, dst in VARIANT_MOVES[options["variant"]].items():
            self.at[dst] = self.at.pop(src)
        self.tiles = {code: pos for pos, code in self.at.items()}
        starts = options["starts"]
        if isinstance(starts, dict):
            starts = [starts[p] for p in players]
        self.pawns = {p: self.tiles[code] for p, code in zip(players, starts)}
        coins = [tuple(c.split(":")) for c in options["coins"]]
        self.line, self.bag = coins[:3], coins[3:]
        self.survivors = list(players)
        self.out: list[str] = []  # drowned or left, in order
        self.sunk: list[str] = []
        self.turn = 1
        self.phase = "commit"
        self.commits: dict[str, str] = {}
        self.queue: list[str] = []  # actors still to come this turn, in acting order
        self.faces: dict[str, str] = {}
        self.actor = None
        self.steps_left = None
        self.winners = None
        self.events: set[str] = set()  # what happened, for the coverage check

    # ---- what may be done

    def to_act(self) -> set[str]:
        if self.winners is not None:
            return set()
        return set(self.survivors) if self.phase == "commit" else {self.actor}

    def awaited(self) -> set[str]:
        if self.winners is not None:
            return set()
        if self.phase == "commit":
            return {p for p in self.survivors if p not in self.commits}
        return {self.actor}

    def occupied(self) -> set[tuple]:
        return {pos for pos in self.pawns.values() if pos is not None}

    def tile_moves(self) -> set[str]:
        moves = set()
        occupied = self.occupied()
        for src in self.at:
            if src in occupied:
                continue
            others = set(self.at) - {src}
            for q in others:
                for dst in neighbours(q):
                    if dst not in self.at:  # empty; `src` itself is never a destination
                        moves.add(tile_move_name(src, dst))
        return moves

    def steps(self) -> set[str]:
        occupied = self.occupied()
        moves = set()
        for p in self.survivors:
            pos = self.pawns[p]
            for name, (dx, dy) in DIRECTIONS.items():
                dst = (pos[0] + dx, pos[1] + dy)
                if dst in self.at and dst not in occupied:
                    moves.add(f"{self.colour[p]} {name}")
        return moves

    def legal(self, player: str) -> set[str]:
        if player not in self.to_act():
            return set()
        if self.phase == "commit":
            return set(FACES)
        if self.faces[player] == "n":
            return self.tile_moves() | {"pass"}
        return self.steps()

    # ---- what happens

    def commit(self, player: str, face: str) -> None:
        assert self.phase == "commit" and player in self.survivors
        if player in self.commits:
            self.events.add("change")
        self.commits[player] = face
        if all(p in self.commits for p in self.survivors):
            self.reveal()

    def reveal(self) -> None:
        faces = dict(self.commits)
        chosen = list(faces.values())
        if any(chosen.count(f) > 1 for f in chosen):
            self.events.add("cancel")
        self.faces = {p: f for p, f in faces.items() if chosen.count(f) == 1}
        self.queue = sorted(self.faces, key=lambda p: ACTING_ORDER.index(self.faces[p]))
        self.commits = {}
        self.phase = "act"
        self.next_actor()

    def next_actor(self) -> None:
        while self.queue:
            player = self.queue.pop(0)
            face = self.faces[player]
            possible = self.tile_moves() if face == "n" else self.steps()
            if possible:
                self.actor = player
                self.steps_left = None if face == "n" else STEPS[face]
                return
            self.events.add("skipped")
        self.actor = self.steps_left = None
        self.end_turn()

    def move_tile(self, player: str, move: str) -> None:
        assert player == self.actor and move in self.tile_moves() | {"pass"}
        if move != "pass":
            src, dst = (tuple(int(v) for v in part.split(",")) for part in move.split(">"))
            code = self.at.pop(src)
            self.at[dst] = code
            self.tiles[code] = dst
            if not 0 <= dst[0] <= 6 or not 0 <= dst[1] <= 6:
                self.events.add("far tile")
        self.next_actor()

    def step(self, player: str, step: str) -> None:
        assert player == self.actor and step in self.steps(), step
        colour, direction = step.split()
        pawn = self.by_colour[colour]
        (x, y), (dx, dy) = self.pawns[pawn], DIRECTIONS[direction]
        self.pawns[pawn] = (x + dx, y + dy)
        if pawn != player:
            self.events.add("moved other")
        self.steps_left -= 1
        # (a pawn can always step back where it came from, so steps run out only by count)
        if self.steps_left == 0 or not self.steps():
            self.next_actor()

    def end_turn(self) -> None:
        if self.bag:
            self.line.append(self.bag.pop(0))
        code, _ = self.line.pop(0)
        pos = self.tiles.pop(code)
        del self.at[pos]
        self.sunk.append(code)
        for p in list(self.survivors):
            if self.pawns[p] == pos:
                self.events.add("drown")
                self.remove(p)
        if len(self.survivors) <= 1:
            self.winners = tuple(self.survivors)
            return
        self.turn += 1
        self.phase = "commit"
        self.faces = {}

    def remove(self, player: str) -> None:
        self.survivors.remove(player)
        self.out.append(player)
        self.pawns[player] = None

    def expire(self) -> None:
        """The deadline passed: uncommitted players have no face (and cancel nobody); an actor
        loses the rest of the action."""
        self.events.add("expire " + self.phase)
        if self.phase == "commit":
            self.reveal()
        else:
            self.next_actor()

    def resign(self, player: str) -> None:
        """The player leaves; the pawn is taken off (its tile stays) and play goes on."""
        self.events.add("resign " + self.phase)
        pending = [p for p in self.survivors if p not in self.commits]
        if self.phase == "commit" and pending == [player]:
            self.events.add("resign last pending")
        if player == self.actor:
            self.events.add("resign actor")
        if player in self.queue:
            self.events.add("resign queued")
        if len(self.survivors) == 2 and self.out:
            self.events.add("resign after a drowning")
        if len(self.survivors) == 2:
            # the game ends at once; the board stays as it was (the engine's choice: nothing
            # plays on, so the pawn need not be taken off)
            self.survivors.remove(player)
            self.out.append(player)
            self.winners = tuple(self.survivors)
            return
        self.remove(player)
        if self.phase == "commit":
            self.commits.pop(player, None)
            if all(p in self.commits for p in self.survivors):
                self.reveal()
        elif player == self.actor:
            self.next_actor()
        else:
            if player in self.queue:
                self.queue.remove(player)
            if self.steps_left is not None and not self.steps():
                # the pawn taken off was the only one that could step: the rest is lost
                self.events.add("steps lost")
                self.next_actor()

    # ---- what is seen

    def scores(self) -> dict[str, int]:
        return {p: self.out.index(p) if p in self.out else len(self.out) for p in self.players}


# ----------------------------------------------------------------------------- comparison


def compare(state, model: Model, where) -> None:
    where = where()
    assert set(GAME.to_act(state)) == model.to_act(), f"{where}: to_act"
    assert set(GAME.awaited(state)) == model.awaited(), f"{where}: awaited"
    for p in model.players:
        engine_moves = {str(a) for a in GAME.legal_actions(state, p)}
        model_moves = model.legal(p)
        assert engine_moves == model_moves, (
            f"{where}: legal actions of {p}: engine only {sorted(engine_moves - model_moves)}, "
            f"model only {sorted(model_moves - engine_moves)}"
        )
    view = GAME.view(state, None)
    island = {(t["x"], t["y"]): SUIT_LETTERS[t["suit"]] + t["value"] for t in view["island"]}
    assert island == model.at, f"{where}: island"
    pawns = {p: (pos["x"], pos["y"]) for p, pos in view["pawns"].items() if pos is not None}
    assert pawns == {p: pos for p, pos in model.pawns.items() if pos is not None}, f"{where}: pawns"
    line = [
        {"side": side, side: SUIT_NAMES[code[0]] if side == "suit" else code[1]}
        for code, side in model.line
    ]
    assert view["coin_line"] == line, f"{where}: coin line"
    assert view["bag_count"] == len(model.bag), f"{where}: bag"
    sunk = [SUIT_LETTERS[t["suit"]] + t["value"] for t in view["sunk"]]
    assert sunk == model.sunk, f"{where}: sunk"
    assert GAME.scores(state) == model.scores(), f"{where}: scores"
    outcome = GAME.outcome(state)
    if model.winners is None:
        assert outcome is None, f"{where}: engine ended the game: {outcome}"
        assert view["phase"] == model.phase, f"{where}: phase"
        assert view["turn"] == model.turn, f"{where}: turn"
        if model.phase == "act":
            assert view["actor"] == model.actor, f"{where}: actor"
            if model.steps_left is not None:
                assert view["steps_left"] == model.steps_left, f"{where}: steps left"
    else:
        assert outcome is not None, f"{where}: engine did not end the game"
        assert tuple(outcome.winners) == model.winners, f"{where}: winners"
    # secrets stay secret: nobody sees another's face, nor the down side of a coin
    for p in model.players:
        own = GAME.view(state, p)
        assert own["own_commit"] == model.commits.get(p), f"{where}: own commit of {p}"
        assert own["coin_line"] == line, f"{where}: coin line seen by {p}"
    if model.commits:
        text = json.dumps(view)
        assert "own_commit\": null" in text and "commits" not in text, f"{where}: commits shown"


FACE_SPELLINGS = {
    "n": ["n", "null", "blank", "N"], "a": ["a", "ace", "1", "A"],
    **{d: [d, f"die {d}"] for d in "2345"},
}
PAWN_SPELLINGS = {colour: [colour, suit] for colour, suit in zip(COLOURS, SUIT_LETTERS)}
DIRECTION_SPELLINGS = {
    "up": ["up", "u", "north"], "down": ["down", "d", "south"],
    "left": ["left", "l", "west"], "right": ["right", "r", "east"],
}


def face_text(rnd: random.Random, face: str) -> str:
    return rnd.choice(FACE_SPELLINGS[face])


def tile_move_text(rnd: random.Random, move: str) -> str:
    if move == "pass":
        return rnd.choice(["pass", "PASS"])
    src, dst = move.split(">")
    pattern = rnd.choice(["{}>{}", "{} to {}", "move {} {}", "({})->({})"])
    return pattern.format(src, dst)


def step_text(rnd: random.Random, steps: list[str]) -> str:
    """One or several steps in one of the accepted spellings."""
    pairs = []
    for s in steps:
        colour, direction = s.split()
        pawn = rnd.choice(PAWN_SPELLINGS[colour])
        pairs.append((pawn, rnd.choice(DIRECTION_SPELLINGS[direction])))
    if rnd.random() < 0.5:
        text = ", ".join(f"{pawn} {direction}" for pawn, direction in pairs)
    else:
        words, last = [], None  # "red up up blue left"
        for (pawn, direction), s in zip(pairs, steps):
            colour = s.split()[0]
            words += [direction] if colour == last else [pawn, direction]
            last = colour
        text = " ".join(words)
    return text.upper() if rnd.random() < 0.2 else text


def random_steps(model: Model, rnd: random.Random, count: int) -> list[str] | None:
    """`count` steps legal one after the other from the model's position, or None."""
    saved = dict(model.pawns)
    steps = []
    try:
        for _ in range(count):
            options = sorted(model.steps())
            if not options:
                return None
            s = rnd.choice(options)
            colour, direction = s.split()
            pawn = model.by_colour[colour]
            (x, y), (dx, dy) = model.pawns[pawn], DIRECTIONS[direction]
            model.pawns[pawn] = (x + dx, y + dy)
            steps.append(s)
        return steps
    finally:
        model.pawns = saved


def check_refusals(state, model: Model, rnd: random.Random, where) -> None:
    """Moves the model says are not allowed are refused, and change nothing."""
    before = GAME.to_json(state)
    waiting = set(model.players) - model.to_act()  # including the drowned and those who left
    if waiting:
        p = rnd.choice(sorted(waiting))
        with pytest.raises(NotYourTurn):
            GAME.apply(state, p, rnd.choice(FACES) if model.phase == "commit" else "pass")
    if model.phase == "act":
        actor = model.actor
        if model.faces[actor] == "n":
            legal = model.tile_moves()
            src = rnd.choice(sorted(model.at))
            dst = rnd.choice([(x, y) for x in range(-2, 9) for y in range(-2, 9)])
            if tile_move_name(src, dst) not in legal:  # includes dst == src
                with pytest.raises(IllegalAction):
                    GAME.apply(state, actor, tile_move_name(src, dst))
            on_tiles = sorted(model.occupied() & set(model.at))
            if on_tiles and legal:  # a good destination, but the tile carries a pawn
                dst = rnd.choice(sorted(legal)).split(">")[1]
                with pytest.raises(IllegalAction):
                    GAME.apply(state, actor, f"{pos_name(rnd.choice(on_tiles))}>{dst}")
            with pytest.raises(IllegalAction):
                GAME.apply(state, actor, "red up")  # a step for a null
        else:
            bad = {f"{model.colour[p]} {d}" for p in model.survivors for d in DIRECTIONS}
            bad -= model.steps()
            if bad:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, actor, rnd.choice(sorted(bad)))
            too_many = random_steps(model, rnd, model.steps_left + 1)
            if too_many:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, actor, step_text(rnd, too_many))
            with pytest.raises(IllegalAction):
                GAME.apply(state, actor, "pass")  # only a null may pass
    assert GAME.to_json(state) == before, f"{where()}: a refused move changed the state"


def isolating_moves(model: Model, moves: list[str]) -> list[str]:
    """Tile moves that take a tile from beside a pawn to a place beside none."""
    beside = {pos_name(q) for pos in model.occupied() for q in neighbours(pos)}
    return [m for m in moves if m.split(">")[0] in beside and m.split(">")[1] not in beside]


def play_game(seed: int, n_players: int) -> Model:
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(1, n_players + 1)]
    options = random_deal(rnd, players)
    state = GAME.new_game(players, seed=seed, options=options)
    model = Model(players, options)
    history: list[str] = []

    def where():
        return f"seed {seed}, {n_players} players, options {options}, after {history}"

    compare(state, model, where)
    # Some games see a resignation or a deadline; faces tend to one end in some games, so
    # that cancellations and quiet turns both happen.
    leave_at = rnd.randrange(40) if rnd.random() < 0.5 else None
    expire_rate = rnd.choice([0, 0, 0.05])
    faces = rnd.choice([FACES, FACES, ("n", "n", "a", "5", "5", "3")])
    # in some games null players cut pawns off, so that steps run out and actors are skipped
    isolating = rnd.random() < 0.5
    for n in range(400):
        if model.winners is not None:
            break
        if n % 4 == 3:
            check_refusals(state, model, rnd, where)
        if n == leave_at:
            # often the one the game waits for: the last to commit, or an actor to come
            if model.phase == "commit":
                waited = [p for p in model.survivors if p not in model.commits]
            else:
                waited = [model.actor] + model.queue
            player = rnd.choice(waited if waited and rnd.random() < 0.5 else model.survivors)
            state = GAME.resign(state, player)
            model.resign(player)
            history.append(f"{player}: resign")
        elif rnd.random() < expire_rate:
            state = GAME.expire(state)
            model.expire()
            history.append("expire")
        elif model.phase == "commit":
            pending = [p for p in model.survivors if p not in model.commits]
            # now and then a committed player changes their face
            player = rnd.choice(model.survivors if rnd.random() < 0.15 else pending)
            face = rnd.choice(faces)
            action = GAME.parse_action(state, player, face_text(rnd, face))
            assert str(action) == face, f"{where()}: parsed {face} as {action}"
            state = GAME.apply(state, player, action)
            model.commit(player, face)
            history.append(f"{player}: {face}")
        elif model.faces[model.actor] == "n":
            player = model.actor
            moves = sorted(model.tile_moves())
            if isolating:
                moves = isolating_moves(model, moves) or moves
            move = rnd.choice(moves)
            if rnd.random() < 0.15:
                move = "pass"
            text = tile_move_text(rnd, move)
            action = GAME.parse_action(state, player, text)
            assert str(action) == move, f"{where()}: parsed {text!r} as {action}"
            state = GAME.apply(state, player, action)
            model.move_tile(player, move)
            history.append(f"{player}: {move}")
        else:
            player = model.actor
            count = rnd.randint(1, model.steps_left)
            steps = random_steps(model, rnd, count)
            if rnd.random() < 0.3:  # one step, the engine's own action object
                action = rnd.choice(sorted(GAME.legal_actions(state, player), key=str))
                steps, text = [str(action)], str(action)
            else:
                text = step_text(rnd, steps)
                action = GAME.parse_action(state, player, text)
                assert str(action) == ", ".join(steps), f"{where()}: parsed {text!r} as {action}"
            state = GAME.apply(state, player, action)
            for s in steps:
                model.step(player, s)
            history.append(f"{player}: {text}")
        compare(state, model, where)
    return model


# ----------------------------------------------------------------------------- the tests


def test_random_games_match_the_model():
    seen = set()
    for n_players in (2, 3, 4):
        for seed in range(1000 * n_players, 1000 * n_players + 35):
            model = play_game(seed, n_players)
            assert model.winners is not None, f"seed {seed}: the game did not end"
            seen |= model.events
    # the games went through every rule the model has
    assert seen >= {
        "cancel", "change", "drown", "moved other", "skipped", "far tile",
        "expire commit", "expire act", "resign commit", "resign act", "resign last pending",
        "resign actor", "resign queued", "resign after a drowning",
    }, seen


def run_script(players: list[str], options: dict, script: list[str]) -> Model:
    """Play `script` ("p1: 5", "p2: resign", "expire") on engine and model, comparing after
    every entry."""
    state = GAME.new_game(players, seed=1, options=options)
    model = Model(players, options)
    done: list[str] = []

    def where():
        return f"script {script}, after {done}"

    compare(state, model, where)
    for entry in script:
        if entry == "expire":
            state = GAME.expire(state)
            model.expire()
        else:
            player, text = entry.split(": ")
            if text == "resign":
                state = GAME.resign(state, player)
                model.resign(player)
            else:
                state = GAME.apply(state, player, text)
                if model.phase == "commit":
                    model.commit(player, text)
                elif model.faces[player] == "n":
                    model.move_tile(player, text)
                else:
                    for step in text.split(", "):
                        model.step(player, step)
        done.append(entry)
        compare(state, model, where)
    return model


def test_steps_are_lost_when_the_only_pawn_that_could_step_leaves():
    # Red and black stand on the top-left corner tiles; the three tiles around them sink in
    # the first three turns (nobody moves a pawn: red passes its null, the others cancel), so
    # they are cut off on a piece of two tiles. Then red, acting on a 5, can only step green;
    # green resigns after one step, and red's four steps left are lost; black (4) is skipped.
    code_at = dict(zip(DEALT, CODES))  # the tiles in order, row 5 first, the hole left out
    island = [
        " ".join("." if (x, y) == (3, 3) else code_at[(x, y)] for x in range(1, 6))
        for y in range(5, 0, -1)
    ]
    sinking = [code_at[(1, 4)], code_at[(2, 4)], code_at[(3, 5)]]
    rest = [c for c in reversed(CODES) if c not in sinking]  # next to sink: 5,1, far away
    options = {
        "variant": "standard",
        "island": island,
        "starts": [code_at[(1, 5)], code_at[(2, 5)], code_at[(5, 1)]],
        "coins": [f"{c}:suit" for c in sinking + rest],
    }
    quiet_turn = ["p1: n", "p2: 5", "p3: 5", "p1: pass"]
    model = run_script(["p1", "p2", "p3"], options, quiet_turn * 3 + [
        "p1: 5", "p2: 4", "p3: 3", "p1: green up", "p3: resign",
    ])
    assert "steps lost" in model.events and "skipped" in model.events
    assert model.phase == "commit" and model.turn == 5 and model.survivors == ["p1", "p2"]
