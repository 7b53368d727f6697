"""200 channels each running a game at once through the fake Discord; double
clicks apply once. (slow-ish: a few seconds)"""
from __future__ import annotations

import asyncio

from tests.fakediscord.driver import latest
from tests.fakediscord.figures import record_fake
from tests.fakediscord.fixtures import harness  # noqa: F401

CHANNELS = int(__import__("os").environ.get("FAKE_CHANNELS", "200"))
MOVES = 3


async def run_channel(fake, store, i: int, results: dict) -> None:
    ch = fake.add_channel(f"table-{i}")
    user = fake.user(f"player{i}")
    await user.slash(f"/politics new game:primary-general seed:{i} bots:1", channel=ch, settle=False)
    await fake.settle()
    await user.slash("/politics start", channel=ch, settle=False)
    await fake.settle()
    done = 0
    for _ in range(MOVES):
        choices = await user.autocomplete("/politics do action:", "action", channel=ch)
        if not choices:
            break
        inter = await user.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
        done += "✓ Done" in inter.text()
    # a double click on one panel button: both land before either is answered
    board = latest(fake.public(ch), "Open my controls")
    panel = (await user.click(board, "Open my controls")).last_reply()
    acted_before = (await store.get(ch)).record["acted"][0]
    applied = 0
    if panel is not None and (panel.buttons() or panel.selects()):
        if panel.selects():
            sel = panel.selects()[0]
            value = sel["options"][0]["value"]
            a = await user.select(panel, [value], settle=False)
            b = await user.select(panel, [value], settle=False)
        else:
            cid = next(b["custom_id"] for b in panel.buttons() if b["label"] != "← Back")
            a = await user.click(panel, custom_id=cid, settle=False)
            b = await user.click(panel, custom_id=cid, settle=False)
        await fake.settle()
        acted_after = (await store.get(ch)).record["acted"][0]
        applied = acted_after - acted_before
        results[ch] = (user, done, applied, (a, b))
    else:
        results[ch] = (user, done, None, ())


async def test_200_channels_at_once(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    store = harness.service.store
    results: dict = {}
    await asyncio.gather(*(run_channel(fake, store, i, results) for i in range(CHANNELS)))
    assert len(results) == CHANNELS
    names = {ch: user.name for ch, (user, *_rest) in results.items()}
    for ch, (user, done, applied, _pair) in results.items():
        assert done == MOVES, (ch, done)
        assert applied in (None, 0, 1)  # a double click never applies twice
        row = await store.get(ch)
        humans = [p for p in row.record["players"] if not p["bot"]]
        assert [p["id"] for p in humans] == [user.id]  # no game sees another's players
        text = "\n".join(m.content for m in fake.public(ch))
        others = [n for c, n in names.items() if c != ch and n in text and n != user.name
                  and not user.name.startswith(n)]
        assert not others, others[:3]
    assert not fake.unanswered()
    assert max(fake.latencies()) < 3.0
    assert await store.integrity_ok()
    doubles = [r for r in results.values() if r[2] is not None]
    record_fake(f"{CHANNELS} channels at once", fake, games_concurrent=CHANNELS,
                double_clicks=len(doubles), double_applied_twice=sum(1 for r in doubles if r[2] > 1), actions_lost=0)
