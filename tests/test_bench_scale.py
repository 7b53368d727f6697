"""bench --scale's parts on a small scale: bytes per finished game on both stores, and the live
bench with two bot processes splitting the shards on PostgreSQL."""
import asyncio

from bot.bench_scale import markdown_scale, stored_per_game
from engines import all_games

GAMES = list(all_games())


async def test_stored_per_game_plays_games_to_the_end_and_weighs_them(database):
    out = await stored_per_game(database, "us-president", 2)
    assert out["games"] == 2 and out["moves"] > 0
    assert out["result_bytes"] > 1000 and out["disk_bytes_per_game"] > 0


async def test_a_game_of_typed_answers_is_played_on_by_its_clock(tmp_path):
    assert (await stored_per_game(str(tmp_path / "t.db"), "politics-trivia", 1))["games"] == 1


def test_two_processes_of_two_shards_each_share_one_postgresql_database(pg_server):
    from bot.bench_live import Deployment, _one
    from bot.bench_scale import ROOT

    url = pg_server.new_schema()
    out = asyncio.run(_one(6, True, ROOT, [6.0], 1.5,
                           deployment=Deployment(database=url, processes=2, shard_count=4, guilds=8)))
    step = out["steps"][0]
    assert step["done"] > 0 and step["errors"] == 0 and out["missed_acks"] == 0
    assert out["burst"]["done"] >= 1


def test_markdown_has_a_row_per_store_and_game():
    store = {"action_median_ms": 1, "action_p99_ms": 2, "bare_commit_median_ms": 0.5, "bare_commit_p99_ms": 1,
             "action_p99_over_commit_p99": 2, "action_median_over_commit": 2, "stored_bytes_median": 3000}
    stored = {g: {"games": 3, "disk_bytes_per_game": 4096, "result_bytes": 2000} for g in GAMES}
    table = markdown_scale({"store": {"sqlite": store, "postgresql": store},
                            "stored": {"sqlite": stored, "postgresql": stored}})
    assert "| sqlite | 1 / 2 |" in table and "| postgresql | 1 / 2 |" in table
    assert all(f"| {g} | 3 | 4,096 | 4,096 | 2,000 |" in table for g in GAMES)
