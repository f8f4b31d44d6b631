"""A Game Played by Galaxies in words: the alt text and the full description of a view."""

from __future__ import annotations

from .common import outcome_words, last_change


def _gx_status(view, names) -> list[str]:
    out = [f"A Game Played by Galaxies, turn {view['turn']} of {view['turns']}."]
    if view.get("outcome"):
        out.append(outcome_words(view, names))
    elif view["phase"] == "commit":
        choosing = view["to_act"]
        chosen = [p for p in view["committed"] if p in choosing]
        out.append(f"Both choose a card in secret: {len(chosen)} of {len(choosing)} chosen.")
    elif view.get("actor"):
        actor = view["actor"]
        out.append(f"{names[actor]} chooses the target of their {view['reveal']['cards'][actor]} card.")
    return out


def _gx_players(view, names) -> list[str]:
    out = []
    for p in view["players"]:
        hole = view["holes"][p]
        n = view["hand_sizes"][p]
        line = (f"{names[p]} ({view['colours'][p]}): black hole at {hole['x']},{hole['y']}, "
                f"{view['scores'][p]} point{'s' if view['scores'][p] != 1 else ''} now, "
                f"{n} card{'s' if n != 1 else ''} in hand")
        if view["phase"] == "commit" and p in view["committed"] and not view.get("outcome"):
            line += ", has chosen"
        out.append(line + ".")
    return out


def hand_words(hand: list[str]) -> str:
    """`4 system, 1 form`: each kind of card once, with how many (in hand order)."""
    kinds = list(dict.fromkeys(hand))
    return ", ".join(f"{hand.count(k)} {k}" for k in kinds) or "no cards"


def _gx_hand(view) -> str:
    if view.get("hand") is None:
        return ""
    hand = hand_words(view["hand"])
    chosen = view.get("own_commit")
    return f"Your hand (only you see it): {hand}." + (f" You chose {chosen}." if chosen else "")


def _gx_reveal(view, names) -> str:
    reveal = view.get("reveal")
    if not reveal:
        return ""
    played = "; ".join(f"{i + 1}. {names[p]} {reveal['cards'][p]}" for i, p in enumerate(reveal["order"]))
    return f"Cards played on turn {reveal['turn']}, in resolution order: {played}" \
        + (" (order by coin toss)." if reveal.get("toss") else ".")


def _gx_stacks(view, names) -> str:
    stacks = sorted(view["stacks"], key=lambda s: (-s["y"], s["x"]))
    if not stacks:
        return "No systems on the grid."
    said = []
    for s in stacks:
        n = s["count"]
        said.append(f"{s['x']},{s['y']}: {n} system{'s' if n != 1 else ''}")
    return "Systems, from the top row down, left to right: " + "; ".join(said) + "."


def _gx_path(view, names) -> str:
    path = view["path"]
    if not path:
        return "No face-down cards left on the path."
    by_owner = {}
    for c in path:
        by_owner.setdefault(c["owner"], []).append(f"{c['x']},{c['y']}")
    return "Face-down path cards: " + "; ".join(
        f"{names[p]}'s on {', '.join(cells)}" for p, cells in by_owner.items()) + "."


def galaxies_alt(view, names) -> list[str]:
    parts = _gx_status(view, names)
    parts.append(last_change(view, names))
    parts += _gx_players(view, names)
    parts += [_gx_hand(view), _gx_reveal(view, names), _gx_stacks(view, names), _gx_path(view, names)]
    return parts


def galaxies_full(view, names) -> list[str]:
    parts = _gx_status(view, names)
    parts.append("Cells are written column comma row; row 0 is the collision path, rows above "
                 "it are positive. A hole scores the systems in the 8 cells around it.")
    parts += _gx_players(view, names)
    parts += [_gx_hand(view), _gx_reveal(view, names), _gx_stacks(view, names), _gx_path(view, names)]
    parts.append(last_change(view, names, 3))
    return parts
