"""A Game Played by Galaxies players. Hidden from a seat: which action cards the other player
holds (only the hand's size shows), the order of the face-down path cards (both paths), and,
while cards are being chosen, the other player's card. What is known: every card played (the
reveals in the log), every System placed by a Form, so the number of Systems in each hand.

easy:   a random card; usually the target `evaluate` likes best now (never guessing the
        other's answer), one time in three any target no worse than passing.
strong: searches its information set (computer/search.py) to the end of the game: worlds
        drawn from its view (the other's hand and both paths; the other's card is left to the
        tree), both cards chosen at once by decoupled UCT, each card's best few targets by
        `evaluate`, which counts the systems that will travel with each hole (a stack on the
        cell a hole steps onto next is lost) and, in the last turn, the final score.

Draw offers: both accept when they expect the other ahead, or the final scores level with only
the last card to play (easy by a count anyone can make, strong by games played out), and
otherwise decline naming the count.
"""

from __future__ import annotations

import math
from typing import Mapping

import engine
from engine import Rng, freeze

from .base import ComputerPlayer
from .search import search

GAME = engine.get_game("galaxies")
KINDS = ("system", "form", "merge", "shift")
ACTIONS = ("form", "form", "merge", "merge", "shift", "shift")
TURNS = 6


def _played(view) -> dict[str, list[str]]:
    """{player: [card kind, ...]} played so far (public once revealed)."""
    played = {p: [] for p in view["players"]}
    for event in view["log"]:
        if event.get("event") == "reveal":
            for p, kind in event["cards"].items():
                played[p].append(kind)
    return played


def _systems_in_hand(view, player) -> int:
    played = _played(view)[player].count("system")
    formed = sum(1 for e in view["log"] if e.get("event") == "place"
                 and e.get("player") == player and e.get("card") == "form")
    return 4 - played - formed


def _minus_known(pool: list[str], taken) -> list[str]:
    """`pool` without the cards of `taken` that it holds."""
    pool = list(pool)
    for kind in taken:
        if kind in pool:
            pool.remove(kind)
    return pool


def determinise(view: Mapping, rng: Rng, their_card: str | None = None):
    """An engine state whose view for the viewer is `view` (log aside), the hidden part drawn
    from `rng`: the other's action cards in hand, both paths' order, the other's card."""
    me = view["viewer"]
    played = _played(view)
    hands, paths = {}, {}
    for p in view["players"]:
        # The view's log holds the latest events only: a long game (draw offers...) may have
        # pushed early reveals out of it, so the counts are fitted to the sizes shown.
        waiting = sum(1 for c in view["path"] if c["owner"] == p)
        unseen = _minus_known(ACTIONS, [k for k in played[p] if k != "system"])
        if p == me:
            hands[p] = list(view["hand"])
            unseen = _minus_known(unseen, [k for k in hands[p] if k != "system"])
            paths[p] = rng.shuffled(unseen)[:waiting]
        else:
            systems = min(_systems_in_hand(view, p), view["hand_sizes"][p])
            drawn = view["hand_sizes"][p] - systems
            unseen = rng.shuffled(unseen)[:drawn + waiting]
            hands[p] = sorted(["system"] * systems + unseen[:drawn], key=KINDS.index)
            paths[p] = unseen[drawn:]
    commits = {}
    if view["phase"] == "commit":
        for p in view["committed"]:
            commits[p] = view["own_commit"] if p == me else (their_card or rng.choice(hands[p]))
    data = {
        "holes": {p: [h["x"], h["y"]] for p, h in view["holes"].items()},
        "path": paths,
        "hands": hands,
        "stacks": [[s["x"], s["y"], list(s["owners"])] for s in view["stacks"]],
        "turn": view["turn"],
        "phase": view["phase"],
        "commits": commits,
        "timed_out": list(view["timed_out"]),
        "reveal": view["reveal"],
        "actor": view["actor"],
        "queue": list(view["queue"]),
    }
    return freeze({
        "game": GAME.name, "players": list(view["players"]), "seed": 0, "rng": rng.next64(),
        "move_number": view["move_number"], "left": list(view["left"]),
        "draw_offer": view["draw_offer"], "result": None, "log": [], "data": data,
    })


# --------------------------------------------------------------------------- judging


def _near(a, b) -> bool:
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def project(holes: dict, stacks: dict, turn: int, players) -> dict:
    """The stacks ({cell: systems}) after the steps still to come, if no card moved anything:
    a stack within a hole's 3x3 travels with it, one on the cell it steps onto is lost, and on
    the last step stacks that land together are destroyed (as the rules' step does)."""
    holes = dict(holes)
    for step_turn in range(turn + 1, TURNS + 1):
        last = step_turn == TURNS
        moves, lost = {}, set()
        for p in players:
            dx = 1 if p == players[0] else -1
            hole = holes[p]
            onto = (hole[0] + dx, hole[1])
            for cell in sorted(stacks):
                if _near(hole, cell) and cell not in moves and cell not in lost:
                    if cell == onto:
                        lost.add(cell)
                    else:
                        moves[cell] = (cell[0] + dx, cell[1])
        for p in players:
            dx = 1 if p == players[0] else -1
            holes[p] = (holes[p][0] + dx, holes[p][1])
        staying = {c: n for c, n in stacks.items() if c not in moves and c not in lost}
        arrivals = {}
        for src, dst in moves.items():
            arrivals.setdefault(dst, []).append(src)
        result = dict(staying)
        for dst, srcs in arrivals.items():
            if last and (len(srcs) > 1 or dst in staying):
                continue
            result[dst] = result.get(dst, 0) + sum(stacks[s] for s in srcs)
        stacks = result
    return holes, stacks


def evaluate(data: Mapping, players, me) -> float:
    """My final score minus the other's if the remaining steps happened with no more cards."""
    holes = {p: tuple(h) for p, h in data["holes"].items()}
    stacks = {(x, y): len(owners) for x, y, owners in data["stacks"]}
    return _projected(holes, stacks, data["turn"], players, me)


def _projected(holes, stacks, turn, players, me) -> float:
    over = turn >= TURNS
    holes, stacks = project(holes, stacks, turn, players)
    value = 0.0
    biggest = {p: 0 for p in holes}
    for cell, n in stacks.items():
        for p, h in holes.items():
            if _near(h, cell):
                value += n if p == me else -n
                biggest[p] = max(biggest[p], n)
    if not over:
        # A Merge or Shift of the other's can carry one stack away before the end: the
        # biggest stack is at risk, so systems spread out are safer.
        for p, n in biggest.items():
            value -= CONCENTRATION * n if p == me else -CONCENTRATION * n
    return value


CONCENTRATION = 0.5


def _effect(stacks: dict, player, action: str) -> dict:
    """The stacks after a target given as text (a cell, a move, or pass)."""
    if action == "pass":
        return stacks
    stacks = dict(stacks)
    if ">" in action:
        src, dst = (tuple(int(c) for c in part.split(",")) for part in action.split(">"))
        stacks[dst] = stacks.get(dst, 0) + stacks.pop(src)
    else:
        cell = tuple(int(c) for c in action.split(","))
        stacks[cell] = 1
    return stacks


def greedy_target(state, player, rng: Rng, pick_any=False) -> str:
    """The target (or pass) that `evaluate` likes best after it; `pick_any`: a random one of
    those that are no worse than passing."""
    players = state["players"]
    data = state["data"]
    holes = {p: tuple(h) for p, h in data["holes"].items()}
    stacks = {(x, y): len(owners) for x, y, owners in data["stacks"]}
    options = []
    for action in GAME.legal_actions(state, player):
        text = str(action)
        after = _effect(stacks, player, text)
        options.append((_projected(holes, after, data["turn"], players, player), text))
    shuffled = rng.shuffled(options)
    if pick_any:
        base = next(v for v, t in options if t == "pass")
        return rng.choice([t for v, t in shuffled if v >= base])
    return max(shuffled, key=lambda vt: vt[0])[1]


# --------------------------------------------------------------------------- players


class GalaxiesPlayer(ComputerPlayer):
    game_name = "galaxies"

    def decide(self, view, rng):
        seat = view["viewer"]
        if view["phase"] == "commit":
            return self.commit(view, rng)
        state = determinise(view, rng)
        return self.target(state, seat, rng)

    def answer_draw(self, view):
        """Accepts when it counts you ahead at the end (`expected_margin`), or level with only
        the last card to play; otherwise says what it counts, from what both can see."""
        margin = self.expected_margin(view)
        if margin <= -EVEN:
            return True, "I accept: as I count it you would end ahead."
        if margin < EVEN:
            left = plays_left(view)
            if left <= 1:   # (only the last card to come: a level count is the end in sight)
                return True, "I accept: as I count it we would end level."
            return False, (f"No thanks: as I count it we are level, with {left} cards each still "
                           "to play.")
        return False, why_play_on(view, margin)

    def expected_margin(self, view) -> float:
        """Its final score minus yours, as it expects them."""
        raise NotImplementedError


class EasyGalaxies(GalaxiesPlayer):
    level = "easy"

    def commit(self, view, rng):
        return rng.choice(sorted(set(view["hand"]), key=KINDS.index))

    def target(self, state, seat, rng):
        """Usually the target that counts best for it now (it never guesses the other's
        answer); one time in three any target no worse than passing."""
        return greedy_target(state, seat, rng, pick_any=rng.below(3) == 0)

    def expected_margin(self, view):
        """A quick count: the systems that will end beside each hole if no card moved
        anything, and each player's systems in hand, as many as they have plays left."""
        left = plays_left(view)
        counts = {p: board + min(hand, left) for p, (board, hand) in public_count(view).items()}
        me = view["viewer"]
        return sum(n if p == me else -n for p, n in counts.items())


class StrongGalaxies(GalaxiesPlayer):
    """Searches over its information set (computer/search.py): the cards both play and their
    targets, to the end of the game, in worlds drawn from its view."""

    level = "strong"
    iterations = 250

    def __init__(self, seed: int = 0, iterations: int | None = None):
        super().__init__(seed)
        if iterations is not None:
            self.iterations = iterations

    def decide(self, view, rng):
        return search(SearchModel(), view, rng, self.iterations, tree_turns=TURNS,
                      rollout_turns=1)

    def expected_margin(self, view):
        return playout_margin(view, self.rng_for(view), PLAYOUTS)


class SearchModel:
    """Galaxies for the search: the cards in hand, the best few targets by `evaluate`, a quick
    policy (a random card, the best target) and the judgement at a turn's end."""

    game = GAME
    width = 5   # targets kept per card
    last_word = False   # measured: the tree's choice of the second target beats the greedy one

    def __init__(self):
        self._targets = {}

    def determinise(self, view, rng):
        return determinise(dict(view, committed=[], own_commit=None), rng)

    @staticmethod
    def clock(state) -> int:
        return state["data"]["turn"]

    def moves(self, state, player) -> list[str]:
        d = state["data"]
        if d["phase"] == "commit":
            return sorted(set(d["hands"][player]), key=KINDS.index)
        kind = d["reveal"]["cards"][player]
        key = (d["stacks"], d["turn"], player, kind, d["hands"][player].count("system"),
               tuple(d["queue"]))
        if key not in self._targets:
            holes = {p: tuple(h) for p, h in d["holes"].items()}
            stacks = {(x, y): len(owners) for x, y, owners in d["stacks"]}
            scored = {str(a): _projected(holes, _effect(stacks, player, str(a)), d["turn"],
                                         state["players"], player)
                      for a in GAME.legal_actions(state, player)}
            self._targets[key] = sorted(scored, key=lambda t: (-scored[t], t))[:self.width]
        return self._targets[key]

    def policy(self, state, player, rng) -> str:
        if state["data"]["phase"] == "commit":
            return rng.choice(self.moves(state, player))
        return self.moves(state, player)[0]

    @staticmethod
    def evaluate(state) -> dict[str, float]:
        outcome = GAME.outcome(state)
        players = state["players"]
        if outcome is not None:
            return {p: 1.0 if p in outcome.winners else 0.5 if outcome.draw else 0.0
                    for p in players}
        return {p: 0.5 + 0.5 * math.tanh(evaluate(state["data"], players, p) / 2)
                for p in players}


# --------------------------------------------------------------------------- draws

EVEN = 0.5      # an expected margin under half a point either way: we would end level
PLAYOUTS = 32   # the strong player's games played out to judge a draw offer (0.2-0.4 s)


def public_count(view) -> dict[str, tuple[int, int]]:
    """{player: (systems that end beside their hole if no card moves anything, systems still
    in their hand)}: what everyone at the table can count (never from the viewer's hand)."""
    players = view["players"]
    holes = {p: (h["x"], h["y"]) for p, h in view["holes"].items()}
    stacks = {(s["x"], s["y"]): s["count"] for s in view["stacks"]}
    holes, stacks = project(holes, stacks, view["turn"], players)
    # (the log shows the latest events only: the hand's size bounds what it misses)
    return {p: (sum(n for cell, n in stacks.items() if _near(holes[p], cell)),
                min(_systems_in_hand(view, p), view["hand_sizes"][p])) for p in players}


def playout_margin(view, rng: Rng, playouts: int) -> float:
    """The mean final margin (the viewer's score minus the other's) over games played out
    to the end in worlds drawn from the view, both playing the search's quick policy (a
    random card, the best target). The viewer's own card of this turn is chosen afresh, so
    the answer does not tell what it chose."""
    me = view["viewer"]
    model = SearchModel()
    total = 0
    for _ in range(playouts):
        state = model.determinise(view, rng)
        while GAME.outcome(state) is None:
            player = GAME.awaited(state)[0]
            state = GAME.apply(state, player, model.policy(state, player, rng))
        scores = GAME.scores(state)
        total += sum(n if p == me else -n for p, n in scores.items())
    return total / playouts


def plays_left(view) -> int:
    """Cards each player still plays, this turn's included until it is revealed."""
    return TURNS - view["turn"] + (view["phase"] == "commit")


def _systems(n: int) -> str:
    return f"{n} system" + ("" if n == 1 else "s")


def why_play_on(view, margin: float) -> str:
    """Why it declines, in what both players can count on the table."""
    me = view["viewer"]
    other = next(p for p in view["players"] if p != me)
    count = public_count(view)
    (board, hand), (their_board, their_hand) = count[me], count[other]
    if board > their_board:
        travel = "as the holes travel on, " if view["turn"] < TURNS else ""
        return f"No thanks: {travel}I count {_systems(board)} near my hole to your {their_board}."
    if hand > their_hand and plays_left(view):
        return f"No thanks: I still have {_systems(hand)} to play to your {their_hand}."
    points = max(1, round(margin))
    return f"No thanks: as I count it I would end about {points} point{'s' * (points > 1)} ahead."


PLAYERS = {"easy": EasyGalaxies, "strong": StrongGalaxies}
