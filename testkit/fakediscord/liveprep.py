"""Open the games of a live benchmark in a bot's own database, with that bot's own code:
`python testkit/fakediscord/liveprep.py DB PLAN.json` run with PYTHONPATH at the bot's tree (so an
older commit writes its own schema). PLAN: {"game", "guild", "channels": [{"channel", "seed",
"guild" (optional: else the plan's), "users": [[id, name], ...]}], "hard_channels" (optional): [{"channel",
"seed", "users": [[id, name]]}]}: games of AI seats at level hard whose one player leaves once it has started,
so every seat searches. Prints READY when every game has started."""
from __future__ import annotations

import asyncio
import json
import sys

from bot.messages import Ctx, User
from bot.service import GameService
from bot.store import Store
from engines import get_game


async def main(db: str, plan_path: str) -> None:
    with open(plan_path, encoding="utf-8") as fh:
        plan = json.load(fh)
    service = GameService(await Store.open(db), render=False)
    for entry in plan["channels"]:
        guild = entry.get("guild", plan["guild"])
        users = [User(uid, name) for uid, name in entry["users"]]
        channel = entry["channel"]
        options = {"game": plan["game"], "seed": entry["seed"]}
        if plan.get("settings"):
            options["settings"] = plan["settings"]
        await service.handle(Ctx(users[0], channel, guild), "new", options)
        for user in users[1:]:
            await service.handle(Ctx(user, channel, guild), "join", {})
        await service.handle(Ctx(users[0], channel, guild), "start", {})
    seats = get_game(plan["game"]).min_players
    for entry in plan.get("hard_channels", []):
        host, channel = User(*entry["users"][0]), entry["channel"]
        ctx = Ctx(host, channel, plan["guild"])
        await service.handle(ctx, "new", {"game": plan["game"], "seed": entry["seed"], "bots": seats - 1,
                                          "settings": "ai=hard"})
        await service.handle(ctx, "start", {})
        await service.handle(ctx, "leave", {})
    service.play.ai_workers.close()
    await service.store.close()
    print("READY", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
