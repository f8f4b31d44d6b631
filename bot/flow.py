"""The life of a game, independent of Discord objects: lobbies, actions, timers, and what to tell
whom after each change.

Every change is: read the game row (with its version), compute the new state with the engine,
then commit state + event + notices + timers in one transaction that checks the version. The
notices are delivered afterwards by the outbox dispatcher (bot.delivery), so a crash or a Discord
error between the two loses nothing.

What is said where:
- the game's thread gets the public view only (board image, new public log lines, who is to act);
- a player asked for a secret or private decision gets a DM with their own view and controls;
- during a secret phase a commit only updates the thread's "2 of 4 chosen" line (who, never what);
  the reveal is the first public change after the last commit, posted as one message.
"""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import dataclass
from typing import Awaitable, Callable, Mapping

import engine
from engine import GameError

from . import texts, ui
from .settings import DEADLINES
from .storage import Conflict, Event, GameRow, Notice, Seat, Store, Timer

log = logging.getLogger(__name__)

# Keys of a view that change with every commit of a secret phase without showing anything new.
VOLATILE_VIEW_KEYS = frozenset({"log", "move_number", "to_act", "awaited", "committed", "draw_offer"})
REMINDER_SHARE = 0.8          # remind at 80% of a deadline
REPEAT_REMINDER = 86400.0     # without a deadline, remind again daily


class UserError(Exception):
    """Something the user did that we refuse; the message is for them, nothing has changed."""


@dataclass
class Done:
    """The result of an applied action: what to tell the actor, and the game afterwards."""

    message: str
    row: GameRow
    state: Mapping


def parse_options(text: str | None) -> dict:
    """`/play options:` text: a JSON object, or `key=value` pairs separated by spaces or `;`.
    A value that reads as JSON is taken as JSON; a value with commas becomes a list."""
    text = (text or "").strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"The options are not valid JSON: {exc.msg}.") from None
        if not isinstance(value, dict):
            raise UserError("The options must be a JSON object.")
        return value
    options: dict = {}
    for part in text.replace(";", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise UserError(f"Write options as key=value, for example variant=diagonal (not {part!r}).")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value.split(",") if "," in value else value
    return options


def public_part(view: Mapping) -> dict:
    return {k: v for k, v in view.items() if k not in VOLATILE_VIEW_KEYS}


class GameFlow:
    def __init__(self, store: Store, clock: Callable[[], float], *, reminder_hours: float = 24.0,
                 default_deadline: str = "none", seed_source: Callable[[], int] | None = None):
        self.store = store
        self.clock = clock
        self.reminder_hours = reminder_hours
        self.default_deadline = default_deadline
        self.seed_source = seed_source or (lambda: secrets.randbits(63))
        self.on_commit: Callable[[], None] = lambda: None   # wakes the dispatcher

    # ---- reading ---------------------------------------------------------------------------

    @staticmethod
    def game_of(row: GameRow):
        return engine.get_game(row.game)

    def state_of(self, row: GameRow):
        return self.game_of(row).from_json(row.state)

    async def get(self, game_id: int) -> GameRow:
        row = await self.store.get_game(game_id)
        if row is None:
            raise UserError(f"There is no game #{game_id}.")
        return row

    async def get_running(self, game_id: int) -> GameRow:
        row = await self.get(game_id)
        if row.status == "lobby":
            raise UserError(f"Game #{row.id} has not started yet.")
        if row.status != "active":
            raise UserError(f"Game #{row.id} is over.")
        return row

    def waits_on(self, row: GameRow, user_id: int) -> bool:
        if row.status != "active":
            return False
        state = self.state_of(row)
        return str(user_id) in self.game_of(row).awaited(state)

    async def resolve(self, user_id: int, guild_id: int | None, channel_id: int | None,
                      game_id: int | None) -> GameRow:
        """The game a command means: the `game:` option, else the thread it is used in, else the
        caller's only game waiting on them (or only running game)."""
        if game_id is not None:
            row = await self.get(game_id)
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
            raise UserError(f"Those options do not work: {exc}") from None
        except (TypeError, ValueError, KeyError) as exc:
            raise UserError(f"Those options do not work ({exc}).") from None
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
        deadline = (f"{texts.duration(row.deadline_seconds)} per move" if row.deadline_seconds
                    else "none")
        lines.append(f"Deadline: {deadline}.")
        if row.options:
            lines.append("Options: `" + json.dumps(row.options)[:300] + "`")
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
        return "\n".join(lines)

    @staticmethod
    def lobby_controls(row: GameRow) -> list[list]:
        if row.status != "lobby":
            return []
        return [["lobby", row.id, op] for op in ("join", "leave", "start", "cancel")]

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
        if len(row.seats) < game.min_players:
            raise UserError(f"{game.title} needs at least {game.min_players} players.")

    async def start(self, row: GameRow, create_thread: Callable[[GameRow, str], Awaitable[int | None]]) -> GameRow:
        """Deal the game, open its thread and post the first board. `row` is a full lobby the
        caller has checked with can_start."""
        game = self.game_of(row)
        seed = int(self.seed_source())
        try:
            state = game.new_game(row.player_ids, seed=seed, options=row.options)
        except GameError as exc:
            raise UserError(f"The game could not be dealt: {exc}") from None
        names = row.names
        title = texts.game_label(game.title, row.id)
        thread_name = f"{title}: " + " vs ".join(names[p] for p in row.player_ids)
        thread_id = await create_thread(row, thread_name[:100])
        row.thread_id = thread_id
        now = self.clock()
        intro = (f"**{title}** begins: {texts.name_list(row.player_ids, names)}. "
                 + (f"Each move has {texts.duration(row.deadline_seconds)}."
                    if row.deadline_seconds else "No deadline.")
                 + ("" if thread_id else " (I could not open a thread, so the game is played here.)"))
        plan = self._plan(row, game, None, state, actor=None, kind="start", now=now, prefix=intro)
        start_detail = json.dumps({"players": row.player_ids, "seed": seed, "options": row.options})
        try:
            await self.store.commit(
                row.id, row.version, now=now,
                changes={"status": plan.status, "state": game.to_json(state), "thread_id": thread_id},
                events=[Event("start", str(row.host_id), start_detail)],
                notices=plan.notices, timers=plan.timers)
        except Conflict:
            raise UserError("The lobby changed at the same moment; please press again.") from None
        self.on_commit()
        return await self.get(row.id)

    # ---- actions ---------------------------------------------------------------------------

    def check_seated(self, row: GameRow, user_id: int) -> None:
        if not row.seat_of(user_id):
            raise UserError(texts.between(row.names))

    async def act(self, game_id: int, user_id: int, op: str, text: str | None = None,
                  stamp: str | None = None) -> Done:
        """Apply `op` (move, resign, offer, accept, decline) for a seated player."""
        player = str(user_id)
        for attempt in range(5):
            row = await self.get_running(game_id)
            self.check_seated(row, user_id)
            game = self.game_of(row)
            state = self.state_of(row)
            names = row.names
            before = game.prompt(state, player)
            if stamp is not None and player in game.to_act(state) \
                    and stamp != ui.stamp(game, state, player):
                raise UserError("Those controls are out of date: the game has moved on. "
                                "Use the latest ones, or `/move`.")
            detail = ""
            try:
                if op == "move":
                    new = game.apply(state, player, text)
                    detail = str(game.parse_action(state, player, text))
                elif op == "resign":
                    new = game.resign(state, player)
                elif op == "offer":
                    new = game.offer_draw(state, player)
                elif op == "accept":
                    new = game.accept_draw(state, player)
                elif op == "decline":
                    new = game.decline_draw(state, player)
                else:
                    raise ValueError(f"unknown op {op!r}")
            except GameError as exc:
                raise UserError(texts.with_names(str(exc), names)) from None
            secret = before is not None and before.kind == "secret" and op == "move"
            try:
                await self.commit_change(row, game, state, new, actor=player, kind=op, detail=detail)
            except Conflict:
                # Secret commits are independent of one another: just try again on the new state.
                if secret:
                    continue
                raise UserError("The board changed while you were moving; have a look and try again.") from None
            return Done(self._confirmation(row, game, new, player, op, detail, secret), row, new)
        raise UserError("The game is busy; please try again.")

    def _confirmation(self, row, game, new, player, op, detail, secret) -> str:
        adapter = ui.adapter_for(row.game)
        if op == "move":
            said = adapter.describe_action(game, new, player, detail)
            if not secret:
                return f"✅ Played {said}."
            if player in game.awaited(new) or player not in game.to_act(new) \
                    or game.prompt(new, player).kind != "secret" or game.outcome(new) is not None:
                # the phase is over (this was the last choice): the reveal is in the thread
                return f"🔒 Your choice: {said}. Everyone has chosen: see the reveal in the thread."
            return (f"🔒 Your choice: {said}. Nobody else sees it; you may change it until "
                    "everyone has chosen.")
        return {"resign": "You resigned.", "offer": "You offered a draw.",
                "accept": "You accepted the draw.", "decline": "You declined the draw."}[op]

    async def abort(self, game_id: int, user_id: int, moderator: bool) -> GameRow:
        row = await self.get(game_id)
        if row.status == "lobby":
            return await self.cancel(game_id, user_id, moderator)
        if row.status != "active":
            raise UserError(f"Game #{row.id} is already over.")
        if user_id != row.host_id and not moderator:
            raise UserError("Only the host (or a moderator with Manage Messages) can abort a game.")
        name = row.names.get(str(user_id), "a moderator")
        notice = Notice("channel", row.thread_id or row.channel_id,
                        {"content": f"🛑 The game was aborted by **{texts.display(name)}**; "
                                    "it ends without a result."})
        try:
            await self.store.commit(row.id, row.version, now=self.clock(),
                                    changes={"status": "cancelled"},
                                    events=[Event("abort", str(user_id))], notices=[notice], timers={})
        except Conflict:
            raise UserError("The game changed at the same moment; please try again.") from None
        self.on_commit()
        return await self.get(game_id)

    async def commit_change(self, row: GameRow, game, old, new, *, actor: str | None, kind: str,
                            detail: str = "", prefix: str = "") -> None:
        now = self.clock()
        plan = self._plan(row, game, old, new, actor=actor, kind=kind, now=now, prefix=prefix)
        await self.store.commit(
            row.id, row.version, now=now,
            changes={"state": game.to_json(new), "status": plan.status},
            events=[Event(kind, actor, detail)], notices=plan.notices, timers=plan.timers)
        self.on_commit()

    # ---- what to say after a change ----------------------------------------------------------

    @dataclass
    class Plan:
        status: str
        notices: list
        timers: dict | None

    def _plan(self, row: GameRow, game, old, new, *, actor, kind, now, prefix="") -> "GameFlow.Plan":
        names = row.names
        thread = row.thread_id or row.channel_id
        new_public = game.view(new, None)
        old_public = game.view(old, None) if old is not None else None
        old_log = len(old_public["log"]) if old_public else 0
        log_lines = [texts.with_names(e["text"], names) for e in new_public["log"][old_log:]]
        finished = game.outcome(new) is not None

        before = game.prompt(old, actor) if (old is not None and actor) else None
        if (kind == "move" and before is not None and before.kind == "secret"
                and public_part(old_public) == public_part(new_public)):
            # A commit inside a secret phase: say who has chosen (only on a first choice).
            notices = []
            if actor in game.awaited(old) or log_lines:
                content = "\n".join(log_lines + [self.secret_status(game, new, names)])
                notices.append(Notice("channel", thread, {"content": texts.clip(content)}))
            return self.Plan("active", notices, None)

        old_awaited = set(game.awaited(old)) if old is not None else set()
        lines = ([prefix] if prefix else []) + log_lines
        notices = []
        adapter = ui.adapter_for(row.game)
        if finished:
            lines.append(self.result_line(game, new, names))
            timers: dict = {}
            controls: list = []
        else:
            timers = self.timers_for(row, now)
            lines += self.turn_lines(row, game, new, names, now)
            controls = adapter.turn_controls(row.id, game, new, new_public)
            for player in game.to_act(new):
                prompt = game.prompt(new, player)
                if prompt.kind == "public":
                    continue
                if kind in ("move", "expire", "start") or player not in old_awaited:
                    notices.append(self.private_notice(row, game, new, player, names))
        post = {"content": texts.clip("\n".join(line for line in lines if line)),
                "board": {"view": new_public, "names": names}}
        if controls:
            post["controls"] = controls
        notices.insert(0, Notice("channel", thread, post))
        return self.Plan("finished" if finished else "active", notices, timers)

    def secret_status(self, game, state, names) -> str:
        secret = [p for p in game.to_act(state) if game.prompt(state, p).kind == "secret"]
        if not secret:
            return ""
        waiting = [p for p in game.awaited(state) if p in secret]
        chosen = [p for p in secret if p not in waiting]
        text = f"🔒 {len(chosen)} of {len(secret)} chosen"
        if chosen:
            text += f" ({texts.name_list(chosen, names)})"
        if waiting:
            text += f"; waiting for {texts.name_list(waiting, names)}"
        return text + "."

    def turn_lines(self, row, game, state, names, now) -> list[str]:
        lines = []
        public, secret, private = [], [], []
        for player in game.to_act(state):
            prompt = game.prompt(state, player)
            {"public": public, "secret": secret, "private": private}[prompt.kind].append((player, prompt))
        for player, prompt in public:
            lines.append(f"{texts.mention(player)}, your turn. {texts.with_names(prompt.text, names)}")
        if secret:
            who = " ".join(texts.mention(p) for p, _ in secret)
            lines.append(f"{who}: make your secret choice. Your controls are in your DMs "
                         "(or press **Open my private controls**).")
            lines.append(self.secret_status(game, state, names))
        for player, _ in private:
            lines.append(f"{texts.mention(player)}: your private board is in your DMs.")
        if row.deadline_seconds:
            lines.append(f"⏳ Deadline {texts.timestamp(now + row.deadline_seconds)}.")
        return lines

    @staticmethod
    def result_line(game, state, names) -> str:
        outcome = game.outcome(state)
        reason = texts.with_names(outcome.reason, names)
        scores = game.scores(state)
        score_text = ", ".join(f"{texts.display(names.get(p, p))} {n}" for p, n in scores.items())
        if outcome.draw or not outcome.winners:
            head = f"🏁 The game ends without a winner ({reason})."
        else:
            head = f"🏁 {texts.name_list(list(outcome.winners), names)} wins ({reason})."
        return head + (f" Score: {score_text}." if any(scores.values()) else "")

    def private_notice(self, row: GameRow, game, state, player: str, names, *,
                       reminder: str = "") -> Notice:
        prompt = game.prompt(state, player)
        adapter = ui.adapter_for(row.game)
        specs, note = adapter.player_controls(row.id, game, state, player)
        title = texts.game_label(game.title, row.id)
        where = f" in <#{row.thread_id}>" if row.thread_id else ""
        lines = [reminder] if reminder else []
        lines.append(f"**{title}**{where}: {texts.with_names(prompt.text, names)}")
        if prompt.kind == "secret":
            lines.append("Only you see this. You may change your choice until everyone has chosen.")
        payload = {
            "content": texts.clip("\n".join(lines) + note),
            "board": {"view": game.view(state, player), "names": names},
            "controls": specs,
            "fallback": {
                "content": f"{texts.mention(player)}, I cannot send you direct messages"
                           + (f" ({reminder.strip()})" if reminder else "")
                           + ". Press **Open my private controls** to see your choices here, privately.",
                "controls": [["mine", row.id, "Open my private controls"]],
            },
        }
        return Notice("user", int(player), payload)

    def timers_for(self, row: GameRow, now: float) -> dict:
        if row.deadline_seconds:
            return {"deadline": (now + row.deadline_seconds, {}),
                    "reminder": (now + REMINDER_SHARE * row.deadline_seconds, {})}
        return {"reminder": (now + self.reminder_hours * 3600, {})}

    # ---- timers ----------------------------------------------------------------------------

    async def fire(self, timer: Timer) -> None:
        row = await self.store.get_game(timer.game_id)
        if row is None or row.status != "active":
            await self.store.drop_timers(timer.game_id)
            return
        if timer.kind == "deadline":
            await self._expire(row)
        elif timer.kind == "reminder":
            await self._remind(row, timer)
        else:
            log.warning("unknown timer %r for game %s", timer.kind, row.id)
            await self.store.set_timer(row.id, row.version, timer.kind, None, [], self.clock())

    async def _expire(self, row: GameRow) -> None:
        game = self.game_of(row)
        state = self.state_of(row)
        late = game.awaited(state)
        new = game.expire(state)
        names = row.names
        prefix = f"⏰ The deadline passed; {texts.name_list(list(late), names)} did not act in time."
        try:
            await self.commit_change(row, game, state, new, actor=None, kind="expire",
                                     detail=",".join(late), prefix=prefix)
        except Conflict:
            pass  # a move arrived first; it set new timers

    async def _remind(self, row: GameRow, timer: Timer) -> None:
        game = self.game_of(row)
        state = self.state_of(row)
        names = row.names
        now = self.clock()
        title = texts.game_label(game.title, row.id)
        deadline = (await self.store.timers_of(row.id)).get("deadline")
        when = (f" The deadline is {texts.timestamp(deadline.due_at)}." if deadline else "")
        notices = []
        for player in game.awaited(state):
            prompt = game.prompt(state, player)
            if prompt is not None and prompt.kind != "public":
                notices.append(self.private_notice(
                    row, game, state, player, names,
                    reminder=f"⏰ Reminder: {title} is waiting for you.{when}"))
                continue
            where = f" in <#{row.thread_id}>" if row.thread_id else ""
            notices.append(Notice("user", int(player), {
                "content": f"⏰ Reminder: **{title}**{where} is waiting for your move.{when}",
                "fallback": {"content": f"{texts.mention(player)}, ⏰ reminder: this game is waiting "
                                        f"for your move.{when}"},
            }))
        next_due = None if row.deadline_seconds else now + REPEAT_REMINDER
        try:
            await self.store.set_timer(row.id, row.version, "reminder", next_due, notices, now)
        except Conflict:
            return
        self.on_commit()

    # ---- audit -----------------------------------------------------------------------------

    async def replay(self, game_id: int):
        """Rebuild a game's state from its events alone (audits, tests)."""
        row = await self.get(game_id)
        game = self.game_of(row)
        state = None
        for event in await self.store.events(game_id):
            kind, actor = event["kind"], event["actor"]
            if kind == "start":
                start = json.loads(event["detail"])
                state = game.new_game(start["players"], seed=start["seed"], options=start["options"])
            elif state is None:
                continue
            elif kind == "move":
                state = game.apply(state, actor, event["detail"])
            elif kind == "resign":
                state = game.resign(state, actor)
            elif kind in ("offer", "accept", "decline"):
                state = {"offer": game.offer_draw, "accept": game.accept_draw,
                         "decline": game.decline_draw}[kind](state, actor)
            elif kind == "expire":
                state = game.expire(state)
        return state
