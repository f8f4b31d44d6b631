"""Every example a player is shown as something to type works as shown. The code-formatted
spans (`...`) are collected from the games' answers to bad moves (provoked in states of played
games, and passed on the way the bot passes them: `texts.defuse`, then `texts.with_names`),
their prompts, the rules (/rules), /help, the /play option suggestions and the README's move
notation. Each span is typeable: no invisible or unusual space character (a zero-width space
copied along makes a move unreadable). And it reads as what it is:

- a move: the game's parse_action reads it (legal or not: it is notation that is checked, as
  an example need not be legal on every board) in the very state whose answer showed it, or,
  for a text shown whatever the state (rules, help, README), in some state of a played game;
- a template with cells `x,y`: the same, once numbers are put in;
- game options `key=value`: the bot's /play reader and the game accept them;
- a command `/name ...`: its move (`/move UULDR`) or options (`/play options: ...`) as above;
- anything else must be listed in OTHER below, saying what it is (an option's name, a tile,
  a button's label, an elided value)."""

from __future__ import annotations

import random
import re
import unicodedata
from pathlib import Path

import pytest

import engine
from bot import texts, ui
from bot.errors import UserError
from bot.flow import parse_options
from engine import GameError, InvalidAction

CODE = re.compile(r"`([^`\n]+)`")
README = Path(__file__).resolve().parents[1] / "README.md"
TITLES = {"Relativity": "relativity", "Global Warming": "global-warming", "Galaxies": "galaxies",
          "BYOP1": "byop1", "Pack Solitaire": "pack-solitaire"}

# Spans that are no move, option or command, by game (None: any), with what they are.
OTHER = {
    ("pack-solitaire", "tiles"): "the option's name",
    ("pack-solitaire", "n25"): "one tile as the tiles option writes it",
    ("pack-solitaire", "tiles=n25,a34,..."): "the tiles option, elided",
    ("byop1", "slides"): "a ranking's name (ranking=slides)",
    ("byop1", "autodone"): "an option's name (autodone=on)",
    ("byop1", "2M"): "a tile's name",
    ("byop1", "deals"): "an option's name",
    ("byop1", "MSAC/24a53/2M 4A ... nC"): "a deal as the deals option writes it, elided",
    ("global-warming", "bob ⚫ ↓"): "a step button's label",
    ("global-warming", "x,y"): "how a position is written (a tile move `x,y>x,y` joins two)",
    (None, "opponent:"): "a /play option's name",
    (None, "deadline:"): "a /play option's name",
    (None, "options:"): "a /play option's name",
    (None, "game:"): "an option's name",
    (None, "key=value"): "the form of options",
}

# Texts that make the games answer with their errors: nonsense, and moves of every kind.
ODD = ["zzz", "17@a1/0", "1@e9/0", "1@a1/9", "0@a1", "1@a1/0", "1@off", "99,99>98,98", "3,1",
       "purple up", "red sideways", "up", "red up", "z9#a1", "a1#a1", "a1#f4", "X", "play", "done",
       "pass", "U" * 30, "merge", "form", "5", "n", "7@b3"]


def invisible(text: str) -> list[str]:
    """The characters of `text` that do not show, or show as a space that is not one."""
    return [f"U+{ord(ch):04X}" for ch in text
            if ch != " " and (unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cn")
                              or unicodedata.category(ch).startswith("Z"))]


def played(name: str, seed: int, steps: int = 60):
    """The game, its seats and the states of a game played at random (moves by players to act)."""
    game = engine.get_game(name)
    players = [f"p{i}" for i in range(max(game.min_players, min(game.max_players, 2)))]
    rnd = random.Random(seed)
    state = game.new_game(players, seed=seed)
    states = [state]
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        player = rnd.choice(game.to_act(state))
        actions = [str(a) for a in game.legal_actions(state, player) if str(a) != "done"]
        if not actions:
            break
        state = game.apply(state, player, rnd.choice(actions))
        states.append(state)
    return game, players, states


SAMPLES = {name: [played(name, seed) for seed in (1, 2)] for name in engine.game_names()}


def reads_as_move(game, state, player: str, text: str) -> bool:
    try:
        game.parse_action(state, player, text)
    except InvalidAction:
        return False
    return True


def reads_somewhere(name: str, text: str) -> bool:
    return any(reads_as_move(game, state, player, text)
               for game, _, states in SAMPLES[name] for state in states
               for player in game.to_act(state))


def options_work(name: str | None, text: str) -> bool:
    """`text` as /play options: read by the bot, and accepted by the game (any game: None)."""
    try:
        options = parse_options(text)
    except UserError:
        return False
    for game in [engine.get_game(name)] if name else map(engine.get_game, engine.game_names()):
        try:
            game.new_game([f"s{i}" for i in range(game.min_players)], seed=0, options=options)
            return True
        except GameError:
            pass
    return False


def problem(name: str | None, span: str, reads) -> str | None:
    """Why `span`, shown in a text of game `name` (None: of no one game), cannot be typed as
    shown; `reads(text)`: whether a text reads as a move where the span is shown."""
    if invisible(span):
        return f"invisible characters {invisible(span)}"
    if (name, span) in OTHER or (None, span) in OTHER:
        return None
    if span.startswith("/"):
        command, _, rest = span[1:].partition(" ")
        rest = rest.strip()
        if command == "move" and rest and "<" not in rest and name:
            move = rest.removeprefix("move:").strip()
            return None if reads(move) else f"/move {move!r} is no move of {name}"
        if command == "play" and rest.startswith("options:"):
            return None if options_work(name, rest.removeprefix("options:").strip()) \
                else "options not accepted"
        return None
    if "=" in span:
        return None if options_work(name, span) else "options not accepted"
    if name is None:
        return "not a command, an option or a listed word"
    if "x,y" in span:
        span = span.replace("x,y", "3,1", 1).replace("x,y", "4,1")
    return None if reads(span) else f"no move of {name}"


def check(name: str | None, text: str, reads, where: str) -> list[str]:
    return [f"{where}: `{span}`: {why}" for span in CODE.findall(text)
            if (why := problem(name, span, reads))]


@pytest.mark.parametrize("name", engine.game_names())
def test_the_examples_in_the_games_answers_and_prompts_can_be_typed(name):
    """Bad moves in many states, by the player to act and by the others: each example in the
    answer (as the bot shows it) is read as a move in that same state; so are the prompts'."""
    adapter = ui.adapter_for(name)
    bad, shown = [], set()
    for game, players, states in SAMPLES[name]:
        names = {p: p for p in players}
        tried = ODD + sorted({str(a) for s in states for p in game.to_act(s)
                              for a in game.legal_actions(s, p)})[:60]
        for i, (before, state) in enumerate(zip([None] + states, states)):
            for player in players:
                reads = lambda t: reads_as_move(game, state, player, t)   # noqa: E731
                prompt = game.prompt(state, player)
                if prompt is not None:
                    bad += check(name, prompt.text, reads, f"prompt {prompt.text!r}")
                    if prompt.kind == "public":
                        turn = adapter.turn_prompt(game, before, state, player)
                        bad += check(name, turn, reads, f"turn prompt {turn!r}")
            if i % 4:
                continue
            for player in players:
                reads = lambda t: reads_as_move(game, state, player, t)   # noqa: E731
                for text in tried:
                    try:
                        game.apply(state, player, text)
                    except GameError as exc:
                        answer = texts.with_names(texts.defuse(exc), names)
                        shown.update(CODE.findall(answer))
                        bad += check(name, answer, reads, f"answer to {text!r}: {answer!r}")
    assert not bad, "\n".join(sorted(set(bad))[:20])
    assert shown, f"{name}: no answer showed an example"


@pytest.mark.parametrize("name", engine.game_names())
def test_the_examples_in_the_rules_can_be_typed(name):
    rules = engine.get_game(name).rules
    assert CODE.findall(rules)
    bad = check(name, rules, lambda t: reads_somewhere(name, t), "rules")
    assert not bad, "\n".join(bad)


def test_the_examples_in_help_and_the_option_suggestions_can_be_typed():
    bad = check(None, texts.HELP, lambda t: False, "/help")
    for name in engine.game_names():
        for hint in ui.adapter_for(name).option_hints:
            if not options_work(name, hint):
                bad.append(f"{name}: the /play suggestion {hint!r} is refused")
    assert "variant=diagonal" in texts.HELP and not bad, "\n".join(bad)


def readme_parts() -> list[tuple[str | None, str]]:
    """The README's move examples: the "Moving." and "Private boards" bullets of How to play
    and the list under "Move notation", cut where a game is named (its spans are that game's)."""
    text = README.read_text(encoding="utf-8")
    bullets = [b for b in re.split(r"\n(?=- )", text)
               if b.startswith(("- **Moving.**", "- **Private boards (BYOP1).**"))]
    notation = text.split("Move notation:\n", 1)[1].split("\n## ", 1)[0]
    bullets += re.split(r"\n(?=- )", notation)
    assert len(bullets) >= 7, "the README's move examples were not found"
    names = "|".join(map(re.escape, TITLES))
    parts = []
    for bullet in bullets:
        game = None
        for piece in re.split(rf"({names})", bullet):
            if piece in TITLES:
                game = TITLES[piece]
            else:
                parts.append((game, piece))
    return parts


def test_the_move_examples_in_the_readme_can_be_typed():
    bad, seen = [], set()
    for name, part in readme_parts():
        seen |= {name} if CODE.search(part) else set()
        reads = (lambda t, n=name: reads_somewhere(n, t)) if name else (lambda t: False)
        bad += check(name, part, reads, f"README ({name})")
    assert seen >= set(engine.game_names()), seen
    assert not bad, "\n".join(bad)


def test_an_example_with_an_invisible_space_is_caught():
    """The check itself: what the bot used to show (`7@\u200bb3/1`) fails it."""
    game, players, states = SAMPLES["pack-solitaire"][0]
    reads = lambda t: reads_as_move(game, states[0], players[0], t)   # noqa: E731
    assert check("pack-solitaire", "Write `7@\u200bb3/1`.", reads, "")
    assert check("pack-solitaire", "Write `7@b3/1\u00a0`.", reads, "")
    assert check("pack-solitaire", "Write `7@b9/1`.", reads, "")
    assert not check("pack-solitaire", "Write `7@b3/1` or `7@off`.", reads, "")
