"""BYOP1 in words: the alt text and the full description of a view."""

from __future__ import annotations

from .common import SUIT_WORDS, value_word, tile_words, name_list, outcome_words, last_change


def _tile_code(code: str) -> str:
    return "the hole" if code == "." else tile_words(code[0], code[1])


def _by_targets(targets: dict) -> str:
    rows = ", ".join(f"row {i + 1} {SUIT_WORDS[s]}" for i, s in enumerate(targets["rows"]))
    cols = ", ".join(f"column {i + 1} {value_word(v)}" for i, v in enumerate(targets["columns"]))
    return f"Goal: {rows}, row 5 the four nulls and the hole; values by column: {cols}."


def _by_grid(tiles: list[str], marks=None) -> list[str]:
    rows = []
    for r in range(5):
        cells = []
        for c in range(5):
            i = r * 5 + c
            word = _tile_code(tiles[i])
            if marks and marks[i]:
                word += " (in place)"
            cells.append(word)
        rows.append(f"Row {r + 1}: " + ", ".join(cells) + ".")
    return rows


def _by_round(view) -> str:
    if view.get("playoff"):
        return f"playoff {view['playoff']}"
    return f"round {view['round']} of {view['rounds']}"


def _by_own(view, names) -> list[str]:
    board = view.get("board")
    if not board:
        return []
    out = [f"Your board (only you see it): {board['slides']} slides, "
           + ("correct." if board.get("correct") else "not correct yet.") if board["status"] == "solving"
           else f"Your board: {board['status']}, {board['slides']} slides."]
    out += _by_grid(board["tiles"], board.get("in_place"))
    moving = board.get("moving") or {}
    words = {"U": "up", "D": "down", "L": "left", "R": "right"}
    can = [f"{d} slides {_tile_code(t)} {words[d]}" for d, t in moving.items() if t]
    if can and board["status"] == "solving":
        out.append("You can slide: " + "; ".join(can) + ".")
    return out


def _by_finished(view, names) -> str:
    done = view.get("finished") or []
    if not done:
        return ""
    return "Finished this round: " + ", ".join(
        f"{names[f['player']]} {'correct' if f['status'] == 'correct' else 'fumble'}" for f in done) + "."


def _by_results(view, names, boards: bool) -> list[str]:
    history = view.get("history") or []
    if not history:
        return []
    last = history[-1]
    results = last["results"]
    order = sorted(results, key=lambda p: (results[p]["rank"] is None, results[p]["rank"] or 0,
                                           results[p]["call"] or 0))
    title = f"Playoff {last['playoff']}" if last["playoff"] else f"Round {last['round']}"
    out = [f"{title} result:"]
    for p in order:
        r = results[p]
        how = {"correct": f"correct in {r['slides']} slides", "fumble": "fumble"}.get(r["status"], "not finished")
        rank = f"place {r['rank']}, " if r["rank"] is not None and len(view["players"]) > 1 else ""
        out.append(f"{names[p]}: {rank}{how}, {r['points']} point{'s' if r['points'] != 1 else ''}.")
        if boards:
            out.append(f"{names[p]}'s final board:")
            out += _by_grid(r["tiles"])
    return out


def byop1_alt(view, names) -> list[str]:
    parts = [f"BYOP1, {_by_round(view)}."]
    parts.append(outcome_words(view, names) if view.get("outcome") else
                 f"Solving: {name_list(view['solving'], names)}." if view.get("solving") else "")
    parts.append(last_change(view, names))
    parts.append(_by_finished(view, names))
    if len(view["players"]) > 1:
        parts.append("Totals: " + ", ".join(f"{names[p]} {view['totals'].get(p, 0)}" for p in view["players"]) + ".")
    parts += _by_results(view, names, boards=False)
    parts.append(_by_targets(view["targets"]))
    parts += _by_own(view, names)
    return parts


def byop1_full(view, names) -> list[str]:
    parts = [f"BYOP1, {_by_round(view)}."]
    parts.append(outcome_words(view, names) if view.get("outcome") else
                 f"Solving: {name_list(view['solving'], names)}." if view.get("solving") else "")
    parts.append("Slide tiles into the hole: U, D, L or R is the way the tile moves. Rows 1 to 5 "
                 "from the top, columns 1 to 5 from the left.")
    parts.append(_by_targets(view["targets"]))
    parts += _by_own(view, names)
    parts.append(_by_finished(view, names))
    if len(view["players"]) > 1:
        parts.append("Totals: " + ", ".join(f"{names[p]} {view['totals'].get(p, 0)}" for p in view["players"]) + ".")
    parts += _by_results(view, names, boards=True)
    parts.append(last_change(view, names, 3))
    return parts
