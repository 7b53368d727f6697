"""Records on the wire: a game in a thread of its own (opened, linked, archived at the end),
then stats, leaderboard and history as Discord embeds, and a downloaded game file that
replays to the same final state."""
from __future__ import annotations

import json

from bot import records


async def test_game_in_a_thread_then_records_as_embeds(harness):  # noqa: F811
    await harness.start_bot(render=False)
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    opened = await alice.slash("/politics new game:us-president seed:5 bots:1 thread:true")
    assert len(fake.threads) == 1
    thread_id, thread = next(iter(fake.threads.items()))
    assert thread["parent_id"] == fake.general and "U.S. President" in thread["name"] and "alice" in thread["name"]
    link = fake.channel_messages()[-1]
    assert f"<#{thread_id}>" in link.content and "Join" in link.labels()
    assert "lobby" in fake.channel_messages(thread_id)[0].content
    assert not any("Something went wrong" in t for t in opened.texts())
    nested = await alice.slash("/politics new game:us-president thread:true", channel=thread_id)
    assert "not from inside a thread" in nested.text() and len(fake.threads) == 1
    # The channel itself stays free: a second game can open in another thread at the same time.
    await bob.slash("/politics new game:primary-general bots:1 thread:true")
    assert len(fake.threads) == 2
    await alice.slash("/politics start", channel=thread_id)
    await alice.slash("/politics leave", channel=thread_id)  # the AI finishes the game for her
    posted = "\n".join(m.content for m in fake.channel_messages(thread_id))
    assert "Game over" in posted
    assert fake.threads[thread_id]["archived"] is True  # archive=yes by default
    assert not fake.threads[next(t for t in fake.threads if t != thread_id)]["archived"]

    history = (await alice.slash("/politics history")).last_reply()
    assert history.embeds and history.embeds[0]["title"].startswith("Recent games")
    fields = " ".join(f["name"] + " " + f["value"] for f in history.embeds[0]["fields"])
    assert "U.S. President" in fields and "alice" in fields and "winner" in fields
    stats = (await bob.slash("/politics stats user:alice")).last_reply()
    assert stats.embeds[0]["title"] == "Stats: alice"
    assert "1 game" in stats.embeds[0]["description"]
    board = (await bob.slash("/politics leaderboard game:us-president")).last_reply()
    assert "alice" in board.embeds[0]["description"] and records.AI_NAME in board.embeds[0]["description"]

    replay = await alice.click(history, "Replay #1")
    panel = fake.messages[history.id]  # the ephemeral history turns into the replay, in place
    assert "Replay of #1" in panel.content and "move 0 of" in panel.content
    await alice.click(panel, "Next ▶")
    assert "move 1 of" in fake.messages[history.id].content and not replay.texts()[1:]

    history = (await alice.slash("/politics history")).last_reply()
    download = (await alice.click(history, "Download #1")).last_reply()
    (name, data), = download.files
    assert name == "politics-game-1.json"
    game_file = json.loads(data)
    assert all("player_id" not in p for p in game_file["players"])  # no Discord ids in a shared file
    replayed = records.replay(game_file)
    assert replayed.game.dump(replayed.state) == game_file["final"]
    assert not fake.violations


async def test_a_thread_that_cannot_be_opened_opens_no_game(harness):  # noqa: F811
    await harness.start_bot(render=False)
    fake = harness.fake
    fake.fail("POST", r"/channels/\d+/threads$", 403, code=50013)
    inter = await fake.user("alice").slash("/politics new game:us-president bots:1 thread:true")
    assert "couldn't open a thread" in inter.text()
    assert not fake.threads and await harness.service.store.count() == 0
