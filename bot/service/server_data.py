"""Per-server data (custom trivia questions, the questions already used)."""
from __future__ import annotations

from engines import Game, all_games

from ..messages import Ctx, Outgoing
from ..registry import InputError


class ServerData:
    """Part of GameService (see bot/service/__init__.py)."""

    async def _server_data(self, ctx: Ctx, kind: str, verb: str, options: dict) -> list[Outgoing]:
        if not ctx.guild_id:
            raise InputError("Custom data belongs to a server; use this command in a server channel.")
        games = [g for g in all_games().values() if kind in g.server_data_kinds]
        game = games[0]
        current = await self.store.server_data(ctx.guild_id, game.id)
        if verb == "list":
            return [self._reply(ctx, game.server_list(kind, current))]
        if verb == "remove":
            new, report = game.server_remove(kind, options["id"], current)
        else:
            attachment = options["file"]
            name, data = attachment if isinstance(attachment, tuple) else ("upload", attachment)
            if len(data) > 2_000_000:
                raise InputError("That file is too large (at most 2 MB).")
            new, report = game.server_import(kind, name, data, current)
        await self.store.set_server_data(ctx.guild_id, game.id, new)
        return [self._reply(ctx, report)]

    async def _save_server_updates(self, guild_id: str | None, game: Game, state) -> None:
        updates = game.server_updates(state)
        if updates and guild_id:
            current = await self.store.server_data(guild_id, game.id)
            current.update(updates)
            await self.store.set_server_data(guild_id, game.id, current)
