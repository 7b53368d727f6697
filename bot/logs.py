"""Logging for whoever runs the bot: LOG_LEVEL, and LOG_FORMAT text (the default) or json.

- json: one JSON object a line on stderr, with `time` (UTC, ISO 8601), `level`, `logger`,
  `message`, and `server`, `channel`, `game` (the game ref a button carries) and `interaction`
  (Discord's interaction id) when the line was written while serving one: they ride in a
  context variable set where an interaction enters (`bind`), so every line the service, the
  store or the delivery writes for it carries them without being passed along. An exception's
  traceback is the `error` field.
- Never a secret: the bot's own lines name seats, channels and ids, never a hand or a pick; and
  the libraries that log whole payloads at DEBUG (discord.py's HTTP bodies and gateway events,
  aiosqlite's and asyncpg's statements with their parameters, which hold game states) are held
  at INFO whatever LOG_LEVEL says (tests/test_logs.py plays games at DEBUG and looks).
"""
from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
from typing import Any

FORMATS = ("text", "json")
FIELDS = ("server", "channel", "game", "interaction")
# Libraries whose DEBUG lines carry message bodies, gateway payloads or SQL parameters.
PAYLOAD_LOGGERS = ("discord", "aiosqlite", "asyncpg", "aiohttp", "websockets")

log = logging.getLogger("politics.interactions")
_context: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("politics_log_context", default=None)


def parse_log_format(text: str | None) -> str:
    value = (text or "").strip().lower() or "text"
    if value not in FORMATS:
        raise ValueError(f"LOG_FORMAT must be text or json, not {str(text)[:20]!r}.")
    return value


def bind(**fields: Any) -> contextvars.Token:
    """Add fields (server, channel, game, interaction) to every log line written from here on in
    this task and the tasks it starts; None values are left out."""
    merged = dict(_context.get() or {})
    merged.update({k: str(v) for k, v in fields.items() if v is not None and v != ""})
    return _context.set(merged)


def bound() -> dict[str, str]:
    return dict(_context.get() or {})


def game_ref(custom_id: str) -> str | None:
    """The game ref in a control's custom_id ("pb:<channel>.<ref>:…"), if it has one."""
    parts = custom_id.split(":")
    if len(parts) > 1 and "." in parts[1]:
        channel, _, ref = parts[1].partition(".")
        if channel.isdigit() and ref:
            return ref
    return None


def bind_interaction(interaction: Any) -> None:
    """Where a Discord interaction enters: its server, channel, id and (for a control) game ref,
    and a DEBUG line naming the command or control. Never its options or values: a move typed
    into /politics do, a secret pick or a typed answer would be there."""
    data = getattr(interaction, "data", None) or {}
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    bind(server=getattr(interaction, "guild_id", None), channel=getattr(interaction, "channel_id", None),
         interaction=getattr(interaction, "id", None), game=game_ref(custom_id) if custom_id else None)
    if log.isEnabledFor(logging.DEBUG):
        command = [data.get("name")] + [o.get("name") for o in data.get("options") or [] if o.get("type") in (1, 2)] \
            if isinstance(data, dict) and data.get("name") else []
        log.debug("interaction: %s", " ".join(str(c) for c in command) or (custom_id or "?").split(":", 1)[0])


class ContextFilter(logging.Filter):
    """Puts the bound fields on every record (as attributes), for any formatter to use."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.politics = _context.get() or {}
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(getattr(record, "politics", None) or {})
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """The classic line, with the bound fields after the message when there are any."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = getattr(record, "politics", None)
        if fields:
            head, sep, tail = line.partition("\n")  # a traceback stays below
            line = head + " [" + " ".join(f"{k}={v}" for k, v in fields.items()) + "]" + sep + tail
        return line


def setup_logging(level: str | int = "WARNING", fmt: str = "text", stream=None) -> logging.Handler:
    """The root logger writes `fmt` lines to stderr (or `stream`) at `level`. Returns its handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "politics", False)]:
        root.removeHandler(old)
    handler.politics = True  # type: ignore[attr-defined]  # ours: replaced, not stacked, on a second setup
    root.addHandler(handler)
    root.setLevel(level)
    floor = max(root.level, logging.INFO)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(floor)
    return handler


def level_of(text: str | None) -> int:
    """LOG_LEVEL as logging's number; ValueError with one sentence for a name it doesn't know."""
    name = (text or "").strip().upper() or "WARNING"
    value = logging.getLevelName(name)
    if not isinstance(value, int):
        raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {str(text)[:20]!r}.")
    return value
