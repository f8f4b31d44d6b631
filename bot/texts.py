"""Words the bot says: names in engine texts, status lines, lobby text, durations."""

from __future__ import annotations

import re

from discord.utils import escape_markdown

MESSAGE_LIMIT = 2000


SHORT_ECHO = 40           # at most this much of a user's text is shown back to them
_ZWSP = "\u200b"
# Where Discord would read a ping or a mention: `@everyone`, `@here`, and `<@id>`, `<@&id>`,
# `<#id>`, `<t:...>`, `</command:id>`, `<:emoji:id>`, `<a:...>`, `<id:...>`. Only there does an
# invisible space go in: any other `@` or `<` (as in the move `7@b3/1`) stays as typed, so
# an example in a message can be copied and used.
_MENTION = re.compile(r"@(?=everyone|here)|<(?=[@#:/]|[at]:|id:)", re.IGNORECASE)


def unping(text: str) -> str:
    """`text` unable to ping or mention, otherwise unchanged."""
    return _MENTION.sub(lambda m: m[0] + _ZWSP, text)


def display(name: str) -> str:
    """A display name (or any text a user chose) shown so that it can neither format nor
    ping: markdown escaped, and an invisible space after the `@` of `@everyone` or `@here`
    and the `<` of `<@id>`, `<#id>`, `<t:...>` and the like."""
    return unping(escape_markdown(str(name)))


_LONG_QUOTE = re.compile(r"""(['"])([^'"\n]{%d,})\1""" % (SHORT_ECHO + 1))
ENGINE_MESSAGE_LIMIT = 400


def defuse(text: str) -> str:
    """An engine's message, which may quote what a user typed: long quotes cut short, unable
    to ping (its formatting, e.g. `red up` in code, is kept)."""
    text = _LONG_QUOTE.sub(lambda m: f"{m[1]}{m[2][:SHORT_ECHO - 1]}…{m[1]}", str(text))
    return unping(clip(text, ENGINE_MESSAGE_LIMIT))


def excerpt(text: str, limit: int = SHORT_ECHO) -> str:
    """A short, harmless quote of what a user typed, for an error message."""
    text = " ".join(str(text).split())
    short = text if len(text) <= limit else text[:limit - 1] + "…"
    return f"“{display(short)}”"


def with_names(text: str, names: dict[str, str]) -> str:
    """Engine texts name players by id; show their display names instead."""
    if not names:
        return text
    pattern = re.compile("|".join(re.escape(p) for p in sorted(names, key=len, reverse=True)))
    return pattern.sub(lambda m: f"**{display(names[m.group(0)])}**", text)


def name_list(ids, names: dict[str, str]) -> str:
    shown = [f"**{display(names.get(p, p))}**" for p in ids]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]


# ---- counts and articles: every count or article in the bot's words comes from here ------


def plural(count: int, word: str, many: str | None = None) -> str:
    """The count with its noun: '1 move', '0 moves', '2 moves' (`many` for an irregular
    plural: plural(2, 'match', 'matches'))."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def verb(count: int, one: str, many: str) -> str:
    """The verb that agrees with a count: verb(1, 'is', 'are') -> 'is'."""
    return one if count == 1 else many


_OWN_ARTICLE = re.compile(r"(?:a|an|the)\s", re.I)


def a_or_an(phrase: str) -> str:
    """The phrase with the indefinite article it takes: 'a move', 'an ace', 'an 8-day
    deadline'. A title that starts with an article of its own keeps only that one
    ('A Game Played by Galaxies'): say 'a rating for {title}' rather than 'a {title}
    rating' where a game's title goes."""
    if _OWN_ARTICLE.match(phrase):
        return phrase
    article = "an" if re.match(r"(?!uni|use|usu|eu|one\b|once)[aeiou]|8|11\b|18\b|hour|honou?r",
                               phrase, re.I) else "a"
    return f"{article} {phrase}"


def says_result(reason: str, solo: bool) -> bool:
    """Whether a game's reason for its result says the result itself ("bob wins with 6
    trophies", "draw agreed", alone "finished with 42 points"): then it is told alone, not
    after "won by bob" ("won by bob (bob wins with 6 trophies)")."""
    return solo or " wins" in reason or "draw" in reason


def mention(player: str) -> str:
    return f"<@{player}>"


MENTION = re.compile(r"<@!?(\d+)>")
MOST_PINGS = 100   # users one message may ping (Discord refuses a longer allowed_mentions list)


def pack_lines(lines: list[str], limit: int = MESSAGE_LIMIT, most_mentions: int = MOST_PINGS) -> list[str]:
    """Lines packed into as few messages as fit: each at most `limit` characters and
    `most_mentions` user mentions; a line is split (between words) only when it alone is over."""
    def fits(text: str) -> bool:
        return len(text) <= limit and len(MENTION.findall(text)) <= most_mentions

    def pieces(line: str) -> list[str]:
        if fits(line):
            return [line]
        out = [""]
        for word in line.split(" "):
            while len(word) > limit:   # (no space to split at)
                out.append(word[:limit])
                word = word[limit:]
            joined = f"{out[-1]} {word}" if out[-1] else word
            if fits(joined):
                out[-1] = joined
            else:
                out.append(word)
        return [p for p in out if p] or [""]

    messages: list[str] = []
    for line in lines:
        for piece in pieces(line):
            if messages and fits(f"{messages[-1]}\n{piece}"):
                messages[-1] += "\n" + piece
            else:
                messages.append(piece)
    return messages


def game_label(title: str, game_id: int) -> str:
    return f"{title} #{game_id}"


def between(names: dict[str, str]) -> str:
    return f"This game is between {name_list(list(names), names)}."


def duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds % 86400 == 0:
        return plural(seconds // 86400, "day")
    if seconds % 3600 == 0:
        return plural(seconds // 3600, "hour")
    return plural(seconds // 60, "minute")


def timestamp(at: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(at)}:{style}>"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Fit a message into Discord's limit, keeping its end (the newest lines)."""
    if len(text) <= limit:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    size = 2
    for line in reversed(lines):
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:
        return text[: limit - 1] + "…"
    return "…\n" + "\n".join(reversed(kept))


# Where a long text may be split, best first: paragraphs, lines, sentences, words.
_BREAKS = (re.compile(r"\n\s*\n"), re.compile(r"\n"), re.compile(r"(?<=[.!?;:])\s+"), re.compile(r" +"))
_JOINERS = ("\n\n", "\n", " ", " ")


def chunks(text: str, limit: int = 1900) -> list[str]:
    """Split a long text into messages under `limit`: between paragraphs, and only where a
    paragraph is too long for one message, between its lines (then sentences, then words)."""
    return [part for part in _split(text.strip(), limit, 0) if part.strip()]


def _split(text: str, limit: int, level: int) -> list[str]:
    if len(text) <= limit:
        return [text]
    if level == len(_BREAKS):
        return [text[i:i + limit] for i in range(0, len(text), limit)]
    joiner = _JOINERS[level]
    parts: list[str] = []
    current = ""
    for piece in _BREAKS[level].split(text):
        if len(piece) > limit:
            if current:
                parts.append(current)
                current = ""
            parts += _split(piece, limit, level + 1)
        elif current and len(current) + len(joiner) + len(piece) > limit:
            parts.append(current)
            current = piece
        else:
            current = f"{current}{joiner}{piece}" if current else piece
    if current:
        parts.append(current)
    return parts


HELP = """\
**piecepack-bot**: piecepack games in this server, played in a thread per game, over minutes or days.

**Start** `/play game:<name>` opens a lobby; others press **Join**; the host presses **Start** (a game for a fixed number of players, such as Relativity, starts as soon as it is full); the seats are then drawn at random. Options: `opponent:` invites someone, `deadline:` gives every move (in Global Warming, each turn's choice and each action) 1, 3 or 7 days, `options:` sets game options as key=value pairs (for example `variant=diagonal` in Global Warming, `rounds=2, ranking=slides` in BYOP1; the box suggests each game's).
**Play** in the game's thread: use the buttons under the board, or `/move move:<text>` (start typing to see your legal moves). Secret choices come to you by direct message; if your DMs are closed, press **Open my private controls** in the thread.
`/board` shows the board (and what only you may see), `/games` lists your games and where each waits on you, `/resign`, `/draw action:offer|accept|decline`, `/abort` (host or moderators), `/rules game:<name>`.
Outside a game's thread, `/move` picks your only game waiting on you, or say which with `game:`.
**Yours** `/settings`: time zone, quiet hours, a daily digest, colours.
**Away** `/away days:<n>` stops the clock of your games here (14 days a month at most); `/away days:0` when you are back early.
**Ratings** `/leaderboard game:<name>` and `/stats [player]`: ratings from games between people (resigning loses; aborted games do not count).
**Daily puzzles** `/daily game:pack-solitaire|byop1`: this server's puzzle of the (UTC) day, played once in a private thread; its table opens once you have played.
**After a game** press **Rematch** under the result (or `/play rematch:<number>`): same players, seats rotated, a new deal. `/games status:finished` lists results, `/record game:<number>` gives the moves as a file (Relativity in PPN), `/replay game:<number> move:<n>` shows the board after move n."""

# /help's second message (the first is full)
HELP_TOURNAMENTS = """\
**Tournaments** `/tournament create game:<name>` posts an event with **Join**: Swiss or round robin (Relativity, Galaxies), tables of 3-4 (Global Warming), or duplicate, the same deals for everyone (Pack Solitaire, BYOP1). The organiser (or a moderator with Manage Server or Manage Events) presses **Start** and can `/tournament pause`, `resume`, `remove player:<who>` and `end`. Each pairing is an ordinary game in its own thread; the next round is paired as soon as a round's games are over, and the standings are posted (`/tournament standings` at any time). **Round deadline:** a game still running then stops and is settled on its score so far (the higher score wins; equal scores draw). **Leave** during the event withdraws you: your games in play are forfeits."""
