"""The fake Discord's rate limits (testkit/fakediscord/limits.py), read off the wire as a client
sees them: per-route buckets, the global 50/s with interaction endpoints exempt, the headers, the
429 bodies, and the invalid-request counter with its ban. Then the real bot through the limiting
fake: a burst ends with no global 429 and every move in its channel once and in order."""
from __future__ import annotations

import asyncio
import math

import aiohttp
import pytest

from testkit.fakediscord.limits import GLOBAL_PER_SECOND, INVALID_LIMIT, INVALID_WINDOW
from testkit.fakediscord.server import FakeDiscord

RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-RateLimit-Reset-After",
                "X-RateLimit-Bucket")


@pytest.fixture
async def fake():
    """A started fake whose limits read a stopped clock: windows end only when the test moves it,
    so nothing here depends on how fast this machine answers."""
    f = await FakeDiscord().start()
    f.limits.clock = lambda: 1000.0
    yield f
    await f.stop()


async def _send(session: aiohttp.ClientSession, fake: FakeDiscord, method: str, path: str, token: str = "t1",
                body: dict | None = None) -> tuple[int, dict, dict | str]:
    headers = {"Authorization": f"Bot {token}"} if token else {}
    async with session.request(method, fake.api_base + path, json=body or {}, headers=headers) as resp:
        data: dict | str = await resp.json() if resp.content_type == "application/json" else await resp.text()
        return resp.status, dict(resp.headers), data


async def test_limits_are_on_by_default_and_documented():
    made = FakeDiscord()
    assert made.limits.enabled
    assert GLOBAL_PER_SECOND == 50 and INVALID_LIMIT == 10_000 and INVALID_WINDOW == 600


async def test_sixty_posts_in_one_channel_are_held_to_five_per_five_seconds(fake):
    channel = fake.general
    async with aiohttp.ClientSession() as session:
        answers = [await _send(session, fake, "POST", f"/channels/{channel}/messages", body={"content": str(i)})
                   for i in range(60)]
    ok = [a for a in answers if a[0] == 200]
    limited = [a for a in answers if a[0] == 429]
    assert len(ok) == 5 and len(limited) == 55
    assert [m.content for m in fake.channel_messages(channel)] == ["0", "1", "2", "3", "4"]  # a 429 posts nothing
    remaining = [int(h["X-RateLimit-Remaining"]) for _s, h, _d in ok]
    assert remaining == [4, 3, 2, 1, 0] and all(h["X-RateLimit-Limit"] == "5" for _s, h, _d in ok)
    for _status, headers, body in limited:
        assert isinstance(body, dict) and body["global"] is False and body["message"]
        assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
        assert headers["Via"]  # Discord's 429, not a Cloudflare ban
        assert int(headers["Retry-After"]) == max(1, math.ceil(float(headers["X-RateLimit-Reset-After"])))
        assert abs(float(headers["X-RateLimit-Reset-After"]) - body["retry_after"]) < 0.01
    # retry_after is when the window ends: 5 s after its first post (the clock stood still)
    assert all(float(h["X-RateLimit-Reset-After"]) == 5.0 for _s, h, _d in ok + limited)
    assert all(body["retry_after"] == 5.0 for _s, _h, body in limited)  # type: ignore[index]
    # once the window is over, the channel takes posts again
    fake.limits.clock = lambda: 1005.0
    async with aiohttp.ClientSession() as session:
        again = await _send(session, fake, "POST", f"/channels/{channel}/messages", body={"content": "5"})
    assert again[0] == 200 and again[1]["X-RateLimit-Remaining"] == "4"
    # the route's figures: 61 requests, 55 of them 429 by the route's bucket, none global
    route = fake.limits.by_route["message create"]
    assert (route.requests, route.route_429s, route.global_429s) == (61, 55, 0)
    # another channel has a bucket of its own, as on Discord (keyed by channel)
    other = fake.add_channel("other")
    async with aiohttp.ClientSession() as session:
        status, _h, _d = await _send(session, fake, "POST", f"/channels/{other}/messages", body={"content": "x"})
    assert status == 200


async def test_the_global_limit_trips_at_fifty_a_second_and_spares_interaction_callbacks(fake):
    channels = [fake.add_channel(f"c{i}") for i in range(60)]  # one post each: no route bucket fills
    alice = fake.user("alice").u
    inters = [await fake.interact(alice, 2, {"name": "politics"}) for _ in range(10)]
    async with aiohttp.ClientSession() as session:
        posts = await asyncio.gather(*(_send(session, fake, "POST", f"/channels/{c}/messages",
                                             body={"content": "x"}) for c in channels))
        # the same second, the same bot: interaction callbacks are not bound to the global limit
        callbacks = [await _send(session, fake, "POST", f"/interactions/{i.id}/{i.token}/callback",
                                 body={"type": 4, "data": {"content": "ok"}}) for i in inters]
    statuses = sorted(status for status, _h, _d in posts)
    assert statuses.count(200) == GLOBAL_PER_SECOND and statuses.count(429) == 10
    for status, headers, body in posts:
        if status == 429:
            assert isinstance(body, dict) and body["global"] is True and body["retry_after"] == 1.0
            assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
            assert headers["Via"]
    assert all(status == 200 for status, _h, _d in callbacks)
    assert fake.limits.by_route["message create"].global_429s == 10
    assert fake.limits.by_route["interaction callback"].global_429s == 0
    # another token has a global limit of its own
    async with aiohttp.ClientSession() as session:
        status, _h, _d = await _send(session, fake, "POST", f"/channels/{channels[0]}/messages", token="t2",
                                     body={"content": "y"})
    assert status == 200


async def test_every_api_answer_carries_the_rate_limit_headers(fake):
    bob = fake.user("bob")
    async with aiohttp.ClientSession() as session:
        answers = {
            "me": await _send(session, fake, "GET", "/users/@me"),
            "dm": await _send(session, fake, "POST", "/users/@me/channels", body={"recipient_id": bob.id}),
            "post": await _send(session, fake, "POST", f"/channels/{fake.general}/messages", body={"content": "a"}),
        }
        mid = answers["post"][2]["id"]  # type: ignore[index]
        answers["edit"] = await _send(session, fake, "PATCH", f"/channels/{fake.general}/messages/{mid}",
                                      body={"content": "b"})
        answers["unknown channel"] = await _send(session, fake, "GET", "/channels/1")
    for name, (_status, headers, _body) in answers.items():
        assert all(h in headers for h in RATE_HEADERS), (name, headers)
    assert answers["unknown channel"][0] == 404
    # a bucket's hash names the limit, not the channel: the same for two channels' posts
    assert answers["post"][1]["X-RateLimit-Bucket"] != answers["edit"][1]["X-RateLimit-Bucket"]


async def test_invalid_requests_are_counted_and_too_many_ban_the_token(fake):
    fake.limits.invalid_limit = 20  # Discord's 10,000 in 10 minutes, scaled down so the test is short
    carol = fake.user("carol", dm_closed=True)
    async with aiohttp.ClientSession() as session:
        _s, _h, dm = await _send(session, fake, "POST", "/users/@me/channels", body={"recipient_id": carol.id})
        channel = dm["id"]  # type: ignore[index]
        statuses = []
        for _ in range(21):  # 403 (closed DMs) and, past the bucket, 429: every one an invalid request
            statuses.append((await _send(session, fake, "POST", f"/channels/{channel}/messages",
                                         body={"content": "hi"}))[0])
        assert set(statuses) == {403, 429}
        assert fake.limits.invalid_total["t1"] == 21 and fake.limits.most_invalid() == 21
        assert "t1" in fake.limits.banned
        # banned: Cloudflare's bare 429, without Via, on any route, for the rest of the run
        status, headers, body = await _send(session, fake, "GET", "/users/@me")
        assert status == 429 and "Via" not in headers and isinstance(body, str)
        # another token is not
        assert (await _send(session, fake, "GET", "/users/@me", token="t2"))[0] == 200


async def test_limits_off_serves_everything():
    # limits=False: the only test that turns them off, to show what the switch does
    f = await FakeDiscord(limits=False).start()
    try:
        async with aiohttp.ClientSession() as session:
            answers = [await _send(session, f, "POST", f"/channels/{f.general}/messages", body={"content": "x"})
                       for _ in range(12)]
        assert all(status == 200 for status, _h, _d in answers)
    finally:
        await f.stop()


def test_a_bot_burst_under_the_limits_ends_with_no_global_429_and_every_move_delivered_in_order():
    """The real bot process (testkit/fakediscord/botproc.py) against the limiting fake: 30 channels
    of primary-general, a short step and a burst where every channel moves at once."""
    from bot.bench_live import ROOT, _one

    out = asyncio.run(_one(30, True, ROOT, [15.0], 2.0))
    assert out["limits"] is True
    for figures in out["steps"] + [out["burst"]]:
        assert figures["done"] > 0 and figures["errors"] == 0 and figures["missed_acks"] == 0
        assert figures["global_429s"] == 0
        assert figures["route_429_share"] <= 0.01
    assert out["burst"]["moves"] >= 25
    delivery = out["delivery"]
    assert delivery["moves_checked"] >= 50
    assert delivery["moves_missing_or_out_of_order"] == 0 and delivery["repeated_lines"] == 0
    assert out["banned_tokens"] == 0 and out["invalid_requests_peak"] < 10_000
