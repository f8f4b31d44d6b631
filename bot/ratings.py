"""Ratings: each server's rating per game and player, from its finished rated games, and the
`/leaderboard` and `/stats` commands.

The arithmetic is openskill's Plackett-Luce model (a maintained Weng-Lin rating library that
rates games of any number of players and ties), never a formula of our own. Each rating is a
skill estimate `mu` with its uncertainty `sigma`; what players see is the cautious number
openskill calls the ordinal, `mu - 3 sigma`, shown as 1000 + 40 × ordinal (see README).

Which games count: finished games of two or more seats, all held by people. A game with a
computer seat is not rated (a computer is no member of the server's field, and rating only its
human opponents against each other would rate a result nobody played for); a solo game (Pack
Solitaire, BYOP1 alone) has nobody to be rated against; an aborted or cancelled game never
finishes. Resigning, or losing on time, counts as a loss; an agreed draw as a draw.

A game is rated in the transaction that marks it finished (Store.commit's `rated`), and a game
with rating history is never rated again: exactly once, whatever restarts or double clicks do.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Optional

import discord
from discord import app_commands
from discord.ext import commands
from openskill.models import PlackettLuce

import engine

from . import computers, texts
from .errors import UserError
from .storage import GameRow, Notice, PlayerRating, RatedResult

MODEL = PlackettLuce()      # the library's defaults: mu 25, sigma 25/3, a newcomer shows 1000
SHOWN_BASE = 1000           # shown rating = SHOWN_BASE + SHOWN_SCALE * (mu - 3 sigma)
SHOWN_SCALE = 40
TOP = 10                    # players on a leaderboard
TREND_GAMES = 5             # /stats: the change over this many games
SPARK_GAMES = 10            # ... and a sparkline of the ratings after this many
SPARKS = "▁▂▃▄▅▆▇█"

# Games that can have two or more players (Pack Solitaire cannot: it is never rated).
RATED_GAMES = [name for name in engine.game_names() if engine.get_game(name).max_players > 1]
RATED_CHOICES = [app_commands.Choice(name=engine.get_game(name).title, value=name)
                 for name in RATED_GAMES]


def shown(mu: float, sigma: float) -> int:
    """The rating players see: openskill's ordinal (mu - 3 sigma), scaled."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SHOWN_SCALE, target=SHOWN_BASE))


def initial() -> tuple[float, float]:
    fresh = MODEL.rating()
    return fresh.mu, fresh.sigma


def places(game, state) -> dict[str, int]:
    """Each player's place at the end of a finished game, 1 first, equal places tie (as in
    1, 2, 2, 4): the winners first; then the players who played to the end, by the game's
    scores (in a draw, all of them tie); then those who left the game (resigned), the last
    to leave ahead of the earlier ones (a resignation is a loss to everyone who played on,
    even to a player with fewer points)."""
    outcome = game.outcome(state)
    public = game.view(state, None)   # (the result is public: nothing secret is used)
    left = list(public["left"])
    scores = public["scores"]

    def standing(player: str) -> tuple:
        if player in left:
            return (2, -left.index(player))
        if player in outcome.winners:
            return (0, 0)
        return (1, 0 if outcome.draw else -scores.get(player, 0))

    keys = {p: standing(p) for p in public["players"]}
    return {p: 1 + sum(other < key for other in keys.values()) for p, key in keys.items()}


def rated_result(row: GameRow, game, state) -> RatedResult | None:
    """What to rate for a game that has just finished in `state`, or None when it is not a
    rated game (fewer than two seats, a computer seat)."""
    if len(row.seats) < 2 or any(computers.is_computer(s.user_id) for s in row.seats):
        return None
    outcome = game.outcome(state)
    if outcome is None:
        return None
    placed = {int(p): place for p, place in places(game, state).items()}
    names = {s.user_id: s.name for s in row.seats}
    thread = row.thread_id or row.channel_id
    return RatedResult(
        guild_id=row.guild_id, game=row.game, places=placed, names=names,
        winners=frozenset(int(p) for p in outcome.winners),
        drew=frozenset(p for p, place in placed.items() if outcome.draw and place == 1),
        rate=lambda current: rate(current, placed),
        announce=lambda before, after, notices: with_line(
            notices, changes_line(before, after, placed, names), thread))


def with_line(notices: list[Notice], line: str, thread: int) -> list[Notice]:
    """The finishing commit's notices with `line` added to the result post (the new post
    tagged board or result: see GameFlow._plan), or posted on its own if there is none."""
    for n, notice in reversed(list(enumerate(notices))):
        if notice.tag in ("board", "result") and notice.edit_of is None and "head" in notice.payload:
            head = f"{notice.payload['head']}\n{line}"
            payload = {**notice.payload, "head": head, "content": texts.clip(head)}
            return [*notices[:n], replace(notice, payload=payload), *notices[n + 1:]]
    return [*notices, Notice("channel", thread, {"content": line})]


def changes_line(before: Mapping[int, tuple[float, float] | None],
                 after: Mapping[int, tuple[float, float]], placed: Mapping[int, int],
                 names: Mapping[int, str]) -> str:
    """'📈 Ratings: **alice** 1138 (+138), **bob** 927 (-73)', in the order of the places."""
    parts = []
    for player in sorted(placed, key=lambda p: placed[p]):
        old, new = shown(*(before.get(player) or initial())), shown(*after[player])
        parts.append(f"**{texts.display(names.get(player, str(player)))}** {new} ({new - old:+d})")
    return texts.clip("📈 Ratings: " + ", ".join(parts))


def rate(current: Mapping[int, tuple[float, float] | None],
         placed: Mapping[int, int]) -> dict[int, tuple[float, float]]:
    """The players' new (mu, sigma) after a game where they took `placed`; `current` holds
    their ratings before it (None: their first rated game of it)."""
    players = list(placed)
    teams = [[MODEL.rating(*current[p]) if current.get(p) else MODEL.rating()] for p in players]
    new = MODEL.rate(teams, ranks=[placed[p] for p in players])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(players, new)}


def sparkline(values: list[int]) -> str:
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    if high == low:
        return SPARKS[len(SPARKS) // 2] * len(values)
    return "".join(SPARKS[round((v - low) * (len(SPARKS) - 1) / (high - low))] for v in values)


def trend(history: list[tuple[float, float]], games: int) -> str:
    """'+38 over the last 5 games ▂▅▃▇█': the change of the shown rating over the player's
    last TREND_GAMES games (all of them when fewer), and their ratings after each of the last
    SPARK_GAMES. `history` is the (mu, sigma) after each of the last games, oldest first."""
    values = [shown(mu, sigma) for mu, sigma in history]
    if not values:
        return ""
    span = min(TREND_GAMES, games)
    before = values[-span - 1] if len(values) > span else shown(*initial())
    change = values[-1] - before
    text = f"{change:+d} over the last {span} games" if span > 1 else f"{change:+d} in the first game"
    spark = sparkline(values[-SPARK_GAMES:])
    return f"{text} {spark}" if spark else text


def record(r: PlayerRating) -> str:
    parts = [texts.plural(r.games, "game"), texts.plural(r.wins, "win")]
    if r.draws:
        parts.append(texts.plural(r.draws, "draw"))
    return ", ".join(parts)


def table_order(rows: list[PlayerRating]) -> list[tuple[int, PlayerRating]]:
    """(place, rating) best first: by the shown rating (equal ones share a place), then more
    games, then name."""
    rows = sorted(rows, key=lambda r: (-(r.mu - 3 * r.sigma), -r.games, r.name.lower(), r.user_id))
    placed, place, last = [], 0, None
    for n, r in enumerate(rows, 1):
        value = shown(r.mu, r.sigma)
        if value != last:
            place, last = n, value
        placed.append((place, r))
    return placed


class Ratings(commands.Cog):
    """/leaderboard and /stats. Answers are public posts in the channel (a server's table is
    meant to be seen) that ping nobody; mistakes are answered privately."""

    def __init__(self, bot):
        self.bot = bot

    async def post(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message(texts.clip(text),
                                                allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="leaderboard", description="The best rated players of a game in this server")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=RATED_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str):
        async with self.bot.controller.answering(interaction):
            if game not in RATED_GAMES:
                raise UserError("Choose a game from the list (Pack Solitaire, played alone, has no ratings).")
            if interaction.guild_id is None:
                raise UserError("Use `/leaderboard` in a server: each server has its own ratings.")
            title = engine.get_game(game).title
            table = table_order(await self.bot.store.ratings_of_game(interaction.guild_id, game))
            if not table:
                raise UserError(f"Nobody has a rating for {title} in this server yet: ratings come "
                                "from finished games between people (no computer players).")
            lines = [f"🏆 **{title}** in this server: the top {min(TOP, len(table))} of "
                     f"{texts.plural(len(table), 'rated player')}"]
            for place, r in table[:TOP]:
                lines.append(f"{place}. **{texts.display(r.name)}**: **{shown(r.mu, r.sigma)}** "
                             f"({record(r)})")
            mine = next(((place, r) for place, r in table[TOP:] if r.user_id == interaction.user.id), None)
            if mine:
                lines.append(f"…\n{mine[0]}. **{texts.display(mine[1].name)}** (you): "
                             f"**{shown(mine[1].mu, mine[1].sigma)}** ({record(mine[1])})")
            lines.append("-# Ratings are cautious: they rise as your results firm up. "
                         "`/stats` shows a player's trend.")
            await self.post(interaction, "\n".join(lines))

    @app_commands.command(name="stats", description="A player's games, wins, ratings and trends in this server")
    @app_commands.describe(player="Whose (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, player: Optional[discord.User] = None):
        async with self.bot.controller.answering(interaction):
            if interaction.guild_id is None:
                raise UserError("Use `/stats` in a server: each server has its own ratings.")
            user = player or interaction.user
            rows = await self.bot.store.ratings_of_user(interaction.guild_id, user.id)
            if not rows:
                who = "You have" if user.id == interaction.user.id else \
                    f"**{texts.display(user.display_name)}** has"
                raise UserError(f"{who} no rating in this server yet: ratings come from finished "
                                "games between people (no computer players), one per game.")
            # (the name they have now when Discord says it, else the one of their last game)
            name = user.display_name if isinstance(user, discord.Member) else rows[-1].name
            lines = [f"📊 **{texts.display(name)}** in this server"]
            for r in sorted(rows, key=lambda r: engine.get_game(r.game).title):
                history = await self.bot.store.rating_history(
                    interaction.guild_id, r.game, r.user_id, max(SPARK_GAMES, TREND_GAMES + 1))
                lines.append(f"**{engine.get_game(r.game).title}**: **{shown(r.mu, r.sigma)}**, "
                             f"{record(r)}; {trend(history, r.games)}")
            await self.post(interaction, "\n".join(lines))
