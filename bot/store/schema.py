"""The numbered schema migrations, in SQLite's dialect and PostgreSQL's, side by side.

Migration N of one backend makes the same tables as migration N of the other; a database
records how many it has applied (SQLite: PRAGMA user_version; PostgreSQL: the schema_version
table), so both upgrade the same way and `tests/test_store.py` checks the lists stay in step.
JSON stays TEXT in both: the record is stored exactly as written, so the service can remember
the text it committed. Statements are separated by ";" (none appears inside one).
"""
from __future__ import annotations

SQLITE: list[str] = [
    # 1: games keyed by channel, archive of finished games, per-server data.
    """
    CREATE TABLE games (
        channel_id TEXT PRIMARY KEY,
        guild_id   TEXT,
        game       TEXT NOT NULL,
        status     TEXT NOT NULL,
        version    INTEGER NOT NULL,
        record     TEXT NOT NULL,
        wake_at    REAL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_wake ON games(wake_at) WHERE wake_at IS NOT NULL;
    CREATE TABLE archive (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id  TEXT NOT NULL,
        guild_id    TEXT,
        game        TEXT NOT NULL,
        record      TEXT NOT NULL,
        finished_at REAL NOT NULL
    );
    CREATE TABLE server_data (
        guild_id TEXT NOT NULL,
        game     TEXT NOT NULL,
        data     TEXT NOT NULL,
        PRIMARY KEY (guild_id, game)
    );
    """,
    # 2: the engine state in a column of its own, as the JSON text the engine wrote: the small
    # record around it is parsed and written without copying the state through json.
    """
    ALTER TABLE games ADD COLUMN state TEXT;
    ALTER TABLE archive ADD COLUMN state TEXT
    """,
    # 3: finished games remembered per server (bot/records.py): one row per game with its replay
    # file, one per seat for stats, and each player's current rating per game.
    """
    CREATE TABLE results (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    TEXT NOT NULL,
        channel_id  TEXT NOT NULL,
        parent_id   TEXT,
        game        TEXT NOT NULL,
        finished_at REAL NOT NULL,
        moves       INTEGER NOT NULL,
        data        TEXT NOT NULL
    );
    CREATE INDEX results_guild ON results(guild_id, finished_at);
    CREATE TABLE result_players (
        result_id  INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        guild_id   TEXT NOT NULL,
        game       TEXT NOT NULL,
        player_id  TEXT NOT NULL,
        name       TEXT NOT NULL,
        seat       INTEGER NOT NULL,
        score      REAL,
        winner     INTEGER NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        finished_at REAL NOT NULL
    );
    CREATE INDEX result_players_player ON result_players(guild_id, player_id, game, finished_at);
    CREATE TABLE ratings (
        guild_id  TEXT NOT NULL,
        game      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        name      TEXT NOT NULL,
        mu        REAL NOT NULL,
        sigma     REAL NOT NULL,
        games     INTEGER NOT NULL,
        wins      INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, player_id)
    )
    """,
    # 4: the outbox: what the bot must still say about a commit, written in the same transaction
    # and deleted once delivered, so a crash between the commit and Discord loses no message.
    """
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id TEXT NOT NULL,
        version    INTEGER NOT NULL,
        body       TEXT NOT NULL,
        created_at REAL NOT NULL
    )
    """,
    # 5: each user's DM channel id, so a DM goes straight to it (no channel creation per DM,
    # and none after a restart).
    """
    CREATE TABLE dm_channels (
        user_id    TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL
    )
    """,
    # 6: the server of each outbox entry, so a process redelivers only its own shards' messages
    # (bot/shards.py) when several processes share one database.
    """
    ALTER TABLE outbox ADD COLUMN guild_id TEXT
    """,
    # 7: each channel's current board message (issue #25: a turn's board is edited in place), so a
    # restarted process edits the same message; with the interaction token that posted it (while
    # it lives, an edit through it is not bound by the global rate limit). And, per outbox entry,
    # the messages already sent: a follow-up carries no nonce, so a redelivery must know it went out.
    """
    CREATE TABLE board_messages (
        channel_id TEXT PRIMARY KEY,
        board_key  TEXT NOT NULL,
        message_id TEXT NOT NULL,
        webhook    TEXT,
        created_at REAL NOT NULL
    );
    ALTER TABLE outbox ADD COLUMN sent TEXT
    """,
]

# The same, for PostgreSQL: REAL is double precision there (SQLite's REAL is 8 bytes), ids are
# identity columns, and names sort byte by byte ("C") as SQLite's do.
POSTGRES: list[str] = [
    # 1
    """
    CREATE TABLE games (
        channel_id TEXT PRIMARY KEY,
        guild_id   TEXT,
        game       TEXT NOT NULL,
        status     TEXT NOT NULL,
        version    INTEGER NOT NULL,
        record     TEXT NOT NULL,
        wake_at    DOUBLE PRECISION,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_wake ON games(wake_at) WHERE wake_at IS NOT NULL;
    CREATE TABLE archive (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        channel_id  TEXT NOT NULL,
        guild_id    TEXT,
        game        TEXT NOT NULL,
        record      TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE server_data (
        guild_id TEXT NOT NULL,
        game     TEXT NOT NULL,
        data     TEXT NOT NULL,
        PRIMARY KEY (guild_id, game)
    )
    """,
    # 2
    """
    ALTER TABLE games ADD COLUMN state TEXT;
    ALTER TABLE archive ADD COLUMN state TEXT
    """,
    # 3
    """
    CREATE TABLE results (
        id          BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id    TEXT NOT NULL,
        channel_id  TEXT NOT NULL,
        parent_id   TEXT,
        game        TEXT NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL,
        moves       INTEGER NOT NULL,
        data        TEXT NOT NULL
    );
    CREATE INDEX results_guild ON results(guild_id, finished_at);
    CREATE TABLE result_players (
        result_id  BIGINT NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        guild_id   TEXT NOT NULL,
        game       TEXT NOT NULL,
        player_id  TEXT NOT NULL,
        name       TEXT NOT NULL,
        seat       INTEGER NOT NULL,
        score      DOUBLE PRECISION,
        winner     INTEGER NOT NULL,
        mu         DOUBLE PRECISION NOT NULL,
        sigma      DOUBLE PRECISION NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX result_players_player ON result_players(guild_id, player_id, game, finished_at);
    CREATE INDEX result_players_result ON result_players(result_id);
    CREATE TABLE ratings (
        guild_id  TEXT NOT NULL,
        game      TEXT NOT NULL,
        player_id TEXT NOT NULL,
        name      TEXT COLLATE "C" NOT NULL,
        mu        DOUBLE PRECISION NOT NULL,
        sigma     DOUBLE PRECISION NOT NULL,
        games     INTEGER NOT NULL,
        wins      INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, player_id)
    )
    """,
    # 4
    """
    CREATE TABLE outbox (
        id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        channel_id TEXT NOT NULL,
        version    INTEGER NOT NULL,
        body       TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    )
    """,
    # 5
    """
    CREATE TABLE dm_channels (
        user_id    TEXT PRIMARY KEY,
        channel_id TEXT NOT NULL
    )
    """,
    # 6
    """
    ALTER TABLE outbox ADD COLUMN guild_id TEXT
    """,
    # 7
    """
    CREATE TABLE board_messages (
        channel_id TEXT PRIMARY KEY,
        board_key  TEXT NOT NULL,
        message_id TEXT NOT NULL,
        webhook    TEXT,
        created_at DOUBLE PRECISION NOT NULL
    );
    ALTER TABLE outbox ADD COLUMN sent TEXT
    """,
]

SCHEMA_VERSION = len(SQLITE)
assert len(POSTGRES) == SCHEMA_VERSION, "every migration needs both dialects"


def statements(migration: str) -> list[str]:
    return [s for s in migration.split(";") if s.strip()]
