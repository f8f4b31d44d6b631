"""BYOP1 drawings: a player's own board, and the public pictures (never another's board during a
round)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import engine
import render
from engine.byop1 import solve

GAME = engine.get_game("byop1")
NAMES = {"alba": "Alba", "bea": "Beatrice", "cleo": "Cleo"}
SVG = "{http://www.w3.org/2000/svg}"


def parse(view) -> ET.Element:
    return ET.fromstring(render.render_svg(view, NAMES))


def with_class(root, name):
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def solution(state, player):
    v = GAME.view(state, player)
    return solve(v["board"]["tiles"], v["targets"]["rows"], v["targets"]["columns"])


def mid_round():
    state = GAME.new_game(["alba", "bea", "cleo"], seed=8)
    state = GAME.apply(state, "alba", solution(state, "alba")[:120])
    return GAME.apply(state, "bea", "done")


def test_own_board_draws_the_viewers_tiles_targets_and_progress():
    state = mid_round()
    view = GAME.view(state, "alba")
    root = parse(view)
    tiles = {e.get("data-cell"): e.get("data-tile") for e in with_class(root, "tile")}
    expected = {f"{i // 5 + 1},{i % 5 + 1}": t for i, t in enumerate(view["board"]["tiles"])
                if t != "."}
    assert tiles == expected
    hole = view["board"]["tiles"].index(".")
    assert [e.get("data-cell") for e in with_class(root, "hole")] == \
        [f"{hole // 5 + 1},{hole % 5 + 1}"]
    assert [e.get("data-value") for e in with_class(root, "coin")] == list(view["targets"]["columns"])
    suits = {"S": "suns", "M": "moons", "C": "crowns", "A": "arms"}
    assert [e.get("data-suit") for e in with_class(root, "pawn")] == \
        [suits[x] for x in view["targets"]["rows"]]
    assert with_class(root, "sponge")
    # One tick per tile in its right place (row 5: a null), none elsewhere.
    ticks = [e for e in root.iter(f"{SVG}circle") if e.get("fill") == "#1f8a3b"]
    placed = sum(1 for i, ok in enumerate(view["board"]["in_place"])
                 if ok and view["board"]["tiles"][i] != ".")
    assert len(ticks) == placed > 0
    slides = with_class(root, "slides")[0].text
    assert "120 slides" in slides and "Alba" in slides
    assert "Beatrice fumble" in with_class(root, "finished")[0].text


def test_no_image_during_a_round_shows_another_players_board():
    state = mid_round()
    alba = GAME.view(state, "alba")["board"]["tiles"]
    for viewer in (None, "bea", "cleo"):
        root = parse(GAME.view(state, viewer))
        drawn = [e.get("data-tile") for e in with_class(root, "tile")]
        assert drawn != [t for t in alba if t != "."]
        if viewer is None:
            assert drawn == []


def test_round_result_shows_every_final_board_with_rank_and_points():
    state = mid_round()
    state = GAME.apply(state, "alba", solution(state, "alba"))
    state = GAME.apply(state, "alba", "done")     # cleo left solving: the round is over
    view = GAME.view(state, None)
    last = view["history"][-1]
    root = parse(view)
    boards = with_class(root, "mini-board")
    assert len(boards) == 3
    for board, player in zip(boards, ["alba", "cleo", "bea"]):
        tiles = [e.get("data-tile") for e in board.iter() if e.get("data-tile")]
        assert tiles == [t for t in last["results"][player]["tiles"] if t != "."]
    ranks = {e.get("data-player"): e.text for e in with_class(root, "rank")}
    assert ranks["alba"] == "1st Alba" and ranks["cleo"] == "2nd Cleo" and ranks["bea"] == "Beatrice"
    points = {e.get("data-player"): e.text for e in with_class(root, "round-points")}
    assert points == {"alba": "+2", "cleo": "+1", "bea": "+0"}


def test_text_stays_readable_at_phone_width():
    state = mid_round()
    players = [f"p{i}" for i in range(8)]
    big = GAME.new_game(players, seed=2, options={"rounds": 1})
    for p in players[:7]:
        big = GAME.apply(big, p, "done")
    for view in (GAME.view(state, "alba"), GAME.view(state, None), GAME.view(big, None)):
        root = ET.fromstring(render.render_svg(view))
        width = float(root.get("width"))
        for e in root.iter(f"{SVG}text"):
            assert float(e.get("font-size")) * 400 / width >= 11, (e.text, width)


def test_png_renders():
    png = render.render_png(GAME.view(mid_round(), "alba"), NAMES, width=400)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
