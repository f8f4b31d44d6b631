"""The options of a slash command (or autocomplete) checked against the command's published
definition, before discord.py reads them: what Discord itself guarantees (types, ranges,
choices, lengths, resolved users), so that a buggy client or a proxy meets a plain refusal
rather than a crash in a command. Problems are told in words a player understands and name
the option, never its value (which may be a secret move)."""

from __future__ import annotations

import math
import re
from typing import Any, Mapping

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SUBCOMMAND, GROUP = 1, 2
LARGEST = 2 ** 53          # Discord's bound on integer and number options
TEXT_LIMIT = 6000          # Discord's longest string option
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
# where each kind of snowflake option finds its object in the interaction's "resolved"
RESOLVED_IN = {USER: ("users",), CHANNEL: ("channels",), ROLE: ("roles",),
               MENTIONABLE: ("users", "roles"), ATTACHMENT: ("attachments",)}
WHAT = {STRING: "text", INTEGER: "a whole number", NUMBER: "a number", BOOLEAN: "true or false",
        USER: "a user", CHANNEL: "a channel", ROLE: "a role", MENTIONABLE: "a user or a role",
        ATTACHMENT: "a file"}


def problem(definition: Mapping, data: Mapping, *, autocomplete: bool) -> str | None:
    """What is wrong with the options of `data` (an interaction's data) for the command
    `definition` (its dict as published), or None. In autocomplete, one option is being typed:
    it is text, and required options may be missing."""
    resolved = data.get("resolved") or {}
    if not isinstance(resolved, Mapping):
        return "its users cannot be read"
    found = _problem(definition, data.get("options"), resolved, autocomplete)
    if found is None and autocomplete and _focused(data.get("options")) != 1:
        return "no option is being typed"
    return found


def _focused(given: Any) -> int:
    if not isinstance(given, list):
        return 0
    return sum(_focused(o.get("options")) if o.get("type") in (SUBCOMMAND, GROUP) else bool(o.get("focused"))
               for o in given if isinstance(o, Mapping))


def _problem(definition: Mapping, given: Any, resolved: Mapping, autocomplete: bool) -> str | None:
    given = [] if given is None else given
    if not isinstance(given, list) or not all(isinstance(o, Mapping) for o in given):
        return "its options cannot be read"
    declared = {o["name"]: o for o in definition.get("options") or []}
    names = [o.get("name") for o in given]
    for option in given:
        name = option.get("name")
        if not isinstance(name, str) or name not in declared:
            return "it has an option this command does not have"
        if names.count(name) > 1:
            return f"`{name}` is given twice"
        spec = declared[name]
        if option.get("type") != spec["type"]:
            return f"`{name}` should be {WHAT.get(spec['type'], 'something else')}"
        if spec["type"] in (SUBCOMMAND, GROUP):
            return _problem(spec, option.get("options"), resolved, autocomplete)
        found = _value_problem(spec, option, resolved, autocomplete)
        if found:
            return found
    if declared and all(o["type"] in (SUBCOMMAND, GROUP) for o in declared.values()):
        return "its subcommand is missing"
    if not autocomplete:
        missing = [n for n, o in declared.items() if o.get("required") and n not in names]
        if missing:
            return f"`{missing[0]}` is missing"
    return None


def _value_problem(spec: Mapping, option: Mapping, resolved: Mapping, autocomplete: bool) -> str | None:
    name, kind, value = spec["name"], spec["type"], option.get("value")
    if option.get("focused"):
        # what the player has typed so far, always text; only where suggestions are offered
        if not (autocomplete and spec.get("autocomplete")):
            return f"`{name}` has no suggestions"
        return None if isinstance(value, str) and len(value) <= TEXT_LIMIT else f"`{name}` cannot be read"
    should = f"`{name}` should be {WHAT.get(kind, 'something else')}"
    if kind == STRING:
        if not isinstance(value, str):
            return should
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", TEXT_LIMIT):
            return f"`{name}` is too long or too short"
    elif kind in (INTEGER, NUMBER):
        number = (int,) if kind == INTEGER else (int, float)
        if isinstance(value, bool) or not isinstance(value, number) or \
                (isinstance(value, float) and not math.isfinite(value)):
            return should
        low, high = spec.get("min_value", -LARGEST), spec.get("max_value", LARGEST)
        if not max(low, -LARGEST) <= value <= min(high, LARGEST):
            return f"`{name}` should be from {low} to {high}" if "min_value" in spec or "max_value" in spec \
                else f"`{name}` is too large"
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            return should
    elif kind in RESOLVED_IN:
        # a snowflake (as text) of something Discord resolved for us (autocomplete comes
        # without the resolved objects)
        if not isinstance(value, str) or not SNOWFLAKE.fullmatch(value) or int(value) >= 2 ** 64:
            return should
        if not autocomplete and not any(isinstance(resolved.get(where), Mapping) and value in resolved[where]
                                        for where in RESOLVED_IN[kind]):
            return should
    else:
        return should
    choices = spec.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        return f"`{name}` should be one of its choices"
    return None
