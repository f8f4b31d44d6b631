"""Tournament standings (issue 25): points and tiebreaks against hand calculations, the channel
text, and the standings image and its alt text."""

from __future__ import annotations

import re

import pytest

from bot.tournaments import (Result, Standing, best_possible_note, standings, standings_table,
                             standings_text, table_points, tiebreak_names)
from render.standings import standings_alt, standings_svg
from render.svg import svg_size, svg_to_png
from tests.test_render_legibility import MIN_PX, text_sizes

A, B, C, D, E = "111", "222", "333", "444", "555"
NAMES = {A: "Ann", B: "Bob", C: "Cy", D: "Dee", E: "Eve"}


def win(number, first, second, score=1.0, forfeit=()):
    """`first` scores `score` against `second` (1 a win, 0.5 a draw, 0 a loss)."""
    return Result(number, (first, second), {first: score, second: 1.0 - score}, forfeit)


def summary(rows: list[Standing]):
    return [(s.place, s.entrant, s.points, s.tiebreaks, s.played, s.byes, s.withdrawn)
            for s in rows]


def test_swiss_points_buchholz_and_sonneborn_berger_by_hand():
    # Round 1: Ann beats Bob; Cy and Dee draw; Eve has the bye.
    # Round 2: Cy beats Ann; Eve beats Bob; Dee has the bye.
    # Round 3: Cy and Eve draw; Dee beats Ann by forfeit (Ann withdrew); Bob has the bye.
    results = [
        win(1, A, B), win(1, C, D, 0.5),
        win(2, A, C, 0.0), win(2, E, B),
        win(3, C, E, 0.5), win(3, D, A, forfeit=(A,)),
    ]
    byes = [E, D, B]
    # Points (a bye is a win, 1):  Ann 1+0+0 = 1     Bob 0+0+bye = 1     Cy .5+1+.5 = 2
    #                              Dee .5+bye+1 = 2.5                    Eve bye+1+.5 = 2.5
    # Buchholz (opponents' final points; a bye adds 0; the forfeit counts its real opponent):
    #   Ann: Bob 1 + Cy 2 + Dee 2.5 = 5.5   Bob: Ann 1 + Eve 2.5 = 3.5
    #   Cy: Dee 2.5 + Ann 1 + Eve 2.5 = 6   Dee: Cy 2 + Ann 1 = 3   Eve: Bob 1 + Cy 2 = 3
    # Sonneborn-Berger (opponent's points x what was scored against them):
    #   Ann: Bob 1x1 + Cy 2x0 + Dee 2.5x0 = 1          Bob: 0
    #   Cy: Dee 2.5x.5 + Ann 1x1 + Eve 2.5x.5 = 3.5     Dee: Cy 2x.5 + Ann 1x1 = 2
    #   Eve: Bob 1x1 + Cy 2x.5 = 2
    # Dee and Eve are level on everything: both 1st. Then Cy 3rd; Ann (Buchholz 5.5) 4th over Bob.
    rows = standings("swiss", [A, B, C, D, E], [A], results, byes)
    assert summary(rows) == [
        (1, D, 2.5, (3.0, 2.0), 2, 1, False),
        (1, E, 2.5, (3.0, 2.0), 2, 1, False),
        (3, C, 2.0, (6.0, 3.5), 3, 0, False),
        (4, A, 1.0, (5.5, 1.0), 3, 0, True),
        (5, B, 1.0, (3.5, 0.0), 2, 1, False),
    ]
    assert tiebreak_names("swiss") == ("Buchholz", "Sonneborn-Berger")
    # half a point for a bye instead changes the points, not who the opponents were
    half = {s.entrant: s.points for s in standings("swiss", [A, B, C, D, E], [A], results,
                                                   byes, bye_points=0.5)}
    assert half == {A: 1.0, B: 0.5, C: 2.0, D: 2.0, E: 2.0}


def test_round_robin_head_to_head_then_wins_by_hand():
    results = [
        win(1, A, B, 0.5), win(1, C, D, 0.5),
        win(2, A, C), win(2, B, D, 0.5),
        win(3, A, D), win(3, B, C, 0.5),
        win(4, E, A), win(4, B, E),
        win(5, C, E, 0.0), win(5, D, E, 0.0),
    ]
    # Points: Ann .5+1+1+0 = 2.5 (2 wins)   Bob .5+.5+.5+1 = 2.5 (1 win)   Cy .5+0+.5+0 = 1
    #         Dee .5+.5+0+0 = 1             Eve 1+0+1+1 = 3
    # Ann and Bob drew each other: head-to-head .5 each; Ann won 2 games, Bob 1: Ann first.
    # Cy and Dee drew each other (.5 each), neither won a game: they share 4th.
    # Byes (everyone had one) score nothing in a round robin.
    rows = standings("round-robin", [A, B, C, D, E], [], results, [E, D, C, B, A])
    assert summary(rows) == [
        (1, E, 3.0, (0.0, 3.0), 4, 1, False),
        (2, A, 2.5, (0.5, 2.0), 4, 1, False),
        (3, B, 2.5, (0.5, 1.0), 4, 1, False),
        (4, C, 1.0, (0.5, 0.0), 4, 1, False),
        (4, D, 1.0, (0.5, 0.0), 4, 1, False),
    ]
    # head-to-head comes before wins: Bob beat Ann, and now leads her though she won more
    flipped = [win(1, A, B, 0.0) if r.round == 1 and A in r.seats else r for r in results]
    flipped = [win(5, C, E, 0.5) if r.round == 5 and C in r.seats else r for r in flipped]
    rows = standings("round-robin", [A, B, C, D, E], [], flipped + [win(6, A, D)], [])
    order = [s.entrant for s in rows]
    assert order.index(B) < order.index(A)
    assert tiebreak_names("round-robin") == ("Head-to-head", "Wins")


def test_table_points_by_finishing_place():
    # one point for every entrant finished ahead of; shared places split
    assert table_points({A: 10, B: 7, C: 5, D: 2}) == {A: 3.0, B: 2.0, C: 1.0, D: 0.0}
    assert table_points({A: 10, B: 7, C: 7, D: 2}) == {A: 3.0, B: 1.5, C: 1.5, D: 0.0}
    assert table_points({A: 4, B: 9, C: 1}) == {A: 1.0, B: 2.0, C: 0.0}
    # whoever forfeited is last, whatever the score said
    assert table_points({A: 10, B: 7, C: 3}, forfeit=(A,)) == {A: 0.0, B: 2.0, C: 1.0}


def test_tables_points_then_first_places():
    results = [
        Result(1, (A, B, C, D), table_points({A: 9, B: 6, C: 3, D: 1})),  # A 3, B 2, C 1, D 0
        Result(2, (B, A, D, C), table_points({B: 9, A: 1, D: 6, C: 3})),  # B 3, D 2, C 1, A 0
    ]
    # Ann 3, Bob 5, Cy 2, Dee 2; Ann 1 first place, Bob 1. Cy and Dee share 3rd (no wins).
    rows = standings("tables", [A, B, C, D], [], results, [])
    assert summary(rows) == [
        (1, B, 5.0, (1.0,), 2, 0, False),
        (2, A, 3.0, (1.0,), 2, 0, False),
        (3, C, 2.0, (0.0,), 2, 0, False),
        (3, D, 2.0, (0.0,), 2, 0, False),
    ]


def test_duplicate_summed_score_then_best_deal():
    results = [Result(1, (A,), {A: 30}), Result(1, (B,), {B: 20}), Result(1, (C,), {C: 25}),
               Result(2, (A,), {A: 10}), Result(2, (B,), {B: 20}), Result(2, (C,), {C: 15})]
    # Ann 40 (best 30), Bob 40 (best 20), Cy 40 (best 25): best single deal decides
    rows = standings("duplicate", [A, B, C], [], results, [])
    assert [(s.place, s.entrant, s.points, s.tiebreaks) for s in rows] == [
        (1, A, 40.0, (30.0,)), (2, C, 40.0, (25.0,)), (3, B, 40.0, (20.0,))]


def test_entrant_without_games_is_listed_and_bad_format_refused():
    rows = standings("swiss", [A, B], [], [], [])
    assert [(s.place, s.points, s.played) for s in rows] == [(1, 0.0, 0), (1, 0.0, 0)]
    with pytest.raises(ValueError):
        standings("knockout", [A], [], [], [])


def big_field(n: int = 64):
    people = [str(10**17 + i) for i in range(n)]
    results = [win(1, people[i], people[i + 1], 0.5 if i % 4 else 1.0) for i in range(0, n - 1, 2)]
    names = {p: f"`A really long display name number {i}`**" for i, p in enumerate(people)}
    return people, results, names


def test_standings_text_fits_a_discord_message():
    rows = standings("swiss", [A, B, C, D, E], [B], [win(1, A, B), win(1, C, D, 0.5)], [E])
    text = standings_text("swiss", rows, NAMES)
    lines = text.splitlines()
    assert lines[0] == "```" and lines[-1] == "```"
    assert lines[1].split() == ["#", "Player", "Pts", "Buch", "SB", "GP", "Bye"]
    assert lines[2].split()[:3] == ["1", "Ann", "1"]
    assert "Bob †" in text
    assert lines[-3:] == ["Buch Buchholz, SB Sonneborn-Berger",
                          "GP games played, Bye byes, † withdrawn", "```"]
    # a big field: still one message, the code block closed, the rest counted
    people, results, names = big_field()
    rows = standings("swiss", people, [], results, [])
    text = standings_text("swiss", rows, names)
    assert len(text) <= 2000 and text.startswith("```") and text.endswith("```")
    assert text.count("`") == 6  # a backtick in a name cannot close the block
    shown = len(text.splitlines()) - 6  # the fences, the heads, the note on the rest, 2 legends
    assert re.search(rf"… and {64 - shown} more", text)
    assert all(len(line) <= 40 for line in text.splitlines())  # a phone's width


def test_standings_image_and_alt_text():
    rows = standings("swiss", [A, B, C, D, E], [B], [win(1, A, B), win(1, C, D, 0.5)], [E])
    names = dict(NAMES, **{C: "<Cy & co>"})
    columns, table = standings_table("swiss", rows, names)
    assert columns == ["#", "Player", "Pts", "Buch", "SB", "Games", "Byes"]
    assert table[0] == ["1", "Ann", "1", "0", "0", "1", "0"]
    assert ["Bob (withdrawn)"] == [row[1] for row in table if "withdrawn" in row[1]]
    svg = standings_svg("Swiss, after round 1", columns, table, highlight={0})
    assert "&lt;Cy &amp; co&gt;" in svg and "<Cy" not in svg
    # medals for the top three places (shared ones too), the highlight on the asked rows
    places = [row[0] for row in table]
    assert re.findall(r'data-place="(\d)"', svg) == [p for p in places if p in "123"]
    assert svg.count('class="highlight"') == 1
    width, height = svg_size(svg)
    png = svg_to_png(svg)
    assert png.startswith(b"\x89PNG") and width == 560 and height > 36 * len(table)
    alt = standings_alt("Swiss, after round 1", columns, table)
    assert alt.startswith("Swiss, after round 1. 1, Ann: Pts 1, Buch 0, SB 0, Games 1, Byes 0.")
    assert "Cy & co" in alt and "<" not in alt


def test_alt_text_of_a_big_field_stays_short():
    people, results, names = big_field()
    rows = standings("swiss", people, [], results, [])
    columns, table = standings_table("swiss", rows, names)
    alt = standings_alt("Swiss: Galaxies, after round 1", columns, table)
    assert len(alt) <= 1000 and "`" not in alt and "*" not in alt
    listed = alt.count(": Pts ")
    assert 3 < listed < 64 and alt.endswith(f"And {64 - listed} more.")
    svg = standings_svg("Swiss: Galaxies, after round 1", columns, table, set())
    assert svg.count('class="name"') == 64 and svg_to_png(svg, width=400).startswith(b"\x89PNG")


def test_best_possible_note_in_text_image_and_alt():
    results = [Result(1, (A,), {A: 40}), Result(1, (B,), {B: 44})]
    rows = standings("duplicate", [A, B], [], results, [])
    note = best_possible_note({2: 52, 1: 48})
    assert note == "Best possible: round 1 48, round 2 52"
    text = standings_text("duplicate", rows, NAMES, note=note)
    assert text.splitlines()[-2] == note and text.endswith("```")
    columns, table = standings_table("duplicate", rows, NAMES)
    assert columns == ["#", "Player", "Pts", "Best", "Games"] and table[0][:3] == ["1", "Bob", "44"]
    title = "Pack Solitaire duplicate tournament: after round 1 of 3"
    assert 'class="note"' in standings_svg(title, columns, table, note=note)
    alt = standings_alt(title, columns, table, note=note)
    assert alt.startswith(f"{title}. {note}. 1, Bob: Pts 44, Best 44, Games 1.")


def test_standings_image_is_legible_at_the_preview_width():
    # the boards' rule (tests/test_render_legibility.py): no text under 11 px at 400 px wide
    people, results, names = big_field(12)
    rows = standings("swiss", people, [people[0]], results, [])
    columns, table = standings_table("swiss", rows, names)
    svg = standings_svg("Swiss: Relativity, after round 1", columns, table, {0},
                        note=best_possible_note({1: 50}))
    size, content = min(text_sizes(svg))
    assert size >= MIN_PX, f"{content!r} is {size:.1f} px tall"
