# piecepack-bot: the Discord bot, with its SQLite database in a volume.
#   docker build -t piecepack-bot .
#   docker run -d --name piecepack -e DISCORD_TOKEN=... -v piecepack-data:/data piecepack-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY bot ./bot
RUN pip install . && rm -rf /src

# An unprivileged user owns only the data directory.
RUN useradd --system --uid 10001 --user-group --no-create-home piecepack \
    && mkdir /data && chown piecepack:piecepack /data
USER piecepack
WORKDIR /data
VOLUME ["/data"]
ENV PIECEPACK_DB=/data/piecepack.sqlite3

# Exec form: SIGTERM from `docker stop` reaches the bot, which closes cleanly.
CMD ["piecepack-bot"]
