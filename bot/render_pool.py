"""Board images off the event loop, on every core.

Renderers are pure functions of the public view (render/<game>.py), so a board is drawn in a
worker process: the bot's own process keeps its core (and the GIL) for answering players, and
two renders run at once on a two-core machine where threads could only take turns.

`render_board` is the one way to draw a board, in a worker or in process (transcripts, the
local table): given the view that was last sent in the channel, the renderer returns only the
images that changed (a race-white-house move that touched one sheet sends that sheet).
"""
from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from collections.abc import Mapping
from typing import Any

from render import get_renderer

from .messages import Images

log = logging.getLogger("politics.render")


def render_board(game_id: str, view: Mapping[str, Any], previous: Mapping[str, Any] | None = None) -> Images:
    """The board images of `view`; with `previous` (the view last shown), only those that changed."""
    renderer = get_renderer(game_id)
    if renderer is None or (previous is not None and previous == view):
        return []
    return renderer(view, previous)


def pool_size() -> int:
    """One worker per core the process may use: more would only take turns."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


WORKER_NICENESS = 10  # render workers yield the CPU to the bot's own process (acks and replies first)


def _exit_with(owner: int) -> None:
    """A worker outlives a bot process that is killed (the forkserver and its workers keep each
    other alive): check once a second that the bot still runs, and leave when it does not."""
    while True:
        time.sleep(1.0)
        try:
            os.kill(owner, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            pass


def _warm(owner: int) -> None:
    threading.Thread(target=_exit_with, args=(owner,), daemon=True, name="render-owner-watch").start()
    # Ctrl-C at the table reaches the whole process group: a worker that took it could die holding
    # the pool's queue lock and hang the bot's exit. The bot alone handles it and closes the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    # Fonts, palettes and base maps are cached at module level: import the renderers once.
    from engines import all_games
    for game_id in all_games():
        get_renderer(game_id)


class RenderPool:
    """A process pool for board renders. `processes=False` runs them in threads instead
    (tests that patch a renderer, and machines where processes can't be started)."""

    def __init__(self, workers: int | None = None, *, processes: bool = True) -> None:
        self.workers = workers or pool_size()
        self.processes = processes
        self._executor: Executor | None = None
        # Held by whoever is about to render (bot.delivery): at most one render per worker is
        # asked for, so none waits inside the pool while a newer board for its channel exists.
        self.slots = asyncio.Semaphore(self.workers)
        self.initializer = _warm  # each worker's first call (a test harness may add to it)

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                # forkserver: a clean child, not a fork of a process with an event loop and SQLite threads.
                context = multiprocessing.get_context("forkserver")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=self.initializer,
                                                     initargs=(os.getpid(),))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="render")
        return self._executor

    def start(self) -> None:
        """Start the workers now (they import the renderers), not on the first move."""
        pool = self._pool()
        if self.processes:
            for _ in range(self.workers):
                pool.submit(int)

    async def render(self, game_id: str, view: Mapping[str, Any],
                     previous: Mapping[str, Any] | None = None) -> Images:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), render_board, game_id, view, previous)
        except BrokenProcessPool:
            # A worker died (out of memory, killed): start a fresh pool and draw it once more.
            log.warning("render worker died; restarting the pool")
            self.close()
            return await loop.run_in_executor(self._pool(), render_board, game_id, view, previous)

    async def ping(self) -> bool:
        """The pool runs a no-op job (the health check): False when it was never started or is closed."""
        if self._executor is None:
            return False
        await asyncio.get_running_loop().run_in_executor(self._executor, int)
        return True

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
