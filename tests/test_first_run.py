"""The first run, as a newcomer meets it: scripts/start.sh installs once and passes commands on, the
commands the table prints work as printed, a resumed game shows the clock as it is now, and the bot
without a token behaves in a container (read-only folder, a user that is not root, no terminal)."""
from __future__ import annotations

import io
import os
import pathlib
import pty
import select
import shutil
import signal
import stat
import subprocess
import sys
import time

import pytest

from bot.table import board_clock, run_table
from bot.transcript import FakeClock

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENV = {**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
ENV.pop("POLITICS_BOT_COMMAND", None)

# ---- scripts/start.sh ----------------------------------------------------------------------------
# A stand-in python3 on PATH: `-m venv` makes a .venv whose python logs each pip install (printing
# setuptools' noisy deprecation box on stderr, as a real editable install does) and whose politics-bot
# prints how it was called. So the script's logic is tested in a second, without a network.
FAKE_PYTHON3 = r"""#!/usr/bin/env bash
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin"
  cat > "$3/bin/python" <<'PY'
#!/usr/bin/env bash
echo "pip $*" >> "$FAKE_LOG"
echo "********************************************************************************" >&2
echo "SetuptoolsDeprecationWarning: License classifiers are deprecated." >&2
if [ -n "$FAKE_FAIL" ]; then echo "ERROR: no matching distribution" >&2; exit 1; fi
cat > "$(dirname "$0")/politics-bot" <<'BOT'
#!/usr/bin/env bash
echo "ARGS: $*"
echo "HINT: $POLITICS_BOT_COMMAND"
echo "CWD: $PWD"
BOT
chmod +x "$(dirname "$0")/politics-bot"
PY
  chmod +x "$3/bin/python"
fi
"""


@pytest.fixture
def fake_checkout(tmp_path):
    repo = tmp_path / "politics-bot"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "start.sh", repo / "scripts" / "start.sh")
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_PYTHON3)
    (bin_dir / "python3").chmod(0o755)
    log = tmp_path / "pip.log"
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "FAKE_LOG": str(log)}
    env.pop("POLITICS_BOT_COMMAND", None)

    def start(*args, cwd=repo, script="scripts/start.sh", **extra):
        proc = subprocess.run(["bash", script, *args], cwd=cwd, env={**env, **extra}, capture_output=True,
                              text=True, timeout=60)
        installs = log.read_text().count("-e .") if log.exists() else 0
        return proc, installs
    return repo, start


def test_start_installs_once_quietly_and_again_only_when_pyproject_changes(fake_checkout):
    repo, start = fake_checkout
    proc, installs = start()
    assert proc.returncode == 0 and installs == 1
    assert "Installing politics-bot" in proc.stdout and "ARGS: run" in proc.stdout
    assert "SetuptoolsDeprecationWarning" not in proc.stdout + proc.stderr and "****" not in proc.stderr
    proc, installs = start()
    assert proc.returncode == 0 and installs == 1 and "Installing" not in proc.stdout  # no reinstall
    with open(repo / "pyproject.toml", "a") as fh:
        fh.write("\n# a new dependency, say\n")
    proc, installs = start()
    assert proc.returncode == 0 and installs == 2


def test_a_failed_install_shows_its_log_and_starts_nothing(fake_checkout):
    _repo, start = fake_checkout
    proc, _ = start(FAKE_FAIL="1")
    assert proc.returncode == 1 and "no matching distribution" in proc.stderr
    assert "nothing was started" in proc.stderr and "ARGS:" not in proc.stdout
    proc, installs = start()  # the failed install left no stamp: the next start installs
    assert proc.returncode == 0 and installs == 1 and "ARGS: run" in proc.stdout


def test_start_passes_commands_on_and_names_itself_for_the_hints(fake_checkout, tmp_path):
    repo, start = fake_checkout
    proc, _ = start("play", "us-president", "--bots", "2")
    assert "ARGS: play us-president --bots 2" in proc.stdout
    assert "HINT: bash scripts/start.sh" in proc.stdout and f"CWD: {repo}" in proc.stdout
    proc, _ = start("--game", "primary-general")  # options of run, as before
    assert "ARGS: run --game primary-general" in proc.stdout
    # from another folder: the hint is the path as typed there, and the bot still runs in the checkout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc, _ = start("play", cwd=elsewhere, script="../politics-bot/scripts/start.sh")
    assert "HINT: bash ../politics-bot/scripts/start.sh" in proc.stdout and f"CWD: {repo}" in proc.stdout


# ---- the commands the table prints work as printed ------------------------------------------------

def _entry_point() -> str:
    script = os.path.join(os.path.dirname(sys.executable), "politics-bot")
    if not os.path.exists(script):
        pytest.skip("politics-bot is not installed in this Python's environment (scripts/test.sh installs it)")
    return script


def test_hints_name_the_command_that_works_here(tmp_path):
    script = _entry_point()
    no_venv_path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                   if os.path.realpath(p) != os.path.realpath(os.path.dirname(script)))
    # the venv's politics-bot, typed by its path (it is not on PATH): the hint names that path
    proc = subprocess.run([script, "play", "--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env={**ENV, "PATH": no_venv_path})
    assert proc.returncode == 1 and f"To start one: {script} play GAME" in proc.stdout
    # started through scripts/start.sh: the hint is start.sh as typed
    proc = subprocess.run([script, "play", "--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env={**ENV, "POLITICS_BOT_COMMAND": "bash scripts/start.sh"})
    assert "To start one: bash scripts/start.sh play GAME" in proc.stdout


def test_the_printed_resume_command_resumes(tmp_path):
    """Ctrl-D in a pty, then the very command the table printed, run as printed by a shell."""
    script = _entry_point()
    env = {**ENV, "PATH": os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                          if os.path.realpath(p) != os.path.realpath(os.path.dirname(script)))}
    code, text = _pty([script, "play", "us-president", "--bots", "2", "--out", "o"], tmp_path, env, [b"\x04"])
    printed = text.split("To continue it: ", 1)[1].splitlines()[0].strip()
    assert printed == f"{script} play --resume --out o"
    code, text = _pty(["bash", "-c", printed], tmp_path, env, [b"quit\n"])
    assert code == 0 and "U.S. President" in text and "opened a lobby" not in text and "command not found" not in text


def _pty(argv, cwd, env, keys: list[bytes], budget=60.0):
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd, start_new_session=True)
    os.close(slave)
    seen, sent_at = b"", 0
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline and proc.poll() is None:
        if select.select([master], [], [], 0.3)[0]:
            try:
                seen += os.read(master, 65536)
            except OSError:
                break
            continue
        if keys and seen.endswith(b"> ") and len(seen) > sent_at:
            os.write(master, keys.pop(0))
            sent_at = len(seen)
    try:
        while select.select([master], [], [], 0.3)[0]:
            seen += os.read(master, 65536)
    except OSError:
        pass
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, seen.decode(errors="replace").replace("\r\n", "\n")


# ---- a resumed game: the clock as it is now -------------------------------------------------------

async def test_a_resumed_game_first_catches_up_with_the_clock(tmp_path):
    clock = FakeClock()

    async def table(game, script, resume=False):
        out = io.StringIO()
        await run_table(game, 1, 5, str(tmp_path / "img"), str(tmp_path / "t.db"), None, stdin=io.StringIO(script),
                        stdout=out, resume=resume, clock=clock)
        return out.getvalue()
    # to a question with its 120 s clock: discard, a region and a home, roll, a region and a state, ask
    text = await table("politics-trivia", "1\n" * 7 + "quit\n")
    assert "Time runs out in 120 s" in text
    clock.now += 50
    text = await table(None, "quit\n", resume=True)
    assert "Time runs out in 70 s" in text and "clock runs out in 70 s" in text  # the board and the table agree
    clock.now += 500  # away longer than the question's time
    text = await table(None, "quit\n", resume=True)
    board = text.index("#game")
    assert "Time is up" in text[board:] and "Time runs out now" not in text  # what fell due happened first


def test_the_text_boards_wildcard_clock_is_the_real_one():
    board = ("Wildcard (charades) for AI-Lincoln: act it out\n"
             "  stage: performing; the secret has 2 words; 120 s on the clock.")
    text = "AI-Lincoln performs.\n⏱️ Time runs out <t:1000:R>."
    assert "45 s left on the clock" in board_clock(board, text, 955.0)
    assert "no time left" in board_clock(board, text, 1001.0)
    ready = board.replace("performing", "ready")
    assert "a 120 s performance" in board_clock(ready, text, 955.0)  # before it starts: the card's length
    assert "on the clock" not in board_clock(ready, text, 955.0)


# ---- without a token, as the Docker image runs it ----------------------------------------------------

@pytest.fixture
def read_only_cwd(tmp_path):
    """A working folder the bot can't write, as the image's /app is to its user. Root ignores file
    modes, so as root (CI) the folder is also made immutable, which root can't write either."""
    folder = tmp_path / "app"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    immutable = os.geteuid() == 0
    if immutable:
        made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, text=True)
        if made.returncode != 0:
            pytest.skip(f"running as root, and chattr can't make a folder read-only here: {made.stderr.strip()}")
    try:
        yield folder
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


def test_the_image_command_without_a_token_says_so_once_and_waits_until_stopped(read_only_cwd):
    # The Dockerfile's CMD, in a folder it can't write, with no terminal.
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "run", "--wait-without-token"], cwd=read_only_cwd,
                            env={**ENV, "HOME": str(read_only_cwd)}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        assert "No DISCORD_TOKEN is set" in first and "Waiting until stopped" in second
        assert proc.poll() is None  # still up: a restart policy has nothing to restart
        proc.send_signal(signal.SIGTERM)
        rest, errors = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and not rest and not errors


def test_without_the_wait_flag_it_still_exits_at_once():
    proc = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=ROOT, env=ENV, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.count("No DISCORD_TOKEN") == 1


def test_the_table_in_a_folder_it_cannot_write_says_so_in_one_sentence(read_only_cwd):
    # `docker run -it` without a token, had the working folder not been writable: no traceback.
    code, text = _pty([sys.executable, "-m", "bot.cli", "run", "--game", "primary-general"], read_only_cwd,
                      {**ENV, "HOME": str(read_only_cwd)}, [b"quit\n"])
    assert code == 2 and "Traceback" not in text
    assert f"can't write to {read_only_cwd}/out/table" in text and "--out" in text


def test_the_table_writes_to_a_folder_given_by_out(tmp_path):
    code, text = _pty([sys.executable, "-m", "bot.cli", "run", "--game", "primary-general", "--out", "tbl"],
                      tmp_path, ENV, [b"quit\n"])
    assert code == 0 and "image: tbl/" in text and (tmp_path / "tbl" / "table.db").exists()


