"""What the game flow says after a change, and to whom: the plan of a commit's notices and
timers, for public and secret turns and for private boards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from .. import computers, texts, ui
from ..storage import GameRow, Notice, OutboxItem
from .common import CLOSED, DRAW_OVER, REPLACED, closed_note, compose, public_part, rematch_controls, strip

if TYPE_CHECKING:
    from .core import GameFlow


class Planning:
    """GameFlow's part (bot.flow.core) that plans the notices and timers of a change."""

    # ---- what to say after a change ----------------------------------------------------------

    @dataclass
    class Plan:
        status: str
        notices: list
        timers: dict | None

    def _plan(self, row: GameRow, game, old, new, *, actor, kind, now, prefix="",
              posts: Mapping[str, OutboxItem], in_place: bool = False,
              extras: Mapping | None = None, clock_from: float | None = None) -> "GameFlow.Plan":
        """The notices and timers after a change from `old` to `new` (old is None at the start).
        `posts` are the game's latest tagged notices: the board post, DMs, the draw offer."""
        if any(game.prompt(state, p).kind == "private"
               for state in (old, new) if state is not None for p in game.to_act(state)):
            return self._private_plan(row, game, old, new, actor=actor, kind=kind, now=now,
                                      prefix=prefix, posts=posts, in_place=in_place,
                                      extras=extras, clock_from=clock_from)
        names = row.names
        thread = row.thread_id or row.channel_id
        adapter = ui.adapter_for(row.game)
        new_public = game.view(new, None)
        old_public = game.view(old, None) if old is not None else None
        # A view holds the latest entries of the log; log_start counts the ones before them.
        seen = old_public["log_start"] + len(old_public["log"]) if old_public else 0
        new_entries = new_public["log"][max(0, seen - new_public["log_start"]):]
        log_lines = [texts.with_names(e["text"], names) for e in new_entries]
        finished = game.outcome(new) is not None
        board_post = posts.get("board")

        before = game.prompt(old, actor) if (old is not None and actor) else None
        if (kind == "move" and before is not None and before.kind == "secret"
                and public_part(old_public) == public_part(new_public)):
            # A commit inside a secret phase: the turn post's status line says who has chosen
            # (edited on a first choice only: a change of mind shows nowhere).
            if actor not in game.awaited(old) and not log_lines:
                return self.Plan("active", [], None)
            if board_post is None or log_lines:
                content = "\n".join(log_lines + [self.secret_status(game, new, names)])
                return self.Plan("active", [Notice("channel", thread, {"content": texts.clip(content)})], None)
            payload = board_post.payload
            pinged = set(payload.get("pinged", []))
            tail = self.turn_lines(row, game, old, new, names, payload.get("deadline_at"), fresh=pinged)
            # (the same controls again: a repost, when the post is gone, needs them)
            edit = {"head": payload.get("head", ""), "deadline_at": payload.get("deadline_at"),
                    "pinged": sorted(pinged), "content": compose(payload.get("head", ""), tail),
                    "controls": payload.get("controls", []), "repost": True}
            return self.Plan("active", [Notice(board_post.target_kind, board_post.target_id, edit,
                                               tag="board", edit_of=board_post.id)], None)

        if kind == "expire" and log_lines:
            # The engine's lines say who was late and what follows: mark the first, say no more.
            log_lines[0], prefix = f"⏰ The deadline passed: {log_lines[0]}", ""
        head_lines = ([prefix] if prefix else []) + log_lines
        notices: list[Notice] = []
        if old_public and old_public["draw_offer"] and not new_public["draw_offer"]:
            notices += strip(posts.get("draw"), DRAW_OVER)
        if not finished and kind in ("offer", "accept", "decline"):
            # Draw offers and answers: short posts; the board and the turn stand as they were.
            notices += self.draw_notices(row, game, new, new_public, actor, kind, head_lines, thread)
            return self.Plan("active", notices, None)

        live_dms = {tag[3:]: item for tag, item in posts.items() if tag.startswith("dm:")}
        board = {"view": new_public, "names": names}
        if finished:   # (commit_change takes the controls off every post of the game)
            extras = extras if extras is not None else row.extras
            if adapter.own_result(game, new, names, extras) is not None:   # it says how it ended
                head_lines = [prefix] if prefix else []
            head = "\n".join(head_lines + [self.result_line(game, new, names, explained=bool(log_lines),
                                                            extras=extras)])
            board["view"] = adapter.final_view(game, new, new_public, extras)
            notices.append(Notice("channel", thread, {"head": head, "content": compose(head, []),
                                                      "board": board, "controls": rematch_controls(row)},
                                  tag="board"))
            for content, view in adapter.final_posts(game, new, extras):
                notices.append(Notice("channel", thread, {"content": texts.clip(content),
                                                          "board": {"view": view, "names": names}}))
            return self.Plan("finished", notices, {})

        timers = self.timers_for(row, now, clock_from)
        deadline_at = timers["deadline"][0] if "deadline" in timers else None
        fresh = {p for p in game.to_act(new)
                 if self.newly_asked(game, old, new, p) and not computers.is_computer(p)}
        controls = adapter.turn_controls(row.id, game, new, new_public, names)
        goes_on = (kind == "move" and board_post is not None and game.to_act(new) and not fresh
                   and all(game.prompt(new, p).kind == "public" for p in game.to_act(new)))
        if goes_on:
            # The same player goes on with the same action: their board post follows it.
            pinged = set(board_post.payload.get("pinged", [])) & set(game.to_act(new))
            tail = self.turn_lines(row, game, old, new, names, deadline_at, fresh=pinged)
            head = "\n".join(line for line in [board_post.payload.get("head", ""), *head_lines] if line)
            notices.append(Notice(board_post.target_kind, board_post.target_id, {
                "head": head, "deadline_at": deadline_at, "pinged": sorted(pinged),
                "content": compose(head, tail), "board": board, "controls": controls,
                "repost": True}, tag="board", edit_of=board_post.id))
        else:
            notices += strip(board_post)
            tail = self.turn_lines(row, game, old, new, names, deadline_at, fresh=fresh)
            head = "\n".join(head_lines)
            notices.append(Notice("channel", thread, {
                "head": head, "deadline_at": deadline_at, "pinged": sorted(fresh),
                "content": compose(head, tail), "board": board, "controls": controls}, tag="board"))

        for player in game.to_act(new):
            if game.prompt(new, player).kind == "public" or player not in fresh:
                continue
            notices += strip(live_dms.pop(player, None), REPLACED if player not in row.dms_closed else CLOSED)
            if player not in row.dms_closed:   # else the turn post says to use the button
                notices.append(self.private_notice(row, game, new, player, names))
        for player, item in live_dms.items():   # DM controls of a phase that is over
            prompt = game.prompt(new, player)
            if prompt is None or prompt.kind == "public":
                notices += strip(item, CLOSED)
        return self.Plan("active", notices, timers)

    def _private_plan(self, row: GameRow, game, old, new, *, actor, kind, now, prefix,
                      posts: Mapping[str, OutboxItem], in_place: bool,
                      extras: dict | None = None, clock_from: float | None = None) -> "GameFlow.Plan":
        """Private boards: every player plays their own board in one DM message at once.

        - A move that changes nothing public (a slide) posts nothing: the player's board
          message is updated in place by the caller (`in_place`), else edited here. Once the
          player's board is done, the message is edited here in any case, so that the outbox
          knows what it shows.
        - When the round ends, every board message of the round shows how it ended for its
          player, with the board's last position (see `private_payload`).
        - The thread keeps one status post per round (tag "board"), edited as players finish.
        - A new round (adapter.private_round changes): the round's result image, a new status
          post, new DMs (the old ones show how the round ended), and the deadline restarts."""
        names = row.names
        thread = row.thread_id or row.channel_id
        adapter = ui.adapter_for(row.game)
        new_public = game.view(new, None)
        old_public = game.view(old, None) if old is not None else None
        old_log = len(old_public["log"]) if old_public else 0
        log_lines = [texts.with_names(e["text"], names) for e in new_public["log"][old_log:]]
        finished = game.outcome(new) is not None
        status_post = posts.get("board")
        live_dms = {tag[3:]: item for tag, item in posts.items() if tag.startswith("dm:")}
        new_round = old is None or adapter.private_round(game, old) != adapter.private_round(game, new)
        notices: list[Notice] = []

        if (actor is not None and kind == "move" and not new_round and not finished
                and (not in_place or actor not in game.to_act(new))
                and actor in live_dms and actor not in row.dms_closed):
            # A move typed with /move (or the Done of a button): the player's board message
            # follows it. (A move that ends the round: every board message is edited below.)
            payload = self.private_payload(row, game, new, actor, names)
            notices.append(Notice("user", int(actor), {**payload, "repost": True},
                                  tag=f"dm:{actor}", edit_of=live_dms[actor].id))
        if old_public is not None and not log_lines and public_part(old_public) == public_part(new_public):
            return self.Plan("active", notices, None)

        if kind == "expire" and log_lines:
            log_lines[0], prefix = f"⏰ {log_lines[0]}", ""
        head_lines = ([prefix] if prefix else []) + log_lines
        board = {"view": new_public, "names": names}
        started = (status_post.payload.get("started_at") or status_post.payload.get("round_started_at")
                   if status_post else None) or now
        if finished:
            notices += strip(status_post, "*(The game is over: see below.)*")
            notices += self.closing_boards(row, game, old, new, live_dms, names)
            # How long the game took, kept with its extras (a solo result compares with it).
            shown = extras if extras is not None else dict(row.extras)
            shown["seconds"] = round(now - started)
            if adapter.own_result(game, new, names, shown) is not None:   # it says how it ended
                head_lines = [prefix] if prefix else []
            lines = head_lines + [self.result_line(game, new, names, explained=bool(log_lines),
                                                   extras=shown)]
            head = "\n".join(lines)
            notices.append(Notice("channel", thread, {"head": head, "content": compose(head, []),
                                                      "board": board, "controls": rematch_controls(row)},
                                  tag="result"))
            return self.Plan("finished", notices, {})

        playing = list(game.to_act(new))
        controls = [["mine", row.id, "Open my private controls"]]
        if not new_round:
            # Someone finished (or left): the round's status post says so.
            deadline_at = status_post.payload.get("deadline_at") if status_post else None
            for player in live_dms:
                if player not in playing and (player != actor or kind != "move"):
                    # (a mover's own board message follows the move, above; one who left
                    # loses its controls)
                    notices += strip(live_dms[player], closed_note(live_dms[player]))
            content = compose("\n".join(adapter.board_status(game, new, names)),
                              self.turn_lines(row, game, old, new, names, deadline_at, fresh=set()))
            payload = {"content": content, "controls": controls, "deadline_at": deadline_at,
                       "round_started_at": status_post.payload.get("round_started_at") if status_post else now,
                       "started_at": started}
            if status_post is not None:
                notices.append(Notice(status_post.target_kind, status_post.target_id,
                                      {**payload, "repost": True}, tag="board", edit_of=status_post.id))
            else:
                notices.append(Notice("channel", thread, payload, tag="board"))
            return self.Plan("active", notices, None)

        timers = self.timers_for(row, now, clock_from)
        deadline_at = timers["deadline"][0] if "deadline" in timers else None
        if old is not None:
            notices += strip(status_post, "*(This round is over: see the result below.)*")
            notices.append(Notice("channel", thread, {"content": compose("\n".join(head_lines), []),
                                                      "board": board}, tag="result"))
            head_lines = []
            notices += self.closing_boards(row, game, old, new, live_dms, names)
        lines = head_lines + adapter.board_status(game, new, names)
        content = compose("\n".join(lines),
                          self.turn_lines(row, game, old, new, names, deadline_at, fresh=set(playing)))
        # Players whose DMs are known closed get no DM: the post that asks them pings them.
        pinged = sorted(p for p in playing if p in row.dms_closed and not computers.is_computer(p))
        notices.append(Notice("channel", thread, {"content": content, "controls": controls,
                                                  "deadline_at": deadline_at, "pinged": pinged,
                                                  "round_started_at": now, "started_at": started},
                              tag="board"))
        for player in playing:
            if player not in row.dms_closed and not computers.is_computer(player):
                # (else the status post says to use the button; computers get no DMs)
                notices.append(self.private_notice(row, game, new, player, names))
        return self.Plan("active", notices, timers)

    def private_payload(self, row: GameRow, game, state, player: str, names, *,
                        reminder: str = "", of_round=None) -> dict:
        """A player's private board message: text, own board image, controls. `of_round`: the
        round (adapter.private_round) the message was made in. Once that round is over, the
        message shows how it ended for the player and their board's last position, whichever
        way the last move came (a button, /move, autodone, a deadline, another's Done)."""
        adapter = ui.adapter_for(row.game)
        title = texts.game_label(game.title, row.id)
        where = f" in <#{row.thread_id}>" if row.thread_id else ""
        final = None if of_round is None else adapter.private_final(game, state, player, names,
                                                                    of_round)
        if final is not None:
            text, view = final
            return {"content": texts.clip(f"**{title}**{where}: {texts.with_names(text, names)}"),
                    "board": {"view": view, "names": names}, "controls": [], "prompt": "private"}
        specs, note = adapter.player_controls(row.id, game, state, player, names)
        text = texts.with_names(adapter.private_text(game, state, player, names), names)
        head = f"{reminder}\n" if reminder else ""
        return {"content": texts.clip(f"{head}**{title}**{where}: {text}{note}"),
                "board": {"view": game.view(state, player), "names": names}, "controls": specs,
                "prompt": "private"}

    def closing_boards(self, row: GameRow, game, old, new, live_dms: Mapping[str, OutboxItem],
                       names) -> list[Notice]:
        """A round of private boards is over (or the game): each player's board message of the
        round is edited to show how it ended for them (their last position, no controls); any
        other private message still live just loses its controls."""
        adapter = ui.adapter_for(row.game)
        of_round = adapter.private_round(game, old)
        notices: list[Notice] = []
        for player, item in live_dms.items():
            if (adapter.private_final(game, new, player, names, of_round) is None
                    or player in row.dms_closed
                    or (item.failed and item.edit_of is None)):
                # (no board of this round: the player sat it out or left, or has no DM)
                notices += strip(item, closed_note(item))
            else:
                payload = self.private_payload(row, game, new, player, names, of_round=of_round)
                notices.append(Notice("user", int(player), payload, tag=f"dm:{player}",
                                      edit_of=item.id))
        return notices

    @staticmethod
    def newly_asked(game, old, new, player: str) -> bool:
        """Whether `player` is asked for a new decision (pinged, and sent private controls),
        rather than still being asked the same (a secret choice while others resign, the
        further steps of one action)."""
        if old is None or player not in game.to_act(old):
            return True
        was, now = game.prompt(old, player), game.prompt(new, player)
        if was.kind != now.kind:
            return True
        if now.kind == "public":
            return not ui.adapter_for(game.name).continues(game, old, new, player)
        return ui.stamp(game, old, player) != ui.stamp(game, new, player)
