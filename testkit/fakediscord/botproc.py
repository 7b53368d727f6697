"""Run the real bot in its own process against a fake Discord:
`python -m testkit.fakediscord.botproc API_BASE GATEWAY_URL DB`. Configured
through the environment like production (POLITICS_TEST_API_BASE /
POLITICS_TEST_GATEWAY_URL, SHARD_COUNT / SHARD_IDS, AI_DELAY; DB is a SQLite
file or a PostgreSQL URL), with AI seats moving at once.

With POLITICS_TEST_AI_WORKERS=1, AI seats move as in production (after AI_DELAY, searched
in the worker processes) instead of at once in process.

POLITICS_TEST_TOKEN names the process to the fake (it is the token it sends;
default "fake-token"). With POLITICS_TEST_TIMERS=1, AI seats move on their
clock (AI_DELAY) as in production, boards are text, and every wake-up that
moved a game prints `FIRED channel version moves` (flushed), and one that lost
its compare-and-swap to another process `LOST channel`, so a test can count
each timer's firings across processes."""
from __future__ import annotations

import asyncio
import json
import logging
import os
import sys

from bot.discord_app import PoliticsBot, point_at, stop_on_signals
from bot.service import GameService
from bot.service.common import TooLate
from bot.settings import Settings
from bot.store import Store


class CountedTimers(GameService):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._real_wake = self.play.wake
        self.play.wake = self._wake  # type: ignore[method-assign]  # counts each timer the play loop fires

    async def _wake(self, req, channel_id: str, now: float):
        try:
            out = await self._real_wake(req, channel_id, now)
        except TooLate:
            print("LOST", channel_id, flush=True)  # another process's commit came first
            raise
        written = self.rows.recent.get(channel_id)  # this process's own server: the row it just wrote
        if out and written is not None:
            print("FIRED", channel_id, written.version, len(json.loads(written.text).get("log", [])), flush=True)
        return out


async def main() -> None:
    settings = Settings.from_env()
    point_at(settings.rest_base, settings.gateway_url)
    store = await Store.open(settings.database)
    service: GameService
    if os.environ.get("POLITICS_TEST_TIMERS") == "1":
        settings.render_processes = False
        service = CountedTimers(store, ai_delay=settings.ai_delay, render=False)
    elif os.environ.get("POLITICS_TEST_AI_WORKERS") == "1":  # AI moves searched in worker processes
        service = GameService(store, ai_delay=settings.ai_delay)
    else:
        service = GameService(store, inline_ai=True, ai_delay=0.0)
    client = PoliticsBot(settings, service=service, guild_ready_timeout=0.05)
    if os.environ.get("POLITICS_MEMDUMP"):  # a debugging aid for memory (bench --live)
        from testkit.fakediscord.memwatch import BotWatch, warm_and_watch
        BotWatch(os.environ["POLITICS_MEMDUMP"], client).install()
        client.render_pool.initializer = warm_and_watch
    stop_on_signals(client, settings.stop_seconds)  # SIGTERM: the clean stop, as in production
    try:
        await client.start(settings.token or "fake-token")  # always set: DISCORD_TOKEN comes from POLITICS_TEST_TOKEN
    finally:
        await store.close()  # its thread would keep the process alive


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    api, gateway, db = sys.argv[1:4]
    # Never a token from the developer's environment: the fake records what it is sent.
    os.environ.update(POLITICS_TEST_API_BASE=api, POLITICS_TEST_GATEWAY_URL=gateway, DATABASE_PATH=db,
                      DISCORD_TOKEN=os.environ.get("POLITICS_TEST_TOKEN", "fake-token"))
    profile_to = os.environ.get("POLITICS_PROFILE")  # a debugging aid: the bot process's own CPU, by function
    if profile_to:
        import cProfile
        with cProfile.Profile() as profile:
            asyncio.run(main())
        profile.dump_stats(profile_to)
    else:
        asyncio.run(main())
    print("STOPPED", flush=True)  # start() returned: the clean stop's end (a test waits for it)
