"""A sixth game, added the way docs/adding-a-game.md says, with no change to bot/: Coin Count
(tests/coin_count) joins the registry and is played end to end through the real code paths —
a lobby and moves through GameService, its board image and text board, a transcript through the
transcript runner, `simulate` — and passes the same contract checks every game passes. Then the
same game, declared by an entry point, is found by `politics-bot` in a process of its own."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

import engines
from bot.render_pool import render_board
from bot.simulate import simulate
from bot.transcript import TranscriptRunner
from engines import ENTRY_POINT_GROUP, all_games, get_game
from render import get_renderer
from render.text import alt_text, get_text_board, text_board
from tests import test_docs_settings, test_engine_contract, test_table, test_text_boards
from tests.coin_count import GAME
from tests.coin_count.game import ENDORSEMENTS
from tests.helpers import CH, ctx, service_on, user

ROOT = Path(__file__).resolve().parent.parent
ID = GAME.id


@pytest.fixture(autouse=True)
def coin_count():
    engines.register(GAME)
    try:
        yield GAME
    finally:
        engines.unregister(ID)


def test_registering_adds_it_everywhere_the_games_are_listed_and_unregistering_takes_it_out():
    assert get_game(ID) is GAME and list(all_games()) == sorted(all_games())
    assert get_renderer(ID) is not None and get_text_board(ID) is not None
    engines.unregister(ID)
    assert ID not in all_games() and get_renderer(ID) is None and text_board(ID, {}) == ""
    engines.register(GAME)
    with pytest.raises(ValueError, match="two games are called 'us-president'"):
        engines.register(_impostor("us-president"))


def _impostor(game_id: str):
    clone = type("Impostor", (type(GAME),), {"id": game_id})
    return clone()


def test_it_keeps_the_contract_every_game_keeps():
    test_engine_contract.test_every_game_declares_itself(ID)
    test_engine_contract.test_random_play_ends_and_round_trips(ID)
    test_engine_contract.test_same_seed_same_game(ID)
    test_engine_contract.test_illegal_actions_leave_the_state_untouched(ID)
    test_engine_contract.test_legal_actions_parse_back_from_their_text(ID)
    test_docs_settings.test_the_settings_table_matches_the_options_model(ID)
    test_text_boards.test_text_board_shows_scores_and_no_secret(ID)  # every seat named, no secret, alt text


async def test_someone_can_always_act_in_it(tmp_path):
    """The table's generic check: at every point, against the AI, someone can act until the end.
    (test_ai_chains needs a game of 20 moves or more to measure its AI chains: Coin Count is shorter.)"""
    await test_table.test_someone_can_always_act(tmp_path, ID, 1)


async def test_lobby_moves_board_and_text_board_through_the_service(tmp_path):
    svc = await service_on(str(tmp_path / "bot.db"), render=True)
    alice, bob = user("alice"), user("bob")
    try:
        out = await svc.handle(ctx(alice), "new", {"game": ID, "seed": 7})
        assert "Coin Count" in out[0].text
        await svc.handle(ctx(bob), "join", {})
        sent = await svc.handle(ctx(alice), "start", {})
        loaded = await svc.load(CH)
        secret = {seat: loaded.state.endorsements[seat] for seat in range(2)}
        channel = [m for m in sent if m.to == "channel"]
        for seat, player in enumerate((alice, bob)):  # the hand reaches its own player only
            hand = await svc.handle(ctx(player), "hand", {})
            assert secret[seat] in " ".join(m.text for m in hand) and all(m.to != "channel" for m in hand)
        moves = 0
        while loaded.record.status == "playing" and moves < 20:  # 15 voters, 2 a turn (the last alone)
            seat = GAME.to_act(loaded.state)[0]
            step = min(2, loaded.state.undecided)
            out = await svc.handle(ctx((alice, bob)[seat]), "do", {"action": f"canvass {step}"})
            channel += [m for m in out if m.to == "channel"]
            loaded = await svc.load(CH)
            moves += 1
        assert moves == 8 and GAME.result(loaded.state).finished
        shown = [m for m in channel if m.view is not None]
        assert shown and all(m.game_id == ID for m in shown)
        before_the_end = " ".join(m.text + m.board + m.alt for m in channel[:-1])
        assert not [name for name in ENDORSEMENTS if name in before_the_end]  # the channel never saw a secret
        final = shown[-1]
        [(name, png)] = render_board(ID, final.view)
        image = Image.open(BytesIO(png))
        assert name == "coin-count.png" and image.width == 400
        board = text_board(ID, final.view)
        assert "The count is over: alice wins." in board or "The count is over: bob wins." in board
        assert all(secret[s] in board for s in secret)  # shown to everyone once the count ends
        [status] = [m for m in await svc.handle(ctx(bob), "status", {}) if m.to == "channel"]
        assert status.board == board
        assert final.alt == alt_text(ID, final.view) and "Coin Count board" in final.alt
    finally:
        await svc.store.close()


TRANSCRIPT = """\
alice: /politics new game:coin-count seed:3 settings:"voters=7"
bob: /politics join
alice: /politics start
alice: /politics do action:canvass 3
bob: /politics do action:canvass 4
bob: /politics do action:canvass 3
bob: /politics do action:canvass 1
alice: /politics do action:canvass 1
alice: /politics status
"""


async def test_a_transcript_plays_it_with_images(tmp_path):
    runner = await TranscriptRunner.create(str(tmp_path / "t.db"), render=True, image_dir=str(tmp_path / "img"))
    out: list[dict] = []
    try:
        for line in TRANSCRIPT.splitlines():
            out += await runner.run_line(line)
        final = (await runner.final())["final"]
    finally:
        await runner.close()
    texts = [e["text"] for e in out]
    assert any("can win over 1 to 3" in t for t in texts)  # bob's 4: the rule that stops him, in one sentence
    assert any("It is not your turn" in t for t in texts)  # bob again, before alice
    assert final["winners"] == ["bob"]  # 3 + 3 (Veterans League) against 3 + 1 + 1 (Teachers Union)
    assert final["game"] == ID and final["finished"] and final["winners"]
    assert sum(len(e["images"]) for e in out) >= 3 and all(n == "coin-count.png" for e in out for n in e["images"])
    [status] = [e for e in out if "board" in e]
    assert "The count is over" in status["board"]
    assert not any("Something went wrong" in t or "Traceback" in t for t in texts)


def test_simulate_plays_it_headless():
    out = simulate(ID, 30, seed=2)
    assert out["games"] == out["finished"] == 30 and out["errors"] == 0
    assert out["endings"] == {"count": 30}
    short = simulate(ID, 5, seed=2, options=dict(GAME.short_settings))
    assert short["finished"] == 5


def test_the_ai_beats_a_random_canvasser():
    vs_random = simulate(ID, 200, seed=9, ai_seats={0})
    assert vs_random["winners"]["0"] > vs_random["winners"]["1"]


def test_an_installed_game_is_found_by_its_entry_point_in_a_new_process(tmp_path):
    """A package declaring `politics_bot.games` is a game of every process: here a bare dist-info
    (what an install writes) on the path, and the CLI simulates and replays it."""
    dist = tmp_path / "coin_count_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: coin-count-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\ncoin-count = tests.coin_count:GAME\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    cli = [sys.executable, "-m", "bot.cli"]
    proc = subprocess.run([*cli, "simulate", ID, "-n", "5"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["finished"] == 5
    script = tmp_path / "game.txt"
    script.write_text(TRANSCRIPT)
    proc = subprocess.run([*cli, "replay", str(script), "--images", str(tmp_path / "img")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    final = json.loads(proc.stdout.splitlines()[-1])["final"]
    assert final["game"] == ID and final["finished"]
    assert sorted(os.listdir(tmp_path / "img"))[-1].endswith("coin-count.png")
