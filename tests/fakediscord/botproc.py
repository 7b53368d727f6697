"""Run the real bot in its own process against a fake Discord:
`python -m tests.fakediscord.botproc API_BASE GATEWAY_URL DB`. Configured
through the environment like production (POLITICS_TEST_API_BASE /
POLITICS_TEST_GATEWAY_URL), with AI seats moving at once."""
from __future__ import annotations

import asyncio
import logging
import os
import sys

from bot.discord_app import PoliticsBot, point_at
from bot.service import GameService
from bot.settings import Settings
from bot.store import Store


async def main() -> None:
    settings = Settings.from_env()
    point_at(settings.api_base, settings.gateway_url)
    store = await Store.open(settings.database)
    service = GameService(store, inline_ai=True, ai_delay=0.0)
    client = PoliticsBot(settings, service=service, guild_ready_timeout=0.05)
    if os.environ.get("POLITICS_MEMDUMP"):  # a debugging aid for memory (bench --live)
        from tests.fakediscord.memwatch import BotWatch, warm_and_watch
        BotWatch(os.environ["POLITICS_MEMDUMP"], client).install()
        client.render_pool.initializer = warm_and_watch
    await client.start(settings.token)


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR)
    api, gateway, db = sys.argv[1:4]
    os.environ.update(POLITICS_TEST_API_BASE=api, POLITICS_TEST_GATEWAY_URL=gateway, DATABASE_PATH=db,
                      DISCORD_TOKEN="fake-token")
    asyncio.run(main())
