"""Which shard a server belongs to, and which shards this process serves.

Discord's rule: a guild is on shard (guild_id >> 22) % shard_count; direct messages
(no guild) are on shard 0. A process holding a set of shards serves only their
channels: their interactions, timers, AI moves and undelivered messages.

How many shards a bot may have is bounded by Discord's session start limit: every shard opens a
gateway session of its own, and a bot may start 1,000 sessions a day (`session_start_limit.total`
of GET /gateway/bot) across all its shards, so a bot of more shards could not even connect them
all in a day. (A bot Discord raised the limit for is far larger than this one will be.)
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 1000  # Discord's daily session starts for a bot: see above


def shard_of(guild_id: str | int | None, count: int) -> int:
    if count <= 1 or guild_id in (None, ""):
        return 0
    return (int(guild_id) >> 22) % count


@dataclass(frozen=True)
class Shards:
    count: int = 1
    ids: tuple[int, ...] = (0,)

    @classmethod
    def parse(cls, count: str | int | None, ids: str | None) -> Shards:
        """From SHARD_COUNT and SHARD_IDS ("0,1"; unset: all of them). ValueError with one
        sentence for a bad pair."""
        text = str(count or "").strip()
        if not text:
            if ids and ids.strip():
                raise ValueError("SHARD_IDS needs SHARD_COUNT too.")
            return cls()
        n = _whole(text)
        if n is None or not 1 <= n <= MAX_SHARDS:
            raise ValueError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS:,} (Discord lets a bot "
                             f"start {MAX_SHARDS:,} gateway sessions a day, one per shard), not {text[:20]!r}.")
        if not ids or not ids.strip():
            return cls(n, tuple(range(n)))
        chosen = []
        for part in ids.split(","):
            part = part.strip()
            shard = _whole(part)
            if shard is None or shard >= n:
                raise ValueError(f"SHARD_IDS must list shard numbers from 0 to {n - 1}, separated by commas; "
                                 f"{part[:20]!r} is not one.")
            chosen.append(shard)
        return cls(n, tuple(sorted(set(chosen))))

    @property
    def all(self) -> bool:
        return len(self.ids) == self.count

    def owns(self, guild_id: str | int | None) -> bool:
        return self.all or shard_of(guild_id, self.count) in self.ids


def _whole(text: str) -> int | None:
    """A small whole number written in ASCII digits, else None. (str.isdigit also takes "²" and
    other scripts' digits, which int() then refuses; a long number is refused before int() reads it.)"""
    if not text or len(text) > 9 or not (text.isascii() and text.isdigit()):
        return None
    return int(text)
