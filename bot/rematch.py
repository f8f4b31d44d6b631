"""Rematches (the History cog's part, bot.history): the Rematch button under a finished game's
result post, the request it opens and its answers.

A rematch is a lobby row like any other (status 'lobby') seating the old game's players with
the seats rotated by one (computers keep their seats' players), with the same game, options and
deadline, and a new deal (a new seed: replaying the same deal would reward memory, not play).
The `rematches` table links it to the old game (one that is not cancelled per game). It starts
when every person of the old game has accepted (the one who asked has); one who declines
cancels it. With one person only (solo games, a person against computers) it starts at once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord.ui import Button, DynamicItem

from . import computers, texts
from .components import build_view, builds
from .errors import UserError
from .storage import Conflict, Event, GameRow

if TYPE_CHECKING:
    from .history import History

log = logging.getLogger("bot.history")   # (the cog's logger, as before the split)


def history_cog(interaction: discord.Interaction) -> "History":
    return interaction.client.get_cog("History")  # type: ignore[attr-defined,return-value]


@builds("rematch", phases=("finished",))
class RematchButton(DynamicItem[Button], template=r"pp:rematch:(?P<gid>\d+)"):
    """Under a finished game's result post: ask its players for a rematch."""

    def __init__(self, game_id: int):
        super().__init__(Button(label="Rematch", style=discord.ButtonStyle.primary, emoji="🔁",
                                custom_id=f"pp:rematch:{game_id}"))
        self.game_id = game_id

    @classmethod
    def from_spec(cls, game_id):
        return cls(int(game_id))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]))

    async def callback(self, interaction):
        await history_cog(interaction).rematch_pressed(interaction, self.game_id)


_ANSWERS = {"accept": ("Accept the rematch", discord.ButtonStyle.success),
            "decline": ("Decline", discord.ButtonStyle.secondary)}


@builds("rematch-answer", phases=("rematch request",))
class RematchAnswer(DynamicItem[Button], template=r"pp:rematch:(?P<gid>\d+):(?P<op>accept|decline)"):
    """Under a rematch request: accept or decline it (the id is the new game's)."""

    def __init__(self, game_id: int, op: str):
        label, style = _ANSWERS[op]
        super().__init__(Button(label=label, style=style, custom_id=f"pp:rematch:{game_id}:{op}"))
        self.game_id, self.op = game_id, op

    @classmethod
    def from_spec(cls, game_id, op):
        return cls(int(game_id), op)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["gid"]), match["op"])

    async def callback(self, interaction):
        await history_cog(interaction).rematch_answered(interaction, self.game_id, self.op)


def request_link(row: GameRow) -> str | None:
    """A jump link to a rematch's request message, when it is known."""
    where = row.extras.get("request")
    return f"https://discord.com/channels/{row.guild_id}/{where[0]}/{where[1]}" if where else None


def humans(row: GameRow) -> list[str]:
    return [p for p in row.player_ids if not computers.is_computer(p)]


class Rematches:
    """The History cog's rematches (bot.history.History is made of this and the rest)."""

    def lock(self, key: int) -> asyncio.Lock:
        # (kept, like the lobby's: dropping one while others wait would let a third run alone)
        return self.locks.setdefault(key, asyncio.Lock())

    # ---- rematch ---------------------------------------------------------------------------

    async def rematch_pressed(self, interaction: discord.Interaction, old_id: int) -> None:
        async with self.controller.answering(interaction, old_id):
            await self.request_rematch(interaction, old_id)

    async def request_rematch(self, interaction: discord.Interaction, old_id: int) -> None:
        """Open (or point at) the rematch of a finished game; the caller answers UserErrors."""
        old = await self.flow.get(old_id)
        if interaction.guild_id is not None and old.guild_id != interaction.guild_id:
            raise UserError(f"Game #{old_id} is in another server.")
        user = str(interaction.user.id)
        title = self.flow.game_of(old).title
        if user not in humans(old):
            raise UserError(f"Only the players of {texts.game_label(title, old.id)} "
                            f"({texts.name_list(humans(old), old.names)}) can ask for its rematch. "
                            "Start a game of your own with `/play`.")
        daily = await self.bot.store.daily_of_game(old.id)
        if daily is not None:
            raise UserError(f"Game #{old.id} was the daily {title} of {daily['day']}: each day's "
                            "puzzle is played once, and the next comes at midnight UTC "
                            f"(`/daily game:{old.game}`). For a new deal of your own now, "
                            f"`/play game:{old.game}`.")
        if old.status != "finished":
            raise UserError({"active": f"Game #{old.id} is not over yet.",
                             "lobby": f"Game #{old.id} has not started yet."}.get(
                old.status, f"Game #{old.id} ended without a result; start a new one with `/play`."))
        seats = sorted(old.seats, key=lambda s: s.seat)
        rotated = [replace(s, seat=n, dm_closed=False) for n, s in enumerate(seats[1:] + seats[:1])]
        async with self.lock(old.id):
            row, created = await self.bot.store.open_rematch(
                old.id, game=old.game, guild_id=old.guild_id, channel_id=old.channel_id,
                host_id=interaction.user.id, seats=rotated, options=old.options,
                deadline_seconds=old.deadline_seconds, accepted=[user], now=self.bot.now())
        accepted = [user] if created else (await self.bot.store.rematch_of(row.id) or (0, []))[1]
        if not created and not (row.status == "lobby" and all(p in accepted for p in humans(row))):
            raise UserError(self.existing_text(old, row))
        if all(p in accepted for p in humans(row)):
            # Nobody else to ask (a solo game, or computers only), or everyone had accepted
            # when the bot stopped before it could start the game: it starts now.
            await interaction.response.defer(thinking=True)
            async with self.lock(row.id):
                row = await self.flow.get(row.id)
                if row.status == "lobby":
                    row = await self.start(row, old)
            await interaction.followup.send(self.request_text(old, row, accepted))
            return
        response = await interaction.response.send_message(
            self.request_text(old, row, [user]),
            view=self.answer_view(row),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False,
                users=[discord.Object(int(p)) for p in humans(row) if p != user]))
        # Where the request is: /abort edits it, and a second ask links to it.
        message_id = await self.controller.response_message_id(interaction, response)
        if message_id is not None:
            await self.bot.store.merge_extras(
                row.id, {"request": [interaction.channel_id, message_id]}, now=self.bot.now())

    def existing_text(self, old: GameRow, row: GameRow) -> str:
        label = f"game #{row.id}"
        if row.status == "lobby":
            where = request_link(row)
            return (f"The rematch of game #{old.id} is asked for already: {label}, waiting for "
                    "its players to press **Accept the rematch** under the request"
                    + (f": {where}" if where else "."))
        where = f" in <#{row.thread_id}>" if row.thread_id else ""
        return f"Game #{old.id} has its rematch already: {label}{where}."

    @staticmethod
    def answer_view(row: GameRow) -> discord.ui.View:
        return build_view([["rematch-answer", row.id, "accept"], ["rematch-answer", row.id, "decline"]])

    def request_text(self, old: GameRow, row: GameRow, accepted: list[str], *,
                     declined: str | None = None, cancelled_by: str | None = None) -> str:
        game = self.flow.game_of(row)
        names = row.names
        asked_by = names.get(str(row.host_id), "?")
        seats = (f", the seats rotated by one: {texts.name_list(row.player_ids, names)}, in this order"
                 if len(row.player_ids) > 1 else "")   # (alone: no seats to rotate)
        lines = [f"🔁 **{texts.display(asked_by)}** asks for a rematch of game #{old.id}: "
                 f"**{texts.game_label(game.title, row.id)}**, same options, a new deal{seats}."]
        if declined is not None:
            lines.append(f"❌ **{texts.display(names.get(declined, declined))}** declined: "
                         "there is no rematch.")
        elif row.status == "active":
            where = f" in <#{row.thread_id}>" if row.thread_id else ""
            lines.append(f"✅ Everyone has accepted: the game is on{where}." if len(humans(row)) > 1
                         else f"✅ Nobody else to ask: the game is on{where}.")
        elif row.status == "cancelled":
            lines.append("🛑 This rematch was cancelled"
                         + (f" by **{texts.display(names.get(cancelled_by, 'a moderator'))}**"
                            if cancelled_by else "") + ".")
        else:
            waiting = [p for p in humans(row) if p not in accepted]
            lines.append(f"Accepted by {texts.name_list(accepted, names)}; waiting for "
                         + " ".join(texts.mention(p) for p in waiting)
                         + ": press **Accept the rematch** or **Decline**.")
        return texts.clip("\n".join(lines))

    async def start(self, row: GameRow, old: GameRow) -> GameRow:
        return await self.flow.start(row, self.controller.create_thread, rematch_of=old.id)

    async def rematch_aborted(self, row: GameRow, user_id: int) -> None:
        """A rematch request cancelled with /abort: its message says so and loses its buttons,
        as after a decline."""
        link = await self.bot.store.rematch_of(row.id)
        where = row.extras.get("request")
        if link is None or not where:
            return
        old = await self.flow.get(link[0])
        text = self.request_text(old, row, link[1], cancelled_by=str(user_id))
        try:
            await self.bot.get_partial_messageable(where[0]).get_partial_message(where[1]).edit(
                content=text, view=None)
        except discord.HTTPException as exc:   # the cancel is stored; only the text is stale
            log.warning("could not update the rematch request of game %s: %s", row.id, exc)

    async def rematch_answered(self, interaction: discord.Interaction, new_id: int, op: str) -> None:
        async with self.controller.answering(interaction, new_id):
            link = await self.bot.store.rematch_of(new_id)
            if link is None:
                raise UserError("That rematch is unknown (or was removed).")
            old = await self.flow.get(link[0])
            row = await self.flow.get(new_id)
            user = str(interaction.user.id)
            if user not in humans(row):
                raise UserError(f"Only the players of game #{old.id} can answer its rematch.")
            if row.status != "lobby":
                raise UserError(self.request_text(old, row, link[1]).splitlines()[-1])
            await interaction.response.defer()
            async with self.lock(new_id):
                row = await self.flow.get(new_id)
                _, accepted = await self.bot.store.rematch_of(new_id)
                if row.status != "lobby":
                    text = self.request_text(old, row, accepted)
                elif op == "decline":
                    try:
                        await self.bot.store.commit(row.id, row.version, now=self.bot.now(),
                                                    changes={"status": "cancelled"},
                                                    events=[Event("rematch-decline", user)], timers={})
                    except Conflict:
                        raise UserError("The rematch changed at the same moment; please press again.") from None
                    row = await self.flow.get(new_id)
                    text = self.request_text(old, row, accepted, declined=user)
                else:
                    waiting = [p for p in humans(row) if p not in accepted]
                    if user not in accepted:
                        accepted = await self.bot.store.accept_rematch(new_id, user)
                    elif waiting:
                        raise UserError("You have accepted already; waiting for "
                                        f"{texts.name_list(waiting, row.names)}.")
                    # (all accepted already: the bot stopped before the start; it starts now)
                    if all(p in accepted for p in humans(row)):
                        row = await self.start(row, old)
                    text = self.request_text(old, row, accepted)
            view = self.answer_view(row) if row.status == "lobby" else None
            try:
                await interaction.edit_original_response(content=text, view=view)
            except discord.HTTPException as exc:   # the change is stored; only the text is stale
                log.warning("could not update the rematch request of game %s: %s", new_id, exc)
