"""Search over the seat's information set for games with hidden information and simultaneous
commits (Galaxies): determinized Monte Carlo tree search with decoupled UCT.

Each iteration draws one world from the seat's view only (`model.determinise(view, rng)`, the
others' secret choices of this commit phase left out: they are decided in the tree), walks down
one shared tree and plays on with a cheap policy to a cut-off, where the game's evaluation
scores every player. A node is a public history of choices: in a commit phase every player still
to choose picks from their own statistics at once (decoupled UCT: nobody sees the others'
choices), elsewhere the one actor picks. A player's options may differ from world to world (a
hidden hand), so an option is chosen only among those available in the current world, and its
exploration term counts how often it was available. Each player maximises their own value, so
the others are modelled as playing well for themselves, not as random. A lone mover whose
every option ends the turn takes the option the evaluation likes best for them (their last
word), computed once per node.

Budgets are iterations, never wall-clock time: the same seed and view give the same move on any
machine.

A game plugs in a model with:
    game                      the engine Game
    determinise(view, rng)    a state agreeing with the view, this commit phase's choices unmade
    clock(state)              the turn number (the tree and the rollouts stop after so many turns)
    moves(state, player)      the candidate actions (text), pruned to the sensible ones
    policy(state, player, rng) the rollout's quick choice (text)
    evaluate(state)           {player: value in [0, 1]} at a cut-off or the end
and may add:
    last_word = False         to let the tree choose for a last mover too (default True)
"""

from __future__ import annotations

import math
from typing import Mapping

from engine import Rng


class _Node:
    __slots__ = ("stats", "children", "last")

    def __init__(self):
        self.stats: dict[str, dict[str, list]] = {}    # player -> action -> [visits, total, seen]
        self.children: dict[tuple, _Node] = {}
        self.last = None    # the best action of a last mover (see _last_word), or False


def _last_word(model, state, player, options):
    """When every option of a lone mover ends the turn, the turn's value is known at once:
    their best option by the evaluation (the same in every world, as the evaluation reads
    only what is public). Otherwise False: the tree chooses."""
    game = model.game
    turn = model.clock(state)
    best, best_value = False, None
    for action in options:
        after = game.apply(state, player, action)
        if game.outcome(after) is None and model.clock(after) == turn:
            return False
        value = model.evaluate(after)[player]
        if best_value is None or value > best_value:
            best, best_value = action, value
    return best


def _select(table: dict, options: list[str], rng: Rng, explore: float, guess=None) -> str:
    """UCB1 over the options available in this world; an option never tried goes first. A
    guess (a last mover's best option, see _last_word) is taken as it is."""
    for action in options:
        entry = table.get(action)
        if entry is None:
            table[action] = [0, 0.0, 0]
    for action in options:
        table[action][2] += 1
    if guess in options:
        return guess
    untried = [a for a in options if table[a][0] == 0]
    if untried:
        return untried[rng.below(len(untried))]
    best, best_value = None, -math.inf
    for action in options:
        visits, total, seen = table[action]
        value = total / visits + explore * math.sqrt(math.log(seen) / visits)
        if value > best_value:
            best, best_value = action, value
    return best


def search(model, view: Mapping, rng: Rng, iterations: int, tree_turns: int = 1,
           rollout_turns: int = 1, explore: float = 0.7) -> str:
    """The viewer's action after `iterations` iterations: the one tried most at the root.

    The tree grows at most `tree_turns` turns past the view's turn; from a new leaf a rollout
    plays on to the end of the leaf's turn and `rollout_turns - 1` more (or to the end of the
    game), then evaluates."""
    game = model.game
    me = view["viewer"]
    last_word = getattr(model, "last_word", True)
    root = _Node()
    start = None
    for _ in range(iterations):
        state = model.determinise(view, rng)
        if start is None:
            start = model.clock(state)
        node, path, stop = root, [], None
        while game.outcome(state) is None and model.clock(state) < start + tree_turns:
            turn = model.clock(state)
            joint = []
            movers = game.awaited(state)
            for player in movers:
                table = node.stats.setdefault(player, {})
                options = model.moves(state, player)
                guess = None
                if len(movers) == 1 and last_word:
                    if node.last is None:
                        node.last = _last_word(model, state, player, options)
                    guess = node.last or None
                joint.append((player, _select(table, options, rng, explore, guess)))
            for player, action in joint:
                state = game.apply(state, player, action)
            path.append((node, joint))
            key = tuple(joint)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                stop = turn + rollout_turns
                break
            node = child
        # From a new leaf, play on to a cut-off; a walk that reached the horizon stops there.
        while stop is not None and game.outcome(state) is None and model.clock(state) < stop:
            player = game.awaited(state)[0]
            state = game.apply(state, player, model.policy(state, player, rng))
        values = model.evaluate(state)
        for node, joint in path:
            for player, action in joint:
                entry = node.stats[player][action]
                entry[0] += 1
                entry[1] += values[player]
    mine = root.stats[me]
    return max(mine, key=lambda a: (mine[a][0], mine[a][1]))
