"""Which shard a server belongs to, and which shards this process serves.

Discord's rule: a guild is on shard (guild_id >> 22) % shard_count; direct messages
(no guild) are on shard 0. A process holding a set of shards serves only their
channels: their interactions, timers, AI moves and undelivered messages.
"""
from __future__ import annotations

from dataclasses import dataclass


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
        if not text.isdigit() or int(text) < 1:
            raise ValueError(f"SHARD_COUNT must be a whole number from 1, not {text[:20]!r}.")
        n = int(text)
        if not ids or not ids.strip():
            return cls(n, tuple(range(n)))
        chosen = []
        for part in ids.split(","):
            part = part.strip()
            if not part.isdigit() or int(part) >= n:
                raise ValueError(f"SHARD_IDS must list shard numbers from 0 to {n - 1}, separated by commas; "
                                 f"{part[:20]!r} is not one.")
            chosen.append(int(part))
        return cls(n, tuple(sorted(set(chosen))))

    @property
    def all(self) -> bool:
        return len(self.ids) == self.count

    def owns(self, guild_id: str | int | None) -> bool:
        return self.all or shard_of(guild_id, self.count) in self.ids
