"""Issue #27, item 4: the search's worker processes are stopped with the bot — a search still
running is ended, not left to spend its budget (or, with a large iteration budget, minutes) on a
machine whose bot has gone."""
from __future__ import annotations

import time

from bot.ai_worker import AiWorkers
from bot.store.game_row import BotSettings
from engines import Seat, get_game

LONG = BotSettings(ai="hard", ai_iterations=100_000)  # a search that would run for many minutes


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has stopped: only its exit code is left
    except FileNotFoundError:
        return False


def _start_search(workers: AiWorkers):
    game = get_game("primary-general")
    state = game.setup([Seat(name="a"), Seat(name="b", bot=True)], game.options({}), 11)
    future = workers.submit(game.id, game.dump(state), game.to_act(state)[0], 0, LONG)
    deadline = time.monotonic() + 60
    while not (future.running() and workers.pids()):
        assert time.monotonic() < deadline, "the worker never started the search"
        time.sleep(0.05)
    pids = workers.pids()
    assert pids and all(_running(p) for p in pids)
    return future, pids


def _gone(pids: list[int], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while any(_running(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_closing_the_workers_ends_a_running_search_and_its_processes():
    workers = AiWorkers(2)
    future, pids = _start_search(workers)
    workers.close()
    # close ended the search instead of waiting out its many-minute budget: the pool's own thread
    # marks the running future failed once it sees its worker gone, a moment after close returns
    deadline = time.monotonic() + 30
    while not future.done() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert future.done()
    assert _gone(pids), f"worker processes left running: {[p for p in pids if _running(p)]}"
    assert workers.pids() == []
    workers.close()  # twice is harmless


async def test_no_worker_process_is_left_after_the_bot_stops(tmp_path, monkeypatch):
    import discord

    import bot.discord_app as app
    from bot.service import GameService
    from bot.settings import Settings
    from bot.store import Store

    settings = Settings(token="t", guild_id=None, database_path="", ai_delay=0.0, message_content=False,
                        api_base=None, gateway_url=None, render_processes=False, shards=None)
    client = app.PoliticsBot(settings, service=GameService(await Store.open(str(tmp_path / "s.db"))))
    workers = client.service.play.ai_workers
    assert workers.processes
    _, pids = _start_search(workers)

    async def never_connected(self) -> None:  # discord.py's own close expects a login this test has not made
        return None
    monkeypatch.setattr(discord.AutoShardedClient, "close", never_connected)
    await client.close()
    assert _gone(pids), f"worker processes left after the bot stopped: {[p for p in pids if _running(p)]}"
    await client.service.store.close()
