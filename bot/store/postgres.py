"""PostgreSQL backend, through asyncpg: one database that several bot processes share.

Each process keeps a small pool of connections; a transaction (a step program, see core.py)
runs on one of them at READ COMMITTED. That is enough for the store's promises: the game row is
a compare-and-swap (an UPDATE that waits for a concurrent one, then finds the version moved),
and every read a write depends on locks its row first (server data: SELECT … FOR UPDATE; ratings:
an advisory lock per server and game). synchronous_commit is on for every connection, so an
action is on the server's disk before the bot answers. The schema version is the
schema_version table, and migrations run under an advisory lock, so two processes starting
at once apply them once.
"""
from __future__ import annotations

import asyncio
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg

from . import Store
from .core import COUNT, POSTGRES, ROW, ROWS, Program, StorageError, StorageTrouble, redact
from .schema import POSTGRES as MIGRATIONS, SCHEMA_VERSION

R = TypeVar("R")

# Connections per process. An action holds one for a single transaction (about a millisecond or
# two), so a burst of clicks queues briefly instead of opening more; two processes use 20 of
# PostgreSQL's default 100.
POOL_SIZE = 10
MIGRATION_LOCK = 0x706F6C6974696373  # "politics": the advisory lock key migrations run under
SETTINGS = {
    "synchronous_commit": "on",  # committed = on the server's disk, whatever the server's default
    "lock_timeout": "5000",      # a row held longer than 5 s answers "busy", as SQLite's busy_timeout
    "application_name": "politics-bot",
}


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """The store's `?` placeholders as PostgreSQL's $1, $2, … (no `?` appears inside a literal)."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))


def trouble_kind(exc: BaseException) -> str | None:
    """What kind of storage trouble an asyncpg or socket error is; None for a bug (bad SQL,
    a constraint), which is not the database's fault and must show as one."""
    if isinstance(exc, (OSError, asyncpg.InterfaceError)):  # refused, reset, pool closed, timed out
        return "down"
    state = getattr(exc, "sqlstate", None) or ""
    if state == "53100":
        return "full"
    if state in ("40001", "40P01", "55P03", "53300", "57014"):  # serialization, deadlock, lock wait, slots, cancel
        return "busy"
    if state.startswith(("08", "57P")):  # the connection, the server shutting down or starting
        return "down"
    if state.startswith(("53", "58")) or state == "25006":  # resources, I/O, a read-only server
        return "other"
    return None


async def drive(conn: Any, program: Program[R]) -> R:  # a pooled connection (asyncpg's proxy of one)
    """Run a step program's statements on `conn`, handing each its result."""
    try:
        step = next(program)
        while True:
            sql, want = numbered(step.sql), step.want
            result: Any
            if want == ROWS:
                result = await conn.fetch(sql, *step.params)
            elif want == ROW:
                result = await conn.fetchrow(sql, *step.params)
            else:
                status = await conn.execute(sql, *step.params)
                result = int(status.rsplit(" ", 1)[-1]) if want == COUNT else None
            step = program.send(result)
    except StopIteration as finished:
        return finished.value


class PostgresStore(Store):
    dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self.pool = pool
        self.target = url

    @classmethod
    async def connect(cls, url: str) -> PostgresStore:
        shown = redact(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, timeout=10,
                                             server_settings=SETTINGS)
        except Exception as exc:  # refused, unknown host, bad password, no such database, a malformed URL
            reason = str(exc) or type(exc).__name__
            password = _password(url)
            if password:
                reason = reason.replace(password, "***")
            raise StorageError(f"The PostgreSQL database {shown} can't be used ({reason}): check DATABASE_URL "
                               "and that the server is running.") from None
        store = cls(pool, url)
        try:
            await store.migrate()
        except BaseException as exc:
            await pool.close()
            # e.g. no right to create tables
            if trouble_kind(exc) is not None or isinstance(exc, asyncpg.PostgresError):
                raise StorageError(f"The PostgreSQL database {shown} can't be used ({exc}): check DATABASE_URL, "
                                   "the server, and that its user may create tables there.") from None
            raise
        return store

    async def close(self) -> None:
        try:
            await asyncio.wait_for(self.pool.close(), 10)
        except TimeoutError:
            self.pool.terminate()

    async def migrate(self) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            # Two processes starting at once: the second waits here, then finds nothing to do.
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            current = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
            if current > SCHEMA_VERSION:
                raise StorageError(f"The database {redact(self.target)} was written by a newer politics-bot (schema "
                                   f"{current}; this one knows {SCHEMA_VERSION}). Upgrade the bot or set DATABASE_URL "
                                   "to another database.")
            for number in range(current, SCHEMA_VERSION):
                await conn.execute(MIGRATIONS[number])  # no parameters: one round trip for all its statements
            if current < SCHEMA_VERSION:
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version(version) VALUES($1)", SCHEMA_VERSION)

    async def _rows(self, sql: str, params: tuple = ()) -> list:
        try:
            return await self.pool.fetch(numbered(sql), *params)
        except Exception as exc:
            kind = trouble_kind(exc)
            if kind is None:
                raise
            raise StorageTrouble(str(exc), kind) from exc

    async def _run(self, program: Program[R]) -> R:
        """The program as one transaction on one pooled connection (rolled back if anything raises)."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                return await drive(conn, program)
        except Exception as exc:
            kind = trouble_kind(exc)
            if kind is None:
                raise
            raise StorageTrouble(str(exc), kind) from exc

    async def integrity_ok(self) -> bool:
        """PostgreSQL checks its own pages; here: the server answers and the schema is this bot's."""
        rows = await self._rows("SELECT max(version) FROM schema_version")
        return rows[0][0] == SCHEMA_VERSION


def _password(url: str) -> str | None:
    try:
        return urlsplit(url).password
    except ValueError:
        return None
