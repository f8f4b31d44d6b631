"""A Game Played by Galaxies: every ruling as a scenario, with fixed `paths`."""

from __future__ import annotations

import json

import pytest

import engine
from engine import IllegalAction, InvalidAction, NotYourTurn

G = engine.get_game("galaxies")
A, B = "ann", "bob"
PATHS = ["FMSSMF", "MFSFMS"]


def new(paths=PATHS, seed=1):
    return G.new_game([A, B], seed=seed, options={"paths": paths})


def edited(state, **changes):
    """The state with parts of its data replaced (positions the rules could reach)."""
    raw = json.loads(G.to_json(state))
    for key, value in changes.items():
        raw["data"][key] = value
    return G.from_json(json.dumps(raw))


def legal(state, player):
    return [str(a) for a in G.legal_actions(state, player)]


def play(state, *moves):
    """Apply (player, text) pairs in order."""
    for player, text in moves:
        state = G.apply(state, player, text)
    return state


def stacks(state):
    return {(s["x"], s["y"]): s["count"] for s in G.view(state)["stacks"]}


def last_event(state, kind):
    return [e for e in state["log"] if e.get("event") == kind][-1]


# ----------------------------------------------------------------------------- set-up


def test_first_turn_starts_with_the_first_step_and_draw():
    state = new()
    view = G.view(state, A)
    assert view["holes"] == {A: {"x": 1, "y": 0}, B: {"x": 12, "y": 0}}
    assert view["hand"] == ["system"] * 4 + ["form"]            # A's first card: F
    assert G.view(state, B)["hand"] == ["system"] * 4 + ["merge"]  # B's first card: M
    assert [(c["x"], c["owner"]) for c in view["path"]] == \
        [(x, A) for x in range(2, 7)] + [(x, B) for x in range(7, 12)]
    assert set(G.to_act(state)) == {A, B} and view["turn"] == 1
    assert legal(state, A) == ["system", "form"]
    assert legal(state, B) == ["system", "merge"]


@pytest.mark.parametrize("paths", [["FMSSM", "MFSFMS"], ["FFFMSS", "MFSFMS"], "FMSSMF", ["FMSSMX", "MFSFMS"]])
def test_bad_paths_are_refused(paths):
    with pytest.raises(engine.GameError):
        new(paths)


def test_paths_fix_hidden_information_and_unknown_options_are_refused():
    assert "paths" in G.secret_options
    with pytest.raises(engine.GameError):
        G.new_game([A, B], seed=1, options={"colour": "red"})
    # Without paths, each player still draws two of each action card.
    state = G.new_game([A, B], seed=5)
    for p in (A, B):
        assert sorted(list(state["data"]["path"][p]) + [state["data"]["hands"][p][-1]]) == \
            sorted(["form", "form", "merge", "merge", "shift", "shift"])


# ----------------------------------------------------------------------------- the commit


def test_commits_are_secret_changeable_and_from_the_hand():
    state = new()
    with pytest.raises(IllegalAction, match="no Merge"):
        G.apply(state, A, "merge")
    with pytest.raises(IllegalAction):
        G.apply(state, A, "2,1")
    state = G.apply(state, A, "system")
    assert G.to_act(state) == (A, B) and G.awaited(state) == (B,)
    assert G.view(state, A)["own_commit"] == "system"
    assert G.view(state, B)["own_commit"] is None and G.view(state)["own_commit"] is None
    assert G.view(state)["committed"] == [A]
    state = G.apply(state, A, "form")              # a change of mind
    assert G.view(state, A)["own_commit"] == "form"
    assert not [e for e in state["log"] if "form" in e["text"].lower()]   # nothing public
    state = G.apply(state, B, "play merge")
    assert G.view(state)["reveal"]["cards"] == {A: "form", B: "merge"}


def test_parse_forms():
    state = new()
    assert str(G.parse_action(state, A, " SYSTEM ")) == "system"
    assert str(G.parse_action(state, A, "(3, 1)")) == "3,1"
    assert str(G.parse_action(state, A, "3,1 -> -4,-1")) == "3,1>-4,-1"
    assert str(G.parse_action(state, A, "3,1 to 4,1")) == "3,1>4,1"
    assert str(G.parse_action(state, A, "Pass")) == "pass"
    with pytest.raises(InvalidAction):
        G.parse_action(state, A, "jump")


# ----------------------------------------------------------------------------- resolution


def test_order_system_form_merge_shift_and_only_the_owner_acts():
    state = play(new(), (A, "form"), (B, "system"))
    reveal = G.view(state)["reveal"]
    assert reveal["order"] == [B, A] and not reveal["toss"]
    assert G.to_act(state) == (B,) and G.legal_actions(state, A) == []
    with pytest.raises(NotYourTurn):
        G.apply(state, A, "3,1")
    # System: empty cells next to B's hole at 12,0, and pass (always offered).
    assert legal(state, B) == ["11,-1", "11,0", "11,1", "12,-1", "12,1", "13,-1", "13,0",
                               "13,1", "pass"]
    with pytest.raises(IllegalAction, match="next to your black hole"):
        G.apply(state, B, "3,1")
    state = G.apply(state, B, "11,1")
    assert G.to_act(state) == (A,)
    # Form: any empty cell of columns -1..14, rows -2..2 (not B's system, not a hole).
    cells = legal(state, A)
    assert len(cells) == 16 * 5 - 3 + 1 and "11,1" not in cells and "1,0" not in cells
    assert "-1,-2" in cells and "14,2" in cells and "6,0" in cells   # path cells too
    state = G.apply(state, A, "6,0")
    assert stacks(state) == {(10, 1): 1, (6, 0): 1}   # B's system moved with its hole
    assert G.view(state, A)["hand"].count("system") == 3    # Form used a System from the hand
    assert G.view(state)["hand_sizes"] == {A: 4, B: 5}   # A spent Form and a System; both drew
    assert G.view(state)["turn"] == 2


def test_merge_and_shift_targets_and_effects():
    state = edited(play(new(["FMSSMF", "MSFFMS"]), (A, "system"), (B, "merge")),
                   stacks=[[2, 1, [A]], [5, 2, [B, B]]])
    assert G.to_act(state) == (A,)
    state = G.apply(state, A, "pass")    # A declines; B's Merge comes next
    assert legal(state, B) == ["2,1>5,2", "5,2>2,1", "pass"]
    with pytest.raises(IllegalAction, match="no system at 9,9"):
        G.apply(state, B, "2,1>9,9")
    state = G.apply(state, B, "5,2>2,1")
    assert stacks(state) == {(3, 1): 3}         # merged, then carried by A's hole (2,0 -> 3,0)
    # Turn 2: A drew M, B drew S. A's Merge has one stack only: spent.
    state = play(state, (A, "merge"), (B, "shift"))
    assert "can do nothing" in last_event(state, "skip")["text"]
    assert last_event(state, "skip")["player"] == A
    shifts = legal(state, B)
    assert "3,1>4,1" in shifts and "3,1>3,0" in shifts and "3,1>2,0" not in shifts and "3,1>5,1" not in shifts
    state = G.apply(state, B, "3,1>4,2")
    assert stacks(state) == {(4, 2): 3}


def test_shift_with_no_empty_neighbour_for_a_stack_and_with_no_stack():
    ring = [[x, y, [A]] for x in (4, 5, 6) for y in (0, 1, 2) if (x, y) != (5, 1)]
    state = edited(play(new(["SFMSMF", "SMFFMS"]), (A, "system"), (B, "shift")),
                   stacks=[[5, 1, [B]]] + ring)
    state = G.apply(state, A, "pass")
    assert not [a for a in legal(state, B) if a.startswith("5,1>")]   # walled in
    assert "4,2>3,3" in legal(state, B)


def test_cards_that_can_do_nothing_are_spent_without_asking():
    # Both Shifts with no system on the board: both skipped, the turn ends at once.
    state = play(new(["SFMSMF", "SMFFMS"]), (A, "shift"), (B, "shift"))
    skips = [e for e in state["log"] if e.get("event") == "skip"]
    assert {e["player"] for e in skips} == {A, B}
    assert G.view(state)["turn"] == 2 and set(G.to_act(state)) == {A, B}


def test_form_without_a_system_in_hand_is_spent():
    state = edited(new(), hands={A: ["form"], B: ["system"] * 4 + ["merge"]})
    state = play(state, (A, "form"), (B, "merge"))
    texts = [e["text"] for e in state["log"] if e.get("event") == "skip"]
    assert any("Form can do nothing (no System in hand)" in t for t in texts)


def test_system_next_to_a_full_hole_is_spent():
    full = [[x, y, [B]] for x in (0, 1, 2) for y in (-1, 0, 1) if (x, y) != (1, 0)]
    state = edited(play(new(), (A, "system")), stacks=full)
    state = G.apply(state, B, "merge")
    assert G.to_act(state) == (B,)            # A's System had no empty cell: skipped
    assert last_event(state, "skip")["player"] == A


def test_equal_cards_are_ordered_by_an_announced_seeded_toss():
    firsts = set()
    for seed in range(12):
        state = play(new(["FMSSMF", "FMSSMF"], seed=seed), (A, "system"), (B, "system"))
        reveal = G.view(state)["reveal"]
        assert reveal["toss"] and G.to_act(state) == (reveal["order"][0],)
        assert "coin toss" in last_event(state, "reveal")["text"]
        firsts.add(reveal["order"][0])
        # the same seed gives the same toss
        again = play(new(["FMSSMF", "FMSSMF"], seed=seed), (A, "system"), (B, "system"))
        assert G.view(again)["reveal"]["order"] == reveal["order"]
    assert firsts == {A, B}


# ----------------------------------------------------------------------------- the step


def test_systems_move_with_the_hole_and_the_stepped_onto_cell_is_discarded():
    state = play(new(), (A, "system"), (B, "system"), (A, "2,1"), (B, "11,-1"))
    # Turn 1 placed them (B's System resolved after A's toss-free order: system = system toss)
    assert stacks(state) == {(3, 1): 1, (10, -1): 1}
    state = play(state, (A, "system"), (B, "system"))
    first = G.to_act(state)[0]
    state = play(state, *(((A, "3,0"), (B, "pass")) if first == A else ((B, "pass"), (A, "3,0"))))
    # A put a system on 3,0, the cell its hole steps onto next: discarded at the step.
    assert stacks(state) == {(4, 1): 1, (9, -1): 1}
    step = last_event(state, "step")
    assert [list(c) for c in step["discarded"]] == [[3, 0]] and "Discarded" in step["text"]


def test_a_moving_system_merges_with_one_that_stays():
    # A places next to its hole at 2,1; B Forms at 3,1 (outside A's 3x3 block).
    state = play(new(["SFMSMF", "FMSSMF"]), (A, "system"), (B, "form"), (A, "2,1"), (B, "3,1"))
    assert stacks(state) == {(3, 1): 2}
    assert [list(c) for c in last_event(state, "step")["merged"]] == [[3, 1]]
    assert G.view(state)["stacks"][0]["owners"] == [B, A]


def at_turn_five_end(board):
    """A state where turn 5's last card resolves next (B's pass): the holes at 5,0 and 8,0."""
    state = play(new(["SFMSMF", "SMFFMS"]), (A, "system"), (B, "system"))
    return edited(state, holes={A: [5, 0], B: [8, 0]}, path={A: ["form"], B: ["merge"]},
                  turn=5, stacks=board, actor=B, queue=[],
                  hands={p: ["system", "merge", "shift", "form"] for p in (A, B)})


def test_on_the_last_step_systems_landing_together_are_destroyed():
    board = [[6, 1, [A]], [8, 1, [B, B]], [6, -1, [A]], [7, -1, [B]], [4, 1, [A]], [9, 2, [B]]]
    state = G.apply(at_turn_five_end(board), B, "pass")
    assert G.view(state)["holes"] == {A: {"x": 6, "y": 0}, B: {"x": 7, "y": 0}}
    # 6,1 and 8,1 both land on 7,1: destroyed. 6,-1 and 7,-1 swap places: both survive.
    assert stacks(state) == {(7, -1): 1, (6, -1): 1, (5, 1): 1, (9, 2): 1}
    step = last_event(state, "step")
    assert sorted(map(tuple, step["destroyed"])) == [(6, 1), (8, 1)]
    assert "Destroyed" in step["text"]
    assert G.view(state)["turn"] == 6 and G.view(state)["path"] == []


def test_six_turns_then_scoring_with_stacks_and_cells_near_both_holes():
    board = [[5, 1, [A, A, B]], [6, 0, [B]], [8, -1, [B]]]   # 6,0 discarded at A's step
    state = G.apply(at_turn_five_end(board), B, "pass")
    assert stacks(state) == {(6, 1): 3, (7, -1): 1}
    # 6,1 is next to both holes (6,0 and 7,0): it scores for both, each system counting.
    assert G.scores(state) == {A: 4, B: 4}
    state = play(state, (A, "shift"), (B, "merge"))
    assert G.to_act(state) == (B,)
    state = G.apply(state, B, "7,-1>6,1")
    assert G.to_act(state) == (A,)
    state = G.apply(state, A, "6,1>5,1")          # out of B's block
    assert G.scores(state) == {A: 4, B: 0}
    outcome = G.outcome(state)
    assert outcome.winners == (A,) and not outcome.draw
    assert G.to_act(state) == () and last_event(state, "end")
    with pytest.raises(IllegalAction):
        G.apply(state, A, "pass")


def test_a_tie_is_a_draw():
    state = G.apply(at_turn_five_end([[5, 1, [A]]]), B, "pass")
    assert stacks(state) == {(6, 1): 1}            # next to both holes
    state = play(state, (A, "merge"), (B, "merge"))   # one stack: both Merges are spent
    assert G.outcome(state).draw and G.outcome(state).winners == ()
    assert G.scores(state) == {A: 1, B: 1} and "tie" in G.outcome(state).reason


# ----------------------------------------------------------------------------- deadlines


def test_a_missed_commit_plays_no_card_and_a_missed_target_declines():
    state = G.apply(new(), A, "system")
    state = G.expire(state)
    reveal = G.view(state)["reveal"]
    assert reveal["cards"] == {A: "system"}
    assert G.view(state, B)["hand"].count("merge") == 1       # B's cards stay in hand
    assert "plays no card" in last_event(state, "timeout")["text"]
    assert G.to_act(state) == (A,)
    state = G.expire(state)
    assert "spent" in last_event(state, "timeout")["text"]
    assert G.view(state)["turn"] == 2 and stacks(state) == {}
    assert G.view(state, A)["hand_sizes"][A] == 4 + 1 - 1 + 1


def test_resign_gives_the_other_player_the_game():
    state = G.resign(new(), B)
    assert G.outcome(state).winners == (A,)


# ----------------------------------------------------------------------------- views


def test_views_hide_hands_commits_and_the_path_order():
    one = play(new(["FMSSMF", "MFSFMS"]), (A, "form"))
    two = play(new(["FSMSMF", "MSFFMS"]), (A, "system"))
    for viewer in (None, B):
        v1, v2 = G.view(one, viewer), G.view(two, viewer)
        assert v1 == v2
        assert v1["hand_sizes"] == {A: 5, B: 5}
        if viewer is None:
            assert v1["hand"] is None
    assert G.view(one, A)["hand"] != G.view(two, A)["hand"] or \
        G.view(one, A)["own_commit"] != G.view(two, A)["own_commit"]
    text = json.dumps(G.view(one, B))
    assert "shift" not in text.lower().replace("shifts", "")
