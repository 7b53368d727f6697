"""Rows: the one loader and saver of a channel's game row.

Loading parses the stored row once into a `Loaded` (the row, its game, its parsed state) and
refuses a damaged row with CorruptRow. Saving is one commit: the row's compare-and-swap on its
version, the per-server data the move changes, the outbox entry with what the bot must say, the
outbox entries already delivered dropped, and a finished game's result (finish.py). Every part of
the service that changes a game saves through here.

Rows also remembers the row this process last committed in each channel (`recent`): alone on its
database, the next action there starts from it instead of reading the row back.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from pydantic import ValidationError

from engines import RuleError, get_game

from ..messages import Ctx, Outgoing
from ..registry import InputError
from ..shards import Shards
from ..store import CorruptRow, GameRecord, ServerMerge, Store, parse_record
from ..store import Row as StoredRow
from .clocks import refresh_waiting, wake_at
from .common import RECENT_CHANNELS, STALE_GAME, Loaded, Recent, Request, TooLate
from .finish import FinishedGames
from .outbox import Outbox


class Rows:
    def __init__(self, store: Store, outbox: Outbox, finished: FinishedGames, *, clock: Callable[[], float],
                 ai_delay: float, shards: Shards | None) -> None:
        self.store = store
        self.outbox = outbox
        self.finished = finished
        self.clock = clock
        self.ai_delay = ai_delay
        # The shards this process serves (None: all): only their rows are remembered.
        self.shards = shards
        # channel -> the row as this process last committed it, for its own shards' servers only.
        # Alone on its database, a remembered row is the stored row; a failed compare-and-swap
        # or a delete forgets it, and the next load reads the database again. Sharing it (see
        # `shared`), each use first checks the stored version.
        self.recent: OrderedDict[str, Recent] = OrderedDict()

    @property
    def shared(self) -> bool:
        """Other processes write this database: they hold the other shards. Their writes reach
        rows of this process's servers too (a click in a direct message is served by shard 0's
        process, whatever server its game is in), so a remembered row may be out of date."""
        return self.shards is not None and not self.shards.all

    def owns(self, guild_id: str | int | None) -> bool:
        """This process serves that server (None: direct messages, shard 0's)."""
        return self.shards is None or self.shards.owns(guild_id)

    def forget(self, channel_id: str) -> None:
        """The row was deleted (or changed behind this process's back): read it afresh next time."""
        self.recent.pop(channel_id, None)

    def wake_at(self, record: GameRecord) -> float | None:
        return wake_at(record, self.ai_delay)

    async def load_raw(self, channel_id: str) -> tuple[str, str, str] | None:
        """(status, title, game id) without parsing the record (works on damaged rows)."""
        found = await self.store.status_of(channel_id)
        if not found:
            return None
        try:
            title = get_game(found[1]).title
        except RuleError:
            title = found[1]
        return found[0], title, found[1]

    async def load(self, channel_id: str) -> Loaded | None:
        """The channel's game (None: there is none); CorruptRow if its row can't be read."""
        recent = self.recent.get(channel_id)
        if recent is not None and self.shared and (
                not self.owns(recent.guild_id) or await self.store.version_of(channel_id) != recent.version):
            # Written by another process since (one trip for the version alone), or no longer
            # this process's server: read it afresh.
            self.recent.pop(channel_id, None)
            recent = None
        row: StoredRow | None
        if recent is not None:
            self.recent.move_to_end(channel_id)
            # parsed afresh each time: an action that fails half-way can't leave a changed copy behind
            row = StoredRow(channel_id, recent.guild_id, recent.game_id, recent.status, recent.version,
                            parse_record(recent.text, recent.state_text))
        else:
            row = await self.store.get(channel_id)
        if row is None:
            return None
        try:
            game = get_game(row.game)
            record = row.record  # parsed and checked by the store (CorruptRow if it can't be)
            state = game.load(record.state) if record.status != "lobby" and record.state is not None else None
        except (RuleError, ValidationError, TypeError, KeyError, ValueError) as exc:
            raise CorruptRow(str(exc)) from None
        return Loaded(row.version, record, game, row.guild_id, state)

    async def require(self, ctx: Ctx) -> Loaded:
        """The channel's game; for a clicked control, only the game that control belongs to."""
        loaded = await self.load(ctx.channel_id)
        if ctx.game_ref is not None and (loaded is None or loaded.record.game_ref != ctx.game_ref):
            raise InputError(STALE_GAME)
        if loaded is None:
            raise InputError("There is no game in this channel: /politics new game:<id> opens one.")
        return loaded

    async def save(self, request: Request | None, channel_id: str, loaded: Loaded, record: GameRecord,
                   status: str | None = None, recompute: bool = False, *, messages: list[Outgoing] | None = None,
                   server: ServerMerge | None = None) -> None:
        """Commit the row, with the per-server data it changes (`server`) and what the bot must say
        about it (`messages`, kept in the outbox until delivered), in one transaction; the request
        learns what was committed. TooLate (nothing written) if someone else moved the row first."""
        messages = messages or []
        if recompute and record.state:
            refresh_waiting(record, loaded.game, loaded.game.load(record.saved_state()), self.clock())
        status = status or record.status
        body, delivered = self.outbox.entry(messages, request), self.outbox.take_delivered()
        try:
            if status == "finished" and not record.finished:
                # the result goes with the last row
                written = await self.finished.commit(channel_id, loaded, record, server=server, outbox=body,
                                                     delivered=delivered)
            else:
                written = await self.store.commit(channel_id, loaded.version, status, record, self.wake_at(record),
                                                  server=server, outbox=body, delivered=delivered)
        except BaseException:
            self.outbox.give_back(delivered)
            raise
        if written is None:
            self.outbox.give_back(delivered)
            self.recent.pop(channel_id, None)
            raise TooLate()
        if request is not None:
            request.said(messages)
        self.outbox.mark(messages, written.outbox_id, body)
        loaded.version += 1
        if not self.owns(loaded.guild_id):
            return  # another process's server (a click in a DM): its owner remembers its rows
        self.recent[channel_id] = Recent(loaded.version, loaded.guild_id, loaded.game.id, status,
                                         written.text, written.state)
        self.recent.move_to_end(channel_id)
        if len(self.recent) > RECENT_CHANNELS:
            self.recent.popitem(last=False)

    def private_before(self, channel_id: str, loaded: Loaded) -> dict[int, str] | None:
        """Each human seat's private text after the last commit here, if this process made it."""
        recent = self.recent.get(channel_id)
        return recent.private if recent is not None and recent.version == loaded.version else None

    def keep_private(self, channel_id: str, loaded: Loaded, private: dict[int, str]) -> None:
        """Remember the seats' private texts after this commit: the next move's "before" texts."""
        recent = self.recent.get(channel_id)
        if recent is not None and recent.version == loaded.version:
            recent.private = private
