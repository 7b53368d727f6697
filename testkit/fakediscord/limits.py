"""Discord's REST rate limits, kept by the fake Discord per bot token (FakeDiscord(limits=True)).

What Discord documents (https://discord.com/developers/docs/topics/rate-limits, and the developer
support article "My Bot is Being Rate Limited"):
- **Global limit**: 50 requests per second per bot token, over all routes, except interaction
  endpoints (`POST /interactions/{id}/{token}/callback` and the follow-up webhook routes
  `/webhooks/{application_id}/{token}...`), which are not bound to it. A global 429 has
  `"global": true` in its body and the headers `X-RateLimit-Global: true`, `X-RateLimit-Scope: global`.
- **Per-route limits**, per bot, keyed by route + method + the top-level resource in the path
  (channel_id, guild_id, or webhook_id + token). Every answer of a limited route carries
  `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After` (seconds) and
  `-Bucket` (a hash naming the limit, without the resource). A 429 carries `X-RateLimit-Scope: user`
  (this bot's own per-route limit), `Retry-After`, and a body `{message, retry_after, global}`;
  every 429 also has a `Via` header, as Discord's do (discord.py treats a 429 without one as a
  Cloudflare ban). "shared" scope (a resource's limit shared by all users) is never produced here.
- **Invalid requests**: 10,000 answers of 401, 403 or 429 (but not a 429 of scope shared) in 10
  minutes get the client banned by Cloudflare for a while. Here the token is then banned for the
  rest of the run: every request gets a bare 429 without `Via` (what discord.py reads as a ban).

Discord publishes no per-route numbers: they are dynamic and to be read from the headers. The fake
uses these, per bot token (Discord's shared/notes/discord-wire.md of this project lists the
observed ones):

- POST /channels/{id}/messages (a channel post or a DM): 5 per 5 s per channel (commonly observed)
- PATCH /channels/{id}/messages/{id} (an edit): 5 per 5 s per channel (observed: a per-channel
  bucket like create's)
- DELETE /channels/{id}/messages/{id}: 5 per 1 s per channel (commonly observed)
- PUT/DELETE .../messages/{id}/reactions/...: 1 per 0.25 s per channel (commonly observed)
- PATCH /guilds/{id}/members/{id}: 10 per 10 s per guild (commonly observed)
- POST /users/@me/channels (a DM channel opened): 5 per 1 s per bot (assumed: not published)
- POST /channels/{id}/threads: 5 per 5 s per channel (assumed, as message create)
- PATCH /channels/{id} (a thread archived): 5 per 5 s per channel (assumed; a name or topic change
  is observed at 2 per 10 minutes, and the bot changes neither)
- POST /interactions/{id}/{token}/callback: 5 per 5 s per interaction (assumed); no global limit
- /webhooks/{app}/{token}[/messages/{id}] (follow-ups, reply edits): 5 per 2 s per webhook and token
  (observed for webhook execution); no global limit
- any other API route: 50 per 1 s per route and resource (assumed, so every answer has the headers)

The attachment downloads (`/attachments/...`, Discord's CDN) and the gateway are not API routes:
no limit, no headers. Buckets are fixed windows opened by their first request (Reset-After counts
down to the window's end); the global limit is a sliding second.
"""
from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

GLOBAL_PER_SECOND = 50
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
API = "/api/v10"


@dataclass(frozen=True)
class RouteLimit:
    name: str  # the route's kind, as the fake reports it
    method: str
    pattern: re.Pattern  # on the path after /api/v10; group "major" is the top-level resource
    limit: int
    per: float  # seconds
    global_exempt: bool = False

    @property
    def bucket_hash(self) -> str:
        return hashlib.sha1(f"{self.method} {self.name}".encode()).hexdigest()[:16]


def _route(name: str, method: str, pattern: str, limit: int, per: float, exempt: bool = False) -> RouteLimit:
    return RouteLimit(name, method, re.compile(pattern + "$"), limit, per, exempt)


ROUTES: list[RouteLimit] = [
    _route("interaction callback", "POST", r"/interactions/(?P<major>\d+/[^/]+)/callback", 5, 5.0, True),
    _route("follow-up", "POST", r"/webhooks/(?P<major>\d+/[^/]+)", 5, 2.0, True),
    _route("reply edit", "PATCH", r"/webhooks/(?P<major>\d+/[^/]+)/messages/[^/]+", 5, 2.0, True),
    _route("reply read", "GET", r"/webhooks/(?P<major>\d+/[^/]+)/messages/[^/]+", 5, 2.0, True),
    _route("reply delete", "DELETE", r"/webhooks/(?P<major>\d+/[^/]+)/messages/[^/]+", 5, 2.0, True),
    _route("message create", "POST", r"/channels/(?P<major>\d+)/messages", 5, 5.0),
    _route("message edit", "PATCH", r"/channels/(?P<major>\d+)/messages/\d+", 5, 5.0),
    _route("message delete", "DELETE", r"/channels/(?P<major>\d+)/messages/\d+", 5, 1.0),
    _route("reaction", "PUT", r"/channels/(?P<major>\d+)/messages/\d+/reactions/.+", 1, 0.25),
    _route("reaction", "DELETE", r"/channels/(?P<major>\d+)/messages/\d+/reactions/.+", 1, 0.25),
    _route("DM channel open", "POST", r"/users/@me/channels()", 5, 1.0),
    _route("thread create", "POST", r"/channels/(?P<major>\d+)/threads", 5, 5.0),
    _route("channel edit", "PATCH", r"/channels/(?P<major>\d+)", 5, 5.0),
    _route("member edit", "PATCH", r"/guilds/(?P<major>\d+)/members/\d+", 10, 10.0),
]
DEFAULT_LIMIT, DEFAULT_PER = 50, 1.0
_NUMBER = re.compile(r"\d{5,}")


def classify(method: str, path: str) -> tuple[RouteLimit, str] | None:
    """The limit a request falls under and its top-level resource; None outside the API (CDN, gateway)."""
    if not path.startswith(API + "/") or path.startswith(API + "/attachments/"):
        return None
    sub = path[len(API):]
    for route in ROUTES:
        if route.method == method:
            found = route.pattern.match(sub)
            if found:
                return route, found.groupdict().get("major") or ""
    # Another route: its own generous bucket, keyed by its shape (ids replaced) and first id.
    shape = _NUMBER.sub("{id}", sub)
    first = _NUMBER.search(sub)
    return RouteLimit(f"{method} {shape}", method, re.compile(""), DEFAULT_LIMIT, DEFAULT_PER), \
        first.group(0) if first else ""


@dataclass
class Window:
    """A bucket's current window: opened by its first request, `limit` requests until it ends."""
    limit: int
    per: float
    opened: float = -math.inf
    used: int = 0

    def _roll(self, now: float) -> None:
        if now >= self.opened + self.per:
            self.opened, self.used = now, 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.per - now)

    def take(self, now: float) -> bool:
        self._roll(now)
        if self.used >= self.limit:
            return False
        self.used += 1
        return True

    def remaining(self, now: float) -> int:
        self._roll(now)
        return self.limit - self.used


@dataclass
class RouteCount:
    """One route's figures over the run."""
    requests: int = 0
    route_429s: int = 0
    global_429s: int = 0


@dataclass
class Decision:
    """What the limiter says about one request: let through (`status` 0) or answer 429 now;
    `headers` go on the answer either way."""
    route: str
    global_limited: bool  # counts against the global limit (not an interaction endpoint)
    status: int = 0
    scope: str = ""  # "global" | "user" when answered 429 by a limit; "ban" for a banned token
    retry_after: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)


class Limits:
    """Per-token buckets, the global limit and the invalid-request counter of one fake Discord."""

    def __init__(self, enabled: bool = True, clock=time.monotonic, wall=time.time,
                 global_per_second: int = GLOBAL_PER_SECOND, invalid_limit: int = INVALID_LIMIT) -> None:
        self.enabled = enabled
        self.clock = clock  # real time: the client sleeps real seconds on retry_after
        self.wall = wall
        self.global_per_second = global_per_second
        self.invalid_limit = invalid_limit
        self.buckets: dict[tuple[str, str, str], Window] = {}  # (token, bucket hash, resource)
        self.recent: dict[str, deque[float]] = {}  # token -> its global-limited requests in the last second
        self.invalid: dict[str, deque[float]] = {}  # token -> its 401/403/429 answers in the last 10 minutes
        self.invalid_total: dict[str, int] = {}
        self.invalid_peak = 0  # the most invalid requests one token made within 10 minutes
        self.banned: set[str] = set()
        self.by_route: dict[str, RouteCount] = {}
        # Until when a client may be waiting out a limit without sending (a 429's retry_after, or a
        # bucket it emptied): a bot in another process is not "quiet" before then (FakeDiscord.settle).
        self.busy_until = -math.inf
        # Whose limits a token spends: its own by default. Test processes of one bot send tokens of
        # their own so the fake can tell them apart; a run that models them sharing Discord's token
        # maps them to one (bench --scale's processes).
        self.bot_of: Callable[[str], str] = lambda token: token

    def check(self, token: str, method: str, path: str) -> Decision | None:
        """Before the request is served. None: not an API route (nothing to count or say)."""
        found = classify(method, path)
        if found is None:
            return None
        token = self.bot_of(token)
        route, major = found
        count = self.by_route.setdefault(route.name, RouteCount())
        count.requests += 1
        decision = Decision(route.name, not route.global_exempt)
        if not self.enabled:
            return decision
        now = self.clock()
        if token in self.banned:
            decision.status, decision.scope = 429, "ban"
            return decision
        if decision.global_limited:
            recent = self.recent.setdefault(token, deque())
            while recent and recent[0] <= now - 1.0:
                recent.popleft()
            if len(recent) >= self.global_per_second:
                count.global_429s += 1
                wait = recent[0] + 1.0 - now
                decision.status, decision.scope, decision.retry_after = 429, "global", wait
                self.busy_until = max(self.busy_until, now + wait)
                decision.headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global",
                                    "Retry-After": str(max(1, math.ceil(wait)))}
                return decision
        window = self.buckets.setdefault((token, route.bucket_hash, major), Window(route.limit, route.per))
        allowed = window.take(now)
        after = window.reset_after(now)
        decision.headers = {"X-RateLimit-Limit": str(route.limit), "X-RateLimit-Remaining": str(window.remaining(now)),
                            "X-RateLimit-Reset": f"{self.wall() + after:.3f}",
                            "X-RateLimit-Reset-After": f"{after:.3f}", "X-RateLimit-Bucket": route.bucket_hash}
        if not allowed or window.remaining(now) == 0:
            self.busy_until = max(self.busy_until, now + after)
        if not allowed:
            count.route_429s += 1
            decision.status, decision.scope, decision.retry_after = 429, "user", after
            decision.headers |= {"X-RateLimit-Scope": "user", "Retry-After": str(max(1, math.ceil(after)))}
            return decision
        if decision.global_limited:
            self.recent[token].append(now)
        return decision

    def answered(self, token: str, status: int, scope: str = "") -> None:
        """After the answer: 401, 403 and 429 (not of scope shared) count as invalid requests."""
        if not self.enabled or status not in (401, 403, 429) or scope == "shared":
            return
        token = self.bot_of(token)
        now = self.clock()
        seen = self.invalid.setdefault(token, deque())
        seen.append(now)
        while seen and seen[0] <= now - INVALID_WINDOW:
            seen.popleft()
        self.invalid_total[token] = self.invalid_total.get(token, 0) + 1
        self.invalid_peak = max(self.invalid_peak, len(seen))
        if len(seen) > self.invalid_limit:
            self.banned.add(token)

    def most_invalid(self) -> int:
        """The most invalid requests any token made in one 10-minute window so far (what the ban counts)."""
        return self.invalid_peak

    def totals(self) -> dict:
        return {"requests": sum(c.requests for c in self.by_route.values()),
                "global_429s": sum(c.global_429s for c in self.by_route.values()),
                "route_429s": sum(c.route_429s for c in self.by_route.values())}
