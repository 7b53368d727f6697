"""The play loop: an action applied, committed and answered; AI seats, engine timers and turn timeouts."""
from __future__ import annotations

from engines import SYSTEM, Game, RuleError

from ..messages import Button, Ctx, Outgoing, User
from ..registry import InputError
from ..store import CorruptRow
from ..text import plain
from .common import MAX_AI_STEPS, Loaded, TooLate, control_ref, log


class PlayLoop:
    """Part of GameService (see bot/service/__init__.py)."""

    async def cmd_do(self, ctx: Ctx, action: str) -> list[Outgoing]:
        return await self._act(ctx, action)

    async def _act(self, ctx: Ctx, text: str, expect_acted: int | None = None,
                   quiet_errors: bool = False) -> list[Outgoing]:
        loaded = await self._require(ctx)
        record = loaded.record
        if record["status"] == "lobby":
            raise InputError("The game hasn't started yet: the host starts it with /politics start.")
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        if record["status"] == "finished":
            raise InputError("This game is over; /politics new starts another.")
        if expect_acted is not None and record["acted"][seat] != expect_acted:
            raise TooLate()
        try:
            return await self._apply(ctx.channel_id, loaded, seat, text, actor=ctx.user)
        except RuleError:
            if quiet_errors:
                return []
            raise

    async def _apply(self, channel_id: str, loaded: Loaded, seat: int, text: str,
                     actor: User | None = None, drain: bool = True) -> list[Outgoing]:
        """Apply one move, commit it and build its messages; then (inline AI, unless `drain` is
        off because the caller is the AI loop itself) let AI seats move until a human must."""
        record, game = loaded.record, loaded.game
        state = loaded.state if loaded.state is not None else game.load(record["state"])
        action = game.parse_action(text)
        humans = [s for s, p in enumerate(record["players"]) if not p["bot"]]  # AI seats get no DMs
        recent = self._recent.get(channel_id)
        before_private = recent.private if recent is not None and recent.version == loaded.version else None
        if before_private is None or set(before_private) != set(humans):
            before_private = {s: game.private_text(state, s) for s in humans}
        waiting_before = set(game.to_act(state))
        server_before = game.server_updates(state)  # what this game had told the server, to merge with
        # Described before the move: afterwards a card it names may have left play.
        done_label = game.describe_action(state, seat, action) if actor is not None and seat != SYSTEM else ""
        events = game.apply_in_place(state, seat, action)
        record.setdefault("log", []).append([seat, action.text()])  # the replay: every applied move, AI and clock too
        if seat != SYSTEM:
            record["acted"][seat] += 1
        record["state"] = game.dump(state)
        result = game.result(state)
        status = "finished" if result.finished else "playing"
        record["status"] = status
        self._refresh_waiting(record, game, state)
        loaded.state = None  # mutated: whatever happens next, a retry must reload
        # ---- messages, built before the commit: they are stored with it (the outbox) ----
        out: list[Outgoing] = []
        public = [plain(e.text) for e in events if e.to is None]
        header = "\n".join(public)
        if result.finished:
            # The game's seed is no secret any more: shown so anyone can check or replay the deal.
            header += f"\n🏁 **Game over.** {plain(result.summary)}\n(Seed of this game: {record['seed']}.)"
        out.append(self._board_message(channel_id, record, game, state, header, result=result))
        waiting_after = set(game.to_act(state))
        after_private = {s: game.private_text(state, s) for s in humans}
        for s in humans:
            if s == seat and actor is not None:
                continue  # the actor gets their panel in the reply below
            private_events = [e for e in events if e.to is not None and s in e.to]
            newly_waiting = s in waiting_after and (s not in waiting_before or s == seat)
            if private_events or newly_waiting or after_private[s] != before_private[s]:
                out += self._private_messages(channel_id, record, game, state, s, private_events,
                                              body=after_private[s])
        if actor is not None and seat != SYSTEM and not record["players"][seat]["bot"]:
            mine = [plain(e.text) for e in events if e.to is not None and seat in e.to]
            panel = self._private_panel(Ctx(actor, channel_id), record, game, state, seat, to="ephemeral",
                                        lead="✓ Done: " + plain(done_label) + "\n" + "\n".join(mine),
                                        body=after_private.get(seat))
            out.append(panel)
        await self._save(channel_id, loaded, record, status=status, messages=out,
                         server=self._server_merge(loaded.guild_id, game, server_before, state))
        recent = self._recent.get(channel_id)
        if recent is not None and recent.version == loaded.version:
            recent.private = after_private  # the next move's "before" texts
        if drain:
            out += await self._drain_ai(channel_id)
        if result.finished:
            out += self._archive_thread(channel_id, record)  # last, after everything posted in the thread
        return out

    async def _drain_ai(self, channel_id: str) -> list[Outgoing]:
        """Inline mode only: let AI seats move until a human must act. A loop, one move a turn:
        each AI move is applied with drain=False, so a long all-AI game never nests calls."""
        if not self.inline_ai:
            return []
        out: list[Outgoing] = []
        for _ in range(MAX_AI_STEPS):
            moved = await self._ai_step(channel_id, out)
            if not moved:
                break
        return out

    async def _ai_step(self, channel_id: str, out: list[Outgoing], force_seats: set[int] | None = None) -> bool:
        loaded = await self._load(channel_id)
        if not loaded or loaded.record["status"] != "playing":
            return False
        record, game = loaded.record, loaded.game
        state = loaded.state
        for seat in game.to_act(state):
            if seat < 0:
                continue
            if record["players"][seat]["bot"] or (force_seats and seat in force_seats):
                action = game.ai_action(state, seat, game.ai_rng(state, seat, sum(record["acted"])))
                out += await self._apply(channel_id, loaded, seat, action.text(), drain=False)
                return True
        return False

    async def tick(self, now: float | None = None) -> list[Outgoing]:
        now = self.clock() if now is None else now
        out: list[Outgoing] = []
        for channel_id in await self.store.due(now, shards=self.shards):
            async with self.lock(channel_id):
                try:
                    out += await self._wake(channel_id, now)
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

    async def _wake(self, channel_id: str, now: float) -> list[Outgoing]:
        loaded = await self._load(channel_id)
        if not loaded or loaded.record["status"] != "playing":
            return []
        record, game = loaded.record, loaded.game
        state = loaded.state
        out: list[Outgoing] = []
        timer = record.get("timer")
        if timer and timer["due"] <= now:
            out += await self._apply(channel_id, loaded, timer["seat"], timer["action"])
            return out
        waiting = record.get("waiting_since", {})
        for seat in game.to_act(state):
            if seat < 0:
                continue
            since = waiting.get(str(seat), now)
            if record["players"][seat]["bot"]:
                if since + self.ai_delay <= now:
                    await self._ai_step(channel_id, out)
                    out += await self._drain_ai(channel_id)
                    return out
                continue
            timeout = float(record.get("bot", {}).get("timeout", 0) or 0) * 60
            if timeout <= 0:
                continue
            if since + timeout <= now:
                name = record["players"][seat]["name"]
                out.append(Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏰ {plain(name)} ran out of time; the AI moves for them this time."))
                await self._ai_step(channel_id, out, force_seats={seat})
                out += await self._drain_ai(channel_id)
                return out
            if since + timeout / 2 <= now and seat not in record.get("reminded", []):
                record.setdefault("reminded", []).append(seat)
                uid = record["players"][seat]["id"]
                reminder = Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏳ <@{uid}>, the game is waiting for you: about {int(timeout / 120) or 1} "
                                         "minute(s) left before the AI moves for you.",
                                    rows=[[Button("Open my controls", f"pg:{control_ref(channel_id, record)}:turn",
                                                  "primary")]],
                                    ping=[uid])
                await self._save(channel_id, loaded, record, messages=[reminder])
                out.append(reminder)
                return out
        # Nothing was due after all (e.g. clock skew): recompute the wake time.
        await self._save(channel_id, loaded, record)
        return out

    def _refresh_waiting(self, record: dict, game: Game, state) -> None:
        now = self.clock()
        waiting = {k: v for k, v in record.get("waiting_since", {}).items()}
        current = set(game.to_act(state)) if record["status"] == "playing" else set()
        # A seat's clock restarts whenever it becomes someone's turn anew or acts.
        fresh = {}
        for seat in current:
            key = str(seat)
            fresh[key] = waiting.get(key, now)
        record["waiting_since"] = fresh
        record["reminded"] = [s for s in record.get("reminded", []) if s in current]
        t = game.timer(state) if record["status"] == "playing" else None
        if t is None:
            record["timer"] = None
        elif not record.get("timer") or record["timer"]["key"] != t.key:
            record["timer"] = {"key": t.key, "due": now + t.seconds, "seat": t.seat, "action": t.action_text}

    def _wake_at(self, record: dict) -> float | None:
        if record["status"] != "playing":
            return None
        times = []
        if record.get("timer"):
            times.append(record["timer"]["due"])
        timeout = float(record.get("bot", {}).get("timeout", 0) or 0) * 60
        for key, since in record.get("waiting_since", {}).items():
            seat = int(key)
            if seat < 0 or seat >= len(record["players"]):
                continue
            if record["players"][seat]["bot"]:
                times.append(since + self.ai_delay)
            elif timeout > 0:
                times.append(since + (timeout if seat in record.get("reminded", []) else timeout / 2))
        return min(times) if times else None
