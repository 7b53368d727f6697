"""GameService: every front end's single path to a game.

A command arrives as (Ctx, command name, options) or as a component click; the service finds its
handler in one map (`handlers`, one entry per command of bot/registry.py), holds the channel's
lock, and hands the handler the request (`Request`, passed down explicitly to everything that
commits). The parts it is built from each receive what they use:

    Rows       loads the channel's row once per request, saves it (compare-and-swap on its
               version, server data, outbox entry, a finished game's result: one commit)
    Boards     builds every message about a game: board, lobby, private panels and menus
    Outbox     what each commit must say, kept until the front end reports it delivered
    PlayLoop   moves: a player's, an AI seat's, the engine's clock's, turn timeouts
    Lobby      new, join, leave, start, cancel, settings, rules, help
    Controls   status, hand, and the clicks on a seat's menus, buttons and forms
    Records    stats, leaderboards, history, replays, the privacy commands
    ServerData a server's own data (custom trivia questions)

None of them talks to Discord; the service returns Outgoing messages. Secrets: channel messages
are built only from public events, the public view and status_text; a seat's private text and
private events go only to that seat's DMs or ephemeral replies.
"""
from __future__ import annotations

import json
import time
from contextlib import AbstractAsyncContextManager
from typing import Any
from collections.abc import Awaitable, Callable, Mapping

from engines import RuleError
from render import get_renderer

from ..messages import Ctx, Outgoing
from ..registry import InputError, coerce_options, commands
from ..shards import Shards
from ..store import CorruptRow, StorageTrouble, Store
from ..text import plain
from .boards import Boards
from .common import CORRUPT, ChannelLocks, Loaded, Request, TooLate, _clip, log, storage_trouble
from .controls import Controls
from .finish import FinishedGames
from .lobby import Lobby, check_settings, parse_settings
from .outbox import Outbox, message_from_json
from .play_loop import PlayLoop
from .records import Records
from .rows import Rows
from .server_data import ServerData

__all__ = ["GameService", "Handler", "Loaded", "Request", "check_settings", "parse_settings"]

# A command's handler: (the request, who asks and where, the command's checked options) -> messages.
Handler = Callable[..., Awaitable[list[Outgoing]]]


class GameService:
    """The entry points (handle, component, modal_submit, chat, autocomplete, tick, the outbox's),
    the channel locks, and the parts composed."""

    def __init__(self, store: Store, *, inline_ai: bool = False, ai_delay: float = 1.5,
                 clock: Callable[[], float] = time.time, render: bool = True, outbox: bool = False,
                 shards: Shards | None = None) -> None:
        self.store = store
        self.clock = clock
        self.locks = ChannelLocks()
        # Discord turns the outbox on: what each commit must say is stored with it until delivered.
        self.outbox = Outbox(store, enabled=outbox)
        self.boards = Boards(render=render)
        # The shards this process serves (None: all): only their timers, AI moves and
        # undelivered messages are run here when several processes share one database, and only
        # their rows are remembered (see Rows and the `shards` property).
        self.rows = Rows(store, self.outbox, FinishedGames(store, clock), clock=clock, ai_delay=ai_delay,
                         shards=shards)
        self.play = PlayLoop(self.rows, self.boards, clock=clock, inline_ai=inline_ai, ai_delay=ai_delay)
        self.lobby = Lobby(store, self.rows, self.boards, self.outbox, self.play, clock=clock)
        self.controls = Controls(self.rows, self.boards, self.lobby, self.play)
        self.records = Records(store, self.rows, self.boards, render=render)
        self.server_data = ServerData(store, self.boards)
        self.handlers: dict[str, Handler] = self._handlers()

    def _handlers(self) -> dict[str, Handler]:
        """The command -> handler map: one handler for every command of bot/registry.py (a
        command added there without one fails here, at start-up)."""
        lobby, play, controls, records = self.lobby, self.play, self.controls, self.records
        handlers: dict[str, Handler] = {
            "new": lobby.new, "join": lobby.join, "leave": lobby.leave, "start": lobby.start,
            "cancel": lobby.cancel, "settings": lobby.settings, "rules": lobby.rules, "help": lobby.help,
            "do": play.do, "hint": play.hint, "status": controls.status, "hand": controls.hand,
            "stats": records.stats, "leaderboard": records.leaderboard, "history": records.history,
            "replay": records.replay, "stats-reset": records.stats_reset, "forget-me": records.forget_me,
        }
        for spec in commands().values():
            if spec.group:
                handlers[spec.name] = self.server_data.handler(spec.group, spec.leaf)
        missing, unknown = set(commands()) - set(handlers), set(handlers) - set(commands())
        if missing or unknown:
            raise RuntimeError(f"commands without a handler: {sorted(missing)}; "
                               f"handlers of no command: {sorted(unknown)}")
        return handlers

    @property
    def shards(self) -> Shards | None:
        """The shards this process serves (None: all). Discord learns them after the service is
        built and sets them here; the row memory (Rows) keeps to them."""
        return self.rows.shards

    @shards.setter
    def shards(self, shards: Shards | None) -> None:
        self.rows.shards = shards

    @property
    def shared(self) -> bool:
        return self.rows.shared

    def owns(self, guild_id: str | int | None) -> bool:
        """This process serves that server (None: direct messages, shard 0's)."""
        return self.rows.owns(guild_id)

    def lock(self, channel_id: str) -> AbstractAsyncContextManager[None]:
        """`async with self.lock(channel)`: one request at a time in a channel."""
        return self.locks.hold(channel_id)

    async def load(self, channel_id: str) -> Loaded | None:
        """The channel's game as it is stored now (front ends and tests read it; None: no game)."""
        return await self.rows.load(channel_id)

    async def _guarded(self, ctx: Ctx, what: str, work: Callable[[Request], Awaitable[list[Outgoing]]],
                       too_late: str) -> list[Outgoing]:
        """Run one request; every failure becomes one sentence to the asker. Each commit is a
        whole action (row, server data, outbox in one transaction), so a failure before the first
        commit changed nothing; after one, the answer says what was saved and the messages of
        what was saved still go out."""
        request = Request(reply=ctx.reply)
        reply = self.boards.reply
        try:
            return await work(request)
        except (InputError, RuleError) as exc:
            return request.messages + [reply(ctx, plain(str(exc)))]  # errors repeat what was typed
        except CorruptRow:
            return request.messages + [reply(ctx, CORRUPT)]
        except TooLate:
            return request.messages + [reply(ctx, too_late)]
        except StorageTrouble as exc:  # the database, not a bug: say what is wrong
            log.warning("%s: database trouble: %s", what, exc)
            return request.messages + [reply(ctx, storage_trouble(exc, request.committed))]
        except Exception:  # a bug: log it, never show a traceback
            log.exception("%s failed", what)
            if request.committed:
                text = ("Your move was made and saved, but something went wrong after it; "
                        "/politics status shows the game.")
            else:
                text = "Something went wrong on our side; nothing was changed. Please try again."
            return request.messages + [reply(ctx, text)]

    async def handle(self, ctx: Ctx, name: str, options: dict[str, Any]) -> list[Outgoing]:
        """Run a command. Every error becomes one sentence to the user."""
        async def work(req: Request) -> list[Outgoing]:
            spec = commands().get(name)
            if spec is None:
                raise InputError(f"There is no command /politics {name[:30]}.")
            opts = coerce_options(spec, options)
            if spec.admin and not ctx.user.manage_server:
                raise InputError("Only server admins (Manage Server) can do that.")
            handler = self.handlers[name]
            if spec.group:
                return await handler(req, ctx, **opts)  # a server's data: no game, no channel lock
            async with self.lock(ctx.channel_id):
                return await handler(req, ctx, **opts)
        return await self._guarded(ctx, f"command {name}", work,
                                   "Too late: the game moved on before your click landed. Nothing was changed.")

    async def component(self, ctx: Ctx, custom_id: str, values: list[str] | None = None) -> list[Outgoing]:
        """A button or select menu. custom_id = kind:channel.game:... (see _controls)."""
        async def work(req: Request) -> list[Outgoing]:
            kind, channel_id, game_ref, rest = _split_custom_id(custom_id)
            here = Ctx(ctx.user, channel_id, ctx.guild_id, game_ref=game_ref)
            async with self.lock(channel_id):
                if kind == "pg":
                    return await self.controls.general_button(req, here, rest)
                if kind == "pr":
                    return await self.records.button(req, here, rest)
                acted_s, _, path = rest.partition(":")
                if not acted_s.isdigit():
                    raise InputError("That button is not one of mine.")
                if kind == "ps":
                    if not values:
                        raise InputError("Pick one of the options.")
                    words = [w for w in path.split() if not w.startswith("~")]
                    path = " ".join(words + [values[0]])
                if kind == "pt":
                    return await self.controls.open_text_prompt(req, here, int(acted_s), path)
                return await self.controls.navigate(req, here, int(acted_s), path)
        return await self._guarded(ctx, f"component {custom_id}", work,
                                   "Too late: that button is from an earlier turn. Nothing was changed.")

    async def modal_submit(self, ctx: Ctx, custom_id: str, text: str) -> list[Outgoing]:
        async def work(req: Request) -> list[Outgoing]:
            kind, channel_id, game_ref, rest = _split_custom_id(custom_id)
            acted_s, _, verb = rest.partition(":")
            if kind != "pm" or not acted_s.isdigit():
                raise InputError("That form is not one of mine.")
            here = Ctx(ctx.user, channel_id, ctx.guild_id, game_ref=game_ref)
            async with self.lock(channel_id):
                return await self.play.act(req, here, f"{verb} {text}".strip(), expect_acted=int(acted_s))
        return await self._guarded(ctx, f"modal {custom_id}", work,
                                   "Too late: that question has moved on. Nothing was changed.")

    async def chat(self, ctx: Ctx, text: str) -> list[Outgoing]:
        """A plain channel message; only games that listen to chat care."""
        try:
            async with self.lock(ctx.channel_id):
                loaded = await self.rows.load(ctx.channel_id)
                if not loaded or loaded.record.status != "playing" or not loaded.game.listens_to_chat:
                    return []
                seat = loaded.record.seat_of(ctx.user.id)
                if seat is None:
                    return []
                state = loaded.game.load(loaded.record.saved_state())
                action = loaded.game.chat_action(state, seat, text)
                if action is None:
                    return []
                return await self.play.act(Request(reply=ctx.reply), ctx, action.text(), quiet_errors=True)
        except Exception:
            log.exception("chat handling failed")
            return []

    async def autocomplete(self, ctx: Ctx, name: str, option: str, current: str) -> list[tuple[str, str]]:
        """Up to 25 (label, value) suggestions; never raises."""
        try:
            current = (current or "")[:300]
            if option == "settings":
                return await self.lobby.complete_settings(ctx, current)
            if name != "do" or option != "action":
                return []
            loaded = await self.rows.load(ctx.channel_id)
            if not loaded or loaded.record.status != "playing":
                return []
            seat = loaded.record.seat_of(ctx.user.id)
            if seat is None:
                return []
            game = loaded.game
            state = game.load(loaded.record.saved_state())
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

    async def tick(self, now: float | None = None) -> list[Outgoing]:
        """The scheduler: every game of this process's shards whose wake-up is due (see PlayLoop.wake)."""
        now = self.clock() if now is None else now
        out: list[Outgoing] = []
        for channel_id in await self.store.due(now, shards=self.shards):
            async with self.lock(channel_id):
                try:
                    out += await self.play.wake(Request(), channel_id, now)
                except TooLate:
                    # Another process wrote the row first (shard 0's serving a click in a DM, or
                    # the shard's earlier holder): its commit set the next wake-up, and the row is
                    # read afresh then. Postponing would move that wake-up.
                    pass
                except CorruptRow:
                    await self.store.postpone(channel_id, now + 3600)  # don't spin on a damaged row
                except Exception:
                    log.exception("scheduled work failed in %s", channel_id)
                    await self.store.postpone(channel_id, now + 60)  # retry later, not every second
        return out

    async def dm_failed(self, channel_id: str, user_id: str, user_name: str | None = None) -> list[Outgoing]:
        """A DM bounced (closed DMs): say so in the channel, reveal nothing, offer the controls."""
        return await self.controls.dm_failed(channel_id, user_id, user_name)

    # ---- the outbox, for the front end that delivers ---------------------------------
    def delivered(self, outbox_ids: Any) -> None:
        """The front end sent these entries' messages (or gave up on them for good)."""
        self.outbox.delivered(outbox_ids)

    async def flush_delivered(self) -> None:
        """Delete the delivered entries now (the scheduler calls this when no commit came by)."""
        await self.outbox.flush_delivered()

    async def pending_outbox(self) -> list[tuple[int, dict | None, list[Outgoing]]]:
        """What was committed but never reported delivered (after a crash): (entry id, the
        asker's reply handle, messages with their nonces), oldest first. A board is drawn again
        from the game when the game has not moved since; an older board goes as text."""
        out = []
        entries = await self.store.outbox(self.shards)
        sent = await self.store.outbox_sent_of([e[0] for e in entries])
        for entry_id, channel_id, version, text in entries:
            try:
                body = json.loads(text)
                current = self.rows.recent.get(channel_id)
                row = None if current is not None else await self.store.get(channel_id)
                now_version = current.version if current is not None else (row.version if row else None)
                messages = []
                for i, m in enumerate(body["messages"]):
                    if i in sent.get(entry_id, ()):
                        continue  # it went out before the crash (a follow-up, which no nonce protects)
                    msg = message_from_json(m, entry_id, f"{body['nonce']}.{i}")
                    if m["image"] and now_version == version:
                        # drawn in full: what the channel showed before the crash is not known
                        msg.game_id, msg.view = await self._board_view(channel_id)
                        msg.full_image = msg.view is not None
                    messages.append(msg)
                out.append((entry_id, body.get("reply"), messages))
            except Exception:  # a damaged entry must not block the others
                log.exception("outbox entry %s can't be read; dropped", entry_id)
                self.outbox.delivered([entry_id])
        return out

    async def _board_view(self, channel_id: str) -> tuple[str | None, Mapping[str, Any] | None]:
        """(game id, public view) of the channel's game now, for a board to draw again."""
        if not self.boards.render_enabled:
            return None, None
        loaded = await self.rows.load(channel_id)
        if loaded is None or loaded.state is None or get_renderer(loaded.game.id) is None:
            return None, None
        return loaded.game.id, loaded.game.view(loaded.state, None)


def _split_custom_id(custom_id: str) -> tuple[str, str, str, str]:
    """kind, channel, game ref ('' in controls of games from before refs), the rest."""
    kind, _, rest = custom_id.partition(":")
    where, _, rest = rest.partition(":")
    channel_id, _, game_ref = where.partition(".")
    if kind not in ("pb", "ps", "pt", "pg", "pm", "pr") or not channel_id:
        raise InputError("That button is not one of mine.")
    return kind, channel_id, game_ref, rest
