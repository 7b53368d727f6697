"""What the parts of the service share: the loaded row, the remembered row, small text helpers."""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from engines import Game

log = logging.getLogger("politics.service")

BOT_NAMES = ["Lincoln", "Roosevelt", "Truman", "Eisenhower", "Kennedy", "Johnson", "Nixon", "Ford"]
BOT_SETTINGS = {"timeout", "archive"}  # settings the bot keeps; all others belong to the game
MAX_AI_STEPS = 20000
RECENT_CHANNELS = 4096  # channels whose last committed row this process remembers (a few KB each)
CORRUPT = ("The saved game in this channel can't be read (it may be damaged). "
           "The host or a moderator can clear it with /politics cancel; nothing was changed.")


class TooLate(Exception):
    pass


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


@dataclass
class Loaded:
    version: int
    record: dict
    game: Game
    guild_id: str | None = None
    state: Any = None  # parsed once in _load; _apply mutates it in place


def _clean_name(name: str) -> str:
    cleaned = " ".join(str(name).replace("@", "").replace("`", "").replace("*", "").split())[:32]
    return cleaned or "player"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _fmt(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)
