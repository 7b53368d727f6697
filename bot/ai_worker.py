"""AI seats' moves at the game's level (`ai=easy|normal|hard`), in process or in a worker process.

`ai_move` is the one way an AI seat's move is chosen: `engines.search.choose` with the game's
`ai_rng` stream for this decision and the lobby's budget. `normal` is the game's own heuristic,
so a game at the default level plays exactly as before levels existed.

A `hard` move searches for up to its budget (a second by default). The Discord bot must not spend
that second on its event loop, so `AiWorkers` runs the search in a worker process and the play
loop polls for the result on its next visit (bot/service/play_loop.py); transcripts and the local
table (`inline_ai`) search in process, where nothing else is waiting.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engines import Action, Game, get_game
from engines.search import choose, suggest

from .render_pool import _exit_with, pool_size
from .store.game_row import BotSettings

WORKER_NICENESS = 5  # searches yield the CPU to the bot's own process (acks and replies first)


def ai_move(game: Game, state, seat: int, moves: int, settings: BotSettings, level: str | None = None) -> Action:
    """The move of `seat` at the game's level (or `level`); `moves`: moves made so far in the game
    (sum of the record's `acted`), which with the state's secret stream makes this decision's rng.
    With `ai_iterations` the move is the same on every run: the time budget is not used."""
    rng = game.ai_rng(state, seat, moves)
    iterations = settings.ai_iterations
    return choose(game, state, seat, level or settings.ai, rng,
                  budget_ms=None if iterations else settings.ai_budget_ms, iterations=iterations,
                  clock=time.perf_counter)


def ai_hint(game: Game, state, seat: int, moves: int, settings: BotSettings) -> tuple[Action, float | None]:
    """`/politics hint`: the search's move for `seat` from that seat's view, with its chance to win.
    Its own stream (seat + 1000): asking for a hint tells nothing of the AI seats' coming choices."""
    rng = game.ai_rng(state, seat + 1000, moves)
    iterations = settings.ai_iterations
    return suggest(game, state, seat, rng, budget_ms=None if iterations else settings.ai_budget_ms,
                   iterations=iterations, clock=time.perf_counter)


def search_move(game_id: str, state_text: str, seat: int, moves: int, settings_json: str) -> str:
    """In a worker: the move's text (picklable in and out)."""
    game = get_game(game_id)
    state = game.load(state_text)
    return ai_move(game, state, seat, moves, BotSettings.model_validate_json(settings_json)).text()


def search_hint(game_id: str, state_text: str, seat: int, moves: int, settings_json: str) -> tuple[str, float | None]:
    """In a worker: a hint's move text and chance to win."""
    game = get_game(game_id)
    state = game.load(state_text)
    action, chance = ai_hint(game, state, seat, moves, BotSettings.model_validate_json(settings_json))
    return action.text(), chance


def _warm(owner: int) -> None:
    import threading
    threading.Thread(target=_exit_with, args=(owner,), daemon=True, name="ai-owner-watch").start()
    # Ctrl-C at the table reaches the whole process group: a worker that took it could die holding
    # the pool's queue lock and hang the bot's exit. The bot alone handles it and closes the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    from engines import all_games
    all_games()  # import every engine once, not on the first move


class AiWorkers:
    """Worker processes for searched moves (`processes=False`: threads, for tests that can't
    start processes). `submit` returns at once; the caller keeps the future and looks again."""

    def __init__(self, workers: int | None = None, *, processes: bool = True) -> None:
        self.workers = workers or pool_size()
        self.processes = processes
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                context = multiprocessing.get_context("forkserver")  # clean children, as bot.render_pool
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_warm,
                                                     initargs=(os.getpid(),))
            else:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="ai-search")
        return self._executor

    def submit(self, game_id: str, state_text: str, seat: int, moves: int, settings: BotSettings) -> Future[str]:
        args = (game_id, state_text, seat, moves, settings.model_dump_json())
        try:
            return self._pool().submit(search_move, *args)
        except BrokenProcessPool:  # a worker died: a fresh pool, once
            self.close()
            return self._pool().submit(search_move, *args)

    async def hint(self, game_id: str, state_text: str, seat: int, moves: int,
                   settings: BotSettings) -> tuple[str, float | None]:
        """A hint searched in a worker, awaited (the asker waits for it; the event loop does not)."""
        args = (game_id, state_text, seat, moves, settings.model_dump_json())
        try:
            future = self._pool().submit(search_hint, *args)
        except BrokenProcessPool:
            self.close()
            future = self._pool().submit(search_hint, *args)
        return await asyncio.wrap_future(future)

    async def move(self, game_id: str, state_text: str, seat: int, moves: int, settings: BotSettings) -> str:
        """Wait for one search (the bench and tests)."""
        return await asyncio.wrap_future(self.submit(game_id, state_text, seat, moves, settings))

    def pids(self) -> list[int]:
        """The worker processes' ids (none before the first search, or with threads)."""
        return [p.pid for p in self._processes() if p.pid is not None]

    def _processes(self) -> list:
        # ProcessPoolExecutor keeps its processes in `_processes` (pid -> Process) and offers no
        # public way to stop one that is busy: a search may run its whole budget, and a bot that
        # stops must not leave it running.
        return list((getattr(self._executor, "_processes", None) or {}).values())

    def close(self, grace: float = 2.0) -> None:
        """Stop the workers: queued searches are cancelled, running ones ended (the game moves on
        without them: its AI seat searches again when the bot is back), and the processes waited
        for up to `grace` seconds, so none is left when the bot stops."""
        if self._executor is None:
            return
        processes = self._processes()
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + grace
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)
