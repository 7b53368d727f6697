"""The play loop: an action applied, committed and answered; AI seats, engine timers and turn timeouts."""
from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from engines import SYSTEM, RuleError

from .. import sentences
from ..ai_worker import AiWorkers, ai_hint, ai_move
from ..messages import Button, Ctx, Outgoing, User
from ..registry import InputError
from ..text import plain
from .boards import Boards
from .clocks import refresh_waiting, turn_timeout
from .common import MAX_AI_STEPS, Loaded, Request, TooLate, control_ref
from ..store.game_row import Status
from .rows import Rows
from .server_data import server_merge


log = logging.getLogger("politics.service")


@dataclass
class PendingSearch:
    """A searched AI move under way in a worker: good only for the row version it started from."""
    version: int
    seat: int
    future: Future[str]


class PlayLoop:
    """Moves: a player's, an AI seat's, the engine's clock's. Each is applied through the engine,
    saved through Rows with the messages Boards builds for it, and answered."""

    def __init__(self, rows: Rows, boards: Boards, *, clock: Callable[[], float], inline_ai: bool,
                 ai_delay: float, ai_workers: AiWorkers | None = None) -> None:
        self.rows = rows
        self.boards = boards
        self.clock = clock
        self.inline_ai = inline_ai  # transcripts and the local table: AI moves at once
        self.ai_delay = ai_delay
        # Searched (hard) moves off the event loop, one per channel at most; inline_ai searches in process.
        self.ai_workers = ai_workers or AiWorkers()
        self.searches: dict[str, PendingSearch] = {}
        self.on_ai_move: Callable[[str, str, float], None] | None = None  # (game, level, seconds): /metrics

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
                    actor: User | None = None, drain: bool = True, lead: str = "") -> list[Outgoing]:
        """Apply one move, commit it and build its messages; then (inline AI, unless `drain` is
        off because the caller is the AI loop itself) let AI seats move until a human must.
        `lead`: the bot's own line about the move, above the engine's (a player left)."""
        record, game = loaded.record, loaded.game
        state = loaded.state if loaded.state is not None else game.load(record.saved_state())
        action = game.parse_action(text)
        humans = [s for s, p in enumerate(record.players) if not p.ai]  # AI seats get no DMs
        before_private = self.rows.private_before(channel_id, loaded)
        if before_private is None or set(before_private) != set(humans):
            before_private = {s: game.private_text(state, s) for s in humans}
        waiting_before = set(game.to_act(state))
        timer_before = record.timer.key if record.timer else None
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
        header = "\n".join(([lead] if lead else []) + public)
        if result.finished:
            # The game's seed is no secret any more: shown so anyone can check or replay the deal.
            # The summary once: where the final move's own lines already say it, "Game over" stands alone.
            summary = plain(result.summary)
            ending = "" if summary and summary in header else f" {summary}"
            header += f"\n🏁 **Game over.**{ending}\n(Seed of this game: {record.seed}.)"
        waiting_after = set(game.to_act(state))
        # A new board message when a human seat's turn begins, the game ends, or the engine opens a
        # clock (a vote, a question, an offer) that a human answers; any other move (the mover's next step, an AI seat's
        # move) is an edit of the turn's board.
        human_turn = any(s >= 0 and not record.players[s].ai and s not in waiting_before for s in waiting_after)
        humans_wait = any(s >= 0 and not record.players[s].ai for s in waiting_after)
        timer_after = record.timer.key if record.timer else None
        # (a clock that only AI seats answer is no news to the table: their answers are lines)
        new_turn = human_turn or result.finished or (
            timer_after is not None and timer_after != timer_before and humans_wait)
        out.append(self.boards.turn_board(channel_id, record, game, state, header, new_turn=new_turn, result=result))
        after_private = {s: game.private_text(state, s) for s in humans}
        for s in humans:
            if s == seat and actor is not None:
                continue  # the actor gets their panel in the reply below
            private_events = [e for e in events if e.to is not None and s in e.to]
            # The turn itself is told by the board's ping, which leads to the seat's controls, and
            # they show its private text as it is now. So a DM goes out for a secret told by an
            # event, for private text that changed while the seat is not being called to move
            # (a hand changed between its turns), or when the game's dm_turns setting asks for turn
            # notices by DM.
            newly_waiting = s in waiting_after and (s not in waiting_before or s == seat)
            pinged = new_turn and s in waiting_after and s not in waiting_before
            changed = after_private[s] != before_private[s] and not pinged
            if private_events or changed or (newly_waiting and record.bot_settings.dm_turns):
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

    async def hint(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        """/politics hint: the search's move for the asker's seat, from that seat's view only (the
        search reads other seats only through the game's determinize), shown to the asker alone.
        The game's record keeps who asked, so its history says hints were used."""
        loaded = await self.rows.require(ctx)
        record, game = loaded.record, loaded.game
        if record.status != "playing":
            raise InputError("Hints are for a game in play." if record.status == "finished"
                             else "The game hasn't started yet: a hint comes when it's your turn.")
        seat = record.seat_of(ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        if not record.bot_settings.hints:
            raise InputError("The host turned hints off for this game (hints=off).")
        state = loaded.state if loaded.state is not None else game.load(record.saved_state())
        if seat not in game.to_act(state) or not game.legal_actions(state, seat):
            raise InputError("A hint comes when it's your turn: there is nothing for you to do right now.")
        moves = sum(record.acted)
        if game.ai_fixed_action(state, seat, game.ai_rng(state, seat + 1000, moves)) is not None:
            # Knowledge, not play (a trivia answer): the AI's answer would tell the asker what they must know.
            raise InputError("Hints are for play, not for answers: this one is yours to know.")
        if self.inline_ai:
            action, chance = ai_hint(game, state, seat, moves, record.bot_settings)
            move, label = action.text(), game.describe_action(state, seat, action)
        else:
            move, chance = await self.ai_workers.hint(game.id, game.dump(state), seat, moves, record.bot_settings)
            label = game.describe_action(state, seat, game.parse_action(move))
        if seat not in record.hinted:
            record.hinted.append(seat)
            await self.rows.save(req, ctx.channel_id, loaded, record)
        odds = (f"The search gives you about {round(chance * 100)}% chance to win from what you can see."
                if chance is not None else "The search gives no estimate: this move is not a matter of search.")
        text = (f"💡 Hint (only you see this): **{plain(label)}** — type `{plain(move)}`.\n"
                f"{odds} (The game's record notes that hints were used.)")
        return [self.boards.reply(ctx, text)]

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
                settings = record.bot_settings
                started = time.perf_counter()
                if settings.ai == "hard" and not self.inline_ai:
                    text = self._searched(channel_id, loaded, seat)
                    if text is None:
                        return False  # still searching: the next visit looks again
                else:
                    text = ai_move(game, state, seat, sum(record.acted), settings).text()
                if self.on_ai_move is not None:  # the front end's /metrics (a worker's search: the wait for it)
                    self.on_ai_move(record.game, settings.ai, time.perf_counter() - started)
                out += await self.apply(req, channel_id, loaded, seat, text, drain=False)
                return True
        return False

    def _searched(self, channel_id: str, loaded: Loaded, seat: int) -> str | None:
        """A hard move searched in a worker: started on the first visit, taken on a later one if the
        row has not moved since (a human's move, a timeout, a cancel drop it). None: not ready."""
        pending = self.searches.get(channel_id)
        if pending is not None and (pending.version, pending.seat) == (loaded.version, seat):
            if not pending.future.done():
                return None
            del self.searches[channel_id]
            try:
                return pending.future.result()
            except Exception:  # a worker died or failed: the game's heuristic moves, the game goes on
                log.exception("AI search failed in %s; the normal AI moves", channel_id)
                record = loaded.record
                return ai_move(loaded.game, loaded.state, seat, sum(record.acted), record.bot_settings,
                               level="normal").text()
        if pending is not None:
            pending.future.cancel()  # the game moved on: that search's move is dropped
        record = loaded.record
        future = self.ai_workers.submit(loaded.game.id, loaded.game.dump(loaded.state), seat, sum(record.acted),
                                        record.bot_settings)
        self.searches[channel_id] = PendingSearch(loaded.version, seat, future)
        return None

    async def wake(self, req: Request, channel_id: str, now: float) -> list[Outgoing]:
        """The scheduler's visit to a game whose wake-up is due: the engine's timer, an AI seat's
        move, a waiting player's reminder or timeout (the AI moves for them once)."""
        loaded = await self.rows.load(channel_id)
        if not loaded or loaded.record.status != "playing":
            self.searches.pop(channel_id, None)  # a search for a game that ended or was cancelled
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
                moved: list[Outgoing] = []
                if not await self._ai_step(req, channel_id, moved, force_seats={seat}):
                    return out  # a searched move under way
                out.append(Outgoing(to="channel", channel_id=channel_id,
                                    text=sentences.ran_out_of_time(name)))
                out += moved
                out += await self.drain_ai(req, channel_id)
                return out
            if since + timeout / 2 <= now and seat not in record.reminded:
                record.reminded.append(seat)
                minutes = int(timeout / 120) or 1  # half the turn's time is left
                uid = record.players[seat].id
                reminder = Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏳ <@{uid}>, the game is waiting for you: about {minutes} "
                                         f"{'minute' if minutes == 1 else 'minutes'} left before the AI moves for you.",
                                    rows=[[Button("Open my controls", f"pg:{control_ref(channel_id, record)}:turn",
                                                  "primary")]],
                                    ping=[uid])
                await self.rows.save(req, channel_id, loaded, record, messages=[reminder])
                out.append(reminder)
                return out
        # Nothing was due after all (e.g. clock skew): recompute the wake time.
        await self.rows.save(req, channel_id, loaded, record)
        return out
