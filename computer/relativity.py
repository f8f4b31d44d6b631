"""Relativity players. Everything is public except the Day board during Night, which a
determinisation samples (a fresh deal, as the rules make it).

easy:   takes a molecule when one swap makes it, and otherwise mostly makes a swap that brings
        like coins together (a one-swap look ahead with some noise); only half the time does
        it look at what its swap offers the opponent, so it leaves chances a beginner can find.
strong: first a threat search (computer/relativity_threats.py): a trophy forced by a chain of
        up to three threats, the last one double, is played at once; otherwise an alpha-beta
        search (computer/relativity_search.py) with iterative deepening, a transposition table
        and move ordering over a fast model of the rules (computer/relativity_eval.py), with
        an evaluation that counts trophies (each outweighs what its coins counted for before),
        the molecules each side could complete with one swap, double threats, the values each
        side's role is one swap from threatening, and its own molecules in the making (its
        plan, weighed more the longer no trophy is taken); positions met before in the round
        count as a little worse than even for it, so it does not shuffle. In a
        round stalled for 40 moves it stops guarding (the opponent's gains count a tenth) when
        by `chances` (relativity_eval.py: each trophy to come goes to Time four times in
        five) it stays the likelier winner after the opponent's next trophy, or when its swap
        offers a trade that does not hurt those chances. Either way, once stalled it opens
        the game: the opponent's molecules two swaps away no longer count against it, its own
        count more (those one swap away count as before). While it lets a round run on as
        the likelier winner, it also sets traps: of its swaps nearly as good as the best, the
        one after which most of the opponent's answers let it make a double threat that no
        reply stops. In a race (the next trophy ends the game, whoever takes it) it looks five
        plies ahead and plays for threats the opponent cannot prevent: a molecule one swap
        away is the game there, and so are two for the opponent that no reply stops. The
        search is bounded by a node count, not a clock: deterministic, and under a second a
        decision.

Draws: a player accepts an offer when its search sees the position as even (or worse for it)
and no trophy has been taken for a while; it offers one itself after a long stretch without a
trophy when it sees no trophy coming, whoever leads. Either way it says why, in players' words.
It resigns a game that no run of trophies to come could make it win.
"""

from __future__ import annotations

from typing import Mapping

import engine
from engine import Rng, freeze, thaw
from engine.piecepack import VALUES, value_name
from engine.relativity import CELLS, OTHER_ROLE, coins_to_layout, deal

from .base import ComputerPlayer
from .relativity_eval import DEFAULT_WEIGHTS, TROPHY, WIN, Position, chances
from .relativity_search import Searcher
from .relativity_threats import ThreatSearch

GAME = engine.get_game("relativity")


# --------------------------------------------------------------------------- view -> state


def determinise(view: Mapping, rng: Rng):
    """An engine state consistent with `view`: the view shows everything but the Day board
    during Night, which is dealt afresh from `rng`."""
    coins = "".join(view["coins"][c] for c in CELLS)
    day = coins_to_layout(deal(rng)) if view["round"] == "night" else view["layout"]
    state = thaw(GAME.new_game(view["players"], seed=0,
                               options={"layouts": [view["layout"], day]}))
    roles = view["roles"]
    data = state["data"]
    data.update({
        "round": view["round"],
        "coins": coins,
        "turn": "space" if view["turn"] == roles["space"] else "time",
        "last_swap": view["last_swap"],
        "trophies": view["trophies"],
        "molecules": view["molecules"],
    })
    state.update({"move_number": view["move_number"], "left": view["left"]})
    return freeze(state)


def seen_in_round(view: Mapping) -> set:
    """The positions (coins, role to move) met earlier in this round, as far as the view's
    log goes back: its swaps undone one by one from the board as it stands."""
    coins = [view["coins"][c] for c in CELLS]
    role = "space" if view["turn"] == view["roles"]["space"] else "time"
    seen = {("".join(coins), role)}
    for entry in reversed(view["log"]):
        if entry.get("event") in ("round", "trophy"):
            break   # (a position before a trophy cannot come back: the trophy stays taken)
        if entry.get("event") != "swap":
            continue
        a, b = (CELLS.index(c) for c in entry["cells"])
        coins[a], coins[b] = coins[b], coins[a]
        role = entry["role"]
        seen.add(("".join(coins), role))
    return seen


def plies_without_trophy(view: Mapping) -> int:
    """Moves since the last trophy or the start of the round (at least as many as the log shows)."""
    marks = [e["n"] for e in view["log"] if e.get("event") in ("trophy", "round")]
    if marks:
        return view["move_number"] - max(marks)
    return view["move_number"] - (view["log"][0]["n"] if view["log_start"] and view["log"] else 0)


# --------------------------------------------------------------------------- players


def notation(move) -> str:
    a, b = move
    return f"{CELLS[a]}#{CELLS[b]}"


class RelativityPlayer(ComputerPlayer):
    game_name = "relativity"
    # Draws: moves without a trophy after which the game counts as stalled (an offer may be
    # accepted), and after which the player offers one itself; a search value (a trophy is
    # worth TROPHY, a molecule one swap away 85) within `even` of zero is an even game.
    stalled = 30
    offer_after = 40   # (the view's log shows the last 40 events: as far back as it can tell)
    even = 40

    def decide(self, view, rng):
        state = determinise(view, rng)
        seat = view["viewer"]
        pos = Position(state)
        legal = {str(a) for a in GAME.legal_actions(state, seat)}
        assert pos.players[pos.mover()] == seat
        assert legal == {notation(m) for m in pos.moves()}, "model and engine disagree"
        return notation(self.pick(pos, rng, view))

    def pick(self, pos: Position, rng: Rng, view):
        raise NotImplementedError

    # ---- draws -------------------------------------------------------------------------------

    def outlook(self, view) -> tuple[float, Position]:
        """How the game stands for the viewer, by a short tactical search (trophies and
        threats, no plan: the question is who is better, not what to build)."""
        pos = Position(determinise(view, self.rng_for(view)))
        weights = dict(DEFAULT_WEIGHTS, together=0, near=0)
        _, value = Searcher(2, 4000, weights).best(pos, self.rng_for(view))
        me = pos.players.index(view["viewer"])
        return (value if pos.mover() == me else -value), pos

    def answer_draw(self, view):
        value, pos = self.outlook(view)
        since = plies_without_trophy(view)
        if value <= -self.even:
            return True, "I accept: you have the better of it, and I see no way back."
        if abs(value) < self.even and since >= self.stalled:
            return True, (f"I accept: no trophy in the last {since} moves, and I see no way through for "
                          "either of us.")
        return False, self._why_play_on(view, pos, value, since)

    def _why_play_on(self, view, pos: Position, value: float, since: int) -> str:
        me = pos.players.index(view["viewer"])
        lead = pos.counts[me] - pos.counts[1 - me]
        my_role = "space" if view["roles"]["space"] == view["viewer"] else "time"
        close = sorted(pos.threats(my_role), key=VALUES.index)
        if close:
            names = [f"{value_name(v)}s" for v in close]
            names = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
            return f"No thanks: I still see winning chances, my {names} are one swap from a molecule."
        if lead > 0:
            return f"No thanks: I lead {pos.counts[me]}-{pos.counts[1 - me]} in trophies."
        if value >= self.even:
            return "No thanks: I still see winning chances here."
        return f"No thanks: a trophy was taken only {since} moves ago; let us play on."

    def offers_draw(self, view) -> bool:
        since = plies_without_trophy(view)
        if since < self.offer_after or view.get("draw_offer"):
            return False
        if any(e.get("event") == "draw_offer" and e.get("player") == view["viewer"]
               for e in view["log"]):
            return False   # (not again while its last offer is among the latest events)
        value, pos = self.outlook(view)
        # It sees no way on while its search sees no trophy change hands: the value without
        # the trophies already held is below a molecule a swap away, and not clearly behind.
        me = pos.players.index(view["viewer"])
        value -= TROPHY * (pos.counts[me] - pos.counts[1 - me])
        return -self.even < value < DEFAULT_WEIGHTS["my_threat"]

    def resigns(self, view):
        """When no run of trophies still to come could make it the winner (the trophy count is
        public: nothing hidden is used)."""
        pos = Position(determinise(view, self.rng_for(view)))
        if chances(pos, pos.players.index(view["viewer"])) > 0:
            return None
        return ("I resign: whoever takes the trophies still to come, I cannot finish ahead. "
                "Well played!")

    def draw_reason(self, view) -> str:
        return (f"No trophy in the last {plies_without_trophy(view)} moves and I see no way on for "
                "either of us: shall we call it a draw?")


class EasyRelativity(RelativityPlayer):
    """One swap ahead: a molecule when one swap makes it (nine times in ten), otherwise mostly
    the swap that brings like coins closest together, now and then any swap; half the time it
    first leaves out the swaps that hand the opponent a molecule (so a beginner who takes the
    molecules offered does not win every game, and still finds some)."""

    level = "easy"

    def pick(self, pos, rng, view):
        moves = pos.moves()
        if rng.below(10):
            scoring = [m for m in moves if Searcher._completes(pos, m)]
            if scoring:
                return rng.choice(scoring)
        if rng.below(2):
            careful = [m for m in moves if not self._offers(pos, m)]
            moves = careful or moves
        if rng.below(4) == 0:
            return rng.choice(moves)
        best, choices = None, []
        for move in moves:
            token = pos.play(move)
            value = pos.togetherness() + 2 * pos.near()
            pos.undo(token)
            if best is None or value > best:
                best, choices = value, [move]
            elif value == best:
                choices.append(move)
        return rng.choice(choices)

    @staticmethod
    def _offers(pos: Position, move) -> bool:
        """Whether the swap leaves the opponent a molecule one swap away."""
        token = pos.play(move)
        try:
            return pos.winner is None and bool(pos.threats(pos.role))
        finally:
            pos.undo(token)


class StrongRelativity(RelativityPlayer):
    level = "strong"
    # Three plies (its swap, the answer, its next) fit the budget: about 10-20 thousand nodes,
    # 0.2-0.5 s of one core; a deeper search did not finish games more often.
    depth = 3
    nodes = 25_000
    contempt = 15
    # Moves without a trophy after which it builds twice as eagerly (and fears the opponent's
    # single threats less): two careful players must not stall for ever.
    patience = 40
    # First a search for a trophy forced by a chain of up to three threats (seven plies:
    # computer/relativity_threats.py), within this many swaps tried.
    threat_depth = 3
    threat_nodes = 20_000

    def __init__(self, seed: int = 0, nodes: int | None = None):
        super().__init__(seed)
        if nodes is not None:   # (a smaller player, for tests: its races too)
            self.nodes = self.race_nodes = nodes

    # In a round stalled this long it stops guarding against the opponent's molecules (they
    # count `yield_gain` of its own) and builds its own instead, so that the round runs on to
    # its end: when by `chances` it would still be the likelier winner after the opponent's
    # next trophy, or when a trade of trophies would not hurt it and its swap offers one (a
    # molecule of its own one swap away, whatever trophy the opponent takes). Mostly as Space:
    # Time's reach breaks up every molecule Space prepares, but not while it takes one.
    yield_after = 40   # (as far back as the view's log of 40 events can tell)
    yield_gain = 0.1

    # In a round stalled this long it opens the game, whoever leads: it stops keeping the
    # opponent's molecules two swaps away (their preparation counts `open_theirs` of its
    # weight) and builds its own harder (`open_mine`), still refusing a molecule one swap
    # away. Both sides then get threats, and its deeper look (three plies and the threat
    # chains) wins that race more often than it loses it: a stall is worth a draw, and
    # opening measured better than that (benchmarks/README.md).
    open_after = 40   # (as far back as the view's log can tell, as `yield_after`)
    open_theirs = 0.0
    open_mine = 1.5

    # While it lets a stalled round run on because it stays the likelier winner whatever the
    # opponent takes next (see `yields`: "safe"), it also sets traps: among its swaps within
    # `trap_margin` of the best by its search (the `trap_moves` best of them), it plays the
    # one that leaves the opponent the most answers losing a trophy at once (after which it
    # has a double threat no reply stops), within `trap_nodes` swaps tried. A player who
    # only answers the threat in front of it then falls into one, and the round ends.
    # (Tried and not kept, benchmarks/README.md: traps in every stalled position lost more
    # games; traps in a stalled race, where the next trophy decides the game, stalled no less
    # on fresh deals and lost more of them.)
    trap_margin = 40
    trap_moves = 6
    trap_nodes = 300_000

    # In a race (the next trophy ends the game, whoever takes it: by Day at 5-4 with four Sun
    # trophies won, say) a molecule one swap away for the side to move is the game, and so
    # are two for the other side that no reply stops (`race_threat`: below WIN / 2, which the
    # search reads as a forced end); one the other side must answer counts `race_pressure`.
    # Guarding alone stalls a race between two careful players, so it plays for threats the
    # opponent cannot prevent: each must be answered, and two at once may come of them. The
    # whole game hangs on the race, so it looks five plies ahead there (`race_depth`, within
    # `race_nodes`: up to about a second).
    race_threat = 5000
    race_pressure = 150
    race_depth = 5
    race_nodes = 80_000

    def searcher(self, view, their_gain: float = 1.0, margin: float = 0,
                 race: bool = False) -> Searcher:
        since = plies_without_trophy(view)
        urge = min(1.0, since / self.patience)
        weights = dict(DEFAULT_WEIGHTS, their_gain=their_gain)
        weights["together"] *= 1 + urge
        weights["near"] *= 1 + urge
        weights["their_threat"] *= 1 - urge / 2
        if since >= self.open_after:
            weights["their_prepared"] *= self.open_theirs
            weights["prepared"] *= self.open_mine
        depth, nodes = self.depth, self.nodes
        if race:
            weights.update(my_threat=self.race_threat, their_threat=self.race_pressure,
                           their_won=self.race_threat)
            depth, nodes = self.race_depth, self.race_nodes
        return Searcher(depth, nodes, weights, seen_in_round(view), self.contempt, margin)

    def pick(self, pos, rng, view):
        forced = ThreatSearch(self.threat_nodes).find(pos, self.threat_depth)
        if forced is not None:
            return forced
        why = self.yields(pos, plies_without_trophy(view))
        if why:
            margin = self.trap_margin if why == "safe" else 0
            move = self.best_or_trap(self.searcher(view, self.yield_gain, margin), pos, rng)
            if why == "safe" or self._trades_after(pos, move):
                return move
        return self.best_or_trap(self.searcher(view, race=self.races(pos)), pos, rng)

    @staticmethod
    def races(pos: Position) -> bool:
        """Whether the next trophy ends the game, whoever takes it."""
        me = pos.mover()
        return chances(pos, me, (me,)) == 1.0 and chances(pos, me, (1 - me,)) == 0.0

    def best_or_trap(self, searcher: Searcher, pos: Position, rng: Rng):
        """The searcher's best swap; with a margin, the one among those nearly as good that
        sets the most traps (see `trap_margin`), the best one on a tie."""
        move, value = searcher.best(pos, rng)
        if not searcher.margin or abs(value) >= WIN // 2:
            return move
        near = [m for m, v in searcher.scored if v >= value - searcher.margin][:self.trap_moves]
        if len(near) < 2:
            return move
        counter = ThreatSearch(self.trap_nodes)
        most = 0
        for candidate in near:
            found = counter.traps(pos, candidate)
            if found is None:
                break   # (out of its budget: the swaps left stay untried)
            if found > most:
                move, most = candidate, found
        return move

    def yields(self, pos: Position, since: int) -> str | None:
        """Whether to stop guarding, `since` moves after the last trophy: "safe" (still the
        likelier winner after the opponent's next trophy), "trade" (a trade would not hurt), or
        None."""
        if since < self.yield_after:
            return None
        me = pos.mover()
        if chances(pos, me, (1 - me,)) >= 0.5:
            return "safe"
        return "trade" if chances(pos, me, (1 - me, me)) >= chances(pos, me) else None

    @staticmethod
    def _trades_after(pos: Position, move) -> bool:
        """Whether the swap takes a trophy, or leaves its maker a molecule one swap away that
        every trophy the opponent could take next leaves standing: a trade offered."""
        me = pos.mover()
        before = pos.counts[me]
        token = pos.play(move)
        try:
            if pos.counts[me] > before:
                return True
            mine = OTHER_ROLE[pos.role]
            if not pos.threats(mine):
                return False
            for reply in pos.finishing(pos.role):
                inner = pos.play(reply)
                answered = pos.winner is None and pos.mover() == me and bool(pos.finishing(mine))
                pos.undo(inner)
                if not answered:
                    return False
            return True
        finally:
            pos.undo(token)


PLAYERS = {"easy": EasyRelativity, "strong": StrongRelativity}
