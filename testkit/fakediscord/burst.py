"""A burst of real actions against a store (a SQLite file or a PostgreSQL URL), for the kill -9 test:
`python -m testkit.fakediscord.burst DB CHANNELS`. After each action the
service has committed, it prints `channel version acted` (flushed)."""
from __future__ import annotations

import asyncio
import sys

from bot.messages import Ctx, User
from bot.service import GameService
from bot.store import Store


async def main(path: str, channels: int) -> None:
    svc = GameService(await Store.open(path), inline_ai=True, ai_delay=0, render=False)
    user = User("u-burst", "burst")
    chans = [f"9{i:03d}" for i in range(channels)]
    for ch in chans:
        await svc.handle(Ctx(user, ch, "1"), "new", {"game": "primary-general", "seed": int(ch), "bots": 1})
        await svc.handle(Ctx(user, ch, "1"), "start", {})
    print("READY", flush=True)
    while True:
        for ch in chans:
            loaded = await svc.load(ch)
            if loaded is None or loaded.record.status != "playing":
                continue
            assert loaded.record.state is not None  # a game in play has its state
            state = loaded.game.load(loaded.record.state)
            legal = loaded.game.legal_actions(state, 0)
            if not legal:
                continue
            await svc.handle(Ctx(user, ch, "1"), "do", {"action": legal[0].text()})
            row = await svc.store.get(ch)
            assert row is not None, f"channel {ch} lost its game"
            print(ch, row.version, row.record.acted[0], flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
