"""Settings from the environment (or a .env file beside the working directory)."""
from __future__ import annotations

import os
from dataclasses import dataclass

from .backup import parse_days
from .logs import parse_log_format
from .shards import Shards


class SettingsError(ValueError):
    """A setting that can't be used; the message is one sentence for whoever runs the bot."""


def load_dotenv(path: str = ".env") -> None:
    """Minimal .env reader: KEY=value lines; the real environment wins."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#") or "=" not in line:
                continue
            key, value = line.split("=", 1)
            os.environ.setdefault(key.strip(), value.strip().strip('"').strip("'"))


@dataclass
class Settings:
    token: str | None
    guild_id: int | None
    database_path: str
    ai_delay: float
    message_content: bool  # privileged intent, only for chat guesses (charades)
    api_base: str | None  # tests only: a local fake Discord's REST base
    gateway_url: str | None  # tests only: a local fake Discord's gateway
    render_workers: int = 0  # board-drawing worker processes; 0 = one per core
    render_processes: bool = True  # False: draw in threads (tests that patch a renderer)
    database_url: str | None = None  # postgresql://… (or sqlite:///…); unset: SQLite at database_path
    # SHARD_COUNT / SHARD_IDS: the Discord shards this process serves (bot/shards.py); None when
    # SHARD_COUNT is unset: one process serves everything, with the shard count Discord recommends.
    shards: Shards | None = None
    # ARCHIVE_DAYS: finished games' moves and archived rows older than this are pruned at
    # startup and daily (bot/backup.py); None keeps them forever (the default).
    archive_days: float | None = None
    log_format: str = "text"  # LOG_FORMAT: text, or json (one object a line, bot/logs.py)
    # METRICS_PORT: /healthz and /metrics on this port (bot/health.py); None: no server (the default).
    metrics_port: int | None = None
    stop_seconds: float = 8.0  # STOP_SECONDS: on SIGTERM, how long in-flight work may take to finish
    # DISCORD_REST_PROXY: the REST proxy (proxy/, http://host:port) that every process sharing this
    # token sends its requests through, so they share one budget of Discord's limits; None: straight
    # to Discord, each process keeping the global limit on its own (bot/ratelimit.py).
    rest_proxy: str | None = None

    @property
    def rest_base(self) -> str | None:
        """Where discord.py sends REST requests, if not to Discord itself: the proxy's API (which
        then forwards them to Discord, or to a test's fake), else a test's fake Discord."""
        return f"{self.rest_proxy}/api/v10" if self.rest_proxy else self.api_base

    @property
    def database(self) -> str:
        """Where the store lives, as Store.open takes it: DATABASE_URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls) -> Settings:
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        count, ids = os.environ.get("SHARD_COUNT", "").strip(), os.environ.get("SHARD_IDS", "").strip()
        try:
            shards = Shards.parse(count, ids) if count or ids else None
            archive_days = parse_days(os.environ.get("ARCHIVE_DAYS"))
            log_format = parse_log_format(os.environ.get("LOG_FORMAT"))
        except ValueError as exc:
            raise SettingsError(str(exc)) from None
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            guild_id=int(guild) if guild.isdigit() else None,
            database_path=os.environ.get("DATABASE_PATH", "./data/politics.db"),
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            ai_delay=_number("AI_DELAY", "1.5", float),
            message_content=os.environ.get("MESSAGE_CONTENT_INTENT", "").strip() in ("1", "true", "yes"),
            api_base=os.environ.get("POLITICS_TEST_API_BASE") or None,
            gateway_url=os.environ.get("POLITICS_TEST_GATEWAY_URL") or None,
            render_workers=int(_number("RENDER_WORKERS", "0", int)),
            shards=shards,
            archive_days=archive_days,
            log_format=log_format,
            metrics_port=_port(os.environ.get("METRICS_PORT", "")),
            stop_seconds=_number("STOP_SECONDS", "8", float),
            rest_proxy=_proxy_url(os.environ.get("DISCORD_REST_PROXY", "")),
        )


def _number(name: str, default: str, kind: type) -> float | int:
    text = os.environ.get(name, "").strip() or default
    try:
        value = kind(text)
    except ValueError:
        value = -1
    if not 0 <= value < 10**9:  # also refuses nan and inf
        raise SettingsError(f"{name} must be a {'whole ' if kind is int else ''}number from 0, not {text[:20]!r}.")
    return value


def _proxy_url(text: str) -> str | None:
    """DISCORD_REST_PROXY: http(s)://host[:port], the proxy's own address (it serves Discord's /api paths)."""
    text = text.strip().rstrip("/")
    if not text:
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  (reading it checks it: a port that is not a number raises)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.path \
            or parts.query or parts.fragment or parts.username or parts.password:
        raise SettingsError("DISCORD_REST_PROXY must be the REST proxy's address, like http://rest-proxy:8080 "
                            f"(no path), not {text[:40]!r}.")
    return text


def _port(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65535:
        raise SettingsError(f"METRICS_PORT must be a port number from 1 to 65535, not {text[:20]!r}.")
    return int(text)
