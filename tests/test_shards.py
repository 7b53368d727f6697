"""Discord's shard rule, the SHARD_COUNT/SHARD_IDS settings, and the store serving one shard's rows."""
import pytest

from bot.shards import Shards, shard_of
from bot.store import Store
from tests.helpers import toy_record


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
        await store.create(channel, guild, "us-president", "playing", toy_record("playing"), wake_at=10.0,
                           outbox='{"m":1}')
    await store.create("dm", None, "us-president", "playing", toy_record("playing"), wake_at=10.0, outbox='{"m":1}')
    half = Shards(4, (0, 2))
    assert sorted(await store.due(20.0, shards=half)) == ["c0", "c2", "dm"]
    assert sorted(await store.due(20.0)) == ["c0", "c1", "c2", "c3", "dm"]
    assert sorted(e[1] for e in await store.outbox(half)) == ["c0", "c2", "dm"]
    assert len(await store.outbox()) == 5
    # a deleted game's farewell keeps its server, so it stays with the shard
    await store.delete("c1", outbox='{"m":2}')
    assert [e[1] for e in await store.outbox(Shards(4, (1,)))] == ["c1", "c1"]
    await store.close()


# ---- processes sharing one database (GameService) ----------------------------------

def guild_on(shard: int, count: int = 4) -> str:
    return str(((shard + count * 1000) << 22) | 5)


async def human_to_move(owner, channel: str) -> list[str]:
    """Let the AI seat move (its delay is 0) until seat 0, the human, must act: their legal moves."""
    for _ in range(20):
        loaded = await owner.load(channel)
        if 0 in loaded.game.to_act(loaded.state):
            return [a.text() for a in loaded.game.legal_actions(loaded.state, 0)]
        await owner.tick(owner.clock() + 1)
    raise AssertionError("the human never got the turn")


async def two_processes(database: str, first: Shards, second: Shards):
    """Two services, each with its own store (connection) on one database, as two processes have."""
    from tests.helpers import service_on
    return await service_on(database, shards=first, ai_delay=0), await service_on(database, shards=second, ai_delay=0)


async def test_a_row_written_by_another_process_is_read_afresh_not_from_memory(database):
    from bot.messages import Ctx
    from tests.helpers import user
    owner, shard0 = await two_processes(database, Shards(4, (2, 3)), Shards(4, (0, 1)))
    alice, guild = user("alice"), guild_on(2)
    await owner.handle(Ctx(alice, "c", guild), "new", {"game": "primary-general", "seed": 3, "bots": 1})
    await owner.handle(Ctx(alice, "c", guild), "start", {})
    legal = await human_to_move(owner, "c")
    remembered = owner.rows.recent["c"].version
    # A click in alice's DM panel reaches shard 0's process (no server): it acts from the database
    # and keeps no copy of a row that is not its own.
    out = await shard0.handle(Ctx(alice, "c", None), "do", {"action": legal[0]})
    assert any("✓ Done" in (m.text or "") for m in out)
    assert "c" not in shard0.rows.recent
    stored = await owner.store.get("c")
    assert stored.version == remembered + 1 and stored.record.acted[0] == 1
    # The owner still remembers the older row: its next read sees the stored version instead.
    assert owner.rows.recent["c"].version == remembered
    loaded = await owner.load("c")
    assert loaded.version == stored.version and loaded.record.acted[0] == 1
    # ... and its timer (the AI's reply) acts on the fresh row, not "too late".
    assert await owner.tick(owner.clock() + 1)
    assert len((await owner.store.get("c")).record.log) == len(stored.record.log) + 1
    for svc in (owner, shard0):
        await svc.store.close()


async def test_two_holders_of_one_shard_fire_a_timer_once_and_the_loser_postpones_nothing(database):
    """A shard moving: its new holder starts while the old one still runs. Both find the AI's move
    due; the compare-and-swap lets one commit, and the other leaves the row as the winner wrote it."""
    import asyncio

    from bot.messages import Ctx
    from tests.helpers import user
    old, new = await two_processes(database, Shards(4, (2, 3)), Shards(4, (0, 1, 2)))
    alice, guild = user("alice"), guild_on(2)
    await old.handle(Ctx(alice, "c", guild), "new", {"game": "primary-general", "seed": 3, "bots": 1})
    await old.handle(Ctx(alice, "c", guild), "start", {})
    legal = await human_to_move(old, "c")
    await old.handle(Ctx(alice, "c", guild), "do", {"action": legal[0]})  # the AI's reply is due now
    before = await old.store.get("c")
    # Both load the row before either commits: the first commit waits for the second to arrive.
    arrived, both_loaded = [], asyncio.Event()
    for svc in (old, new):
        async def together(*args, commit=svc.store.commit, **kwargs):
            arrived.append(1)
            if len(arrived) <= 2:
                if len(arrived) == 2:
                    both_loaded.set()
                await asyncio.wait_for(both_loaded.wait(), 5)  # times out if only one acted
            return await commit(*args, **kwargs)
        svc.store.commit = together
    now = old.clock() + 1
    outs = await asyncio.gather(old.tick(now), new.tick(now))
    after = await old.store.get("c")
    assert len(after.record.log) == len(before.record.log) + 1  # the AI moved once
    assert sum(1 for out in outs if out) == 1
    # The human's turn has no clock: nothing is due any more (a loser postponing by a minute
    # would have set a wake-up that moves the AI again later).
    assert await old.store.due(now + 3600) == []
    for svc in (old, new):
        await svc.store.close()


# ---- settings -------------------------------------------------------------------------

def test_settings_read_the_shards_and_a_bad_value_stops_the_bot_in_one_sentence(monkeypatch, tmp_path, capsys):
    from bot.cli import main
    from bot.settings import Settings
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(name, raising=False)
    assert Settings.from_env().shards is None  # one process, Discord's recommended count
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2, 3")
    assert Settings.from_env().shards == Shards(4, (2, 3))
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    for count, ids, words in [("4", "4", "SHARD_IDS must list shard numbers from 0 to 3"),
                              ("four", "", "SHARD_COUNT must be a whole number"),
                              ("", "1", "SHARD_IDS needs SHARD_COUNT too")]:
        monkeypatch.setenv("SHARD_COUNT", count)
        monkeypatch.setenv("SHARD_IDS", ids)
        assert main(["run"]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err and err.count("\n") == 1
    monkeypatch.setenv("SHARD_COUNT", "")
    monkeypatch.setenv("SHARD_IDS", "")
    monkeypatch.setenv("AI_DELAY", "soon")
    assert main(["run"]) == 2
    assert "AI_DELAY must be a number from 0" in capsys.readouterr().err
