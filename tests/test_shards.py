"""Discord's shard rule, the SHARD_COUNT/SHARD_IDS settings, and the store serving one shard's rows."""
import pytest

from bot.shards import Shards, shard_of
from bot.store import Store


def test_shard_of_follows_discords_rule():
    guild = 1_234_567_890_123_456_789
    assert shard_of(guild, 4) == (guild >> 22) % 4
    assert shard_of(str(guild), 4) == shard_of(guild, 4)
    assert shard_of(None, 4) == 0  # direct messages are on shard 0
    assert shard_of(guild, 1) == 0


def test_parse_settings():
    assert Shards.parse(None, None) == Shards(1, (0,))
    assert Shards.parse("4", None) == Shards(4, (0, 1, 2, 3))
    assert Shards.parse("4", "3, 1") == Shards(4, (1, 3))
    for count, ids, words in [("0", None, "SHARD_COUNT"), ("x", None, "SHARD_COUNT"), ("2", "2", "0 to 1"),
                              ("2", "a", "SHARD_IDS"), (None, "1", "SHARD_COUNT too")]:
        with pytest.raises(ValueError, match=words):
            Shards.parse(count, ids)
    assert Shards(4, (1, 3)).owns(str(1 << 22)) and not Shards(4, (1, 3)).owns(str(2 << 22))


async def test_due_and_outbox_keep_to_the_shards(database):
    store = await Store.open(database)
    # channel c{g} is on shard g of 4; real snowflakes need all 63 bits (PostgreSQL casts to bigint)
    guilds = {f"c{g}": str((((1 << 40) + g) << 22) + 5) for g in range(4)}
    assert all(shard_of(guild, 4) == int(channel[1]) for channel, guild in guilds.items())
    for channel, guild in guilds.items():
        await store.create(channel, guild, "us-president", "playing", {"x": 1}, wake_at=10.0, outbox='{"m":1}')
    await store.create("dm", None, "us-president", "playing", {"x": 1}, wake_at=10.0, outbox='{"m":1}')
    half = Shards(4, (0, 2))
    assert sorted(await store.due(20.0, shards=half)) == ["c0", "c2", "dm"]
    assert sorted(await store.due(20.0)) == ["c0", "c1", "c2", "c3", "dm"]
    assert sorted(e[1] for e in await store.outbox(half)) == ["c0", "c2", "dm"]
    assert len(await store.outbox()) == 5
    # a deleted game's farewell keeps its server, so it stays with the shard
    await store.delete("c1", outbox='{"m":2}')
    assert [e[1] for e in await store.outbox(Shards(4, (1,)))] == ["c1", "c1"]
    await store.close()
