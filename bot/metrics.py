"""What the operator pages on, for Prometheus (/metrics on METRICS_PORT, bot/health.py).

One `Metrics` object per bot process holds its own CollectorRegistry (never prometheus_client's
global one): the parts that record receive it (the front end, the delivery lanes, the render
pool's caller, the play loop's AI hook), and two bots in one test process never share counts.
Figures read at scrape time (lanes, backlog, outbox) are callbacks, so nothing polls."""
from __future__ import annotations

import contextvars
import re
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

# Latency buckets, in seconds: Discord wants an ack within 3 s; "✓ Done" should follow within ~1 s.
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

# The Discord route (method and path template, e.g. "POST /channels/{channel_id}/messages") of the
# request the current task is making: set around discord.py's HTTPClient.request, read by the
# aiohttp trace that sees each actual attempt (429 retries included).
# Interaction answers and follow-ups go through discord.py's webhook adapter instead: their route is
# read from the URL (route_of).
_route: contextvars.ContextVar[str] = contextvars.ContextVar("politics_discord_route", default="")
_API_PREFIX = re.compile(r"^/api/v\d+")


def route_of(method: str, path: str) -> str:
    """A request's route template from its URL: ids and webhook tokens become placeholders, so
    the label set stays small ("POST /interactions/{id}/{token}/callback")."""
    parts = _API_PREFIX.sub("", path).split("/")
    for i, part in enumerate(parts):
        if part.isdigit():
            parts[i] = "{id}"
        elif i >= 2 and parts[i - 1] == "{id}" and parts[i - 2] in ("webhooks", "interactions"):
            parts[i] = "{token}"
    return f"{method} {'/'.join(parts)}"


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.interactions = Counter(
            "politics_interactions", "Interactions received, by kind (slash, component, modal) and outcome "
            "(ok, busy, elsewhere, stopping, error)", ["kind", "outcome"], registry=r)
        self.ack_seconds = Histogram(
            "politics_ack_seconds", "Sending an interaction's first answer (defer, modal, busy) until Discord "
            "accepts it: the whole must stay under Discord's 3 s", buckets=FAST, registry=r)
        self.done_seconds = Histogram(
            "politics_done_seconds", "From the handler taking an interaction to the asker's reply (\"✓ Done\" and "
            "their panel) sent", ["kind"], buckets=FAST, registry=r)
        self.render_seconds = Histogram(
            "politics_render_seconds", "Drawing one board in the render pool", ["game"], buckets=SLOW, registry=r)
        self.render_queue = Gauge(
            "politics_render_queue", "Delivery lanes holding a board not yet drawn", registry=r)
        self.delivery_lanes = Gauge("politics_delivery_lanes", "Channels and DMs with messages on their way",
                                    registry=r)
        self.delivery_backlog = Gauge("politics_delivery_backlog", "Messages waiting in all delivery lanes",
                                      registry=r)
        self.delivery_failures = Counter("politics_delivery_failures", "Messages whose send failed", registry=r)
        self.outbox_depth = Gauge(
            "politics_outbox_depth", "Committed outbox entries whose messages are not all sent yet", registry=r)
        self.discord_requests = Counter(
            "politics_discord_requests", "HTTP requests to Discord (each attempt), by route and status class",
            ["route", "status"], registry=r)
        self.discord_429 = Counter(
            "politics_discord_rate_limited", "Discord 429 answers, by route", ["route"], registry=r)
        self.store_seconds = Histogram(
            "politics_store_commit_seconds", "A store write (commit, create, update, delete), by operation",
            ["op"], buckets=FAST, registry=r)
        self.store_errors = Counter("politics_store_errors", "Store writes that raised, by operation", ["op"],
                                    registry=r)
        self.games_running = Gauge("politics_games_running", "Games in play, by game (from the store)", ["game"],
                                   registry=r)
        self.ai_seconds = Histogram(
            "politics_ai_move_seconds", "Choosing one AI move, by game and level", ["game", "level"],
            buckets=SLOW, registry=r)

    def exposition(self) -> tuple[bytes, str]:
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def watch(self, gauge: Gauge, read: Callable[[], float]) -> None:
        """A gauge read at scrape time."""
        gauge.set_function(read)

    # ---- Discord's HTTP API -------------------------------------------------
    def trace(self) -> aiohttp.TraceConfig:
        """Given to discord.py as http_trace: counts every attempt, with its status."""
        config = aiohttp.TraceConfig()

        async def on_end(_session: Any, _ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
            route, status = _route.get() or route_of(params.method, params.url.path), params.response.status
            if status == 101:
                return  # the gateway's websocket upgrade, not an API request
            self.discord_requests.labels(route, f"{status // 100}xx").inc()
            if status == 429:
                self.discord_429.labels(route).inc()

        async def on_error(_session: Any, _ctx: Any, _params: Any) -> None:
            self.discord_requests.labels(_route.get() or "other", "error").inc()

        config.on_request_end.append(on_end)
        config.on_request_exception.append(on_error)
        return config

    def label_routes(self, http: Any) -> None:
        """Wrap discord.py's HTTPClient.request so each request's trace knows its route template
        (the path before ids are filled in: a bounded set of labels)."""
        request = http.request

        async def labelled(route: Any, *args: Any, **kwargs: Any) -> Any:
            token = _route.set(f"{route.method} {route.path}")
            try:
                return await request(route, *args, **kwargs)
            finally:
                _route.reset(token)

        http.request = labelled

    # ---- the store ----------------------------------------------------------
    def time_store(self, store: Any) -> None:
        """Time the store's writes on this instance (the store itself stays free of metrics)."""
        for op in ("commit", "create", "update", "delete"):
            method = getattr(store, op, None)
            if method is not None:
                setattr(store, op, self._timed(op, method))

    def _timed(self, op: str, method: Callable[..., Any]) -> Callable[..., Any]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            except Exception:
                self.store_errors.labels(op).inc()
                raise
            finally:
                self.store_seconds.labels(op).observe(time.perf_counter() - started)
        return timed

    def ai_move(self, game: str, level: str, seconds: float) -> None:
        self.ai_seconds.labels(game, level or "default").observe(seconds)
