"""What the Galaxies board image shows, and that it shows nothing the view hides."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import engine
import render

G = engine.get_game("galaxies")
A, B = "ann", "bob"
NAMES = {A: "Ann", B: "Bob"}


def parse(view) -> ET.Element:
    return ET.fromstring(render.render_svg(view, NAMES))


def with_class(root, name):
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def words(element) -> str:
    return "".join(element.itertext())


def game(paths=("FMSSMF", "MFSFMS"), seed=1):
    return G.new_game([A, B], seed=seed, options={"paths": list(paths)})


def played(state, *moves):
    for player, move in moves:
        state = G.apply(state, player, move)
    return state


def test_grid_holes_path_stacks_and_scores():
    state = played(game(["SFMSMF", "FMSSMF"]), (A, "system"), (B, "form"), (A, "2,1"),
                   (B, "3,1"))
    view = G.view(state, None)
    root = parse(view)
    holes = {e.get("data-player"): e.get("data-pos") for e in with_class(root, "hole")}
    assert holes == {A: "2,0", B: "11,0"}
    path = sorted(e.get("data-pos") for e in with_class(root, "path-card"))
    assert path == sorted(f"{x},0" for x in list(range(3, 7)) + list(range(7, 11)))
    stacks = {e.get("data-pos"): e.get("data-count") for e in with_class(root, "stack")}
    assert stacks == {"3,1": "2"}
    assert "2" in words(with_class(root, "stack")[0])
    badges = {e.get("data-player"): words(e) for e in with_class(root, "score-badge")}
    assert badges == {A: str(view["scores"][A]), B: str(view["scores"][B])} == {A: "2", B: "0"}
    assert {e.get("data-player") for e in with_class(root, "scoring-area")} == {A, B}
    assert "Turn 2 of 6" in words(with_class(root, "turn")[0])


def test_coordinates_on_every_edge_and_the_grid_grows_with_the_systems():
    state = played(game(["SFMSMF", "FMSSMF"]), (A, "system"), (B, "form"), (A, "2,1"),
                   (B, "14,2"))
    raw = json.loads(G.to_json(state))
    raw["data"]["stacks"] = [[20, -5, [A]]]
    view = G.view(G.from_json(json.dumps(raw)))
    root = parse(view)
    xs = [words(e) for e in with_class(root, "coord-x")]
    ys = [words(e) for e in with_class(root, "coord-y")]
    assert xs.count("-1") == 2 and xs.count("21") == 2      # top and bottom, one margin
    assert ys.count("2") == 2 and ys.count("-6") == 2        # left and right


def test_reveal_shows_both_cards_in_resolution_order():
    state = played(game(), (A, "form"), (B, "system"))
    root = parse(G.view(state))
    cards = with_class(root, "played")
    assert [c.get("data-kind") for c in cards] == ["system", "form"]
    assert "1. Bob" in words(cards[0]) and "2. Ann" in words(cards[1])
    assert "Bob: target of System" in words(with_class(root, "status")[0])


def test_private_copy_adds_the_hand_and_the_public_one_hides_it():
    state = played(game(), (A, "form"))
    mine = parse(G.view(state, A))
    assert [c.get("data-kind") for c in with_class(mine, "hand-card")] == \
        ["system"] * 4 + ["form"]
    assert "chosen" in words(with_class(mine, "hand-card")[4])
    assert not with_class(parse(G.view(state, None)), "hand-card")
    theirs = parse(G.view(state, B))
    assert [c.get("data-kind") for c in with_class(theirs, "hand-card")] == \
        ["system"] * 4 + ["merge"]                          # B's own hand only
    assert not [c for c in with_class(theirs, "hand-card") if "chosen" in words(c)]


def test_hidden_information_never_reaches_the_public_or_opponent_image():
    """Two games that differ only in what is hidden (the path order, A's hand and A's
    uncommitted or committed card) draw the same image for B and for spectators."""
    one = played(game(["FMSSMF", "MFSFMS"], seed=4), (A, "form"))
    two = played(game(["SMFFMS", "MFSFMS"], seed=4), (A, "shift"))
    assert G.view(one, A)["hand"] != G.view(two, A)["hand"]
    for viewer in (None, B):
        assert render.render_svg(G.view(one, viewer), NAMES) == \
            render.render_svg(G.view(two, viewer), NAMES)


def test_text_is_readable_at_phone_width_and_the_png_renders():
    state = played(game(), (A, "form"), (B, "system"))
    for viewer in (None, A):
        root = parse(G.view(state, viewer))
        width = float(root.get("width"))
        sizes = [float(e.get("font-size")) for e in root.iter() if e.get("font-size")]
        assert min(sizes) * 400 / width >= 11
    png = render.render_png(G.view(state, A), NAMES, width=400)
    assert png.startswith(b"\x89PNG")


def test_finished_game_headline():
    state = G.resign(game(), B)
    root = parse(G.view(state))
    assert "Ann wins" in words(with_class(root, "status")[0])
