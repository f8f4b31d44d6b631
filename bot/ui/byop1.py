"""BYOP1's controls: on each player's private board four slide buttons, each labelled with the
tile that would move (impossible ones greyed), and Done; the thread's status post says who has
finished and how. Everything a player is offered comes from their own view."""

from __future__ import annotations

from engine.byop1 import SLIDE_WORDS, slide

from .. import texts
from . import Adapter, register, stamp

ARROWS = {"U": "↑", "D": "↓", "L": "←", "R": "→"}
BUTTON_ORDER = "LUDR"
SUIT_MARKS = {"S": "☀️", "M": "🌙", "C": "👑", "A": "⚔️"}
SUIT_WORDS = {"S": "Suns", "M": "Moons", "C": "Crowns", "A": "Arms"}
VALUE_MARKS = {"n": "null", "a": "A", "2": "2", "3": "3", "4": "4", "5": "5"}
FUMBLE_WARNING = ("⚠️ Your board is not correct yet: calling Done now is a **fumble** (no points "
                  "this round, and you are out of it). Call Done anyway?")


def tile_label(code: str) -> str:
    """`2M` -> `2🌙`; `nS` -> `null☀️`."""
    return f"{VALUE_MARKS[code[0]]}{SUIT_MARKS[code[1]]}"


def tile_words(code: str) -> str:
    return f"{VALUE_MARKS[code[0]]} of {SUIT_WORDS[code[1]]}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
        what = f"Playoff {own['playoff']}" if own["playoff"] else \
            f"Round {own['round']} of {own['rounds']}"
        if board is None:   # the game is over (or this player sits out a playoff)
            return "The game is over: see the result in the thread." if game.outcome(state) \
                else f"{what}: you are not playing this one; see the thread."
        slides = f"{board['slides']} slide{'' if board['slides'] == 1 else 's'}"
        if board["status"] == "correct":
            return f"{what}: **correct**, {slides}. The results come when the round ends."
        if board["status"] == "fumble":
            return f"{what}: **fumble**, {slides}. The results come when the round ends."
        hint = " Your board is correct: press **Done**!" if board["correct"] else ""
        return (f"{what} · {slides}. Each button slides the tile it names into the hole "
                f"(or type `/move UULDR`); press **Done** when your board is correct.{hint}")

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
        board = game.view(state, player)["board"]
        return None if board is None or board["correct"] else FUMBLE_WARNING

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
        view = game.view(state, None)
        what = f"Playoff {view['playoff']}" if view["playoff"] else \
            f"Round {view['round']} of {view['rounds']}"
        how = "race: the order of correct calls" if view["ranking"] == "race" else \
            "fewest slides among correct boards"
        lines = [f"**{what}** ({how})."]
        place = 0
        for f in view["finished"]:
            name = f"**{texts.display(names.get(f['player'], f['player']))}**"
            slides = f"{f['slides']} slide{'' if f['slides'] == 1 else 's'}"
            if f["status"] == "correct":
                place += 1
                lead = f"{ordinal(place)}: " if view["ranking"] == "race" else ""
                lines.append(f"{lead}{name}, correct, {slides}")
            elif f["status"] == "fumble":
                lines.append(f"{name}: fumble, {slides}")
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

    def finish_note(self, game, state, elapsed):
        if len(game.view(state, None)["players"]) != 1:
            return ""
        return f"⏱️ Time: {clock(elapsed)}."


register("byop1", Byop1Adapter())
