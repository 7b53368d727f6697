"""The local table: scripted stdin, and a real pseudo-terminal."""
from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time

from bot.table import run_table

ENV = {**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": os.getcwd()}


async def test_scripted_game_to_the_end(tmp_path):
    # Choose the first offered control again and again: menus lead to legal moves.
    stdin = io.StringIO("1\n" * 200)
    stdout = io.StringIO()
    code = await run_table("primary-general", 1, 4, str(tmp_path / "img"), str(tmp_path / "t.db"), stdin=stdin, stdout=stdout)
    text = stdout.getvalue()
    assert code == 0
    assert "#game" in text and "(only you)" in text
    assert "Game over" in text
    assert "AI-Lincoln" in text
    assert "Traceback" not in text


async def test_typed_moves_and_bad_input(tmp_path):
    stdin = io.StringIO("dance\nplay unicorn you\nhand\nquit\n")
    stdout = io.StringIO()
    code = await run_table("primary-general", 1, 4, str(tmp_path / "img"), str(tmp_path / "t.db"), stdin=stdin, stdout=stdout)
    text = stdout.getvalue()
    assert code == 0
    assert "not a move" in text or "not your turn" in text.lower()
    assert "Your hand" in text


async def test_game_survives_quitting_and_coming_back(tmp_path):
    db = str(tmp_path / "t.db")
    await run_table("primary-general", 1, 4, str(tmp_path / "img"), db, stdin=io.StringIO("1\n1\nquit\n"), stdout=io.StringIO())
    out = io.StringIO()
    await run_table("primary-general", 1, 4, str(tmp_path / "img"), db, stdin=io.StringIO("/politics status\nquit\n"), stdout=out)
    assert "opened a lobby" not in out.getvalue()  # resumed, not restarted
    assert "to play" in out.getvalue() or "Game over" in out.getvalue()


def test_run_without_token_and_without_terminal_exits_cleanly(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "run"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env=ENV, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0
    assert "No DISCORD_TOKEN" in proc.stdout and "Traceback" not in proc.stderr + proc.stdout


def test_run_without_token_opens_the_table_in_a_terminal(tmp_path):
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "run", "--game", "primary-general"],
                            stdin=slave, stdout=slave, stderr=slave, env=ENV, cwd=tmp_path)
    os.close(slave)
    seen = b""
    deadline = time.time() + 60
    sent = False
    while time.time() < deadline and proc.poll() is None:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
        if not sent and b"> " in seen:
            os.write(master, b"quit\n")
            sent = True
    proc.wait(timeout=30)
    os.close(master)
    text = seen.decode(errors="replace")
    assert "local table" in text and "#game" in text
    assert proc.returncode == 0 and "Traceback" not in text
