"""Preview a board: `python -m render relativity --seed 7 --out board.png`.

Draws any position of a seeded game: the opening, or the one after `--moves` (in the game's
notation, separated by `;`), as a spectator or as one player (`--viewer`) sees it.

    python -m render global-warming --players 3 --moves "n; 3; 5; 2,3>6,3" --viewer 2

Each move is made by the next player the game waits for, in seat order: in a phase where
several players act at once (secret choices), consecutive moves fill them one by one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import engine

from . import DRAWINGS, PALETTES, render_png, render_svg


class ArgumentError(Exception):
    """A bad argument: its message is the one line the user sees."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str):   # one line, not the usage block
        raise ArgumentError(message)


def drawn_games() -> list[str]:
    return [name for name in engine.game_names() if name in DRAWINGS]


def parser() -> argparse.ArgumentParser:
    games = drawn_games()
    p = Parser(
        prog="python -m render",
        description="Draw a position of a seeded game as a PNG (or SVG): the opening, or the "
                    "position after --moves.",
        epilog=f"games: {', '.join(games)}",
    )
    p.add_argument("game", choices=games, help="the game to draw: %(choices)s")
    p.add_argument("--seed", type=int, default=1, help="seed of the deal (default: %(default)s)")
    p.add_argument("--players", type=int, default=None,
                   help="number of players, for games with a variable count (default: the "
                        "most the game seats); they are called Player 1, Player 2, ...")
    p.add_argument("--options", nargs="+", default=[], metavar="KEY=VALUE",
                   help="game options, e.g. variant=diagonal (a value that reads as JSON is "
                        "taken as JSON; one with commas is a list)")
    p.add_argument("--moves", default="",
                   help="moves in the game's notation separated by ';', each made by the next "
                        "player the game waits for, e.g. \"d3#e3; a1#b1\"")
    p.add_argument("--viewer", default=None,
                   help="draw what this player sees (a seat number from 1, or 'Player 2'); "
                        "default: a spectator")
    p.add_argument("--out", default=None,
                   help="file to write (default: board.png, or board.svg with --svg)")
    p.add_argument("--svg", action="store_true", help="write the SVG instead of a PNG")
    p.add_argument("--width", type=int, default=None,
                   help="PNG width in pixels (default: 800, as the bot sends boards)")
    p.add_argument("--palette", choices=list(PALETTES), default="standard",
                   help="colours to draw with: %(choices)s (default: %(default)s, as public "
                        "boards are drawn)")
    return p


def parse_options(pairs: list[str]) -> dict:
    options: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ArgumentError(f"write options as key=value, e.g. variant=diagonal (not {pair!r})")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value.split(",") if "," in value else value
    return options


def play(game, state, moves: list[str]):
    """Apply `moves` in order; each goes to the first player the game waits for who has not
    moved since the set of players it waits for last changed (seat order)."""
    moved: set[str] = set()
    for number, move in enumerate(moves, 1):
        waiting = game.to_act(state)
        if not waiting:
            raise ArgumentError(f"move {number} ({move!r}): the game is over")
        player = next((p for p in waiting if p not in moved), None)
        if player is None:   # everyone waited for has moved and still is: the first again
            moved.clear()
            player = waiting[0]
        try:
            state = game.apply(state, player, move)
        except engine.GameError as error:
            raise ArgumentError(f"move {number} ({move!r}) by {player}: {error}") from None
        moved.add(player)
        if set(game.to_act(state)) != set(waiting):
            moved.clear()
    return state


def viewer_id(players: list[str], text: str | None) -> str | None:
    if text is None:
        return None
    if text.isdigit() and 1 <= int(text) <= len(players):
        return players[int(text) - 1]
    if text in players:
        return text
    raise ArgumentError(f"--viewer must be a seat number from 1 to {len(players)} "
                        f"or a player's name ({', '.join(players)}), not {text!r}")


def main(argv: list[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        game = engine.get_game(args.game)
        count = args.players if args.players is not None else game.max_players
        players = [f"Player {i + 1}" for i in range(count)]
        try:
            state = game.new_game(players, seed=args.seed, options=parse_options(args.options))
        except engine.GameError as error:
            raise ArgumentError(str(error)) from None
        except (TypeError, ValueError, KeyError, AttributeError) as error:
            raise ArgumentError(f"the options are not usable: {error}") from None
        state = play(game, state, [m.strip() for m in args.moves.split(";") if m.strip()])
        view = game.view(state, viewer_id(players, args.viewer))
        out = Path(args.out or ("board.svg" if args.svg else "board.png"))
        if args.width is not None and not 16 <= args.width <= 8000:
            raise ArgumentError("--width must be between 16 and 8000 pixels")
        try:
            if args.svg:
                out.write_text(render_svg(view, palette=args.palette), encoding="utf-8")
            else:
                out.write_bytes(render_png(view, width=args.width, palette=args.palette))
        except OSError as error:
            raise ArgumentError(f"cannot write {out}: {error.strerror or error}") from None
    except ArgumentError as error:
        print(f"python -m render: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
