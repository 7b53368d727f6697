"""The store on both backends (a SQLite file, a PostgreSQL database): migrations, versions, restart, damage."""
from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.service import GameService, Request
from bot.store import MIGRATIONS, SCHEMA_VERSION, CorruptRow, StorageError, Store
from engines import get_game
from tests.helpers import CH, ctx, service_on, sql, texts, toy_record, user, where


async def two_player_game(svc: GameService, game: str, seed: int):
    """alice opens `game` in the test channel, bob joins, alice starts it: (alice, bob)."""
    alice, bob = user("alice"), user("bob")
    await svc.handle(ctx(alice), "new", {"game": game, "seed": seed})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    return alice, bob


async def test_migrates_a_fresh_file_and_uses_wal(tmp_path):
    path = str(tmp_path / "a.db")
    store = await Store.open(path)
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store.db.execute("PRAGMA user_version") as cur:
        assert (await cur.fetchone())[0] == SCHEMA_VERSION == len(MIGRATIONS)
    async with store.db.execute("PRAGMA busy_timeout") as cur:
        assert (await cur.fetchone())[0] >= 1000
    await store.close()
    # Opening again migrates nothing and keeps data.
    store = await Store.open(path)
    assert await store.create("c", "g", "primary-general", "lobby", toy_record(x=1))
    await store.close()
    store = await Store.open(path)
    assert (await store.get("c")).record == toy_record(x=1)
    assert await store.integrity_ok()
    await store.close()


async def test_version_compare_and_swap_applies_once(database):
    store = await Store.open(database)
    assert await store.create("c", None, "g", "lobby", toy_record(n=0))
    assert not await store.create("c", None, "g", "lobby", toy_record(n=0)), "one game per channel"
    row = await store.get("c")
    assert await store.update("c", row.version, "playing", toy_record(n=1), None)
    assert not await store.update("c", row.version, "playing", toy_record(n=2), None), "a stale version must lose"
    assert (await store.get("c")).record == toy_record(n=1)
    await store.close()


async def test_corrupt_row_is_reported_not_raised_to_users(database):
    path = database
    svc = await service_on(path)
    alice = user("alice")
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1, "seed": 1})
    await sql(svc.store, "UPDATE games SET record='{not json' WHERE channel_id=?", CH)
    with pytest.raises(CorruptRow):
        await svc.store.get(CH)
    out = await svc.handle(ctx(alice), "status", {})
    assert len(out) == 1 and out[0].to == "ephemeral" and "can't be read" in out[0].text
    # The host can still clear it; nothing else is touched.
    out = await svc.handle(ctx(alice, ), "cancel", {})
    assert "only the host" in out[0].text.lower() or "cancelled" in out[0].text
    mod = user("mod", manage_channel=True)
    out = await svc.handle(ctx(mod), "cancel", {})
    assert "cancelled" in out[0].text
    assert await svc.store.get(CH) is None
    await svc.store.close()


async def test_damaged_state_inside_valid_json_is_caught(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    alice = user("alice")
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1, "seed": 1})
    await svc.handle(ctx(alice), "start", {})
    row = await svc.store.get(CH)
    state = json.loads(row.record.state)  # the state is stored as its own JSON text
    state["hands"] = "oops"
    await sql(svc.store, "UPDATE games SET state=? WHERE channel_id=?", json.dumps(state), CH)
    # a bot started on this file (the running one remembers what it wrote itself)
    svc = GameService(svc.store, inline_ai=True, ai_delay=0, render=False)
    out = await svc.handle(ctx(alice), "do", {"action": "play gaffe alice"})
    assert "can't be read" in out[0].text
    await svc.store.close()


async def test_restart_resumes_the_game(database):
    path = database
    svc = await service_on(path, inline_ai=True, ai_delay=0)
    alice = user("alice")
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1, "seed": 5})
    await svc.handle(ctx(alice), "start", {})
    before = (await svc.store.get(CH)).record
    await svc.store.close()
    svc2 = await service_on(path, inline_ai=True, ai_delay=0)  # a new process on the same file
    after = (await svc2.store.get(CH)).record
    assert after == before
    hand = await svc2.handle(ctx(alice), "hand", {})
    assert hand[0].to == "ephemeral" and "Your hand" in hand[0].text and hand[0].rows
    await svc2.store.close()


async def test_two_processes_racing_on_one_channel_apply_once(database):
    """Two services (two bot processes) on one file both load version v and try
    the same move: exactly one commits, the other is told it was too late."""
    path = database
    a = await service_on(path)
    alice, bob = await two_player_game(a, "primary-general", 2)
    b = await service_on(path)
    loaded = await a.load(CH)
    game = loaded.game
    state = game.load(loaded.record.state)
    seat = game.to_act(state)[0]
    who = [alice, bob][seat]
    move = game.legal_actions(state, seat)[0].text()
    # Both load the same version before either commits.
    la, lb = await a.load(CH), await b.load(CH)
    res = await asyncio.gather(a.play.apply(Request(), CH, la, seat, move, actor=who),
                               b.play.apply(Request(), CH, lb, seat, move, actor=who),
                               return_exceptions=True)
    wins = [r for r in res if isinstance(r, list)]
    losses = [r for r in res if isinstance(r, Exception)]
    assert len(wins) == 1 and len(losses) == 1 and type(losses[0]).__name__ == "TooLate"
    final = await a.load(CH)
    assert sum(final.record.acted) == 1
    await a.store.close()
    await b.store.close()


async def test_double_click_on_one_button_applies_once(database):
    svc = await service_on(database)
    alice, bob = await two_player_game(svc, "primary-general", 2)
    loaded = await svc.load(CH)
    state = loaded.game.load(loaded.record.state)
    seat = loaded.game.to_act(state)[0]
    who = [alice, bob][seat]
    action = loaded.game.legal_actions(state, seat)[0]
    custom_id = f"pb:{await where(svc)}:0:{action.text()}"
    first, second = await asyncio.gather(svc.component(ctx(who), custom_id), svc.component(ctx(who), custom_id))
    both = texts(first) + texts(second)
    assert sum("Too late" in t for t in both) == 1
    assert sum((await svc.load(CH)).record.acted) == 1
    await svc.store.close()


def test_schema_file_is_plain_sql():
    con = sqlite3.connect(":memory:")
    for m in MIGRATIONS:
        con.executescript(m)
    names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "archive", "server_data"} <= names


async def test_a_database_from_a_newer_bot_is_refused_not_touched(database):
    store = await Store.open(database)
    assert await store.create("c", None, "g", "lobby", toy_record(n=0))
    if store.dialect.name == "sqlite":
        await sql(store, f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    else:
        await sql(store, "UPDATE schema_version SET version=?", SCHEMA_VERSION + 1)
    await store.close()
    with pytest.raises(StorageError, match="newer politics-bot"):
        await Store.open(database)


async def test_a_row_written_elsewhere_is_never_overwritten_from_memory(database):
    """The service remembers the row it last committed per channel and starts the next
    action from it. If anything else wrote the row meanwhile, the compare-and-swap refuses
    the stale write, nothing is lost, and the next try reads the row from SQLite."""
    path = database
    one = await service_on(path)
    alice, bob = await two_player_game(one, "us-president", 5)
    await one.handle(ctx(alice), "do", {"action": "pick FL small"})  # `one` now remembers version n
    other = await service_on(path)
    await other.handle(ctx(bob), "do", {"action": "pick OH large"})  # the row moves to n + 1 behind its back
    out = await one.handle(ctx(alice), "do", {"action": "pick PA large"})
    assert "Too late" in out[0].text
    row = await one.store.get(CH)
    state = get_game("us-president").load(row.record.state)
    assert state.round == 2 and state.reveals[0][1][0] == "OH", "bob's pick survived the stale write"
    # the next try starts from the stored row
    out = await one.handle(ctx(alice), "do", {"action": "pick PA large"})
    assert "Too late" not in out[0].text
    assert (await one.store.get(CH)).version == row.version + 1
    await other.store.close()
    await one.store.close()


async def test_a_game_saved_before_the_state_column_plays_on(database):
    """Rows written by schema 1 hold the state inside the record; after migrating they load,
    play, and the next write moves the state into its own column (and the archive keeps it)."""
    path = database
    svc = await service_on(path)
    alice, bob = await two_player_game(svc, "us-president", 5)
    row = await svc.store.get(CH)
    # rewrite it as schema 1 kept it: the state as an object inside the record, no state column
    old = dict(row.record.model_dump(mode="json"), state=json.loads(row.record.state))
    await sql(svc.store, "UPDATE games SET record=?, state=NULL WHERE channel_id=?", json.dumps(old), CH)
    await svc.store.close()
    svc = await service_on(path)
    out = await svc.handle(ctx(alice), "do", {"action": "pick FL small"})
    assert "Too late" not in out[0].text and "went wrong" not in out[0].text
    [(record_text, state_text)] = await sql(svc.store, "SELECT record, state FROM games WHERE channel_id=?", CH)
    assert "state" not in json.loads(record_text)
    assert json.loads(state_text)["picks"][0] == ["FL", "small"]
    out = await svc.handle(ctx(alice), "cancel", {})
    assert "cancelled" in out[0].text
    [(archived,)] = await sql(svc.store, "SELECT state FROM archive WHERE channel_id=?", CH)
    assert json.loads(archived)["picks"][0] == ["FL", "small"]
    await svc.store.close()


async def test_games_ended_in_many_channels_at_once_are_archived_and_other_writes_kept(database):
    """One connection serves every channel: concurrent deletes (each a transaction) and
    updates of other channels must not nest or join each other's transactions."""
    store = await Store.open(database)
    for c in range(20):
        assert await store.create(f"c{c}", "g", "primary-general", "finished", toy_record("finished"))
    results = await asyncio.gather(
        *(store.delete(f"c{c}") for c in range(10)),
        *(store.update(f"c{c}", 1, "playing", toy_record("finished", n=c), None) for c in range(10, 20)),
        return_exceptions=True)
    assert [r for r in results if isinstance(r, Exception)] == []
    assert await store.count() == 10
    assert (await store.get("c15")).record.n == 15
    assert (await sql(store, "SELECT COUNT(*) FROM archive"))[0][0] == 10
    await store.close()


async def test_dm_channel_ids_are_kept_and_forgotten(database):
    path = database
    store = await Store.open(path)
    assert await store.dm_channel("42") is None
    await store.set_dm_channels({"42": "900", "43": "950"})
    await store.set_dm_channels({"42": "901"})
    await store.close()
    store = await Store.open(path)  # a restart
    assert await store.dm_channel("42") == "901" and await store.dm_channel("43") == "950"
    await store.set_dm_channels({"42": None})
    assert await store.dm_channel("42") is None and await store.dm_channel("43") == "950"
    await store.close()


async def test_the_setting_chooses_the_backend(tmp_path, monkeypatch):
    """DATABASE_URL wins over DATABASE_PATH; sqlite:////absolute (SQLAlchemy's spelling) is a SQLite file."""
    from bot.settings import Settings
    from bot.store.sqlite import SQLiteStore

    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "path.db"))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert Settings.from_env().database == str(tmp_path / "path.db")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/url.db")  # tmp_path is absolute: four slashes
    chosen = Settings.from_env().database
    assert chosen.startswith("sqlite:////")
    store = await Store.open(chosen)
    assert isinstance(store, SQLiteStore) and store.path == str(tmp_path / "url.db")
    await store.close()
    assert (tmp_path / "url.db").exists() and not (tmp_path / "path.db").exists()


async def test_a_row_in_the_shape_before_typed_records_loads_and_plays_on(database):
    """Rows written before the record was a typed model call two things "bot": a seat played by
    the AI and the bot's own settings. Such a row loads (each under its own name now), plays,
    and its next commit writes the new shape."""
    svc = await service_on(database)
    alice = user("alice")
    await svc.handle(ctx(alice), "new", {"game": "us-president", "seed": 5, "bots": 1})
    await svc.handle(ctx(alice), "start", {})
    [(text,)] = await sql(svc.store, "SELECT record FROM games WHERE channel_id=?", CH)
    old = json.loads(text)
    for p in old["players"]:
        p["bot"] = p.pop("ai")
    old.pop("bot_settings")
    old["bot"] = {"timeout": 5.0, "archive": "no"}  # as the lobby stored them: minutes, and yes/no
    old["options"] = {"deal": "one"}  # as typed, unchecked
    await sql(svc.store, "UPDATE games SET record=? WHERE channel_id=?", json.dumps(old), CH)
    await svc.store.close()

    svc = await service_on(database)
    loaded = await svc.load(CH)
    record = loaded.record
    assert [p.ai for p in record.players] == [False, True]
    assert record.bot_settings.timeout == 5.0 and record.bot_settings.archive is False
    assert record.options == {"deal": "one"}
    out = await svc.handle(ctx(alice), "status", {})
    assert out[0].to == "channel" and "went wrong" not in out[0].text and "can't be read" not in out[0].text
    await svc.rows.save(None, CH, loaded, record)  # the next commit, e.g. a reminder's
    [(text,)] = await sql(svc.store, "SELECT record FROM games WHERE channel_id=?", CH)
    new = json.loads(text)
    assert "bot" not in new and new["bot_settings"] == {"timeout": 5.0, "archive": False}
    assert [p["ai"] for p in new["players"]] == [False, True] and all("bot" not in p for p in new["players"])
    await svc.store.close()
