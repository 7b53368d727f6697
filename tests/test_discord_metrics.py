"""/metrics through the fake Discord: while a game with an AI seat runs, the counters an operator
pages on move — interactions by kind and outcome, ack and "✓ Done" latency, renders, Discord
requests by route, store writes, AI move time, games in play."""
from __future__ import annotations

import asyncio
import random
import re
import urllib.request

from bot.service import GameService
from bot.store import Store
from testkit.fakediscord import BotRunner, FakeDiscord
from testkit.fakediscord.driver import GameRun, latest, take_turn


def _scrape(port: int) -> tuple[str, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        return answer.headers["Content-Type"], answer.read().decode()


def value(text: str, name: str, **labels: str) -> float:
    """The sample `name{labels}` (labels in any order, others allowed), or 0 when absent."""
    total = 0.0
    for line in text.splitlines():
        match = re.match(rf"^{re.escape(name)}(?:\{{(.*)\}})? (\S+)$", line)
        if not match:
            continue
        have = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1) or ""))
        if all(have.get(k) == v for k, v in labels.items()):
            total += float(match.group(2))
    return total


async def test_metrics_move_while_a_game_runs(tmp_path):
    fake = await FakeDiscord().start()
    store = await Store.open(str(tmp_path / "m.db"))
    runner = BotRunner(fake, GameService(store, ai_delay=0.0), metrics_port=0)
    try:
        await runner.start()
        client = runner.client
        assert client is not None and client.ops is not None
        port = client.ops.port
        content_type, before = await asyncio.to_thread(_scrape, port)
        assert content_type.startswith("text/plain")
        assert value(before, "politics_interactions_total") == 0

        ch, alice = fake.general, fake.user("alice")
        await alice.slash("/politics new game:primary-general seed:3 bots:1", channel=ch)
        await alice.click(latest(fake.public(ch), "Start (host)"), "Start (host)")
        await fake.wait_for(lambda: any("AI-" in m.content and "plays" in m.content for m in fake.public(ch)),
                            timeout=20)
        run, rng = GameRun("primary-general", ch), random.Random(5)
        for _ in range(4):
            if await take_turn(fake, alice, ch, "do", rng, run, ["a"]):
                run.human_actions += 1
        assert run.human_actions >= 1
        await fake.settle()
        client._counted_games = 0.0  # count games in play at the next tick
        await fake.wait_for(lambda: client.metrics.games_running.labels("primary-general")._value.get() == 1,
                            timeout=10)
        _, text = await asyncio.to_thread(_scrape, port)

        assert value(text, "politics_interactions_total", kind="slash", outcome="ok") >= 1 + run.human_actions
        assert value(text, "politics_interactions_total", kind="component", outcome="ok") >= 1
        assert value(text, "politics_interactions_total", outcome="busy") == 0
        answered = value(text, "politics_interactions_total", outcome="ok")
        assert value(text, "politics_ack_seconds_count") >= answered  # every served interaction was acked
        assert value(text, "politics_done_seconds_count", kind="slash") >= 1 + run.human_actions
        assert value(text, "politics_render_seconds_count", game="primary-general") >= 1
        assert value(text, "politics_ai_move_seconds_count", game="primary-general") >= 1
        assert value(text, "politics_store_commit_seconds_count", op="commit") >= run.human_actions
        assert value(text, "politics_store_commit_seconds_count", op="create") == 1
        assert value(text, "politics_store_errors_total") == 0
        assert value(text, "politics_games_running", game="primary-general") == 1
        # Discord's API, by route template (ids are not labels): interaction callbacks and channel posts.
        callbacks = value(text, "politics_discord_requests_total",
                          route="POST /interactions/{id}/{token}/callback", status="2xx")
        assert callbacks >= answered, "\n".join(x for x in text.splitlines() if "discord_requests_total{" in x)
        assert value(text, "politics_discord_requests_total",
                     route="POST /channels/{channel_id}/messages") >= 1
        assert not re.search(r'route="[^"]*\d{15,}', text)  # no snowflake in a label
        for gauge in ("politics_delivery_backlog", "politics_delivery_lanes", "politics_outbox_depth",
                      "politics_render_queue"):  # read at scrape time
            assert re.search(rf"^{gauge} \d", text, re.M), gauge
        assert value(text, "politics_delivery_failures_total") == 0
    finally:
        await runner.stop()
        await store.close()
        await fake.stop()
