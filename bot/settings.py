"""Settings from the environment (or a .env file beside the working directory)."""
from __future__ import annotations

import os
from dataclasses import dataclass


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

    @property
    def database(self) -> str:
        """Where the store lives, as Store.open takes it: DATABASE_URL if set, else the SQLite file."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls) -> "Settings":
        guild = os.environ.get("DISCORD_GUILD_ID", "").strip()
        return cls(
            token=os.environ.get("DISCORD_TOKEN", "").strip() or None,
            guild_id=int(guild) if guild.isdigit() else None,
            database_path=os.environ.get("DATABASE_PATH", "./data/politics.db"),
            database_url=os.environ.get("DATABASE_URL", "").strip() or None,
            ai_delay=float(os.environ.get("AI_DELAY", "1.5")),
            message_content=os.environ.get("MESSAGE_CONTENT_INTENT", "").strip() in ("1", "true", "yes"),
            api_base=os.environ.get("POLITICS_TEST_API_BASE") or None,
            gateway_url=os.environ.get("POLITICS_TEST_GATEWAY_URL") or None,
            render_workers=int(os.environ.get("RENDER_WORKERS", "0") or 0),
        )
