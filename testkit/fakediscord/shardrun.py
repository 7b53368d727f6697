"""Bot processes splitting shards on one database, and players clicking in bursts: the pieces of
tests/test_shards_scale.py.

    proc = BotProcess(fake, database, "a1", Shards(4, (0, 1)), ai_delay=0.3).start()
    await proc.ready()            # the fake has a live session of each of its shards
    proc.fired                    # [(channel, version, moves)] from its FIRED lines
    proc.kill(); proc.stop()      # SIGKILL; SIGTERM and wait
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from bot.shards import Shards

from .server import FakeDiscord
from .stored import FakeInteraction, Sent

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class BotProcess:
    """testkit/fakediscord/botproc.py with POLITICS_TEST_TIMERS: AI seats on their clock."""

    def __init__(self, fake: FakeDiscord, database: str, token: str, shards: Shards, *, ai_delay: float,
                 log_dir: str) -> None:
        self.fake, self.database, self.token, self.shards = fake, database, token, shards
        self.ai_delay = ai_delay
        self.log_path = os.path.join(log_dir, f"bot-{token}.log")
        self.fired: list[tuple[str, int, int]] = []
        self.lost: list[str] = []  # channels whose due timer another process fired first
        self.proc: subprocess.Popen | None = None
        self.ended = False  # killed or stopped: a commit it made may not have been reported

    def start(self) -> BotProcess:
        env = {**os.environ, "PYTHONPATH": ROOT, "SHARD_COUNT": str(self.shards.count),
               "SHARD_IDS": ",".join(map(str, self.shards.ids)), "AI_DELAY": str(self.ai_delay),
               "POLITICS_TEST_TOKEN": self.token, "POLITICS_TEST_TIMERS": "1"}
        log = open(self.log_path, "w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "testkit.fakediscord.botproc", self.fake.api_base, self.fake.gateway_url,
             self.database], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True)
        log.close()
        threading.Thread(target=self._read, daemon=True).start()
        return self

    @property
    def process(self) -> subprocess.Popen[str]:
        if self.proc is None:
            raise RuntimeError(f"bot process {self.token} was never started")
        return self.proc

    def _read(self) -> None:
        out = self.process.stdout
        assert out is not None  # started with stdout=PIPE
        for line in out:
            words = line.split()
            if len(words) == 4 and words[0] == "FIRED":
                self.fired.append((words[1], int(words[2]), int(words[3])))
            elif len(words) == 2 and words[0] == "LOST":
                self.lost.append(words[1])

    async def ready(self, timeout: float = 60.0) -> None:
        def up() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(f"bot process {self.token} exited; see {self.log_path}")
            live = self.fake.shard_sessions()
            return all(i in live and live[i].token == self.token for i in self.shards.ids)
        await self.fake.wait_for(up, timeout=timeout)

    def kill(self) -> None:
        """kill -9: no goodbye, nothing flushed."""
        self.ended = True
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """SIGTERM, as a deployment stops a process (the bot installs no handler: it ends at once)."""
        self.ended = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@dataclass
class Attempt:
    """One move a player tried: a `/politics do` or a walk through the controls panel."""
    channel: str
    kind: str  # "do" | "panel"
    interactions: list[FakeInteraction] = field(default_factory=list)
    panel: Sent | None = None
    done: bool = False  # the player was told "✓ Done"

    def settle(self) -> None:
        texts = [i.text() for i in self.interactions] + ([self.panel.content] if self.panel else [])
        self.done = self.done or any("✓ Done" in t for t in texts)


async def answered(fake: FakeDiscord, inter: FakeInteraction, timeout: float = 20.0, edited: Sent | None = None,
                   edits: int = 0) -> bool:
    """Wait until the interaction has a reply that is not "thinking…" (or `edited` was edited);
    False at once when the process it went to is gone (its session died: killed)."""
    deadline = time.monotonic() + timeout
    session = fake.sessions.get(inter.session)
    while time.monotonic() < deadline:
        if edited is not None and edited.edits > edits:
            return True
        if any(not m.flags & 128 and not m.deleted for m in inter.replies):
            return True
        if session is None or not session.live:
            return False
        await asyncio.sleep(0.05)
    return False


async def do_move(user, channel: str, action: str) -> Attempt:
    attempt = Attempt(channel, "do")
    attempt.interactions.append(await user.slash_raw("do", {"action": action}, channel=channel, settle=False))
    await answered(user.fake, attempt.interactions[0])
    attempt.settle()
    return attempt


async def panel_move(user, channel: str, board: Sent) -> Attempt:
    """"Open my controls" on the board, then the first choice of each menu until the move is made
    (all in the server's channel: ephemeral replies, served by the shard's process)."""
    attempt = Attempt(channel, "panel")
    opened = await user.click(board, "Open my controls", settle=False)
    attempt.interactions.append(opened)
    if not await answered(user.fake, opened) or opened.last_reply() is None:
        return attempt
    panel = attempt.panel = opened.last_reply()
    for _ in range(6):
        if "✓ Done" in panel.content:
            break
        if panel.selects():
            options = panel.selects()[0].get("options", [])
            if not options:
                break
            edits = panel.edits
            inter = await user.select(panel, [options[0]["value"]], settle=False)
        else:
            moves = [b for b in panel.buttons() if b.get("label") not in ("← Back", "My hand", "Open my controls")]
            if not moves:
                break
            edits = panel.edits
            inter = await user.click(panel, custom_id=moves[0]["custom_id"], settle=False)
        attempt.interactions.append(inter)
        if not await answered(user.fake, inter, edited=panel, edits=edits):
            break
        if panel.edits == edits and inter.last_reply() is not None:
            panel = attempt.panel = inter.last_reply()  # a reply of its own instead of an edit
    attempt.settle()
    return attempt
