"""Data safety: WAL and a busy timeout, numbered migrations from the first
schema, and a kill -9 during a burst of actions loses nothing committed."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from bot.store import MIGRATIONS, SCHEMA_VERSION, Store
from testkit.fakediscord.figures import record

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


async def test_wal_busy_timeout_and_full_sync(tmp_path):
    store = await Store.open(str(tmp_path / "w.db"))
    for pragma, expected in (("journal_mode", "wal"), ("busy_timeout", 5000), ("synchronous", 2)):
        async with store.db.execute(f"PRAGMA {pragma}") as cur:
            assert (await cur.fetchone())[0] == expected, pragma
    # a second connection writing while the first holds a write lock waits instead of failing
    other = sqlite3.connect(str(tmp_path / "w.db"), timeout=5)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO server_data VALUES('g','x','{}')")
    import asyncio

    order = []

    async def release():
        await asyncio.sleep(0.3)
        order.append("other committed")
        other.commit()

    task = asyncio.create_task(release())
    await store.set_server_data("g2", "x", {"a": 1})  # blocked until the other commits
    order.append("ours written")
    await task
    assert order == ["other committed", "ours written"]
    assert await store.server_data("g2", "x") == {"a": 1}
    other.close()
    await store.close()


async def test_migrations_are_numbered_and_upgrade_the_first_schema(tmp_path):
    assert SCHEMA_VERSION == len(MIGRATIONS) >= 1
    fresh = await Store.open(str(tmp_path / "fresh.db"))
    async with fresh.db.execute("PRAGMA user_version") as cur:
        assert (await cur.fetchone())[0] == SCHEMA_VERSION
    await fresh.close()
    # a database made by the very first schema, with a game in it
    path = str(tmp_path / "old.db")
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO games VALUES('c1','g1','primary-general','lobby',3,?,NULL,0)",
               (json.dumps({"status": "lobby", "players": [], "host": "h", "options": {}, "seed": 1}),))
    db.commit()
    db.close()
    store = await Store.open(path)
    async with store.db.execute("PRAGMA user_version") as cur:
        assert (await cur.fetchone())[0] == SCHEMA_VERSION
    row = await store.get("c1")
    assert row.version == 3 and row.record.host == "h"
    assert await store.integrity_ok()
    await store.close()
    # opening again runs nothing twice
    again = await Store.open(path)
    assert (await again.get("c1")).version == 3
    await again.close()


def test_kill_9_during_a_burst_loses_no_committed_action(database):
    """The bot process is killed with SIGKILL in the middle of a burst of actions: every action it
    had acknowledged (committed, then printed) is in the database afterwards, on both backends."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    proc = subprocess.Popen([sys.executable, "-m", "testkit.fakediscord.burst", database, "20"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    committed: dict[str, tuple[int, int]] = {}
    lines = 0
    try:
        assert proc.stdout.readline().strip() == "READY"
        deadline = time.monotonic() + 30
        while lines < 150 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            ch, version, acted = line.split()
            committed[ch] = (int(version), int(acted))
            lines += 1
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # mid-burst: no clean shutdown
        proc.wait()
    assert lines >= 100
    if not database.startswith("postgresql://"):
        db = sqlite3.connect(database)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
    import asyncio

    from bot.service import GameService

    async def reopen() -> int:
        """The bot's own store opens the database again: every acknowledged action is there and every game loads."""
        svc = GameService(await Store.open(database), render=False)
        lost = 0
        for ch, (version, acted) in committed.items():
            row = await svc.store.get(ch)
            if row.version < version or row.record.acted[0] < acted:
                lost += 1
            assert (await svc.load(ch)).record.status in ("playing", "finished")
        assert await svc.store.integrity_ok()
        await svc.store.close()
        return lost

    lost = asyncio.run(reopen())
    assert lost == 0
    record("kill -9 during a burst" + (" on PostgreSQL" if database.startswith("postgresql://") else ""),
           actions_committed=lines, actions_lost=lost, kills=1)
