"""Per-game UI adapters: which buttons go under a game's board, and how a player's choices are
offered. Everything here is plain data ("control specs"); bot.components turns specs into
Discord components. A game without an adapter gets the generic one, which works for any game
through its legal actions.

A control spec is a list: [kind, game_id, ...]. Kinds are registered in bot.components.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable, Mapping

from .. import texts

CUSTOM_ID_LIMIT = 100
MAX_BUTTONS = 20        # 4 rows of 5; the fifth row stays free for a game's extra button
SELECT_SIZE = 25
MAX_SELECTS = 5


def stamp(game, state, player: str) -> str:
    """A short fingerprint of what `player` may do now. Components that carry an action also
    carry the stamp they were built for; a different stamp now means they are out of date.
    A secret phase offers the same choices until its reveal, so its buttons stay valid while it
    lasts (pressing one means "this is my choice now"); its round makes the next phase's
    buttons differ."""
    prompt = game.prompt(state, player)
    actions = sorted(str(a) for a in game.legal_actions(state, player))
    # Not the prompt's text: it may change when a player commits (and may change again).
    kind = prompt.kind if prompt else None
    round_ = adapter_for(game.name).secret_round(game, state) if kind == "secret" else None
    if kind == "private":
        # A private board offers the same few moves again and again: where the board stands
        # tells one moment from the next.
        round_ = adapter_for(game.name).private_position(game, state, player)
    # Without a round, the stamp is the first release's: the buttons of games running when the
    # bot is upgraded keep working.
    text = repr((kind, actions) if round_ is None else (kind, actions, round_))
    return hashlib.sha1(text.encode()).hexdigest()[:8]


def choice_specs(game_id: int, stamp_: str, actions: Iterable[str], *, labels: Mapping[str, str] = {},
                 round_: int | None = None, chosen: str | None = None, what: str = "Moves",
                 first_note: str = "") -> list[list]:
    """Buttons for a few short actions, else select menus of up to 25 each. With `round_`, the
    buttons are a secret phase's (they say which round they belong to); `chosen` is shown as
    the player's current choice. Menus over several pages say which of the actions each holds
    ("Moves 26-50"; `what` names them, `first_note` follows the first page's range)."""
    texts_ = [str(a) for a in actions]
    if round_ is not None:
        specs = [["sec", game_id, round_, stamp_, t, labels.get(t, t), t == chosen] for t in texts_]
        prefix = f"pp:sec:{game_id}:{round_}:{stamp_}:"
    else:
        specs = [["act", game_id, stamp_, t, labels.get(t, t)] for t in texts_]
        prefix = f"pp:act:{game_id}:{stamp_}:"
    if len(texts_) <= MAX_BUTTONS and all(len(prefix + t) <= CUSTOM_ID_LIMIT for t in texts_):
        return specs
    fitting = [t for t in texts_ if len(t) <= 100]
    groups = [fitting[i:i + SELECT_SIZE] for i in range(0, len(fitting), SELECT_SIZE)]
    groups = groups[:MAX_SELECTS]

    def placeholder(i: int) -> str:
        if len(groups) == 1:
            return "Choose your move"
        first = i * SELECT_SIZE + 1
        return f"{what} {first}-{first + len(groups[i]) - 1}" + (first_note if i == 0 else "")

    return [["pick", game_id, stamp_, i, group, [labels.get(t, t) for t in group], placeholder(i)]
            for i, group in enumerate(groups)]


def choices_cover(actions: Iterable[str], specs: list[list]) -> bool:
    """Whether the specs offer every action (else the player is told to use /move)."""
    offered = set()
    for spec in specs:
        if spec[0] == "act":
            offered.add(spec[3])
        elif spec[0] == "sec":
            offered.add(spec[4])
        elif spec[0] == "pick":
            offered.update(spec[4])
    return set(map(str, actions)) <= offered


# A word of a move: letters and digits, with a minus sign on a number that it begins (`3,-1`
# holds 3 and -1, but `d3-e3` holds d3 and e3); a lone `-` ending the text is a number begun.
_WORD = re.compile(r"(?:(?<![a-z0-9])-(?=[0-9]))?[a-z0-9]+|(?<![a-z0-9])-$")


def notation_words(text: str) -> list[str]:
    """The words of a move, without its separators: `7@b3/1` -> 7, b3, 1."""
    return _WORD.findall(text.lower())


def fits_notation(action: str, typed: str) -> bool:
    """Whether `typed` is how `action` begins, word by word in its order (separators aside):
    the words typed must be the action's first ones, the last of them possibly unfinished
    unless a separator follows it (`2@` fits `2@b2/1`, not `12@b2/1` nor `1@a1/2`)."""
    words, target = notation_words(typed), notation_words(action)
    if len(words) > len(target):
        return False
    if words and typed.lower().endswith(words[-1]):   # the last word may go on
        *whole, last = words
        return target[:len(whole)] == whole and target[len(whole)].startswith(last)
    return target[:len(words)] == words


class Adapter:
    """The generic UI: a button under the board that opens the presser's own choices."""

    option_hints: list[str] = []   # suggestions for /play options:
    deadline_scope = "move"        # what a deadline is given for: "Each move has 1 day."

    def secret_round(self, game, state) -> int | None:
        """Which secret phase this is (a number that differs from one phase to the next), or
        None when the game has no such count: its secret buttons then are plain ones."""
        return None

    # ---- private boards (prompt kind "private"): every player plays their own board at once

    def private_round(self, game, state):
        """Which round of private boards this is: a new value means new boards for everyone
        (new DMs, a new status post in the thread, and the deadline restarts)."""
        return None

    def private_position(self, game, state, player: str):
        """Where `player`'s own board stands (JSON-ready), so that its buttons are told apart
        from those of a moment before."""
        return None

    def private_text(self, game, state, player: str, names: Mapping[str, str]) -> str:
        """The text above a player's private board."""
        prompt = game.prompt(state, player)
        return prompt.text if prompt else "Your board is done for now; see the thread."

    def private_final(self, game, state, player: str, names: Mapping[str, str],
                      round_) -> tuple[str, dict] | None:
        """How the round `round_` (a `private_round` value) went for `player`, once it is over:
        the text of their private board message of that round, and the view to draw (their
        board's last position); None while it is not over, or when they were not in it (the
        message then just loses its controls)."""
        return None

    def board_status(self, game, state, names: Mapping[str, str]) -> list[str]:
        """The thread's status post of a private-board round: who has finished and how."""
        playing = game.to_act(state)
        return [f"Still playing: {texts.name_list(list(playing), names)}."] if playing else []

    def confirm(self, game, state, player: str, action: str) -> str | None:
        """A question to ask the player before `action` is applied (None: apply at once).
        Computed from the player's own view only."""
        return None

    def continues(self, game, old, new, player: str) -> bool:
        """Whether `player`, to act in public before and after a change, goes on with the same
        action (their board post is then updated, and they are not pinged again)."""
        return False

    def players_in(self, game, view: Mapping) -> list[str]:
        """The players still in the game (those who must agree to a draw)."""
        return [p for p in view["players"] if p not in view["left"]]

    def matches(self, action: str, typed: str) -> bool:
        """Whether `action` fits what the player has typed so far (for autocomplete)."""
        return fits_notation(action, typed)

    def action_labels(self, game, state, player: str, actions: list[str]) -> list[str]:
        """How actions are listed in autocomplete."""
        return list(actions)

    def suggestions(self, game, state, player: str, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for /move: (value, label) pairs of the player's legal moves that fit
        what they typed. After a comma, an action of several parts goes on (`red up, blue
        left, `): the parts before the last comma are kept when they are a legal beginning,
        and the parts that may follow them are offered (the engine's continuations: from the
        position as it stands, never from the parts applied ahead of time)."""
        head, comma, last = typed.rpartition(",")
        going_on = game.continuations(state, player, head) if comma else None
        if going_on is None:
            fitting = [text for text in map(str, game.legal_actions(state, player))
                       if self.matches(text, typed)]
        else:
            fitting = [f"{going_on.head}{going_on.separator}{part}" for part in going_on.parts
                       if self.matches(part, last)]
            if going_on.complete and not last.strip():
                fitting.append(going_on.head)   # the steps typed so far, as they are
        fitting = [text for text in fitting if len(text) <= 100][:25]
        return list(zip(fitting, self.action_labels(game, state, player, fitting)))

    def turn_prompt(self, game, old, new, player: str) -> str:
        """What the thread says to a player whose public turn it is (`old` is the state before
        the change, None at the start)."""
        return game.prompt(new, player).text

    def turn_controls(self, game_id: int, game, state, view: Mapping, names: Mapping[str, str]) -> list[list]:
        """Controls under a public board post (the game is running)."""
        kinds = {p: game.prompt(state, p).kind for p in game.to_act(state)}
        if not kinds:
            return []
        if any(kind != "public" for kind in kinds.values()):
            return [["mine", game_id, "Open my private controls"]]
        return [["mine", game_id, "Choose my move"]]

    def player_controls(self, game_id: int, game, state, player: str,
                        names: Mapping[str, str]) -> tuple[list[list], str]:
        """The choices of one player (in a DM or an ephemeral message), and a note for the text."""
        actions = [str(a) for a in game.legal_actions(state, player)]
        if not actions:
            return [], ""
        prompt = game.prompt(state, player)
        round_ = self.secret_round(game, state) if prompt.kind == "secret" else None
        specs = choice_specs(game_id, stamp(game, state, player), actions, round_=round_)
        note = "" if choices_cover(actions, specs) else (
            "\nNot every move fits in the menus: type `/move` to see them all.")
        return specs, note

    def describe_action(self, game, state, player: str, action: str) -> str:
        """How the bot confirms an action to the player who made it (`state`: before it)."""
        return f"`{action}`"

    # ---- facts beside the state (stored in the game's extras) -----------------------------

    def background(self, game, state, extras: Mapping):
        """Work to do off the event loop when the game starts (a solver): a function without
        arguments returning a dict to merge into the game's extras, or None (nothing to do, or
        its answer is in `extras` already)."""
        return None

    def extras_at_finish(self, game, state) -> dict:
        """What to keep in the extras of a game that has just ended (e.g. its final score)."""
        return {}

    def own_result(self, game, state, names: Mapping[str, str], extras: Mapping) -> str | None:
        """A game's own words for how it ended (the 🏁 line), or None for the generic ones.
        They stand in for the generic line (who won, why, and the standings) and for the log
        lines of the move that ended the game, which would only say it again: a solo game
        whose result is one number says it once. `result_notes` follow either."""
        return None

    def result_notes(self, game, state, names: Mapping[str, str], extras: Mapping) -> str:
        """Words after the result. `extras["history"]` holds the extras of the player's earlier
        finished games of this kind in the server."""
        return ""

    def final_view(self, game, state, view: Mapping, extras: Mapping) -> dict:
        """The view drawn for the result post."""
        return dict(view)

    def final_posts(self, game, state, extras: Mapping) -> list[tuple[str, dict]]:
        """More posts after the result: (text, view to draw)."""
        return []

    def standings(self, game, state, names: Mapping[str, str]) -> str:
        """The final standing, after the result line (empty when there is nothing to say)."""
        scores = game.scores(state)
        if not any(scores.values()):
            return ""
        return "Score: " + ", ".join(f"{texts.display(names.get(p, p))} {n}"
                                     for p, n in scores.items()) + "."


_ADAPTERS: dict[str, Adapter] = {}
_DEFAULT = Adapter()


def register(game_name: str, adapter: Adapter) -> None:
    _ADAPTERS[game_name] = adapter


def adapter_for(game_name: str) -> Adapter:
    return _ADAPTERS.get(game_name, _DEFAULT)


# The Describe button under a running game's board posts (added by bot.delivery), for every
# game alike.
import discord  # noqa: E402
from discord.ui import Button, DynamicItem  # noqa: E402

from ..components import builds, controller  # noqa: E402


@builds("describe", phases=("active", "finished", "cancelled"))
class DescribeButton(DynamicItem[Button], template=r"pp:describe:(?P<gid>\d+)"):
    """Under a board image: the position in words, for the presser only, from their own view
    (for screen readers; /board text:true does the same)."""

    def __init__(self, game_id: int):
        super().__init__(Button(label="Describe", style=discord.ButtonStyle.secondary,
                                custom_id=f"pp:describe:{game_id}"))
        self.game_id = game_id

    @classmethod
    def from_spec(cls, game_id):
        return cls(int(game_id))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))

    async def callback(self, interaction):
        await controller(interaction).describe_pressed(interaction, self.game_id)


# The games' adapters register themselves (and their components); they need the above.
from . import byop1, galaxies, global_warming, pack_solitaire, relativity  # noqa: E402,F401
