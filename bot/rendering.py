"""Board images drawn off the event loop: every PNG the bot sends comes through `Renderer`.

Drawing a board (SVG build in Python, then resvg) takes tens of milliseconds; on the event loop
it would stall every other game. By default the bot starts a small pool of worker processes
once (one per core: the SVG build holds the GIL, so threads would not use the second core)
and hands each board to it. Should the pool fail (a worker killed, a machine that cannot start
processes), the renderer falls back to a thread: still off the loop, though the resvg binding
holds the GIL while it draws, so the loop waits that long (10-30 ms a board) between its turns.

Modes (setting `render_in`): "process" (the bot's default), "thread" (tests: no processes to
start, and monkeypatched renderers still apply), "inline" (on the calling thread; tools only).
"""

from __future__ import annotations

import io
import logging

import discord

from bot.workers import WorkerPool, cores

log = logging.getLogger(__name__)


def draw_board(board: dict) -> bytes:
    """The PNG of a notice's board ({"view": ..., "names": ...}); runs in a worker."""
    import render  # slow to import: workers and the first drawing pay it, not the bot's start

    if "standings" in board["view"]:   # a tournament's table (bot.flow.tournament), not a game
        from render.standings import standings_svg

        table = board["view"]["standings"]
        return render.svg_to_png(standings_svg(table["title"], table["columns"], table["rows"],
                                               set(table["highlight"]), note=table.get("note", "")))
    return render.render_png(board["view"], names=board.get("names"),
                             palette=board.get("palette", "standard"))


def alt_text(board: dict) -> str:
    """The alt text of a board's image, from the same view the image is drawn from (cheap:
    words only, on the caller's thread)."""
    from render.describe import alt_text as words

    if "standings" in board["view"]:
        from render.standings import standings_alt

        table = board["view"]["standings"]
        return standings_alt(table["title"], table["columns"], table["rows"], note=table.get("note", ""))
    try:
        return words(board["view"], board.get("names"))
    except Exception:   # (a board without words still goes out, with its game's title)
        log.exception("could not describe a board of game %s", board["view"].get("game"))
        return str(board["view"].get("title") or "A game board")


def board_file(png: bytes, board: dict, filename: str) -> discord.File:
    """The attachment of a board's image: every board the bot sends carries its alt text."""
    return discord.File(io.BytesIO(png), filename=filename, description=alt_text(board))


def _load_renderer() -> None:
    """In each fresh worker: import the renderer and load the fonts before the first board."""
    from render import svg

    svg.font_database()


# Boards a person waits for (after their own move, or asked for) go first; a board after a
# computer's move follows the computer's own pause, so it can wait behind them.
URGENT, UNHURRIED = 0, 1


def default_workers(cores: int) -> int:
    """Render workers for a machine of `cores` cores (PIECEPACK_RENDER_WORKERS overrides it):
    one per core but one, left to the event loop, which a wave of moves keeps busy; on one or
    two cores, one per core (the workers run below the loop's priority, so it still takes its
    share, and one worker alone would leave a core idle while the loop waits on the network)."""
    return cores if cores <= 2 else cores - 1


class Renderer(WorkerPool):
    what = "render workers"

    def __init__(self, mode: str = "process", workers: int | None = None):
        # Processes, not threads: the SVG build holds the GIL, so threads would not use the
        # cores. A little below the bot's own priority: when every core draws, the event loop
        # still wakes on time (the computers' and background pools are lower still).
        super().__init__(mode, workers or default_workers(cores()),
                         initializer=_load_renderer, nice=5)
        # user id -> the palette they chose for their own views (/settings), kept in step
        # with the database by the settings command (loaded when the bot starts)
        self.palettes: dict[str, str] = {}

    def with_palette(self, board: dict) -> dict:
        """A private view (one with a viewer: a DM, an ephemeral board) in its viewer's own
        palette; the public boards keep the standard one."""
        palette = self.palettes.get(str(board["view"].get("viewer")))
        return {**board, "palette": palette} if palette and "palette" not in board else board

    async def png(self, board: dict, priority: int = URGENT) -> bytes:
        """The PNG of `board`, drawn where it cannot stall the event loop."""
        return await self.run(draw_board, self.with_palette(board), priority=priority)
