"""Relativity's strong player in a stalled round: the long view of the trophy count
(`chances`) and letting the round run on when guarding for ever would only stall it."""

from __future__ import annotations

import pytest

import computer
import engine
from computer import relativity as crel
from computer.relativity_eval import TIME_SHARE, Position, chances
from computer.relativity_threats import ThreatSearch
from engine.relativity import OTHER_ROLE

RELATIVITY = engine.get_game("relativity")


def position(round_name: str, counts: tuple[int, int], won: int) -> Position:
    pos = Position(RELATIVITY.new_game(["ann", "bob"], seed=1))
    pos.round, pos.counts, pos.won_this_round = round_name, list(counts), won
    return pos


def test_chances_follow_the_rules_of_the_count():
    # 0-4 at Night: bob's next trophy ends the Night at 0-5, and ann (Time by Day) must then
    # take all five Sun trophies (five each: Night's Space wins).
    assert chances(position("night", (0, 4), 4), 0, (1,)) == pytest.approx(TIME_SHARE ** 5)
    # 5-4 by Day with four Sun trophies won: bob's trophy makes it five each, the game ends,
    # and ann, Night's Space, wins it; ann's own makes her six.
    pos = position("day", (5, 4), 4)
    assert chances(pos, 0, (1,)) == 1.0 and chances(pos, 1, (1,)) == 0.0
    assert chances(pos, 0, (0,)) == 1.0
    # Bob's sixth trophy wins at once, whatever comes after.
    assert chances(position("day", (3, 5), 2), 1, (1, 0, 0)) == 1.0


@pytest.mark.parametrize("round_name,counts,won", [("night", (0, 0), 0), ("night", (2, 1), 3),
                                                   ("day", (3, 3), 1), ("day", (4, 2), 2)])
def test_chances_are_a_probability_that_a_trophy_raises(round_name, counts, won):
    pos = position(round_name, counts, won)
    for seat in (0, 1):
        now = chances(pos, seat)
        assert chances(pos, seat, (1 - seat,)) <= now <= chances(pos, seat, (seat,))
        assert now + chances(pos, 1 - seat) == pytest.approx(1.0)


# A real game of the benchmark (deal 1002, strong as ann against the baseline): the Night at
# 1-1, no trophy for 46 moves, ann (Space) to move and bob (Time) one swap from no molecule.
STALLED = ("b3#c3 b3#b4 e1#f2 a1#c2 b1#c4 a2#f4 d2#d3 b1#d4 b3#c4 b2#e1 d3#e3 c1#d1 e1#e2 d4#e4 "
           "c2#c3 b4#e4 d4#e4 a3#a4 c3#d4 e1#f4 e1#f2 b3#d4 a4#f4 d3#e1 e1#e4 b2#d3 d3#d4 a2#c2 "
           "c2#d2 a3#f4 a3#f2 d4#e1 f3#f4 c3#e1 d4#e1 d3#f4 a2#b3 d1#d4 e2#f3 d3#f1 e2#f2 a3#e4 "
           "a4#f1 a2#f1 f2#f3 b4#f1 d1#e4 d2#f2 c1#d2 c1#d3 e4#f4 a1#b1 b2#b3 e3#f1 e3#f4 b4#f3 "
           "a3#f3 b4#e1 a3#f2 a2#d2 a4#b4 a1#a3 d4#e1 d1#d4 b4#c1 a3#c2 d2#d3 a1#c2 c2#c3 f2#f3 "
           "a1#f4 a4#c2 d1#d4 b2#d4 d4#e1 a4#d2 a4#f3 c2#d3 a2#f1 a3#f3 a2#f3 b1#e3 c4#d3 c2#e1 "
           "a2#f1 f1#f3 d1#e2 b3#f2 e4#f3 a3#d3 c2#d3 a4#e3 d2#e3 c3#f4 e3#f4 c1#e3 c1#d2 a4#c1 "
           "b3#c2 c2#e2 f3#f4 c3#f3 d3#e4 d3#f2 c3#d3 c4#f4 d4#e3 a4#e2 a1#f1 b1#c1 c3#d3 f1#f4 "
           "d4#e1 c4#e2 a3#f4 a2#e3 c4#d4 a4#d3 b1#c1 c3#d4 a2#f2 b3#b4 c4#d1 b2#e4")


def stalled_view():
    state = RELATIVITY.new_game(["ann", "bob"], seed=1002)
    for action in STALLED.split():
        state = RELATIVITY.apply(state, RELATIVITY.to_act(state)[0], action)
    assert RELATIVITY.to_act(state) == ("ann",) and RELATIVITY.scores(state) == {"ann": 1, "bob": 1}
    return state, RELATIVITY.view(state, "ann")


def time_can_take_a_trophy(state) -> bool:
    return any(RELATIVITY.scores(RELATIVITY.apply(state, "bob", a))["bob"] > 1
               for a in RELATIVITY.legal_actions(state, "bob"))


def test_strong_lets_a_stalled_round_run_on_when_it_stays_the_likelier_winner():
    state, view = stalled_view()
    assert crel.plies_without_trophy(view) >= crel.StrongRelativity.yield_after
    pos = Position(state)
    assert chances(pos, 0, (1,)) >= 0.5   # (Night's Space, and Time by Day)
    guarding = crel.StrongRelativity(10020)
    guarding.yield_after = 10_000
    guarded = RELATIVITY.apply(state, "ann", guarding.choose(view))
    assert not time_can_take_a_trophy(guarded)
    # With the round stalled it builds instead of guarding: Time may take a trophy.
    let = RELATIVITY.apply(state, "ann", crel.StrongRelativity(10020).choose(view))
    assert time_can_take_a_trophy(let)


def test_strong_yields_only_where_the_count_allows_it():
    player = crel.StrongRelativity(1)
    after = player.yield_after
    night = position("night", (2, 1), 3)        # ann (Space) to move, a trophy ahead
    assert night.mover() == 0
    assert player.yields(night, after - 1) is None          # not stalled yet
    assert player.yields(night, after) == "safe"
    # By Day at 4-3 with two Sun trophies won, bob (Space) to move: ann's next trophy, alone
    # or in a trade, leaves bob no way to six: he keeps guarding however long it stalls.
    day = position("day", (4, 3), 2)
    assert day.mover() == 1
    assert player.yields(day, 1000) is None
    # By Day at 1-4, bob (Space) to move needs two more: a trade brings him one nearer.
    day = position("day", (1, 4), 0)
    assert chances(day, 1, (0,)) < 0.5 and player.yields(day, after) == "trade"


def by_day(players, night: dict, day: dict):
    """A Relativity game in its Day round (the Day board as dealt, Space to move) with the
    trophies given as {value: player}."""
    state = engine.thaw(RELATIVITY.new_game(players, seed=1))
    data = state["data"]
    data["round"], data["coins"], data["turn"] = "day", data["boards"][1], "space"
    data["trophies"]["night"].update(night)
    data["trophies"]["day"].update(day)
    return engine.freeze(state)


@pytest.mark.parametrize("level", ["easy", "strong"])
def test_a_computer_resigns_a_game_it_can_no_longer_win(level):
    # Night 3-2 for ann, Day 2-2: one Sun trophy is left to win. bob's would make it five
    # each, and five each goes to Night's Space (ann); ann's would make her six.
    lost = by_day(["ann", "bob"], {"n": "ann", "a": "ann", "2": "ann", "3": "bob", "4": "bob"},
                  {"n": "ann", "a": "ann", "2": "bob", "3": "bob"})
    assert RELATIVITY.to_act(lost) == ("bob",) and RELATIVITY.outcome(lost) is None
    player = computer.get_player("relativity", level, 3)
    assert player.resigns(RELATIVITY.view(lost, "bob")) == (
        "I resign: whoever takes the trophies still to come, I cannot finish ahead. Well played!")
    # One trophy fewer for ann by Day: bob's last trophy would make him six. He plays on.
    open_game = by_day(["ann", "bob"], {"n": "ann", "a": "ann", "2": "ann", "3": "bob", "4": "bob"},
                       {"n": "ann", "2": "bob", "3": "bob", "4": "bob"})
    assert player.resigns(RELATIVITY.view(open_game, "bob")) is None
    # Nor does anyone resign at the start.
    start = RELATIVITY.new_game(["ann", "bob"], seed=1)
    assert player.resigns(RELATIVITY.view(start, "ann")) is None


def test_a_decline_names_the_values_one_swap_from_a_molecule_as_a_list():
    from tests.test_computer import random_state
    state = random_state(RELATIVITY, ["ann", "bob"], 6, 30)
    assert RELATIVITY.to_act(state) == ("ann",)
    answer = computer.get_player("relativity", "strong", 1).answer_draw(RELATIVITY.view(state, "ann"))
    assert answer == (False, "No thanks: I still see winning chances, my nulls, aces and 3s are "
                             "one swap from a molecule.")


def test_strong_offers_a_draw_in_a_stalled_round_it_leads_on_trophies_but_cannot_get_on():
    # The stalled position, with ann a trophy ahead (her 3s and bob's 4s taken earlier):
    # the lead is no way on, and no trophy is in sight for either side.
    state, _ = stalled_view()
    state = engine.thaw(state)
    state["data"]["trophies"]["night"].update({"3": "ann"})
    state = engine.freeze(state)
    view = RELATIVITY.view(state, "ann")
    player = crel.StrongRelativity(10020)
    value, pos = player.outlook(view)
    assert pos.counts == [2, 1] and value >= 2 * player.even   # (the lead alone is not even)
    assert player.offers_draw(view)
    assert player.draw_reason(view).startswith("No trophy in the last 40 moves")


# A real game of the benchmark (deal 1016, strong as bob against the baseline): by Day at 5-4
# for bob, whose next trophy wins and whose opponent's next loses, no trophy for 40 moves and
# more, bob (Space) to move. He cannot yield (ann's trophy would end it), and guarding both
# ways only stalls the game.
ONE_TROPHY_DECIDES = ("d1#d2 b3#e4 d2#e2 a2#e2 a1#f4 a4#e3 b1#c4 c2#f2 b2#c2 a3#b3 e4#f1 b3#f4 "
                      "a4#f3 c2#d2 b1#b3 b1#b2 d1#e2 d3#e3 d4#e4 c3#d3 a4#c2 b1#c2 e1#e2 e1#e4 "
                      "c2#f2 b4#c3 b2#b4 b1#b4 a3#e4 a3#b2 c2#c4 d2#d3 b2#c1 a2#f3 b4#f2 a3#f2 "
                      "c2#f3 f1#f2 d4#e1 c1#d4 a1#d2 c2#c3 b3#d3 d3#d4 d1#d2 c2#d2 c3#e2 e2#f1 "
                      "b4#c4 c2#d1 b1#b2 c2#c3 b3#f3 b2#c3 a3#b1 a4#b3 c1#e1 d4#e3 a2#e4 d3#d4 "
                      "c3#e1 b4#c1 d3#f2 e3#f3 c3#d3 d3#e3 d2#f3 a2#f1 e1#e3 a1#f4 b4#d2 e3#f3 "
                      "e3#f4 c2#c3 a3#b1 b3#c2 c3#d2 b1#b4 a1#a4 c4#d4 b3#f1 a2#f1 a4#d4 a3#b4 "
                      "b3#f4 a1#b2 a2#b1 d3#e4 d3#e3 e3#f2 e1#f2 d4#e1 c1#c2 c2#d1 c2#e4 b1#c2 "
                      "a3#f1 a2#f1 a3#d2 a1#a2 d4#f1 a1#b1 c2#d4 a1#f1 b3#f2 c1#d4 e4#f2 d1#e4 "
                      "c1#d3 e2#f1 b2#e1 a3#b2 d3#f2 a1#f1 a3#c1 a3#b2 e2#f4 d2#e3 a4#b4 b2#c1 "
                      "c2#c3 c1#c4 a1#c1 b2#c1 d2#f2 a1#b2 b1#e3 a3#f3 b1#e1 c1#d2 d1#d4 a1#f1 "
                      "e1#f2 e2#f2 f1#f4 a3#f3 c1#f2 c1#d4 a3#e4")


def test_strong_opens_a_stalled_game_that_one_trophy_decides():
    state = RELATIVITY.new_game(["ann", "bob"], seed=1016)
    for action in ONE_TROPHY_DECIDES.split():
        state = RELATIVITY.apply(state, RELATIVITY.to_act(state)[0], action)
    view = RELATIVITY.view(state, "bob")
    pos = Position(state)
    assert RELATIVITY.to_act(state) == ("bob",) and pos.role == "space"
    assert chances(pos, 1, (1,)) == 1.0 and chances(pos, 1, (0,)) == 0.0
    since = crel.plies_without_trophy(view)
    player = crel.StrongRelativity(10161)
    assert since >= player.open_after and player.yields(pos, since) is None
    guarding = crel.StrongRelativity(10161)
    guarding.open_after = 10_000
    # (This is a race, where it also presses: see the race test below. Opening alone here.)
    assert player.races(pos)
    player.races = guarding.races = lambda pos: False

    def after(move):
        """(ann's values one swap from a threat, bob's), and whether ann can take a trophy."""
        reached = Position(RELATIVITY.apply(state, "bob", move))
        return reached.prepared("time"), reached.prepared("space"), bool(reached.threats("time"))

    guarded, opened = guarding.choose(view), player.choose(view)
    assert guarded != opened
    # Guarding keeps every molecule of ann's two swaps away and prepares one of its own;
    # opening lets ann prepare one and prepares two: neither hands over a trophy.
    assert after(guarded) == (0, 1, False)
    assert after(opened) == (1, 2, False)


# --------------------------------------------------------------------------- traps


def takes_safely(pos: Position, me: int) -> bool:
    """Whether `me`, to move, can take a trophy leaving the opponent none to take at once."""
    before = pos.counts[me]
    for move in pos.moves():
        token = pos.play(move)
        try:
            if pos.winner == me or (pos.counts[me] > before and pos.winner is None and (
                    pos.mover() == me or not pos.threats(pos.role))):
                return True
        finally:
            pos.undo(token)
    return False


def forces_a_trophy(pos: Position, me: int) -> bool:
    """Brute force, for `me` to move: a safe take now, or a swap taking nothing after which
    every answer leaves a safe take (an answer that takes a trophy itself escapes)."""
    if takes_safely(pos, me):
        return True
    counts = pos.counts[:]
    for move in pos.moves():
        token = pos.play(move)
        try:
            if pos.winner is not None or pos.counts != counts or pos.mover() == me:
                continue
            held = True
            for answer in pos.moves():
                inner = pos.play(answer)
                try:
                    if pos.winner is not None or pos.counts != counts or pos.mover() != me:
                        held = pos.winner == me
                    else:
                        held = takes_safely(pos, me)
                finally:
                    pos.undo(inner)
                if not held:
                    break
            if held:
                return True
        finally:
            pos.undo(token)
    return False


def test_traps_counts_the_answers_that_lose_a_trophy_at_once():
    state, _ = stalled_view()
    pos = Position(state)
    me = pos.mover()
    search = ThreatSearch(10 ** 7)
    counts_by_move = {move: search.traps(pos, move) for move in pos.moves()[::4]}
    ranked = sorted(counts_by_move, key=counts_by_move.get)
    assert counts_by_move[ranked[0]] < counts_by_move[ranked[-1]]
    for move in (ranked[0], ranked[-1]):   # (brute force is slow)
        token = pos.play(move)
        counts = pos.counts[:]
        losing = []
        for answer in pos.moves():
            inner = pos.play(answer)   # (an answer taking a trophy itself is a trade: not lost)
            losing.append(pos.winner is None and pos.counts == counts and pos.mover() == me
                          and forces_a_trophy(pos, me))
            pos.undo(inner)
        pos.undo(token)
        assert counts_by_move[move] == sum(losing)


def without_traps(seed: int) -> crel.StrongRelativity:
    player = crel.StrongRelativity(seed)
    player.trap_margin = 0
    return player


def test_strong_sets_traps_while_it_lets_a_stalled_round_run_on():
    state, view = stalled_view()
    pos = Position(state)
    player = crel.StrongRelativity(10020)
    assert player.yields(pos, crel.plies_without_trophy(view)) == "safe"
    trapping, letting = player.choose(view), without_traps(10020).choose(view)
    assert trapping != letting

    def traps(action):
        move = tuple(sorted(crel.CELLS.index(c) for c in action.split("#")))
        return ThreatSearch(10 ** 7).traps(pos, move)

    # Both let the round run on (bob, Time, may take a trophy); the swap it plays leaves bob
    # more answers that lose him one at once.
    assert time_can_take_a_trophy(RELATIVITY.apply(state, "ann", trapping))
    assert traps(trapping) > traps(letting)
    # Guarding (not stalled, or not the likelier winner after bob's trophy) sets none.
    assert player.yields(pos, 0) is None


def test_traps_in_the_night_ignore_the_hidden_day_board():
    # The stalled Night where strong sets traps; its search may look past the Night's end into
    # a Day board it cannot see: the twins differ only there, and it decides the same.
    state, view = stalled_view()
    twins = [RELATIVITY.resample_hidden(state, "ann", seed=k) for k in range(3)]
    assert len({str(t["data"]["boards"][1]) for t in twins}) == 3
    assert all(RELATIVITY.view(t, "ann") == view for t in twins)
    choices = {crel.StrongRelativity(10020).choose(RELATIVITY.view(t, "ann")) for t in twins}
    assert len(choices) == 1 and choices != {without_traps(10020).choose(view)}   # (traps set)


# --------------------------------------------------------------------------- threats no reply stops


def loses_a_trophy_whatever_it_plays(state) -> bool:
    """Brute force on the engine: every action of the player to move lets the other take a
    trophy with the next."""
    mover = RELATIVITY.to_act(state)[0]
    other = next(p for p in state["players"] if p != mover)
    for action in RELATIVITY.legal_actions(state, mover):
        after = RELATIVITY.apply(state, mover, action)
        held = RELATIVITY.scores(after)[other]
        if not any(RELATIVITY.scores(RELATIVITY.apply(after, other, answer))[other] > held
                   for answer in RELATIVITY.legal_actions(after, other)):
            return False
    return True


def test_unstoppable_is_a_threat_that_no_reply_stops():
    # Random games' positions where the player to move has no molecule to complete and the
    # other has two values one swap away: some replies stop both, some cannot.
    seen = {True: 0, False: 0}
    for seed in range(40):
        state = RELATIVITY.new_game(["ann", "bob"], seed=seed)
        rng = engine.Rng(seed)
        for _ in range(120):
            if RELATIVITY.outcome(state) is not None or min(seen.values()) >= 3:
                break
            pos = Position(state)
            other = OTHER_ROLE[pos.role]
            if not pos.threats(pos.role) and len(pos.threats(other)) >= 2 \
                    and seen[pos.unstoppable()] < 3:
                assert pos.unstoppable() == loses_a_trophy_whatever_it_plays(state)
                seen[pos.unstoppable()] += 1
            who = RELATIVITY.to_act(state)[0]
            state = RELATIVITY.apply(state, who, str(rng.choice(RELATIVITY.legal_actions(state, who))))
    assert seen == {True: 3, False: 3}


# A real game of the benchmark (deal 1003, strong as ann against the baseline): by Day at 4-5
# with four Sun trophies won, ann (Time) to move. Her next trophy makes it five each (Night's
# Space wins a tie), bob's makes him six: whoever takes the next one wins.
RACE = ("c1#d4 c1#f3 c2#d1 a2#e3 e3#f3 d2#e4 b3#c3 c2#f2 a2#b2 b3#b4 e4#f4 b2#b3 a1#b4 c3#d2 "
        "d1#e1 d1#e2 a2#b3 b3#e3 a3#f2 c2#e2 b2#b3 a3#f1 d1#e1 b1#b3 c3#c4 c2#d3 c1#d2 c2#f1 "
        "b3#c2 b4#d2 a3#f3 c2#f1 c3#d4 a1#d4 e1#e4 a3#f1 a4#b4 b3#c2 a1#f2 a2#f1 a3#f4 a3#f2 "
        "c3#d2 a2#f1 d4#e4 c4#e4 a2#f1 d4#e1 c2#d3 c2#e3 d4#e1 b1#d2 e2#e3 d3#f3 c3#d3 a3#b1 "
        "b2#c3 c1#c2 d1#d2 b3#c3 c2#d2 d1#f4 a3#f3 a3#c3 c4#d3 d3#e4 e3#f4 a2#e2 a1#a4 c1#c4 "
        "b2#e2 a2#b2 d2#f3 a3#f4 a4#f1 d1#e4 d3#f2 c3#d4 c2#f1 d3#d4 b1#b3 b3#c4 a2#a3 b1#c4")


def preventions(state, action) -> int:
    """Brute force: how many answers to `action` leave its maker no swap that makes a threat
    (a molecule of its own one swap away, none of the opponent's)."""
    pos = Position(state)
    mine = pos.role
    theirs = OTHER_ROLE[mine]

    def can_threaten():
        for move in pos.moves():
            token = pos.play(move)
            made = pos.winner is None and bool(pos.threats(mine)) and not pos.threats(theirs)
            pos.undo(token)
            if made:
                return True
        return False

    token = pos.play(tuple(sorted(crel.CELLS.index(c) for c in action.split("#"))))
    count = 0
    for answer in pos.moves():
        inner = pos.play(answer)
        count += pos.winner is None and not can_threaten()
        pos.undo(inner)
    pos.undo(token)
    return count


def test_strong_in_a_race_makes_threats_the_opponent_cannot_prevent():
    state = RELATIVITY.new_game(["ann", "bob"], seed=1003)
    for action in RACE.split():
        state = RELATIVITY.apply(state, RELATIVITY.to_act(state)[0], action)
    pos = Position(state)
    assert RELATIVITY.to_act(state) == ("ann",) and pos.round == "day" and pos.role == "time"
    assert RELATIVITY.scores(state) == {"ann": 4, "bob": 5} and pos.won_this_round == 4
    assert crel.StrongRelativity.races(pos)
    assert not crel.StrongRelativity.races(Position(RELATIVITY.new_game(["ann", "bob"], seed=1)))
    view = RELATIVITY.view(state, "ann")
    guarding = crel.StrongRelativity(10030)
    guarding.races = lambda pos: False
    pressing, guarded = crel.StrongRelativity(10030).choose(view), guarding.choose(view)
    # Guarding, bob has answers after which ann can make no threat; pressing, he has none:
    # whatever he plays, her next swap leaves him a molecule to block.
    assert preventions(state, guarded) > 0
    assert preventions(state, pressing) == 0
