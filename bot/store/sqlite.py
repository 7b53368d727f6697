"""SQLite backend: one file, one bot process (the default).

WAL mode lets readers continue while one writer commits; every action is committed
(synchronous=FULL: on disk, not just handed to the OS) before the bot answers. The schema
version is PRAGMA user_version. Every statement runs on aiosqlite's one database thread:
a read is one trip there, a transaction (a step program, see core.py) one trip too.
"""
from __future__ import annotations

import asyncio
import os
import sqlite3
from typing import Any, TypeVar
from collections.abc import Awaitable

import aiosqlite

from . import Store
from .core import COUNT, ROW, ROWS, SQLITE, Program, StorageError, StorageTrouble
from .schema import SCHEMA_VERSION, SQLITE as MIGRATIONS, statements

R = TypeVar("R")


def trouble(exc: sqlite3.OperationalError) -> StorageTrouble:
    message = str(exc)
    lowered = message.lower()
    kind = "full" if "full" in lowered else "busy" if ("locked" in lowered or "busy" in lowered) else "other"
    return StorageTrouble(message, kind)


def drive(conn: sqlite3.Connection, program: Program[R]) -> R:
    """Run a step program's statements on `conn`, handing each its result."""
    try:
        step = next(program)
        while True:
            cur = conn.execute(step.sql, step.params)
            want = step.want
            result: Any
            if want == COUNT:
                result = cur.rowcount
            elif want == ROW:
                result = cur.fetchone()
            elif want == ROWS:
                result = cur.fetchall()
            else:
                result = None
            step = program.send(result)
    except StopIteration as finished:
        return finished.value


class SQLiteStore(Store):
    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = self.target = path
        # One connection serves every channel: two explicit transactions must not interleave (a
        # BEGIN inside another fails), so transactions take turns.
        self._tx = asyncio.Lock()

    @classmethod
    async def connect(cls, path: str) -> SQLiteStore:
        if path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as exc:
            # aiosqlite has queued its thread's stop but not waited for it: the thread would then
            # answer into a closed event loop and print a traceback after our sentence. Wait for it
            # here, while the loop still runs. (_thread: aiosqlite has no public way to wait.)
            await asyncio.to_thread(connecting._thread.join, 10)
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
            found = await cur.fetchone()
        (current,) = found if found is not None else (0,)
        if current > SCHEMA_VERSION:
            # Written by a newer bot: running old code on it could lose data.
            raise StorageError(f"The database {self.path} was written by a newer politics-bot (schema {current}; "
                               f"this one knows {SCHEMA_VERSION}). Upgrade the bot or set DATABASE_PATH to another "
                               "file.")
        for number in range(current, SCHEMA_VERSION):
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements(MIGRATIONS[number]):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version={number + 1}")
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise

    def _rows(self, sql: str, params: tuple = ()) -> Awaitable[list]:
        # aiosqlite's own queue call, no coroutine of ours around it: as cheap as execute_fetchall.
        return self.db._execute(self._fetchall, sql, params)

    def _fetchall(self, sql: str, params: tuple) -> list:  # on the database thread
        try:
            return self.db._conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            raise trouble(exc) from exc

    async def _run(self, program: Program[R]) -> R:
        """The program as one transaction on aiosqlite's database thread: BEGIN IMMEDIATE, its
        statements, COMMIT, or ROLLBACK if anything raises (the commit itself included: a full disk
        fails there). One trip to the thread, and no other task's statement can slip in between,
        since the thread runs one function at a time. (aiosqlite has no public call for running a
        function on its thread; _execute and _conn are what its own methods use.)"""
        def run() -> R:
            conn = self.db._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = drive(conn, program)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                raise trouble(exc) from exc
            return result
        async with self._tx:
            return await self.db._execute(run)

    async def integrity_ok(self) -> bool:
        async with self.db.execute("PRAGMA integrity_check") as cur:
            found = await cur.fetchone()
        return found is not None and found[0] == "ok"
