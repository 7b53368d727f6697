"""`bench --live --hard-channels N` (issue #27, item 4): the plan's all-hard channels are opened as
games whose every seat is an AI at level hard (the one player leaves once it has started), and the
bench's players leave them alone."""
from __future__ import annotations

import json

from bot.bench_live import _tables
from bot.store import Store
from testkit.fakediscord.liveprep import main as liveprep


async def test_hard_channels_are_all_ai_games_at_level_hard(tmp_path):
    db, plan_path = str(tmp_path / "bot.db"), tmp_path / "plan.json"
    plan = {"game": "primary-general", "guild": "1",
            "channels": [{"channel": "10", "seed": 1, "users": [["100", "pa"], ["101", "pb"]]}],
            "hard_channels": [{"channel": "20", "seed": 2, "users": [["200", "h0"]]}]}
    plan_path.write_text(json.dumps(plan), encoding="utf-8")
    await liveprep(db, str(plan_path))
    store = await Store.open(db)
    try:
        hard = await store.get("20")
        played = await store.get("10")
    finally:
        await store.close()
    assert hard is not None and played is not None
    assert hard.record.status == "playing" and hard.record.bot_settings.ai == "hard"
    assert all(p.ai for p in hard.record.players) and len(hard.record.players) == 2
    assert not any(p.ai for p in played.record.players)
    tables = await _tables(db, {"10": _Users(["100", "101"])}, "primary-general")
    assert [t.id for t in tables] == ["10"]  # the bench's players play only their own channels


class _Users(list):
    """Stand-ins for the fake's users, found by id."""
    def __init__(self, ids):
        super().__init__(type("U", (), {"id": i})() for i in ids)
