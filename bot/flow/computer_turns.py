"""Computer players' turns in the game flow: each computer the game waits for has a timer; when
it fires, the computer thinks off the event loop and its move is applied like a person's. A
computer answers draw offers by its own judgement (and says why), may offer one after its move,
resigns a game it can no longer win (saying so), and a game in which no person is left (the
last one resigned or ran out of time) ends there."""

from __future__ import annotations

import asyncio
import time

from engine import GameError

from .. import computers, texts, ui, work
from ..storage import Conflict, GameRow, Notice
from .common import COMPUTER_RETRY, COMPUTER_TIMER, log


class ComputerTurns:
    """GameFlow's part (bot.flow.core) that has computers move (and answer and offer draws)."""

    async def with_computer_timers(self, row: GameRow, game, state, timers: dict | None,
                                   now: float) -> dict | None:
        """`timers` (those of a commit: None keeps the stored ones) with a timer for every
        computer the game now waits for that has none: it moves when that timer fires, so a
        restart in between loses nothing."""
        if game.outcome(state) is not None or self.people_gone(row, game, state):
            return timers
        waiting = [p for p in game.awaited(state) if computers.is_computer(p)]
        waiting += [p for p in self.draw_answers_owed(game, state) if p not in waiting]
        if not waiting:
            return timers
        if timers is None:
            stored = await self.store.timers_of(row.id)
            if all(COMPUTER_TIMER + p in stored for p in waiting):
                return None
            timers = {kind: (t.due_at, t.data) for kind, t in stored.items()}
        else:
            timers = dict(timers)
        due = now + computers.PAUSE * self.computer_pace
        for player in waiting:
            timers.setdefault(COMPUTER_TIMER + player, (due, {}))
        return timers

    async def rearm_computers(self, serves=None) -> int:
        """Give a timer to every computer that an active game waits for (a move, or its answer
        to a draw offer) and that has none, as a commit would (`with_computer_timers`): a lost
        timer (a bug, an older version's race) would otherwise leave the game waiting for ever.
        Only the games of the servers that `serves(guild_id)` says are this process's (None:
        all). Returns how many games it re-armed."""
        rearmed = 0
        for game_id, guild_id in await self.store.games_short_of_timers(COMPUTER_TIMER):
            if serves is not None and not serves(guild_id):
                continue
            try:
                row = await self.store.get_game(game_id)
                if row is None or row.status != "active":
                    continue
                now = self.clock()
                stored = await self.store.timers_of(game_id)
                wanted = await self.with_computer_timers(row, self.game_of(row), self.state_of(row), {}, now)
                missing = {kind: timer for kind, timer in wanted.items() if kind not in stored}
                if not missing:
                    continue   # (a person is to move)
                await self.store.retime(game_id, row.version, missing, [], now)
            except Conflict:
                continue   # the game moved on meanwhile: that move set its timers
            except Exception:
                log.exception("could not re-arm the computers of game %s", game_id)
                continue
            log.info("re-armed the computers of game %s that had no timer", game_id)
            rearmed += 1
        if rearmed:
            self.on_commit()   # (the background task then sleeps until they are due)
        return rearmed

    @staticmethod
    def draw_answers_owed(game, state) -> list[str]:
        """The computers that have a draw offer to answer."""
        public = game.view(state, None)
        offer = public.get("draw_offer")
        if not offer:
            return []
        return [p for p in ui.adapter_for(game.name).players_in(game, public)
                if computers.is_computer(p) and p not in offer["accepted"]]

    async def _computer_due(self, row: GameRow, player: str, claim: str | None = None) -> bool:
        """A computer's turn came (its timer fired, claimed by `claim`; or, without, a deadline
        found it late): it thinks in a task of its own (the timers and the outbox go on
        meanwhile) that holds its timer's claim until it has moved: no other process takes
        the turn unless this one dies. True if that task holds the claim now."""
        key = (row.id, player)
        kind = COMPUTER_TIMER + player
        task = self.thinking.get(key)
        if task is not None and not task.done():
            return False
        if claim is None:
            wall = time.time()
            if await self.store.claim_timer(row.id, kind, self.me, wall, wall + self.lease) is False:
                return False   # another process has it in hand
            claim = self.me
        self.thinking[key] = asyncio.create_task(self._computer_plays(row.id, player, claim),
                                                 name=f"computer {player} of game {row.id}")
        return True

    async def _computer_plays(self, game_id: int, player: str, claim: str) -> None:
        kind = COMPUTER_TIMER + player
        try:
            async with work.holding(self.store, game_id, kind, claim, self.lease):
                try:
                    moved = await self._computer_turn(game_id, player, kind)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("computer %s of game %s failed to move", player, game_id)
                    moved = False
                if not moved:   # its timer asks again in a while
                    await self._set_computer_timer(game_id, kind, self.clock() + COMPUTER_RETRY)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer %s of game %s failed to move", player, game_id)
        finally:
            if self.thinking.get((game_id, player)) is asyncio.current_task():
                del self.thinking[(game_id, player)]

    async def _computer_turn(self, game_id: int, player: str, kind: str) -> bool:
        """Ask the computer for its move on its own view, off the event loop, and apply it like
        a person's; if the game moved on meanwhile, ask again. When the game still waits for it
        afterwards (the steps of one action, BYOP1's next slides), its timer says when it goes
        on: after the usual pause, or BYOP1's pace for the slides just made. False if it did
        not get to move."""
        for _ in range(50):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                return True
            game = self.game_of(row)
            state = self.state_of(row)
            level, seed = computers.level_of(player), computers.seed_for(state["seed"], player)
            if player in self.draw_answers_owed(game, state):
                # Its own judgement, on its own view, off the loop like a move; it says why.
                accept, reason = await self.thinker.answer_draw(row.game, level, seed,
                                                                game.view(state, player))
                change = game.accept_draw if accept else game.decline_draw
                try:
                    await self.commit_change(row, game, state, change(state, player), actor=player,
                                             kind="accept" if accept else "decline",
                                             prefix=self.computer_says(row, player, reason))
                except Conflict:
                    pass
                continue
            if player not in game.awaited(state):
                # (dropped only if the game is still as seen: a move landing meanwhile may
                # wait for this computer now, and keeps the timer for it)
                try:
                    await self.store.set_timer(game_id, row.version, kind, None, [], self.clock())
                except Conflict:
                    continue
                return True
            decision = await self.thinker.decide(row.game, level, seed, game.view(state, player))
            latest = await self.store.get_game(game_id)
            if latest is None or latest.version != row.version:
                continue   # the state moved on: ask again
            if decision.resign:
                try:
                    await self.commit_change(row, game, state, game.resign(state, player),
                                             actor=player, kind="resign",
                                             prefix=self.computer_says(row, player, decision.resign))
                except Conflict:
                    continue
                return True
            action, delay, offer = decision.action, decision.delay, decision.offer
            try:
                parsed = game.parse_action(state, player, action)
                new = game.apply(state, player, parsed)
            except GameError:
                # (not what it chose, nor why it was refused: it may be a secret choice)
                log.warning("computer %s of game %s chose a move the game refused", player, game_id)
                return False
            try:
                await self.commit_change(row, game, state, new, actor=player, kind="move",
                                         detail=str(parsed))
            except Conflict:
                continue
            if offer is not None:
                await self._offer_draw(game_id, player, offer)
            if player in game.awaited(new) and game.outcome(new) is None:
                wait = (delay or computers.PAUSE) * self.computer_pace
                await self._set_computer_timer(game_id, kind, self.clock() + wait)
            return True
        return False

    async def _offer_draw(self, game_id: int, player: str, reason: str) -> None:
        """The computer offers a draw after its move (so the offer stands while the others
        think: a move of its own would end it), saying why."""
        row = await self.store.get_game(game_id)
        if row is None or row.status != "active":
            return
        game, state = self.game_of(row), self.state_of(row)
        if game.outcome(state) is not None or state["draw_offer"] is not None:
            return
        try:
            await self.commit_change(row, game, state, game.offer_draw(state, player), actor=player,
                                     kind="offer", prefix=self.computer_says(row, player, reason))
        except (Conflict, GameError):
            pass   # the game moved on first: the offer is not made

    @staticmethod
    def computer_says(row: GameRow, player: str, words: str) -> str:
        return f"💬 **{texts.display(row.names.get(player, player))}**: {texts.defuse(words)}"

    # ---- a game without people ---------------------------------------------------------------

    @staticmethod
    def people_gone(row: GameRow, game, state) -> bool:
        """Whether every person has left a game that computers still play (they resigned or
        ran out of time): computers do not play on alone."""
        if game.outcome(state) is not None:
            return False
        return not any(not computers.is_computer(p) for p in state["players"] if p not in state["left"])

    async def nobody_left_plan(self, row: GameRow, game, state):
        """The plan of the change after which no person is left: the game ends there, without
        a result (as an abort does), and says so."""
        last = game.view(state, None)["log"][-1:]
        said = texts.with_names(last[0]["text"], row.names).rstrip(".") + ". " if last else ""
        note = f"🛑 {said}No person is left in the game, so it ends here, without a result."
        return self.Plan("cancelled", [Notice("channel", row.thread_id or row.channel_id,
                                              {"content": texts.clip(note)})], {})

    async def _set_computer_timer(self, game_id: int, kind: str, due: float | None) -> None:
        """Move (or with None, drop) a computer's timer on the game as it is now: a timer
        that turns out to be stale does no harm (the computer looks before it moves)."""
        for _ in range(5):
            row = await self.store.get_game(game_id)
            if row is None or row.status != "active":
                return
            try:
                await self.store.set_timer(game_id, row.version, kind, due, [], self.clock())
                self.on_commit()   # (the background task then sleeps until it is due)
                return
            except Conflict:
                continue

    async def computers_idle(self) -> None:
        """Wait until no computer is thinking (tests, shutdown)."""
        while self.thinking:
            await asyncio.gather(*list(self.thinking.values()), return_exceptions=True)

    def stop_computers(self) -> None:
        """The bot stops: so does the work beyond its timers (computers thinking, the games'
        background work), leaving its claims to another process."""
        for task in [*self.thinking.values(), *self.keepers]:
            task.cancel()
        self.thinker.close()
