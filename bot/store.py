"""SQLite store: one row per channel, versioned so an action applies once.

WAL mode lets readers continue while one writer commits; every action is
committed (synchronous=FULL: on disk, not just handed to the OS) before the
bot answers. Schema changes are numbered migrations
recorded in PRAGMA user_version.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

import aiosqlite

MIGRATIONS: list[str] = [
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
]
SCHEMA_VERSION = len(MIGRATIONS)


class CorruptRow(Exception):
    """A stored row that cannot be read back."""


@dataclass
class Row:
    channel_id: str
    guild_id: str | None
    game: str
    status: str
    version: int
    record: dict


def parse_record(text: str, state: str | None = None) -> dict:
    """The stored record; `state` (the state column) goes back under record["state"].
    Rows written before migration 2 keep the state inside the record."""
    try:
        record = json.loads(text)
        if not isinstance(record, dict):
            raise ValueError("record is not an object")
    except ValueError as exc:
        raise CorruptRow(str(exc)) from None
    if state is not None:
        record["state"] = state
    return record


def split_record(record: dict) -> tuple[str, str | None]:
    """(record JSON without the state, state JSON text or None) as stored."""
    state = record.get("state")
    if isinstance(state, str):
        return json.dumps({k: v for k, v in record.items() if k != "state"}, separators=(",", ":")), state
    return json.dumps(record, separators=(",", ":")), None


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path

    @classmethod
    async def open(cls, path: str) -> "Store":
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA busy_timeout=5000")
        await db.execute("PRAGMA synchronous=FULL")
        store = cls(db, path)
        try:
            await store.migrate()
        except Exception:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> None:
        async with self.db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        if current > SCHEMA_VERSION:
            # Written by a newer bot: running old code on it could lose data.
            raise RuntimeError(f"The database {self.path} was written by a newer politics-bot (schema {current}; "
                               f"this one knows {SCHEMA_VERSION}). Upgrade the bot or set DATABASE_PATH to another file.")
        for number in range(current, SCHEMA_VERSION):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version={number + 1}")
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise

    # ---- games --------------------------------------------------------
    async def get(self, channel_id: str) -> Row | None:
        # execute_fetchall is one trip to aiosqlite's thread; execute+fetch+close is three.
        rows = await self.db.execute_fetchall(
            "SELECT channel_id, guild_id, game, status, version, record, state FROM games WHERE channel_id=?",
            (channel_id,),
        )
        if not rows:
            return None
        found = rows[0]
        return Row(found[0], found[1], found[2], found[3], found[4], parse_record(found[5], found[6]))

    async def create(self, channel_id: str, guild_id: str | None, game: str, status: str,
                     record: dict, wake_at: float | None = None) -> bool:
        """Insert a new game; False if the channel already has one."""
        text, state = split_record(record)
        try:
            await self.db.execute(
                "INSERT INTO games(channel_id, guild_id, game, status, version, record, state, wake_at, updated_at)"
                " VALUES(?,?,?,?,?,?,?,?,?)",
                (channel_id, guild_id, game, status, 1, text, state, wake_at, time.time()),
            )
        except aiosqlite.IntegrityError:
            return False
        return True

    async def update(self, channel_id: str, expected_version: int, status: str, record: dict,
                     wake_at: float | None) -> tuple[str, str | None] | None:
        """Compare-and-swap on the version: the (record, state) texts written (the row is now
        at expected_version + 1), or None if someone else got there first."""
        text, state = split_record(record)
        cur = await self.db.execute(
            "UPDATE games SET status=?, record=?, state=?, wake_at=?, version=version+1, updated_at=?"
            " WHERE channel_id=? AND version=?",
            (status, text, state, wake_at, time.time(), channel_id, expected_version),
        )
        return (text, state) if cur.rowcount == 1 else None

    async def delete(self, channel_id: str, archive: bool = True) -> None:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            if archive:
                await self.db.execute(
                    "INSERT INTO archive(channel_id, guild_id, game, record, state, finished_at)"
                    " SELECT channel_id, guild_id, game, record, state, ? FROM games WHERE channel_id=?",
                    (time.time(), channel_id),
                )
            await self.db.execute("DELETE FROM games WHERE channel_id=?", (channel_id,))
            await self.db.execute("COMMIT")
        except Exception:
            await self.db.execute("ROLLBACK")
            raise

    async def due(self, now: float, limit: int = 100) -> list[str]:
        rows = await self.db.execute_fetchall(
            "SELECT channel_id FROM games WHERE wake_at IS NOT NULL AND wake_at<=? ORDER BY wake_at LIMIT ?",
            (now, limit),
        )
        return [r[0] for r in rows]

    async def status_of(self, channel_id: str) -> tuple[str, str, str | None] | None:
        """(status, game id, guild id) without parsing the record, so it works on damaged rows."""
        rows = await self.db.execute_fetchall("SELECT status, game, guild_id FROM games WHERE channel_id=?", (channel_id,))
        return tuple(rows[0]) if rows else None

    async def postpone(self, channel_id: str, when: float) -> None:
        """Move a game's next scheduled wake-up (after a failure) without touching its record."""
        await self.db.execute("UPDATE games SET wake_at=? WHERE channel_id=?", (when, channel_id))

    async def count(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            return (await cur.fetchone())[0]

    async def row_bytes(self, channel_id: str) -> int:
        async with self.db.execute("SELECT length(record) + coalesce(length(state), 0) FROM games WHERE channel_id=?", (channel_id,)) as cur:
            found = await cur.fetchone()
        return int(found[0]) if found else 0

    # ---- per-server data ---------------------------------------------
    async def server_data(self, guild_id: str | None, game: str) -> dict:
        if not guild_id:
            return {}
        rows = await self.db.execute_fetchall("SELECT data FROM server_data WHERE guild_id=? AND game=?", (guild_id, game))
        if not rows:
            return {}
        found = rows[0]
        try:
            data = json.loads(found[0])
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    async def set_server_data(self, guild_id: str | None, game: str, data: dict) -> None:
        if not guild_id:
            return
        await self.db.execute(
            "INSERT INTO server_data(guild_id, game, data) VALUES(?,?,?)"
            " ON CONFLICT(guild_id, game) DO UPDATE SET data=excluded.data",
            (guild_id, game, json.dumps(data, separators=(",", ":"))),
        )

    async def integrity_ok(self) -> bool:
        async with self.db.execute("PRAGMA integrity_check") as cur:
            return (await cur.fetchone())[0] == "ok"
