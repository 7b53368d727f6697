"""Discord's global limit, kept before a request is sent rather than learned from 429s.

Discord allows a bot token 50 requests a second over all its REST routes (interaction callbacks and
follow-ups exempt). discord.py keeps the per-route buckets from the X-RateLimit-* headers, but the
global limit only once a 429 says so: every request waiting then wakes together when retry_after
ends, most are refused again, and one refused five times raises (the message is not sent). Each
429 also counts against the 10,000 invalid requests in 10 minutes that get a bot banned.

`GlobalLimit` spaces the requests discord.py sends through its session (all but interaction
answers and follow-ups, which Discord exempts) so that no more than `limit` are counted in any
`per` seconds. A request takes its place when it is really sent (after discord.py's wait for a
route's bucket, and again for each retry) and holds it until `per` seconds after its answer came:
Discord counts a request when it arrives, which is after it left and before its answer, so a
window counted from departures let a slow request (a cold connection, an upload) land in the same
second as the next batch. Several processes sharing a token each keep their own count unless
they send through the shared REST proxy (DISCORD_REST_PROXY; then this keeper is not installed).
"""
from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from typing import Any

GLOBAL_LIMIT = 50  # requests per second per bot token (Discord's documented global limit)
WINDOW = 1.0  # seconds after a request's answer that it still counts
IN_FLIGHT = math.inf  # a place whose request has not been answered yet


class Place:
    """One request's place in the count: IN_FLIGHT until its answer, then when that came."""
    __slots__ = ("answered",)

    def __init__(self) -> None:
        self.answered = IN_FLIGHT


class GlobalLimit:
    def __init__(self, limit: int = GLOBAL_LIMIT, per: float = WINDOW) -> None:
        self.limit = limit
        self.per = per
        self._places: list[Place] = []  # the requests that still count (at most `limit`)
        self._lock = asyncio.Lock()  # waiters leave in the order they came
        self._answered = asyncio.Event()  # a place stopped being in flight
        self.waited = 0.0  # seconds requests spent held back (a figure for the logs and benches)

    async def acquire(self) -> Place:
        """A place for one request, once fewer than `limit` count; give it back with `answered`."""
        async with self._lock:
            loop = asyncio.get_running_loop()
            started = loop.time()
            while True:
                now = loop.time()
                self._places = [p for p in self._places if p.answered > now - self.per]
                if len(self._places) < self.limit:
                    place = Place()
                    self._places.append(place)
                    self.waited += now - started
                    return place
                soonest = min(p.answered for p in self._places) + self.per - now  # inf: all in flight
                self._answered.clear()
                try:
                    await asyncio.wait_for(self._answered.wait(), None if soonest == IN_FLIGHT else soonest)
                except TimeoutError:
                    pass

    def answered(self, place: Place) -> None:
        """The request's answer came (or it failed): it counts `per` seconds more."""
        place.answered = asyncio.get_running_loop().time()
        self._answered.set()


EXEMPT = ("/interactions/", "/webhooks/")  # interaction answers and follow-ups: no global limit


class _Held:
    """`async with session.request(...)`, entered once the global limit lets the request leave."""

    def __init__(self, keeper: GlobalLimit, make: Callable[[], Any]) -> None:
        self.keeper = keeper
        self.make = make
        self.inner: Any = None

    async def __aenter__(self) -> Any:
        place = await self.keeper.acquire()
        try:
            self.inner = self.make()
            return await self.inner.__aenter__()  # returns once the answer's headers are in
        finally:
            self.keeper.answered(place)

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
