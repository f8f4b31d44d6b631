"""Global Warming's easy computer player (issue 24: a gentle but real opponent, clearly better
than random): it takes its own pawn to safety, acts late when a push could hurt it, pushes
another pawn toward danger when it can, and wins most games against random players."""

from __future__ import annotations

from functools import partial

import computer
from benchmarks import bench_computer as bench
from computer.global_warming import EasyGlobalWarming
from computer.global_warming_board import Board
from engine import Rng
from engine.global_warming import DIRECTIONS

COLOURS = {"ann": "red", "bob": "black"}


def board(tiles: dict, pawns: dict, now: dict) -> Board:
    """`tiles` {position: code}, `now` {code: chance it sinks this turn}."""
    return Board(tiles, pawns, COLOURS, [now, {}])


def walked(b: Board, text: str) -> dict:
    """Where the pawns stand after the steps `text`."""
    owner = {colour: player for player, colour in COLOURS.items()}
    pawns = dict(b.pawns)
    for step in text.split(", "):
        colour, direction = step.split()
        x, y = pawns[owner[colour]]
        dx, dy = DIRECTIONS[direction]
        pawns[owner[colour]] = (x + dx, y + dy)
        assert pawns[owner[colour]] in b.tiles and len(set(pawns.values())) == len(pawns)
    return pawns


def test_easy_walks_off_a_sinking_tile_and_pushes_another_pawn_onto_it():
    # Two rows of three; ann's tile (the 3 of Suns) sinks this turn, bob stands above it.
    tiles = {(1, 1): "Sn", (2, 1): "S3", (3, 1): "Sa", (1, 2): "Mn", (2, 2): "M3", (3, 2): "Ma"}
    b = board(tiles, {"ann": (2, 1), "bob": (2, 2)}, {"S3": 1.0})
    for seed in range(10):
        pawns = walked(b, EasyGlobalWarming(seed).steps(b, "ann", 2, Rng(seed), later=False))
        assert pawns["ann"] != (2, 1) and pawns["bob"] == (2, 1)
        # Without pushes (strong's look at a draw offer) it only walks away.
        gentle = EasyGlobalWarming(seed, pushes=False)
        pawns = walked(b, gentle.steps(b, "ann", 2, Rng(seed), later=False))
        assert pawns["ann"] != (2, 1) and pawns["bob"] == (2, 2)


def test_easy_picks_the_face_that_takes_it_to_safety_and_acts_late():
    # ann at the end of a row of three: her tile and the next may sink, the far one not. Two
    # or four steps reach it; the 2 acts later than the 4 (bob, alone on an islet, could
    # otherwise push her back first). Any other face leaves her where she may sink.
    tiles = {(1, 1): "S3", (2, 1): "M3", (3, 1): "C5", (6, 6): "A5"}
    b = board(tiles, {"ann": (1, 1), "bob": (6, 6)}, {"S3": 0.5, "M3": 0.5})
    player = EasyGlobalWarming(0)
    faces = [player.face(b, "ann", Rng(seed)) for seed in range(100)]
    # Four faces in five by judgement, the rest any face at all (a sixth of them a 2 too).
    assert 75 <= faces.count("2") <= 95, faces


def test_easy_wins_most_games_against_random_players():
    # Four players: easy against three that pick uniformly among the legal actions, each deal
    # played with easy in every seat. A fair share is 12 of 48; this easy wins 26, the one
    # before it (a face at random unless its tile might sink, no pushes) won 17.
    easy = ("easy", partial(computer.get_player, "global-warming", "easy"))
    deals = [bench.play_deal("global-warming", 4, easy, ("random", None), seed)[0]
             for seed in range(6000, 6012)]
    games = [result for deal in deals for result, _, _ in deal]
    assert len(games) == 48 and games.count("W") >= 22, games
