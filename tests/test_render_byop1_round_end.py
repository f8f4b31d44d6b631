"""BYOP1 drawings of issue 21: a DM board whose round is over shows the board's last position
with how the round ended for its player; during a round no drawing tells a finished player's
slide count; alone, no ranks or points."""

from __future__ import annotations

from bot.ui import adapter_for
from tests.test_render_byop1 import GAME, NAMES, parse, solution, with_class

ADAPTER = adapter_for("byop1")


def status_text(view) -> str:
    return with_class(parse(view), "status")[0].text


def test_a_finished_rounds_dm_board_says_how_it_ended_for_its_player():
    state = GAME.new_game(["alba", "bea", "cleo"], seed=8, options={"rounds": 2})
    count = len(solution(state, "alba"))
    state = GAME.apply(state, "alba", solution(state, "alba"))
    state = GAME.apply(state, "cleo", "D")
    state = GAME.apply(state, "alba", "done")
    during = status_text(GAME.view(state, "alba"))
    assert during == "Correct! Waiting for the round to end."
    # nobody's count during the round: not in the others' own boards, nor in the public picture
    for viewer in ("bea", None):
        root = parse(GAME.view(state, viewer))
        texts = " ".join(e.text or "" for e in root.iter())
        assert "Alba correct" in texts or "alba: done, correct" in texts.lower()
        assert str(count) not in texts
    state = GAME.apply(state, "bea", "done")   # a fumble: cleo is left alone, the round ends
    shown = {}
    for player in ("alba", "bea", "cleo"):
        text, view = ADAPTER.private_final(GAME, state, player, NAMES, [1, 0])
        result = GAME.view(state, None)["history"][0]["results"][player]
        tiles = {e.get("data-cell"): e.get("data-tile") for e in with_class(parse(view), "tile")}
        assert tiles == {f"{i // 5 + 1},{i % 5 + 1}": t for i, t in enumerate(result["tiles"])
                         if t != "."}
        shown[player] = status_text(view)
    assert shown == {"alba": "Correct · 1st · +2 points", "bea": "Fumble: not correct · 0 points",
                     "cleo": "Not finished in time · +1 point"}
    assert ADAPTER.private_final(GAME, state, "alba", NAMES, [2, 0]) is None   # not over yet


def test_alone_the_board_is_the_puzzle_without_ranks_or_points():
    state = GAME.new_game(["alba"], seed=8)
    root = parse(GAME.view(state, "alba"))
    assert with_class(root, "round")[0].text == "The puzzle"
    assert not with_class(root, "finished") and not with_class(root, "points")
    plan = solution(state, "alba")
    state = GAME.apply(state, "alba", plan)
    state = GAME.apply(state, "alba", "done")
    text, view = ADAPTER.private_final(GAME, state, "alba", NAMES, [1, 0])
    assert status_text(view) == f"Solved in {len(plan)} slides!"
    assert "**solved**" in text and "point" not in text
