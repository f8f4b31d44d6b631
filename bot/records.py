"""A game's history rebuilt from its stored events through the engine (no Discord here): the
moves as a record file (`/record`) and the position after any move (`/replay`).

The events hold every applied action (`start` with players, seed and options, then `move`
with the action's canonical text, the generic resign/offer/accept/decline, and `expire`), so
replaying them from `new_game` gives the stored state exactly.

What a record shows is what was public:
- a secret commit (Global Warming's die face, Galaxies' card) shows only once the reveal that
  took it has happened (its log entry `event="reveal"`, which names whose choices it shows);
  before that the record says only that the player chose. A change of mind before the reveal
  is never shown: the entry keeps the moment of the player's first choice and the value they
  finally revealed (so a record does not tell anyone that a player hesitated). A choice that
  no reveal ever showed (its player left first) stays hidden, even after the game.
- moves on a private board (BYOP1's slides) show once their round is over (or the game);
- the seed is never in a record: it would show what the rules hide for ever (Global
  Warming's coin sides) or until later (Relativity's Day board).
Relativity's record is Portable Piecepack Notation, one YAML document per round, like
tests/fixtures/relativity.ppn.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Mapping

import engine

from . import ui
from .flow import GENERIC_OPS

# How a generic action is written in a record (in parentheses: no game's notation uses them).
GENERIC_TEXT = {"resign": "(resign)", "offer": "(offer draw)", "accept": "(accept draw)",
                "decline": "(decline draw)", "expire": "(deadline)"}
RECORDED = {"move", "expire", *GENERIC_OPS}
HIDDEN_TEXT = "?"


@dataclass
class Entry:
    """One move of the record, numbered from 1."""

    event: int              # index in the events: the position after this move is after it
    at: float
    actor: str | None
    kind: str               # move, resign, offer, accept, decline or expire
    text: str               # a move's notation (an expire: the late players, comma-separated)
    hidden: str | None = None    # "secret" or "private" while not yet public
    revealed_by: int | None = None   # the event that made a hidden move public
    log: list = field(default_factory=list)   # the public log entries this move added
    number: int = 0

    @property
    def shown(self) -> bool:
        return self.hidden is None or self.revealed_by is not None


@dataclass
class History:
    game: str
    players: list[str]
    options: dict
    started_at: float
    entries: list[Entry]
    final: Mapping                  # the state after every event
    layouts: list = field(default_factory=list)   # Relativity: (entry count, public layout)
    events: list = field(default_factory=list)    # the stored events it was built from

    def event_of(self, number: int) -> int:
        """The last event to replay for the position after move `number` (0: the start)."""
        return self.start_event if number == 0 else self.entries[number - 1].event

    start_event: int = 0


def _secret_reveal(log_entry: Mapping, pending: Mapping[str, Entry]) -> list[str]:
    """Whose pending choices a reveal log entry shows: the players its faces or cards name."""
    shown = log_entry.get("faces") or log_entry.get("cards")
    if isinstance(shown, Mapping):
        return [p for p in shown if p in pending]
    return list(pending)


def replay(game_name: str, events: list[dict], until: int | None = None):
    """The state after events[0..until] (all of them by default), from the start event on;
    None before the start."""
    game = engine.get_game(game_name)
    state = None
    for n, event in enumerate(events):
        if until is not None and n > until:
            break
        state = _step(game, state, event)
    return state


def _step(game, state, event: Mapping):
    kind, actor = event["kind"], event["actor"]
    if kind == "start":
        start = json.loads(event["detail"])
        return game.new_game(start["players"], seed=start["seed"], options=start["options"])
    if state is None:
        return None
    if kind == "move":
        return game.apply(state, actor, event["detail"])
    if kind in GENERIC_OPS:
        return GENERIC_OPS[kind](game, state, actor)
    if kind == "expire":
        return game.expire(state)
    return state


def history(game_name: str, events: list[dict]) -> History | None:
    """The game's record as entries (None when it never started)."""
    game = engine.get_game(game_name)
    adapter = ui.adapter_for(game_name)
    state = None
    entries: list[Entry] = []
    secret: dict[str, Entry] = {}        # player -> their choice awaiting a reveal
    private: list[tuple[Entry, object]] = []   # (move, its private round)
    layouts: list = []
    result = None
    for n, event in enumerate(events):
        kind, actor = event["kind"], event["actor"]
        if kind == "start":
            state = _step(game, None, event)
            start = json.loads(event["detail"])
            result = History(game_name, list(start["players"]), dict(start["options"]),
                             event["at"], entries, state, layouts, events, start_event=n)
            if game_name == "relativity":
                layouts.append((0, game.view(state, None)["layout"]))
            continue
        if state is None or kind not in RECORDED:
            continue
        prompt = game.prompt(state, actor) if (kind == "move" and actor) else None
        hidden = prompt.kind if prompt is not None and prompt.kind in ("secret", "private") else None
        round_ = adapter.private_round(game, state) if hidden == "private" else None
        seen = len(state["log"])
        state = _step(game, state, event)
        new_log = list(state["log"][seen:])
        text = event["detail"]
        if hidden == "secret" and actor in secret:
            # A change of mind: the same entry, now with the newer choice.
            secret[actor].text = text
            entry = secret[actor]
            entry.log += new_log
        else:
            entry = Entry(n, event["at"], actor, kind, text, hidden, log=new_log)
            entries.append(entry)
            if hidden == "secret":
                secret[actor] = entry
            elif hidden == "private":
                private.append((entry, round_))
        for log_entry in new_log:
            if log_entry.get("event") == "reveal" and secret:
                for player in _secret_reveal(log_entry, secret):
                    secret.pop(player).revealed_by = n
            if game_name == "relativity" and log_entry.get("event") == "round":
                layouts.append((len(entries), game.view(state, None)["layout"]))
        if private:
            over = game.outcome(state) is not None
            now = adapter.private_round(game, state)
            for waiting, was in private:
                if over or was != now:
                    waiting.revealed_by = n
            private = [(e, r) for e, r in private if e.revealed_by is None]
    if result is None:
        return None
    for number, entry in enumerate(entries, 1):
        entry.number = number
    result.final = state
    return result


# ---- the text record (every game) ----------------------------------------------------------


def _plain(name: str) -> str:
    """A name on one line of a file: no tabs or line breaks."""
    return " ".join(str(name).split()) or "?"


def plain_names(text: str, names: Mapping[str, str]) -> str:
    """Engine texts name players by id: the display names instead, as plain text."""
    if not names:
        return text
    pattern = re.compile("|".join(re.escape(p) for p in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: _plain(names[m.group(0)]), text)


def utc(at: float) -> str:
    return datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def visible_at(entry: Entry, event: int) -> bool:
    """Whether the move was public once the events up to `event` had happened."""
    return entry.hidden is None or (entry.revealed_by is not None and entry.revealed_by <= event)


def action_text(entry: Entry) -> str:
    """The move as the record writes it (what it shows now)."""
    if not entry.shown:
        return HIDDEN_TEXT
    if entry.kind == "move":
        return entry.text
    return GENERIC_TEXT[entry.kind]


def entry_note(entry: Entry, hist: History, names: Mapping[str, str]) -> str:
    parts = []
    if entry.hidden == "secret":
        if entry.shown:
            parts.append(f"secret choice, revealed at move {_number_of(hist, entry.revealed_by)}")
        else:
            parts.append("secret choice, not revealed")
    elif entry.hidden == "private":
        parts.append("on a private board" + ("" if entry.shown else ", shown when the round is over"))
    if entry.kind == "expire":
        late = [names.get(p, p) for p in entry.text.split(",") if p]
        parts.append("the deadline passed" + (f" for {', '.join(map(_plain, late))}" if late else ""))
    parts += [plain_names(e["text"], names) for e in entry.log]
    return " ".join(_plain(p) for p in parts)


def _number_of(hist: History, event: int | None) -> int | str:
    return next((e.number for e in hist.entries if e.event == event), "?")


def record_text(hist: History, *, title: str, game_id: int, names: Mapping[str, str],
                result: str | None, where: str = "") -> str:
    """The record as tab-separated text: comment lines (#) and one line per move."""
    lines = [f"# {title} #{game_id}, played with piecepack-bot{f' in {_plain(where)}' if where else ''}",
             "# Players in seat order: " + ", ".join(f"{n} {_plain(names.get(p, p))}"
                                                     for n, p in enumerate(hist.players, 1)),
             "# Options: " + (", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}"
                                        for k, v in sorted(hist.options.items())) or "none"),
             f"# Started {utc(hist.started_at)} UTC",
             "# Result: " + (_plain(result) if result else "the game is not over"),
             "# A secret choice shows once it was revealed, a private board's moves once their "
             "round was over; ? marks what is not public yet.",
             "#",
             "# move\ttime (UTC)\tseat\tplayer\taction\tnote"]
    seats = {p: n for n, p in enumerate(hist.players, 1)}
    for entry in hist.entries:
        actor = entry.actor if entry.actor in seats else None
        lines.append("\t".join([
            str(entry.number), utc(entry.at), str(seats[actor]) if actor else "-",
            _plain(names.get(actor, actor)) if actor else "-", action_text(entry),
            entry_note(entry, hist, names)]))
    return "\n".join(lines) + "\n"


@dataclass
class RecordedMove:
    number: int
    seat: int | None
    action: str


def read_record(text: str) -> list[RecordedMove]:
    """The moves of a text record (tests, and anyone replaying a record)."""
    moves = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        number, _, seat, _, action, *_ = line.split("\t")
        moves.append(RecordedMove(int(number), None if seat == "-" else int(seat), action))
    return moves


def apply_record(game_name: str, players: list[str], seed: int, options: Mapping,
                 moves: list[RecordedMove]):
    """The state a text record leads to from `new_game` (its players, the stored seed)."""
    game = engine.get_game(game_name)
    state = game.new_game(players, seed=seed, options=dict(options))
    ops = {text: kind for kind, text in GENERIC_TEXT.items()}
    for move in moves:
        player = players[move.seat - 1] if move.seat else None
        kind = ops.get(move.action, "move")
        if move.action == HIDDEN_TEXT:
            raise ValueError(f"move {move.number} is not public yet")
        state = _step(game, state, {"kind": kind, "actor": player, "detail": move.action})
    return state


# ---- Relativity in Portable Piecepack Notation ---------------------------------------------


ROUND_SUIT_LETTER = {"night": "M", "day": "S"}      # Moons at Night, Suns by Day
TROPHY_CELL = {"space": "b6", "time": "e6"}         # where a trophy is put, as in the fixture


def _yaml_string(text: str) -> str:
    return json.dumps(_plain(text), ensure_ascii=False)   # a JSON string is a YAML scalar


def _comment(text: str) -> str:
    return "{ " + _plain(text).replace("{", "(").replace("}", ")") + " }"


def ppn_text(hist: History, *, game_id: int, names: Mapping[str, str], result: str | None,
             where: str = "") -> str:
    """Relativity's record: one PPN document per round begun, its coins as dealt then, its
    moves `1S. d3#e3 1T. ...` with the trophies each took (`;M5@b6`), who moved and when in
    a comment after each move."""
    first, second = hist.players
    rounds = [("night", {"space": first, "time": second}), ("day", {"space": second, "time": first})]
    bounds = [start for start, _ in hist.layouts] + [len(hist.entries)]
    docs = []
    for k, (start, layout) in enumerate(hist.layouts):
        round_, roles = rounds[k]
        role_of = {p: r for r, p in roles.items()}
        head = ["---",
                f"Event: {_yaml_string(f'piecepack-bot, Relativity #{game_id}' + (f', {where}' if where else ''))}",
                f"Date: \"{utc(hist.started_at)[:10].replace('-', '.')}\"",
                f"Round: {round_.capitalize()}",
                f"Space: {_yaml_string(names.get(roles['space'], roles['space']))}",
                f"Time: {_yaml_string(names.get(roles['time'], roles['time']))}",
                "GameType: ",
                "    Name: Relativity",
                f"    Coins: \"{layout}\"",
                "..."]
        body = []
        number = 0
        for entry in hist.entries[start:bounds[k + 1]]:
            who = _plain(names.get(entry.actor, entry.actor or ""))
            when = f"{utc(entry.at)} UTC"
            if entry.kind != "move":
                what = {"resign": f"{who} resigns", "offer": f"{who} offers a draw",
                        "accept": f"{who} accepts the draw", "decline": f"{who} declines the draw",
                        "expire": "the deadline passed"}[entry.kind]
                body.append(_comment(f"{what}, {when}"))
                continue
            role = role_of.get(entry.actor)
            if role == "space":
                number += 1
            tokens = [entry.text] + [
                f"{ROUND_SUIT_LETTER[round_]}{e['value']}@{TROPHY_CELL[role_of.get(e['player'], role)]}"
                for e in entry.log if e.get("event") == "trophy" and e.get("round") == round_]
            body.append(f"{max(number, 1)}{'S' if role == 'space' else 'T'}. {';'.join(tokens)} "
                        + _comment(f"{who}, {when}"))
        if k == len(hist.layouts) - 1 and result:
            body.append(_comment(f"Result: {result}"))
        docs.append("\n".join(head + [_wrap(body)]))
    return "\n".join(docs) + "\n"


def _wrap(parts: list[str], width: int = 100) -> str:
    """Movetext in lines of about `width` characters, never breaking inside a move."""
    lines, line = [], ""
    for part in parts:
        if line and len(line) + 1 + len(part) > width:
            lines.append(line)
            line = part
        else:
            line = f"{line} {part}" if line else part
    if line:
        lines.append(line)
    return "\n".join(lines)
