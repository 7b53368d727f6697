"""The store: one row per channel, versioned so an action applies once, behind one interface
with two backends.

- SQLite (`bot/store/sqlite.py`, the default): one file, one bot process.
- PostgreSQL (`bot/store/postgres.py`, through asyncpg): one database several bot processes
  share, each serving its own shards.

`Store.open(target)` chooses: a file path or `sqlite:///path` opens SQLite, `postgresql://…`
(or `postgres://…`) PostgreSQL. Both keep the same promise: every action is one transaction
(the row's compare-and-swap on its version, the per-server data merged, the outbox entry, a
finished game's result and ratings), durably committed before the bot answers. The logic of
those transactions is written once here and in records.py, as step programs (core.py) that each
backend runs in a transaction of its own; schema.py has the numbered migrations in both dialects.
"""
from __future__ import annotations

import time
from abc import ABC, abstractmethod
from typing import TypeVar
from collections.abc import Awaitable, Callable, Iterable

from ..shards import Shards
from .core import (COUNT, ROW, Committed, CorruptRow, Dialect, Program, Row, ServerMerge, Step,
                   StorageError, StorageTrouble, dumps, loads_object, marks, parse_record, redact, shard_filter,
                   split_record)
from .game_row import BotSettings, GameRecord, Player, RowTimer
from .records import RecordsStore
from .schema import SCHEMA_VERSION
from .schema import SQLITE as MIGRATIONS

__all__ = ["BotSettings", "Committed", "CorruptRow", "GameRecord", "MIGRATIONS", "Player", "Row", "RowTimer",
           "SCHEMA_VERSION", "ServerMerge", "StorageError", "StorageTrouble", "Store", "parse_record", "redact",
           "shard_filter", "split_record"]

R = TypeVar("R")


def merge_server_steps(dialect: Dialect, guild_id: str, game: str, merge: Callable[[dict], dict]) -> Program[None]:
    """Read a server's data, merge, write, inside the caller's transaction. On PostgreSQL the row
    is made to exist and locked first, so two games of one server writing at once both keep their
    part (the second waits, then merges into what the first wrote)."""
    if dialect.row_locks:
        yield Step("INSERT INTO server_data(guild_id, game, data) VALUES(?,?,'{}') ON CONFLICT DO NOTHING",
                   (guild_id, game))
        found = yield Step("SELECT data FROM server_data WHERE guild_id=? AND game=? FOR UPDATE", (guild_id, game), ROW)
    else:
        found = yield Step("SELECT data FROM server_data WHERE guild_id=? AND game=?", (guild_id, game), ROW)
    new = merge(loads_object(found[0] if found else None))
    yield Step("INSERT INTO server_data(guild_id, game, data) VALUES(?,?,?)"
               " ON CONFLICT(guild_id, game) DO UPDATE SET data=excluded.data", (guild_id, game, dumps(new)))


def add_outbox_steps(channel_id: str, version: int, body: str) -> Program[int]:
    """One outbox entry: what the bot must still say about the row at `version` (0: a deleted row,
    so the entry is added before the row goes), with the game's server; its id."""
    (entry_id,) = yield Step("INSERT INTO outbox(channel_id, version, body, created_at, guild_id)"
                             " VALUES(?,?,?,?,(SELECT guild_id FROM games WHERE channel_id=?)) RETURNING id",
                             (channel_id, version, body, time.time(), channel_id), ROW)
    return entry_id


def _one(step: Step) -> Program[None]:
    """A program of one write."""
    yield step


def drop_outbox_steps(ids: list[int]) -> Program[None]:
    yield Step(f"DELETE FROM outbox WHERE id IN ({marks(len(ids))})", tuple(ids))


class Store(RecordsStore, ABC):
    """The interface. A backend supplies `dialect`, `_rows` (one read), `_run` (a step program
    as one transaction), `migrate`, `close` and `integrity_ok`; everything else is shared."""

    dialect: Dialect
    target: str  # the file or URL it was opened with (a URL's password is never shown: redact())

    @classmethod
    async def open(cls, target: str) -> Store:
        """The store at `target`: a SQLite file path (or ":memory:"), `sqlite:///path`, or a
        `postgresql://` URL. Raises StorageError (one sentence) when it can't be used."""
        if target.startswith(("postgresql://", "postgres://")):
            from .postgres import PostgresStore
            return await PostgresStore.connect(target)
        if target.startswith("sqlite:///"):  # as SQLAlchemy writes it: sqlite:///relative, sqlite:////absolute
            target = target[len("sqlite:///"):]
        elif "://" in target:
            raise StorageError(f"DATABASE_URL must start with postgresql:// or sqlite:///, not "
                               f"{target.split('://')[0][:20]}://.")
        from .sqlite import SQLiteStore
        return await SQLiteStore.connect(target)

    # ---- what a backend supplies ----------------------------------------------
    @abstractmethod
    def _rows(self, sql: str, params: tuple = ()) -> Awaitable[list]:
        """One read: every row."""

    @abstractmethod
    def _run(self, program: Program[R]) -> Awaitable[R]:
        """The step program as one transaction."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def integrity_ok(self) -> bool: ...

    # ---- games --------------------------------------------------------
    async def get(self, channel_id: str) -> Row | None:
        rows = await self._rows(
            "SELECT channel_id, guild_id, game, status, version, record, state FROM games WHERE channel_id=?",
            (channel_id,))
        if not rows:
            return None
        found = rows[0]
        record = parse_record(found[5], found[6])
        record.game = record.game or found[2]
        return Row(found[0], found[1], found[2], found[3], found[4], record)

    async def create(self, channel_id: str, guild_id: str | None, game: str, status: str,
                     record: GameRecord, wake_at: float | None = None, *, outbox: str | None = None) -> bool | int:
        """Insert a new game; False if the channel already has one. With `outbox` (what the bot
        must say about it), that entry is written in the same transaction and its id returned."""
        text, state = split_record(record)

        def steps() -> Program[bool | int]:
            added = yield Step(
                "INSERT INTO games(channel_id, guild_id, game, status, version, record, state, wake_at, updated_at)"
                " VALUES(?,?,?,?,1,?,?,?,?) ON CONFLICT(channel_id) DO NOTHING",
                (channel_id, guild_id, game, status, text, state, wake_at, time.time()), COUNT)
            if not added:
                return False
            return (yield from add_outbox_steps(channel_id, 1, outbox)) if outbox is not None else True
        return await self._run(steps())

    async def commit(self, channel_id: str, expected_version: int, status: str, record: GameRecord,
                     wake_at: float | None, *, server: ServerMerge | None = None,
                     outbox: str | None = None, delivered: Iterable[int] = (),
                     also: Program[None] | None = None) -> Committed | None:
        """One action, all or nothing: compare-and-swap the game row on its version, merge the
        per-server data (`server`: guild, game and a function stored data -> new data, run on the
        freshest stored data inside the transaction), add the outbox entry (`outbox`: its JSON
        body), drop the outbox entries already `delivered`, and run `also` (more writes of the same
        action as a step program, e.g. a finished game's result). None (and nothing written) if
        someone else moved the row first."""
        text, state = split_record(record)
        done = list(delivered)
        dialect = self.dialect

        def steps() -> Program[Committed | None]:
            moved = yield Step(
                "UPDATE games SET status=?, record=?, state=?, wake_at=?, version=version+1, updated_at=?"
                " WHERE channel_id=? AND version=?",
                (status, text, state, wake_at, time.time(), channel_id, expected_version), COUNT)
            if moved != 1:
                return None
            if server is not None:
                yield from merge_server_steps(dialect, *server)
            if also is not None:
                yield from also
            outbox_id = (yield from add_outbox_steps(channel_id, expected_version + 1, outbox)) \
                if outbox is not None else None
            if done:
                yield from drop_outbox_steps(done)
            return Committed(text, state, outbox_id)
        return await self._run(steps())

    async def update(self, channel_id: str, expected_version: int, status: str, record: GameRecord,
                     wake_at: float | None) -> tuple[str, str | None] | None:
        """Compare-and-swap on the version: the (record, state) texts written (the row is now
        at expected_version + 1), or None if someone else got there first."""
        done = await self.commit(channel_id, expected_version, status, record, wake_at)
        return (done.text, done.state) if done else None

    async def delete(self, channel_id: str, archive: bool = True, *, outbox: str | None = None,
                     result: dict | None = None) -> int | None:
        """Remove the channel's game (kept in the archive unless archive=False); with `outbox`,
        what the bot must say about it is written in the same transaction (its id returned); with
        `result` (an unfinished game's archived result, bot/records.py), history lists it."""
        def steps() -> Program[int | None]:
            if archive:
                yield Step("INSERT INTO archive(channel_id, guild_id, game, record, state, finished_at)"
                           " SELECT channel_id, guild_id, game, record, state, ? FROM games WHERE channel_id=?",
                           (time.time(), channel_id))
            if result is not None:
                yield from self._record_archived(channel_id, result)
            said = (yield from add_outbox_steps(channel_id, 0, outbox)) if outbox is not None else None
            yield Step("DELETE FROM games WHERE channel_id=?", (channel_id,))
            return said
        return await self._run(steps())

    async def due(self, now: float, limit: int = 100, shards: Shards | None = None) -> list[str]:
        """Channels whose timer or AI move is due, of `shards` only (None: every channel)."""
        where, args = shard_filter(shards)
        rows = await self._rows(
            f"SELECT channel_id FROM games WHERE wake_at IS NOT NULL AND wake_at<=?{where} ORDER BY wake_at LIMIT ?",
            (float(now), *args, limit))
        return [r[0] for r in rows]

    async def version_of(self, channel_id: str) -> int | None:
        """The row's version alone (None: no row), to check a remembered row against."""
        rows = await self._rows("SELECT version FROM games WHERE channel_id=?", (channel_id,))
        return rows[0][0] if rows else None

    async def status_of(self, channel_id: str) -> tuple[str, str, str | None] | None:
        """(status, game id, guild id) without parsing the record, so it works on damaged rows."""
        rows = await self._rows("SELECT status, game, guild_id FROM games WHERE channel_id=?", (channel_id,))
        return tuple(rows[0]) if rows else None

    async def postpone(self, channel_id: str, when: float) -> None:
        """Move a game's next scheduled wake-up (after a failure) without touching its record."""
        def steps() -> Program[None]:
            yield Step("UPDATE games SET wake_at=? WHERE channel_id=?", (float(when), channel_id))
        await self._run(steps())

    async def count(self) -> int:
        return (await self._rows("SELECT COUNT(*) FROM games"))[0][0]

    async def playing_by_game(self) -> dict[str, int]:
        """Games in play, by game id (the operator's /metrics)."""
        rows = await self._rows("SELECT game, COUNT(*) FROM games WHERE status='playing' GROUP BY game")
        return {str(row[0]): int(row[1]) for row in rows}

    async def row_bytes(self, channel_id: str) -> int:
        rows = await self._rows("SELECT length(record) + coalesce(length(state), 0) FROM games WHERE channel_id=?",
                                (channel_id,))
        return int(rows[0][0]) if rows else 0

    # ---- DM channels ------------------------------------------------------
    async def dm_channel(self, user_id: str) -> str | None:
        rows = await self._rows("SELECT channel_id FROM dm_channels WHERE user_id=?", (user_id,))
        return rows[0][0] if rows else None

    async def set_dm_channels(self, channels: dict[str, str | None]) -> None:
        """Remember users' DM channels (None forgets one: it no longer exists), all in one
        transaction: a DM channel lost in a crash is only opened again, so they are saved in
        batches rather than paying a synced commit each."""
        if not channels:
            return

        def steps() -> Program[None]:
            for user, channel in sorted(channels.items()):  # one order, so two batches can't deadlock
                if channel is None:
                    yield Step("DELETE FROM dm_channels WHERE user_id=?", (user,))
                else:
                    yield Step("INSERT INTO dm_channels(user_id, channel_id) VALUES(?,?)"
                               " ON CONFLICT(user_id) DO UPDATE SET channel_id=excluded.channel_id", (user, channel))
        await self._run(steps())

    # ---- board messages (bot/discord_send.py) ---------------------------
    async def board_message(self, channel_id: str) -> tuple[str, str, str | None, float] | None:
        """(board key, message id, webhook, when posted) of the channel's current board message, if any."""
        rows = await self._rows("SELECT board_key, message_id, webhook, created_at FROM board_messages"
                                " WHERE channel_id=?", (channel_id,))
        return (rows[0][0], rows[0][1], rows[0][2], float(rows[0][3])) if rows else None

    async def set_board_message(self, channel_id: str, board_key: str, message_id: str, webhook: str | None,
                                now: float) -> None:
        await self._run(_one(Step(
            "INSERT INTO board_messages(channel_id, board_key, message_id, webhook, created_at) VALUES(?,?,?,?,?)"
            " ON CONFLICT(channel_id) DO UPDATE SET board_key=excluded.board_key, message_id=excluded.message_id,"
            " webhook=excluded.webhook, created_at=excluded.created_at",
            (channel_id, board_key, message_id, webhook, now))))

    async def outbox_sent(self, entry_id: int, index: int) -> None:
        """Message `index` of outbox entry `entry_id` went out (one that carries no nonce: a follow-up)."""
        await self._run(_one(Step("UPDATE outbox SET sent = COALESCE(sent, '') || ? WHERE id=?",
                                  (f"{index},", entry_id))))

    async def outbox_sent_of(self, entry_ids: list[int]) -> dict[int, set[int]]:
        """For these outbox entries, the indexes of their messages already sent (outbox_sent)."""
        if not entry_ids:
            return {}
        rows = await self._rows(f"SELECT id, sent FROM outbox WHERE id IN ({marks(len(entry_ids))})"
                                " AND sent IS NOT NULL", tuple(entry_ids))
        return {int(i): {int(x) for x in str(sent).split(",") if x} for i, sent in rows}

    # ---- per-server data ---------------------------------------------
    async def server_data(self, guild_id: str | None, game: str) -> dict:
        if not guild_id:
            return {}
        rows = await self._rows("SELECT data FROM server_data WHERE guild_id=? AND game=?", (guild_id, game))
        return loads_object(rows[0][0]) if rows else {}

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

        await self._run(merge_server_steps(self.dialect, guild_id, game, merge))
        return answer[-1]

    # ---- outbox -------------------------------------------------------
    async def outbox(self, shards: Shards | None = None) -> list[tuple[int, str, int, str]]:
        """Undelivered entries of `shards` (None: all), oldest first: (id, channel id, row version, JSON body)."""
        where, args = shard_filter(shards)
        rows = await self._rows(f"SELECT id, channel_id, version, body FROM outbox WHERE 1=1{where} ORDER BY id", args)
        return [tuple(r) for r in rows]

    async def drop_outbox(self, ids: Iterable[int]) -> None:
        done = list(ids)
        if done:
            await self._run(drop_outbox_steps(done))
