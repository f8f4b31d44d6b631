"""Play in the game flow: a game's background work (off the event loop), the actions of its
players (moves, resignations, draws), aborts, the commit of every change, and replays."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import replace
from typing import Mapping

from engine import GameError

from .. import computers, ratings, texts, ui, work
from ..errors import StaleControls, UserError
from ..storage import SOLVE_TIMER, Conflict, Event, GameRow, Notice
from .common import GENERIC_OPS, Done, log, strip_at_end


BACKGROUND_POLL = 0.5   # seconds between looks for another process's background answer


class Play:
    """GameFlow's part (bot.flow.core) that applies and commits the changes of a game."""

    # ---- background work (off the event loop) ---------------------------------------------

    def launch_background(self, game_id: int, game, state, extras: Mapping,
                          claim: str | None = None) -> asyncio.Future | None:
        """Start the game's background work (if it has any still to do) in the background pool;
        its answer is merged into the game's extras when it comes. `claim`: the claimant of
        the game's SOLVE_TIMER, held while the work goes on and done with its answer."""
        job = self.jobs.get(game_id)
        if job is None:
            work_ = ui.adapter_for(game.name).background(game, state, extras)
            if work_ is None:
                return None
            job = self.jobs[game_id] = asyncio.ensure_future(self.background_pool.run(work_))
        elif claim is None:
            return job   # (its answer is kept already, or will be at the game's end)
        keeper = asyncio.get_running_loop().create_task(self._keep_background(game_id, job, claim))
        self.keepers.add(keeper)
        keeper.add_done_callback(self.keepers.discard)
        return job

    async def _keep_background(self, game_id: int, job: asyncio.Future, claim: str | None) -> None:
        async with (work.holding(self.store, game_id, SOLVE_TIMER, claim, self.lease) if claim
                    else contextlib.nullcontext()):
            try:
                values = await job
            except Exception:   # (given up, as its timer: the game ends without its answer)
                log.exception("the background work of game %s failed", game_id)
                values = {}
            await self.store.merge_extras(game_id, values, now=self.clock(),
                                          done=(SOLVE_TIMER, claim) if claim else None)

    async def start_background(self, row: GameRow, game, state) -> None:
        """A game starts: its background work starts now, here, if it has any, holding the
        claim on the game's SOLVE_TIMER (which the start's commit set)."""
        wall = time.time()
        if await self.store.claim_timer(row.id, SOLVE_TIMER, self.me, wall, wall + self.lease):
            if self.launch_background(row.id, game, state, row.extras, self.me) is None:
                await self.store.set_timer(row.id, row.version, SOLVE_TIMER, None, [], self.clock())

    def with_background_timer(self, row: GameRow, game, state, timers: dict | None,
                              now: float) -> dict | None:
        """A starting game's `timers` with its SOLVE_TIMER if it has background work to do."""
        if ui.adapter_for(game.name).background(game, state, row.extras) is None:
            return timers
        return {**(timers or {}), SOLVE_TIMER: (now, {})}

    async def solve_due(self, row: GameRow, claim: str | None) -> bool:
        """The game's SOLVE_TIMER fired (the process that started the work died, or it
        failed): do it here. True if the work holds the claim now."""
        if self.launch_background(row.id, self.game_of(row), self.state_of(row), row.extras,
                                  claim) is not None:
            return claim is not None
        await self.store.set_timer(row.id, row.version, SOLVE_TIMER, None, [], self.clock())
        return False   # (nothing to do: its answer is there)

    async def background_result(self, row: GameRow, game, state) -> dict:
        """The answer of the game's background work, waiting for it (or doing it now, after a
        restart) if need be; {} if there is none or it failed. When another process has it
        in hand, its answer is waited for in the game's extras, up to a lease."""
        job = self.jobs.get(row.id)
        if job is None and ui.adapter_for(row.game).background(game, state, row.extras) is not None:
            wall = time.time()
            held = await self.store.claim_timer(row.id, SOLVE_TIMER, self.me, wall, wall + self.lease)
            if held is False:
                for _ in range(int(self.lease / BACKGROUND_POLL) + 1):
                    await asyncio.sleep(BACKGROUND_POLL)
                    latest = await self.store.get_game(row.id)
                    if ui.adapter_for(row.game).background(game, state, latest.extras) is None:
                        return latest.extras
            job = self.launch_background(row.id, game, state, row.extras, self.me if held else None)
        if job is None:
            return {}
        try:
            return dict(await asyncio.shield(job))
        except Exception:
            return {}
        finally:
            if job.done():
                self.jobs.pop(row.id, None)

    # ---- actions ---------------------------------------------------------------------------

    def check_seated(self, row: GameRow, user_id: int) -> None:
        if not row.seat_of(user_id):
            raise UserError(texts.between(row.names))

    async def act(self, game_id: int, user_id: int, op: str, text: str | None = None, *,
                  stamp: str | None = None, round_: int | None = None,
                  in_place: bool = False) -> Done:
        """Apply `op` (move, or one of GENERIC_OPS) for a seated player. `stamp` (and `round_`,
        for a secret phase's button) say which controls the move came from. `in_place`: the
        move came from the player's private board message itself, which the caller updates
        (else that message is edited through the outbox)."""
        player = str(user_id)
        for _ in range(5):
            row = await self.get_running(game_id)
            self.check_seated(row, user_id)
            game = self.game_of(row)
            state = self.state_of(row)
            before = game.prompt(state, player)
            self.check_controls(row, game, state, player, stamp, round_)
            try:
                if op == "move":
                    # Parsed once; a player who is not to act is refused before any parsing.
                    action = game.parse_action(state, player, text) \
                        if player in game.to_act(state) else text
                    new = game.apply(state, player, action)
                    detail = str(action)
                else:
                    new, detail = GENERIC_OPS[op](game, state, player), ""
            except GameError as exc:
                raise UserError(texts.with_names(texts.defuse(exc), row.names)) from None
            secret = op == "move" and before is not None and before.kind == "secret"
            private = op == "move" and before is not None and before.kind == "private"
            extras = None
            if game.outcome(new) is not None:
                extras = await self.final_extras(row, game, new, user_id)
            try:
                await self.commit_change(row, game, state, new, actor=player, kind=op, detail=detail,
                                         in_place=in_place, extras=extras)
            except Conflict:
                # Secret commits and moves on private boards are independent of one another:
                # just try again on the new state.
                if secret or private:
                    continue
                raise UserError("The board changed while you were moving; have a look and try again.") from None
            return Done(texts.clip(self._confirmation(row, game, state, new, player, op, detail, secret)),
                        row, new, private,
                        ui.adapter_for(row.game).private_round(game, state) if private else None)
        raise UserError("The game is busy; please try again.")

    async def final_extras(self, row: GameRow, game, state, user_id: int) -> dict:
        """A finishing game's extras: what it had, its background work's answer, what the game
        keeps of its end, and (as `history`, not stored) the extras of the player's earlier
        finished games of the same kind in this server."""
        adapter = ui.adapter_for(row.game)
        extras = {**row.extras, **await self.background_result(row, game, state),
                  **adapter.extras_at_finish(game, state)}
        history = await self.store.finished_extras(row.game, row.guild_id, user_id)
        return {**extras, "history": history}

    @staticmethod
    def check_controls(row: GameRow, game, state, player: str, stamp: str | None,
                       round_: int | None) -> None:
        """Refuse a move made with controls built for another moment of the game."""
        if stamp is None:
            return
        current = ui.stamp(game, state, player)
        if round_ is not None:
            prompt = game.prompt(state, player)
            if prompt is None or prompt.kind != "secret":
                raise UserError(f"The choices of turn {round_} are revealed already; see the thread.")
            if stamp != current:
                now = ui.adapter_for(row.game).secret_round(game, state)
                raise StaleControls(f"Those buttons were for turn {round_}; here are the ones for turn {now}."
                                    if now != round_ else "Those buttons are out of date; here are the current ones.")
        elif player in game.to_act(state) and stamp != current:
            if game.prompt(state, player).kind != "public":
                # private controls (a DM, or the first release's die faces): the latest ones may
                # be these very ones, so the player is shown the current ones
                raise StaleControls("Those buttons are out of date; here are the current ones.")
            raise UserError("Those controls are out of date: the game has moved on. "
                            "Use the latest ones, or `/move`.")

    def _confirmation(self, row, game, old, new, player, op, detail, secret) -> str:
        adapter = ui.adapter_for(row.game)
        if op == "move":
            said = adapter.describe_action(game, old, player, detail)
            if not secret:
                return f"✅ Played {said}."
            round_ = adapter.secret_round(game, old)
            choice = f"🔒 Your choice{'' if round_ is None else f' for turn {round_}'}: {said}."
            prompt = game.prompt(new, player)
            if player in game.awaited(new) or prompt is None or prompt.kind != "secret":
                # the phase is over (this was the last choice): the reveal is in the thread
                return f"{choice} Everyone has chosen: see the reveal in the thread."
            return f"{choice} Nobody else sees it; you may change it until everyone has chosen."
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
        notices = [Notice("channel", row.thread_id or row.channel_id,
                          {"content": f"🛑 The game was aborted by **{texts.display(name)}**; "
                                      "it ends without a result."})]
        try:
            await self.store.commit(row.id, row.version, now=self.clock(),
                                    changes={"status": "cancelled"},
                                    events=[Event("abort", str(user_id))], notices=notices, timers={},
                                    strip=strip_at_end)
        except Conflict:
            raise UserError("The game changed at the same moment; please try again.") from None
        self.on_commit()
        await self.game_ended(game_id)
        return await self.get(game_id)

    async def commit_change(self, row: GameRow, game, old, new, *, actor: str | None, kind: str,
                            detail: str = "", prefix: str = "", in_place: bool = False,
                            extras: dict | None = None) -> None:
        """`extras`: the game's extras as they stand now (at its end), with `history`."""
        now = self.clock()
        # Read before the version-checked commit: if the game moves on meanwhile, it conflicts.
        posts = await self.store.tagged_notices(row.id)
        clock_from, away = await self.away_pause(row, game, new, now)
        plan = self._plan(row, game, old, new, actor=actor, kind=kind, now=now, prefix=prefix,
                          posts=posts, in_place=in_place, extras=extras, clock_from=clock_from)
        plan.notices += self.away_notices(row, game, old, new, plan, away, clock_from)
        if plan.status == "finished":
            for hook in self.end_hooks:
                plan.notices += await hook(row, game, new, extras if extras is not None else row.extras)
        elif plan.status == "active" and self.people_gone(row, game, new):
            plan = await self.nobody_left_plan(row, game, new)   # computers do not play on alone
        if computers.is_computer(actor):
            # nobody waits on these boards to the millisecond: people's boards are drawn first
            plan.notices = [replace(n, payload={**n.payload, "unhurried": True})
                            if "board" in n.payload else n for n in plan.notices]
        timers = await self.with_computer_timers(row, game, new, plan.timers, now)
        changes = {"state": game.to_json(new), "status": plan.status}
        if extras is not None:
            changes["extras"] = {k: v for k, v in extras.items() if k != "history"}
        # A rated game is rated in the transaction that finishes it: exactly once.
        rated = ratings.rated_result(row, game, new) if plan.status == "finished" else None
        await self.store.commit(
            row.id, row.version, now=now,
            changes=changes,
            events=[Event(kind, actor, detail)], notices=plan.notices, timers=timers, rated=rated,
            # (posts the plan edits already end as it says)
            strip=strip_at_end if plan.status != "active" else None)
        self.on_commit()
        if plan.status == "finished":
            await self.game_ended(row.id)

    async def game_ended(self, game_id: int) -> None:
        """Tell the ended_hooks that a game has ended (its end is committed already)."""
        for hook in self.ended_hooks:
            try:
                await hook(game_id)
            except Exception:   # (the game is over whatever a hook does; its own work looks again)
                log.exception("an end hook of game %s failed", game_id)

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
            elif kind in GENERIC_OPS:
                state = GENERIC_OPS[kind](game, state, actor)
            elif kind == "expire":
                state = game.expire(state)
        return state
