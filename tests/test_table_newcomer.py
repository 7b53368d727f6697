"""The scripted newcomer: `politics-bot play GAME` in a real pseudo-terminal, for
each of the five games, choosing menu items as they are printed and waiting out
the clocks, until the game ends. Every image path the table prints must exist."""
from __future__ import annotations

import os
import pty
import random
import re
import select
import subprocess
import sys
import time

import pytest

from engines import Game, all_games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "DISCORD_TOKEN": "", "PYTHONPATH": ROOT, "NO_COLOR": "1"}
YOUR_MOVE = re.compile(r"-- Your move: (?:choose 1–(\d+)|type (1) \(the only choice\))")
ITEM = re.compile(r"\[(\d+)\] (.+?)(?=  \[\d+\] |\n|$)")
IMAGE = re.compile(r"image: (\S+\.png)")



def table_args(game: Game) -> list[str]:
    """The newcomer against the fewest AI seats the game takes, with the game's short settings
    (quick clocks, so waiting them out stays quick)."""
    args = ["--bots", str(game.min_players - 1)]
    if game.short_settings:
        args += ["--settings", " ".join(f"{k}={v}" for k, v in game.short_settings.items())]
    return args


GAMES = {game_id: table_args(game) for game_id, game in all_games().items()}


class Newcomer:
    """Reads the terminal; when the table prompts, picks a menu item (never '← Back'),
    or types an answer into an open text box."""

    def __init__(self, args: list[str], cwd: str, seed: int) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", *args],
                                     stdin=slave, stdout=slave, stderr=slave, env=ENV, cwd=cwd)
        os.close(slave)
        self.seen = ""
        self.read_upto = 0  # what has been acted on
        self.rng = random.Random(seed)

    def read(self, seconds: float) -> bool:
        ready, _, _ = select.select([self.master], [], [], seconds)
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        self.seen += data.decode(errors="replace").replace("\r\n", "\n")
        return bool(data)

    def type(self, text: str) -> None:
        os.write(self.master, text.encode() + b"\n")

    def choose(self) -> str | None:
        """The next line to type, if the table is waiting for one."""
        fresh = self.seen[self.read_upto:]
        if not fresh.endswith("> "):
            return None
        self.read_upto = len(self.seen)
        if "type it and press Enter" in fresh:
            return self.rng.choice(["Lincoln", "Texas", "1848", "I don't know"])
        moves = list(YOUR_MOVE.finditer(self.seen))
        if not moves:
            return None
        last = moves[-1]
        count = int(last.group(1) or last.group(2))
        labels: dict[int, str] = {}
        for m in ITEM.finditer(self.seen, 0, last.start()):
            labels[int(m.group(1))] = m.group(2)
        options = [n for n in range(1, count + 1) if not labels.get(n, "").startswith("←")]
        return str(self.rng.choice(options or [1]))

    def play(self, budget: float) -> None:
        deadline = time.monotonic() + budget
        while self.proc.poll() is None and time.monotonic() < deadline:
            if self.read(0.3):
                continue  # let a burst of output finish before answering
            line = self.choose()
            if line is not None:
                self.type(line)
        while self.read(0.2):
            pass

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        os.close(self.master)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_newcomer_finishes_every_game_at_the_table(tmp_path, game_id):
    newcomer = Newcomer([game_id, "--seed", "5", "--out", str(tmp_path / "out"), *GAMES[game_id]],
                        str(tmp_path), seed=5)
    try:
        newcomer.play(budget=900)
    finally:
        newcomer.close()
    text = newcomer.seen
    assert "Traceback" not in text and "Something went wrong" not in text
    assert "The game is over" in text, text[-3000:]
    assert newcomer.proc.returncode == 0
    assert "**" not in text and "<t:" not in text and "<@" not in text  # terminal text, not Discord markup
    images = IMAGE.findall(text)
    assert images
    for path in images:
        with open(path, "rb") as fh:
            assert fh.read(8) == b"\x89PNG\r\n\x1a\n", path
