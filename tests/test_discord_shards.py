"""Two bots splitting four shards through the fake Discord, on one database: each serves only its
own servers, a click in a DM reaches shard 0's bot whatever server its game is in, and an
interaction Discord should never have sent to a bot is refused in one sentence. (Both bots run
in this process, each with its own store on one SQLite file; tests/test_shards_scale.py runs
them as processes on PostgreSQL.)"""
from __future__ import annotations

import asyncio
import random

import pytest_asyncio

from bot.discord_app import ELSEWHERE
from bot.service import GameService
from bot.shards import Shards, shard_of
from bot.store import Store
from testkit.fakediscord import BotRunner, FakeDiscord
from testkit.fakediscord.driver import GameRun, latest, navigate

TOKENS = {"token-a": Shards(4, (0, 1)), "token-b": Shards(4, (2, 3))}


def owner(guild_id: str | None) -> str:
    return next(token for token, shards in TOKENS.items() if shards.owns(guild_id))


@pytest_asyncio.fixture
async def split(tmp_path):
    fake = await FakeDiscord(shard_count=4, max_concurrency=16).start()
    guilds = [fake.add_guild(f"server {i}", shard=i) for i in range(4)]
    channels = [fake.add_channel(f"games-{i}", guild=g) for i, g in enumerate(guilds)]
    path = str(tmp_path / "shared.db")
    runners = []
    try:
        for token, shards in TOKENS.items():
            service = GameService(await Store.open(path), ai_delay=0.0, render=False)
            runners.append(BotRunner(fake, service, shards=shards, token=token, db_path=path))
            await runners[-1].start()
        yield fake, channels, runners
    finally:
        for runner in runners:
            await runner.stop()
            await runner.service.store.close()
        await fake.stop()


async def test_each_bot_gets_and_serves_only_its_shards_servers(split):
    fake, channels, runners = split
    sessions = fake.shard_sessions()
    assert {shard: s.token for shard, s in sessions.items()} == {0: "token-a", 1: "token-a", 2: "token-b",
                                                                 3: "token-b"}
    for shard, session in sessions.items():
        assert session.count == 4 and session.guilds == [g for g in fake.guilds if shard_of(g, 4) == shard]
    # The commands are the bot's: registered once, by shard 0's process.
    assert sum(1 for _t, method, path, _s in fake.requests if method == "PUT" and path.endswith("/commands")) == 1
    alice = fake.user("alice")
    for channel in channels:
        inter = await alice.slash("/politics new game:primary-general seed:3 bots:1", channel=channel)
        guild = fake.guild_of(channel)
        assert fake.receiver(inter) == owner(guild) and inter.callbacks == 1
        lobby = latest(fake.public(channel), "Start (host)")
        await alice.click(lobby, "Start (host)")
    for channel in channels:
        row = await runners[0].service.store.get(channel)
        assert row.status == "playing"
        await fake.wait_for(lambda channel=channel: any("AI-Lincoln plays" in m.content for m in fake.public(channel)),
                            timeout=10)
        for message in fake.public(channel):
            assert fake.sender(message) == owner(fake.guild_of(channel)), message.content[:60]
    # Each bot remembers rows of its own servers only.
    for runner in runners:
        assert {runner.service.rows.recent[c].guild_id for c in runner.service.rows.recent} <= {
            g for g in fake.guilds if runner.shards.owns(g)}


async def test_a_dm_click_on_another_shards_game_is_served_by_shard_0_and_the_owner_carries_on(split):
    fake, channels, runners = split
    a, b = (runner.service for runner in runners)
    channel = channels[2]  # token-b's server
    alice = fake.user("alice")
    # dm-turns=on: her turn comes by DM (without it, the board's ping tells her), and a DM's click is the point
    await alice.slash("/politics new game:primary-general seed:3 bots:1 settings:dm-turns=on", channel=channel)
    await alice.click(latest(fake.public(channel), "Start (host)"), "Start (host)")
    # The AI moves first (token-b's timer); then alice's turn comes by DM.
    await fake.wait_for(lambda: any(m.selects() for m in alice.dms()), timeout=10)
    panel = next(m for m in reversed(alice.dms()) if m.selects())
    run = GameRun("primary-general", channel)
    assert await navigate(alice, panel, random.Random(1), run, ["a"])
    dm_clicks = [i for i in fake.interactions.values() if i.guild_id is None]
    assert dm_clicks and all(fake.receiver(i) == "token-a" and fake.sessions[i.session].shard == 0 for i in dm_clicks)
    stored = await b.store.get(channel)
    assert stored.record.acted[0] == 1 and channel not in a.rows.recent  # not token-a's server: not kept
    # token-b's timer moves the AI on the row token-a wrote (its own copy was older), exactly once.
    for _ in range(100):
        after = await b.store.get(channel)
        if len(after.record.log) > len(stored.record.log):
            break
        await asyncio.sleep(0.1)
    assert len(after.record.log) == len(stored.record.log) + 1 and after.record.log[-1][0] == 1
    await fake.wait_for(lambda: b.rows.recent.get(channel) and b.rows.recent[channel].version == after.version)
    inter = await alice.click(latest(fake.public(channel), "Open my controls"), "Open my controls")
    assert fake.receiver(inter) == "token-b" and "Something went wrong" not in inter.text()


async def test_an_interaction_on_the_wrong_shard_is_refused_in_one_sentence(split):
    fake, channels, runners = split
    alice = fake.user("alice")
    data = alice.command_data("new", {"game": "primary-general", "seed": 3})
    # Discord sends a server's interactions on its shard only; as if it had sent this one to token-a:
    inter = await fake.interact(alice.u, 2, data, channel_id=channels[3], shard=0)
    await fake.settle()
    assert fake.receiver(inter) == "token-a" and inter.text() == ELSEWHERE
    assert await runners[0].service.store.get(channels[3]) is None  # nothing was changed


async def test_shards_identify_in_discords_buckets(tmp_path, monkeypatch):
    """max_concurrency 2: shards 0 and 1 identify together, shard 2 waits for shard 0's 5 seconds."""
    from types import SimpleNamespace

    import bot.discord_app as app
    from bot.settings import Settings

    settings = Settings(token="t", guild_id=None, database_path="", ai_delay=0.0, message_content=False,
                        api_base=None, gateway_url=None, render_processes=False, shards=Shards(4, (0, 1, 2)))
    client = app.PoliticsBot(settings, service=GameService(await Store.open(str(tmp_path / "s.db"))))
    asked = []

    async def limits():
        asked.append(1)
        return SimpleNamespace(max_concurrency=2)
    waited = []

    async def sleep(seconds):
        waited.append(seconds)
    monkeypatch.setattr(client, "fetch_session_start_limits", limits)
    monkeypatch.setattr(app.asyncio, "sleep", sleep)
    await client.before_identify_hook(0, initial=True)
    await client.before_identify_hook(1)
    assert waited == [] and asked == [1]
    await client.before_identify_hook(2)
    assert len(waited) == 1 and 4.5 < waited[0] <= 5.0 and asked == [1]
    await client.service.store.close()
