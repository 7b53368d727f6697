"""SQLite store: one row per channel, versioned so an action applies once.

WAL mode lets readers continue while one writer commits; every action is
committed (synchronous=FULL: on disk, not just handed to the OS) before the
bot answers. Schema changes are numbered migrations
recorded in PRAGMA user_version.
"""
from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from typing import Callable, Iterable, TypeVar

import aiosqlite

from .shards import Shards

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
]
SCHEMA_VERSION = len(MIGRATIONS)
T = TypeVar("T")
R = TypeVar("R")


class StorageError(Exception):
    """The database can't be used at all; the message is one sentence for whoever runs the bot."""


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


@dataclass
class Committed:
    text: str               # the record's JSON text as written
    state: str | None       # the state column's
    outbox_id: int | None   # the outbox entry written with it


# (guild id, game id, stored data -> new data): per-server data merged inside a commit.
ServerMerge = tuple[str, str, Callable[[dict], dict]]


def _read_server_data(conn: sqlite3.Connection, guild_id: str, game: str) -> dict:
    found = conn.execute("SELECT data FROM server_data WHERE guild_id=? AND game=?", (guild_id, game)).fetchone()
    try:
        data = json.loads(found[0]) if found else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _merge_server_data(conn: sqlite3.Connection, guild_id: str, game: str, merge: Callable[[dict], dict]) -> None:
    new = merge(_read_server_data(conn, guild_id, game))
    conn.execute(
        "INSERT INTO server_data(guild_id, game, data) VALUES(?,?,?)"
        " ON CONFLICT(guild_id, game) DO UPDATE SET data=excluded.data",
        (guild_id, game, json.dumps(new, separators=(",", ":"))),
    )


def _add_outbox(conn: sqlite3.Connection, channel_id: str, version: int, body: str) -> int:
    """One outbox entry: what the bot must still say about the row at `version` (0: a deleted row,
    so the entry is added before the row goes), with the game's server."""
    return conn.execute("INSERT INTO outbox(channel_id, version, body, created_at, guild_id)"
                        " VALUES(?,?,?,?,(SELECT guild_id FROM games WHERE channel_id=?))",
                        (channel_id, version, body, time.time(), channel_id)).lastrowid


def shard_filter(shards: Shards | None, column: str = "guild_id") -> tuple[str, tuple]:
    """SQL (and its parameters) keeping rows of the shards this process serves; "" for all.
    Discord's rule: (guild_id >> 22) % count, rows without a server on shard 0."""
    if shards is None or shards.all:
        return "", ()
    marks = ",".join("?" * len(shards.ids))
    return (f" AND ((CAST(coalesce({column}, '0') AS INTEGER) >> 22) % ?) IN ({marks})",
            (shards.count, *shards.ids))


def _delete_outbox(conn: sqlite3.Connection, ids: list[int]) -> None:
    conn.executemany("DELETE FROM outbox WHERE id=?", [(i,) for i in ids])


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path
        # One connection serves every channel: two explicit transactions must not interleave (a
        # BEGIN inside another fails), and a single write made while one is open would join it
        # (and be rolled back with it), so writes take turns.
        self._tx = asyncio.Lock()

    async def _write(self, sql: str, params: tuple = ()):
        async with self._tx:
            return await self.db.execute(sql, params)

    @classmethod
    async def open(cls, path: str) -> "Store":
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise StorageError(f"The database {path} can't be opened ({exc}): check the path and its permissions, "
                               "or set DATABASE_PATH to another file.") from None
        store = cls(db, path)
        try:
            # Every statement after connect runs inside this block: if any fails (a file that is
            # not a database fails at the first PRAGMA), the connection's thread is stopped, or it
            # would keep the process alive after the error.
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute("PRAGMA synchronous=FULL")
            await store.migrate()
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise StorageError(f"The file {path} is not a usable politics-bot database ({exc}): restore it "
                                   "from a backup, or move it away and set DATABASE_PATH to a new file.") from None
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
                     record: dict, wake_at: float | None = None, *, outbox: str | None = None) -> bool | int:
        """Insert a new game; False if the channel already has one. With `outbox` (what the bot
        must say about it), that entry is written in the same transaction and its id returned."""
        text, state = split_record(record)

        def work(conn: sqlite3.Connection) -> bool | int:
            conn.execute(
                "INSERT INTO games(channel_id, guild_id, game, status, version, record, state, wake_at, updated_at)"
                " VALUES(?,?,?,?,?,?,?,?,?)",
                (channel_id, guild_id, game, status, 1, text, state, wake_at, time.time()),
            )
            return _add_outbox(conn, channel_id, 1, outbox) if outbox is not None else True

        try:
            return await self._transaction(work)
        except sqlite3.IntegrityError:
            return False

    async def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run work(connection) as one transaction on aiosqlite's database thread: BEGIN IMMEDIATE,
        the work, COMMIT, or ROLLBACK if anything raises (the commit itself included: a full disk
        fails there). One trip to the thread, and no other task's statement can slip in between,
        since the thread runs one function at a time. (aiosqlite has no public call for running a
        function on its thread; _execute and _conn are what its own methods use.)"""
        def run() -> T:
            conn = self.db._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result
        async with self._tx:  # the records' transactions (finish) run statement by statement
            return await self.db._execute(run)

    async def commit(self, channel_id: str, expected_version: int, status: str, record: dict,
                     wake_at: float | None, *, server: ServerMerge | None = None,
                     outbox: str | None = None, delivered: Iterable[int] = (),
                     also: Callable[[sqlite3.Connection], None] | None = None) -> Committed | None:
        """One action, all or nothing: compare-and-swap the game row on its version, merge the
        per-server data (`server`: guild, game and a function stored data -> new data, run on the
        freshest stored data inside the transaction), add the outbox entry (`outbox`: its JSON
        body), drop the outbox entries already `delivered`, and run `also` (more writes of the same
        action, e.g. a finished game's result). None (and nothing written) if someone else moved
        the row first."""
        text, state = split_record(record)
        done = list(delivered)

        def work(conn: sqlite3.Connection) -> Committed | None:
            cur = conn.execute(
                "UPDATE games SET status=?, record=?, state=?, wake_at=?, version=version+1, updated_at=?"
                " WHERE channel_id=? AND version=?",
                (status, text, state, wake_at, time.time(), channel_id, expected_version),
            )
            if cur.rowcount != 1:
                return None
            if server is not None:
                _merge_server_data(conn, *server)
            if also is not None:
                also(conn)
            outbox_id = _add_outbox(conn, channel_id, expected_version + 1, outbox) if outbox is not None else None
            if done:
                _delete_outbox(conn, done)
            return Committed(text, state, outbox_id)

        return await self._transaction(work)

    async def update(self, channel_id: str, expected_version: int, status: str, record: dict,
                     wake_at: float | None) -> tuple[str, str | None] | None:
        """Compare-and-swap on the version: the (record, state) texts written (the row is now
        at expected_version + 1), or None if someone else got there first."""
        done = await self.commit(channel_id, expected_version, status, record, wake_at)
        return (done.text, done.state) if done else None

    async def delete(self, channel_id: str, archive: bool = True, *, outbox: str | None = None) -> int | None:
        """Remove the channel's game (kept in the archive unless archive=False); with `outbox`,
        what the bot must say about it is written in the same transaction (its id returned)."""
        def work(conn: sqlite3.Connection) -> int | None:
            if archive:
                conn.execute(
                    "INSERT INTO archive(channel_id, guild_id, game, record, state, finished_at)"
                    " SELECT channel_id, guild_id, game, record, state, ? FROM games WHERE channel_id=?",
                    (time.time(), channel_id),
                )
            said = _add_outbox(conn, channel_id, 0, outbox) if outbox is not None else None
            conn.execute("DELETE FROM games WHERE channel_id=?", (channel_id,))
            return said
        return await self._transaction(work)

    async def due(self, now: float, limit: int = 100, shards: Shards | None = None) -> list[str]:
        """Channels whose timer or AI move is due, of `shards` only (None: every channel)."""
        where, args = shard_filter(shards)
        rows = await self.db.execute_fetchall(
            f"SELECT channel_id FROM games WHERE wake_at IS NOT NULL AND wake_at<=?{where} ORDER BY wake_at LIMIT ?",
            (now, *args, limit),
        )
        return [r[0] for r in rows]

    async def status_of(self, channel_id: str) -> tuple[str, str, str | None] | None:
        """(status, game id, guild id) without parsing the record, so it works on damaged rows."""
        rows = await self.db.execute_fetchall("SELECT status, game, guild_id FROM games WHERE channel_id=?", (channel_id,))
        return tuple(rows[0]) if rows else None

    async def postpone(self, channel_id: str, when: float) -> None:
        """Move a game's next scheduled wake-up (after a failure) without touching its record."""
        await self._write("UPDATE games SET wake_at=? WHERE channel_id=?", (when, channel_id))

    async def count(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            return (await cur.fetchone())[0]

    async def row_bytes(self, channel_id: str) -> int:
        async with self.db.execute("SELECT length(record) + coalesce(length(state), 0) FROM games WHERE channel_id=?", (channel_id,)) as cur:
            found = await cur.fetchone()
        return int(found[0]) if found else 0

    # ---- finished games, stats and ratings (bot/records.py) -------------
    async def finish(self, channel_id: str, expected_version: int, record: dict, result: dict,
                     seats: list[dict], rate: Callable[[dict], dict], **extra) -> Committed | None:
        """The game's last row and its result in one transaction: the compare-and-swap of
        `commit` (with its `extra`: server data, outbox), the results row, a row per seat and the
        new ratings. `rate` turns the players' current (mu, sigma), read inside the transaction,
        into the new ones. None if someone else wrote the row first; then nothing is recorded."""
        guild, game = result["guild_id"], result["game"]
        ids = sorted({s["player_id"] for s in seats})

        def record_result(conn: sqlite3.Connection) -> None:
            marks = ",".join("?" * len(ids))
            found = conn.execute(
                f"SELECT player_id, mu, sigma FROM ratings WHERE guild_id=? AND game=? AND player_id IN ({marks})",
                (guild, game, *ids)).fetchall() if ids else []
            new = rate({r[0]: (r[1], r[2]) for r in found})
            result_id = conn.execute(
                "INSERT INTO results(guild_id, channel_id, parent_id, game, finished_at, moves, data)"
                " VALUES(?,?,?,?,?,?,?)",
                (guild, channel_id, result.get("parent_id"), game, result["finished_at"], result["moves"],
                 json.dumps(result["data"], separators=(",", ":")))).lastrowid
            for s in seats:
                mu, sigma = new[s["player_id"]]
                conn.execute(
                    "INSERT INTO result_players(result_id, guild_id, game, player_id, name, seat, score, winner,"
                    " mu, sigma, finished_at) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                    (result_id, guild, game, s["player_id"], s["name"], s["seat"], s["score"], int(s["winner"]),
                     mu, sigma, result["finished_at"]))
            for pid in ids:
                mine = [s for s in seats if s["player_id"] == pid]
                mu, sigma = new[pid]
                won = int(any(s["winner"] for s in mine))
                conn.execute(
                    "INSERT INTO ratings(guild_id, game, player_id, name, mu, sigma, games, wins) VALUES(?,?,?,?,?,?,1,?)"
                    " ON CONFLICT(guild_id, game, player_id) DO UPDATE SET name=excluded.name, mu=excluded.mu,"
                    " sigma=excluded.sigma, games=games+1, wins=wins+excluded.wins",
                    (guild, game, pid, mine[0]["name"], mu, sigma, won))

        return await self.commit(channel_id, expected_version, record["status"], record, None,
                                 also=record_result, **extra)

    async def ratings_of(self, guild_id: str, game: str, player_ids: list[str]) -> dict[str, tuple[float, float]]:
        if not player_ids:
            return {}
        marks = ",".join("?" * len(player_ids))
        rows = await self.db.execute_fetchall(
            f"SELECT player_id, mu, sigma FROM ratings WHERE guild_id=? AND game=? AND player_id IN ({marks})",
            (guild_id, game, *player_ids))
        return {r[0]: (r[1], r[2]) for r in rows}

    async def results(self, guild_id: str, channel_id: str | None = None, game: str | None = None,
                      limit: int = 10) -> list[dict]:
        """Recent finished games, newest first; `channel_id` also matches games in its threads."""
        sql = "SELECT id, channel_id, game, finished_at, moves, data FROM results WHERE guild_id=?"
        args: list = [guild_id]
        if channel_id:
            sql += " AND (channel_id=? OR parent_id=?)"
            args += [channel_id, channel_id]
        if game:
            sql += " AND game=?"
            args.append(game)
        rows = await self.db.execute_fetchall(sql + " ORDER BY id DESC LIMIT ?", (*args, limit))
        return [_result_row(r) for r in rows]

    async def result(self, guild_id: str, result_id: int) -> dict | None:
        rows = await self.db.execute_fetchall(
            "SELECT id, channel_id, game, finished_at, moves, data FROM results WHERE guild_id=? AND id=?",
            (guild_id, result_id))
        return _result_row(rows[0]) if rows else None

    async def leaderboard(self, guild_id: str, game: str, offset: int, limit: int) -> tuple[int, list[tuple]]:
        """(how many rated players, a page of (player_id, name, mu, sigma, games, wins)) by mu - 3 sigma."""
        rows = await self.db.execute_fetchall(
            "SELECT player_id, name, mu, sigma, games, wins FROM ratings WHERE guild_id=? AND game=?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, name LIMIT ? OFFSET ?", (guild_id, game, limit, offset))
        total = await self.db.execute_fetchall("SELECT COUNT(*) FROM ratings WHERE guild_id=? AND game=?", (guild_id, game))
        return total[0][0], [tuple(r) for r in rows]

    async def place(self, guild_id: str, game: str, mu: float, sigma: float) -> tuple[int, int]:
        """(place on the leaderboard of a rating, how many are rated): 1 + those rated above it."""
        rows = await self.db.execute_fetchall(
            "SELECT SUM(mu - 3 * sigma > ?), COUNT(*) FROM ratings WHERE guild_id=? AND game=?",
            (mu - 3 * sigma + 1e-9, guild_id, game))
        above, total = rows[0]
        return int(above or 0) + 1, int(total)

    async def player_ratings(self, guild_id: str, player_id: str) -> list[tuple]:
        """(game, name, mu, sigma, games, wins) for every game the player has a rating in."""
        rows = await self.db.execute_fetchall(
            "SELECT game, name, mu, sigma, games, wins FROM ratings WHERE guild_id=? AND player_id=?",
            (guild_id, player_id))
        return [tuple(r) for r in rows]

    async def player_games(self, guild_id: str, player_id: str, game: str | None = None) -> list[tuple]:
        """(result_id, game, finished_at, score, winner, mu, sigma) per game played, oldest first."""
        sql = ("SELECT result_id, game, finished_at, score, winner, mu, sigma FROM result_players"
               " WHERE guild_id=? AND player_id=?")
        args: list = [guild_id, player_id]
        if game:
            sql += " AND game=?"
            args.append(game)
        rows = await self.db.execute_fetchall(sql + " ORDER BY result_id, seat", args)
        return [tuple(r) for r in rows]

    async def player_named(self, guild_id: str, name: str) -> str | None:
        """The id of the player most recently recorded under this name (case-insensitive)."""
        rows = await self.db.execute_fetchall(
            "SELECT player_id FROM result_players WHERE guild_id=? AND lower(name)=lower(?) ORDER BY result_id DESC LIMIT 1",
            (guild_id, name))
        return rows[0][0] if rows else None

    async def reset_records(self, guild_id: str) -> int:
        """Forget every finished game and rating of a server; how many games were removed."""
        async with self._tx:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute("DELETE FROM results WHERE guild_id=?", (guild_id,))
                removed = cur.rowcount
                await self.db.execute("DELETE FROM result_players WHERE guild_id=?", (guild_id,))
                await self.db.execute("DELETE FROM ratings WHERE guild_id=?", (guild_id,))
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise
        return removed

    async def forget_player(self, guild_id: str, player_id: str, new_id: str, new_name: str,
                            rewrite: Callable[[dict], dict]) -> tuple[int, list[str]]:
        """Replace a player's id and name in every record of a server: ratings, seats, each
        game's data through `rewrite(result)` (which returns the new data), and archived rows;
        finished games still in `games` are deleted. (How many recorded games changed, the
        channels whose finished row went.)"""
        async with self._tx:
            ids = [r[0] for r in await self.db.execute_fetchall(
                "SELECT DISTINCT result_id FROM result_players WHERE guild_id=? AND player_id=?", (guild_id, player_id))]
            found = []
            for result_id in ids:
                rows = await self.db.execute_fetchall(
                    "SELECT id, channel_id, game, finished_at, moves, data FROM results WHERE id=?", (result_id,))
                if rows:
                    found.append(_result_row(rows[0]))
            rewritten = [(json.dumps(rewrite(r), separators=(",", ":")), r["id"]) for r in found]
            # A finished game's row (kept only until the channel's next game) goes; archived rows
            # keep the game without the player's name and id, and without the state that names them.
            finished = [r[0] for r in await self.db.execute_fetchall(
                "SELECT channel_id FROM games WHERE guild_id=? AND status='finished' AND instr(record, ?) > 0",
                (guild_id, player_id))]
            archived = []
            for row_id, text in await self.db.execute_fetchall(
                    "SELECT id, record FROM archive WHERE guild_id=? AND instr(record, ?) > 0", (guild_id, player_id)):
                try:
                    record = json.loads(text)
                    for p in record.get("players", []):
                        if p.get("id") in (player_id, f"resigned:{player_id}"):
                            p["id"], p["name"] = new_id, new_name
                    if record.get("host") == player_id:
                        record["host"] = new_id
                    for named in ("opening", "log", "state"):  # their seat token and name are in these
                        record.pop(named, None)
                except (ValueError, AttributeError, TypeError):
                    record = {}
                archived.append((json.dumps(record, separators=(",", ":")), row_id))
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for data, result_id in rewritten:
                    await self.db.execute("UPDATE results SET data=? WHERE id=?", (data, result_id))
                for text, row_id in archived:
                    await self.db.execute("UPDATE archive SET record=?, state=NULL WHERE id=?", (text, row_id))
                for channel_id in finished:
                    await self.db.execute("DELETE FROM games WHERE channel_id=? AND status='finished'", (channel_id,))
                await self.db.execute("UPDATE result_players SET player_id=?, name=? WHERE guild_id=? AND player_id=?",
                                      (new_id, new_name, guild_id, player_id))
                await self.db.execute("UPDATE ratings SET player_id=?, name=? WHERE guild_id=? AND player_id=?",
                                      (new_id, new_name, guild_id, player_id))
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise
        return len(rewritten), finished

    # ---- DM channels ------------------------------------------------------
    async def dm_channel(self, user_id: str) -> str | None:
        rows = await self.db.execute_fetchall("SELECT channel_id FROM dm_channels WHERE user_id=?", (user_id,))
        return rows[0][0] if rows else None

    async def set_dm_channels(self, channels: dict[str, str | None]) -> None:
        """Remember users' DM channels (None forgets one: it no longer exists), all in one
        transaction: a DM channel lost in a crash is only opened again, so they are saved in
        batches rather than paying a synced commit each."""
        if not channels:
            return
        async with self._tx:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                gone = [(user,) for user, channel in channels.items() if channel is None]
                kept = [(user, channel) for user, channel in channels.items() if channel is not None]
                if gone:
                    await self.db.executemany("DELETE FROM dm_channels WHERE user_id=?", gone)
                if kept:
                    await self.db.executemany(
                        "INSERT INTO dm_channels(user_id, channel_id) VALUES(?,?)"
                        " ON CONFLICT(user_id) DO UPDATE SET channel_id=excluded.channel_id", kept)
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise

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
        await self.change_server_data(guild_id, game, lambda current: (data, None))

    async def change_server_data(self, guild_id: str | None, game: str,
                                 change: Callable[[dict], tuple[dict, R]]) -> R | None:
        """Read, change and write a server's data in one transaction: change(stored) -> (new data,
        what to answer). Run on the stored data as it is at that moment, so an upload and a game
        writing at the same time both keep their part."""
        if not guild_id:
            return None
        answer: list = []

        def merge(current: dict) -> dict:
            new, said = change(current)
            answer.append(said)
            return new

        await self._transaction(lambda conn: _merge_server_data(conn, guild_id, game, merge))
        return answer[0]

    # ---- outbox -------------------------------------------------------
    async def outbox(self, shards: Shards | None = None) -> list[tuple[int, str, int, str]]:
        """Undelivered entries of `shards` (None: all), oldest first: (id, channel id, row version, JSON body)."""
        where, args = shard_filter(shards)
        rows = await self.db.execute_fetchall(
            f"SELECT id, channel_id, version, body FROM outbox WHERE 1=1{where} ORDER BY id", args)
        return [tuple(r) for r in rows]

    async def drop_outbox(self, ids: Iterable[int]) -> None:
        done = list(ids)
        if done:
            await self._transaction(lambda conn: _delete_outbox(conn, done))

    async def integrity_ok(self) -> bool:
        async with self.db.execute("PRAGMA integrity_check") as cur:
            return (await cur.fetchone())[0] == "ok"


def _result_row(row) -> dict:
    try:
        data = json.loads(row[5])
    except ValueError:
        data = {}
    return {"id": row[0], "channel_id": row[1], "game": row[2], "finished_at": row[3], "moves": row[4],
            "data": data if isinstance(data, dict) else {}}
