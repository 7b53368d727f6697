"""The operator's port (METRICS_PORT): `/healthz` says whether this process can serve players.

Healthy means: the gateway is connected for every shard this process holds, the store answers a
trivial query, and the render pool runs a no-op job. Each check has a short bound, so a hung
database or a dead pool turns into a 503 naming it, never into a probe that hangs. The server is
off unless METRICS_PORT is set (it listens on all interfaces: inside a container, the probe and
Prometheus come from outside the process)."""
from __future__ import annotations

import asyncio
import sys
import urllib.error
import urllib.request
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from .discord_app import PoliticsBot

CHECK_SECONDS = 3.0  # each check's bound: Docker's probe waits 5 s by default (compose.yaml, Dockerfile)


async def _bounded(check, seconds: float = CHECK_SECONDS) -> str | None:
    """None when the check passes; else one short phrase saying what's wrong."""
    try:
        return await asyncio.wait_for(check(), seconds)
    except TimeoutError:
        return f"no answer in {seconds:g} s"
    except Exception as exc:  # the probe reports; it never raises
        return f"{type(exc).__name__}: {exc}"[:200]


def gateway_problem(client: PoliticsBot) -> str | None:
    if client.is_closed():
        return "the client is closed"
    expected = client.shard_ids if client.shard_ids is not None else range(client.shard_count or 1)
    down = [i for i in expected if (shard := client.get_shard(i)) is None or shard.is_closed()]
    if down:
        return "shard " + ", ".join(str(i) for i in down) + " not connected"
    if not client.is_ready():
        return "not ready yet"
    return None


async def health(client: PoliticsBot) -> tuple[bool, dict]:
    """(healthy, the JSON body) for this process now."""
    async def store() -> str | None:
        await client.service.store.version_of("healthz")  # a keyed lookup: one index probe
        return None

    async def renders() -> str | None:
        return None if await client.render_pool.ping() else "the render pool is not running"

    checks = {"gateway": gateway_problem(client), "store": await _bounded(store),
              "render_pool": await _bounded(renders)}
    problems = {name: what for name, what in checks.items() if what}
    body = {"status": "ok" if not problems else "unhealthy",
            "checks": {name: what or "ok" for name, what in checks.items()},
            "stopping": bool(getattr(client, "stopping", False))}
    return not problems, body


class OpsServer:
    """A small aiohttp server on METRICS_PORT: /healthz (and /metrics when a registry is given)."""

    def __init__(self, client: PoliticsBot, port: int, host: str = "0.0.0.0", metrics=None) -> None:
        self.client, self.port, self.host, self.metrics = client, port, host, metrics
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        if self.metrics is not None:
            app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # tests: the port the system picked
            self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        ok, body = await health(self.client)
        return web.json_response(body, status=200 if ok else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        body, content_type = self.metrics.exposition()
        return web.Response(body=body, headers={"Content-Type": content_type})


def probe(port: int, host: str = "127.0.0.1", timeout: float = 5.0) -> int:
    """`politics-bot health`: 0 when /healthz says healthy, 1 otherwise (Docker's HEALTHCHECK)."""
    url = f"http://{host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            print(answer.read().decode("utf-8", "replace"))
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode("utf-8", "replace"), file=sys.stderr)
    except (OSError, ValueError) as exc:
        print(f"politics-bot: no health answer at {url} ({exc}).", file=sys.stderr)
    return 1
