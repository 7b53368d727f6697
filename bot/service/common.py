"""What the parts of the service share: the request in flight, the loaded row, the remembered
row, small text helpers. It imports no other file of bot/service, so every part can use it."""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from collections.abc import AsyncIterator

from engines import Game

from ..messages import Outgoing
from ..store.game_row import GameRecord

log = logging.getLogger("politics.service")

BOT_NAMES = ["Lincoln", "Roosevelt", "Truman", "Eisenhower", "Kennedy", "Johnson", "Nixon", "Ford"]
# the bot's settings of a game; others are the game's
BOT_SETTINGS = {"timeout", "archive", "ai", "ai_budget_ms", "ai_iterations", "hints", "dm_turns"}
MAX_AI_STEPS = 20000
RECENT_CHANNELS = 4096  # channels whose last committed row this process remembers (a few KB each)
CORRUPT = ("The saved game in this channel can't be read (it may be damaged). "
           "The host or a moderator can clear it with /politics cancel; nothing was changed.")


def storage_trouble(exc: Exception, committed: bool) -> str:
    """One sentence for a database that refused a write (a StorageTrouble of either backend)."""
    done = ("Your move was saved, but what came after it wasn't. " if committed else "Nothing was changed. ")
    kind = getattr(exc, "kind", "other")
    if kind == "full":
        return done + "The bot's disk is full, so it can't save games — tell the server owner."
    if kind == "busy":
        return done + "The game's database is busy right now — try again in a moment."
    if kind == "down":
        return done + ("The game's database can't be reached right now — try again in a moment, and tell the "
                       "server owner if it keeps happening.")
    return done + ("The game's database couldn't be written — try again, and tell the server owner if it keeps "
                   "happening.")


STALE_GAME = "That button belongs to an earlier game in this channel."  # a form opened by one, too
GAME_REF_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_game_ref() -> str:
    """A game's identity in its controls: 6 random base-36 characters (2 billion values),
    drawn at /politics new, so a control of an earlier game in the channel never matches."""
    return "".join(secrets.choice(GAME_REF_ALPHABET) for _ in range(6))


def control_ref(channel_id: str, record: GameRecord | None) -> str:
    """The part of every custom_id that says where a control acts: `channel.game`.
    Rows from before game refs have none: their controls carry the bare channel."""
    ref = record.game_ref if record is not None else ""
    return f"{channel_id}.{ref}" if ref else channel_id


class TooLate(Exception):
    """Someone else moved the row first (or the click is from an earlier turn): nothing was changed."""


@dataclass
class Request:
    """One request in flight (a command, a click, a scheduled wake-up): made by the entry point
    and handed down to every part that commits, which records here what it committed. When a
    later step fails, the answer says what was saved, and the messages of what was saved still go out."""
    reply: dict | None = None  # the front end's handle for answering the asker (Ctx.reply)
    committed: bool = False
    messages: list[Outgoing] = field(default_factory=list)  # every message saved with a commit so far

    def said(self, messages: list[Outgoing]) -> None:
        """A commit stored these messages with it."""
        self.committed = True
        self.messages += messages


@dataclass
class Recent:
    """What this process last committed in a channel: the next action there starts from it
    instead of reading the row back (one trip to SQLite's thread fewer)."""
    version: int
    guild_id: str | None
    game_id: str
    status: str
    text: str                              # the record's JSON text exactly as written
    state_text: str | None                 # and the state column's
    private: dict[int, str] | None = None  # each human seat's private text after that commit


class ChannelLocks:
    """One asyncio.Lock per channel, kept only while someone holds it or waits for it: a lock
    kept for every channel ever served would grow with the channels a long-running bot has seen.
    A newcomer to an idle channel makes a fresh lock, which is safe since nobody holds the old one."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[asyncio.Lock, list[int]]] = {}  # channel -> (lock, [holders + waiters])

    def __len__(self) -> int:
        return len(self._held)

    @asynccontextmanager
    async def hold(self, channel_id: str) -> AsyncIterator[None]:
        lock, users = self._held.setdefault(channel_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._held[channel_id]


@dataclass
class Loaded:
    version: int
    record: GameRecord
    game: Game
    guild_id: str | None = None
    state: Any = None  # parsed once in _load; _apply mutates it in place


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _fmt(value: Any) -> str:
    if isinstance(value, bool):  # as the game docs write switches (`carry_scores` on/off)
        return "on" if value else "off"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)

