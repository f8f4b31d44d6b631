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


def test_lines_are_packed_within_a_messages_length_and_pings():
    lines = ["Head"] + [f"Table {n}: <@{1000 + n}> vs <@{2000 + n}>" for n in range(1, 80)]
    parts = texts.pack_lines(lines, limit=300, most_mentions=10)
    assert "\n".join(parts).splitlines() == lines   # every line, in order, none split
    assert all(len(p) <= 300 and len(texts.MENTION.findall(p)) <= 10 for p in parts)
    assert len(parts) == 16   # (five tables to a post: ten pings; the head fits in the first)
    # A line over the limit alone is split between words, under both limits.
    long = "Everyone: " + ", ".join(f"<@{n}>" for n in range(100, 135))
    parts = texts.pack_lines(["Head", long], limit=100, most_mentions=4)
    assert parts[0].startswith("Head\nEveryone: <@100>") and " ".join(parts) == "Head\n" + long
    assert all(len(p) <= 100 and len(texts.MENTION.findall(p)) <= 4 for p in parts)
    assert texts.pack_lines(["x" * 250], limit=100) == ["x" * 100, "x" * 100, "x" * 50]
    assert texts.pack_lines([]) == [] and texts.pack_lines(["", "a"]) == ["\na"]
