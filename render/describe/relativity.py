"""Relativity in words: the alt text and the full description of a view."""

from __future__ import annotations

from .common import value_word, outcome_words, last_change


def _rel_status(view, names) -> list[str]:
    roles = view["roles"]
    out = [f"Relativity, {view['round']} round. {names[roles['space']]} is Space, "
           f"{names[roles['time']]} is Time."]
    if view.get("outcome"):
        out.append(outcome_words(view, names))
    elif view.get("turn") is not None:
        role = "Space" if roles["space"] == view["turn"] else "Time"
        out.append(f"{names[view['turn']]} to move, as {role}: swap two coins.")
    return out


def _rel_rows(view) -> list[str]:
    coins = view["coins"]
    rows = []
    for r in "4321":
        cells = ", ".join(f"{c}{r}: {value_word(coins[f'{c}{r}'])}" for c in "abcdef")
        rows.append(f"Row {r}: {cells}.")
    return rows


def _rel_trophies(view, names) -> str:
    won = []
    for rnd in ("night", "day"):
        for value, owner in view["trophies"][rnd].items():
            if owner:
                won.append(f"{rnd} {value_word(value)} to {names.get(owner, owner)}")
    counts = ", ".join(f"{names[p]} {n}" for p, n in view["trophy_counts"].items())
    return ("Trophies won: " + "; ".join(won) + "." if won else "No trophies won yet.") \
        + f" Trophy counts: {counts}."


def relativity_alt(view, names) -> list[str]:
    parts = _rel_status(view, names)
    if view.get("last_swap"):
        a, b = view["last_swap"]
        parts.append(f"Last swap: {a} and {b}, by {view.get('last_swap_role', '').capitalize() or 'a player'}.")
    parts.append(_rel_trophies(view, names))
    parts.append("Coins, rows 4 to 1, columns a to f:")
    parts += _rel_rows(view)
    return parts


def relativity_full(view, names) -> list[str]:
    parts = _rel_status(view, names)
    parts.append("The board: 24 coins in 4 rows of 6; rows read from row 4 at the top down to "
                 "row 1, each from column a on the left to f; the board wraps around at its edges.")
    parts += _rel_rows(view)
    if view.get("last_swap"):
        a, b = view["last_swap"]
        parts.append(f"Last swap: {a} and {b}, by {view.get('last_swap_role', '').capitalize()}; "
                     "swapping that same pair straight back is not allowed.")
    for m in view.get("molecules") or []:
        parts.append(f"Molecule of {value_word(m['value'])}s on {', '.join(m['cells'])}, "
                     f"won by {names.get(m.get('player'), 'nobody')} in the {m.get('round', '')} round.")
    parts.append(_rel_trophies(view, names))
    for rnd, values in (view.get("set_aside") or {}).items():
        if values:
            parts.append(f"Set aside in the {rnd} round: {', '.join(value_word(v) for v in values)}.")
    parts.append(last_change(view, names, 3))
    return parts
