"""U.S. President through the bot layer: secret picks survive a restart and
stay secret until the reveal."""
from __future__ import annotations

from tests.helpers import CH, ctx, service_on, user

alice, bob = user("alice"), user("bob")


async def test_a_pick_survives_a_restart_and_is_revealed_only_with_the_last(database):
    path = database
    svc = await service_on(path)
    await svc.handle(ctx(alice), "new", {"game": "us-president", "seed": 4})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    out = await svc.handle(ctx(alice), "do", {"action": "pick FL large"})
    public = [m.text for m in out if m.to == "channel"]
    assert public and all("FL" not in t and "Florida" not in t for t in public)
    assert any(m.to == "ephemeral" and "Florida" in m.text for m in out)  # alice sees her own pick
    await svc.store.close()

    svc = await service_on(path)  # the bot restarts between the two picks
    hand = await svc.handle(ctx(alice), "hand", {})
    assert "Florida" in hand[0].text and hand[0].to == "ephemeral"
    theirs = await svc.handle(ctx(bob), "hand", {})
    assert "Florida" not in theirs[0].text.split("your cards")[0]
    status = await svc.handle(ctx(bob), "status", {})
    assert all("Florida" not in m.text for m in status)
    loaded = await svc.load(CH)
    public_view = loaded.game.view(loaded.state, None)
    assert "FL large" not in str(public_view)

    out = await svc.handle(ctx(bob), "do", {"action": "pick OH small"})
    reveal = "\n".join(m.text for m in out if m.to == "channel")
    assert "alice: FL large" in reveal and "bob: OH small" in reveal
    await svc.store.close()
