"""The parts of what the game flow says: draw offers' notices, the turn post's lines, the
result line and a player's private notice (each from what its reader may know)."""

from __future__ import annotations

from typing import Mapping

from .. import computers, texts, ui
from ..storage import GameRow, Notice


class Notices:
    """GameFlow's part (bot.flow.core) that words turns, results and private prompts."""

    def draw_notices(self, row, game, new, view, actor, kind, head_lines, thread) -> list[Notice]:
        names = row.names
        offer = view["draw_offer"]
        answering = [p for p in ui.adapter_for(row.game).players_in(game, view)
                     if offer and p not in offer["accepted"]]
        if kind == "offer":
            people = [p for p in answering if not computers.is_computer(p)]
            if not people:   # (computers answer by themselves: nothing for anyone to press)
                lines = head_lines + [f"Waiting for {texts.name_list(answering, names)} to answer."]
                return [Notice("channel", thread, {"content": texts.clip("\n".join(lines))}, tag="draw")]
            lines = head_lines + [" ".join(texts.mention(p) for p in people)
                                  + ": do you accept the draw? (Or `/draw accept`, `/draw decline`.)"]
            return [Notice("channel", thread, {"content": texts.clip("\n".join(lines)),
                                               "mentions": people,
                                               "controls": [["draw", row.id, "accept"],
                                                            ["draw", row.id, "decline"]]}, tag="draw")]
        if kind == "accept":
            head_lines = head_lines + [f"🤝 **{texts.display(names.get(actor, actor))}** accepts the "
                                       f"draw; waiting for {texts.name_list(answering, names)}."]
        return [Notice("channel", thread, {"content": texts.clip("\n".join(head_lines))})]

    def secret_status(self, game, state, names) -> str:
        secret = [p for p in game.to_act(state) if game.prompt(state, p).kind == "secret"]
        if not secret:
            return ""
        waiting = [p for p in game.awaited(state) if p in secret]
        chosen = [p for p in secret if p not in waiting]
        text = f"🔒 {len(chosen)} of {len(secret)} chosen"
        if chosen:
            text += f": {texts.name_list(chosen, names)}"
        if waiting:
            text += f"; waiting for {texts.name_list(waiting, names)}"
        return text + "."

    def turn_lines(self, row, game, old, new, names, deadline_at: float | None, *,
                   fresh: set[str]) -> list[str]:
        """Who is to do what now; players newly asked are mentioned (pinged), others named."""
        adapter = ui.adapter_for(row.game)

        def who(player: str) -> str:
            return texts.mention(player) if player in fresh and not computers.is_computer(player) else \
                f"**{texts.display(names.get(player, player))}**"

        lines = []
        public, secret, private = [], [], []
        for player in game.to_act(new):
            {"public": public, "secret": secret, "private": private}[game.prompt(new, player).kind].append(player)
        for player in public:
            if computers.is_computer(player):
                lines.append(f"{who(player)} is thinking…")
                continue
            prompt = adapter.turn_prompt(game, old, new, player)
            lines.append(f"{who(player)}, your turn. {texts.with_names(prompt, names)}")
        # Computers choose by themselves: the instructions are for the people.
        status_secret = secret
        secret = [p for p in secret if not computers.is_computer(p)]
        private = [p for p in private if not computers.is_computer(p)]
        if secret:
            lines.append(f"{' '.join(map(who, secret))}: make your secret choice. Your controls are "
                         "in your DMs (or press **Open my private controls**).")
        for player in private:
            if player not in row.dms_closed:   # those are told about the button below
                # (true before the bot learns whether the player's DMs are open)
                lines.append(f"{who(player)}: your private board comes by DM; if your DMs are "
                             "closed, press **Open my private controls**.")
        closed = [p for p in secret + private if p in row.dms_closed]
        if closed:
            # (mentioned when newly asked: no DM tells them)
            lines.append(f"{' '.join(map(who, closed))}: I cannot send you DMs, so press "
                         "**Open my private controls**.")
        if status_secret:
            lines.append(self.secret_status(game, new, names))
        if deadline_at and not all(computers.is_computer(p) for p in game.awaited(new)):
            # (a computer is never timed out: its turn has no deadline to show)
            lines.append(f"⏳ Deadline {texts.timestamp(deadline_at)}.")
        return lines

    @staticmethod
    def result_line(game, state, names, *, explained: bool = False,
                    extras: Mapping | None = None) -> str:
        """How the game ended; with `explained`, the log lines just before say why. `extras`
        (with `history`) let a game add what it knows beside the state (a best score)."""
        adapter = ui.adapter_for(game.name)
        notes = adapter.result_notes(game, state, names, extras or {})
        own = adapter.own_result(game, state, names, extras or {})
        if own is not None:
            return own + (f" {notes}" if notes else "")
        outcome = game.outcome(state)
        if outcome.draw:
            head = "🏁 The game ends in a draw"
        elif not outcome.winners:   # (alone, there was nobody to win against)
            head = "🏁 The game is over" if len(state["players"]) == 1 else "🏁 The game ends without a winner"
        elif len(state["players"]) == 1:   # played alone: nobody to beat
            head = f"🏁 {texts.name_list(list(outcome.winners), names)} finished"
        else:
            head = f"🏁 {texts.name_list(list(outcome.winners), names)} wins"
        if not explained and texts.says_result(outcome.reason, len(state["players"]) == 1):
            # (not "bob wins (bob wins …)"; alone, who it was when the reason does not say)
            who = "" if any(p in outcome.reason for p in state["players"]) else \
                f"{texts.name_list(list(state['players']), names)} "
            head = f"🏁 {who}{texts.with_names(outcome.reason, names)}"
        elif not explained:
            head += f" ({texts.with_names(outcome.reason, names)})"
        standings = adapter.standings(game, state, names)
        return f"{head}." + "".join(f" {t}" for t in (standings, notes) if t)

    def private_notice(self, row: GameRow, game, state, player: str, names, *,
                       reminder: str = "") -> Notice:
        prompt = game.prompt(state, player)
        adapter = ui.adapter_for(row.game)
        specs, note = adapter.player_controls(row.id, game, state, player, names)
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
            "prompt": prompt.kind,   # (which words close it: see closed_note)
            **(self.private_payload(row, game, state, player, names, reminder=reminder)
               if prompt.kind == "private" else {}),
            # Posted in the thread (once per game: the button serves every later turn) when
            # Discord refuses the DM.
            "fallback": {
                "content": (f"{reminder} " if reminder else "")
                           + f"{texts.mention(player)}, I cannot send you direct messages: press "
                             "**Open my private controls** to see your "
                           + ("board" if prompt.kind == "private" else "choices") + " here, privately.",
                "controls": [["mine", row.id, "Open my private controls"]],
                "mentions": [player],
            },
            "fallback_once": True,
        }
        return Notice("user", int(player), payload, tag=f"dm:{player}")
