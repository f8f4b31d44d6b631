"""The schema: each entry of MIGRATIONS brings it from version i to i+1."""

from __future__ import annotations

import re

# Each entry brings the schema from version i to i+1. Never edit a released entry; add one.
MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        game             TEXT    NOT NULL,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        thread_id        INTEGER,
        lobby_message_id INTEGER,
        host_id          INTEGER NOT NULL,
        invited_id       INTEGER,
        status           TEXT    NOT NULL CHECK (status IN ('lobby','active','finished','cancelled')),
        state            TEXT,
        version          INTEGER NOT NULL DEFAULT 0,
        options          TEXT    NOT NULL DEFAULT '{}',
        deadline_seconds INTEGER,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE INDEX games_thread ON games(thread_id);
    CREATE INDEX games_guild_status ON games(guild_id, status);
    CREATE TABLE seats (
        game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        display_name TEXT    NOT NULL,
        PRIMARY KEY (game_id, user_id),
        UNIQUE (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE events (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        version  INTEGER NOT NULL,
        at       REAL    NOT NULL,
        actor    TEXT,
        kind     TEXT    NOT NULL,
        detail   TEXT    NOT NULL DEFAULT ''
    );
    CREATE INDEX events_game ON events(game_id, version);
    CREATE TABLE timers (
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind     TEXT    NOT NULL,
        due_at   REAL    NOT NULL,
        data     TEXT    NOT NULL DEFAULT '{}',
        PRIMARY KEY (game_id, kind)
    );
    CREATE INDEX timers_due ON timers(due_at);
    CREATE TABLE outbox (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id         INTEGER REFERENCES games(id) ON DELETE CASCADE,
        target_kind     TEXT    NOT NULL CHECK (target_kind IN ('channel','user')),
        target_id       INTEGER NOT NULL,
        payload         TEXT    NOT NULL,
        created_at      REAL    NOT NULL,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at REAL    NOT NULL,
        delivered_at    REAL,
        failed          TEXT,
        message_id      INTEGER
    );
    CREATE INDEX outbox_pending ON outbox(delivered_at, failed, next_attempt_at);
    """,
    # 1 -> 2: notices that edit earlier messages; players whose DMs are closed
    """
    ALTER TABLE outbox ADD COLUMN tag TEXT;
    ALTER TABLE outbox ADD COLUMN edit_of INTEGER;
    CREATE INDEX outbox_tag ON outbox(game_id, tag);
    ALTER TABLE seats ADD COLUMN dm_closed INTEGER NOT NULL DEFAULT 0;
    """,
    # 2 -> 3: a delivered board is kept only until a later post of its tag has one (each
    # carried a whole view: storage grew with the square of a game's length)
    """
    UPDATE outbox SET payload = json_remove(payload, '$.board')
    WHERE tag IS NOT NULL AND (delivered_at IS NOT NULL OR failed IS NOT NULL)
      AND json_extract(payload, '$.board') IS NOT NULL
      AND EXISTS (SELECT 1 FROM outbox AS later
                  WHERE later.game_id IS outbox.game_id AND later.tag = outbox.tag
                    AND later.id > outbox.id AND later.delivered_at IS NOT NULL
                    AND json_extract(later.payload, '$.board') IS NOT NULL)
    """,
    # 3 -> 4: facts a game gathers besides its state (e.g. the best score of a deal, worked out
    # in the background), a JSON object
    """
    ALTER TABLE games ADD COLUMN extras TEXT NOT NULL DEFAULT '{}';
    """,
    # 4 -> 5: time away: a player's absences in a server (ends_at moves to the return when they come
    # back early, so the month's allowance counts the time actually spent away)
    """
    CREATE TABLE absences (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        starts_at REAL    NOT NULL,
        ends_at   REAL    NOT NULL
    );
    CREATE INDEX absences_user ON absences(guild_id, user_id, ends_at);
    """,
    # 5 -> 6: ratings (issue 14, part 3): each server's rating per game and player, and every
    # player's rating after each rated game (its trend); a game with history rows is rated
    """
    CREATE TABLE ratings (
        guild_id     INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        user_id      INTEGER NOT NULL,
        display_name TEXT    NOT NULL,
        mu           REAL    NOT NULL,
        sigma        REAL    NOT NULL,
        games        INTEGER NOT NULL DEFAULT 0,
        wins         INTEGER NOT NULL DEFAULT 0,
        draws        INTEGER NOT NULL DEFAULT 0,
        updated_at   REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE TABLE rating_history (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        user_id  INTEGER NOT NULL,
        place    INTEGER NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        at       REAL    NOT NULL,
        UNIQUE (game_id, user_id)
    );
    CREATE INDEX rating_history_user ON rating_history(user_id, id);
    """,
    # 6 -> 7: daily puzzles: who played which server's deal of the day (once each), in which game
    # (IF NOT EXISTS: a database taken back to an older schema by hand may keep the table)
    """
    CREATE TABLE IF NOT EXISTS daily_plays (
        guild_id   INTEGER NOT NULL,
        day        TEXT    NOT NULL,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        started_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, day, game, user_id)
    );
    CREATE INDEX IF NOT EXISTS daily_plays_game ON daily_plays(game_id);
    """,
    # 7 -> 8: history: a rematch of a finished game (at most one that is not cancelled), and who of
    # its players has accepted it
    """
    CREATE TABLE rematches (
        old_game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        new_game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        accepted    TEXT    NOT NULL DEFAULT '[]'
    );
    CREATE INDEX rematches_new ON rematches(new_game_id);
    """,
    # 8 -> 9: a player's own settings (/settings: time zone, quiet hours, daily digest, palette),
    # the person's, not a server's (no guild_id: forget-guild leaves them; /settings reset:true
    # deletes them); digest_due: when their next digest goes out (NULL: no digest)
    """
    CREATE TABLE player_settings (
        user_id     INTEGER PRIMARY KEY,
        time_zone   TEXT    NOT NULL DEFAULT 'UTC',
        quiet_start INTEGER,
        quiet_end   INTEGER,
        digest_hour INTEGER,
        palette     TEXT    NOT NULL DEFAULT 'standard',
        digest_due  REAL,
        updated_at  REAL    NOT NULL
    );
    CREATE INDEX player_settings_digest ON player_settings(digest_due);
    """,
    # 9 -> 10: work claimed once by one of several processes: a timer's claim (who fires it, until
    # when), and a lease per game on its outbox (one process delivers a game's notices, in order);
    # game_key is the game's id, or minus the notice's id for a notice of no game
    """
    ALTER TABLE timers ADD COLUMN claimed_by TEXT;
    ALTER TABLE timers ADD COLUMN lease_until REAL;
    CREATE TABLE outbox_leases (
        game_key    INTEGER PRIMARY KEY,
        claimed_by  TEXT    NOT NULL,
        lease_until REAL    NOT NULL
    );
    """,
    # 10 -> 11: tournaments (issue 25): the event, its entrants (sign-up order; active, withdrawn
    # or removed), its rounds (who had the bye, the
    # scheduled games not played because one of the two had left) and its games (which round and table, the seats
    # as paired, who forfeits, and the table's result once settled). due_at is the tournament's
    # one piece of claimed work (its start time, a check after a game ended, its round deadline),
    # claimed like a timer (claimed_by, lease_until)
    """
    CREATE TABLE tournaments (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        organiser_id     INTEGER NOT NULL,
        game             TEXT    NOT NULL,
        options          TEXT    NOT NULL DEFAULT '{}',
        format           TEXT    NOT NULL,
        rounds           INTEGER,
        deadline_seconds INTEGER,
        round_seconds    INTEGER,
        starts_at        REAL,
        status           TEXT    NOT NULL CHECK (status IN ('signup','running','paused','finished','cancelled')),
        seed             INTEGER NOT NULL,
        round            INTEGER NOT NULL DEFAULT 0,
        round_ends_at    REAL,
        message_id       INTEGER,
        version          INTEGER NOT NULL DEFAULT 0,
        due_at           REAL,
        claimed_by       TEXT,
        lease_until      REAL,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );
    CREATE INDEX tournaments_due ON tournaments(due_at);
    CREATE INDEX tournaments_guild ON tournaments(guild_id, status);
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL,
        display_name  TEXT    NOT NULL,
        joined        INTEGER NOT NULL,
        status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active','withdrawn','removed')),
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_rounds (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round         INTEGER NOT NULL,
        bye           INTEGER,
        forfeits      TEXT    NOT NULL DEFAULT '[]',
        closed        INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, round)
    );
    CREATE TABLE tournament_games (
        game_id       INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round         INTEGER NOT NULL,
        table_no      INTEGER NOT NULL,
        seats         TEXT    NOT NULL,
        forfeit       TEXT    NOT NULL DEFAULT '[]',
        result        TEXT,
        UNIQUE (tournament_id, round, table_no)
    );
    """,
    # 11 -> 12: a button pressed under a notice or a lobby finds its game by the message's id
    # (`game_of_message`), which read the whole outbox before.
    """
    CREATE INDEX outbox_message ON outbox(message_id) WHERE message_id IS NOT NULL;
    CREATE INDEX games_lobby_message ON games(lobby_message_id) WHERE lobby_message_id IS NOT NULL;
    """,
    # 12 -> 13: when Discord refused a player's digest DM (their DMs are closed), the digest is
    # turned off, so that each game reminds them in its thread again; /settings says why.
    """
    ALTER TABLE player_settings ADD COLUMN digest_refused_at REAL;
    """,
]

SCHEMA_VERSION = len(MIGRATIONS)


# PostgreSQL's own text of a released migration, where translating types is not enough
POSTGRES = {
    # 2 -> 3 (a fresh database has no outbox rows; kept for databases copied over)
    2: """
    UPDATE outbox SET payload = (payload::jsonb - 'board')::text
    WHERE tag IS NOT NULL AND (delivered_at IS NOT NULL OR failed IS NOT NULL)
      AND (payload::jsonb -> 'board') IS NOT NULL
      AND EXISTS (SELECT 1 FROM outbox AS later
                  WHERE later.game_id IS NOT DISTINCT FROM outbox.game_id AND later.tag = outbox.tag
                    AND later.id > outbox.id AND later.delivered_at IS NOT NULL
                    AND (later.payload::jsonb -> 'board') IS NOT NULL)
    """,
}


def render(index: int, engine: str) -> str:
    """Migration `index`'s text for an engine: SQLite's is the released text itself. PostgreSQL
    needs 64-bit integers (Discord ids overflow its INTEGER), 8-byte floats (its REAL would
    round a time by minutes) and identity columns."""
    text = MIGRATIONS[index]
    if engine == "sqlite":
        return text
    if index in POSTGRES:
        return POSTGRES[index]
    text = text.replace("INTEGER PRIMARY KEY AUTOINCREMENT",
                        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", re.sub(r"\bINTEGER\b", "BIGINT", text))


def statements(index: int, engine: str = "sqlite") -> list[str]:
    return [s.strip() for s in render(index, engine).split(";") if s.strip()]

