"""A clean stop: SIGTERM to a bot process in the middle of a burst of moves (through the fake
Discord). The bot answers new interactions "Restarting — try again in a moment.", finishes those
in flight, sends every message of every acknowledged move, clears its outbox and exits 0 within
STOP_SECONDS; a new process on the same database then has nothing left to send, and nothing was
posted twice."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections import Counter

from bot.discord_app import RESTARTING
from testkit.fakediscord import FakeDiscord
from testkit.fakediscord.driver import GameRun, latest, lobby_of_two, take_turn

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STOP_SECONDS = 8
CHANNELS = 4


def spawn(fake: FakeDiscord, db: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": ROOT, "STOP_SECONDS": str(STOP_SECONDS)}
    return subprocess.Popen([sys.executable, "-m", "testkit.fakediscord.botproc", fake.api_base, fake.gateway_url, db],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


async def test_sigterm_mid_burst_delivers_every_acknowledged_move_once_and_exits_0(tmp_path):
    fake = await FakeDiscord().start()
    settle = fake.settle

    async def quiet_settle(timeout: float = 30.0, quiet: float = 0.3) -> None:
        await settle(timeout, max(quiet, 0.3))  # the bot is another process: settled = nothing sent for a while

    fake.settle = quiet_settle  # type: ignore[method-assign]
    db = str(tmp_path / "stop.db")
    proc = spawn(fake, db)
    try:
        await fake.wait_for(lambda: fake.identifies >= 1 and fake.connected.is_set(), timeout=30)
        await fake.settle(30, 0.3)
        alice, bob = fake.user("alice"), fake.user("bob")
        channels = [fake.add_channel(f"stop-{i}") for i in range(CHANNELS)]
        for ch in channels:
            await alice.slash("/politics new game:primary-general seed:21", channel=ch)
            await bob.click(latest(fake.public(ch), "Join"), "Join")
            await alice.slash("/politics start", channel=ch)
        await fake.settle(30, 0.3)
        rng = random.Random(4)
        runs = {ch: GameRun("primary-general", ch) for ch in channels}

        async def burst_move(user, ch):
            return await take_turn(fake, user, ch, "do", rng, runs[ch], ["a"])

        # The burst: every seat of every game moves at once; SIGTERM lands while it is under way.
        burst = [asyncio.create_task(burst_move(user, ch)) for ch in channels for user in (alice, bob)]
        await asyncio.wait(burst, return_when=asyncio.FIRST_COMPLETED)  # the first move is answered, others are not
        proc.send_signal(signal.SIGTERM)
        done = await asyncio.gather(*burst)
        # A click after the stop began: answered in one sentence (if the gateway is still up), never applied.
        late = await alice.slash("/politics status", channel=channels[0])
        # The bot bounds its own stop by STOP_SECONDS (its deadline, on its clock); this wait only
        # tells a hung process from a slow one on a busy machine, so it asserts no speed.
        out, _ = await asyncio.to_thread(proc.communicate, timeout=STOP_SECONDS + 60)
        assert proc.returncode == 0 and "STOPPED" in out
        assert late.callbacks == 0 or RESTARTING in late.text()  # refused in one sentence, or never delivered
        assert any(done), "no move of the burst was acknowledged before the stop"

        # Everything acknowledged went out before the exit: nothing is left in the outbox to redeliver.
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0
        sent_before_restart = len(fake.sent)
        # Each channel's board for each applied move is there, once.
        for ch in channels:
            version_lines = Counter(m.content for m in fake.public(ch))
            assert all(n == 1 for n in version_lines.values()), [c[:60] for c, n in version_lines.items() if n > 1]

        # A new process on the same database: nothing to send, nothing sent twice.
        proc = spawn(fake, db)
        await fake.wait_for(lambda: fake.identifies >= 2 and fake.connected.is_set(), timeout=30)
        await fake.settle(30, 0.5)
        assert len(fake.sent) == sent_before_restart
        assert fake.nonce_repeats == 0
        # Only the late interaction may be unanswered: sent as the gateway closed, Discord had no one to give it to.
        assert all(i.id == late.id for i in fake.unanswered())
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await fake.stop()


async def test_a_stop_ends_at_its_bound_and_keeps_what_it_could_not_send(harness):
    """Discord never answers the board's post (held): the clean stop still ends, at its own
    deadline, and the move's messages stay in the outbox for the next process (redeliver), not lost.
    The generous wait below only tells a hung stop from a slow machine."""
    fake = harness.fake
    runner = await harness.start_bot(render=False)
    ch, alice, _bob = await lobby_of_two(fake)
    fake.hold_posts = True
    start = await alice.slash("/politics start", channel=ch, settle=False)
    await fake.wait_for(lambda: fake.held >= 1, timeout=30)  # the board's post hangs at Discord
    assert start.callbacks == 1  # the command itself was acknowledged
    client = runner.client
    await asyncio.wait_for(client.stop_cleanly(0.2), timeout=60)
    assert client.is_closed()
    assert await harness.service.pending_outbox(), "the unsent board was dropped instead of kept"
    fake.hold_posts = False
