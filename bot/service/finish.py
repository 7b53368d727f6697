"""A finished game's last row, committed together with its result and the new ratings.

The row saver (rows.py) hands the last commit of a game here, so a game's result is recorded
in the very transaction that ends it. The maths and the game file are bot/records.py; the
queries bot/store/records.py.
"""
from __future__ import annotations

from typing import Any
from collections.abc import Callable

from .. import records
from ..store import Committed, GameRecord, Store
from .common import Loaded, log


class FinishedGames:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock

    async def commit(self, channel_id: str, loaded: Loaded, record: GameRecord, **extra: Any) -> Committed | None:
        """The last row with the game's result (and `extra`: server data, outbox) in one commit;
        None if someone else wrote the row first (then nothing is recorded)."""
        game = loaded.game
        state = game.load(record.saved_state())
        result = game.result(state)
        record.finished = finished_at = self.clock()
        try:
            row, seats, teams, ranks = records.finished_game(record, game, state, result,
                                                             guild_id=loaded.guild_id or "", finished_at=finished_at)
        except Exception:  # a bug in recording must never stop a game from ending
            log.exception("recording the finished game in %s failed", channel_id)
            return await self.store.commit(channel_id, loaded.version, record.status, record, None, **extra)

        def rate(current: dict) -> dict:
            try:
                return records.rate(teams, ranks, current)
            except Exception:  # the game is still recorded; the ratings stay as they were
                log.exception("rating the finished game in %s failed", channel_id)
                return {s["player_id"]: current.get(s["player_id"], records.START) for s in seats}
        return await self.store.finish(channel_id, loaded.version, record, row, seats, rate, **extra)
