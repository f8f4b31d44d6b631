"""Galaxies: the engine played against an independent model of the rules, move by move.

The model is written from seeds/galaxies.txt and RULINGS.md (plus our stated rulings: Form's
area, `pass` always offered, skipped owners), not from engine/galaxies.py. It drives the engine
only through the contract with the `paths` option and the notation; the one thing it cannot
know is the seeded coin toss for equal cards, which it reads from the public reveal. After every
move both must agree on who acts, the legal moves of both players, the scores and the result.
"""

from __future__ import annotations

import random

import pytest

import engine

GAME = engine.get_game("galaxies")
ORDER = ["system", "form", "merge", "shift"]
LETTER = {"F": "form", "M": "merge", "S": "shift"}


class Model:
    def __init__(self, players, paths):
        self.a, self.b = players
        self.dir = {self.a: 1, self.b: -1}
        self.hole = {self.a: [0, 0], self.b: [13, 0]}
        self.deck = {p: [LETTER[c] for c in paths[i]] for i, p in enumerate(players)}
        self.hand = {p: {"system": 4, "form": 0, "merge": 0, "shift": 0} for p in players}
        self.systems = {}           # (x, y) -> number of systems in the stack there
        self.turn = 0
        self.chosen = {}
        self.pending = []           # owners still to resolve, in order
        self.cards = {}
        self.over = False
        self.start_turn()

    # -- the step
    def start_turn(self):
        self.turn += 1
        final = self.turn == 6
        new_systems = {}
        arrivals = {}
        for cell, n in self.systems.items():
            owner = next((p for p in self.hole
                          if max(abs(cell[0] - self.hole[p][0]), abs(cell[1] - self.hole[p][1])) <= 1),
                         None)
            if owner is None:
                new_systems[cell] = new_systems.get(cell, 0) + n
                continue
            ahead = (self.hole[owner][0] + self.dir[owner], self.hole[owner][1])
            if cell == ahead:
                continue        # the hole steps onto it: discarded
            arrivals.setdefault((cell[0] + self.dir[owner], cell[1]), []).append(n)
        for cell, ns in arrivals.items():
            if final and (len(ns) > 1 or cell in new_systems):
                continue        # the collision destroys them
            new_systems[cell] = new_systems.get(cell, 0) + sum(ns)
        self.systems = new_systems
        for p in self.hole:
            self.hole[p][0] += self.dir[p]
            self.hand[p][self.deck[p].pop(0)] += 1
        self.chosen = {}

    # -- who acts and what they may do
    def to_act(self):
        if self.over:
            return set()
        if self.pending:
            return {self.pending[0]}
        return {self.a, self.b}

    def free(self, cell):
        return cell not in self.systems and cell not in [tuple(h) for h in self.hole.values()]

    def effects(self, p, card):
        def ring(c):
            return [(c[0] + dx, c[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        s = lambda c: f"{c[0]},{c[1]}"
        if card == "system":
            return {s(c) for c in ring(tuple(self.hole[p])) if self.free(c)}
        if card == "form":
            if not self.hand[p]["system"]:
                return set()
            return {s((x, y)) for x in range(-1, 15) for y in range(-2, 3) if self.free((x, y))}
        if card == "merge":
            return {f"{s(c)}>{s(d)}" for c in self.systems for d in self.systems if c != d}
        return {f"{s(c)}>{s(d)}" for c in self.systems for d in ring(c) if self.free(d)}

    def legal(self, p):
        if p not in self.to_act():
            return set()
        if not self.pending:
            return {card for card, n in self.hand[p].items() if n}
        return self.effects(p, self.cards[p]) | {"pass"}

    def scores(self):
        return {p: sum(n for c, n in self.systems.items()
                       if abs(c[0] - h[0]) <= 1 and abs(c[1] - h[1]) <= 1)
                for p, h in self.hole.items()}

    # -- moves
    def act(self, p, text, engine_order):
        if not self.pending:
            self.chosen[p] = text
            if len(self.chosen) == 2:
                self.cards = dict(self.chosen)
                for q, card in self.cards.items():
                    self.hand[q][card] -= 1
                ranks = {q: ORDER.index(c) for q, c in self.cards.items()}
                if ranks[self.a] == ranks[self.b]:
                    self.pending = list(engine_order())   # the toss: read from the reveal
                else:
                    self.pending = sorted(self.cards, key=ranks.get)
                self.advance()
            return
        card = self.cards[p]
        if text != "pass":
            if card in ("system", "form"):
                x, y = map(int, text.split(","))
                self.systems[(x, y)] = 1
                if card == "form":
                    self.hand[p]["system"] -= 1
            else:
                src, dst = (tuple(map(int, part.split(","))) for part in text.split(">"))
                n = self.systems.pop(src)
                self.systems[dst] = self.systems.get(dst, 0) + n
        self.pending.pop(0)
        self.advance()

    def advance(self):
        while self.pending and not self.effects(self.pending[0], self.cards[self.pending[0]]):
            self.pending.pop(0)          # a card that can do nothing: its owner is skipped
        if not self.pending:
            if self.turn == 6:
                self.over = True
            else:
                self.start_turn()


def announced_order(state):
    """The resolution order of the latest reveal, as the public log announces it."""
    reveal = [e for e in GAME.view(state)["log"] if e.get("event") == "reveal"][-1]
    assert "coin toss" in reveal["text"]
    return reveal["order"]


def random_paths(rnd):
    return ["".join(rnd.sample("FFMMSS", 6)) for _ in range(2)]


@pytest.mark.parametrize("seed", range(80))
def test_engine_agrees_with_the_model(seed):
    rnd = random.Random(seed)
    players = ["p1", "p2"]
    paths = random_paths(rnd)
    state = GAME.new_game(players, seed=seed, options={"paths": paths})
    model = Model(players, paths)
    for _ in range(200):
        assert set(GAME.to_act(state)) == model.to_act()
        for p in players:
            assert {str(a) for a in GAME.legal_actions(state, p)} == model.legal(p)
            assert len(GAME.legal_actions(state, p)) == len(model.legal(p))   # no duplicates
        assert GAME.scores(state) == model.scores()
        assert GAME.view(state)["turn"] == model.turn
        if model.over:
            break
        p = rnd.choice(sorted(model.to_act()))
        options = sorted(model.legal(p))
        # favour doing something over passing, so boards fill up
        choice = rnd.choice([o for o in options if o != "pass"] or options)
        if rnd.random() < 0.1:
            choice = "pass" if "pass" in options else choice
        state = GAME.apply(state, p, GAME.parse_action(state, p, choice))
        model.act(p, choice, lambda: announced_order(state))
    assert model.over and GAME.outcome(state) is not None
    score = model.scores()
    outcome = GAME.outcome(state)
    if score["p1"] == score["p2"]:
        assert outcome.draw and outcome.winners == ()
    else:
        assert outcome.winners == (max(score, key=score.get),) and not outcome.draw
