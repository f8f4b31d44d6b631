"""Global Warming in words: the alt text and the full description of a view."""

from __future__ import annotations

from .common import value_word, tile_words, outcome_words, last_change


def _gw_pawns(view) -> dict:
    return {(p["x"], p["y"]): player for player, p in (view.get("pawns") or {}).items() if p}


def _gw_players(view, names, full: bool) -> list[str]:
    out = []
    reveal = view.get("reveal") or {}
    for p in view["players"]:
        bits = [f"{names[p]}: {view['colours'][p]} pawn"]
        pos = (view.get("pawns") or {}).get(p)
        if p in view["drowned"]:
            bits.append("drowned")
        elif p in view.get("left", ()):
            bits.append("left the game")
        elif pos:
            bits.append(f"on {pos['x']},{pos['y']}")
        if not view.get("outcome"):
            if view["phase"] == "commit":
                if p == view.get("viewer") and view.get("own_commit"):
                    bits.append(f"you chose {value_word(view['own_commit'])} (only you know)")
                elif p in view["committed"]:
                    bits.append("has chosen")
                elif p in view["to_act"]:
                    bits.append("choosing")
            elif p in reveal.get("faces", {}):
                bits.append(f"showed {value_word(reveal['faces'][p])}"
                            + (", cancelled" if p in reveal.get("cancelled", ()) else ""))
        out.append(", ".join(bits) + ".")
    return out


def _gw_status(view, names) -> list[str]:
    out = [f"Global Warming, turn {view['turn']}."]
    if view.get("outcome"):
        out.append(outcome_words(view, names))
    elif view["phase"] == "commit":
        choosing = view["to_act"]
        chosen = [p for p in view["committed"] if p in choosing]
        out.append(f"Everyone chooses a die face in secret: {len(chosen)} of {len(choosing)} chosen.")
    elif view.get("actor"):
        actor = view["actor"]
        if view["reveal"]["faces"].get(actor) == "n":
            out.append(f"{names[actor]} may move one tile without a pawn, or pass.")
        else:
            steps = view.get("steps_left")
            out.append(f"{names[actor]} moves pawns: {steps} step{'s' if steps != 1 else ''} left.")
    return out


def _gw_coins(view) -> str:
    line = view["coin_line"]
    if not line:
        return f"The coin line is empty; {view['bag_count']} coins in the bag."
    said = []
    for coin in line:
        if coin["side"] == "suit":
            said.append(f"{coin['suit']} up, its number hidden")
        else:
            said.append(f"{value_word(coin['value'])} up, its suit hidden")
    return ("Coin line, left to right, the first sinks next: " + "; ".join(said)
            + f". {view['bag_count']} coins in the bag.")


def _gw_island(view, names) -> list[str]:
    tiles = {(t["x"], t["y"]): t for t in view["island"]}
    pawns = _gw_pawns(view)
    if not tiles:
        return ["No tiles are left afloat."]
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    rows = []
    for y in range(max(ys), min(ys) - 1, -1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            t = tiles.get((x, y))
            if t is None:
                cells.append(f"{x},{y}: water")
                continue
            word = f"{x},{y}: {tile_words(t['value'], t['suit'])}"
            if (x, y) in pawns:
                p = pawns[(x, y)]
                word += f" with {names[p]}'s {view['colours'][p]} pawn"
            cells.append(word)
        rows.append(f"Row {y}: " + "; ".join(cells) + ".")
    return rows


def global_warming_alt(view, names) -> list[str]:
    parts = _gw_status(view, names)
    parts.append(last_change(view, names))
    parts += _gw_players(view, names, False)
    parts.append(_gw_coins(view))
    parts.append(f"{len(view['island'])} tiles afloat, {len(view['sunk'])} sunk.")
    return parts


def global_warming_full(view, names) -> list[str]:
    parts = _gw_status(view, names)
    parts += _gw_players(view, names, True)
    parts.append("The island, positions written column comma row (row numbers grow upwards), "
                 "read from the top row down, each row left to right:")
    parts += _gw_island(view, names)
    sunk = view["sunk"]
    parts.append("Sunk, in order: " + ", ".join(tile_words(t["value"], t["suit"]) for t in sunk) + "."
                 if sunk else "No tile has sunk yet.")
    parts.append(_gw_coins(view))
    parts.append(last_change(view, names, 3))
    return parts
