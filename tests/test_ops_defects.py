"""Defects an audit of the trust work found (issue 29), each pinned by a test that failed before its fix:
forget-me left the user's DM channel row, SHARD_COUNT had no upper bound, and a DATABASE_PATH that is
a directory printed a traceback from aiosqlite's thread. (Malformed replay files: test_replay_files.py.)"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.shards import Shards
from bot.store import Store
from bot.transcript import TranscriptRunner
from testkit.fakediscord.driver import lobby_of_two
from tests.test_records import play_out

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Discord lets a bot start 1,000 gateway sessions a day (session_start_limit), and each shard starts one.
MAX_SHARDS = 1000


# ---- forget-me forgets the DM channel too ------------------------------------------------

async def test_forget_me_also_forgets_the_users_dm_channel(database):
    runner = await TranscriptRunner.create(database, render=False)
    try:
        await play_out(runner, "us-president", 1, 1)
        alice, bob = runner.users["alice"].id, runner.user("bob").id
        await runner.service.store.set_dm_channels({alice: "700000000000000001", bob: "700000000000000002"})
        out = await runner.run_line("alice: /politics forget-me")
        assert "Former player" in out[0]["text"]
        store = runner.service.store
        assert await store.dm_channel(alice) is None  # her Discord id -> DM channel id is gone
        assert await store.dm_channel(bob) == "700000000000000002"  # nobody else's
        # With no finished game to rewrite, the DM channel still goes.
        await store.set_dm_channels({bob: "700000000000000002"})
        await runner.run_line("bob: /politics forget-me")
        assert await store.dm_channel(bob) is None
    finally:
        await runner.close()


# ---- SHARD_COUNT within what Discord allows ----------------------------------------------

@pytest.mark.parametrize("count", ["1000000000", "99999999999999999999999", "²", "1" + "0" * 5000, str(MAX_SHARDS + 1),
                                   "-3", "4.0", "0x10", "٣"])
def test_a_shard_count_out_of_bounds_is_one_sentence(count):
    with pytest.raises(ValueError) as refused:
        Shards.parse(count, None)
    said = str(refused.value)
    assert said.startswith("SHARD_COUNT must be a whole number from 1 to 1,000") and said.count(".") >= 1
    assert len(said) < 300 and "\n" not in said


def test_the_largest_shard_count_discord_allows_is_taken():
    assert Shards.parse(str(MAX_SHARDS), "0, 999") == Shards(MAX_SHARDS, (0, 999))


@pytest.mark.parametrize("ids", ["²", "1²", "٣", "9" * 5000, "-1", "1,,2"])
def test_bad_shard_ids_are_one_sentence(ids):
    with pytest.raises(ValueError, match="SHARD_IDS must list shard numbers from 0 to 3"):
        Shards.parse("4", ids)


@pytest.mark.parametrize("count", ["1000000000", "99999999999999999999999", "²"])
def test_the_bot_refuses_a_bad_shard_count_in_one_sentence_with_exit_2(count, tmp_path):
    env = {**os.environ, "PYTHONPATH": ROOT, "DISCORD_TOKEN": "not-used", "SHARD_COUNT": count,
           "DATABASE_PATH": str(tmp_path / "bot.db"), "POLITICS_TEST_API_BASE": "http://127.0.0.1:9/api/v10"}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("politics-bot: SHARD_COUNT must be a whole number from 1 to 1,000")


# ---- a DATABASE_PATH that can't be opened -------------------------------------------------

def test_a_database_path_that_is_a_directory_is_one_sentence_and_exit_1(tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": ROOT, "DISCORD_TOKEN": "not-used", "DATABASE_PATH": str(folder),
           "POLITICS_TEST_API_BASE": "http://127.0.0.1:9/api/v10"}  # never reached: the store fails first
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1  # README: a store that can't be used ends the run with exit 1
    assert done.stdout == "", done.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "can't be opened" in lines[0] and str(folder) in lines[0], done.stderr
    # The local table opens the same store: the same sentence, nothing more.
    table = subprocess.run([sys.executable, "-m", "bot.cli", "play", "us-president", "--db", str(folder)],
                           cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
    assert table.returncode == 1
    assert [line for line in table.stderr.splitlines() if line.strip()] == lines, table.stderr


async def test_a_failed_open_leaves_no_database_thread(tmp_path):
    import threading
    for _ in range(3):
        with pytest.raises(Exception, match="can't be opened"):
            await Store.open(str(tmp_path))
    assert not [t.name for t in threading.enumerate() if "connection_worker" in t.name]  # aiosqlite's


async def test_forget_me_on_discord_also_forgets_the_dm_channel_the_process_remembers(harness):  # noqa: F811
    """The bot keeps recent DM channel ids in memory and saves new ones in batches: forget-me drops
    the user's there too, or the next batch could write the row the store just deleted."""
    fake = harness.fake
    runner = await harness.start_bot(render=False)
    ch, alice, bob = await lobby_of_two(fake)
    await alice.slash("/politics start", channel=ch)
    assert alice.dms() and bob.dms()
    client = runner.client
    await client.sender.save_dm_channels()
    store = harness.service.store
    assert await store.dm_channel(alice.id) and alice.id in client.sender.dm_ids
    client.sender.dm_unsaved[alice.id] = "700000000000000009"  # as if opened a moment ago, not yet saved
    await alice.slash("/politics forget-me", channel=ch)
    await client.sender.save_dm_channels()
    assert alice.id not in client.sender.dm_ids and alice.id not in client.sender.dm_unsaved
    assert await store.dm_channel(alice.id) is None
    assert await store.dm_channel(bob.id) and bob.id in client.sender.dm_ids
