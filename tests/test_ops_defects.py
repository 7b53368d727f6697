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
