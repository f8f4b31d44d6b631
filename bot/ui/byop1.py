"""BYOP1's controls: on each player's private board four slide buttons, each labelled with the
tile that would move (impossible ones greyed), and Done; the thread's status post says who has
finished and how. Everything a player is offered comes from their own view.

Alone, the game is a puzzle: its result says the slides and time, beside the player's best in
the server and the slides of the engine's own solver on the same deal (worked out off the event
loop when the game starts, kept in the game's extras and told only in the result)."""

from __future__ import annotations

import functools

from engine.byop1 import SLIDE_WORDS, in_place, is_correct, slide, solve

from .. import texts
from . import Adapter, register, stamp

ARROWS = {"U": "↑", "D": "↓", "L": "←", "R": "→"}
BUTTON_ORDER = "LUDR"
SUIT_MARKS = {"S": "☀️", "M": "🌙", "C": "👑", "A": "⚔️"}
SUIT_WORDS = {"S": "Suns", "M": "Moons", "C": "Crowns", "A": "Arms"}
VALUE_MARKS = {"n": "null", "a": "A", "2": "2", "3": "3", "4": "4", "5": "5"}
FUMBLE_WARNING = ("⚠️ Your board is not correct yet: calling Done now is a **fumble** (no points "
                  "this round, and you are out of it). Call Done anyway?")
SOLO_FUMBLE_WARNING = ("⚠️ Your board is not correct yet: calling Done now is a **fumble**, and this "
                       "board stays unsolved. Call Done anyway?")


def tile_label(code: str) -> str:
    """`2M` -> `2🌙`; `nS` -> `null☀️`."""
    return f"{VALUE_MARKS[code[0]]}{SUIT_MARKS[code[1]]}"


def tile_words(code: str) -> str:
    return f"{VALUE_MARKS[code[0]]} of {SUIT_WORDS[code[1]]}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def solo(view) -> bool:
    return len(view["players"]) == 1


def round_name(view, entry=None) -> str:
    """The round of the view (or of `entry`, a finished round of its history) as players call
    it; alone with a single board, just the puzzle."""
    entry = entry or view
    if entry["playoff"]:
        return f"Playoff {entry['playoff']}"
    if solo(view) and view["rounds"] == 1:
        return "The puzzle"
    return f"Round {entry['round']} of {view['rounds']}"


def solver_slides(tiles: tuple[str, ...], rows: str, columns: str) -> dict:
    """The slides of the engine's own solver on a deal (the game's background work: it runs in
    a worker process, so it is a plain function of plain values)."""
    return {"solver_slides": len(solve(list(tiles), rows, columns))}


def clock(seconds: float) -> str:
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


class Byop1Adapter(Adapter):
    option_hints = ["rounds=3", "rounds=1", "ranking=race", "ranking=slides", "autodone=on"]
    deadline_scope = "round"

    def private_round(self, game, state):
        view = game.view(state, None)
        return [view["round"], view["playoff"]]

    def private_position(self, game, state, player):
        own = game.view(state, player)
        board = own["board"]
        return [own["round"], board["slides"] if board else None]

    def private_text(self, game, state, player, names):
        own = game.view(state, player)
        board = own["board"]
        what = round_name(own)
        if board is None:   # the game is over (or this player sits out a playoff)
            return "The game is over: see the result in the thread." if game.outcome(state) \
                else f"{what}: you are not playing this one; see the thread."
        slides = f"{board['slides']} slide{'' if board['slides'] == 1 else 's'}"
        if board["status"] == "correct":
            correct = [f["player"] for f in own["finished"] if f["status"] == "correct"]
            call = f" (the {ordinal(correct.index(player) + 1)} correct call)" \
                if own["ranking"] == "race" and not solo(own) else ""
            return (f"{what}: you called Done: **correct**{call}, {slides}. Your points come when "
                    "the round ends.")
        if board["status"] == "fumble":
            return (f"{what}: you called Done on an incorrect board after {slides}: a "
                    "**fumble**, so 0 points this round. The results come when the round ends.")
        hint = " Your board is correct: press **Done**!" if board["correct"] else ""
        return (f"{what} · {slides}. Each button slides the tile it names into the hole "
                f"(or type `/move UULDR`); press **Done** when your board is correct.{hint}")

    def private_final(self, game, state, player, names, round_):
        """How the round `round_` went for `player`, with their board's last position."""
        view = game.view(state, player)
        # (round numbers count playoffs on: one entry at most)
        last = next((h for h in view["history"] if [h["round"], h["playoff"]] == list(round_)),
                    None)
        result = last["results"].get(player) if last else None
        if result is None:
            return None
        rows, columns = last["targets"]["rows"], last["targets"]["columns"]
        tiles = list(result["tiles"])
        board = {"tiles": tiles, "slides": result["slides"], "status": result["status"],
                 "in_place": in_place(tiles, rows, columns),
                 "correct": is_correct(tiles, rows, columns),
                 "moving": {m: None for m in "UDLR"},
                 "result": {"rank": result["rank"], "points": result["points"]}}
        called = sorted((p for p, r in last["results"].items() if r["call"] is not None),
                        key=lambda p: last["results"][p]["call"])
        shown = {**view, "round": last["round"], "playoff": last["playoff"],
                 "targets": dict(last["targets"]), "round_players": list(last["results"]),
                 "solving": [], "board": board,
                 "finished": [{"player": p, "status": last["results"][p]["status"],
                               "call": last["results"][p]["call"]} for p in called]}
        what, status = round_name(view, last), result["status"]
        slides = f"{result['slides']} slide{'' if result['slides'] == 1 else 's'}"
        if game.outcome(state) is not None:
            after = "See the result in the thread."
        elif player in view["round_players"]:
            after = f"{round_name(view)} has begun, on a new board."
        else:
            after = "See the thread."
        if solo(view):
            if status == "correct":
                how = f"**solved** in {slides}!"
                if game.outcome(state) is not None:
                    after = "Your time, and how it compares, are in the thread."
            elif status == "fumble":
                how = "you called Done on an incorrect board: a **fumble**, so it stays unsolved."
            else:
                how = f"**not finished** in time ({slides})."
            return f"{what}: {how} {after}", shown
        points = f"**+{result['points']} point{'' if result['points'] == 1 else 's'}**"
        if status == "correct":
            by = " by fewest slides" if view["ranking"] == "slides" else ""
            how = f"your board was **correct** in {slides}: {ordinal(result['rank'])}{by}, {points}."
        elif status == "fumble":
            how = "you called Done on an incorrect board, a **fumble**: 0 points."
        else:
            how = f"your board was **not finished** when the round ended ({slides}): {points}."
        return f"{what} is over: {how} {after}", shown

    def player_controls(self, game_id, game, state, player, names):
        if player not in game.to_act(state):
            return [], ""
        board = game.view(state, player)["board"]
        st = stamp(game, state, player)
        specs = []
        for move in BUTTON_ORDER:
            code = board["moving"][move]
            label = f"{ARROWS[move]} {tile_label(code)}" if code else ARROWS[move]
            specs.append(["pb", game_id, st, move, label, "secondary", code is None])
        specs.append(["pb", game_id, st, "done", "Done", "success"])
        return specs, ""

    def confirm(self, game, state, player, action):
        if action.strip().lower().rstrip("!") != "done":
            return None
        own = game.view(state, player)
        board = own["board"]
        if board is None or board["correct"]:
            return None
        return SOLO_FUMBLE_WARNING if solo(own) else FUMBLE_WARNING

    def suggestions(self, game, state, player, typed):
        """The slides possible now, and `done`; after a string of slides typed so far, that
        string and each slide that can follow it. From the player's own board only."""
        if player not in game.to_act(state):
            return []
        tiles = game.view(state, player)["board"]["tiles"]
        word = typed.strip().lower()
        done = ("done", "done (call Done: your board is checked)")
        if len(word) >= 2 and "done".startswith(word):   # a lone `d` may be a slide
            return [done]
        letters = "".join(ch for ch in typed.upper() if not ch.isspace())
        out: list[tuple[str, str]] = []
        if any(ch not in "UDLR" for ch in letters):
            return []
        for move in letters:
            tiles = slide(tiles, move)
            if tiles is None:
                return []
        if letters:
            out.append((letters, f"{letters} ({len(letters)} slide{'' if len(letters) == 1 else 's'})"))
        for move in "UDLR":
            after = slide(tiles, move)
            if after is not None:
                code = tiles[after.index(".")]
                out.append((letters + move, f"{letters + move}: the {tile_words(code)} "
                                            f"slides {SLIDE_WORDS[move]}"))
        if word in ("", "d"):
            out.append(done)
        return [(v, label[:100]) for v, label in out if len(v) <= 100][:25]

    def describe_action(self, game, state, player, action):
        if action == "done":
            return "**Done**"
        return f"`{action}`"

    def board_status(self, game, state, names):
        """Who has finished and how (in a race, in which order); their slide counts come with
        the round's result (under `slides` they are the number to beat)."""
        view = game.view(state, None)
        what = round_name(view)
        if solo(view):
            return [f"**{what}**: the clock runs until you call **Done** on your private board."]
        how = "race: the order of correct calls" if view["ranking"] == "race" else \
            "fewest slides among correct boards"
        lines = [f"**{what}** ({how})."]
        place = 0
        for f in view["finished"]:
            name = f"**{texts.display(names.get(f['player'], f['player']))}**"
            if f["status"] == "correct":
                place += 1
                lines.append(f"{ordinal(place)}: {name}, correct" if view["ranking"] == "race"
                             else f"{name}: correct")
            elif f["status"] == "fumble":
                lines.append(f"{name}: fumble (0 points)")
        if view["finished"]:
            lines.append("(Slide counts come with the round's result.)")
        if view["solving"]:
            lines.append(f"Still solving: {texts.name_list(view['solving'], names)}.")
        return lines

    def standings(self, game, state, names):
        totals = game.scores(state)
        if len(totals) == 1:
            return ""
        order = sorted(totals, key=lambda p: -totals[p])
        return "Points: " + ", ".join(f"{texts.display(names.get(p, p))} {totals[p]}"
                                      for p in order) + "."

    # ---- alone: the result beside the player's best and the solver's ----------------------

    def background(self, game, state, extras):
        view = game.view(state, None)
        if not solo(view) or view["rounds"] != 1 or "solver_slides" in extras:
            return None   # (with several rounds, the later deals are not known at the start)
        if view["history"]:
            deal, targets = view["history"][0]["deal"], view["history"][0]["targets"]
        else:
            board = game.view(state, view["players"][0])["board"]
            if board is None or board["slides"]:
                return None
            deal, targets = board["tiles"], view["targets"]
        # a module-level function and its arguments: it may run in another process
        return functools.partial(solver_slides, tuple(deal), targets["rows"], targets["columns"])

    def extras_at_finish(self, game, state):
        view = game.view(state, None)
        if not solo(view):
            return {}
        player = view["players"][0]
        results = [h["results"][player] for h in view["history"]]
        return {"solo": {"rounds": len(results),
                         "solved": bool(results) and all(r["status"] == "correct" for r in results),
                         "slides": sum(r["slides"] for r in results)}}

    def result_notes(self, game, state, names, extras):
        """Alone: the time (`seconds`, kept by the flow), and for a solved board how it compares
        with the solver's slides on the deal and with the player's earlier solo games here."""
        if not solo(game.view(state, None)):
            return ""
        seconds = extras.get("seconds")
        parts = [f"⏱️ Time: {clock(seconds)}."] if seconds is not None else []
        mine = extras.get("solo")
        if not mine or not mine["solved"]:
            return " ".join(parts)
        slides = mine["slides"]
        bot = extras.get("solver_slides")
        if bot is not None:
            gap = slides - bot
            tail = (f": you needed {-gap} fewer!" if gap < 0 else ": just as many as you."
                    if gap == 0 else f", {gap} fewer than you.")
            parts.append(f"🤖 My own method solves this deal in {bot} slide{'' if bot == 1 else 's'}"
                         f"{tail}")
        if "history" in extras:
            earlier = [e for e in extras["history"] if (e.get("solo") or {}).get("solved")
                       and e["solo"]["rounds"] == mine["rounds"]]
            if not earlier:
                parts.append("Your first solved puzzle in this server.")
            else:
                before = min(e["solo"]["slides"] for e in earlier)
                fewest = min(before, slides)
                best = [f"{fewest} slide{'' if fewest == 1 else 's'}"
                        + (" (a new record!)" if slides < before else "")]
                times = [e["seconds"] for e in earlier if e.get("seconds") is not None]
                if times and seconds is not None:
                    best.append(f"{clock(min(min(times), seconds))}"
                                + (" (a new record!)" if seconds < min(times) else ""))
                parts.append(f"Your best so far in this server: {', '.join(best)}.")
        return " ".join(parts)


register("byop1", Byop1Adapter())
