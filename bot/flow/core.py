"""The class GameFlow, made of its parts (one module each: lobby, play, plan, notices,
computer_turns, clock, away), with its state and what every part reads: a game's row, state
and views, and the game a command means."""

from __future__ import annotations

import asyncio
import secrets
from typing import Awaitable, Callable

import engine

from .. import computers, texts, work
from ..errors import UserError
from ..storage import GameRow, Notice, Store
from ..workers import WorkerPool
from .common import ViewsOnce, draw_seats
from .away import TimeAway
from .clock import Clock
from .computer_turns import ComputerTurns
from .lobby import Lobby
from .notices import Notices
from .plan import Planning
from .play import Play


class GameFlow(Lobby, Play, Planning, Notices, ComputerTurns, Clock, TimeAway):
    """`seed_source` gives each new game's seed and `seat_order(seats, seed)` its order of
    seats (tests may fix both)."""

    def __init__(self, store: Store, clock: Callable[[], float], *, reminder_hours: float = 24.0,
                 default_deadline: str = "none", seed_source: Callable[[], int] | None = None,
                 seat_order: Callable[[list, int], list] | None = None,
                 thinker: "computers.Thinker | None" = None, computer_pace: float = 1.0,
                 background_pool: WorkerPool | None = None, claimant: str | None = None,
                 lease_seconds: float = 30.0):
        self.store = store
        # who holds the claims on the timers this flow works on, and for how long each time
        # (bot.work: renewed while the work goes on)
        self.me = claimant or work.claimant()
        self.lease = lease_seconds
        self.thinker = thinker or computers.Thinker("thread")
        # games' slow background work (e.g. a solver): a process of its own, at a low priority
        self.background_pool = background_pool or WorkerPool("thread")
        self.computer_pace = computer_pace   # times computers.PAUSE (and BYOP1's slide pace)
        self.thinking: dict[tuple[int, str], asyncio.Task] = {}
        self.clock = clock
        self.reminder_hours = reminder_hours
        self.default_deadline = default_deadline
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.seat_order = seat_order or draw_seats
        self.on_commit: Callable[[], None] = lambda: None   # wakes the dispatcher
        # game id -> the future of its background work (e.g. a solver), running off the loop
        self.jobs: dict[int, asyncio.Future] = {}
        self.keepers: set[asyncio.Task] = set()   # each waits for a job's answer, to store it
        # async (row, game, final state, extras) -> notices to post with a game's end (in the
        # same transaction): other parts' hooks (daily puzzles' public line)
        self.end_hooks: list[Callable[..., Awaitable[list[Notice]]]] = []
        # async (game id) after a game's end is committed (finished or aborted): a tournament
        # looks whether its round is over
        self.ended_hooks: list[Callable[[int], Awaitable[None]]] = []

    # ---- reading ---------------------------------------------------------------------------

    @staticmethod
    def game_of(row: GameRow) -> "ViewsOnce":
        """The row's game, building each view once for as long as the caller keeps it (one
        move asks for the same views in its plan, controls and prompts)."""
        return ViewsOnce(engine.get_game(row.game))

    def state_of(self, row: GameRow):
        return self.game_of(row).from_json(row.state)

    async def get(self, game_id: int) -> GameRow:
        if not isinstance(game_id, int) or not 0 < game_id < 2 ** 63:   # SQLite's integers
            raise UserError(f"There is no game {texts.excerpt(game_id, 24)}.")
        row = await self.store.get_game(game_id)
        if row is None:
            raise UserError(f"There is no game #{game_id}.")
        return row

    async def get_running(self, game_id: int) -> GameRow:
        row = await self.get(game_id)
        self.check_running(row)
        return row

    def check_running(self, row: GameRow) -> None:
        if row.status == "lobby":
            raise UserError(f"Game #{row.id} has not started yet.")
        if row.status == "cancelled":
            raise UserError(f"Game #{row.id} was {'aborted' if row.state else 'cancelled'}.")
        if row.status != "active":
            game = self.game_of(row)
            raise UserError(f"Game #{row.id} is over. "
                            + self.result_line(game, self.state_of(row), row.names))

    def waits_on(self, row: GameRow, user_id: int) -> bool:
        if row.status != "active":
            return False
        state = self.state_of(row)
        return str(user_id) in self.game_of(row).awaited(state)

    async def resolve(self, user_id: int, guild_id: int | None, channel_id: int | None,
                      game_id: int | None) -> GameRow:
        """The game a command means: the `game:` option, else the thread it is used in, else the
        caller's only game waiting on them (or only running game). In DMs (no server) only the
        caller's own games can be named."""
        if game_id is not None:
            row = await self.get(game_id if isinstance(game_id, int) else -1)
            if guild_id is None and not row.seat_of(user_id):
                raise UserError(f"There is no game #{game_id}.")   # nor a hint that it exists
            if guild_id is not None and row.guild_id != guild_id:
                raise UserError(f"Game #{game_id} is in another server.")
            return row
        if channel_id is not None:
            row = await self.store.game_for_thread(channel_id)
            if row is not None:
                return row
        running = await self.store.games_of_user(user_id, guild_id, statuses=("active",))
        waiting = [r for r in running if self.waits_on(r, user_id)]
        if len(waiting) == 1:
            return waiting[0]
        if len(running) == 1:
            return running[0]
        if not running:
            raise UserError("You have no running game here. Start one with `/play`.")
        ids = ", ".join(f"#{r.id}" for r in (waiting or running))
        raise UserError(f"You are in several games ({ids}); use this in a game's thread, "
                        "or say which with `game:`.")
