"""Global Warming and Galaxies computers answer a draw offer by their own judgement, from their
seat's view only: they accept when they see themselves behind (or, in Galaxies, level with
only the last card to play), decline otherwise saying why, and answer the same whatever their seat cannot see (nor what they chose
in secret: the answer is public)."""

from __future__ import annotations

import computer
import engine
from engine import Rng, freeze, thaw
from tests.test_computer import hidden_variants, next_seat, random_state

GW = engine.get_game("global-warming")
GALAXIES = engine.get_game("galaxies")


def answers(game_name, view) -> dict[str, tuple[bool, str]]:
    return {level: computer.get_player(game_name, level, 7).answer_draw(view)
            for level in computer.LEVELS}


# --------------------------------------------------------------------------- Galaxies


def galaxies_last_turn(seed, stacks):
    """A Galaxies game played at random to the last turn's choice of cards, with the systems
    on the table replaced by `stacks` ([x, y, owners]). The holes stand on 6,0 (ann) and 7,0
    (bob): x 5 is beside ann's hole only, x 8 beside bob's."""
    state = GALAXIES.new_game(["ann", "bob"], seed=seed)
    chooser = Rng(seed)
    while not (state["data"]["turn"] == 6 and state["data"]["phase"] == "commit"):
        seat = next_seat(GALAXIES, state)
        state = GALAXIES.apply(state, seat, chooser.choice(GALAXIES.legal_actions(state, seat)))
    state = thaw(state)
    state["data"]["stacks"] = stacks
    assert state["data"]["holes"] == {"ann": [6, 0], "bob": [7, 0]}
    assert "system" not in state["data"]["hands"]["ann"] + state["data"]["hands"]["bob"]
    return freeze(state)


def test_galaxies_computer_ahead_declines_naming_the_count_and_behind_accepts():
    state = galaxies_last_turn(3, [[5, 1, ["ann"]], [5, -1, ["ann"]], [5, 0, ["ann", "ann"]],
                                   [8, 1, ["bob"]]])
    for level, answer in answers("galaxies", GALAXIES.view(state, "ann")).items():
        assert answer == (False, "No thanks: I count 4 systems near my hole to your 1."), level
    for level, answer in answers("galaxies", GALAXIES.view(state, "bob")).items():
        assert answer == (True, "I accept: as I count it you would end ahead."), level


def test_galaxies_computer_accepts_when_it_counts_the_end_level():
    state = galaxies_last_turn(3, [[5, 1, ["ann"]], [5, -1, ["ann"]], [8, 1, ["bob"]],
                                   [8, -1, ["bob"]]])
    for seat in state["players"]:
        for level, answer in answers("galaxies", GALAXIES.view(state, seat)).items():
            assert answer == (True, "I accept: as I count it we would end level."), (seat, level)


def test_galaxies_computer_level_with_cards_to_play_declines():
    # Nothing on the table and every card still to come: level, but nothing is settled.
    state = GALAXIES.new_game(["ann", "bob"], seed=3)
    for seat in state["players"]:
        view = GALAXIES.view(state, seat)
        assert view["turn"] == 1 and view["phase"] == "commit"
        for level, answer in answers("galaxies", view).items():
            assert answer == (False, "No thanks: as I count it we are level, with 6 cards each "
                                     "still to play."), (seat, level)


def test_galaxies_draw_answers_ignore_the_hidden_hand_path_and_card():
    for moves in (1, 4, 9):   # bob has chosen his card (hidden); later, hands differ too
        state = random_state(GALAXIES, ["ann", "bob"], seed=3, moves=moves)
        seat = next_seat(GALAXIES, state)
        twins = [GALAXIES.resample_hidden(state, seat, seed=k) for k in range(6)]
        assert len({GALAXIES.to_json(t) for t in twins}) > 1
        assert all(GALAXIES.view(t, seat) == GALAXIES.view(state, seat) for t in twins)
        for level in computer.LEVELS:
            player = computer.get_player("galaxies", level, 5)
            assert len({player.answer_draw(GALAXIES.view(t, seat)) for t in twins}) == 1


def test_galaxies_draw_answer_does_not_tell_the_card_it_chose():
    state = GALAXIES.new_game(["ann", "bob"], seed=4)
    hand = sorted(set(state["data"]["hands"]["ann"]))
    assert len(hand) == 2
    chosen = [GALAXIES.apply(state, "ann", card) for card in hand]
    views = [GALAXIES.view(s, "ann") for s in chosen]
    assert views[0]["own_commit"] != views[1]["own_commit"]
    for level in computer.LEVELS:
        player = computer.get_player("galaxies", level, 5)
        assert player.answer_draw(views[0]) == player.answer_draw(views[1])


# --------------------------------------------------------------------------- Global Warming


def gw_bob_stranded():
    """Two players: ann's pawn on the 5 of Arms, which no coin of the line can name; bob's on
    the 3 of Suns, which the leftmost coin (a 3) may sink this turn and the next (a Sun) may
    sink next turn, with the four tiles around it moved away: he cannot walk off."""
    state = GW.new_game(["ann", "bob"], seed=8, options={"starts": ["A5", "S3"],
                                                         "coins": ["S3:value", "S4:suit",
                                                                   "Ca:value"]})
    state = thaw(state)
    tiles = state["data"]["tiles"]
    assert tiles["S3"] == [2, 2]
    for code, far in zip(("An", "A3", "C4", "Cn"), ([6, 1], [6, 2], [6, 4], [6, 5])):
        assert abs(tiles[code][0] - 2) + abs(tiles[code][1] - 2) == 1
        tiles[code] = far
    return freeze(state)


def test_global_warming_computer_safe_declines_naming_why_and_stranded_accepts():
    state = gw_bob_stranded()
    for level, answer in answers("global-warming", GW.view(state, "ann")).items():
        assert answer == (False, "No thanks: my pawn stands on safe ground and yours may sink "
                                 "this turn."), level
    for level, answer in answers("global-warming", GW.view(state, "bob")).items():
        assert answer == (True, "I accept: my pawn stands on a tile that may sink this turn."), level


def test_global_warming_computer_plays_on_when_nobody_is_safer():
    # (an even game does not stall: accepting would let anyone end a game against it at once)
    state = GW.new_game(["ann", "bob", "cat"], seed=8, options={
        "starts": ["S5", "A5", "C5"], "coins": ["S3:value", "M4:suit", "Ca:value"]})
    for seat in state["players"]:
        for level, answer in answers("global-warming", GW.view(state, seat)).items():
            assert answer == (False, "No thanks: as I see it none of us is safer than the "
                                     "others, and the sea will decide soon enough."), (seat, level)


def test_global_warming_draw_answers_ignore_what_the_seat_cannot_see():
    states = hidden_variants()   # the coins' hidden sides, the bag, bob's and cat's faces
    for level in computer.LEVELS:
        player = computer.get_player("global-warming", level, 21)
        assert len({player.answer_draw(GW.view(s, "ann")) for s in states}) == 1


def test_global_warming_draw_answer_does_not_tell_the_face_it_chose():
    state = gw_bob_stranded()
    views = [GW.view(GW.apply(state, "ann", face), "ann") for face in ("n", "5")]
    assert views[0]["own_commit"] != views[1]["own_commit"]
    for level in computer.LEVELS:
        player = computer.get_player("global-warming", level, 5)
        assert player.answer_draw(views[0]) == player.answer_draw(views[1])

