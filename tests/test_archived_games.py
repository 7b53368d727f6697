"""A game set aside before its end (`/politics cancel` in play, or "start a new game" over a saved
one at the local table) is archived: history lists it as archived, it replays and downloads like a
finished game, and it moves no rating (issue #26)."""
from __future__ import annotations

import io


from bot import records
from bot.table import run_table
from bot.transcript import GUILD, FakeClock
from engines import get_game
from tests.helpers import said, sql


async def test_a_game_cancelled_in_play_is_archived_unrated_in_history(runner):
    await runner.run_line("alice: /politics new game:us-president seed:3 bots:1")
    await runner.run_line("bob: /politics join")
    await runner.run_line("alice: /politics start")
    await runner.run_line("alice: /politics do action:pick FL 3")
    answer = await said(runner, "alice: /politics cancel")
    assert "cancelled by **alice**" in answer and "archived unrated" in answer and "/politics history" in answer
    (result,) = await runner.service.store.results(GUILD)
    data = result["data"]
    assert data["archived"] and data["winners"] == []
    assert [p["name"] for p in data["players"]] == ["alice", "AI-Lincoln", "bob"]
    history = await said(runner, "bob: /politics history")
    assert f"#{result['id']} · U.S. President" in history and "**archived** unfinished, unrated" in history
    assert "winner:" not in history
    # no rating, no seat row: stats and the leaderboard have nothing of it
    assert await sql(runner.service.store, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert await sql(runner.service.store, "SELECT COUNT(*) FROM result_players") == [(0,)]
    assert "no finished games" in await said(runner, "alice: /politics stats")
    assert "Nobody has finished" in await said(runner, "alice: /politics leaderboard game:us-president")
    # it replays to where it stopped
    shown = records.replay(data)
    assert shown.moves == len(data["log"]) >= 1 and shown.game.dump(shown.state) == data["final"]
    assert "move 1 of" in await said(runner, f"alice: /politics replay id:{result['id']} move:1")


async def test_a_lobby_cancelled_before_the_start_is_not_in_history(runner):
    await runner.run_line("alice: /politics new game:us-president bots:1")
    answer = await said(runner, "alice: /politics cancel")
    assert "cancelled by **alice**." in answer and "archived" not in answer
    assert await runner.service.store.results(GUILD) == []
    assert "No finished or archived games" in await said(runner, "alice: /politics history")


async def test_an_archived_game_leaves_ratings_as_they_were(runner):
    from tests.test_records import finished, play_out
    await play_out(runner, "us-president", 1, 1)
    await finished(runner)
    before = await sql(runner.service.store, "SELECT player_id, mu, sigma, games, wins FROM ratings ORDER BY 1")
    await runner.run_line("alice: /politics new game:us-president seed:5 bots:1")
    await runner.run_line("alice: /politics start")
    await runner.run_line("alice: /politics cancel")
    assert await sql(runner.service.store, "SELECT player_id, mu, sigma, games, wins FROM ratings ORDER BY 1") == before
    assert [r["data"].get("archived", False) for r in await runner.service.store.results(GUILD)] == [True, False]


async def table(tmp_path, game, script, bots=1):
    out = io.StringIO()
    code = await run_table(game, bots, 4, str(tmp_path / "img"), str(tmp_path / "t.db"), None,
                           stdin=io.StringIO(script), stdout=out, clock=FakeClock())
    return code, out.getvalue()


async def test_starting_anew_at_the_table_archives_the_saved_game_into_history(tmp_path):
    await table(tmp_path, "politics-1952", "1\n1\nquit\n", bots=2)
    old = get_game("politics-1952").title
    code, text = await table(tmp_path, "us-president", "1\nhistory\nstats\nquit\n", bots=2)
    assert code == 0
    assert "the saved game is archived" in text  # the question says what will happen...
    assert f"The game of {old} was cancelled by you. It is archived unrated" in text  # ...and it did
    listing = text[text.index("== Recent games in this server =="):]
    assert f"#1 · {old}" in listing and "archived unfinished, unrated" in listing
    assert "You have no finished games" in text  # archived, not rated
    assert f"opened a lobby for {get_game('us-president').title}" in text
