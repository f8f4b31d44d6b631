"""Settings from the environment, or from a `.env` file in the working directory.

Variables set in the environment win over the `.env` file. Only DISCORD_TOKEN is required.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

TOKEN_HELP = """\
DISCORD_TOKEN is not set.

The bot needs the token of a Discord application's bot user:
  1. open https://discord.com/developers/applications and create (or pick) an application;
  2. on its "Bot" page press "Reset Token" and copy the token;
  3. put it in the environment (export DISCORD_TOKEN=...) or in a file named .env in the
     directory you start the bot from, as a line DISCORD_TOKEN=...
Keep the token secret: anyone who has it controls the bot."""

# The deadlines a game may have, by the names /play offers; None means no deadline.
DEADLINES: dict[str, int | None] = {
    "none": None,
    "1d": 86400,
    "3d": 3 * 86400,
    "7d": 7 * 86400,
}

_DEADLINE_WORDS = {
    "none": "none", "no": "none", "off": "none", "0": "none", "": "none",
    "1": "1d", "1d": "1d", "3": "3d", "3d": "3d", "7": "7d", "7d": "7d",
}


class SettingsError(ValueError):
    """A setting is missing or malformed; the message says how to fix it."""


@dataclass(frozen=True)
class Settings:
    token: str = field(repr=False)   # never printed
    db_path: str = "./piecepack.sqlite3"
    api_base: str | None = None
    gateway_url: str | None = None
    log_level: str = "INFO"
    default_deadline: str = "none"     # a key of DEADLINES
    reminder_hours: float = 24.0       # first reminder in games without a deadline; then daily
    guild_ready_timeout: float = 2.0
    health_file: str = "./piecepack.sqlite3.health"   # the heartbeat `piecepack-bot health` reads
    render_in: str = "process"         # where boards are drawn: bot.workers.MODES
    render_workers: int | None = None  # render worker processes (None: from the cores)
    computer_pace: float = 1.0         # times the computers' pauses (0: they move at once)
    # Shards (bot.shards): None = Discord's recommended count, all run by this process
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None   # this process's shards (None: all of them)
    sync_commands: str = "auto"        # auto: only the process that runs shard 0 publishes
    identify_spacing: float = 5.0      # seconds between two IDENTIFYs (Discord's limit)
    lease_seconds: float = 30.0        # work claimed by a process that died is taken over after this


def database(text: str) -> str:
    """PIECEPACK_DB: a SQLite file's path, or a PostgreSQL server's URL (which needs asyncpg)."""
    if "://" not in text:
        return text
    from urllib.parse import urlsplit

    from .storage.engine import is_url, without_password

    shown = without_password(text)
    if not is_url(text):
        raise SettingsError(f"PIECEPACK_DB must be a SQLite file's path or a PostgreSQL URL "
                            f"(postgresql://user:password@host/database), not {shown!r}.")
    parts = urlsplit(text)
    if not parts.path.strip("/"):
        raise SettingsError(f"PIECEPACK_DB {shown} names no database: add it after the host, as "
                            f"in postgresql://user:password@host/piecepack.")
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise SettingsError("PIECEPACK_DB is a PostgreSQL URL, but asyncpg is not installed: "
                            "pip install 'piecepack-bot[postgres]'") from None
    return text


def url_passwords(text: str) -> list[str]:
    """The password of a database URL as written and as meant (%-escapes decoded), if any."""
    if "://" not in text:
        return []
    from urllib.parse import unquote, urlsplit

    try:
        raw = urlsplit(text).netloc.rpartition("@")[0].partition(":")[2]
    except ValueError:
        return []
    return [p for p in {raw, unquote(raw)} if p]


def read_dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines; blank lines, # comments, `export ` prefixes and quotes are allowed."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        if line.startswith("export "):
            line = line[len("export "):]
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def api_base_url(text: str) -> str:
    """DISCORD_API_BASE: the REST API's root. A bare host gets Discord's /api/v10 path."""
    import yarl

    url = yarl.URL(text.strip())
    if url.scheme not in ("http", "https") or not url.host:
        raise SettingsError(f"DISCORD_API_BASE must be an http:// or https:// URL, such as "
                            f"https://discord.com/api/v10, not {text!r}.")
    if url.path in ("", "/"):
        url = url.with_path("/api/v10")
    return str(url).rstrip("/")


def gateway_url(text: str) -> str:
    import yarl

    url = yarl.URL(text.strip())
    if url.scheme not in ("ws", "wss", "http", "https") or not url.host:
        raise SettingsError(f"DISCORD_GATEWAY_URL must be a ws:// or wss:// URL, such as "
                            f"wss://gateway.discord.gg/, not {text!r}.")
    return text.strip()


def parse_deadline(text: str) -> str:
    key = _DEADLINE_WORDS.get(text.strip().lower())
    if key is None:
        raise SettingsError(f"PIECEPACK_DEFAULT_DEADLINE must be none, 1d, 3d or 7d, not {text!r}.")
    return key


def number_setting(name: str, text: str | None, default: float) -> float:
    if text is None:
        return default
    try:
        return float(text)
    except ValueError:
        raise SettingsError(f"{name} must be a number, such as {default:g}, not {text!r}.") from None


def lease_seconds(text: str | None) -> float:
    """PIECEPACK_LEASE_SECONDS: how long a claim on work (a timer, a game's notices) holds
    unless renewed; a process that dies leaves its work to others after this long (plus at
    most a second)."""
    lease = number_setting("PIECEPACK_LEASE_SECONDS", text, 30)
    if not 1 <= lease <= 600:
        raise SettingsError("PIECEPACK_LEASE_SECONDS must be a number of seconds from 1 to 600.")
    return lease


def whole_number(name: str, text: str | None, low: int, high: int | None = None) -> int | None:
    """A setting that is a whole number from `low` (to `high`); None when unset."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        span = f" from {low} to {high}" if high is not None else f", {low} or more"
        raise SettingsError(f"{name} must be a whole number{span}, not {text!r}.")
    return value


def load_settings(environ: Mapping[str, str] | None = None, cwd: Path | None = None, *,
                  require_token: bool = True) -> Settings:
    """`require_token=False` for the commands that never talk to Discord (backup, health...)."""
    env = dict(read_dotenv((cwd or Path.cwd()) / ".env"))
    env.update(os.environ if environ is None else environ)

    def get(name: str) -> str | None:
        value = env.get(name)
        return value.strip() if value and value.strip() else None

    token = get("DISCORD_TOKEN")
    if not token and require_token:
        raise SettingsError(TOKEN_HELP)
    reminder_hours = number_setting("PIECEPACK_REMINDER_HOURS", get("PIECEPACK_REMINDER_HOURS"), 24)
    ready_timeout = number_setting("PIECEPACK_GUILD_READY_TIMEOUT",
                                   get("PIECEPACK_GUILD_READY_TIMEOUT"), 2)
    if not reminder_hours > 0 or reminder_hours == float("inf"):
        raise SettingsError("PIECEPACK_REMINDER_HOURS must be a number of hours more than 0.")
    if not ready_timeout >= 0 or ready_timeout == float("inf"):
        raise SettingsError("PIECEPACK_GUILD_READY_TIMEOUT must be a number of seconds, 0 or more.")
    level = (get("LOG_LEVEL") or "INFO").upper()
    if not isinstance(logging.getLevelName(level), int):
        raise SettingsError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    try:
        computer_pace = float(get("PIECEPACK_COMPUTER_PACE") or 1.0)
    except ValueError:
        raise SettingsError("PIECEPACK_COMPUTER_PACE must be a number (1 is the normal pace).") from None
    if computer_pace < 0:
        raise SettingsError("PIECEPACK_COMPUTER_PACE must be 0 or more.")
    render_in = (get("PIECEPACK_RENDER") or "process").lower()
    # not "inline" (bot.workers' mode for tools): it would draw boards and let the computers
    # think on the event loop, stalling every game meanwhile
    if render_in not in ("process", "thread"):
        raise SettingsError(f"PIECEPACK_RENDER must be process (the default) or thread, "
                            f"not {render_in!r}.")
    db_path = database(get("PIECEPACK_DB") or "./piecepack.sqlite3")
    shards = shard_settings(get)
    check_shards_with_database(shards, db_path)
    return Settings(
        **shards,
        lease_seconds=lease_seconds(get("PIECEPACK_LEASE_SECONDS")),
        render_in=render_in,
        render_workers=whole_number("PIECEPACK_RENDER_WORKERS", get("PIECEPACK_RENDER_WORKERS"), 1, 256),
        computer_pace=computer_pace,
        token=token or "",
        db_path=db_path,
        health_file=get("PIECEPACK_HEALTH_FILE") or (
            "./piecepack-bot.health" if "://" in db_path else db_path + ".health"),
        api_base=api_base_url(get("DISCORD_API_BASE")) if get("DISCORD_API_BASE") else None,
        gateway_url=gateway_url(get("DISCORD_GATEWAY_URL")) if get("DISCORD_GATEWAY_URL") else None,
        log_level=level,
        default_deadline=parse_deadline(get("PIECEPACK_DEFAULT_DEADLINE") or "none"),
        reminder_hours=reminder_hours,
        guild_ready_timeout=ready_timeout,
    )


SYNC_MODES = ("auto", "always", "never")


def parse_shard_list(text: str, count: int) -> tuple[int, ...]:
    """PIECEPACK_SHARDS: "0-3" or "0,2,5-6", each shard below the count."""
    shards: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            low = int(first)
            high = int(last) if last else low
            if low > high:
                raise ValueError
            shards.update(range(low, high + 1))
    except ValueError:
        raise SettingsError(f"PIECEPACK_SHARDS must list shard numbers and ranges, such as 0-3 or "
                            f"0,2,5-6, not {text!r}.") from None
    if not shards or min(shards) < 0 or max(shards) >= count:
        raise SettingsError(f"PIECEPACK_SHARDS ({text}) must name shards from 0 to {count - 1}: "
                            f"PIECEPACK_SHARD_COUNT is {count}.")
    return tuple(sorted(shards))


def shard_settings(get) -> dict:
    """The shard settings (`get(name)` reads one variable), as Settings fields."""
    def whole(name: str, low: int) -> int | None:
        return whole_number(name, get(name), low)

    count = whole("PIECEPACK_SHARD_COUNT", 1)
    cluster_id, clusters = whole("PIECEPACK_CLUSTER_ID", 0), whole("PIECEPACK_CLUSTER_COUNT", 1)
    listed = get("PIECEPACK_SHARDS")
    if listed is not None and (cluster_id is not None or clusters is not None):
        raise SettingsError("Set either PIECEPACK_SHARDS or PIECEPACK_CLUSTER_ID and "
                            "PIECEPACK_CLUSTER_COUNT, not both: they both say which shards this "
                            "process runs.")
    shard_ids = None
    if listed is not None:
        if count is None:
            raise SettingsError("PIECEPACK_SHARDS needs PIECEPACK_SHARD_COUNT, the number of "
                                "shards of all processes together.")
        shard_ids = parse_shard_list(listed, count)
    elif cluster_id is not None or clusters is not None:
        if cluster_id is None or clusters is None or count is None:
            raise SettingsError("PIECEPACK_CLUSTER_ID and PIECEPACK_CLUSTER_COUNT go together, "
                                "with PIECEPACK_SHARD_COUNT.")
        if cluster_id >= clusters or clusters > count:
            raise SettingsError(f"PIECEPACK_CLUSTER_ID must be below PIECEPACK_CLUSTER_COUNT "
                                f"({clusters}), which must be at most PIECEPACK_SHARD_COUNT "
                                f"({count}).")
        # contiguous ranges: cluster 0 holds shard 0
        shard_ids = tuple(range(cluster_id * count // clusters, (cluster_id + 1) * count // clusters))
    sync = (get("PIECEPACK_SYNC_COMMANDS") or "auto").lower()
    if sync not in SYNC_MODES:
        raise SettingsError(f"PIECEPACK_SYNC_COMMANDS must be auto, always or never, not {sync!r}.")
    spacing = number_setting("PIECEPACK_IDENTIFY_SPACING", get("PIECEPACK_IDENTIFY_SPACING"), 5)
    if not 0 <= spacing < float("inf"):
        raise SettingsError("PIECEPACK_IDENTIFY_SPACING must be a number of seconds, 0 or more.")
    return {"shard_count": count, "shard_ids": shard_ids, "sync_commands": sync,
            "identify_spacing": spacing}


def check_shards_with_database(shards: dict, db: str) -> None:
    """A process running only some of the shards needs others for the rest, on one database:
    a SQLite file is one process's."""
    from .storage.engine import is_url

    ids, count = shards["shard_ids"], shards["shard_count"]
    if ids is not None and set(ids) != set(range(count)) and not is_url(db):
        raise SettingsError(f"PIECEPACK_SHARDS/PIECEPACK_CLUSTER_ID make this process run only "
                            f"shards {','.join(map(str, ids))} of {count}: several processes need "
                            f"PostgreSQL, and PIECEPACK_DB is a SQLite file ({db}). Run all "
                            f"shards in one process (unset PIECEPACK_SHARDS and "
                            f"PIECEPACK_CLUSTER_ID), or use a PostgreSQL database.")


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at a REST proxy and/or gateway other than Discord's own."""
    import discord.gateway
    import discord.http
    import yarl

    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


# --------------------------------------------------------------------------- logging


# What a player chose may show in a component: the action part of our custom_ids (a secret
# die face, say) and a component's label or value, as discord.py writes them in reprs.
_CHOICES = [
    (re.compile(r"(pp:(?:act|pick|sec):\d+:[^'\"\s]*?:)[^'\"\n]*"), r"\1[hidden]"),
    (re.compile(r"\b(label|action|value|values)=('[^'\n]*'|\"[^\"\n]*\"|\[[^\]\n]*\])"),
     r"\1=[hidden]"),
    (re.compile(r"([\"'](?:label|value|values)[\"']:\s*)(\"[^\"\n]*\"|'[^'\n]*'|\[[^\]\n]*\])"),
     r"\1[hidden]"),
]


# A real token is about 70 characters; one this long cannot occur in a log line by chance, so
# it is hidden wherever it appears. A shorter one (a placeholder such as "x") is hidden only
# where it stands as a whole, not inside other words ("/none[token hidden]istent").
SHORT_TOKEN = 20


def secret_pattern(secret: str) -> re.Pattern:
    if len(secret) >= SHORT_TOKEN:
        return re.compile(re.escape(secret))
    # not touching a token's own characters (letters, digits, - _ and a dot inside a word)
    return re.compile(rf"(?<![\w.-]){re.escape(secret)}(?![\w-]|\.\w)")


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then removes secrets from the whole text (message, args, traceback):
    the token, and what a player chose in our components."""

    def __init__(self, secrets: list[str], fmt: str | None = None):
        super().__init__(fmt or "%(asctime)s %(levelname)s %(name)s: %(message)s")
        self.secrets = [secret_pattern(s) for s in secrets if s]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self.secrets:
            text = secret.sub("[token hidden]", text)
        for pattern, replacement in _CHOICES:
            text = pattern.sub(replacement, text)
        return text


# Loggers that must stay at INFO or quieter (all of discord.py's, through their parent).
QUIET_LOGGERS = ("discord", "aiosqlite", "asyncpg")


def _not_voice(record: logging.LogRecord) -> bool:
    """discord.py warns at every start that voice support is missing; we never use voice."""
    return "voice will NOT be supported" not in record.getMessage()


def setup_logging(settings: Settings, stream=None) -> logging.Handler:
    """Log to stderr (or `stream`) through a formatter that hides the token (and the password of
    a PostgreSQL URL)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(RedactingFormatter([settings.token, *url_passwords(settings.db_path)]))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_piecepack", False):
            root.removeHandler(old)
    handler._piecepack = True  # type: ignore[attr-defined]
    handler.addFilter(_not_voice)
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    # At DEBUG, discord.py logs every gateway event and request body: players' secret choices
    # and DMs, and aiosqlite every SQL statement with its values (game states). Hidden
    # information must never reach a log, so those loggers (all of discord.py's) stop at INFO.
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLevelName(settings.log_level)))
    return handler
