"""/healthz on METRICS_PORT, through the fake Discord: 200 with every check "ok" while the bot is
connected, its store open and its render pool running; 503 naming the part that is down."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import asyncio

from bot.cli import main as cli_main
from bot.service import GameService
from bot.store import Store
from testkit.fakediscord import BotRunner, FakeDiscord


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def get(port: int, path: str) -> tuple[int, str]:
    return await asyncio.to_thread(_get, port, path)


async def test_healthz_is_200_when_connected_and_503_naming_what_is_down(tmp_path, monkeypatch):
    fake = await FakeDiscord().start()
    store = await Store.open(str(tmp_path / "h.db"))
    runner = BotRunner(fake, GameService(store, ai_delay=0.0, render=False), metrics_port=0)
    try:
        await runner.start()
        await fake.wait_for(lambda: fake.connected.is_set(), timeout=15)
        ops = runner.client.ops
        assert ops is not None and ops.port
        status, text = await get(ops.port, "/healthz")
        body = json.loads(text)
        assert status == 200, body
        assert body["status"] == "ok" and body["checks"] == {"gateway": "ok", "store": "ok", "render_pool": "ok"}
        # The container's probe: `politics-bot health` exits 0 on this answer.
        monkeypatch.setenv("METRICS_PORT", str(ops.port))
        assert await asyncio.to_thread(cli_main, ["health"]) == 0
        # The render pool stops: 503, and the body names it (and only it).
        runner.client.render_pool.close()
        status, text = await get(ops.port, "/healthz")
        body = json.loads(text)
        assert status == 503 and body["status"] == "unhealthy"
        assert body["checks"]["render_pool"] != "ok" and body["checks"]["store"] == "ok"
        assert await asyncio.to_thread(cli_main, ["health"]) == 1
        runner.client.render_pool.start()
        # The store goes away: 503 naming the store.
        await store.close()
        status, text = await get(ops.port, "/healthz")
        body = json.loads(text)
        assert status == 503 and body["checks"]["store"] != "ok" and body["checks"]["render_pool"] == "ok"
        # Shard 0's gateway socket is down (as while it reconnects): 503 naming the shard.
        shard = runner.client.get_shard(0)
        assert shard is not None
        monkeypatch.setattr(type(shard), "is_closed", lambda self: True)
        status, text = await get(ops.port, "/healthz")
        assert status == 503 and json.loads(text)["checks"]["gateway"] == "shard 0 not connected"
        monkeypatch.undo()
    finally:
        await runner.stop()
        await fake.stop()


def test_health_without_metrics_port_says_so_and_fails(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert cli_main(["health"]) == 1
    assert "METRICS_PORT is not set" in capsys.readouterr().err


def test_a_bad_metrics_port_is_one_sentence(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("METRICS_PORT", "70000")
    assert cli_main(["health"]) == 2
    assert "METRICS_PORT must be a port number from 1 to 65535" in capsys.readouterr().err
