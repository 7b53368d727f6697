"""Per-server data (custom trivia questions, the questions already used)."""
from __future__ import annotations

import json
from typing import Any

from engines import Game, all_games

from ..messages import Ctx, Outgoing
from ..registry import InputError
from ..store import ServerMerge, Store
from ..text import plain
from .boards import Boards
from .common import Request


def _key(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def merge_server_updates(stored: dict, before: dict, after: dict) -> dict:
    """A game's per-server updates merged into what is stored now. A list is merged as a set:
    what the game added since `before` (what it had reported until this move) joins the stored
    list and what it dropped leaves it (trivia frees a pile whose questions were all used), so
    two games, or a game and an admin's upload, writing at once both keep their part. Other
    values are replaced."""
    merged = dict(stored)
    for name, value in after.items():
        current = stored.get(name)
        if not (isinstance(value, list) and isinstance(current, list)):
            merged[name] = value
            continue
        earlier = before.get(name)
        prior = earlier if isinstance(earlier, list) else []
        had, now = {_key(v) for v in prior}, {_key(v) for v in value}
        dropped = had - now
        kept = [v for v in current if _key(v) not in dropped]
        present = {_key(v) for v in kept}
        for v in value:
            k = _key(v)
            if k not in had and k not in present:
                kept.append(v)
                present.add(k)
        merged[name] = kept
    return merged


def server_merge(guild_id: str | None, game: Game, before: dict, state: Any) -> ServerMerge | None:
    """The per-server data a move changes, for the row's commit to merge inside its transaction."""
    after = game.server_updates(state)
    if not after or not guild_id:
        return None
    return guild_id, game.id, lambda stored: merge_server_updates(stored, before, after)


class ServerData:
    """The admins' commands for a server's own data: `/politics <kind> upload|list|remove`."""

    def __init__(self, store: Store, boards: Boards) -> None:
        self.store = store
        self.boards = boards

    def handler(self, kind: str, verb: str) -> Any:
        """The handler of `/politics <kind> <verb>` for the command map."""
        async def run(req: Request, ctx: Ctx, **options: Any) -> list[Outgoing]:
            return await self.command(ctx, kind, verb, options)
        return run

    async def command(self, ctx: Ctx, kind: str, verb: str, options: dict[str, Any]) -> list[Outgoing]:
        if not ctx.guild_id:
            raise InputError("Custom data belongs to a server; use this command in a server channel.")
        guild = ctx.guild_id
        games = [g for g in all_games().values() if kind in g.server_data_kinds]
        game = games[0]
        if verb == "list":
            return [self.boards.reply(ctx, plain(game.server_list(kind, await self.store.server_data(guild, game.id))))]
        if verb == "remove":
            def change(current: dict) -> tuple[dict, str]:
                return game.server_remove(kind, options["id"], current)
        else:
            attachment = options["file"]
            name, data = attachment if isinstance(attachment, tuple) else ("upload", attachment)
            if len(data) > 2_000_000:
                raise InputError("That file is too large (at most 2 MB).")

            def change(current: dict) -> tuple[dict, str]:
                return game.server_import(kind, name, data, current)
        # Read, changed and written in one transaction: a game saving its used questions at the
        # same moment can't overwrite the upload, nor the upload the game's list.
        report = await self.store.change_server_data(guild, game.id, change)
        return [self.boards.reply(ctx, plain(report or ""))]
