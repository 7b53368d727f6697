"""The play loop: an action applied, committed and answered; AI seats, engine timers and turn timeouts."""
from __future__ import annotations

import time
from collections.abc import Callable

from engines import SYSTEM, RuleError

from ..messages import Button, Ctx, Outgoing, User
from ..registry import InputError
from ..text import plain
from .boards import Boards
from .clocks import refresh_waiting, turn_timeout
from .common import MAX_AI_STEPS, Loaded, Request, TooLate, control_ref
from ..store.game_row import Status
from .rows import Rows
from .server_data import server_merge


class PlayLoop:
    """Moves: a player's, an AI seat's, the engine's clock's. Each is applied through the engine,
    saved through Rows with the messages Boards builds for it, and answered."""

    def __init__(self, rows: Rows, boards: Boards, *, clock: Callable[[], float], inline_ai: bool,
                 ai_delay: float) -> None:
        self.rows = rows
        self.boards = boards
        self.clock = clock
        self.inline_ai = inline_ai  # transcripts and the local table: AI moves at once
        self.ai_delay = ai_delay
        self.on_ai_move: Callable[[str, str, float], None] | None = None  # (game, level, seconds)

    async def do(self, req: Request, ctx: Ctx, action: str) -> list[Outgoing]:
        return await self.act(req, ctx, action)

    async def act(self, req: Request, ctx: Ctx, text: str, expect_acted: int | None = None,
                  quiet_errors: bool = False) -> list[Outgoing]:
        """A seat's move, typed or clicked; `expect_acted`: the seat's move count the clicked
        control was drawn at (TooLate if the seat has moved since)."""
        loaded = await self.rows.require(ctx)
        record = loaded.record
        if record.status == "lobby":
            raise InputError("The game hasn't started yet: the host starts it with /politics start.")
        seat = record.seat_of(ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        if record.status == "finished":
            raise InputError("This game is over; /politics new starts another.")
        if expect_acted is not None and record.acted[seat] != expect_acted:
            raise TooLate()
        try:
            return await self.apply(req, ctx.channel_id, loaded, seat, text, actor=ctx.user)
        except RuleError:
            if quiet_errors:
                return []
            raise

    async def apply(self, req: Request, channel_id: str, loaded: Loaded, seat: int, text: str,
                    actor: User | None = None, drain: bool = True) -> list[Outgoing]:
        """Apply one move, commit it and build its messages; then (inline AI, unless `drain` is
        off because the caller is the AI loop itself) let AI seats move until a human must."""
        record, game = loaded.record, loaded.game
        state = loaded.state if loaded.state is not None else game.load(record.saved_state())
        action = game.parse_action(text)
        humans = [s for s, p in enumerate(record.players) if not p.ai]  # AI seats get no DMs
        before_private = self.rows.private_before(channel_id, loaded)
        if before_private is None or set(before_private) != set(humans):
            before_private = {s: game.private_text(state, s) for s in humans}
        waiting_before = set(game.to_act(state))
        server_before = game.server_updates(state)  # what this game had told the server, to merge with
        # Described before the move: afterwards a card it names may have left play.
        done_label = game.describe_action(state, seat, action) if actor is not None and seat != SYSTEM else ""
        events = game.apply_in_place(state, seat, action)
        record.log.append((seat, action.text()))  # the replay: every applied move, AI and clock too
        if seat != SYSTEM:
            record.acted[seat] += 1
        record.state = game.dump(state)
        result = game.result(state)
        status: Status = "finished" if result.finished else "playing"
        record.status = status
        refresh_waiting(record, game, state, self.clock())
        loaded.state = None  # mutated: whatever happens next, a retry must reload
        # ---- messages, built before the commit: they are stored with it (the outbox) ----
        out: list[Outgoing] = []
        public = [plain(e.text) for e in events if e.to is None]
        header = "\n".join(public)
        if result.finished:
            # The game's seed is no secret any more: shown so anyone can check or replay the deal.
            header += f"\n🏁 **Game over.** {plain(result.summary)}\n(Seed of this game: {record.seed}.)"
        out.append(self.boards.board_message(channel_id, record, game, state, header, result=result))
        waiting_after = set(game.to_act(state))
        after_private = {s: game.private_text(state, s) for s in humans}
        for s in humans:
            if s == seat and actor is not None:
                continue  # the actor gets their panel in the reply below
            private_events = [e for e in events if e.to is not None and s in e.to]
            newly_waiting = s in waiting_after and (s not in waiting_before or s == seat)
            if private_events or newly_waiting or after_private[s] != before_private[s]:
                out += self.boards.private_messages(channel_id, record, game, state, s, private_events,
                                              body=after_private[s])
        if actor is not None and seat != SYSTEM and not record.players[seat].ai:
            mine = [plain(e.text) for e in events if e.to is not None and seat in e.to]
            panel = self.boards.private_panel(Ctx(actor, channel_id), record, game, state, seat, to="ephemeral",
                                        lead="✓ Done: " + plain(done_label) + "\n" + "\n".join(mine),
                                        body=after_private.get(seat))
            out.append(panel)
        await self.rows.save(req, channel_id, loaded, record, status=status, messages=out,
                             server=server_merge(loaded.guild_id, game, server_before, state))
        self.rows.keep_private(channel_id, loaded, after_private)
        if drain:
            out += await self.drain_ai(req, channel_id)
        if result.finished:
            out += self.boards.archive_thread(channel_id, record)  # last, after everything posted in the thread
        return out

    async def drain_ai(self, req: Request, channel_id: str) -> list[Outgoing]:
        """Inline mode only: let AI seats move until a human must act. A loop, one move a turn:
        each AI move is applied with drain=False, so a long all-AI game never nests calls."""
        if not self.inline_ai:
            return []
        out: list[Outgoing] = []
        for _ in range(MAX_AI_STEPS):
            moved = await self._ai_step(req, channel_id, out)
            if not moved:
                break
        return out

    async def _ai_step(self, req: Request, channel_id: str, out: list[Outgoing],
                       force_seats: set[int] | None = None) -> bool:
        loaded = await self.rows.load(channel_id)
        if not loaded or loaded.record.status != "playing":
            return False
        record, game = loaded.record, loaded.game
        state = loaded.state
        for seat in game.to_act(state):
            if seat < 0:
                continue
            if record.players[seat].ai or (force_seats and seat in force_seats):
                started = time.perf_counter()
                action = game.ai_action(state, seat, game.ai_rng(state, seat, sum(record.acted)))
                if self.on_ai_move is not None:  # the front end's /metrics
                    self.on_ai_move(record.game, str(getattr(record.players[seat], "level", "") or ""),
                                    time.perf_counter() - started)
                out += await self.apply(req, channel_id, loaded, seat, action.text(), drain=False)
                return True
        return False

    async def wake(self, req: Request, channel_id: str, now: float) -> list[Outgoing]:
        """The scheduler's visit to a game whose wake-up is due: the engine's timer, an AI seat's
        move, a waiting player's reminder or timeout (the AI moves for them once)."""
        loaded = await self.rows.load(channel_id)
        if not loaded or loaded.record.status != "playing":
            return []
        record, game = loaded.record, loaded.game
        state = loaded.state
        out: list[Outgoing] = []
        timer = record.timer
        if timer and timer.due <= now:
            out += await self.apply(req, channel_id, loaded, timer.seat, timer.action)
            return out
        waiting = record.waiting_since
        for seat in game.to_act(state):
            if seat < 0:
                continue
            since = waiting.get(str(seat), now)
            if record.players[seat].ai:
                if since + self.ai_delay <= now:
                    await self._ai_step(req, channel_id, out)
                    out += await self.drain_ai(req, channel_id)
                    return out
                continue
            timeout = turn_timeout(record)
            if timeout <= 0:
                continue
            if since + timeout <= now:
                name = record.players[seat].name
                out.append(Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏰ {plain(name)} ran out of time; the AI moves for them this time."))
                await self._ai_step(req, channel_id, out, force_seats={seat})
                out += await self.drain_ai(req, channel_id)
                return out
            if since + timeout / 2 <= now and seat not in record.reminded:
                record.reminded.append(seat)
                uid = record.players[seat].id
                reminder = Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏳ <@{uid}>, the game is waiting for you: about {int(timeout / 120) or 1} "
                                         "minute(s) left before the AI moves for you.",
                                    rows=[[Button("Open my controls", f"pg:{control_ref(channel_id, record)}:turn",
                                                  "primary")]],
                                    ping=[uid])
                await self.rows.save(req, channel_id, loaded, record, messages=[reminder])
                out.append(reminder)
                return out
        # Nothing was due after all (e.g. clock skew): recompute the wake time.
        await self.rows.save(req, channel_id, loaded, record)
        return out
