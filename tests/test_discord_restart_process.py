"""The bot as its own process: kill -9 it mid-game, start a new process on
the same SQLite file, and the game and its old buttons carry on."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys

from testkit.fakediscord import FakeDiscord
from testkit.fakediscord import driver
from testkit.fakediscord.driver import GameRun, latest, take_turn
from testkit.fakediscord.figures import record_fake

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUIET = 0.3  # the bot is in another process: "settled" means nothing sent for this long


def spawn(fake: FakeDiscord, db: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.Popen([sys.executable, "-m", "testkit.fakediscord.botproc", fake.api_base, fake.gateway_url, db],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Quiet:
    """Wraps the fake so every settle waits for a quiet period."""

    def __init__(self, fake):
        self.fake = fake
        self._settle = fake.settle

    async def settle(self, timeout: float = 30.0, quiet: float = QUIET) -> None:
        await self._settle(timeout, quiet)


async def lobby_of_two(fake, settings: str = ""):
    """Once the bot is connected: alice opens a primary-general lobby (seed 21) and bob joins."""
    await fake.wait_for(lambda: fake.identifies >= 1 and fake.connected.is_set(), timeout=30)
    await fake.settle()
    return await driver.lobby_of_two(fake, seed=21, settings=settings)


async def test_kill_9_the_bot_process_and_start_a_new_one(tmp_path):
    fake = await FakeDiscord().start()
    fake.settle = Quiet(fake).settle  # the fixture's own waiting, not the bot's code
    db = str(tmp_path / "proc.db")
    proc = spawn(fake, db)
    try:
        ch, alice, bob = await lobby_of_two(fake)
        await alice.slash("/politics start", channel=ch)
        run, rng = GameRun("primary-general", ch), random.Random(2)
        for user in (alice, bob):
            if await take_turn(fake, user, ch, "do", rng, run, ["a"]):
                run.human_actions += 1
        assert run.human_actions >= 1
        # the boards are drawn in the bot's render workers, which may still be starting: wait for them
        await fake.wait_for(lambda: any("✓ Done" not in m.content and "Open my controls" in m.labels()
                                        for m in fake.public(ch)), timeout=30)
        await fake.settle()
        old_board = latest(fake.public(ch), "Open my controls")
        messages_before = len(fake.sent)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc = spawn(fake, db)
        await fake.wait_for(lambda: fake.identifies >= 2 and fake.connected.is_set(), timeout=30)
        await fake.settle()
        assert len(fake.sent) == messages_before  # nothing re-sent, nothing revealed on start-up
        for user in (alice, bob):
            inter = await user.click(old_board, "Open my controls")
            assert inter.latency is not None
            panel = inter.last_reply()
            assert panel is not None and panel.visible_to == user.id and "Something went wrong" not in panel.content
        before = run.human_actions
        for _round in range(3):  # the game goes on (the in-process restart test plays to the end)
            for user in (alice, bob):
                if await take_turn(fake, user, ch, "do", rng, run, ["a"]):
                    run.human_actions += 1
        assert run.human_actions > before
        assert not fake.unanswered()
        record_fake("bot process killed (-9) and restarted", fake, restarts=1, kills=1,
                    human_actions=run.human_actions, actions_lost=0)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        await fake.stop()


async def test_kill_9_right_after_start_was_acknowledged_delivers_board_and_dms_once(tmp_path):
    """The issue's crash: the game row said `playing`, but no board, no DMs, and "thinking…"
    forever. Now what a commit must say is in the outbox with it; here Discord has already
    created the board when the bot dies (its answer never came back), so the restarted bot sends
    it again with the same nonce, and Discord (enforce_nonce) hands back the first one."""
    fake = await FakeDiscord().start()
    fake.settle = Quiet(fake).settle
    db = str(tmp_path / "outbox.db")
    proc = spawn(fake, db)
    try:
        ch, alice, bob = await lobby_of_two(fake)
        fake.hold_posts = True
        start = await alice.slash("/politics start", channel=ch, settle=False)
        await fake.wait_for(lambda: fake.held >= 1, timeout=30)  # the board reached Discord ...
        assert start.callbacks == 1  # ... after the command was acknowledged ("thinking…")
        os.kill(proc.pid, signal.SIGKILL)  # ... and the bot dies before it hears back
        proc.wait()
        fake.hold_posts = False
        # The DMs go out in their own lanes beside the board (they may have reached Discord too,
        # unanswered like it): after the restart each must still arrive exactly once.

        proc = spawn(fake, db)
        await fake.wait_for(lambda: fake.identifies >= 2 and fake.connected.is_set(), timeout=30)
        await fake.wait_for(lambda: all(fake.dms(u) for u in (alice, bob)), timeout=30)
        await fake.wait_for(lambda: any("begins" in m.content for m in fake.public(ch)), timeout=30)
        await fake.settle()
        boards = [m for m in fake.public(ch) if "begins" in m.content]
        assert len(boards) == 1 and boards[0].buttons()  # the board, once, with its controls
        assert fake.nonce_repeats >= 1  # the resend was recognised, not posted twice
        for user in (alice, bob):
            assert len(fake.dms(user)) == 1, [m.content[:60] for m in fake.dms(user)]
        placeholder = fake.messages[start.original_id]
        assert placeholder.deleted or not placeholder.flags & 128  # "thinking…" is over (128: loading)
        # A second restart sends nothing more: every entry was delivered and cleared.
        sent = len(fake.sent)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        proc = spawn(fake, db)
        await fake.wait_for(lambda: fake.identifies >= 3 and fake.connected.is_set(), timeout=30)
        await fake.settle()
        assert len(fake.sent) == sent
        record_fake("bot killed (-9) right after /politics start was acknowledged", fake, restarts=2, kills=2,
                    redelivered_after_restart=3, resends_dropped_by_nonce=fake.nonce_repeats, messages_lost=0)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        await fake.stop()


async def test_kill_9_after_the_board_rode_a_follow_up_posts_it_once(tmp_path):
    """Issue #29's audit, defect 1: a `/politics do` sends its board as the interaction's
    follow-up (which takes no nonce); the bot dies after Discord accepted it but before the move's
    other message (the next player's DM) was answered. The restart must not post the board again:
    each message of the outbox entry is settled on its own (the board's message is stored the moment
    it is posted, and a redelivered board of the same turn edits it)."""
    fake = await FakeDiscord().start()
    fake.settle = Quiet(fake).settle
    db = str(tmp_path / "followup.db")
    proc = spawn(fake, db)
    try:
        # dm-turns=on: the move's other message is the next player's DM, as in the audit's run
        ch, alice, bob = await lobby_of_two(fake, "dm-turns=on")
        await alice.slash("/politics start", channel=ch)
        await fake.wait_for(lambda: any("begins" in m.content for m in fake.public(ch)), timeout=30)
        await fake.settle()
        fake.hold_posts = True  # channel posts and DMs reach Discord, but their answers never come back
        move = await alice.slash("/politics do action:play negative-ad alice", channel=ch, settle=False)

        def board_follow_up():
            return next((m for m in move.replies if m.visible_to is None and "Open my controls" in m.labels()), None)
        await fake.wait_for(lambda: fake.held >= 1 and board_follow_up() is not None, timeout=30)
        board = board_follow_up()
        assert "Negative Ad" in board.content
        await asyncio.sleep(0.5)  # the bot heard Discord's answer to the follow-up ...
        os.kill(proc.pid, signal.SIGKILL)  # ... and dies with the DM unanswered
        proc.wait()
        fake.hold_posts = False
        proc = spawn(fake, db)
        await fake.wait_for(lambda: fake.identifies >= 2 and fake.connected.is_set(), timeout=30)
        await fake.settle()
        # The redelivery (before the bot takes interactions) puts anything owed in the channel's lane
        # ahead of this status board: once the status board is there, a second board would be too.
        await bob.slash("/politics status", channel=ch, settle=False)
        await fake.wait_for(lambda: any("```" in m.content for m in fake.public(ch)), timeout=60)
        await fake.settle()
        boards = [m for m in fake.public(ch) if "Negative Ad" in m.content and "Open my controls" in m.labels()
                  and "```" not in m.content]  # (the status board, with its text board, is not one)
        assert boards == [board], [(m.kind, m.content[:60]) for m in boards]  # once: not posted again
        assert len(fake.dms(bob)) == len({m.content for m in fake.dms(bob)})  # the DM once, too
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        await fake.stop()
