"""Lobbies in the game flow: opening one, joining and leaving, computers at the table, the
deadline, cancelling, and the start (seats drawn, thread opened, first notices)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Awaitable, Callable

import engine
from engine import GameError

from .. import computers, texts, ui
from ..errors import UserError
from ..settings import DEADLINES
from ..storage import Conflict, Event, GameRow, Seat
from .common import FILL_TO


class Lobby:
    """GameFlow's part (bot.flow.core) that runs a game's lobby up to its start."""


    # ---- lobbies ---------------------------------------------------------------------------

    def deadline_seconds(self, key: str | None) -> int | None:
        return DEADLINES[key or self.default_deadline]

    async def open_lobby(self, *, game_name: str, guild_id: int, channel_id: int, host_id: int,
                         host_name: str, deadline: str | None, opponent_id: int | None,
                         options: dict) -> GameRow:
        game = engine.get_game(game_name)
        if opponent_id == host_id:
            raise UserError("You cannot invite yourself; leave `opponent:` empty to wait for anyone.")
        hidden = sorted(game.secret_options & set(options))
        if hidden:
            raise UserError(f"`{'`, `'.join(hidden)}` would fix what the rules keep hidden from "
                            "everyone, so it cannot be chosen at /play.")
        # Try the options on a throw-away game now, so a typo fails here and not at Start.
        try:
            game.new_game([f"seat{i}" for i in range(game.min_players)], seed=0, options=options)
        except GameError as exc:
            raise UserError(f"Those options do not work: {texts.defuse(exc)}") from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            raise UserError(f"Those options do not work ({texts.defuse(exc)}).") from None
        if deadline is not None and deadline not in DEADLINES:
            raise UserError("The deadline is none, 1d, 3d or 7d.")
        return await self.store.create_game(
            game=game_name, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
            host_name=host_name, options=options, deadline_seconds=self.deadline_seconds(deadline),
            invited_id=opponent_id, now=self.clock())

    def lobby_text(self, row: GameRow) -> str:
        game = self.game_of(row)
        names = row.names
        seats = (f"{game.min_players}" if game.min_players == game.max_players
                 else f"{game.min_players}-{game.max_players}")
        lines = [f"**{texts.game_label(game.title, row.id)}**: a game for {seats} players, "
                 f"hosted by **{texts.display(names[str(row.host_id)])}**."]
        lines.append(f"Seated ({len(row.seats)}/{game.max_players}): "
                     f"{texts.name_list(row.player_ids, names)}.")
        scope = ui.adapter_for(row.game).deadline_scope
        lines.append(f"Deadline: {texts.duration(row.deadline_seconds)} for each {scope}."
                     if row.deadline_seconds else "Deadline: none.")
        if row.options:   # (never secret ones: /play refuses those)
            shown = "; ".join(f"{key}={value if isinstance(value, str) else json.dumps(value, separators=(',', ':'))}"
                              for key, value in sorted(row.options.items()))
            lines.append("Options: " + texts.display(shown if len(shown) <= 300 else shown[:299] + "…"))
        if row.status == "lobby":
            if row.invited_id and str(row.invited_id) not in names:
                lines.append(f"{texts.mention(str(row.invited_id))}, you are invited: press **Join**.")
            if game.min_players == game.max_players:
                lines.append("The game starts when all seats are taken.")
            else:
                lines.append("The host presses **Start** when everyone is in.")
        elif row.status == "active":
            lines.append(f"The game is on in <#{row.thread_id}>." if row.thread_id else "The game is on.")
        elif row.status == "cancelled":
            lines.append("This lobby was closed.")
        else:
            lines.append(f"The game is over; see <#{row.thread_id}>." if row.thread_id else "The game is over.")
        return texts.clip("\n".join(lines))

    def lobby_controls(self, row: GameRow) -> list[list]:
        if row.status != "lobby":
            return []
        # Every lobby has the same four buttons; a game with a fixed number of seats also
        # starts by itself when they are all taken (Start then only explains that).
        ops = ["join", "leave", "start", "cancel"]
        invited = 1 if row.invited_id and str(row.invited_id) not in row.names else 0
        if computers.plays(row.game) and len(row.seats) + invited < self.game_of(row).max_players:
            ops += ["cpu-easy", "cpu-strong"]   # (while a seat is free for a computer)
        if computers.plays(row.game) and any(computers.is_computer(p) for p in row.player_ids):
            ops.append("cpu-remove")
        return [["lobby", row.id, op] for op in ops]

    async def lobby(self, game_id: int) -> GameRow:
        row = await self.get(game_id)
        if row.status != "lobby":
            raise UserError("This lobby is closed." if row.status == "cancelled"
                            else "This game has already started.")
        return row

    async def join(self, game_id: int, user_id: int, name: str) -> GameRow:
        row = await self.lobby(game_id)
        game = self.game_of(row)
        if row.seat_of(user_id):
            raise UserError("You are already seated in this game.")
        if len(row.seats) >= game.max_players:
            raise UserError("This game is full.")
        if (row.invited_id and user_id != row.invited_id and str(row.invited_id) not in row.names
                and len(row.seats) + 1 >= game.max_players):
            raise UserError("The last seat is kept for the invited player.")
        seats = row.seats + [Seat(max(s.seat for s in row.seats) + 1, user_id, name)]
        await self._commit_lobby(row, seats=seats, event=Event("join", str(user_id)))
        return await self.get(game_id)

    async def leave(self, game_id: int, user_id: int) -> GameRow:
        row = await self.lobby(game_id)
        if user_id == row.host_id:
            raise UserError("You are the host: press **Cancel** to close the lobby.")
        if not row.seat_of(user_id):
            raise UserError("You are not seated in this game.")
        seats = [s for s in row.seats if s.user_id != user_id]
        await self._commit_lobby(row, seats=seats, event=Event("leave", str(user_id)))
        return await self.get(game_id)

    async def add_computer(self, game_id: int, user_id: int, level: str) -> GameRow:
        """The host seats a computer player of `level` in the lobby."""
        row = await self.lobby(game_id)
        game = self.game_of(row)
        if not computers.plays(row.game):
            raise UserError(f"There is no computer player for {game.title} yet.")
        if user_id != row.host_id:
            raise UserError("Only the host can add computer players.")
        if len(row.seats) >= game.max_players:
            raise UserError("This game is full.")
        if (row.invited_id and str(row.invited_id) not in row.names
                and len(row.seats) + 1 >= game.max_players):
            raise UserError("The last seat is kept for the invited player.")
        taken = {s.user_id for s in row.seats}
        number = next(n for n in range(1, 100) if all(computers.seat_id(n, lv) not in taken
                                                       for lv in computers.LEVELS))
        player = computers.seat_id(number, level)
        seats = row.seats + [Seat(max(s.seat for s in row.seats) + 1, player,
                                  computers.display_name(number, level))]
        await self._commit_lobby(row, seats=seats, event=Event("join", str(player)))
        return await self.get(game_id)

    async def remove_computer(self, game_id: int, user_id: int) -> GameRow:
        """The host takes the last computer seated off the lobby."""
        row = await self.lobby(game_id)
        if user_id != row.host_id:
            raise UserError("Only the host can remove computer players.")
        seated = [s for s in row.seats if computers.is_computer(s.user_id)]
        if not seated:
            raise UserError("There is no computer player in this lobby.")
        seats = [s for s in row.seats if s is not seated[-1]]
        await self._commit_lobby(row, seats=seats, event=Event("leave", str(seated[-1].user_id)))
        return await self.get(game_id)

    async def fill_with_computers(self, game_id: int, user_id: int, level: str) -> GameRow:
        """Computers of `level` in every seat left (but an invited player's)."""
        row = await self.lobby(game_id)
        game = self.game_of(row)
        # (a game for up to 12, like BYOP1, gets a table of four, not eleven computers)
        table = max(game.min_players, min(game.max_players, FILL_TO))
        free = table - len(row.seats) - (1 if row.invited_id else 0)
        if free <= 0:
            raise UserError("There is no seat left for a computer player.")
        for _ in range(free):
            row = await self.add_computer(game_id, user_id, level)
        return row

    async def cancel(self, game_id: int, user_id: int, moderator: bool) -> GameRow:
        row = await self.lobby(game_id)
        if user_id != row.host_id and not moderator:
            raise UserError("Only the host (or a moderator) can cancel this lobby.")
        await self._commit_lobby(row, changes={"status": "cancelled"},
                                 event=Event("cancel", str(user_id)), timers={})
        return await self.get(game_id)

    async def _commit_lobby(self, row: GameRow, *, seats=None, changes=None, event, timers=None):
        try:
            await self.store.commit(row.id, row.version, now=self.clock(), seats=seats,
                                    changes=changes, events=[event], timers=timers)
        except Conflict:
            raise UserError("The lobby changed at the same moment; please press again.") from None

    def can_start(self, row: GameRow, user_id: int | None) -> None:
        game = self.game_of(row)
        if user_id is not None and user_id != row.host_id:
            raise UserError("Only the host can start the game.")
        if all(computers.is_computer(p) for p in row.player_ids):
            raise UserError("A game needs at least one person: computers do not play alone.")
        if len(row.seats) < game.min_players:
            if game.min_players == game.max_players:
                raise UserError(f"{game.title} is for {game.min_players} players; it starts by "
                                "itself as soon as every seat is taken.")
            raise UserError(f"{game.title} needs at least {game.min_players} players.")

    async def start(self, row: GameRow, create_thread: Callable[[GameRow, str], Awaitable[int | None]],
                    *, seed: int | None = None, rematch_of: int | None = None,
                    seating: str | None = None, tag: str = "") -> GameRow:
        """Deal the game, open its thread and post the first board. `row` is a full lobby the
        caller has checked with can_start. `seed` fixes the deal (a daily puzzle's). A rematch
        (`rematch_of`: the old game) keeps the seats as its lobby has them (rotated from the old
        game); its deal is new (a new seed). `seating` (how the lobby's seats were set, e.g. by a
        tournament's pairing) keeps them too; `tag` (a tournament's round) heads the thread's
        name and its first post."""
        game = self.game_of(row)
        seed = int(self.seed_source() if seed is None else seed)
        if rematch_of is not None:
            seating = f"rotated by one from game #{rematch_of}"
        if seating is None:
            row.seats = [replace(s, seat=n) for n, s in enumerate(self.seat_order(row.seats, seed))]
            seating = "drawn at random"
        try:
            state = game.new_game(row.player_ids, seed=seed, options=row.options)
        except GameError as exc:
            raise UserError(f"The game could not be dealt: {exc}") from None
        names = row.names
        title = texts.game_label(game.title, row.id)
        thread_name = f"{tag}{title}: " + " vs ".join(names[p] for p in row.player_ids)
        thread_id = await create_thread(row, thread_name[:100])
        row.thread_id = thread_id
        now = self.clock()
        scope = ui.adapter_for(row.game).deadline_scope
        seats = (f"The seats, {seating}: {texts.name_list(row.player_ids, names)}, in this order. "
                 if len(row.player_ids) > 1 else "")   # (alone: no seats to draw)
        intro = (f"{tag}**{title}** begins" + ("." if seats else f" for {texts.name_list(row.player_ids, names)}.")
                 + f" {seats}"
                 + (f"Each {scope} has {texts.duration(row.deadline_seconds)}."
                    if row.deadline_seconds else "No deadline.")
                 + ("" if thread_id else " (I could not open a thread, so the game is played here.)"))
        clock_from, away = await self.away_pause(row, game, state, now)
        plan = self._plan(row, game, None, state, actor=None, kind="start", now=now, prefix=intro,
                          posts={}, clock_from=clock_from)
        plan.notices += self.away_notices(row, game, None, state, plan, away, clock_from)
        start_detail = json.dumps({"players": row.player_ids, "seed": seed, "options": row.options})
        timers = await self.with_computer_timers(row, game, state, plan.timers, now)
        timers = self.with_background_timer(row, game, state, timers, now)
        try:
            await self.store.commit(
                row.id, row.version, now=now,
                changes={"status": plan.status, "state": game.to_json(state), "thread_id": thread_id},
                seats=row.seats,
                events=[Event("start", str(row.host_id), start_detail)],
                notices=plan.notices, timers=timers)
        except Conflict:
            raise UserError("The lobby changed at the same moment; please press again.") from None
        self.on_commit()
        row = await self.get(row.id)
        await self.start_background(row, game, state)   # (a daily may know its best)
        return row
