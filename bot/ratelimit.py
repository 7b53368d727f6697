"""Discord's global limit, kept before a request is sent rather than learned from 429s.

Discord allows a bot token 50 requests a second over all its REST routes (interaction callbacks and
follow-ups exempt). discord.py keeps the per-route buckets from the X-RateLimit-* headers, but the
global limit only once a 429 says so: every request waiting then wakes together when retry_after
ends, most are refused again, and one refused five times raises (the message is not sent). Each
429 also counts against the 10,000 invalid requests in 10 minutes that get a bot banned.

`GlobalLimit` spaces the requests of discord.py's HTTPClient (the global-limited ones: interaction
answers go through its webhook adapter, which does not come here) so that no more than `limit`
leave in any `per` seconds. `per` carries a small margin: requests sent one second apart may arrive
closer than that. Several processes sharing a token each keep their own count (issue #28 item 4, a
shared REST proxy, is what keeps one budget across them).
"""
from __future__ import annotations

import asyncio
import functools
from collections import deque
from typing import Any

GLOBAL_LIMIT = 50  # requests per second per bot token (Discord's documented global limit)
WINDOW = 1.1  # seconds: one second and a margin for requests that arrive closer than they left


class GlobalLimit:
    def __init__(self, limit: int = GLOBAL_LIMIT, per: float = WINDOW) -> None:
        self.limit = limit
        self.per = per
        self._sent: deque[float] = deque()  # when each of the last `limit` requests left
        self._lock = asyncio.Lock()  # waiters leave in the order they came
        self.waited = 0.0  # seconds requests spent held back (a figure for the logs and benches)

    async def acquire(self) -> None:
        async with self._lock:
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._sent and self._sent[0] <= now - self.per:
                    self._sent.popleft()
                if len(self._sent) < self.limit:
                    self._sent.append(now)
                    return
                pause = self._sent[0] + self.per - now
                self.waited += pause
                await asyncio.sleep(pause)


def install(http: Any, limit: GlobalLimit | None = None) -> GlobalLimit:
    """Hold every request of a discord.py HTTPClient to the global limit (before its own buckets)."""
    keeper = limit or GlobalLimit()
    send = http.request

    @functools.wraps(send)
    async def request(*args: Any, **kwargs: Any) -> Any:
        await keeper.acquire()
        return await send(*args, **kwargs)

    http.request = request
    return keeper
