"""GameService: every front end's single path to a game.

A command arrives as (Ctx, command name, options) or as a component click;
the service loads the channel's row, checks who may do what, applies the
action through the engine, commits the new row (compare-and-swap on its
version), and returns Outgoing messages. It never talks to Discord itself.

Secrets: channel messages are built only from public events, the public view
and status_text; a seat's private text and private events go only to that
seat's DMs or ephemeral replies.
"""
from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any, Callable

from pydantic import ValidationError

from engines import RuleError, get_game

from ..messages import Ctx, Outgoing
from ..shards import Shards
from ..registry import InputError, coerce_options, commands
from ..store import CorruptRow, ServerMerge, StorageTrouble, Store, parse_record
from ..store import Row as StoredRow
from ..text import plain
from .common import CORRUPT, RECENT_CHANNELS, ChannelLocks, REQUEST, STALE_GAME, Loaded, Recent, Request, TooLate, _clip, log, storage_trouble
from .controls import Controls
from .lobby import Lobby, check_settings, parse_settings  # noqa: F401
from .outbox import Outbox
from .play_loop import PlayLoop
from .records import Records
from .server_data import ServerData


class GameService(Lobby, PlayLoop, Controls, ServerData, Records, Outbox):
    """The hub: entry points, locks, loading and saving; the rest lives in its parts."""

    def __init__(self, store: Store, *, inline_ai: bool = False, ai_delay: float = 1.5,
                 clock: Callable[[], float] = time.time, render: bool = True, outbox: bool = False,
                 shards: Shards | None = None) -> None:
        self.store = store
        # The shards this process serves (None: all): only their timers, AI moves and
        # undelivered messages are run here when several processes share one database, and only
        # their rows are remembered (see _load).
        self.shards = shards
        # Discord turns this on: what each commit must say is stored with it until delivered.
        self.outbox = outbox
        self._delivered: set[int] = set()  # outbox entries delivered, deleted with the next commit
        self.inline_ai = inline_ai  # transcripts and the local table: AI moves at once
        self.ai_delay = ai_delay
        self.clock = clock
        self.render_enabled = render
        self._locks = ChannelLocks()
        # channel -> the row as this process last committed it, for its own shards' servers only.
        # Alone on its database, a remembered row is the stored row; a failed compare-and-swap
        # or a delete forgets it, and the next load reads the database again. Sharing it (see
        # `shared`), each use first checks the stored version.
        self._recent: OrderedDict[str, Recent] = OrderedDict()

    @property
    def shared(self) -> bool:
        """Other processes write this database: they hold the other shards. Their writes reach
        rows of this process's servers too (a click in a direct message is served by shard 0's
        process, whatever server its game is in), so a remembered row may be out of date."""
        return self.shards is not None and not self.shards.all

    def owns(self, guild_id: str | int | None) -> bool:
        """This process serves that server (None: direct messages, shard 0's)."""
        return self.shards is None or self.shards.owns(guild_id)

    def lock(self, channel_id: str):
        """`async with self.lock(channel)`: one request at a time in a channel."""
        return self._locks.hold(channel_id)

    async def _guarded(self, ctx: Ctx, what: str, work, too_late: str) -> list[Outgoing]:
        """Run one request; every failure becomes one sentence to the asker. Each commit is a
        whole action (row, server data, outbox in one transaction), so a failure before the first
        commit changed nothing; after one, the answer says what was saved and the messages of
        what was saved still go out."""
        request = Request(reply=ctx.reply)
        token = REQUEST.set(request)
        try:
            return await work()
        except (InputError, RuleError) as exc:
            return request.messages + [self._reply(ctx, plain(str(exc)))]  # errors repeat what was typed
        except CorruptRow:
            return request.messages + [self._reply(ctx, CORRUPT)]
        except TooLate:
            return request.messages + [self._reply(ctx, too_late)]
        except StorageTrouble as exc:  # the database, not a bug: say what is wrong
            log.warning("%s: database trouble: %s", what, exc)
            return request.messages + [self._reply(ctx, storage_trouble(exc, request.committed))]
        except Exception:  # a bug: log it, never show a traceback
            log.exception("%s failed", what)
            if request.committed:
                text = "Your move was made and saved, but something went wrong after it; /politics status shows the game."
            else:
                text = "Something went wrong on our side; nothing was changed. Please try again."
            return request.messages + [self._reply(ctx, text)]
        finally:
            REQUEST.reset(token)

    async def handle(self, ctx: Ctx, name: str, options: dict[str, Any]) -> list[Outgoing]:
        """Run a command. Every error becomes one sentence to the user."""
        async def work() -> list[Outgoing]:
            spec = commands().get(name)
            if spec is None:
                raise InputError(f"There is no command /politics {name[:30]}.")
            opts = coerce_options(spec, options)
            if spec.admin and not ctx.user.manage_server:
                raise InputError("Only server admins (Manage Server) can do that.")
            if spec.group:
                return await self._server_data(ctx, spec.group, spec.leaf, opts)
            handler = getattr(self, "cmd_" + name.replace("-", "_"))
            async with self.lock(ctx.channel_id):
                return await handler(ctx, **opts)
        return await self._guarded(ctx, f"command {name}", work,
                                   "Too late: the game moved on before your click landed. Nothing was changed.")

    async def component(self, ctx: Ctx, custom_id: str, values: list[str] | None = None) -> list[Outgoing]:
        """A button or select menu. custom_id = kind:channel.game:... (see _controls)."""
        async def work() -> list[Outgoing]:
            kind, channel_id, game_ref, rest = _split_custom_id(custom_id)
            here = Ctx(ctx.user, channel_id, ctx.guild_id, game_ref=game_ref)
            async with self.lock(channel_id):
                if kind == "pg":
                    return await self._general_button(here, rest)
                if kind == "pr":
                    return await self._records_button(here, rest)
                acted_s, _, path = rest.partition(":")
                if not acted_s.isdigit():
                    raise InputError("That button is not one of mine.")
                if kind == "ps":
                    if not values:
                        raise InputError("Pick one of the options.")
                    words = [w for w in path.split() if not w.startswith("~")]
                    path = " ".join(words + [values[0]])
                if kind == "pt":
                    return await self._open_text_prompt(here, int(acted_s), path)
                return await self._navigate(here, int(acted_s), path)
        return await self._guarded(ctx, f"component {custom_id}", work,
                                   "Too late: that button is from an earlier turn. Nothing was changed.")

    async def modal_submit(self, ctx: Ctx, custom_id: str, text: str) -> list[Outgoing]:
        async def work() -> list[Outgoing]:
            kind, channel_id, game_ref, rest = _split_custom_id(custom_id)
            acted_s, _, verb = rest.partition(":")
            if kind != "pm" or not acted_s.isdigit():
                raise InputError("That form is not one of mine.")
            here = Ctx(ctx.user, channel_id, ctx.guild_id, game_ref=game_ref)
            async with self.lock(channel_id):
                return await self._act(here, f"{verb} {text}".strip(), expect_acted=int(acted_s))
        return await self._guarded(ctx, f"modal {custom_id}", work,
                                   "Too late: that question has moved on. Nothing was changed.")

    async def chat(self, ctx: Ctx, text: str) -> list[Outgoing]:
        """A plain channel message; only games that listen to chat care."""
        try:
            async with self.lock(ctx.channel_id):
                loaded = await self._load(ctx.channel_id)
                if not loaded or loaded.record["status"] != "playing" or not loaded.game.listens_to_chat:
                    return []
                seat = self._seat_of(loaded.record, ctx.user.id)
                if seat is None:
                    return []
                state = loaded.game.load(loaded.record["state"])
                action = loaded.game.chat_action(state, seat, text)
                if action is None:
                    return []
                return await self._act(ctx, action.text(), quiet_errors=True)
        except Exception:
            log.exception("chat handling failed")
            return []

    async def autocomplete(self, ctx: Ctx, name: str, option: str, current: str) -> list[tuple[str, str]]:
        """Up to 25 (label, value) suggestions; never raises."""
        try:
            current = (current or "")[:300]
            if option == "settings":
                return await self._complete_settings(ctx, current)
            if name != "do" or option != "action":
                return []
            loaded = await self._load(ctx.channel_id)
            if not loaded or loaded.record["status"] != "playing":
                return []
            seat = self._seat_of(loaded.record, ctx.user.id)
            if seat is None:
                return []
            game = loaded.game
            state = game.load(loaded.record["state"])
            words = current.lower().split()
            out = []
            for action in game.legal_actions(state, seat):
                text = action.text()
                if all(w in text.lower() for w in words):
                    label = game.describe_action(state, seat, action)
                    out.append((_clip(label, 100), _clip(text, 100)))
                    if len(out) == 25:
                        break
            for prompt in game.text_prompts(state, seat):
                if len(out) < 25:
                    typed = current if current.lower().startswith(prompt.verb) else f"{prompt.verb} {current}".strip()
                    out.append((_clip(f"{prompt.label}: {typed}", 100), _clip(typed, 100)))
            return out
        except Exception:
            log.exception("autocomplete failed")
            return []

    async def _load_raw(self, channel_id: str) -> tuple[str, str, str] | None:
        """(status, title, game id) without parsing the record (works on damaged rows)."""
        found = await self.store.status_of(channel_id)
        if not found:
            return None
        try:
            title = get_game(found[1]).title
        except RuleError:
            title = found[1]
        return found[0], title, found[1]

    async def _load(self, channel_id: str) -> Loaded | None:
        recent = self._recent.get(channel_id)
        if recent is not None and self.shared and (
                not self.owns(recent.guild_id) or await self.store.version_of(channel_id) != recent.version):
            # Written by another process since (one trip for the version alone), or no longer
            # this process's server: read it afresh.
            self._recent.pop(channel_id, None)
            recent = None
        if recent is not None:
            self._recent.move_to_end(channel_id)
            # parsed afresh each time: an action that fails half-way can't leave a changed copy behind
            row = StoredRow(channel_id, recent.guild_id, recent.game_id, recent.status, recent.version,
                            parse_record(recent.text, recent.state_text))
        else:
            row = await self.store.get(channel_id)
        if row is None:
            return None
        try:
            game = get_game(row.game)
            record = row.record
            for key in ("status", "players", "host", "options", "seed"):
                if key not in record:
                    raise CorruptRow(f"missing {key}")
            state = game.load(record["state"]) if record["status"] != "lobby" else None
        except (RuleError, ValidationError, TypeError, KeyError, ValueError) as exc:
            raise CorruptRow(str(exc)) from None
        return Loaded(row.version, record, game, row.guild_id, state)

    async def _require(self, ctx: Ctx) -> Loaded:
        """The channel's game; for a clicked control, only the game that control belongs to."""
        loaded = await self._load(ctx.channel_id)
        if ctx.game_ref is not None and (loaded is None or loaded.record.get("game_ref", "") != ctx.game_ref):
            raise InputError(STALE_GAME)
        if loaded is None:
            raise InputError("There is no game in this channel: /politics new game:<id> opens one.")
        return loaded

    async def _save(self, channel_id: str, loaded: Loaded, record: dict, status: str | None = None,
                    recompute: bool = False, *, messages: list[Outgoing] = (),
                    server: ServerMerge | None = None) -> None:
        """Commit the row, with the per-server data it changes (`server`) and what the bot must say
        about it (`messages`, kept in the outbox until delivered), in one transaction."""
        if recompute and record.get("state"):
            self._refresh_waiting(record, loaded.game, loaded.game.load(record["state"]))
        status = status or record["status"]
        body, delivered = self._outbox_entry(messages), self._take_delivered()
        extra = {"server": server, "outbox": body, "delivered": delivered}
        try:
            if status == "finished" and not record.get("finished"):
                written = await self._commit_finished(channel_id, loaded, record, **extra)  # the result goes with the last row
            else:
                written = await self.store.commit(channel_id, loaded.version, status, record, self._wake_at(record),
                                                  **extra)
        except BaseException:
            self._return_delivered(delivered)
            raise
        if written is None:
            self._return_delivered(delivered)
            self._recent.pop(channel_id, None)
            raise TooLate()
        request = REQUEST.get()
        if request is not None:
            request.committed = True
            request.messages += messages
        self._mark_outbox(messages, written.outbox_id, body)
        loaded.version += 1
        if not self.owns(loaded.guild_id):
            return  # another process's server (a click in a DM): its owner remembers its rows
        self._recent[channel_id] = Recent(loaded.version, loaded.guild_id, loaded.game.id, status,
                                          written.text, written.state)
        self._recent.move_to_end(channel_id)
        if len(self._recent) > RECENT_CHANNELS:
            self._recent.popitem(last=False)

    def _seat_of(self, record: dict, user_id: str) -> int | None:
        for i, p in enumerate(record["players"]):
            if p["id"] == user_id:
                return i
        return None


def _split_custom_id(custom_id: str) -> tuple[str, str, str, str]:
    """kind, channel, game ref ('' in controls of games from before refs), the rest."""
    kind, _, rest = custom_id.partition(":")
    where, _, rest = rest.partition(":")
    channel_id, _, game_ref = where.partition(".")
    if kind not in ("pb", "ps", "pt", "pg", "pm", "pr") or not channel_id:
        raise InputError("That button is not one of mine.")
    return kind, channel_id, game_ref, rest
