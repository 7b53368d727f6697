"""Discord's global limit, kept before a request is sent rather than learned from 429s.

Discord allows a bot token 50 requests a second over all its REST routes (interaction callbacks and
follow-ups exempt). discord.py keeps the per-route buckets from the X-RateLimit-* headers, but the
global limit only once a 429 says so: every request waiting then wakes together when retry_after
ends, most are refused again, and one refused five times raises (the message is not sent). Each
429 also counts against the 10,000 invalid requests in 10 minutes that get a bot banned.

`GlobalLimit` spaces the requests discord.py sends through its session (all but interaction
answers and follow-ups, which Discord exempts) so that no more than `limit` leave in any `per`
seconds, counted when a request is really sent: after discord.py's wait for a route's bucket (a
count taken before that wait let requests held by their buckets leave together with new ones,
past the limit) and again for each retry. `per` carries a small margin: requests sent one second apart may arrive
closer than that. Several processes sharing a token each keep their own count (issue #28 item 4, a
shared REST proxy, is what keeps one budget across them).
"""
from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
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


EXEMPT = ("/interactions/", "/webhooks/")  # interaction answers and follow-ups: no global limit


class _Held:
    """`async with session.request(...)`, entered once the global limit lets the request leave."""

    def __init__(self, keeper: GlobalLimit, make: Callable[[], Any]) -> None:
        self.keeper = keeper
        self.make = make
        self.inner: Any = None

    async def __aenter__(self) -> Any:
        await self.keeper.acquire()
        self.inner = self.make()
        return await self.inner.__aenter__()

    async def __aexit__(self, *exc: Any) -> Any:
        return await self.inner.__aexit__(*exc)


class LimitedSession:
    """discord.py's aiohttp session, with every global-limited request held to the limit at the
    moment it is sent: after discord.py's own per-route wait, and each retry after a 429 again."""

    def __init__(self, session: Any, keeper: GlobalLimit) -> None:
        self._session = session
        self._keeper = keeper

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:
        if any(part in str(url) for part in EXEMPT):
            return self._session.request(method, url, **kwargs)
        return _Held(self._keeper, lambda: self._session.request(method, url, **kwargs))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def install(http: Any, limit: GlobalLimit | None = None) -> GlobalLimit:
    """Hold a logged-in discord.py HTTPClient's requests to the global limit (call after login:
    its session is made there, and made again by a login after close)."""
    keeper = limit or GlobalLimit()
    session = http._HTTPClient__session  # discord.py keeps it private; no public hook sends through it
    if not isinstance(session, LimitedSession):
        http._HTTPClient__session = LimitedSession(session, keeper)
    return keeper
