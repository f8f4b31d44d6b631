"""Every game's rules text (/rules) reads as a player's text: the authors credited, our rulings
marked as ours, no developer syntax, and each message within Discord's limits."""

from __future__ import annotations

import re

import pytest

import engine
from bot import texts

DISCORD_MESSAGE = 2000
# What a player should never meet in rules: option dictionaries, notation of the code, JSON.
DEVELOPER_SYNTAX = [r"options\s*=", r"[{}]", r"\bPPN\b", r"\bJSON\b", r"\bstate\b", r"\[\"",
                    r"\bNone\b", r"\bTrue\b", r"players\[\d\]"]


@pytest.mark.parametrize("name", engine.game_names())
def test_rules_read_as_a_players_text(name):
    rules = engine.get_game(name).rules
    for pattern in DEVELOPER_SYNTAX:
        assert not re.search(pattern, rules), f"{name}: {pattern} in the rules"
    opening = rules[:400]
    assert re.search(r"\bby [A-Z]", opening), f"{name}: the authors are not credited at the top"
    assert re.search(r"our rulings?\b|\bours\b", rules, re.I), f"{name}: no rulings of ours"


@pytest.mark.parametrize("name", engine.game_names())
def test_rules_and_help_fit_discords_messages(name):
    parts = texts.chunks(engine.get_game(name).rules)
    assert parts and all(0 < len(part) <= DISCORD_MESSAGE for part in parts)
    assert len(texts.HELP) <= DISCORD_MESSAGE


def test_relativity_sets_a_trophy_aside_only_when_one_is_left():
    rules = engine.get_game("relativity").rules
    assert "a sixth is set aside" not in rules
    assert "If one trophy is then left, it is set aside" in rules
    assert "fifth and sixth together, and then both count" in rules
