"""`python -m render GAME`: any position (moves, options, viewer, seed, players); a bad argument
is one line on stderr and exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import engine
import render
from render.__main__ import main

ROOT = Path(__file__).resolve().parents[1]


def drawn(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_moves_are_made_by_the_players_the_game_waits_for(tmp_path, capsys):
    game = engine.get_game("relativity")
    players = ["Player 1", "Player 2"]
    state = game.new_game(players, seed=5)
    moves = []
    for _ in range(3):
        player = game.to_act(state)[0]
        move = str(game.legal_actions(state, player)[3])
        moves.append(move)
        state = game.apply(state, player, move)
    out = tmp_path / "r.svg"
    assert main(["relativity", "--seed", "5", "--moves", "; ".join(moves), "--svg",
                 "--out", str(out)]) == 0
    assert drawn(out) == render.render_svg(game.view(state, None))
    assert capsys.readouterr().out.strip() == f"wrote {out}"


def test_secret_choices_fill_the_waiting_players_in_seat_order(tmp_path):
    game = engine.get_game("global-warming")
    players = ["Player 1", "Player 2", "Player 3"]
    state = game.new_game(players, seed=2, options={"variant": "diagonal"})
    for player, face in zip(players, ["3", "n", "5"]):
        state = game.apply(state, player, face)
    state = game.apply(state, "Player 2", "pass")   # null acts first
    out = tmp_path / "g.svg"
    assert main(["global-warming", "--players", "3", "--seed", "2", "--options",
                 "variant=diagonal", "--moves", "3; n; 5; pass", "--viewer", "2", "--svg",
                 "--out", str(out)]) == 0
    assert drawn(out) == render.render_svg(game.view(state, "Player 2"))
    assert 'data-phase="act"' in drawn(out)


def test_a_png_is_written_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["relativity", "--width", "400"]) == 0
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args, message", [
    (["chess"], "invalid choice: 'chess'"),
    (["relativity", "--seed", "x"], "invalid int value"),
    (["relativity", "--players", "3"], "exactly 2 players"),
    (["relativity", "--options", "layouts"], "key=value"),
    (["relativity", "--options", "colour=blue"], "Unknown Relativity option"),
    (["relativity", "--moves", "a1#zz"], "move 1 ('a1#zz') by Player 1"),
    (["relativity", "--viewer", "3"], "--viewer must be a seat number from 1 to 2"),
    (["relativity", "--out", "/nonexistent-dir/b.png"], "cannot write /nonexistent-dir/b.png"),
    (["global-warming", "--options", "variant=sideways"], "variant"),
    (["relativity", "--width", "0"], "--width"),
])
def test_bad_arguments_get_one_line(args, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not (tmp_path / "board.png").exists()


def test_as_a_program(tmp_path):
    done = subprocess.run([sys.executable, "-m", "render", "relativity", "--moves", "b7#c7"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("python -m render: error: move 1") and done.stderr.count("\n") == 1


def test_palette_picks_the_colours(tmp_path, capsys):
    game = engine.get_game("global-warming")
    view = game.view(game.new_game([f"Player {i}" for i in range(1, 5)], seed=1), None)
    out = tmp_path / "gw.svg"
    assert main(["global-warming", "--palette", "colour-safe", "--svg", "--out", str(out)]) == 0
    assert drawn(out) == render.render_svg(view, palette="colour-safe")
    assert main(["global-warming", "--palette", "sepia", "--svg", "--out", str(out)]) == 2
    assert "invalid choice: 'sepia'" in capsys.readouterr().err
