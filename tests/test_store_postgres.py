"""What only the PostgreSQL backend has: the schema_version table and migrations that several
processes start at once, the connection settings it insists on, and a server that refuses or
goes away. (Everything both backends share runs on both through the `database` fixture.)"""
from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys

import asyncpg
import pytest

from bot.store import SCHEMA_VERSION, StorageError, Store, postgres, redact
from bot.store.schema import POSTGRES, SQLITE
from testkit.pgserver import PgServer
from tests.helpers import CH, ctx, service_on, texts, toy_record, user

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
alice, bob = user("alice"), user("bob")


async def columns_of_postgres(url: str) -> dict[str, set[str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT table_name, column_name FROM information_schema.columns"
                                " WHERE table_schema='public' AND table_name <> 'schema_version'")
    finally:
        await conn.close()
    found: dict[str, set[str]] = {}
    for r in rows:
        found.setdefault(r["table_name"], set()).add(r["column_name"])
    return found


async def test_both_dialects_make_the_same_tables(pg_server, tmp_path):
    con = sqlite3.connect(str(tmp_path / "s.db"))
    for migration in SQLITE:
        con.executescript(migration)
    tables = [r[0] for r in
              con.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%'")]
    in_sqlite = {t: {r[1] for r in con.execute(f"PRAGMA table_info({t})")} for t in tables}
    con.close()
    assert len(POSTGRES) == len(SQLITE) == SCHEMA_VERSION
    assert await columns_of_postgres(pg_server.new_database()) == in_sqlite


async def test_settings_it_insists_on_and_the_schema_version(pg_server):
    url = pg_server.new_database()
    admin = await asyncpg.connect(url)
    # a server (or database) that defaults to asynchronous commits must not make the bot's lossy
    await admin.execute(f"ALTER DATABASE {url.split('@/')[1].split('?')[0]} SET synchronous_commit = off")
    await admin.close()
    store = await Store.open(url)
    try:
        (setting,) = await store._rows("SELECT current_setting('synchronous_commit')")
        assert setting[0] == "on"
        (lock,) = await store._rows("SELECT current_setting('lock_timeout')")
        assert lock[0] == "5s"
        assert (await store._rows("SELECT version FROM schema_version")) == [(SCHEMA_VERSION,)]
        assert await store.integrity_ok()
    finally:
        await store.close()


async def test_processes_starting_at_once_migrate_once(pg_server):
    """Four bot processes start on a new database at the same moment: the advisory lock lets the
    first migrate while the others wait, then find nothing to do."""
    url = pg_server.empty_database()
    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    try:
        assert await stores[0]._rows("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        assert await stores[1].create("c", "1", "us-president", "lobby", toy_record(n=1))
        assert (await stores[3].get("c")).record == toy_record(n=1)
    finally:
        for store in stores:
            await store.close()


async def test_the_first_schema_is_upgraded_and_keeps_its_games(pg_server):
    url = pg_server.empty_database()
    conn = await asyncpg.connect(url)
    await conn.execute(POSTGRES[0])
    await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)")
    await conn.execute("INSERT INTO games VALUES('c1','g1','primary-general','lobby',3,$1,NULL,0)",
                       '{"status": "lobby", "players": [], "host": "h", "options": {}, "seed": 1}')
    await conn.close()
    store = await Store.open(url)
    try:
        assert await store._rows("SELECT version FROM schema_version") == [(SCHEMA_VERSION,)]
        row = await store.get("c1")
        assert row.version == 3 and row.record.host == "h"
    finally:
        await store.close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_an_unreachable_server_is_one_sentence_that_never_shows_the_password(tmp_path):
    url = f"postgresql://bot:s3cret-pw@127.0.0.1:{closed_port()}/politics"
    assert redact(url) == url.replace("s3cret-pw", "***")
    with pytest.raises(StorageError) as refused:
        await Store.open(url)
    said = str(refused.value)
    assert "can't be used" in said and "DATABASE_URL" in said and "s3cret" not in said
    # the whole command: one line, exit 1, no traceback, no password
    env = {**os.environ, "PYTHONPATH": ROOT, "DISCORD_TOKEN": "not-used", "DATABASE_URL": url,
           "POLITICS_TEST_API_BASE": "http://127.0.0.1:9/api/v10"}  # never reached: the database fails first
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=str(tmp_path), env=env,
                          capture_output=True, text=True, timeout=60)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 1 and len(lines) == 1 and "can't be used" in lines[0], lines
    assert "s3cret" not in done.stdout + done.stderr and "Traceback" not in done.stderr


async def test_a_user_who_may_not_create_tables_is_one_sentence(pg_server):
    url = pg_server.empty_database()  # PostgreSQL 15: only the owner creates in its public schema
    admin = await asyncpg.connect(url)
    await admin.execute("CREATE ROLE visitor LOGIN")
    await admin.close()
    with pytest.raises(StorageError, match="may create tables"):
        await Store.open(url.replace("postgres@", "visitor@"))


async def test_a_url_of_another_kind_is_refused_in_one_sentence():
    with pytest.raises(StorageError, match="must start with postgresql:// or sqlite:///"):
        await Store.open("mysql://bot:pw@host/db")


async def start_a_game(svc):
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 3})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    seat = loaded.game.to_act(loaded.state)[0]
    return [alice, bob][seat], loaded.game.legal_actions(loaded.state, seat)[0].text()


async def test_a_row_held_longer_than_the_lock_timeout_answers_busy(pg_server, monkeypatch):
    monkeypatch.setitem(postgres.SETTINGS, "lock_timeout", "200")  # 5 s in production
    url = pg_server.new_schema()
    svc = await service_on(url)
    mover, move = await start_a_game(svc)
    version = (await svc.store.get(CH)).version
    other = await asyncpg.connect(url)  # another process holding the game's row
    tx = other.transaction()
    await tx.start()
    await other.execute("SELECT version FROM games WHERE channel_id=$1 FOR UPDATE", CH)
    try:
        out = await svc.handle(ctx(mover), "do", {"action": move})
    finally:
        await tx.rollback()
        await other.close()
    assert len(out) == 1 and "busy" in out[0].text and "Nothing was changed" in out[0].text
    assert (await svc.store.get(CH)).version == version
    out = await svc.handle(ctx(mover), "do", {"action": move})  # once the row is free, the same move goes through
    assert any(m.to == "channel" for m in out) and (await svc.store.get(CH)).version == version + 1
    await svc.store.close()


def test_a_server_that_goes_away_and_comes_back():
    """The database server stops mid-game: the next move is answered "can't be reached" and
    changes nothing; when the server is back, the same move goes through on a new connection."""
    from testkit.pgserver import binaries

    server = PgServer(binaries())
    try:
        server.start()
        url = server.new_schema()

        async def first() -> tuple:
            svc = await service_on(url)
            mover, move = await start_a_game(svc)
            version = (await svc.store.get(CH)).version
            server.stop_server("fast")
            out = await svc.handle(ctx(mover), "do", {"action": move})
            assert len(out) == 1 and "can't be reached" in out[0].text and "Nothing was changed" in out[0].text
            server.start_server()
            out = await svc.handle(ctx(mover), "do", {"action": move})
            assert any(m.to == "channel" for m in out), texts(out)
            assert (await svc.store.get(CH)).version == version + 1
            await svc.store.close()
        asyncio.run(first())
    finally:
        server.stop()
