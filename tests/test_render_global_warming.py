"""What the Global Warming board image shows, and that it shows nothing the view hides."""

from __future__ import annotations

import json
import struct
import xml.etree.ElementTree as ET

import pytest

import engine
import render
from render import global_warming
from render.__main__ import main as cli

NS = "{http://www.w3.org/2000/svg}"
GAME = engine.get_game("global-warming")
PLAYERS = ["ann", "bob", "cid", "dee"]
COLOURS = dict(zip(PLAYERS, ("red", "black", "green", "blue")))


# ---------------------------------------------------------------------------- helpers


def island(tiles: dict[tuple[int, int], str]) -> list[dict]:
    """{(x, y): 'S4'} -> the view's tile list."""
    suits = {"S": "suns", "M": "moons", "C": "crowns", "A": "arms"}
    return [{"x": x, "y": y, "suit": suits[code[0]], "value": code[1]}
            for (x, y), code in sorted(tiles.items())]


def hand_view(**changes) -> dict:
    """A Global Warming view built from the view's documented keys, independent of the engine."""
    tiles = {(x, y): "SMCA"[(x + y) % 4] + "na2345"[(x * y) % 6]
             for x in range(1, 6) for y in range(1, 6) if (x, y) != (3, 3)}
    view = {
        "game": "global-warming", "title": "Global Warming", "players": list(PLAYERS),
        "viewer": None, "move_number": 0, "variant": "standard", "island": island(tiles),
        "pawns": {"ann": {"x": 1, "y": 1}, "bob": {"x": 5, "y": 5}, "cid": {"x": 2, "y": 4},
                  "dee": {"x": 4, "y": 2}},
        "colours": dict(COLOURS), "drowned": [],
        "coin_line": [{"side": "suit", "suit": "moons"}, {"side": "value", "value": "4"},
                      {"side": "value", "value": "n"}],
        "sunk": [], "bag_count": 21, "phase": "commit", "turn": 1, "committed": [],
        "timed_out": [], "reveal": None, "actor": None, "steps_left": None, "own_commit": None,
        "to_act": list(PLAYERS), "awaited": list(PLAYERS), "scores": {p: 0 for p in PLAYERS},
        "outcome": None, "left": [], "draw_offer": None, "log": [],
    }
    view.update(changes)
    return view


def parse(view: dict, names=None) -> ET.Element:
    return ET.fromstring(render.render_svg(view, names))


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root: ET.Element, class_name: str) -> list[str]:
    return ["".join(e.itertext()) for e in with_class(root, class_name)]


def by_player(root: ET.Element, class_name: str) -> dict[str, ET.Element]:
    return {e.get("data-player"): e for e in with_class(root, class_name)}


# ---------------------------------------------------------------------------- island


def test_tiles_suit_side_up_at_their_positions():
    view = hand_view()
    root = parse(view)
    tiles = {e.get("data-pos"): e for e in with_class(root, "tile")}
    assert {pos: (e.get("data-suit"), e.get("data-value")) for pos, e in tiles.items()} == {
        f"{t['x']},{t['y']}": (t["suit"], t["value"]) for t in view["island"]}
    for pos, e in tiles.items():
        suit, value = e.get("data-suit"), e.get("data-value")
        assert e.get("href").startswith(f"#tile-{suit}-{value}-")
    # x grows to the right, y grows upwards; the hole in the middle is water
    x = {p: float(e.get("x")) for p, e in tiles.items()}
    y = {p: float(e.get("y")) for p, e in tiles.items()}
    assert x["1,1"] < x["2,1"] < x["5,1"] and y["1,1"] > y["1,2"] > y["1,5"]
    assert "3,3" not in tiles


def test_coordinates_number_every_column_and_row_of_the_drawn_area():
    root = parse(hand_view())
    assert texts(root, "coord-x") == [str(n) for n in range(0, 7)]
    assert texts(root, "coord-y") == [str(n) for n in range(0, 7)]


def test_the_area_follows_tiles_moved_beyond_the_original_island():
    view = hand_view()
    view["island"] = [t for t in view["island"] if (t["x"], t["y"]) != (1, 1)]
    view["island"].append({"x": -1, "y": 7, "suit": "suns", "value": "5"})
    view["pawns"]["ann"] = {"x": -1, "y": 7}
    root = parse(view)
    assert texts(root, "coord-x") == [str(n) for n in range(-2, 7)]
    assert texts(root, "coord-y") == [str(n) for n in range(0, 9)]
    assert "-1,7" in {e.get("data-pos") for e in with_class(root, "tile")}
    assert by_player(root, "pawn")["ann"].get("data-pos") == "-1,7"


def test_pawns_in_their_colours_on_their_tiles():
    view = hand_view()
    root = parse(view)
    pawns = by_player(root, "pawn")
    assert {p: e.get("href") for p, e in pawns.items()} == {
        p: f"#pawn-{c}" for p, c in COLOURS.items()}
    tiles = {e.get("data-pos"): e for e in with_class(root, "tile")}
    for player, pawn in pawns.items():
        pos = view["pawns"][player]
        tile = tiles[f"{pos['x']},{pos['y']}"]
        left, top, size = (float(tile.get(k)) for k in ("x", "y", "width"))
        assert pawn.get("data-pos") == f"{pos['x']},{pos['y']}"
        pawn_size = float(pawn.get("width"))
        # Big, standing on the right half of its tile (the tile's suit and value on the left).
        cx, cy = float(pawn.get("x")) + pawn_size / 2, float(pawn.get("y")) + pawn_size / 2
        assert left + size / 2 < cx < left + size and top < cy < top + size
        assert pawn_size >= 0.7 * size
        # The tile shows its suit and value beside the pawn, and wears a ring of its colour.
        assert tile.get("href").endswith("-beside")
    rings = {e.get("stroke") for e in with_class(root, "pawn-ring")}
    assert rings == {"#d0282e", "#222222", "#18884a", "#1f5fc4"}
    bare = [e for e in with_class(root, "tile") if not e.get("href").endswith("-beside")]
    assert len(bare) == len(view["island"]) - 4


def test_drowned_players_are_off_the_island_and_marked():
    view = hand_view(drowned=["bob"], to_act=["ann", "cid", "dee"])
    view["pawns"]["bob"] = None
    root = parse(view, names={"bob": "Bobby"})
    assert "bob" not in by_player(root, "pawn")
    row = by_player(root, "player")["bob"]
    assert with_class(row, "drowned")
    assert any("drowned" in t for t in texts(row, "note"))


def test_the_viewers_own_pawn_is_emphasised_only_in_their_view():
    assert with_class(parse(hand_view()), "own-pawn") == []
    root = parse(hand_view(viewer="cid"), names={"cid": "Cid"})
    assert [e.get("data-player") for e in with_class(root, "own-pawn")] == ["cid"]
    assert by_player(root, "pawn")["cid"].get("href") == "#pawn-green-ffc533"  # a gold halo
    assert by_player(root, "pawn")["ann"].get("href") == "#pawn-red"
    assert texts(by_player(root, "player")["cid"], "name") == ["Cid (you)"]


# ---------------------------------------------------------------------------- secrets and reveal


def test_the_coin_line_shows_only_the_side_lying_up():
    root = parse(hand_view())
    coins = with_class(root, "line-coin")
    assert [(e.get("data-side"), e.get("data-shown"), e.get("href")) for e in coins] == [
        ("suit", "moons", "#coin-suit-moons"),
        ("value", "4", "#coin-value-4"),
        ("value", "n", "#coin-value-n"),
    ]
    assert texts(root, "bag") == ["Bag: 21 coins"]


def test_the_real_coin_line_never_reveals_a_down_side():
    state = GAME.new_game(PLAYERS, seed=11)
    for viewer in [None, *PLAYERS]:
        root = parse(GAME.view(state, viewer))
        for coin, (code, side) in zip(with_class(root, "line-coin"), state["data"]["line"]):
            suit = {"S": "suns", "M": "moons", "C": "crowns", "A": "arms"}[code[0]]
            shown = suit if side == "suit" else code[1]
            assert (coin.get("data-side"), coin.get("data-shown")) == (side, shown)
            down = f"#coin-value-{code[1]}" if side == "suit" else f"#coin-suit-{suit}"
            assert coin.get("href") != down


def test_commit_phase_shows_who_has_chosen_never_what():
    view = hand_view(committed=["ann", "dee"], awaited=["bob", "cid"])
    root = parse(view)
    notes = {p: texts(row, "note")[0] for p, row in by_player(root, "player").items()}
    assert notes == {"ann": "red · chosen ✓", "bob": "black · choosing",
                     "cid": "green · choosing", "dee": "blue · chosen ✓"}
    assert texts(root, "status") == ["Choose dice in secret: 2 of 4 chosen"]
    assert with_class(root, "die") == []


def test_a_player_sees_their_own_choice_in_their_private_view():
    view = hand_view(viewer="ann", committed=["ann"], own_commit="5")
    notes = {p: texts(row, "note")[0] for p, row in by_player(parse(view), "player").items()}
    assert notes["ann"] == "red · chose 5"
    spectator = hand_view(committed=["ann"])
    assert "chose 5" not in render.render_svg(spectator)


def test_the_reveal_shows_every_face_with_cancelled_ones_marked_beside():
    reveal = {"turn": 1, "faces": {"ann": "n", "bob": "3", "cid": "3", "dee": "5"},
              "cancelled": ["bob", "cid"], "order": ["ann", "dee"], "timed_out": []}
    view = hand_view(phase="act", reveal=reveal, actor="dee", steps_left=4, to_act=["dee"],
                     committed=[])
    root = parse(view, names={"dee": "Dee"})
    dice = by_player(root, "die")
    assert {p: (e.get("data-value"), e.get("href")) for p, e in dice.items()} == {
        p: (f, f"#die-{COLOURS[p]}-{f}") for p, f in reveal["faces"].items()}
    assert {e.get("data-player") for e in with_class(root, "cancelled")} == {"bob", "cid"}
    rows = by_player(root, "player")
    assert with_class(rows["bob"], "cancelled") and with_class(rows["cid"], "cancelled")
    assert not with_class(rows["ann"], "cancelled") and not with_class(rows["dee"], "cancelled")
    # A cancelled face keeps full contrast (nothing fades it); its mark frames it from outside.
    faded = [e for e in root.iter() if e.get("opacity") is not None]
    assert not any(die in list(e.iter()) for e in faded for die in dice.values())
    for mark in with_class(root, "cancelled"):
        die = dice[mark.get("data-player")]
        x, y, size = (float(die.get(k)) for k in ("x", "y", "width"))
        frame = next(e for e in mark.iter() if e.tag == f"{NS}rect")
        fx, fy, fw = (float(frame.get(k)) for k in ("x", "y", "width"))
        assert fx < x and fy < y and fx + fw > x + size
    notes = {p: texts(row, "note")[0] for p, row in rows.items()}
    assert notes == {"ann": "red · done", "bob": "black · cancelled",
                     "cid": "green · cancelled", "dee": "blue · acting"}
    assert texts(root, "status") == ["Dee moves pawns: 4 steps left"]


def test_a_null_actor_is_asked_to_move_a_tile():
    reveal = {"turn": 2, "faces": {"ann": "n", "bob": "4", "cid": "a", "dee": "4"},
              "cancelled": ["bob", "dee"], "order": ["ann", "cid"], "timed_out": []}
    view = hand_view(phase="act", reveal=reveal, actor="ann", to_act=["ann"], turn=2)
    root = parse(view, names={"ann": "Ann"})
    assert texts(root, "status") == ["Ann may move a tile"]


def test_sunk_tiles_in_order():
    sunk = [{"suit": "arms", "value": "4"}, {"suit": "suns", "value": "n"}]
    root = parse(hand_view(sunk=sunk, bag_count=1))
    assert [(e.get("data-suit"), e.get("data-value")) for e in with_class(root, "sunk")] == [
        ("arms", "4"), ("suns", "n")]
    assert texts(root, "bag") == ["Bag: 1 coin"]


def test_the_winner_is_announced():
    view = hand_view(outcome={"winners": ["cid"], "reason": "last survivor", "draw": False},
                     to_act=[], drowned=["ann", "bob", "dee"])
    root = parse(view, names={"cid": "Cid"})
    assert texts(root, "status") == ["Cid wins"]
    flags = {p: texts(row, "flag") for p, row in by_player(root, "player").items()}
    assert flags == {"ann": [], "bob": [], "cid": ["WINNER"], "dee": []}


@pytest.mark.parametrize("outcome, status", [
    ({"winners": [], "reason": "all drowned", "draw": False}, "Game over: nobody survived"),
    ({"winners": [], "reason": "draw agreed", "draw": True}, "Game drawn"),
])
def test_a_game_without_winner_says_why(outcome, status):
    root = parse(hand_view(outcome=outcome, to_act=[]))
    assert texts(root, "status") == [status]


# ---------------------------------------------------------------------------- the latest action


def cell_of(root: ET.Element, pos: str) -> tuple[float, float, float]:
    """(x, y, size) of the island cell at `pos`, from the tile drawn there."""
    tile = next(e for e in with_class(root, "tile") if e.get("data-pos") == pos)
    return float(tile.get("x")), float(tile.get("y")), float(tile.get("width"))


def test_a_moved_tile_is_marked_at_its_old_and_new_places():
    log = [{"n": 3, "text": "…", "event": "tile_move", "player": "ann", "move": "1,2>0,2",
            "src": [1, 2], "dst": [0, 2]}]
    view = hand_view(log=log)
    view["island"] = [dict(t, x=0) if (t["x"], t["y"]) == (1, 2) else t for t in view["island"]]
    root = parse(view)
    x, y, size = cell_of(root, "0,2")
    to, = with_class(root, "moved-to")
    assert x <= float(to.get("x")) < x + size and y <= float(to.get("y")) < y + size
    frm, = with_class(root, "moved-from")
    assert float(frm.get("x")) > x + size > float(frm.get("x")) - size   # one column right
    assert with_class(root, "trail") == [] and with_class(root, "last-sunk") == []


def test_the_latest_steps_of_one_actor_are_traced_together():
    steps = [{"n": 5, "text": "…", "event": "steps", "player": "ann", "move": "red up",
              "paths": {"ann": [[1, 1], [1, 2]]}},
             {"n": 6, "text": "…", "event": "steps", "player": "ann", "move": "red up, black down",
              "paths": {"ann": [[1, 2], [1, 3]], "bob": [[5, 5], [5, 4]]}}]
    earlier = [{"n": 4, "text": "…", "event": "steps", "player": "bob", "move": "green up",
                "paths": {"cid": [[2, 3], [2, 4]]}}]
    view = hand_view(log=earlier + steps, phase="act", actor="ann", steps_left=1,
                     reveal={"turn": 1, "faces": {"ann": "3", "bob": "2"}, "cancelled": [],
                             "order": ["ann", "bob"], "timed_out": []},
                     pawns={"ann": {"x": 1, "y": 3}, "bob": {"x": 5, "y": 4},
                            "cid": {"x": 2, "y": 4}, "dee": {"x": 4, "y": 2}})
    root = parse(view)
    trails = by_player(root, "trail")
    assert sorted(trails) == ["ann", "bob"]           # not cid: moved by an earlier actor
    ann_path = next(e for e in trails["ann"].iter() if e.get("d")).get("d")
    assert ann_path.count("L") == 2                   # 1,1 -> 1,2 -> 1,3 in one line


def test_the_sunk_tile_stays_marked_after_the_next_reveal_but_the_steps_do_not():
    log = [{"n": 7, "text": "…", "event": "steps", "player": "bob", "move": "black down",
            "paths": {"bob": [[5, 5], [5, 4]]}},
           {"n": 7, "text": "…", "event": "draw"},
           {"n": 7, "text": "…", "event": "sink", "tile": "A4", "pos": [4, 1]}]
    view = hand_view(log=log)
    view["island"] = [t for t in view["island"] if (t["x"], t["y"]) != (4, 1)]
    root = parse(view)
    assert [e.get("data-pos") for e in with_class(root, "last-sunk")] == ["4,1"]
    assert sorted(by_player(root, "trail")) == ["bob"]
    log.append({"n": 11, "text": "…", "event": "reveal", "faces": {}, "cancelled": [],
                "order": [], "timed_out": []})
    root = parse(view)
    assert [e.get("data-pos") for e in with_class(root, "last-sunk")] == ["4,1"]
    assert with_class(root, "trail") == []


def test_a_turn_ended_without_an_action_marks_only_the_sunk_tile():
    log = [{"n": 2, "text": "…", "event": "steps", "player": "bob", "move": "black down",
            "paths": {"bob": [[5, 5], [5, 4]]}},
           {"n": 3, "text": "…", "event": "sink", "tile": "A4", "pos": [4, 1]}]  # a time-out
    root = parse(hand_view(log=log))
    assert len(with_class(root, "last-sunk")) == 1 and with_class(root, "trail") == []


def test_log_entries_without_positions_mark_nothing():
    log = [{"n": 1, "text": "…", "event": "tile_move", "player": "ann", "move": "1,1>0,1"},
           {"n": 2, "text": "…", "event": "steps", "player": "bob", "move": "black down"},
           {"n": 2, "text": "…", "event": "sink", "tile": "A4"}]
    root = parse(hand_view(log=log))
    for name in ("moved-to", "moved-from", "trail", "last-sunk"):
        assert with_class(root, name) == []


def test_the_engines_log_gives_the_marks():
    island = ["Sn Sa S2 S3 S4", "S5 Mn Ma M2 M3", "M4 M5 . Cn Ca", "C2 C3 C4 C5 An",
              "Aa A2 A3 A4 A5"]
    state = GAME.new_game(PLAYERS[:2], seed=1, options={
        "island": island, "starts": ["Sn", "S4"], "coins": ["A5:suit", "A4:value", "A3:suit"]})
    for player, move in (("ann", "n"), ("bob", "2"), ("ann", "1,1>3,3")):
        state = GAME.apply(state, player, move)
    root = parse(GAME.view(state))
    assert len(with_class(root, "moved-to")) == len(with_class(root, "moved-from")) == 1
    state = GAME.apply(state, "bob", "black down, black down")   # the turn ends: A5 sinks
    root = parse(GAME.view(state))
    assert sorted(by_player(root, "trail")) == ["bob"] and with_class(root, "moved-to") == []
    assert [e.get("data-pos") for e in with_class(root, "last-sunk")] == ["5,1"]


# ---------------------------------------------------------------------------- phone size


def test_text_stays_readable_at_phone_width():
    # Shown about 400 px wide on a phone: 16 units here are 11 px there. Only the WINNER tab
    # and the coordinates (at least 13) are smaller.
    reveal = {"turn": 3, "faces": {"ann": "n", "bob": "3", "cid": "3", "dee": "5"},
              "cancelled": ["bob", "cid"], "order": ["ann", "dee"], "timed_out": []}
    for view in (hand_view(), hand_view(phase="act", reveal=reveal, actor="dee", steps_left=4),
                 hand_view(outcome={"winners": ["cid"], "reason": "", "draw": False})):
        root = parse(view)
        for e in root.iter(f"{NS}text"):
            size = float(e.get("font-size"))
            kind = e.get("class") or ""
            floor = 13 if kind == "flag" else 13 if kind.startswith("coord") else 16
            assert size >= floor, (kind, "".join(e.itertext()), size)


def bottom(e: ET.Element) -> float:
    if e.tag == f"{NS}text":
        return float(e.get("y")) + 0.25 * float(e.get("font-size"))
    return float(e.get("y", 0)) + float(e.get("height", 0))


def top(e: ET.Element) -> float:
    if e.tag == f"{NS}text":
        return float(e.get("y")) - 0.75 * float(e.get("font-size"))
    return float(e.get("y", 0))


def test_the_fourth_players_row_stays_clear_of_the_coin_line():
    reveal = {"turn": 1, "faces": {"ann": "n", "bob": "3", "cid": "3", "dee": "5"},
              "cancelled": ["bob", "cid"], "order": ["ann", "dee"], "timed_out": []}
    for view in (hand_view(viewer="dee"),
                 hand_view(phase="act", reveal=reveal, actor="dee", steps_left=4)):
        root = parse(view)
        row = by_player(root, "player")["dee"]
        coin_line, = with_class(root, "coin-line")
        drawn = [e for e in row.iter() if e.get("y") is not None]
        assert max(map(bottom, drawn)) + 6 <= min(
            top(e) for e in coin_line.iter() if e.get("y") is not None)


# ---------------------------------------------------------------------------- real games


@pytest.mark.parametrize("count", [2, 3, 4])
def test_random_games_draw_at_every_step_from_every_seat(count):
    players = PLAYERS[:count]
    state = GAME.new_game(players, seed=count)
    rng = engine.Rng(count)
    steps = 0
    while GAME.outcome(state) is None and steps < 400:
        player = (GAME.awaited(state) or GAME.to_act(state))[0]  # a chosen face may change
        state = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player)))
        steps += 1
        for viewer in (None, player):
            view = GAME.view(state, viewer)
            root = parse(view)
            assert len(with_class(root, "tile")) == len(view["island"])
            on_island = [p for p, pos in view["pawns"].items() if pos is not None]
            assert sorted(by_player(root, "pawn")) == sorted(on_island)
            json.dumps(view)
    assert GAME.outcome(state) is not None


def test_png_is_valid():
    png = render.render_png(GAME.view(GAME.new_game(PLAYERS, seed=1), "bob"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    scale = 800 / global_warming.WIDTH   # scaled up to 800 px wide
    assert struct.unpack(">II", png[16:24]) == (800, round(global_warming.HEIGHT * scale))


def test_cli_draws_global_warming_for_a_player_count(tmp_path):
    out = tmp_path / "gw.svg"
    assert cli(["global-warming", "--players", "3", "--seed", "2", "--svg", "--out", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    assert len(with_class(root, "pawn")) == 3
    assert cli(["global-warming", "--players", "5", "--out", str(tmp_path / "x.png")]) == 2
