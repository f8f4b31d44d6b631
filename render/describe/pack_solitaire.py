"""Pack Solitaire in words: the alt text and the full description of a view."""

from __future__ import annotations

from .common import value_word, sentence, outcome_words, last_change


SQUARE_WORDS = ("upper left", "upper right", "lower right", "lower left")
SQUARE_NAMES = dict(zip(("UL", "UR", "LR", "LL"), SQUARE_WORDS))


def _ps_squares(squares) -> str:
    return ", ".join(f"{w} {value_word(v) if v else 'empty'}" for w, v in zip(SQUARE_WORDS, squares))


def _ps_dealt(code: str) -> list[str]:
    return [code[0], code[1], "", code[2]]   # UL, UR, LR (empty when dealt), LL


def _ps_status(view, names) -> list[str]:
    out = ["Pack Solitaire."]
    if view.get("title_note"):
        out.append(sentence(view["title_note"]))
    if view["done"]:
        best = f" of a possible {view['best']}" if "best" in view else ""
        out.append(f"Final score {view['score']}{best}.")
    else:
        out.append(f"Score {view['score']}.")
        if view.get("outcome"):
            out.append(outcome_words(view, names))
    return out


def _ps_grid(view) -> list[str]:
    rows = []
    for r in "4321":
        cells = []
        for c in "abcd":
            cell = f"{c}{r}"
            placed = view["placed"].get(cell)
            if placed is None:
                cells.append(f"{cell} empty")
            else:
                cells.append(f"{cell} tile {placed['tile']} turn {placed['orientation']}: "
                             + _ps_squares(placed["squares"]))
        rows.append(f"Row {r}: " + "; ".join(cells) + ".")
    return rows


def _ps_tray(view) -> str:
    tray = view["tray"]
    if not tray:
        return "The tray is empty."
    return "Tray, each tile as dealt: " + "; ".join(
        f"tile {t}: {_ps_squares(_ps_dealt(view['tiles'][t - 1]))}" for t in tray) + "."


def pack_solitaire_alt(view, names) -> list[str]:
    parts = _ps_status(view, names)
    parts.append(last_change(view, names))
    parts.append(f"{len(view['placed'])} tiles placed, {len(view['tray'])} in the tray.")
    parts += layout_words(view)
    return parts


def layout_words(view: dict) -> list[str]:
    """A Pack Solitaire grid in short: each placed tile's four squares clockwise from its upper
    left (a reveal's text, and the alt text)."""
    if not view["placed"]:
        return ["No tile is placed."]
    out = ["Placed tiles, rows 4 to 1, squares clockwise from upper left:"]
    for r in "4321":
        cells = [f"{c}{r} " + ", ".join(value_word(v) if v else "empty"
                                        for v in view["placed"][f"{c}{r}"]["squares"])
                 for c in "abcd" if f"{c}{r}" in view["placed"]]
        if cells:
            out.append(f"Row {r}: " + "; ".join(cells) + ".")
    return out


def pack_solitaire_full(view, names) -> list[str]:
    parts = _ps_status(view, names)
    parts.append("The grid: rows 4 at the top to 1, columns a to d from the left. Each tile "
                 "holds four squares; turn is the number of quarter turns clockwise from how "
                 "it was dealt.")
    parts += _ps_grid(view)
    parts.append(_ps_tray(view))
    scoring = [p for p in view.get("pairs", []) if p["condition"] == 1]
    if scoring:
        parts.append("Scoring matches: " + "; ".join(
            f"{a} {SQUARE_NAMES[sa]} with {b} {SQUARE_NAMES[sb]}" for (a, b), (sa, sb) in
            ((p["cells"], p["squares"]) for p in scoring)) + ".")
    parts.append(last_change(view, names, 3))
    return parts
