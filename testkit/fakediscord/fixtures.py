"""pytest fixtures: a started fake Discord and the real bot connected to it."""
from __future__ import annotations

import logging

import pytest_asyncio

from bot.service import GameService
from bot.store import Store

from .client import BotRunner
from .server import FakeDiscord

logging.getLogger("discord").setLevel(logging.ERROR)


class Harness:
    def __init__(self, fake: FakeDiscord, db_path: str) -> None:
        self.fake = fake
        self.db_path = db_path
        self.runner: BotRunner | None = None
        self.service: GameService | None = None

    async def start_bot(self, **service_kwargs) -> BotRunner:
        service_kwargs.setdefault("inline_ai", True)
        service_kwargs.setdefault("ai_delay", 0.0)
        store = await Store.open(self.db_path)
        self.service = GameService(store, **service_kwargs)
        self.runner = await BotRunner(self.fake, self.service, db_path=self.db_path).start()
        return self.runner

    async def stop_bot(self) -> None:
        if self.runner is not None:
            await self.runner.stop()
            self.runner = None
        if self.service is not None:
            await self.service.store.close()
            self.service = None


@pytest_asyncio.fixture
async def harness(tmp_path):
    fake = await FakeDiscord().start()
    h = Harness(fake, str(tmp_path / "bot.db"))
    try:
        yield h
    finally:
        await h.stop_bot()
        await fake.stop()
