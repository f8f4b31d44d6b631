# piecepack-bot: the Discord bot, with its SQLite database in a volume (or on PostgreSQL:
# compose.postgres.yaml).
#   docker build -t piecepack-bot .
#   docker run -d --name piecepack -e DISCORD_TOKEN=... -v piecepack-data:/data piecepack-bot
# or `docker compose up -d` (compose.yaml). The same file builds for linux/amd64 and linux/arm64
# (docker buildx build --platform linux/amd64,linux/arm64 ...): every dependency has wheels for
# both, and no step depends on the machine.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
# The dependencies in their own layer, before the source: a change of the code reuses it. With
# the extra `postgres` (asyncpg, which has wheels for both architectures): PIECEPACK_DB may
# be a PostgreSQL URL.
COPY pyproject.toml ./
RUN python -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print("\n".join(p["dependencies"] + p["optional-dependencies"]["postgres"]))' \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt && rm /tmp/requirements.txt

COPY README.md LICENSE ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
COPY computer ./computer
RUN pip install --no-deps . && rm -rf /src

# An unprivileged user owns only the data directory; its group has the same number (useradd's
# --user-group alone takes the next system gid, 999), so files in a volume read 10001:10001.
RUN groupadd --system --gid 10001 piecepack \
    && useradd --system --uid 10001 --gid piecepack --no-create-home --shell /usr/sbin/nologin \
        piecepack \
    && mkdir /data && chown piecepack:piecepack /data
USER 10001:10001
WORKDIR /data
VOLUME ["/data"]
ENV PIECEPACK_DB=/data/piecepack.sqlite3

# The bot writes /data/piecepack.sqlite3.health every 30 s; `health` fails when that heartbeat
# is stale, the database cannot be written, or the gateway has been lost for over 2 minutes.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["piecepack-bot", "health"]

# Exec form: SIGTERM from `docker stop` reaches the bot, which closes cleanly at once, within
# Docker's 10 s grace, even while Discord cannot be reached.
CMD ["piecepack-bot"]
