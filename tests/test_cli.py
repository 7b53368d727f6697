"""The politics-bot command: simulate, render, bench."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

import bot.bench as bench
from engines import all_games, get_game
from render import get_renderer


def cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True, text=True, timeout=timeout)


def test_simulate_prints_one_json_object():
    proc = cli("simulate", "primary-general", "-n", "20", "--players", "3", "--seed", "5")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    for key in ("game", "games", "finished", "errors", "seconds", "games_per_second", "actions", "winners"):
        assert key in out
    assert out["games"] == out["finished"] == 20 and out["errors"] == 0
    assert sum(out["winners"].values()) == 20 and set(out["winners"]) == {"0", "1", "2"}


def test_simulate_reports_game_length_in_rounds_and_takes_settings():
    from bot.simulate import simulate
    short = simulate("race-white-house", 6, seed=1, ai_seats={0, 1})
    sheets = simulate("race-white-house", 6, seed=1, ai_seats={0, 1}, options={"blocks": "rulebook"})
    for out in (short, sheets):
        assert set(out["rounds"]) == {"median", "p10", "p90", "max"}
        assert 1 <= out["rounds"]["p10"] <= out["rounds"]["median"] <= out["rounds"]["p90"] <= out["rounds"]["max"]
    assert sheets["rounds"]["median"] > short["rounds"]["median"]  # the rulebook's sheets take longer
    assert "rounds" not in simulate("primary-general", 4, seed=1)  # its state counts no rounds


def test_simulate_is_repeatable():
    a = json.loads(cli("simulate", "primary-general", "-n", "10", "--seed", "3").stdout)
    b = json.loads(cli("simulate", "primary-general", "-n", "10", "--seed", "3").stdout)
    assert a["winners"] == b["winners"] and a["actions"] == b["actions"]


def test_simulate_counts_how_politics_trivia_games_ended_and_takes_settings():
    proc = cli("simulate", "politics-trivia", "-n", "6", "--players", "3", "--seed", "4",
               "--settings", "max_rounds=2 stall_rounds=0")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out["endings"]) == {"270", "runoff", "speed", "limit"}
    assert sum(out["endings"].values()) == out["finished"] == 6
    assert out["endings"]["limit"] == 6  # two rounds cannot reach 270: the round limit ends them all
    proc = cli("simulate", "politics-trivia", "-n", "4", "--seed", "4", "--settings", "wildcards=off")
    out = json.loads(proc.stdout)
    assert out["errors"] == 0 and sum(out["endings"].values()) == 4
    assert "endings" not in json.loads(cli("simulate", "primary-general", "-n", "2").stdout)


def test_random_seats_in_simulate_never_vote_wrapup():
    from bot.simulate import simulate
    # a strength test: seat 1 plays at random against the AI, and never votes `wrapup`
    out = simulate("politics-trivia", 20, players=2, seed=1, ai_seats={0}, options={"max_rounds": 3})
    assert out["endings"] == {"270": 0, "runoff": 0, "speed": 0, "limit": 20}


@pytest.mark.parametrize("args,words", [
    (("--settings", "max_rounds=2 foo=1"), "The setting 'foo' is not valid"),
    (("--settings", "max_rounds=soon"), "The setting 'max_rounds' is not valid"),
    (("--settings", "max_rounds"), "key=value"),
    (("--ai-seats", "0,x"), "--ai-seats takes"),
    (("--players", "9"), "2 to 8 players"),
])
def test_simulate_refuses_bad_input_in_one_sentence(args, words):
    proc = cli("simulate", "politics-trivia", "-n", "2", *args)
    assert proc.returncode == 1 and words in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_unknown_game_is_one_line():
    proc = cli("simulate", "chess")
    assert proc.returncode == 1 and "no game called" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("game_id", sorted(g for g in all_games() if get_renderer(g)))
def test_render_writes_pngs(tmp_path, game_id):
    proc = cli("render", game_id, "--seed", "2", "--actions", "15", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    files = [line for line in proc.stdout.splitlines() if line.endswith(".png")]
    assert files
    for f in files:
        with open(f, "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n"


async def test_bench_measures_against_floors(monkeypatch):
    monkeypatch.setattr(bench, "CHANNELS", 20)
    play = bench.bench_random_play("primary-general", seconds=0.05)
    assert play["games_per_second"] > 0 and play["errors"] == 0
    layer = await bench.bench_actions("primary-general", samples=30)
    assert layer["bare_commit_median_ms"] > 0 and layer["action_p99_over_commit"] > 0
    assert layer["stored_bytes_median"] > 100


def test_search_bench_times_the_same_searches_against_the_reference(monkeypatch, capsys):
    """`bench --search`: every game's positions are found and searched; states per second are read
    against the reference workload of the same run, and the table says where hard plays normal's move."""
    from bot import bench_search
    from bot.cli import main
    from engines.search import policy
    monkeypatch.setattr(bench_search, "ITERATIONS", dict.fromkeys(bench_search.ITERATIONS, 4))
    off = replace(policy.SETTINGS["politics-1952"], search=False)  # as if its hard played normal's move
    monkeypatch.setitem(policy.SETTINGS, "politics-1952", off)
    for game_id in bench_search.ITERATIONS:
        assert len(bench_search.positions(get_game(game_id))) == len(bench_search.SEEDS), game_id
    args = ["bench", "--search", "--quick", "--markdown", "--game", "us-president", "--game", "politics-1952"]
    assert main(args) == 0
    table = capsys.readouterr().out
    assert "| us-president | 4 |" in table
    assert "politics-1952 (hard plays normal's move" in table
    result = bench_search.bench_search("race-white-house", repeats=1)
    assert result["iterations_per_second"] > 0 and result["clones_per_second"] > 0
    assert result["states_per_1000_shuffles"] > 0 and result["positions"] == 3


def test_render_floor_is_the_renderers_own_encoder_and_bytes_per_move_count_changes_only():
    race = bench.bench_render("race-white-house", rounds=1, moves=6)
    assert race["own_encode_median_ms"] > 0 and race["bare_encode_median_ms"] > 0
    # a full board is four images; a move sends only the ones it changed
    assert race["images"] == 4 and race["kb_per_move_max"] < race["all_images_kb"]
    # a game whose moves are typed (trivia answers) is played on by its timers
    assert bench.bytes_per_move("politics-trivia", moves=4)["max_kb"] > 0


def test_live_bench_runs_the_bot_process_against_the_fake_discord():
    from bot.bench_live import run_live
    out = run_live([4], quick=True, rates=[8.0], seconds=1.5)
    r = out["results"]["4"]
    for key in ("missed_acks", "sustained_actions_per_second", "requests_per_move"):
        assert key in r
    step = r["steps"][0]
    assert step["done"] > 0 and step["errors"] == 0 and r["missed_acks"] == 0
    assert r["burst"]["done"] >= 1
    assert step["requests_by_kind_per_move"]["interaction callback"] >= 1


def test_live_soak_reads_the_memory_of_the_bot_and_each_render_worker():
    from bot.bench_live import markdown_live, run_live
    from bot.render_pool import pool_size
    out = run_live([3], soak=(15.0, 24), rss_every=10)
    r = out["results"]["3"]
    assert r["soak"]["done"] > 0 and r["soak"]["errors"] == 0 and r["steps"] == []  # no ladder of rates
    readings = r["rss_by_moves"]
    assert readings and [m["moves"] for m in readings] == [10 * (i + 1) for i in range(len(readings))]
    for m in readings:
        assert 0 < m["bot_anon_mb"] < m["bot_mb"]
        assert len(m["each_worker_mb"]) == pool_size() and all(w > 0 for w in m["each_worker_mb"])
        assert abs(m["workers_mb"] - sum(m["each_worker_mb"])) < 0.5
    table = markdown_live(out, "here")
    assert table.count("| here | 3 |") == len(readings)


# ---- --help: every argument explained, the games named from the registry -------------------------

def _subparsers(parser):
    import argparse
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


def test_every_argument_of_every_command_has_help_text():
    from bot.cli import build_parser
    commands = _subparsers(build_parser())
    assert set(commands) >= {"run", "play", "simulate", "render", "bench", "replay"}
    for name, parser in commands.items():
        assert parser.description, f"{name} --help has no description"
        for action in parser._actions:
            if action.dest == "help":
                continue
            what = "/".join(action.option_strings) or action.dest
            assert action.help and len(action.help.split()) >= 3, f"{name} {what} has no help text"


def test_help_names_the_games_from_the_registry(monkeypatch):
    from bot import cli
    shown = cli.build_parser().format_help()
    for game_id, game in all_games().items():
        assert game_id in shown and game.title in shown
    # read from the registry, not written down: a new game shows up by itself
    monkeypatch.setattr(cli, "games_listing", lambda: [("brand-new-game", "New, 2–3 players")])
    assert "brand-new-game" in cli.build_parser().format_help()
    for name, parser in _subparsers(cli.build_parser()).items():
        if name in ("run", "play", "simulate", "render", "bench"):  # the commands that take a GAME
            assert "brand-new-game" in parser.format_help(), name


def test_help_is_printed_without_a_traceback():
    for args in (["--help"], ["run", "--help"], ["play", "--help"], ["simulate", "--help"], ["render", "--help"],
                 ["bench", "--help"], ["replay", "--help"]):
        proc = cli(*args, timeout=60)
        assert proc.returncode == 0 and "usage: politics-bot" in proc.stdout and not proc.stderr, args
