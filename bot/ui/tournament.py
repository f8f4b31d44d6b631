"""The buttons under a tournament's sign-up post (bot.commands.tournament): Join, Leave (during
the event: Withdraw, confirmed), Start, Standings. Like every control, each carries all it needs in its
custom_id (the tournament's id), holds no state and works after a restart."""

from __future__ import annotations

import discord
from discord.ui import Button, DynamicItem

from ..components import builds

_OPS = {"join": ("Join", discord.ButtonStyle.success),
        "leave": ("Leave", discord.ButtonStyle.secondary),
        "start": ("Start", discord.ButtonStyle.primary),
        "standings": ("Standings", discord.ButtonStyle.secondary),
        "withdraw": ("Withdraw", discord.ButtonStyle.danger)}   # (Leave during the event, confirmed)


@builds("tour")
class TournamentButton(DynamicItem[Button], template=r"pp:tour:(?P<tid>\d+):(?P<op>join|leave|start|standings|withdraw)"):
    def __init__(self, tournament_id: int, op: str):
        label, style = _OPS[op]
        super().__init__(Button(label=label, style=style, custom_id=f"pp:tour:{tournament_id}:{op}"))
        self.tournament_id, self.op = tournament_id, op

    game_id = None   # (of no game: bot.components logs an item by its game id)

    @classmethod
    def from_spec(cls, tournament_id, op):
        return cls(int(tournament_id), op)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["tid"]), match["op"])

    async def callback(self, interaction):
        await interaction.client.get_cog("Tournaments").pressed(interaction, self.tournament_id, self.op)
