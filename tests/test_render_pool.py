"""The render pool: boards drawn in worker processes, and workers that leave with their bot."""
from __future__ import annotations

import os
import subprocess
import sys
import time

from bot import render_pool
from bot.render_pool import render_board
from bot.simulate import play_one
from engines import get_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


async def test_the_render_pool_draws_in_processes():
    pool = render_pool.RenderPool(1)
    try:
        game = get_game("primary-general")
        state, _ = play_one(game, 2, 3, set())
        view = game.view(state, None)
        images = await pool.render("primary-general", view, None)
        assert images and images[0][1][:4] == b"\x89PNG"
        assert images == render_board("primary-general", view, None)
        assert await pool.render("primary-general", view, view) == []  # nothing changed: nothing drawn
    finally:
        pool.close()


def test_workers_leave_when_their_bot_is_killed():
    orphan = subprocess.Popen([sys.executable, os.path.join(ROOT, "tests", "render_pool_orphan.py")], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": ROOT}, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    pids = [int(p) for p in orphan.stdout.readline().split()]  # not to EOF: the workers hold the pipe
    orphan.wait(60)
    orphan.stdout.close()
    assert len(pids) == 2
    for _ in range(100):  # each worker checks once a second; give them a generous while
        alive = [p for p in pids if os.path.exists(f"/proc/{p}")]
        if not alive:
            break
        time.sleep(0.1)
    assert not alive


async def test_render_workers_yield_the_cpu_to_the_bot():
    """Drawing is the bot's heaviest work (race-white-house's four pictures): its workers run
    niced so the bot's own process (acks, "✓ Done" replies) gets a contended core first."""
    import asyncio

    pool = render_pool.RenderPool(1)
    try:
        pool.start()
        worker_nice = await asyncio.get_running_loop().run_in_executor(pool._pool(), os.nice, 0)
        assert worker_nice >= min(19, os.nice(0) + render_pool.WORKER_NICENESS) and render_pool.WORKER_NICENESS >= 10
    finally:
        pool.close()


async def test_render_workers_leave_ctrl_c_to_the_bot():
    """Ctrl-C at the table is a SIGINT to the whole process group; a worker that took it could die
    holding the pool's queue lock and hang the exit, so workers ignore it and the bot closes them."""
    import asyncio
    import signal

    pool = render_pool.RenderPool(1)
    try:
        pool.start()
        handler = await asyncio.get_running_loop().run_in_executor(pool._pool(), signal.getsignal, signal.SIGINT)
        assert handler == signal.SIG_IGN
    finally:
        pool.close()
