"""/politics hint on the wire: the suggestion goes to the asker alone, never to the channel."""
from __future__ import annotations

from testkit.fakediscord.fixtures import harness  # noqa: F401


async def test_hint_is_ephemeral_and_never_reaches_the_channel(harness):  # noqa: F811
    await harness.start_bot(render=False)
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash('/politics new game:us-president seed:5 bots:1 settings:"ai_iterations=20"')
    await alice.slash("/politics start")
    asked = await alice.slash("/politics hint")
    reply = asked.last_reply()
    assert reply.ephemeral and reply.visible_to == alice.id
    assert "Hint (only you see this)" in reply.content and "% chance to win" in reply.content
    move = reply.content.split("type `", 1)[1].split("`", 1)[0]
    channel = "\n".join(m.content for m in fake.channel_messages() if not m.ephemeral)
    assert "Hint" not in channel and "chance to win" not in channel
    assert move not in channel  # the suggested pick is nowhere public
    refused = (await bob.slash("/politics hint")).last_reply()
    assert refused.ephemeral and "not a player" in refused.content
    assert not fake.violations
