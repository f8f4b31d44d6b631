"""The game-independent core: states, errors, outcomes, seeded chance, and the `Game` base.

A state is an immutable, JSON-ready value (a `FrozenDict` of tuples, strings, ints, bools and
None). Game modules subclass `Game` and fill in the `_hooks`; the base class does everything the
five games share: seat checks, turn checks, resigning, draws by agreement, deadlines, the public
event log and the JSON round trip.

Hidden information lives in the state but leaves the engine only through `view()`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence


# No move of any game is written with more characters (a whole BYOP1 solution takes a few
# hundred slides); longer text is refused unread.
MAX_ACTION_TEXT = 2000

# --------------------------------------------------------------------------- errors


class GameError(ValueError):
    """A move or request the rules refuse. The message is written for the player."""


class InvalidAction(GameError):
    """The text could not be read as a move of this game."""


class IllegalAction(GameError):
    """The move is readable but not allowed now."""


class NotYourTurn(GameError):
    """The player may not act now (or is not seated in this game)."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. `winners` is empty for a draw (`draw` True) or a solo give-up."""

    winners: tuple[str, ...]
    reason: str
    draw: bool = False

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "reason": self.reason, "draw": self.draw}

    @classmethod
    def from_json(cls, data: Mapping) -> "Outcome":
        return cls(tuple(data["winners"]), data["reason"], bool(data.get("draw", False)))


@dataclass(frozen=True)
class Prompt:
    """What the bot should ask of one player now.

    kind: "public"  - a decision made in the game's thread for all to see;
          "secret"  - a choice committed privately and revealed together with the others';
          "private" - play on the player's own private board (nothing to reveal).
    """

    player: str
    kind: str
    text: str


@dataclass(frozen=True)
class Continuation:
    """How an action that a player has begun (its first parts, e.g. pawn steps) may go on now.

    head:     the parts given so far, in the game's notation;
    parts:    each part that may come next (`head` + `separator` + part is a legal action);
    complete: whether `head` alone is a legal action already.
    """

    head: str
    parts: tuple[str, ...]
    complete: bool
    separator: str = ", "

    def actions(self) -> list[str]:
        """The whole actions one more part makes."""
        return [f"{self.head}{self.separator}{part}" for part in self.parts]


class FrozenDict(dict):
    """A dict that refuses change, so states are values. json.dumps treats it as a dict."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("game states are immutable")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __init__(self, *args, **kwargs):
        if self:  # dict.__init__ on an existing FrozenDict would update it in place
            self._refuse()
        super().__init__(*args, **kwargs)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __copy__(self) -> "FrozenDict":
        return self

    def __deepcopy__(self, memo) -> "FrozenDict":
        return self


def freeze(value: Any) -> Any:
    """Deep-convert JSON-like data to immutable form (lists -> tuples, dicts -> FrozenDict).

    A FrozenDict is already frozen all the way down, so it is shared rather than copied."""
    if isinstance(value, FrozenDict):
        return value
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(f"state keys must be strings, not {key!r}")
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if value is None or isinstance(value, (str, int, bool)):
        return value
    raise TypeError(f"{type(value).__name__} is not allowed in a game state")


def thaw(value: Any) -> Any:
    """Deep-convert a frozen value to plain, mutable dicts and lists."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


def _thaw_state(state: Mapping) -> dict:
    """thaw(state), except that the log's past entries stay frozen and shared: they never
    change, and copying a long log on every move would make each move cost O(game length)."""
    return {k: list(v) if k == "log" else thaw(v) for k, v in state.items()}


def _freeze_state(s: dict, before: Mapping) -> FrozenDict:
    """freeze(s) for a state thawed from `before` by _thaw_state: the log's old entries are
    shared with `before` (checked by identity, at C speed) and only new ones are frozen, so a
    move costs the same at move 1000 as at move 10."""
    old = before["log"]
    log = s["log"]
    if len(log) >= len(old) and log[:len(old)] == list(old):
        log = old + tuple(freeze(entry) for entry in log[len(old):])
    else:
        log = freeze(log)
    return FrozenDict({k: log if k == "log" else freeze(v) for k, v in s.items()})


# --------------------------------------------------------------------------- chance


class Rng:
    """A small seeded generator (splitmix64) whose whole state is one int kept in the game state.

    We do not use `random.Random`: its state is 625 numbers and its algorithms may change
    between Python versions; a game must replay the same forever.
    """

    _MASK = (1 << 64) - 1

    def __init__(self, state: int):
        self.state = state & self._MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in range(n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence):
        return seq[self.below(len(seq))]

    def shuffled(self, seq: Iterable) -> list:
        items = list(seq)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def coin(self) -> bool:
        return bool(self.next64() & 1)


# --------------------------------------------------------------------------- the game base

# How many of the latest log entries a view carries (view["log"]); the state keeps them all.
# Enough for every event of a turn (a Global Warming round logs about 15), small enough that
# a view costs the same at move 1000 as at move 10.
VIEW_LOG = 40


class Game:
    """Base of every game. Subclasses set the class attributes and implement the `_hooks`.

    Hooks receive the frozen state (`state["data"]` is the game's own part) except `_setup` and
    `_apply`, which work on plain mutable copies; the base freezes the result.
    """

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    allows_draw: bool = True
    # Options that fix hidden information (e.g. the order of a bag): whoever sets them would
    # know what the rules hide, so the bot never takes them from players.
    secret_options: frozenset[str] = frozenset()

    # ---- hooks for the games -------------------------------------------------------------

    def _setup(self, players: tuple[str, ...], rng: Rng, options: dict) -> dict:
        raise NotImplementedError

    def _to_act(self, state: Mapping) -> Sequence[str]:
        raise NotImplementedError

    def _awaited(self, state: Mapping) -> Sequence[str]:
        """Players whose action the game is waiting for (reminders, deadlines). Usually to_act;
        differs in a commit phase, where a player who has committed may still change it."""
        return self._to_act(state)

    def _legal_actions(self, state: Mapping, player: str) -> Iterable:
        raise NotImplementedError

    def _parse(self, state: Mapping, player: str, text: str):
        raise NotImplementedError

    def _check(self, state: Mapping, player: str, action) -> None:
        """Raise IllegalAction (with a helpful message) when `action` is not allowed now."""
        if action not in set(self._legal_actions(state, player)):
            raise IllegalAction(f"{action} is not a legal move now.")

    def _apply(self, s: dict, player: str, action, rng: Rng) -> None:
        """Mutate the plain copy `s` of the state; the action has been checked."""
        raise NotImplementedError

    def _scores(self, state: Mapping) -> dict[str, int]:
        return {p: 0 for p in state["players"]}

    def _result(self, state: Mapping) -> Outcome | None:
        """The outcome reached by play (resign, draw and time-outs are handled by the base)."""
        raise NotImplementedError

    def _view(self, state: Mapping, viewer: str | None) -> dict:
        raise NotImplementedError

    def _prompt(self, state: Mapping, player: str) -> Prompt:
        return Prompt(player, "public", "Your move.")

    def _continuations(self, state: Mapping, player: str, head: str) -> Continuation | None:
        """How an action begun with `head` may go on (None: the game's actions have no parts).
        Use only the position as it stands and what `player` may see: never apply the parts."""
        return None

    def _resample_hidden(self, s: dict, viewer: str | None, rng: Rng) -> None:
        """Deal again, in the plain copy `s`, everything hidden from `viewer`, so that their
        view stays the same. A game with nothing hidden leaves `s` alone (but says so)."""
        raise NotImplementedError(f"{self.title} does not say what it hides (_resample_hidden)")

    def _drop_player(self, s: dict, player: str, reason: str) -> None:
        """A player left (resigned or timed out) while others play on. Games with more than
        two seats override this to take the player out of play; the base records the rest."""

    def _on_timeout(self, s: dict, player: str, rng: Rng) -> None:
        """Deadline policy for one awaited player. By default the player loses their seat."""
        self._leave(s, player, f"{player} ran out of time")

    # ---- the contract --------------------------------------------------------------------

    def new_game(self, players: Sequence[str], seed: int = 0, options: Mapping | None = None):
        players = tuple(str(p) for p in players)
        if len(set(players)) != len(players):
            raise GameError("Each player can take only one seat.")
        if not self.min_players <= len(players) <= self.max_players:
            if self.min_players == self.max_players:
                raise GameError(f"{self.title} needs exactly {self.min_players} players.")
            raise GameError(f"{self.title} needs {self.min_players} to {self.max_players} players.")
        rng = Rng(int(seed))
        data = self._setup(players, rng, dict(options or {}))
        return freeze({
            "game": self.name,
            "players": list(players),
            "seed": int(seed),
            "rng": rng.state,
            "move_number": 0,
            "left": [],           # players who resigned or timed out, in order
            "draw_offer": None,   # {"by": p, "accepted": [...]} while an offer stands
            "result": None,       # set by resign/draw/timeout; play results come from _result
            "log": [],            # public events, oldest first: {"n": move_number, "text": ...}
            "data": data,
        })

    def to_act(self, state: Mapping) -> tuple[str, ...]:
        self._own(state)
        if self.outcome(state) is not None:
            return ()
        return tuple(p for p in self._to_act(state) if p not in state["left"])

    def awaited(self, state: Mapping) -> tuple[str, ...]:
        self._own(state)
        if self.outcome(state) is not None:
            return ()
        return tuple(p for p in self._awaited(state) if p not in state["left"])

    def legal_actions(self, state: Mapping, player: str) -> list:
        if player not in self.to_act(state):
            return []
        return list(self._legal_actions(state, player))

    def parse_action(self, state: Mapping, player: str, text: str):
        self._own(state)
        if not isinstance(text, str) or not text.strip():
            raise InvalidAction("Type a move, for example one from the suggestions.")
        if len(text.strip()) > MAX_ACTION_TEXT:
            # (and the games' messages, which may quote the text, stay short)
            raise InvalidAction(f"That is too long for a move ({len(text.strip())} characters); "
                                "start typing and pick one from the suggestions.")
        return self._parse(state, player, text.strip())

    def apply(self, state: Mapping, player: str, action):
        self._own(state)
        self._check_running(state)
        self._check_seated(state, player)
        if player not in self.to_act(state):
            raise NotYourTurn(self._not_your_turn_message(state, player))
        if isinstance(action, str):
            action = self.parse_action(state, player, action)
        self._check(state, player, action)
        # A public move answers a standing draw offer: it lapses. A secret choice does not,
        # or the lapse would tell everyone that somebody had chosen (or changed their mind).
        secret = self._prompt(state, player).kind == "secret"
        s = _thaw_state(state)
        rng = Rng(s["rng"])
        self._apply(s, player, action, rng)
        s["rng"] = rng.state
        s["move_number"] += 1
        if not secret:
            s["draw_offer"] = None
        return _freeze_state(s, state)

    def scores(self, state: Mapping) -> dict[str, int]:
        self._own(state)
        return dict(self._scores(state))

    def outcome(self, state: Mapping) -> Outcome | None:
        self._own(state)
        if state["result"] is not None:
            return Outcome.from_json(state["result"])
        return self._result(state)

    def view(self, state: Mapping, viewer: str | None = None) -> dict:
        self._own(state)
        if viewer is not None and viewer not in state["players"]:
            raise GameError("Only seated players have a private view; use None for spectators.")
        outcome = self.outcome(state)
        common = {
            "game": self.name,
            "title": self.title,
            "players": list(state["players"]),
            "viewer": viewer,
            "move_number": state["move_number"],
            "to_act": list(self.to_act(state)),
            "awaited": list(self.awaited(state)),
            "scores": self.scores(state),
            "outcome": outcome.to_json() if outcome else None,
            "left": list(state["left"]),
            "draw_offer": thaw(state["draw_offer"]),
            # The recent public events, oldest first: the last VIEW_LOG entries (what a board
            # marks and a notice says), not the whole game; `log_start` counts those left out.
            "log": thaw(state["log"][-VIEW_LOG:]),
            "log_start": max(0, len(state["log"]) - VIEW_LOG),
        }
        own = self._view(state, viewer)
        own.update(common)
        return own

    def prompt(self, state: Mapping, player: str) -> Prompt | None:
        """What `player` is asked to do now, or None when nothing."""
        if player not in self.to_act(state):
            return None
        return self._prompt(state, player)

    def continuations(self, state: Mapping, player: str, head: str) -> Continuation | None:
        """How an action that `player` has begun with `head` (e.g. the steps typed so far) may
        go on now; None when `head` is no legal beginning or the game's actions have no parts.

        The answer comes from the position as it stands and what the player may see: it never
        looks past the end of the player's action (a turn's end may turn hidden things over),
        so it is safe to show them, unlike anything learnt by applying `head` ahead of time."""
        self._own(state)
        if player not in self.to_act(state) or not isinstance(head, str) or not head.strip():
            return None
        try:
            return self._continuations(state, player, head.strip())
        except GameError:
            return None

    def resample_hidden(self, state: Mapping, viewer: str | None, seed: int):
        """A state that `viewer` (None: a spectator) cannot tell from `state`: the same view,
        with everything hidden from them (others' secret choices, face-down pieces, future
        chance) dealt again from `seed`. Tests use it to check that what a player is told
        depends only on what they may know; a computer player may use it to guess."""
        self._own(state)
        s = _thaw_state(state)
        rng = Rng(seed)
        self._resample_hidden(s, viewer, rng)
        s["rng"] = rng.next64()   # the chance still to come is hidden from everyone
        return freeze(s)

    def to_json(self, state: Mapping) -> str:
        self._own(state)
        return json.dumps(state, sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str):
        state = freeze(json.loads(text))
        self._own(state)
        return state

    # ---- generic calls of the core: resign, draw by agreement, deadlines ------------------

    def resign(self, state: Mapping, player: str):
        self._own(state)
        self._check_running(state)
        self._check_seated(state, player)
        s = _thaw_state(state)
        self._leave(s, player, f"{player} resigned")
        s["move_number"] += 1
        return _freeze_state(s, state)

    def offer_draw(self, state: Mapping, player: str):
        self._own(state)
        self._check_running(state)
        self._check_seated(state, player)
        if not self.allows_draw:
            raise IllegalAction(f"{self.title} cannot end in a draw by agreement.")
        offer = state["draw_offer"]
        if offer is not None:
            if player in offer["accepted"]:
                raise IllegalAction("Your draw offer is already standing.")
            raise IllegalAction("A draw has been offered already: accept or decline it.")
        s = _thaw_state(state)
        s["draw_offer"] = {"by": player, "accepted": [player]}
        self._log(s, f"{player} offers a draw.", event="draw_offer", player=player)
        return _freeze_state(s, state)

    def accept_draw(self, state: Mapping, player: str):
        self._own(state)
        self._check_running(state)
        self._check_seated(state, player)
        offer = state["draw_offer"]
        if offer is None:
            raise IllegalAction("There is no draw offer to accept.")
        if player in offer["accepted"]:
            raise IllegalAction("You have already agreed to the draw; the others must accept it.")
        s = _thaw_state(state)
        s["draw_offer"]["accepted"].append(player)
        if all(p in s["draw_offer"]["accepted"] for p in self._active(s)):
            s["result"] = Outcome((), "draw agreed", draw=True).to_json()
            s["draw_offer"] = None
            self._log(s, "The players agreed to a draw.", event="draw")
        return _freeze_state(s, state)

    def decline_draw(self, state: Mapping, player: str):
        """Decline an offer (or, by the one who made it, withdraw it)."""
        self._own(state)
        self._check_running(state)
        self._check_seated(state, player)
        if state["draw_offer"] is None:
            raise IllegalAction("There is no draw offer to decline.")
        s = _thaw_state(state)
        s["draw_offer"] = None
        self._log(s, f"{player} declined the draw.", event="draw_declined", player=player)
        return _freeze_state(s, state)

    def expire(self, state: Mapping):
        """A deadline passed: apply the game's time-out policy to everyone awaited."""
        self._own(state)
        self._check_running(state)
        s = _thaw_state(state)
        rng = Rng(s["rng"])
        for player in self.awaited(state):
            if s["result"] is not None or self._result(freeze(s)) is not None:
                break
            self._on_timeout(s, player, rng)
        s["rng"] = rng.state
        s["move_number"] += 1
        s["draw_offer"] = None
        return _freeze_state(s, state)

    # ---- helpers for games ---------------------------------------------------------------

    @staticmethod
    def _log(s: dict, text: str, **extra) -> None:
        """Append a public event. Never put a secret here: the log is in every view."""
        s["log"].append({"n": s["move_number"], "text": text, **extra})

    def _active(self, s: Mapping) -> list[str]:
        """Seated players who have not left (games may narrow this further, e.g. drowned)."""
        return [p for p in s["players"] if p not in s["left"]]

    def _leave(self, s: dict, player: str, reason: str) -> None:
        s["left"].append(player)
        s["draw_offer"] = None
        self._log(s, reason, event="left", player=player)
        remaining = self._active(s)
        if len(remaining) <= 1 and len(s["players"]) > 1:
            s["result"] = Outcome(tuple(remaining), reason).to_json()
        elif not remaining:
            s["result"] = Outcome((), reason).to_json()
        else:
            self._drop_player(s, player, reason)

    def _own(self, state: Mapping) -> None:
        if not isinstance(state, Mapping) or state.get("game") != self.name:
            raise GameError(f"That is not a {self.title} game state.")

    def _check_running(self, state: Mapping) -> None:
        if self.outcome(state) is not None:
            raise IllegalAction("The game is over.")

    def _check_seated(self, state: Mapping, player: str) -> None:
        if player not in state["players"]:
            raise NotYourTurn("You are not playing in this game.")
        if player in state["left"]:
            raise NotYourTurn("You have left this game.")
        if player not in self._active(state):
            raise NotYourTurn("You are out of this game.")

    def _not_your_turn_message(self, state: Mapping, player: str) -> str:
        waiting = ", ".join(self.to_act(state))
        return f"It is not your turn; waiting for {waiting}."
