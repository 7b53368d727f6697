"""Backups, restores and retention of the store (docs/operations.md).

- `backup`: a consistent copy of a SQLite store, running bot or not, through SQLite's online
  backup API: one step copies every page under a read snapshot, which in WAL mode never blocks
  the bot's writers, so the copy holds exactly the games committed when it began. PostgreSQL is
  backed up with its own tool, pg_dump.
- `restore`: the copy back into DATABASE_PATH, through the same API (the target's pages are
  replaced in one transaction). It refuses to replace a database without --force, and always
  refuses one a running bot holds.
- `prune` (and ARCHIVE_DAYS, at startup and daily): finished games' move logs and opening
  states, and archived game rows, older than that many days are dropped; every result row, seat
  row and rating stays, so stats, history and leaderboards are unchanged (a pruned game only
  can't be replayed or downloaded with its moves any more).
"""
from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from dataclasses import dataclass

from .store import Store
from .store.schema import SCHEMA_VERSION

log = logging.getLogger("politics.backup")

DAY = 86400.0
MAX_DAYS = 36500  # a hundred years: anything longer is "keep"
PG_DUMP = ("pg_dump --format=custom --file FILE \"$DATABASE_URL\"",
           "pg_restore --clean --if-exists --no-owner --dbname \"$DATABASE_URL\" FILE")


class BackupError(Exception):
    """A backup, restore or prune that can't be done; the message is one sentence."""


def is_postgres(target: str) -> bool:
    return target.startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str) -> str:
    return target[len("sqlite:///"):] if target.startswith("sqlite:///") else target


def parse_days(text: str | None, name: str = "ARCHIVE_DAYS") -> float | None:
    """ARCHIVE_DAYS: unset, empty or "keep" keep archived games forever (None); else whole days from 1."""
    text = (text or "").strip()
    if text.lower() in ("", "keep", "forever"):
        return None
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= MAX_DAYS:
        keep = ", or keep (the default)" if name == "ARCHIVE_DAYS" else ""
        raise ValueError(f"{name} must be a whole number of days from 1 to {MAX_DAYS:,}{keep}, not {text[:20]!r}.")
    return float(text)


# ---- backup and restore (SQLite) -----------------------------------------------------

@dataclass
class Copied:
    path: str
    games: int     # games in progress
    results: int   # finished games recorded
    size: int      # bytes


def _check(conn: sqlite3.Connection, what: str) -> tuple[int, int]:
    """(games, results) of a politics-bot database, or BackupError saying why it isn't one."""
    try:
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        ok = conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{what} is not a SQLite database ({exc}).") from None
    if not ok:
        raise BackupError(f"{what} is damaged (SQLite's quick_check failed).")
    if not {"games", "results"} <= tables:
        raise BackupError(f"{what} is a SQLite database but not a politics-bot one (it has no games table).")
    if version > SCHEMA_VERSION:
        raise BackupError(f"{what} was written by a newer politics-bot (schema {version}; this one knows "
                          f"{SCHEMA_VERSION}): upgrade the bot first.")
    games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    results = conn.execute("SELECT COUNT(*) FROM results").fetchone()[0]
    return games, results


def _open_existing(path: str, what: str) -> sqlite3.Connection:
    if not os.path.isfile(path):
        raise BackupError(f"There is no database at {path} ({what}): check DATABASE_PATH.")
    try:
        conn = sqlite3.connect(path, timeout=10)
        conn.execute("PRAGMA busy_timeout=10000")
        return conn
    except sqlite3.Error as exc:
        raise BackupError(f"The database {path} can't be opened ({exc}).") from None


def backup_sqlite(source: str, dest: str, force: bool = False) -> Copied:
    """Copy the store at `source` to `dest` while a bot may be writing to it."""
    if os.path.isdir(dest):
        raise BackupError(f"{dest} is a folder: name the backup file, e.g. {os.path.join(dest, 'politics.db')}.")
    if os.path.exists(dest) and not force:
        raise BackupError(f"{dest} already exists: pass --force to replace it, or name another file.")
    if os.path.abspath(dest) == os.path.abspath(source):
        raise BackupError("The backup file is the database itself: name another file.")
    src = _open_existing(source, "nothing to back up")
    partial = f"{dest}.partial"
    try:
        _check(src, f"The database {source}")
        os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
        if os.path.exists(partial):
            os.remove(partial)
        out = sqlite3.connect(partial)
        try:
            src.backup(out)  # pages=-1: every page in one step, under one read snapshot
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
            games, results = _check(out, f"The copy {partial}")
        finally:
            out.close()
        os.replace(partial, dest)  # a finished copy or none: never half a file under the backup's name
    except sqlite3.Error as exc:
        raise BackupError(f"The backup of {source} to {dest} failed ({exc}).") from None
    finally:
        src.close()
        if os.path.exists(partial):
            os.remove(partial)
    return Copied(dest, games, results, os.path.getsize(dest))


def _held_by_another(path: str) -> bool:
    """Whether another connection (a running bot) holds the WAL database at `path`: the last
    connection to close checkpoints and removes the -wal file, so if it is still there after
    ours closes, someone else has the database open."""
    if not os.path.exists(f"{path}-wal"):
        return False
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        return True
    finally:
        conn.close()
    return os.path.exists(f"{path}-wal")


def restore_sqlite(backup: str, target: str, force: bool = False) -> Copied:
    """Put the backup at `backup` into the store at `target` (which a bot must not be running on)."""
    src = _open_existing(backup, "the backup to restore")
    try:
        games, results = _check(src, f"The backup {backup}")
        if os.path.isdir(target):
            raise BackupError(f"DATABASE_PATH {target} is a folder: set it to the database file.")
        if os.path.exists(target):
            if not force:
                raise BackupError(f"{target} already holds a database: stop the bot and pass --force to replace it "
                                  "(back it up first if you may want it again).")
            if _held_by_another(target):
                raise BackupError(f"A running bot has {target} open: stop it first, then restore.")
        os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
        out = sqlite3.connect(target, timeout=10)
        try:
            src.backup(out)  # the target's pages replaced in one transaction
            out.execute("PRAGMA journal_mode=WAL")  # as the bot keeps it
        finally:
            out.close()
    except sqlite3.Error as exc:
        raise BackupError(f"The restore of {backup} into {target} failed ({exc}).") from None
    finally:
        src.close()
    return Copied(target, games, results, os.path.getsize(target))


# ---- retention ------------------------------------------------------------------------

@dataclass
class Pruned:
    results: int   # finished games whose moves and opening were dropped
    archived: int  # archived game rows deleted
    before: float  # what finished before this time was pruned


async def prune(store: Store, days: float, now: float | None = None) -> Pruned:
    before = (time.time() if now is None else now) - days * DAY
    results, archived = await store.prune_archive(before)
    if results or archived:
        log.info("retention: dropped the moves of %d finished games and %d archived rows older than %g days",
                 results, archived, days)
    return Pruned(results, archived, before)


async def prune_daily(store: Store, days: float) -> None:
    """At startup, then once a day, for as long as the bot runs. A failure is logged and tried
    again the next day: keeping a game too long never hurts a player."""
    while True:
        try:
            await prune(store, days)
        except Exception:
            log.exception("retention: pruning archived games failed")
        await asyncio.sleep(DAY)


def start_pruning(store: Store, days: float | None, serves_shard_0: bool = True) -> asyncio.Task | None:
    """The daily prune as a task of the running loop; None when ARCHIVE_DAYS keeps everything.
    Of several processes sharing a database, the one holding shard 0 prunes (as it registers commands)."""
    if days is None or not serves_shard_0:
        return None
    return asyncio.get_running_loop().create_task(prune_daily(store, days), name="politics-prune")
