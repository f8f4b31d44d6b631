"""What every game's words share: values and suits as words, names made plain, sentences,
clipping to the alt-text limit, the outcome and the last change."""

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
