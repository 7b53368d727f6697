"""Finished games remembered: the recorded result, its replay, ratings, the record commands,
and the privacy commands. Games are played to their end by AI seats (a player who leaves
hands the seat to the AI, which moves at once in the transcript runner)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import records
from bot.messages import Ctx, User
from bot.store import Store
from bot.transcript import GUILD, TranscriptRunner
from engines import all_games, get_game
from tests.helpers import said, sql, toy_record

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


async def play_out(runner: TranscriptRunner, game: str, seed: int, bots: int, joiners: tuple[str, ...] = (),
                   settings_text: str = "") -> None:
    """alice opens a game, the joiners join, she starts it and everyone hands their seat to the AI."""
    extra = f' settings:"{settings_text}"' if settings_text else ""
    lines = [f"alice: /politics new game:{game} seed:{seed} bots:{bots}{extra}"]
    lines += [f"{name}: /politics join" for name in joiners] + ["alice: /politics start"]
    lines += [f"{name}: /politics leave" for name in joiners] + ["alice: /politics leave"]
    for line in lines:
        out = await runner.run_line(line)
        assert not any("Something went wrong" in e["text"] for e in out), out


async def finished(runner: TranscriptRunner, limit: int = 400) -> None:
    """Let the clocks run (a trivia question waits for its clock even among AI seats) until the game is recorded."""
    for _ in range(limit):
        if await runner.service.store.results(GUILD):
            return
        await runner.run_line("@wait 61")


# ---- ratings -------------------------------------------------------------------

@given(st.integers(2, 8), st.integers(0, 7), st.data())
@settings(max_examples=40, deadline=None)
def test_the_winner_gains_and_the_last_drops(n, winner, data):
    """Whatever the ratings before: the winner's skill goes up, the last place's goes down."""
    winner %= n
    ids = [f"p{i}" for i in range(n)]
    start = {pid: (data.draw(st.floats(15, 35)), data.draw(st.floats(2, 8.3))) for pid in ids}
    scores = [float(-i) for i in range(n)]  # distinct places: seat 0 best … seat n-1 last
    scores[winner] = 10.0
    last = n - 1 if winner != n - 1 else n - 2
    ranks = records.team_ranks([[i] for i in range(n)], records.Result(True, [winner], scores))
    new = records.rate([[pid] for pid in ids], ranks, start)
    assert new[ids[winner]][0] > start[ids[winner]][0]
    assert new[ids[last]][0] < start[ids[last]][0]


@pytest.mark.parametrize("n", range(2, 9))
def test_among_newcomers_the_winner_gains_and_everyone_else_drops(n):
    ranks = records.team_ranks([[i] for i in range(n)], records.Result(True, [1], [0.0] * n))
    new = records.rate([[f"p{i}"] for i in range(n)], ranks, {})
    assert new["p1"][0] > 25 and all(new[f"p{i}"][0] < 25 for i in range(n) if i != 1)
    assert records.conservative(*new["p1"]) > records.STARTING_RATING


def test_teams_win_and_lose_together():
    teams = [["dp", "dvp"], ["rp", "rvp"]]
    ranks = records.team_ranks([[0, 3], [1, 2]], records.Result(True, [0, 3], [300.0, 200.0, 200.0, 300.0]))
    assert ranks == [0, 1]
    new = records.rate(teams, ranks, {})
    assert all(new[p][0] > 25 for p in teams[0]) and all(new[p][0] < 25 for p in teams[1])


def test_two_ai_seats_share_one_identity():
    new = records.rate([[records.AI_ID], ["bob"], [records.AI_ID]], [0, 1, 2], {})
    assert set(new) == {records.AI_ID, "bob"}


# ---- results recorded -------------------------------------------------------------

def short(game_id: str) -> str:
    return " ".join(f"{k}={v}" for k, v in get_game(game_id).short_settings.items())


# Every game: alice, bob and AI seats up to a table of four (or the game's most), with its short settings.
# (race-white-house at 2 × 2: alice and bob are on opposite teams.)
CASES = [(game_id, min(game.max_players, 4) - 2, ("bob",)) for game_id, game in all_games().items()]


@pytest.mark.parametrize("game, bots, joiners", CASES)
async def test_a_finished_game_is_recorded_and_replays_exactly(runner, game, bots, joiners):
    await play_out(runner, game, 4, bots, joiners, short(game))
    await finished(runner)
    (found,) = await runner.service.store.results(GUILD)
    data = found["data"]
    loaded = await runner.service.load(runner.channel)
    assert loaded.record.status == "finished"
    assert data["final"] == loaded.record.state and found["moves"] == len(data["log"]) > 0
    names = [p["name"] for p in data["players"]]
    assert names[0] == "alice" and len(names) == 1 + bots + len(joiners)
    assert [p["player_id"] for p in data["players"] if p["bot"]] == [records.AI_ID] * bots
    assert data["seed"] == 4 and data["started"] and data["finished"] >= data["started"]
    shown = records.replay(data)
    assert shown.game.dump(shown.state) == data["final"]
    assert shown.game.result(shown.state).winners == data["winners"]
    if game == "race-white-house":
        assert sorted(map(sorted, data["teams"])) == [[0, 3], [1, 2]]


async def test_timeout_moves_are_in_the_log_and_replay(runner):
    """alice never moves: after each timeout the AI moves for her; the log keeps those moves as hers."""
    await runner.run_line("alice: /politics new game:us-president seed:9 bots:1 settings:\"timeout=1\"")
    await runner.run_line("alice: /politics start")
    for _ in range(200):
        if await runner.service.store.results(GUILD):
            break
        await runner.run_line("@wait 61")
    (found,) = await runner.service.store.results(GUILD)
    log = found["data"]["log"]
    assert any(seat == 0 for seat, _ in log)  # her seat moved, by the clock's AI
    shown = records.replay(found["data"])
    assert shown.game.dump(shown.state) == found["data"]["final"]


async def test_a_cancelled_game_is_archived_not_rated(runner):
    await runner.run_line("alice: /politics new game:us-president seed:1 bots:1")
    await runner.run_line("alice: /politics start")
    await runner.run_line("alice: /politics cancel")
    assert [r["data"]["archived"] for r in await runner.service.store.results(GUILD)] == [True]  # history only
    assert "no finished games" in await said(runner, "alice: /politics stats")


async def test_records_survive_a_restart(database):
    db = database
    first = await TranscriptRunner.create(db, render=False)
    await play_out(first, "primary-general", 2, 1)
    await first.close()
    second = await TranscriptRunner.create(db, render=False)
    try:
        second.user("alice")
        assert "Stats: alice" in await said(second, "alice: /politics stats")
        assert len(await second.service.store.results(GUILD)) == 1
    finally:
        await second.close()


async def test_a_lost_compare_and_swap_records_nothing(database):
    store = await Store.open(database)
    try:
        await store.create("c1", GUILD, "us-president", "playing", toy_record("playing"))
        written = await store.finish("c1", 99, toy_record("finished"),
                                     {"guild_id": GUILD, "game": "us-president", "finished_at": 1.0, "moves": 0,
                                      "data": {}},
                                     [{"player_id": "a", "name": "a", "seat": 0, "score": 1.0, "winner": True}],
                                     lambda current: {"a": (26.0, 8.0)})
        assert written is None
        assert await store.results(GUILD) == [] and await store.player_ratings(GUILD, "a") == []
    finally:
        await store.close()


# ---- the commands -------------------------------------------------------------------

async def test_stats_leaderboard_and_history_after_a_win(runner):
    await play_out(runner, "primary-general", 11, 1, ("bob",))
    (found,) = await runner.service.store.results(GUILD)
    winner = found["data"]["players"][found["data"]["winners"][0]]["name"]
    board = await said(runner, "bob: /politics leaderboard game:primary-general")
    assert board.index(f"**1.** {winner}") < board.index("**2.**")
    assert records.AI_NAME in board
    ratings = {row[1]: row for row in (await runner.service.store.leaderboard(GUILD, "primary-general", 0, 10))[1]}
    last = min(ratings.values(), key=lambda r: r[2])
    assert ratings[winner][2] > 25 > last[2] and last[1] != winner  # μ moved the right way from 25
    stats = await said(runner, f"bob: /politics stats user:{winner}")
    assert f"Stats: {winner}" in stats and "1 win" in stats and "#1 of 3" in stats
    history = await said(runner, "bob: /politics history where:channel")
    assert "alice" in history and "bob" in history and f"winner: **{winner}**" in history
    assert "Download #1" in [b.label for row in runner.last_rows["bob"] for b in row]


async def test_leaderboard_pages_with_buttons(runner):
    for i in range(23):
        await sql(runner.service.store, "INSERT INTO ratings VALUES(?,?,?,?,?,?,?,?)",
                  GUILD, "us-president", f"p{i}", f"player{i:02d}", 25.0 + i, 3.0, 1, 0)
    first = await said(runner, "alice: /politics leaderboard game:us-president")
    assert "**1.** player22" in first and "page 1 of 3" in first and "player12" not in first
    second = await said(runner, "alice: click Next")
    assert "**11.** player12" in second and "page 2 of 3" in second
    third = await said(runner, "alice: click Next")
    assert "**21.** player02" in third and "**23.** player00" in third
    assert "Next" not in [b.label for row in runner.last_rows["alice"] for b in row]
    assert "page 2 of 3" in await said(runner, "alice: click ◀ Previous")


async def test_replay_steps_and_shows_hidden_information_after_the_game(runner):
    await play_out(runner, "primary-general", 3, 1)
    start = await said(runner, "alice: /politics replay id:1")
    assert "move 0 of" in start and "Hidden information" in start and "Your hand" in start
    step = await said(runner, "alice: click Next")
    assert "move 1 of" in step
    end = await said(runner, "alice: click End")
    total = (await runner.service.store.result(GUILD, 1))["moves"]
    assert f"move {total} of {total}" in end
    assert "no finished game #7" in await said(runner, "alice: /politics replay id:7")
    shared = await runner.run_line("alice: /politics replay id:1 move:2 share:true")
    assert shared[0]["to"] == "channel" and "move 2 of" in shared[0]["text"]
    runner.user("bob")
    stepped = await runner.run_line("bob: click Next")  # a step answers only whoever pressed it
    assert stepped[0]["to"] == "ephemeral:bob" and "move 3 of" in stepped[0]["text"]


async def test_downloaded_file_replays_with_the_command_line(runner, tmp_path):
    await play_out(runner, "race-white-house", 8, 3)
    await runner.run_line("alice: /politics history")
    outgoing = await runner.service.component(Ctx(runner.users["alice"], runner.channel, GUILD),
                                              runner.last_rows["alice"][0][0].custom_id)
    (name, data), = outgoing[0].images
    path = tmp_path / name
    path.write_bytes(data)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "replay", str(path), "--no-images"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[-1]["final"]["same_as_recorded"] is True and lines[-1]["final"]["finished"]
    assert [entry["move"] for entry in lines[:-1]] == list(range(1, len(lines)))
    # A damaged file: one sentence, no traceback.
    broken = json.loads(data)
    broken["log"][3] = [0, "fly to the moon"]
    path.write_text(json.dumps(broken))
    bad = subprocess.run([sys.executable, "-m", "bot.cli", "replay", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 1 and "Move 4 of the game file" in bad.stderr and "Traceback" not in bad.stderr


async def test_a_thread_game_in_transcripts_and_the_archive_setting(runner):
    out = await runner.run_line(
        "alice: /politics new game:us-president seed:2 bots:1 thread:true settings:\"archive=no\"")
    assert any("#thread-1" in e["text"] for e in out)
    assert runner.channel == runner.threads[0]
    await runner.run_line("alice: /politics start")
    out = await runner.run_line("alice: /politics leave")
    assert "Game over" in "\n".join(e["text"] for e in out)
    assert not any("archived" in e["text"] for e in out)  # archive=no keeps the thread open
    (found,) = await runner.service.store.results(GUILD)
    assert found["channel_id"] == runner.threads[0]
    await runner.run_line("@channel main")
    assert "U.S. President" in await said(runner, "alice: /politics history where:channel")
    bad = await said(runner, "alice: /politics new game:us-president settings:\"archive=maybe\"")
    assert "archive is yes or no" in bad


# ---- privacy and admin ---------------------------------------------------------------

async def test_forget_me_replaces_name_and_id_everywhere(runner):
    await runner.run_line("alice: /politics new game:us-president bots:1")
    await runner.run_line("alice: /politics start")
    await runner.run_line("alice: /politics cancel")  # an archived row that names her
    await play_out(runner, "primary-general", 11, 1, ("bob",))
    alice_id = runner.users["alice"].id
    answer = await said(runner, "alice: /politics forget-me")
    assert "Former player" in answer
    found, cancelled = await runner.service.store.results(GUILD)  # newest first: the cancelled game is archived
    assert cancelled["data"]["archived"] and not found["data"].get("archived")
    for result in (found, cancelled):
        stored = json.dumps(result["data"]).lower()
        assert "alice" not in stored and alice_id not in stored
    assert "bob" in json.dumps(found["data"]).lower()
    if records.replayable(found["data"]):  # rebuilt under the new name, it still replays exactly
        shown = records.replay(found["data"])
        assert shown.game.dump(shown.state) == found["data"]["final"]
    rows = await sql(runner.service.store, "SELECT player_id, name FROM result_players")
    assert all(pid != alice_id and name != "alice" for pid, name in rows)
    assert "no finished games" in await said(runner, "alice: /politics stats")
    assert "Former player" in await said(runner, "bob: /politics leaderboard game:primary-general")
    archived = await sql(runner.service.store, "SELECT record, state FROM archive")
    assert archived and all(alice_id not in text and '"alice"' not in text and state is None
                            for text, state in archived)
    games = await sql(runner.service.store, "SELECT record FROM games")
    assert all(alice_id not in text for (text,) in games)  # her finished game's row went


async def test_stats_reset_needs_manage_server(runner):
    await play_out(runner, "us-president", 1, 1)
    runner.user("bob")
    assert "Manage Server" in await said(runner, "bob: /politics stats-reset")
    assert await runner.service.store.results(GUILD)
    assert "cleared" in await said(runner, "alice: /politics stats-reset")  # the first user is an admin
    assert await runner.service.store.results(GUILD) == []
    assert "Nobody has finished" in await said(runner, "alice: /politics leaderboard game:us-president")


def test_commands_outside_a_server_say_so():
    import asyncio

    async def go():
        store = await Store.open(":memory:")
        from bot.service import GameService
        service = GameService(store, render=False)
        try:
            out = await service.handle(Ctx(User("1", "x"), "dm1", None), "stats", {})
            return out[0].text
        finally:
            await store.close()
    assert "server" in asyncio.run(go())


async def test_game_night_transcript_shows_records_naming_its_players():
    from bot.transcript import run_transcript
    out = await run_transcript(str(ROOT / "tests" / "transcripts" / "game-night-records.txt"), render=False)
    said = {}
    for entry in out[:-1]:
        said.setdefault(entry["to"], []).append(entry["text"])
    alice = said["ephemeral:alice"]
    stats = next(t for t in alice if t.startswith("== Stats: alice =="))
    board = next(t for t in alice if t.startswith("== Leaderboard: Primary/General =="))
    history = next(t for t in alice if t.startswith("== Recent games in this server =="))
    assert "1 game" in stats and "Primary/General" in stats
    for name in ("alice", "bob", records.AI_NAME):
        assert name in board
    assert "alice" in history and "bob" in history and "AI-Lincoln (AI)" in history
    assert any(t.startswith("Game #1 as a file") for t in alice)
    assert "[the thread is archived]" in said["channel"]
    carol = said["ephemeral:carol"]
    assert "#2 · U.S. President" in next(t for t in carol if t.startswith("== Recent games in this channel"))
    assert "Former player" in carol[-1] and "carol" not in carol[-1]
    assert out[-1]["final"]["finished"]


async def test_a_game_started_before_moves_were_logged_is_recorded_without_a_replay(runner):
    await runner.run_line("alice: /politics new game:us-president seed:6 bots:1")
    await runner.run_line("alice: /politics start")
    loaded = await runner.service.load(runner.channel)
    loaded.record.opening, loaded.record.log = None, []  # as an older bot wrote the row (it loads so)
    await runner.service.rows.save(None, runner.channel, loaded, loaded.record)
    await runner.run_line("alice: /politics leave")
    (found,) = await runner.service.store.results(GUILD)
    assert found["moves"] > 0 and not records.replayable(found["data"])
    assert "recorded without its moves" in await said(runner, "alice: /politics replay id:1")
    await runner.run_line("alice: /politics history")
    assert "no file to replay" in await said(runner, "alice: click Download")


async def test_a_failure_while_rating_still_ends_and_records_the_game(runner, monkeypatch):
    def broken(*args):
        raise ValueError("rating maths broke")
    monkeypatch.setattr(records, "rate", broken)
    await play_out(runner, "us-president", 3, 1)
    loaded = await runner.service.load(runner.channel)
    assert loaded.record.status == "finished"
    (found,) = await runner.service.store.results(GUILD)
    assert (await runner.service.store.player_ratings(GUILD, runner.users["alice"].id))[0][2:4] == records.START


@given(st.sampled_from([(game_id, game.min_players - 1 + extra, ()) for game_id, game in all_games().items()
                        for extra in range(2) if game.min_players + extra <= game.max_players] + CASES),
       st.integers(0, 2**31 - 1))
@settings(max_examples=12, deadline=None)
def test_any_recorded_game_replays_to_its_final_state(case, seed):
    import asyncio

    async def go():
        game, bots, joiners = case
        r = await TranscriptRunner.create(render=False)
        try:
            await play_out(r, game, seed, bots, joiners, short(game))
            await finished(r)
            (found,) = await r.service.store.results(GUILD)
            shown = records.replay(found["data"])
            assert shown.game.dump(shown.state) == found["data"]["final"]
            assert shown.moves == found["moves"] and shown.game.result(shown.state).winners == found["data"]["winners"]
            seats = await sql(r.service.store, "SELECT COUNT(*) FROM result_players")
            assert seats[0][0] == 1 + bots + len(joiners)
        finally:
            await r.close()
    asyncio.run(go())


async def test_the_last_board_says_who_won_once(runner):
    """The final move's lines already name the winner (us-president's Election Day): "Game over"
    then stands alone instead of repeating that sentence; the seed follows it."""
    for line in ("alice: /politics new game:us-president seed:1 bots:1", "alice: /politics start"):
        await runner.run_line(line)
    ending = [e["text"] for e in await runner.run_line("alice: /politics leave") if "Game over" in e["text"]]
    assert ending, "the AI did not play the game to its end"
    (last,) = ending[-1:]
    outcome = last.split("Election Day. ", 1)[1].split("\n", 1)[0]
    assert last.count(outcome) == 1 and "🏁 **Game over.**\n(Seed of this game: 1.)" in last


def test_a_replay_names_who_made_each_logged_move():
    """The clock's timeouts and the bot's hand-over are both SYSTEM's moves: a replay tells them apart
    and says the hand-over in words (the seat numbers of the log are 0-based)."""
    from bot.records import move_line, mover
    names = ["alice", "bob"]
    assert move_line(0, "play 3", names) == "alice: play 3"
    assert move_line(-1, "timeout", names) == "The clock: timeout"
    assert move_line(-1, "handover 1", names) == "bob left the game; the AI plays their seat from here."
    assert [mover(-1, "handover 0", names), mover(-1, "timeout", names), mover(5, "x", names)] == [
        "bot", "clock", "seat 6"]
