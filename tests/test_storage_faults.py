"""The database refusing a write, and writes that meet: every action commits whole (game row,
per-server data, outbox) or not at all; the answer says truthfully what happened; per-server
data is merged, so an admin's upload and a game saving at the same moment both keep their part;
a file that is not a database ends `politics-bot run` with one sentence."""
from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import threading

import pytest

import bot.store
from bot.service.server_data import merge_server_updates
from bot.store import StorageError, StorageTrouble, Store
from engines.politics_trivia import GAME as TRIVIA
from testkit.fakediscord.figures import record
from tests.helpers import CH, GUILD, ctx, service_on, texts, user
from tests.test_politics_trivia_bot import _upload, do, put_state, state_of, through_setup
from tests.test_politics_trivia_bot import new_game as new_trivia

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
alice, bob = user("alice"), user("bob")
admin = user("admin", manage_server=True)
QUESTION = [{"category": "general", "question": "What is our club's mascot?", "answer": "Otter",
             "wrong": ["Beaver", "Heron"]}]


async def trivia_at_a_question(svc):
    """A trivia game whose next move (`ask general`) draws a question, so it writes server data."""
    await new_trivia(svc, alice, bob)
    s = await through_setup(svc, [alice, bob])
    me = [alice, bob][s.turn]
    s.phase, s.players[s.turn].at, s.dice = "choose", "OH", [1, 2]
    await put_state(svc, s)
    return me


async def row_of(svc):
    svc.rows.recent.clear()  # read the file, not this process's memory
    return await svc.store.get(CH)


async def test_a_failing_server_data_write_leaves_the_row_where_it_was_and_says_so(database, monkeypatch):
    svc = await service_on(database)
    me = await trivia_at_a_question(svc)
    before = await row_of(svc)

    def disk_full(*args):  # inside the action's transaction, after the row's update
        raise StorageTrouble("database or disk is full", "full")
    monkeypatch.setattr(bot.store, "merge_server_steps", disk_full)
    out = await do(svc, me, "ask general")
    assert len(out) == 1 and out[0].to == "ephemeral"
    assert "disk is full" in out[0].text and "tell the server owner" in out[0].text
    assert "Nothing was changed" in out[0].text
    after = await row_of(svc)
    assert after.version == before.version and after.record == before.record  # the move is not half-saved
    assert (await svc.store.server_data(GUILD, TRIVIA.id)).get("used", []) == before_used(before)
    monkeypatch.undo()
    out = await do(svc, me, "ask general")  # the same move, once the disk has room again
    assert any(m.to == "channel" for m in out)
    assert (await row_of(svc)).version == before.version + 1
    assert (await state_of(svc)).q.qid in (await svc.store.server_data(GUILD, TRIVIA.id))["used"]
    await svc.store.close()
    record("storage: a failing second write inside the action", storage_faults=1)


def before_used(row) -> list:
    return list(TRIVIA.load(row.record.state).used)


async def test_a_failure_after_the_commit_says_the_move_was_made(database, monkeypatch):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 3, "bots": 1})
    await svc.handle(ctx(alice), "start", {})
    version = (await row_of(svc)).version
    loaded = await svc.load(CH)
    move = loaded.game.legal_actions(loaded.state, 0)[0].text()

    async def broken(*args, **kwargs):
        raise RuntimeError("the AI broke")
    monkeypatch.setattr(svc.play, "_ai_step", broken)
    out = await do(svc, alice, move)
    assert (await row_of(svc)).version == version + 1  # alice's move is saved ...
    said = texts(out, "ephemeral")[-1]
    assert "Your move was made and saved" in said and "nothing was changed" not in said.lower()
    assert any(m.to == "channel" for m in out)  # ... and its board still goes out
    await svc.store.close()
    record("storage: a failure after the commit", storage_faults=1)


async def test_a_locked_database_answers_busy_and_changes_nothing(tmp_path, monkeypatch):
    path = str(tmp_path / "l.db")
    svc = await service_on(path)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 3})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    version = (await row_of(svc)).version
    loaded = await svc.load(CH)
    move = loaded.game.legal_actions(loaded.state, loaded.game.to_act(loaded.state)[0])[0].text()
    mover = [alice, bob][loaded.game.to_act(loaded.state)[0]]
    await svc.store.db.execute("PRAGMA busy_timeout=200")  # the bot waits 5 s in production; 0.2 s here
    # Another writer holds the lock longer than the bot waits (the was 12 s).
    held, release = threading.Event(), threading.Event()

    def other_writer():
        conn = sqlite3.connect(path, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        held.set()
        release.wait(10)
        conn.execute("ROLLBACK")
        conn.close()
    writer = threading.Thread(target=other_writer)
    writer.start()
    try:
        held.wait(5)
        out = await do(svc, mover, move)
    finally:
        release.set()
        writer.join()
    assert len(out) == 1 and "busy" in out[0].text and "try again" in out[0].text
    assert "Nothing was changed" in out[0].text
    assert (await row_of(svc)).version == version
    out = await do(svc, mover, move)  # once the other writer is gone, the same move goes through
    assert any(m.to == "channel" for m in out) and (await row_of(svc)).version == version + 1
    await svc.store.close()
    record("storage: database locked by another writer", storage_faults=1)


async def test_a_full_disk_answers_tell_the_owner(database, monkeypatch):
    svc = await service_on(database)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 3})
    await svc.handle(ctx(bob), "join", {})
    version = (await row_of(svc)).version

    async def disk_full(*args, **kwargs):
        raise StorageTrouble("database or disk is full", "full")  # what either backend raises on ENOSPC
    monkeypatch.setattr(svc.store, "commit", disk_full)
    out = await svc.handle(ctx(alice), "start", {})
    assert len(out) == 1 and "disk is full" in out[0].text and "tell the server owner" in out[0].text
    monkeypatch.undo()
    assert (await row_of(svc)).version == version and (await row_of(svc)).status == "lobby"
    await svc.store.close()
    record("storage: disk full", storage_faults=1)


@pytest.mark.parametrize("upload_first", [True, False])
async def test_an_upload_and_a_game_writing_at_the_same_moment_both_keep_their_part(database, upload_first):
    svc = await service_on(database)
    me = await trivia_at_a_question(svc)
    upload = svc.handle(ctx(admin), "questions upload", {"file": _upload(QUESTION)})
    move = do(svc, me, "ask general")
    results = await asyncio.gather(*((upload, move) if upload_first else (move, upload)))
    report = results[0 if upload_first else 1][0].text
    assert "Added 1 custom question" in report
    stored = await svc.store.server_data(GUILD, TRIVIA.id)
    assert len(stored["questions"]) == 1  # what the admin was told
    assert (await state_of(svc)).q.qid in stored["used"]  # and what the game drew
    await svc.store.close()


async def test_two_connections_writing_server_data_at_once_keep_both(database):
    """Two processes on one database: SQLite's BEGIN IMMEDIATE, PostgreSQL's row lock (SELECT …
    FOR UPDATE, with each process's pool writing side by side) serialise the read-merge-write,
    so neither overwrites the other."""
    a, b = await Store.open(database), await Store.open(database)
    await asyncio.gather(*(
        (a if i % 2 else b).change_server_data(GUILD, "g", lambda d, i=i: ({**d, "ids": d.get("ids", []) + [i]}, None))
        for i in range(20)))
    assert sorted((await a.server_data(GUILD, "g"))["ids"]) == list(range(20))
    await a.close()
    await b.close()


async def test_two_trivia_games_of_one_server_drawing_at_once_keep_every_used_question(database):
    """Issue #18 item 3: two games of one server (here in two bot processes on one database) draw
    questions at the same moments; the server's used list ends with every question either drew
    (last-writer-wins kept only a few of one game's)."""
    one, other = await service_on(database), await service_on(database)
    games = [(one, CH, [alice, bob]), (other, "501", [user("carol"), user("dave")])]
    for seed, (svc, channel, players) in enumerate(games, 3):  # two seeds: two different draws
        await new_trivia(svc, *players, channel=channel, seed=seed)
        await through_setup(svc, players, channel)

    async def draw(svc, channel, players, times: int) -> set:
        drawn = set()
        for _ in range(times):
            s = await state_of(svc, channel)
            s.phase, s.players[s.turn].at, s.dice, s.q = "choose", "OH", [1, 2], None
            await put_state(svc, s, channel)
            out = await do(svc, players[s.turn], "ask general", channel)
            assert any(m.to == "channel" for m in out), texts(out)
            drawn.add((await state_of(svc, channel)).q.qid)
        return drawn

    drawn = await asyncio.gather(*(draw(svc, channel, players, 15) for svc, channel, players in games))
    assert all(len(d) == 15 for d in drawn) and drawn[0] != drawn[1]
    used = set((await one.store.server_data(GUILD, TRIVIA.id))["used"])
    assert drawn[0] <= used and drawn[1] <= used, (len(drawn[0] - used), len(drawn[1] - used))
    await one.store.close()
    await other.store.close()


def test_merging_used_lists_keeps_both_sides_and_a_freed_pile():
    stored = {"used": ["a", "b", "x"], "questions": [{"id": 1}]}  # x: another game drew it meanwhile
    # this game had reported a, b; it drew c, and found the pile of b exhausted (freed b)
    merged = merge_server_updates(stored, {"used": ["a", "b"]}, {"used": ["a", "c"]})
    assert merged == {"used": ["a", "x", "c"], "questions": [{"id": 1}]}
    assert merge_server_updates({}, {}, {"used": ["a"]}) == {"used": ["a"]}


async def test_a_file_that_is_not_a_database_is_one_sentence_and_no_hang(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database file, just some text that happens to be here" * 100)
    with pytest.raises(StorageError, match="not a usable politics-bot database"):
        await Store.open(str(bad))
    # The whole command: it must end by itself (the database thread used to keep it alive).
    env = {**os.environ, "PYTHONPATH": ROOT, "DISCORD_TOKEN": "not-used", "DATABASE_PATH": str(bad),
           "POLITICS_TEST_API_BASE": "http://127.0.0.1:9/api/v10"}  # never reached: the file fails first
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "is not a usable politics-bot database" in lines[0], lines
    assert "Traceback" not in done.stderr
    record("storage: a file that is not a database", storage_faults=1)
