"""Preview a board: `python -m render relativity --seed 7 --out board.png`.

Draws the opening position of a seeded game, as a spectator sees it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import engine

from . import DRAWINGS, render_png, render_svg


def drawn_games() -> list[str]:
    return [name for name in engine.game_names() if name in DRAWINGS]


def parser() -> argparse.ArgumentParser:
    games = drawn_games()
    p = argparse.ArgumentParser(
        prog="python -m render",
        description="Draw the opening position of a seeded game as a PNG (or SVG).",
        epilog=f"games: {', '.join(games)}",
    )
    p.add_argument("game", choices=games, help="the game to draw: %(choices)s")
    p.add_argument("--seed", type=int, default=1, help="seed of the deal (default: %(default)s)")
    p.add_argument("--players", type=int, default=None,
                   help="number of players, for games with a variable count (default: the "
                        "most the game seats)")
    p.add_argument("--out", default=None,
                   help="file to write (default: board.png, or board.svg with --svg)")
    p.add_argument("--svg", action="store_true", help="write the SVG instead of a PNG")
    p.add_argument("--width", type=int, default=None,
                   help="PNG width in pixels (default: 800, as the bot sends boards)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    game = engine.get_game(args.game)
    count = args.players if args.players is not None else game.max_players
    players = [f"Player {i + 1}" for i in range(count)]
    try:
        state = game.new_game(players, seed=args.seed)
    except engine.GameError as error:
        print(error, file=sys.stderr)
        return 2
    view = game.view(state, None)
    out = Path(args.out or ("board.svg" if args.svg else "board.png"))
    if args.svg:
        out.write_text(render_svg(view), encoding="utf-8")
    else:
        out.write_bytes(render_png(view, width=args.width))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
