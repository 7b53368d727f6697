"""`politics-bot replay FILE` on files that are not what it expects: every bad file gets one sentence
naming what is wrong and a non-zero exit, never raw Python text (issue 29's audit found `'str' object
has no attribute 'get'` and `cannot convert float infinity to integer`, and a JSON list or an empty
file taken as a transcript with exit 0). hypothesis throws malformed JSON shapes at it."""
from __future__ import annotations

import io
import json
import math
import os
import tempfile
from contextlib import redirect_stderr, redirect_stdout

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.messages import Ctx
from bot.transcript import GUILD, TranscriptRunner
from tests.test_records import play_out


def replay(path: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["replay", path, "--no-images"])
    return code, out.getvalue(), err.getvalue()


def one_sentence(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    (line,) = lines
    assert line.startswith("politics-bot: ") and "Traceback" not in line, line
    # Ours, not Python's: every answer about a bad file names the file or what kind of file it is.
    assert "game file" in line or "transcript" in line, line
    return line


@pytest.fixture(scope="module")
def game_file() -> dict:
    """A real downloaded game file (two AI seats of primary-general played to the end)."""
    import asyncio

    async def make() -> dict:
        runner = await TranscriptRunner.create(":memory:", render=False)
        try:
            await play_out(runner, "primary-general", 5, 1)
            await runner.run_line("alice: /politics history")
            outgoing = await runner.service.component(Ctx(runner.users["alice"], runner.channel, GUILD),
                                                      runner.last_rows["alice"][0][0].custom_id)
            (_, data), = outgoing[0].images
            return json.loads(data)
        finally:
            await runner.close()
    return asyncio.run(make())


def write(directory: str, text: str | bytes, name: str = "file.json") -> str:
    path = os.path.join(directory, name)
    with open(path, "wb") as fh:
        fh.write(text.encode() if isinstance(text, str) else text)
    return path


def test_the_real_file_replays(game_file, tmp_path):
    code, out, err = replay(write(str(tmp_path), json.dumps(game_file)))
    assert code == 0, err
    assert json.loads(out.splitlines()[-1])["final"]["same_as_recorded"] is True


@pytest.mark.parametrize("text, words", [
    ("", "is empty"),
    ("   \n\n", "is empty"),
    ("# only a comment\n", "no transcript lines"),
    ("[]", "a JSON list"),
    ("[1, 2, 3]", "a JSON list"),
    ('"alice: /politics new"', "a JSON string"),
    ("3", "a JSON number"),
    ("null", "JSON null"),
    ("{}", "not a politics-bot game file"),
    ('{"format": "something else"}', "not a politics-bot game file"),
    ("{\"format\": ", "not valid JSON"),
    ("[" * 100000, "not valid JSON"),
    (b"\xff\xfe\x00binary", "not text"),
    ("hello there\nthis is my shopping list\n", "no transcript lines"),
])
def test_files_that_are_neither_a_transcript_nor_a_game_file(text, words, tmp_path):
    code, out, err = replay(write(str(tmp_path), text, "file.txt"))
    assert code != 0 and out == ""
    assert words in one_sentence(err)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(players=["alice", "bob"]), "players"),
    (lambda d: d.update(players="alice"), "players"),
    (lambda d: d["log"].__setitem__(0, [math.inf, "play"]), "log"),
    (lambda d: d["log"].__setitem__(0, [math.nan, "play"]), "log"),
    (lambda d: d["log"].__setitem__(0, {"seat": 0}), "log"),
    (lambda d: d["log"].__setitem__(0, [0]), "log"),
    (lambda d: d["log"].__setitem__(0, [10 ** 30, "pass"]), "Move 1"),
    (lambda d: d["log"].__setitem__(0, [7, "pass"]), "Move 1"),
    (lambda d: d["log"].__setitem__(0, [-5, "pass"]), "Move 1"),
    (lambda d: d.update(log={"0": [0, "pass"]}), "log"),
    (lambda d: d.update(game=["primary-general"]), "game"),
    (lambda d: d.update(game="chess"), "game"),
    (lambda d: d.update(opening={"seats": []}), "opening"),
    (lambda d: d.update(opening="{}"), "opening"),
    (lambda d: d.update(opening=None), "without its moves"),
    (lambda d: d.pop("log"), "without its moves"),
    (lambda d: d.update(final=12), "did not reach its recorded final state"),
])
def test_a_damaged_game_file_is_one_sentence_naming_what_is_wrong(game_file, change, words, tmp_path):
    data = json.loads(json.dumps(game_file))
    change(data)
    code, out, err = replay(write(str(tmp_path), json.dumps(data)))
    assert code == 1
    assert words in one_sentence(err)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
FIELDS = ["format", "version", "game", "players", "opening", "log", "final", "winners", "scores", "title", "options"]


@given(JSON)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_json_that_is_not_a_game_file_is_refused_in_one_sentence(value):
    with tempfile.TemporaryDirectory() as folder:
        code, out, err = replay(write(folder, json.dumps(value)))
    assert code != 0 and out == ""
    one_sentence(err)


@given(st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
def test_a_game_file_with_any_field_replaced_is_replayed_or_refused_in_one_sentence(game_file, data):
    damaged = json.loads(json.dumps(game_file))
    for name in data.draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=3, unique=True)):
        damaged[name] = data.draw(JSON)
    if data.draw(st.booleans()) and isinstance(damaged.get("log"), list) and damaged["log"]:
        at = data.draw(st.integers(0, len(damaged["log"]) - 1))
        damaged["log"][at] = data.draw(JSON)
    with tempfile.TemporaryDirectory() as folder:
        code, out, err = replay(write(folder, json.dumps(damaged)))
    if code == 0:  # a field the replay does not need (a title, the scores) may be anything
        assert err == "" and json.loads(out.splitlines()[-1])["final"]["same_as_recorded"] is True
    else:
        assert code == 1
        one_sentence(err)
