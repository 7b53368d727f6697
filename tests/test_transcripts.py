"""Every transcript in tests/transcripts runs through the slash-command path.

Expectation lines in a transcript start with `#!`:
  #! finished            the game ends
  #! winners alice bob   these players win
  #! lines N             at least N output lines
"""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from bot.transcript import run_transcript

HERE = pathlib.Path(__file__).resolve().parent / "transcripts"
FILES = sorted(HERE.glob("*.txt"))


def expectations(path: pathlib.Path) -> list[list[str]]:
    return [line[2:].split() for line in path.read_text().splitlines() if line.startswith("#!")]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
async def test_transcript(path):
    out = await run_transcript(str(path), render=False)
    final = out[-1]["final"]
    body = out[:-1]
    for entry in body:
        assert set(entry) >= {"to", "text", "images"}
        assert entry["to"] == "runner" or entry["to"] == "channel" or entry["to"].split(":")[0] in ("dm", "ephemeral")
        assert "Something went wrong" not in entry["text"], entry
        assert "Traceback" not in entry["text"]
    for exp in expectations(path):
        if exp[0] == "finished":
            assert final["finished"], f"{path.name} should end the game"
        elif exp[0] == "winners":
            assert sorted(final["winners"]) == sorted(exp[1:])
        elif exp[0] == "lines":
            assert len(body) >= int(exp[1])


async def test_bad_input_transcript_answers_each_line_once():
    out = await run_transcript(str(HERE / "lobby-and-bad-input.txt"), render=False)
    by_text = [e["text"] for e in out[:-1]]
    assert any("not a choice" in t for t in by_text)  # game:chess
    assert any("already has a game" in t for t in by_text)
    assert any("Only the host" in t for t in by_text)
    assert any("Not a transcript line" in t for t in by_text)
    assert any("no command /politics dance" in t for t in by_text)
    assert any("hasn't started" in t for t in by_text)
    assert any("not a player" in t for t in by_text)
    # The channel never carries a hand.
    assert not any(e["to"] == "channel" and "Your hand" in e["text"] for e in out[:-1])
    # Each player's hand reaches only that player.
    hands = {e["to"]: e["text"] for e in out[:-1] if "Your hand" in e["text"]}
    assert set(hands) <= {"dm:alice", "dm:bob", "ephemeral:bob"}


def test_replay_command_prints_json_lines(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "replay", str(HERE / "lobby-and-bad-input.txt"),
                           "--images", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert "final" in lines[-1] and lines[-1]["final"]["game"] == "primary-general"
    images = [i for e in lines[:-1] for i in e["images"]]
    if images:  # the renderer exists: files were written
        assert list(tmp_path.iterdir())
