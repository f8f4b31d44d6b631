"""Words for the ear beside every drawing: alt text for a board image and a full description
of the position, both from the same view the image is drawn from (so from nothing the viewer
may not know).

    alt_text(view, names)   -> at most ALT_LIMIT characters: the game, who is asked what, the
                               last change, the scores (and as much of the position as fits)
    describe(view, names)   -> every piece in reading order, for a player who plays without
                               the image

No symbols a screen reader would spell out: values are words ("null", "ace", "2"), suits are
named, cells are the game's own coordinates.
"""

from __future__ import annotations

import re

ALT_LIMIT = 1024   # Discord's limit on an attachment's description

VALUE_WORDS = {"n": "null", "a": "ace", "2": "2", "3": "3", "4": "4", "5": "5"}
SUIT_WORDS = {"S": "suns", "M": "moons", "C": "crowns", "A": "arms"}
SUIT_ONE = {"suns": "sun", "moons": "moon", "crowns": "crown", "arms": "arm"}


def value_word(value: str) -> str:
    return VALUE_WORDS.get(str(value), str(value))


def tile_words(value: str, suit: str) -> str:
    """`2 of moons`; suit a word or a letter."""
    return f"{value_word(value)} of {SUIT_WORDS.get(suit, suit)}"


def plain_name(name: str) -> str:
    """A display name as words: no markdown or line breaks, not endless."""
    name = re.sub(r"[\s*_`~|<>@#]+", " ", str(name)).strip() or "someone"
    return name if len(name) <= 32 else name[:31] + "…"


def _names(view: dict, names: dict | None) -> dict:
    return {p: plain_name((names or {}).get(p, p)) for p in view["players"]}


def with_names(text: str, names: dict) -> str:
    """Engine texts name players by id: their names instead (plain words)."""
    if not names:
        return text
    pattern = re.compile("|".join(re.escape(p) for p in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: names[m.group(0)], text)


def name_list(players, names: dict) -> str:
    shown = [names.get(p, p) for p in players]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1] if shown else "nobody"


def sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else text + "."


def clip(parts: list[str], limit: int = ALT_LIMIT) -> str:
    """Sentences joined while they fit in `limit`; a first one too long is cut at a word."""
    out = ""
    for part in (p for p in parts if p):
        joined = f"{out} {part}" if out else part
        if len(joined) > limit:
            if not out:
                cut = part[:limit - 1]
                out = (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"
            break
        out = joined
    return out


# ---- what every game says alike -----------------------------------------------------------

def outcome_words(view: dict, names: dict) -> str:
    outcome = view["outcome"]
    reason = with_names(outcome.get("reason") or "", names)
    if outcome.get("draw"):
        head = "Game over: a draw"
    elif outcome["winners"]:
        head = f"Game over: {name_list(outcome['winners'], names)} won"
    else:
        head = "Game over: nobody won"
    return sentence(f"{head} ({reason})" if reason else head)


SPOKEN = [(re.compile(r"(\d+)@([a-d][1-4])/(\d)"), r"tile \1 on \2 turn \3"),   # Pack Solitaire
          (re.compile(r"(\d+)@off"), r"tile \1 back to the tray"),
          (re.compile(r"\s*·\s*"), "; "), (re.compile(r"\s*→\s*"), ", then "),
          (re.compile(r"[^\w\s,.;:'()!?&-]"), ""), (re.compile(r"\s{2,}"), " ")]


def spoken(text: str) -> str:
    """An engine's line for the ear: notation and signs said in words, emoji left out."""
    for pattern, words in SPOKEN:
        text = pattern.sub(words, text)
    return text.strip()


def last_change(view: dict, names: dict, count: int = 1) -> str:
    entries = [e for e in view.get("log") or [] if e.get("text")]
    if not entries:
        return ""
    texts = [sentence(with_names(spoken(e["text"]), names)) for e in entries[-count:]]
    return ("Last: " if count == 1 else "Latest: ") + " ".join(texts)


# ---- Relativity ---------------------------------------------------------------------------

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


# ---- Global Warming -----------------------------------------------------------------------

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


# ---- A Game Played by Galaxies ------------------------------------------------------------

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


# ---- BYOP1 --------------------------------------------------------------------------------

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


# ---- Pack Solitaire -----------------------------------------------------------------------

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


ALT = {"relativity": relativity_alt, "global-warming": global_warming_alt, "galaxies": galaxies_alt,
       "byop1": byop1_alt, "pack-solitaire": pack_solitaire_alt}
FULL = {"relativity": relativity_full, "global-warming": global_warming_full, "galaxies": galaxies_full,
        "byop1": byop1_full, "pack-solitaire": pack_solitaire_full}


def alt_text(view: dict, names: dict | None = None) -> str:
    """The image's alt text, at most ALT_LIMIT characters."""
    n = _names(view, names)
    return clip(ALT[view["game"]](view, n))


def describe(view: dict, names: dict | None = None) -> str:
    """The whole position in words, one statement a line."""
    n = _names(view, names)
    parts = FULL[view["game"]](view, n)
    return "\n".join(p for p in parts if p)
