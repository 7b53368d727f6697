"""200 channels each running a game at once through the fake Discord; a
double click and a move sent twice apply once. (slow-ish: ~10 s)"""
from __future__ import annotations

import asyncio

from testkit.fakediscord.driver import latest
from testkit.fakediscord.figures import record_fake

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
    # walk the menus with single clicks to a button that makes a move, then press it twice at once
    legal = {c["value"] for c in await user.autocomplete("/politics do action:", "action", channel=ch)}
    acted_before = (await store.get(ch)).record.acted[0]
    for _ in range(4):
        if panel is None:
            break
        final = [b for b in panel.buttons() if b["custom_id"].split(":", 3)[-1] in legal]
        if final:
            a = await user.click(panel, custom_id=final[0]["custom_id"], settle=False)
            b = await user.click(panel, custom_id=final[0]["custom_id"], settle=False)
            await fake.settle()
            applied = (await store.get(ch)).record.acted[0] - acted_before
            results[ch] = (user, done, applied, (a, b))
            return
        edits = panel.edits
        if panel.selects():
            inter = await user.select(panel, [panel.selects()[0]["options"][0]["value"]])
        else:
            steps = [b for b in panel.buttons() if b["label"] != "← Back"]
            if not steps:
                break
            inter = await user.click(panel, custom_id=steps[0]["custom_id"])
        if "✓ Done" in inter.text() + panel.content:
            break  # that step already made the move
        panel = panel if panel.edits > edits else inter.last_reply()
    results[ch] = (user, done, None, ())


async def test_200_channels_at_once(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    store = harness.service.store
    results: dict = {}
    await asyncio.gather(*(run_channel(fake, store, i, results) for i in range(CHANNELS)))
    assert len(results) == CHANNELS
    names = {ch: user.name for ch, (user, *_rest) in results.items()}
    for ch, (user, done, _applied, _pair) in results.items():
        assert done == MOVES, (ch, done)
        row = await store.get(ch)
        humans = [p for p in row.record.players if not p.ai]
        assert [p.id for p in humans] == [user.id]  # no game sees another's players
        text = "\n".join(m.content for m in fake.public(ch))
        others = [n for c, n in names.items() if c != ch and n in text and n != user.name
                  and not user.name.startswith(n)]
        assert not others, others[:3]
    assert not fake.unanswered()
    assert await store.integrity_ok()
    doubles = [r for r in results.values() if r[2] is not None]
    assert len(doubles) >= CHANNELS // 2
    for _user, _done, applied, pair in doubles:
        assert applied == 1  # exactly once
        texts = [i.text() for i in pair]
        assert sum("✓ Done" in t for t in texts) == 1, texts  # the other one was told, in one line
    record_fake(f"{CHANNELS} channels at once", fake, games_concurrent=CHANNELS,
                double_clicks=len(doubles), double_clicks_that_moved=sum(1 for r in doubles if r[2] == 1),
                double_applied_twice=sum(1 for r in doubles if r[2] > 1), actions_lost=0)
