"""Backups, restores and retention (bot/backup.py, docs/operations.md): a SQLite copy taken while
another connection writes holds every game committed before it began; a restore refuses to replace a
database without --force or under a running bot; PostgreSQL's documented pg_dump/pg_restore commands
round-trip a store; ARCHIVE_DAYS drops old games' moves and archived rows on both backends while every
result, seat row and rating stays."""
from __future__ import annotations

import asyncio
import io
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import redirect_stderr, redirect_stdout

import pytest

from bot import backup
from bot.backup import DAY, BackupError, backup_sqlite, prune, restore_sqlite, start_pruning
from bot.cli import main
from bot.store import Store
from bot.transcript import GUILD, FakeClock, TranscriptRunner
from tests.helpers import sql, toy_record
from tests.helpers import said
from tests.test_records import play_out

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def make_store(path: str) -> None:
    async def go():
        store = await Store.open(path)  # migrated, WAL mode, as the bot keeps it
        await store.close()
    asyncio.run(go())


class Writer(threading.Thread):
    """Another connection committing one game after another in WAL mode, as a running bot does."""

    def __init__(self, path: str) -> None:
        super().__init__(daemon=True)
        self.path, self.committed, self.stop = path, 0, threading.Event()

    def run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        conn.execute("PRAGMA busy_timeout=10000")
        n = 0
        while not self.stop.is_set():
            n += 1
            record = json.dumps({"players": [{"name": f"p{n}"}], "state": None, "padding": "x" * 2000})
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO games(channel_id, guild_id, game, status, version, record, updated_at)"
                         " VALUES(?,?,?,?,?,?,?)",
                         (f"c{n:06d}", GUILD, "us-president", "playing", 1, record, time.time()))
            conn.execute("COMMIT")
            self.committed = n
        conn.close()


def test_a_backup_taken_while_another_connection_writes_holds_every_committed_game(tmp_path):
    live = str(tmp_path / "live.db")
    make_store(live)
    writer = Writer(live)
    writer.start()
    try:
        while writer.committed < 50:
            time.sleep(0.01)
        for i in range(5):
            before = writer.committed  # committed before this copy began
            copy = str(tmp_path / f"copy{i}.db")
            if i % 2:  # the command itself, as an operator runs it
                code, out, err = cli_env({"DATABASE_PATH": live}, "backup", copy)
                assert code == 0 and "Backed up" in out, err
            else:
                backup_sqlite(live, copy)
            assert writer.is_alive()  # the writer never stopped (WAL: the copy's read blocks no one)
            conn = sqlite3.connect(copy)
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one self-contained file
            ids = [int(r[0][1:]) for r in conn.execute("SELECT channel_id FROM games ORDER BY channel_id")]
            conn.close()
            # every game committed before the copy began, and a snapshot: no gap, no half-written row
            assert len(ids) >= before and ids == list(range(1, len(ids) + 1))
            assert not os.path.exists(copy + "-wal") and not os.path.exists(copy + ".partial")
    finally:
        writer.stop.set()
        writer.join()
    # The copy opens as a store, every game there.
    async def reopen() -> int:
        store = await Store.open(str(tmp_path / "copy4.db"))
        try:
            return await store.count()
        finally:
            await store.close()
    assert asyncio.run(reopen()) >= 50


def cli_env(env: dict[str, str], *argv: str) -> tuple[int, str, str]:
    old = {k: os.environ.get(k) for k in (*env, "DATABASE_URL", "ARCHIVE_DAYS")}
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("ARCHIVE_DAYS", None)
    os.environ.update(env)
    try:
        return cli(*argv)
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_backup_refuses_what_it_should_in_one_sentence(tmp_path):
    live = str(tmp_path / "live.db")
    make_store(live)
    backup_sqlite(live, str(tmp_path / "b.db"))
    for env, argv, words in [
        ({"DATABASE_PATH": live}, ("backup", str(tmp_path / "b.db")), "already exists: pass --force"),
        ({"DATABASE_PATH": live}, ("backup", str(tmp_path)), "is a folder"),
        ({"DATABASE_PATH": live}, ("backup", live), "already exists"),
        ({"DATABASE_PATH": str(tmp_path / "none.db")}, ("backup", str(tmp_path / "c.db")), "There is no database"),
    ]:
        code, out, err = cli_env(env, *argv)
        assert code == 1 and out == "" and err.count("\n") == 1 and words in err, err
    assert not os.path.exists(tmp_path / "none.db")  # a backup never creates the database it copies
    code, out, err = cli_env({"DATABASE_PATH": live}, "backup", str(tmp_path / "b.db"), "--force")
    assert code == 0, err
    # Not a politics-bot database: refused, and nothing is written under the backup's name.
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t(x)").connection.close()
    with pytest.raises(BackupError, match="not a politics-bot one"):
        backup_sqlite(str(other), str(tmp_path / "d.db"))
    assert not os.path.exists(tmp_path / "d.db")


def test_postgres_backups_are_pg_dumps_said_in_one_sentence(tmp_path):
    url = "postgresql://bot:pw@127.0.0.1:9/politics"
    for command in ("backup", "restore"):
        code, out, err = cli_env({"DATABASE_URL": url}, command, str(tmp_path / "x.dump"))
        assert code == 2 and out == "" and err.count("\n") == 1
        assert ("pg_dump --format=custom" if command == "backup" else "pg_restore --clean") in err
        assert "docs/operations.md" in err


async def test_restore_puts_the_backup_back_and_refuses_a_running_bots_database(tmp_path):
    live, saved = str(tmp_path / "live.db"), str(tmp_path / "saved.db")
    store = await Store.open(live)
    await store.create("c1", GUILD, "us-president", "playing", toy_record("playing"))
    await asyncio.to_thread(backup_sqlite, live, saved)
    await store.create("c2", GUILD, "us-president", "playing", toy_record("playing"))  # after the backup
    with pytest.raises(BackupError, match="pass --force"):
        restore_sqlite(saved, live)
    with pytest.raises(BackupError, match="A running bot has"):  # the store above is still open
        restore_sqlite(saved, live, force=True)
    assert await store.count() == 2  # nothing was touched
    await store.close()
    code, out, err = await asyncio.to_thread(cli_env, {"DATABASE_PATH": live}, "restore", saved, "--force")
    assert code == 0 and "Restored" in out, err
    store = await Store.open(live)
    try:
        assert await store.count() == 1 and (await store.get("c1")).record == toy_record("playing")
        assert await store.get("c2") is None
        assert await store.integrity_ok()
    finally:
        await store.close()
    # A file that is not a backup is refused before anything is replaced.
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database" * 100)
    code, out, err = await asyncio.to_thread(cli_env, {"DATABASE_PATH": live}, "restore", str(junk), "--force")
    assert code == 1 and "is not a SQLite database" in err and err.count("\n") == 1
    # Into a new place: no --force needed.
    fresh = str(tmp_path / "new" / "bot.db")
    restore_sqlite(saved, fresh)
    assert sqlite3.connect(fresh).execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_the_documented_pg_dump_and_pg_restore_round_trip_a_store(pg_server, tmp_path):
    """docs/operations.md's commands, as printed there, on a store with a game and a finished game."""
    source, target = pg_server.new_database(), pg_server.empty_database()

    async def fill() -> None:
        runner = await TranscriptRunner.create(source, render=False)
        try:
            await play_out(runner, "us-president", 1, 1)
            await runner.run_line("alice: /politics new game:us-president bots:1")
        finally:
            await runner.close()
    asyncio.run(fill())
    dump = str(tmp_path / "politics.dump")
    env = {**os.environ, "DATABASE_URL": source}
    dump_cmd, restore_cmd = (c.replace("FILE", dump) for c in backup.PG_DUMP)
    for command, url in ((dump_cmd, source), (restore_cmd, target)):
        env["DATABASE_URL"] = url
        done = subprocess.run(command, shell=True, env={**env, "PATH": pg_server.bin_dir + os.pathsep + env["PATH"]},
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr

    async def check() -> tuple:
        store = await Store.open(target)
        try:
            return await store.count(), len(await store.results(GUILD)), await store.integrity_ok()
        finally:
            await store.close()
    assert asyncio.run(check()) == (1, 1, True)


# ---- retention --------------------------------------------------------------------------

async def test_archive_days_drops_old_moves_and_archived_rows_and_keeps_results_and_ratings(database):
    now = time.time()
    clock = FakeClock(now - 40 * DAY)
    runner = await TranscriptRunner.create(database, render=False, clock=clock)
    try:
        await play_out(runner, "us-president", 1, 1)              # finished 40 days ago
        await runner.run_line("alice: /politics new game:us-president bots:1")
        await runner.run_line("alice: /politics cancel")           # an archived row
        clock.now = now - DAY
        await play_out(runner, "primary-general", 3, 1)           # finished yesterday
        store = runner.service.store
        await sql(store, "UPDATE archive SET finished_at=?", now - 40 * DAY)
        seats = await sql(store, "SELECT * FROM result_players ORDER BY result_id, seat")
        ratings = await sql(store, "SELECT * FROM ratings ORDER BY game, player_id")
        board = await said(runner, "alice: /politics leaderboard game:us-president")
        stats = await said(runner, "alice: /politics stats")
        archived = len(await sql(store, "SELECT id FROM archive"))
        assert archived >= 1
        kept = {r["id"]: r for r in await store.results(GUILD)}

        done = await prune(store, 30, now=now)
        assert (done.results, done.archived) == (1, archived)
        old, new = sorted(await store.results(GUILD), key=lambda r: r["id"])
        assert not {"opening", "log", "final"} & set(old["data"]) and old["data"]["pruned"]
        before = kept[old["id"]]  # the result itself stays: all but what a replay reads
        assert {k: v for k, v in before["data"].items() if k not in ("opening", "log", "final")} == \
            {k: v for k, v in old["data"].items() if k != "pruned"}
        assert old["moves"] == before["moves"] > 0 and new == kept[new["id"]]
        assert {"opening", "log", "final"} <= set(new["data"])  # yesterday's game is within 30 days
        assert await sql(store, "SELECT id FROM archive") == []
        assert await sql(store, "SELECT * FROM result_players ORDER BY result_id, seat") == seats
        assert await sql(store, "SELECT * FROM ratings ORDER BY game, player_id") == ratings
        assert await said(runner, "alice: /politics leaderboard game:us-president") == board
        assert await said(runner, "alice: /politics stats") == stats
        replayed = await said(runner, f"alice: /politics replay id:{old['id']}")
        assert "Something went wrong" not in replayed and "can't be replayed" in replayed
        assert "move 0 of" in await said(runner, f"alice: /politics replay id:{new['id']}")
        # Idempotent: a second prune finds nothing more.
        again = await prune(store, 30, now=now)
        assert (again.results, again.archived) == (0, 0)
    finally:
        await runner.close()


async def test_pruning_runs_at_startup_and_only_when_asked(tmp_path):
    store = await Store.open(str(tmp_path / "bot.db"))
    try:
        await store.create("c1", GUILD, "us-president", "playing", toy_record("playing"))
        await store.delete("c1")
        await sql(store, "UPDATE archive SET finished_at=?", time.time() - 10 * DAY)
        assert start_pruning(store, None) is None  # ARCHIVE_DAYS unset: keep forever
        assert start_pruning(store, 5, serves_shard_0=False) is None  # another process prunes
        task = start_pruning(store, 5)
        assert task is not None
        for _ in range(100):
            if not await sql(store, "SELECT id FROM archive"):
                break
            await asyncio.sleep(0.05)
        assert await sql(store, "SELECT id FROM archive") == []
        assert not task.done()  # asleep until tomorrow's prune
        task.cancel()
    finally:
        await store.close()


def test_the_prune_command_and_the_archive_days_setting(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    live = str(tmp_path / "live.db")
    make_store(live)
    code, out, err = cli_env({"DATABASE_PATH": live}, "prune")
    assert code == 2 and "ARCHIVE_DAYS is not set" in err
    code, out, err = cli_env({"DATABASE_PATH": live, "ARCHIVE_DAYS": "30"}, "prune")
    assert code == 0 and "Pruned the moves of 0 finished games" in out, err
    code, out, err = cli_env({"DATABASE_PATH": live}, "prune", "--days", "7")
    assert code == 0 and "more than 7 days ago" in out
    code, out, err = cli_env({"DATABASE_PATH": live}, "prune", "--days", "²")
    assert code == 2 and err == "politics-bot: --days must be a whole number of days from 1 to 36,500, not '²'.\n"
    missing = str(tmp_path / "missing.db")
    code, out, err = cli_env({"DATABASE_PATH": missing, "ARCHIVE_DAYS": "30"}, "prune")
    assert code == 1 and "There is no database" in err and not os.path.exists(missing)  # never made one
    for bad in ("0", "-1", "soon", "1.5", "99999999"):
        code, out, err = cli_env({"DATABASE_PATH": live, "ARCHIVE_DAYS": bad}, "prune")
        assert code == 2 and "ARCHIVE_DAYS must be a whole number of days" in err and err.count("\n") == 1
    # The bot itself refuses a bad value before it connects, as every setting does.
    env = {**os.environ, "PYTHONPATH": ROOT, "DISCORD_TOKEN": "not-used", "ARCHIVE_DAYS": "soon",
           "DATABASE_PATH": live, "POLITICS_TEST_API_BASE": "http://127.0.0.1:9/api/v10"}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "ARCHIVE_DAYS must be" in done.stderr and done.stderr.count("\n") == 1
    assert backup.parse_days("keep") is None and backup.parse_days("") is None and backup.parse_days("30") == 30


def test_operations_doc_prints_the_commands_the_tests_run():
    doc = open(os.path.join(ROOT, "docs", "operations.md"), encoding="utf-8").read()
    for command in backup.PG_DUMP:
        assert command.replace("FILE", "politics.dump") in doc, command
    for heading in ("## Backup and restore", "## Retention", "## Logs", "## Metrics", "## Health",
                    "## Stopping cleanly", "## Alerts worth setting"):
        assert heading in doc
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    example = open(os.path.join(ROOT, ".env.example"), encoding="utf-8").read()
    for setting in ("ARCHIVE_DAYS", "LOG_FORMAT"):
        assert f"| `{setting}` |" in readme and f"\n{setting}=" in example
