"""The renderer: what the Relativity board image shows, and SVG -> PNG with the bundled font."""

from __future__ import annotations

import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import resvg

import engine
import render
from render import relativity, svg
from render.__main__ import main as cli

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"
LAYOUT = "n45a5n/3a2243/3n4a2n/a25345"  # the deal of tests/fixtures/relativity.ppn
GAME = engine.get_game("relativity")


# ---------------------------------------------------------------------------- helpers


def coins_of(layout: str) -> dict[str, str]:
    """PPN coin string (rows 4 down to 1) -> {cell: value}."""
    return {f"{column}{4 - i}": value
            for i, row in enumerate(layout.split("/")) for column, value in zip("abcdef", row)}


def hand_view(**changes) -> dict:
    """A Relativity view built from the view's documented keys, independent of the engine."""
    view = {
        "game": "relativity", "title": "Relativity", "players": ["ann", "bob"], "viewer": None,
        "move_number": 3, "round": "night", "roles": {"space": "ann", "time": "bob"},
        "turn": "bob", "to_act": ["bob"], "awaited": ["bob"],
        "coins": coins_of(LAYOUT), "layout": LAYOUT, "last_swap": ["d3", "e3"],
        "trophies": {"night": {v: None for v in "na2345"}, "day": {v: None for v in "na2345"}},
        "trophy_counts": {"ann": 0, "bob": 0}, "set_aside": {"night": [], "day": []},
        "molecules": [], "scores": {"ann": 0, "bob": 0}, "outcome": None, "left": [],
        "draw_offer": None, "log": [],
    }
    view.update(changes)
    return view


def engine_view(moves: list[str], layouts=(LAYOUT, LAYOUT)) -> dict:
    state = GAME.new_game(["ann", "bob"], seed=1, options={"layouts": list(layouts)})
    for move in moves:
        state = GAME.apply(state, GAME.to_act(state)[0], move)
    return GAME.view(state, None)


def parse(svg_text: str) -> ET.Element:
    return ET.fromstring(svg_text)


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root: ET.Element, class_name: str | None = None) -> list[str]:
    found = root.iter(f"{NS}text") if class_name is None else with_class(root, class_name)
    return ["".join(e.itertext()) for e in found]


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    return struct.unpack(">II", png[16:24])


def png_rgba(png: bytes) -> bytes:
    """The pixels of an 8-bit RGBA, non-interlaced PNG (what resvg writes), row after row."""
    width, height = png_size(png)
    assert png[24:29] == bytes([8, 6, 0, 0, 0])
    data, at = b"", 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        if kind == b"IDAT":
            data += png[at + 8:at + 8 + length]
        at += 12 + length
    raw, stride, rows, previous = zlib.decompress(data), width * 4, [], bytes(width * 4)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up, corner = previous[i], previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        previous = bytes(line)
        rows.append(previous)
    return b"".join(rows)


# ---------------------------------------------------------------------------- board content


def test_all_24_coins_are_drawn_value_side_up_at_their_cells():
    view = hand_view()
    root = parse(render.render_svg(view))
    coins = {e.get("data-cell"): e for e in with_class(root, "coin")}
    assert {cell: e.get("data-value") for cell, e in coins.items()} == view["coins"]
    assert len(coins) == 24
    for cell, coin in coins.items():
        assert coin.get("href") == f"#coin-value-{view['coins'][cell]}"
    # columns a-f run left to right, rows 1-4 bottom to top
    x = {c: float(e.get("x")) for c, e in coins.items()}
    y = {c: float(e.get("y")) for c, e in coins.items()}
    assert x["a1"] < x["b1"] < x["c1"] < x["d1"] < x["e1"] < x["f1"]
    assert y["a1"] > y["a2"] > y["a3"] > y["a4"]
    assert x["a1"] == x["a4"] and y["a1"] == y["f1"]


def test_each_value_has_its_own_coin_face():
    defs = parse(render.render_svg(hand_view())).find(f"{NS}defs")
    faces = {s.get("id"): s for s in defs.iter(f"{NS}symbol") if s.get("id").startswith("coin-")}
    assert set(faces) == {f"coin-value-{v}" for v in "na2345"}
    shown = {face_id: "".join(face.itertext()) for face_id, face in faces.items()}
    assert shown == {"coin-value-n": "", "coin-value-a": "A", "coin-value-2": "2",
                     "coin-value-3": "3", "coin-value-4": "4", "coin-value-5": "5"}
    assert faces["coin-value-n"].find(f"{NS}circle[@fill='none']") is not None  # null: a ring


def test_coordinates_are_drawn():
    root = parse(render.render_svg(hand_view()))
    assert sorted(texts(root, "coord")) == sorted(list("abcdef") + list("1234"))


def test_all_text_is_set_in_the_bundled_family():
    root = parse(render.render_svg(hand_view()))
    families = {e.get("font-family") for e in root.iter(f"{NS}text")}
    assert families == {svg.FONT_FAMILY}
    assert "@font-face" not in render.render_svg(hand_view())


def test_the_last_swap_is_highlighted_on_both_cells_and_joined():
    root = parse(render.render_svg(hand_view(last_swap=["b1", "d4"])))
    assert sorted(e.get("data-cell") for e in with_class(root, "last-swap")) == ["b1", "d4"]
    links = with_class(root, "swap-link")
    assert len(links) == 1 and links[0].tag == f"{NS}line"
    coins = {e.get("data-cell"): e for e in with_class(root, "coin")}
    centre = {c: (float(coins[c].get("x")) + float(coins[c].get("width")) / 2,
                  float(coins[c].get("y")) + float(coins[c].get("height")) / 2) for c in coins}
    ends = {(float(links[0].get("x1")), float(links[0].get("y1"))),
            (float(links[0].get("x2")), float(links[0].get("y2")))}
    assert ends == {centre["b1"], centre["d4"]}


def test_a_swap_across_the_wrapped_edge_points_off_the_board_instead_of_across_it():
    root = parse(render.render_svg(hand_view(last_swap=["a1", "f1"])))
    assert sorted(e.get("data-cell") for e in with_class(root, "last-swap")) == ["a1", "f1"]
    links = with_class(root, "swap-link")
    assert [e.tag for e in links] == [f"{NS}polygon", f"{NS}polygon"]
    tips = [min(float(p.split(",")[0]) for p in e.get("points").split()) for e in links]
    coins = {e.get("data-cell"): float(e.get("x")) for e in with_class(root, "coin")}
    assert min(tips) < coins["a1"]  # the a1 pointer reaches past a1's left edge


def test_a_time_swap_between_the_edges_is_a_plain_bar_not_a_wrap():
    # Time swaps by value anywhere, so a1#f1 by Time went straight across, not over the edge.
    view = hand_view(last_swap=["a1", "f1"])
    view["last_swap_role"] = "time"
    links = with_class(parse(render.render_svg(view)), "swap-link")
    assert [e.tag for e in links] == [f"{NS}line"]


def test_no_swap_no_highlight():
    root = parse(render.render_svg(hand_view(last_swap=None)))
    assert with_class(root, "last-swap") == [] and with_class(root, "swap-link") == []


@pytest.mark.parametrize("round_name, title, trophy_suit", [
    ("night", "Night round", "moons"), ("day", "Day round", "suns"),
])
def test_round_and_its_trophy_tiles(round_name, title, trophy_suit):
    view = hand_view(round=round_name)
    view["trophies"][round_name]["3"] = "ann"
    root = parse(render.render_svg(view))
    assert texts(root, "round") == [title]
    assert root.get("data-round") == round_name
    open_tiles = with_class(root, "trophy-open")
    assert sorted(e.get("data-value") for e in open_tiles) == sorted("na245")
    assert all(e.get("href").startswith(f"#tile-{trophy_suit}-") for e in open_tiles)
    assert [e.get("data-value") for e in with_class(root, "trophy-won")] == ["3"]


def test_roles_names_turn_and_trophies_held():
    view = hand_view(round="day", roles={"space": "bob", "time": "ann"}, turn="ann",
                     to_act=["ann"])
    view["trophies"]["night"].update({"2": "bob", "5": "ann", "n": "ann"})
    view["trophies"]["day"].update({"4": "ann"})
    view["trophy_counts"] = {"ann": 3, "bob": 1}
    root = parse(render.render_svg(view, names={"ann": "Annie", "bob": "Robert"}))
    panels = {e.get("data-player"): e for e in with_class(root, "player")}
    assert {p: e.get("data-role") for p, e in panels.items()} == {"ann": "time", "bob": "space"}
    assert texts(panels["ann"], "name") == ["Annie"] and texts(panels["bob"], "name") == ["Robert"]
    assert texts(panels["ann"], "role") == ["Time"] and texts(panels["bob"], "role") == ["Space"]
    assert texts(panels["ann"], "count") == ["3 trophies"] and texts(panels["bob"], "count") == ["1 trophy"]
    held = {p: sorted((t.get("data-suit"), t.get("data-value")) for t in with_class(e, "trophy"))
            for p, e in panels.items()}
    assert held == {"ann": [("moons", "5"), ("moons", "n"), ("suns", "4")],
                    "bob": [("moons", "2")]}
    assert texts(root, "status") == ["Annie to move · Time"]
    assert texts(panels["ann"], "flag") == ["TO MOVE"] and texts(panels["bob"], "flag") == []


def test_the_result_replaces_the_turn():
    view = hand_view(turn=None, to_act=[], outcome={
        "winners": ["ann"], "reason": "ann holds 6 trophies", "draw": False})
    root = parse(render.render_svg(view, names={"ann": "Annie"}))
    assert texts(root, "status") == ["Annie wins"]
    assert texts(root, "reason") == ["Annie holds 6 trophies"]
    panels = {e.get("data-player"): e for e in with_class(root, "player")}
    assert texts(panels["ann"], "flag") == ["WINNER"]


@pytest.mark.parametrize("outcome, status", [
    ({"winners": [], "reason": "draw agreed", "draw": True}, "Game drawn"),
    ({"winners": ["ann", "bob"], "reason": "shared", "draw": False}, "Annie & bob wins"),
])
def test_the_headline_says_a_draw_or_every_winner(outcome, status):
    view = hand_view(turn=None, to_act=[], outcome=outcome)
    assert texts(parse(render.render_svg(view, names={"ann": "Annie"})), "status") == [status]


def test_names_are_escaped_and_shortened():
    name = 'Evil <b>"&amp;</b> with a very long display name'
    root = parse(render.render_svg(hand_view(), names={"ann": name}))  # parses: escaped
    shown = texts(root, "name")[0]
    assert shown.startswith("Evil <b>") and shown.endswith("…") and len(shown) <= 16


def test_molecules_claimed_by_the_last_swap_are_marked():
    view = hand_view(last_swap=["d3", "e3"])
    view["coins"].update({"c1": "4", "d1": "4", "d2": "4", "d3": "4"})
    view["molecules"] = [
        {"value": "4", "cells": ["c1", "d1", "d2", "d3"], "player": "bob", "round": "night"},
        {"value": "2", "cells": ["a1", "b1", "c1", "d1"], "player": "ann", "round": "night"},
    ]
    marked = with_class(parse(render.render_svg(view)), "molecule")
    assert [(e.get("data-value"), e.get("data-cells")) for e in marked] == [("4", "c1 d1 d2 d3")]


def test_real_views_from_the_engine(tmp_path):
    # Replay the fixture's opening swaps; 2T claims the 2s.
    view = engine_view(["d3#e3", "d3#d1", "c2#c3", "d2#b1"])
    root = parse(render.render_svg(view))
    coins = {e.get("data-cell"): e.get("data-value") for e in with_class(root, "coin")}
    assert coins == view["coins"]
    assert sorted(e.get("data-cell") for e in with_class(root, "last-swap")) == ["b1", "d2"]
    assert [e.get("data-value") for e in with_class(root, "trophy-won")] == ["2"]
    png = render.render_png(view)
    assert png_size(png) == (800, round(relativity.HEIGHT * 800 / relativity.WIDTH))


def test_a_whole_random_game_draws_at_every_step():
    state = GAME.new_game(["ann", "bob"], seed=5)
    rng = engine.Rng(9)
    while GAME.outcome(state) is None:
        player = GAME.to_act(state)[0]
        state = GAME.apply(state, player, rng.choice(GAME.legal_actions(state, player)))
        root = parse(render.render_svg(GAME.view(state, None)))
        assert len(with_class(root, "coin")) == 24
    assert texts(root, "status")[0].endswith("wins")


# ---------------------------------------------------------------------------- PNG and font


def test_png_is_valid_at_the_default_size_and_scales():
    view = hand_view()
    # Scaled up to 800 px wide by default: crisp on a phone's 2x screen.
    width, height = png_size(render.render_png(view))
    assert width == 800 and abs(height - 800 * relativity.HEIGHT / relativity.WIDTH) <= 1
    width, height = png_size(render.render_png(view, width=400))
    assert width == 400 and abs(height - 400 * relativity.HEIGHT / relativity.WIDTH) <= 1


def test_the_same_view_gives_the_same_bytes():
    view = engine_view(["d3#e3"])
    assert render.render_svg(view) == render.render_svg(view)
    assert render.render_png(view) == render.render_png(view)


def _rasterise(text: str, fonts: resvg.usvg.Options, scale: float | None = None) -> bytes:
    """`text` drawn like svg.svg_to_png does (or at `scale`), but with the fonts given."""
    width, height = svg.svg_size(text)
    scale = scale or svg.png_scale(width)
    fonts.font_family = svg.FONT_FAMILY
    return resvg.render(resvg.usvg.Tree.from_str(text, fonts), (scale, 0, 0, 0, scale, 0),
                        bg_size=(round(width * scale), round(height * scale)))


def test_only_the_bundled_font_is_loaded():
    bundled = sorted(str(p) for p in (ROOT / "render" / "fonts").glob("*.ttf"))
    assert sorted(str(p) for p in svg.FONT_FILES) == bundled
    assert all(Path(f).is_file() for f in bundled)
    assert resvg.usvg.Options.default().list_fonts() == []   # not the machine's fonts
    assert svg.font_database().list_fonts() == [svg.FONT_FAMILY]   # the bundle's one family


def test_each_thread_draws_with_fonts_of_its_own():
    """The binding's options may not cross threads (it panics if they do): a renderer thread
    loads the fonts for itself, once, and draws the same bytes."""
    document = svg.document(200, 60, svg.text(10, 30, "Night 5", 30, anchor="start"))
    here = svg.svg_to_png(document)
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(svg.svg_to_png, [document] * 4)) == [here] * 4
        assert len(set(pool.map(lambda _: id(svg.font_database()), range(8)))) <= 2
    assert svg.font_database() is svg.font_database()


def test_an_svg_resvg_cannot_read_is_a_value_error():
    # (the binding panics; pyo3's panic is a BaseException that no error handler would catch)
    for bad in ("", "<svg", "<html/>"):
        with pytest.raises(ValueError, match="resvg cannot read"):
            svg.svg_to_png(bad)


def test_text_is_drawn_with_the_bundled_font_and_nothing_else():
    with_text = svg.document(200, 60, svg.text(10, 30, "Night 5", 30, bold=True, anchor="start"))
    blank = svg.document(200, 60, "")
    drawn = svg.svg_to_png(with_text)
    assert drawn != svg.svg_to_png(blank)  # the text really is drawn
    no_fonts = _rasterise(with_text, resvg.usvg.Options.default())
    assert no_fonts == svg.svg_to_png(blank)  # ... and only our fonts can draw it
    # Regular and bold faces are both in the bundle.
    regular = svg.document(200, 60, svg.text(10, 30, "Night 5", 30, anchor="start"))
    assert svg.svg_to_png(regular) not in (drawn, svg.svg_to_png(blank))


def test_system_fonts_make_no_difference(monkeypatch):
    """The same bytes whether resvg may see the machine's fonts or not: only ours are used."""
    text_svg = render.render_svg(hand_view(), names={"ann": "Ann 🙂"})   # the emoji: <text> kept
    ours = svg.svg_to_png(text_svg)
    fonts = resvg.usvg.Options.default()
    fonts.load_system_fonts()
    for path in svg.FONT_FILES:
        fonts.load_font_file(str(path))
    fonts.font_family = svg.FONT_FAMILY
    monkeypatch.setattr(svg, "font_database", lambda: fonts)
    assert svg.svg_to_png(text_svg) == ours


def _pixels(text: str) -> bytes:
    return png_rgba(_rasterise(text, svg.font_database(), scale=1))


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("anchor", ["start", "middle", "end"])
def test_text_drawn_as_outlines_looks_like_resvgs_own_text(bold, anchor):
    x = {"start": 5, "middle": 200, "end": 395}[anchor]
    line = svg.text(x, 20, "Alice to move · Space, AVAT 1234…", 15, bold=bold, anchor=anchor)
    document = svg.document(400, 40, line)
    outlined = svg.outline_text(document)
    assert "<text" not in outlined and "<path" in outlined
    ours, theirs = _pixels(outlined), _pixels(document)
    inked = sum(1 for value in theirs[3::4] if value)
    differing = sum(1 for a, b in zip(ours[3::4], theirs[3::4]) if abs(a - b) > 96)
    assert inked > 1000 and differing < inked * 0.05   # the same glyphs in the same places


def test_only_our_text_elements_become_outlines():
    plain = svg.text(10, 20, "Bob", 12, class_="name", data_seat="1")
    assert svg.outline_text(plain).startswith('<path transform="translate(10 24.38) ')
    assert 'class="name" data-seat="1"' in svg.outline_text(plain)
    kept = [svg.text(10, 20, "漢字", 12),                          # not in the bundled font
            svg.text(10, 20, "Bob", 12, letter_spacing="2"),      # spacing: resvg sets it
            '<text x="1" y="2" font-family="Serif" font-size="9">x</text>']
    for element in kept:
        assert svg.outline_text(element) == element


def test_png_bytes_even_from_a_binding_that_returns_a_list(monkeypatch):
    real = resvg.render
    monkeypatch.setattr(svg.resvg, "render", lambda *a, **kw: list(real(*a, **kw)))
    png = svg.svg_to_png(svg.document(10, 10, ""))
    assert isinstance(png, bytes) and png_size(png) == (800, 800)


def test_a_view_of_an_undrawn_game_is_refused():
    with pytest.raises(KeyError, match="no drawing"):
        render.render_svg({"game": "no-such-game"})


# ---------------------------------------------------------------------------- command line


def test_cli_writes_the_opening_position_as_png(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert cli(["relativity", "--seed", "7", "--out", str(out)]) == 0
    png = out.read_bytes()
    assert png_size(png) == (800, round(relativity.HEIGHT * 800 / relativity.WIDTH))
    state = GAME.new_game(["Player 1", "Player 2"], seed=7)
    assert png == render.render_png(GAME.view(state, None))


def test_cli_writes_svg_and_checks_the_player_count(tmp_path, capsys):
    out = tmp_path / "board.svg"
    assert cli(["relativity", "--seed", "7", "--svg", "--out", str(out)]) == 0
    root = parse(out.read_text())
    assert len(with_class(root, "coin")) == 24
    assert cli(["relativity", "--players", "3", "--out", str(tmp_path / "x.png")]) == 2
    assert "exactly 2 players" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_cli_help_lists_the_drawn_games():
    result = subprocess.run([sys.executable, "-m", "render", "--help"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for name in engine.game_names():
        assert (name in result.stdout) == (name in render.DRAWINGS)
    for option in ("--seed", "--out", "--svg", "--players"):
        assert option in result.stdout
