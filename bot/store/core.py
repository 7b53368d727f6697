"""What both store backends share below the interface: rows, errors, and the step programs.

A *step program* is a generator that yields `Step`s (one SQL statement each, written with `?`
placeholders in SQL both databases understand) and receives each one's result. The logic of a
transaction (compare-and-swap, merge, outbox, a finished game's result) is written once as a
program; each backend drives it inside one transaction of its own: SQLite synchronously on
aiosqlite's database thread, PostgreSQL with awaits on one pooled connection.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar
from collections.abc import Callable, Generator

from pydantic import ValidationError

from ..shards import Shards
from .game_row import GameRecord

T = TypeVar("T")

# What a step wants back.
NONE, ROWS, ROW, COUNT = "none", "rows", "row", "count"


class Step(NamedTuple):
    sql: str
    params: tuple = ()
    want: str = NONE  # ROWS: every row; ROW: the first (or None); COUNT: rows changed


Program = Generator[Step, Any, T]


class StorageError(Exception):
    """The database can't be used at all; the message is one sentence for whoever runs the bot."""


class StorageTrouble(Exception):
    """The database refused one operation (locked, full, unreachable): not a bug, and the
    service answers with one sentence. `kind` is "busy", "full", "down" or "other"."""

    def __init__(self, message: str, kind: str = "other") -> None:
        super().__init__(message)
        self.kind = kind


class CorruptRow(Exception):
    """A stored row that cannot be read back."""


@dataclass
class Row:
    channel_id: str
    guild_id: str | None
    game: str
    status: str
    version: int
    record: GameRecord


@dataclass
class Committed:
    text: str               # the record's JSON text as written
    state: str | None       # the state column's
    outbox_id: int | None   # the outbox entry written with it


# (guild id, game id, stored data -> new data): per-server data merged inside a commit.
ServerMerge = tuple[str, str, Callable[[dict], dict]]


@dataclass(frozen=True)
class Dialect:
    """The few places the two databases need different SQL."""
    name: str
    # PostgreSQL runs transactions side by side, so a read that a write depends on takes a row
    # lock (SELECT … FOR UPDATE); SQLite's BEGIN IMMEDIATE already keeps every other writer out.
    row_locks: bool
    contains: str  # "text column holds ? as a substring", with {column}


SQLITE = Dialect("sqlite", row_locks=False, contains="instr({column}, ?) > 0")
POSTGRES = Dialect("postgres", row_locks=True, contains="strpos({column}, ?) > 0")


def parse_record(text: str, state: str | None = None) -> GameRecord:
    """The stored record, parsed and checked once; `state` (the state column) goes back under
    record.state. Rows written before migration 2 keep the state inside the record; rows in the
    shape before typed records (`"bot"` for two things) load too (see game_row.py)."""
    try:
        record = GameRecord.model_validate_json(text)
    except ValidationError as exc:
        raise CorruptRow(_first_error(exc)) from None
    if state is not None:
        record.state = state
    return record


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err.get('loc', ())) or 'record'}: {err.get('msg', 'not valid')}"


def split_record(record: GameRecord) -> tuple[str, str | None]:
    """(record JSON without the state, state JSON text or None) as stored."""
    if isinstance(record.state, str):
        return record.without_state(), record.state
    return record.dump_text(), None


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def loads_object(text: str | None) -> dict:
    """A stored JSON object; {} for anything damaged or not an object."""
    try:
        data = json.loads(text) if text else {}
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def marks(n: int) -> str:
    return ",".join("?" * n)


def shard_filter(shards: Shards | None, column: str = "guild_id") -> tuple[str, tuple]:
    """SQL (and its parameters) keeping rows of the shards this process serves; "" for all.
    Discord's rule: (guild_id >> 22) % count, rows without a server on shard 0. (BIGINT: a
    snowflake needs 64 bits; SQLite reads the cast as INTEGER.)"""
    if shards is None or shards.all:
        return "", ()
    return (f" AND ((CAST(coalesce({column}, '0') AS BIGINT) >> 22) % ?) IN ({marks(len(shards.ids))})",
            (shards.count, *shards.ids))


def redact(target: str) -> str:
    """A database URL fit for a message or a log: the password is never shown."""
    if "://" not in target or "@" not in target:
        return target
    scheme, rest = target.split("://", 1)
    who, _, where = rest.rpartition("@")
    user = who.split(":", 1)[0]
    return f"{scheme}://{user + ':***@' if ':' in who else user + '@'}{where}"
