"""Buttons and select menus. Each is a discord.py DynamicItem whose custom_id carries the game id
(and whatever else it needs), so it holds no state and works after a restart. Callbacks hand over
to the bot's controller (bot.commands.Controller).

Control specs (plain lists, see bot.ui) are turned into components by `build_view`.

A component's label, action and custom_id may show a player's secret choice, and discord.py
puts an item's repr in its log when a callback fails: our items' reprs show the game id only.
"""

from __future__ import annotations

import logging
from typing import Callable

import discord
from discord.ui import Button, DynamicItem, Select

from .errors import UserError

log = logging.getLogger(__name__)

# kind of spec -> function(spec args) -> discord.ui.Item
BUILDERS: dict[str, Callable[..., discord.ui.Item]] = {}
DYNAMIC_ITEMS: list[type] = []


async def _not_here(self, interaction) -> bool:
    return False


def builds(kind: str, phases: tuple[str, ...] = ("active",)):
    """Register a component class for control specs of `kind`, made for games in `phases`
    (see out_of_phase)."""
    def register(cls):
        BUILDERS[kind] = cls.from_spec
        DYNAMIC_ITEMS.append(cls)
        cls.__item_repr_attributes__ = ("game_id",)
        cls.interaction_check = _not_here   # see Controls
        cls.phases = phases
        return cls
    return register


# ---- controls act only where they were made -------------------------------------------------
# A custom_id names a game, but a client (or proxy) can send any custom_id from any message:
# the controller (component_used) checks each press against the pressed message and the phase
# of the game before the control's callback runs.

# A game's phases in order: a lobby or a rematch request, then play, then its end.
PHASE_ORDER = {"lobby": 0, "rematch request": 0, "active": 1, "finished": 2, "cancelled": 2}


def phase(row, is_rematch: bool) -> str:
    """The phase of game `row`: a rematch request (a lobby row of a rematch) is not a lobby."""
    return "rematch request" if row.status == "lobby" and is_rematch else row.status


def out_of_phase(item, phase_: str) -> bool:
    """Whether `item`, made for games in `item.phases`, must not act on a game in `phase_`: one
    not come to those phases yet, or another of the same rank (a rematch request for a lobby
    button). A phase that has passed (a lobby started, a game over) is its handler's to
    explain, as for any control that has gone out of date."""
    phases = getattr(item, "phases", ("active",))
    return phase_ not in phases and PHASE_ORDER.get(phase_, 0) <= max(PHASE_ORDER[p] for p in phases)


def component_ids(message) -> set[str]:
    """The custom_ids of the components on `message` (a discord.Message), at any depth."""
    found: set[str] = set()
    stack = list(getattr(message, "components", None) or [])
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None):
            found.add(component.custom_id)
        stack += list(getattr(component, "children", None) or getattr(component, "components", None) or [])
        if getattr(component, "accessory", None) is not None:
            stack.append(component.accessory)
    return found


class Controls(discord.ui.View):
    """The components of one message. discord.py would run their callbacks itself for the
    messages it sent (and stay silent, or log an ERROR, on anything odd); instead every
    component interaction goes to the controller's single entry (bot.app's on_interaction),
    which answers each one."""

    def __init__(self):
        super().__init__(timeout=None)

    async def interaction_check(self, interaction) -> bool:
        return False

    async def on_error(self, interaction, error, item) -> None:
        log.debug("discord.py could not read component data: %r", error)


def first_value(interaction: discord.Interaction) -> str:
    """The option chosen in a menu (one per menu); a user's mistake when there is none."""
    values = values_of(interaction)
    if len(values) != 1 or not isinstance(values[0], str):
        raise UserError("Choose one option of the menu.")
    return values[0]


# Discord's limits on what a component shows.
BUTTON_LABEL, OPTION_TEXT, PLACEHOLDER, OPTIONS = 80, 100, 150, 25


def short(text: str | None, limit: int) -> str | None:
    return text if text is None or len(text) <= limit else text[:limit - 1] + "…"


def fit(item: discord.ui.Item) -> discord.ui.Item:
    """Clip what `item` shows to Discord's limits (every component passes here)."""
    inner = getattr(item, "item", item)   # a DynamicItem wraps its Button or Select
    if isinstance(inner, Button):
        inner.label = short(inner.label, BUTTON_LABEL)
    elif isinstance(inner, Select):
        inner.placeholder = short(inner.placeholder, PLACEHOLDER)
        options = inner.options[:OPTIONS]
        for option in options:
            option.label = short(option.label, OPTION_TEXT) or "-"
            option.description = short(option.description, OPTION_TEXT)
        inner.options = options
    return item


def build_view(specs: list[list] | None) -> discord.ui.View | None:
    """The components of control specs, within Discord's limits; None for no controls."""
    if not specs:
        return None
    view = Controls()
    for spec in specs:
        try:
            view.add_item(fit(BUILDERS[spec[0]](*spec[1:])))
        except ValueError:   # no room left: Describe yields (/board text:true says the same)
            if spec[0] != "describe":
                raise
    return view


def values_of(interaction: discord.Interaction) -> list[str]:
    return list((interaction.data or {}).get("values", []))


def controller(interaction: discord.Interaction):
    return interaction.client.controller  # type: ignore[attr-defined]


class SourceMenu:
    """A menu of the pieces a player may move (on the public board); choosing one answers the
    player privately with the second step, where it may go. A game's menu mixes this in before
    `DynamicItem[Select]` (with its template `<id_prefix>:<gid>:<stamp>`) and says what the
    second step shows in `next_step`."""

    id_prefix = ""
    placeholder = ""
    menu_row: int | None = None

    def __init__(self, game_id: int, stamp_: str, options: list | None = None):
        select_options = [discord.SelectOption(label=label[:100], value=value)
                          for value, label in options or []] or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"{self.id_prefix}:{game_id}:{stamp_}", options=select_options,  # type: ignore[call-arg]
                                placeholder=self.placeholder, row=self.menu_row))
        self.game_id, self.stamp = game_id, stamp_

    @classmethod
    def from_spec(cls, game_id, stamp_, options):
        return cls(int(game_id), stamp_, options)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"])

    def next_step(self, value: str) -> Callable:
        """(row, game, state, player) -> (text, control specs) for the chosen piece; raises
        UserError when it cannot move now."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction):
        step = self.next_step(first_value(interaction))
        await controller(interaction).adapter_step(interaction, self.game_id, self.stamp, step,
                                                   new_message=True)


class DestinationMenu:
    """The second step of a `SourceMenu`: where the chosen piece at `src` goes (page `n` of
    at most five); choosing plays `src>dst`. A game's menu mixes this in before
    `DynamicItem[Select]`, with its template `<id_prefix>:<gid>:<stamp>:<src>:<n>`."""

    id_prefix = ""
    placeholder = ""

    def __init__(self, game_id: int, stamp_: str, src: str, n: int, dests: list | None = None):
        # each destination: "x,y", or [value, label]
        pairs = [(d, d) if isinstance(d, str) else tuple(d) for d in dests or []]
        select_options = [discord.SelectOption(label=label[:100], value=value)
                          for value, label in pairs] or [discord.SelectOption(label="-")]
        super().__init__(Select(custom_id=f"{self.id_prefix}:{game_id}:{stamp_}:{src}:{n}",  # type: ignore[call-arg]
                                options=select_options,
                                placeholder=self.placeholder + (f" (more, {n + 1})" if n else "")))
        self.game_id, self.stamp, self.src = game_id, stamp_, src

    @classmethod
    def from_spec(cls, game_id, stamp_, src, n, dests):
        return cls(int(game_id), stamp_, src, int(n), dests)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], match["src"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction):
        dst = first_value(interaction)
        await controller(interaction).action_chosen(
            interaction, self.game_id, f"{self.src}>{dst}", self.stamp, edit=True)


# Buttons with a fixed operation on a game: kind -> op -> (label, style).
_OPS = {
    "lobby": {
        "join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "cancel": ("Cancel", discord.ButtonStyle.danger),
        "cpu-easy": ("Add computer (easy)", discord.ButtonStyle.secondary),
        "cpu-strong": ("Add computer (strong)", discord.ButtonStyle.secondary),
        "cpu-remove": ("Remove a computer", discord.ButtonStyle.secondary),
    },
    "draw": {  # the answers to a standing draw offer
        "accept": ("Accept the draw", discord.ButtonStyle.success),
        "decline": ("Decline", discord.ButtonStyle.secondary),
    },
}


class OpButton(DynamicItem[Button],
               template=r"pp:(?P<kind>lobby|draw):(?P<gid>\d+):(?P<op>join|leave|start|cancel|cpu-easy|cpu-strong|cpu-remove|accept|decline)"):
    """The lobby's Join, Leave, Start and Cancel; a draw offer's Accept and Decline."""

    def __init__(self, kind: str, game_id: int, op: str):
        label, style = _OPS[kind][op]
        super().__init__(Button(label=label, style=style, custom_id=f"pp:{kind}:{game_id}:{op}"))
        self.kind, self.game_id, self.op = kind, game_id, op
        self.phases = ("lobby",) if kind == "lobby" else ("active",)   # (a draw offer's: play)

    interaction_check = _not_here

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        if match["op"] not in _OPS[match["kind"]]:
            raise UserError("Those buttons are not in use any more.")
        return cls(match["kind"], int(match["gid"]), match["op"])

    async def callback(self, interaction):
        handlers = controller(interaction)
        press = handlers.lobby_pressed if self.kind == "lobby" else handlers.draw_pressed
        await press(interaction, self.game_id, self.op)


OpButton.__item_repr_attributes__ = ("game_id",)
DYNAMIC_ITEMS.append(OpButton)
for _kind in _OPS:
    BUILDERS[_kind] = lambda game_id, op, _kind=_kind: OpButton(_kind, int(game_id), op)


@builds("act")
class ActButton(DynamicItem[Button], template=r"pp:act:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<action>.+)"):
    """Apply one action of the presser (its text is in the custom_id)."""

    def __init__(self, game_id: int, stamp: str, action: str, label: str | None = None):
        super().__init__(Button(label=(label or action)[:80], style=discord.ButtonStyle.secondary,
                                custom_id=f"pp:act:{game_id}:{stamp}:{action}"))
        self.game_id, self.stamp, self.action = game_id, stamp, action

    @classmethod
    def from_spec(cls, game_id, stamp, action, label=None):
        return cls(int(game_id), stamp, action, label)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], match["action"], getattr(item, "label", None))

    async def callback(self, interaction):
        await controller(interaction).action_chosen(interaction, self.game_id, self.action, self.stamp)


@builds("sec")
class SecretButton(DynamicItem[Button],
                   template=r"pp:sec:(?P<gid>\d+):(?P<round>\d+):(?P<stamp>[0-9a-f]{8}):(?P<action>.+)"):
    """A secret choice of the presser in one round (a turn) of a secret phase; the current
    choice is highlighted."""

    def __init__(self, game_id: int, round_: int, stamp: str, action: str, label: str | None = None,
                 chosen: bool = False):
        style = discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary
        super().__init__(Button(label=(label or action)[:80], style=style,
                                custom_id=f"pp:sec:{game_id}:{round_}:{stamp}:{action}"))
        self.game_id, self.round, self.stamp, self.action = game_id, round_, stamp, action

    @classmethod
    def from_spec(cls, game_id, round_, stamp, action, label=None, chosen=False):
        return cls(int(game_id), int(round_), stamp, action, label, chosen)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), int(match["round"]), match["stamp"], match["action"],
                   getattr(item, "label", None))

    async def callback(self, interaction):
        await controller(interaction).secret_chosen(interaction, self.game_id, self.round,
                                                    self.action, self.stamp)


@builds("pick")
class PickSelect(DynamicItem[Select], template=r"pp:pick:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<n>\d+)"):
    """A menu of the presser's actions (one of up to five pages of 25)."""

    def __init__(self, game_id: int, stamp: str, n: int, actions: list[str] | None = None,
                 labels: list[str] | None = None, placeholder: str | None = None):
        actions = actions or []
        labels = labels or actions
        options = [discord.SelectOption(label=label[:100], value=action)
                   for action, label in zip(actions, labels)] or [discord.SelectOption(label="-")]
        if placeholder is None:   # (specs stored before pages said their range)
            placeholder = "Choose your move" if n == 0 else f"Moves {n * 25 + 1}-{n * 25 + len(actions)}"
        super().__init__(Select(custom_id=f"pp:pick:{game_id}:{stamp}:{n}", options=options,
                                placeholder=placeholder))
        self.game_id, self.stamp = game_id, stamp

    @classmethod
    def from_spec(cls, game_id, stamp, n, actions, labels=None, placeholder=None):
        return cls(int(game_id), stamp, int(n), actions, labels, placeholder)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], int(match["n"]))

    async def callback(self, interaction):
        await controller(interaction).action_chosen(interaction, self.game_id, first_value(interaction),
                                                    self.stamp)


@builds("mine")
class MineButton(DynamicItem[Button], template=r"pp:mine:(?P<gid>\d+)"):
    """Open the presser's own choices as an ephemeral message (the DM fallback, too)."""

    def __init__(self, game_id: int, label: str = "Open my private controls"):
        super().__init__(Button(label=label[:80], style=discord.ButtonStyle.primary,
                                custom_id=f"pp:mine:{game_id}"))
        self.game_id = game_id

    @classmethod
    def from_spec(cls, game_id, label="Open my private controls"):
        return cls(int(game_id), label)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), getattr(item, "label", None) or "Open my private controls")

    async def callback(self, interaction):
        await controller(interaction).open_controls(interaction, self.game_id)


_STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
           "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


@builds("pb")
class PrivateBoardButton(DynamicItem[Button],
                         template=r"pp:pb:(?P<gid>\d+):(?P<stamp>[0-9a-f]{8}):(?P<action>.+)"):
    """A move on the presser's own private board; the message holding it is updated in place
    with the new board. The action `!x` is `x` confirmed; `~` shows the board again."""

    def __init__(self, game_id: int, stamp: str, action: str, label: str | None = None,
                 style: str = "secondary", disabled: bool = False):
        super().__init__(Button(label=(label or action)[:80], style=_STYLES[style],
                                disabled=disabled, custom_id=f"pp:pb:{game_id}:{stamp}:{action}"))
        self.game_id, self.stamp, self.action = game_id, stamp, action

    @classmethod
    def from_spec(cls, game_id, stamp, action, label=None, style="secondary", disabled=False):
        return cls(int(game_id), stamp, action, label, style, disabled)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["stamp"], match["action"], getattr(item, "label", None))

    async def callback(self, interaction):
        await controller(interaction).private_pressed(interaction, self.game_id, self.action,
                                                      self.stamp)

