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

import asyncio
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import ValidationError

from engines import Game, Result, RuleError, Seat, SYSTEM, all_games, get_game
from engines.rng import Rng
from render import get_renderer

from .messages import Button, Ctx, Modal, Outgoing, Row, Select, User, countdown
from .registry import InputError, commands, coerce_options
from .store import CorruptRow, Store, parse_record
from .store import Row as StoredRow

log = logging.getLogger("politics.service")

BOT_NAMES = ["Lincoln", "Roosevelt", "Truman", "Eisenhower", "Kennedy", "Johnson", "Nixon", "Ford"]
BOT_SETTINGS = {"timeout"}  # settings the bot keeps; all others belong to the game
MAX_AI_STEPS = 20000
RECENT_CHANNELS = 4096  # channels whose last committed row this process remembers (a few KB each)
CORRUPT = ("The saved game in this channel can't be read (it may be damaged). "
           "The host or a moderator can clear it with /politics cancel; nothing was changed.")


class TooLate(Exception):
    pass


@dataclass
class Recent:
    """What this process last committed in a channel: the next action there starts from it
    instead of reading the row back (one trip to SQLite's thread fewer)."""
    version: int
    guild_id: str | None
    game_id: str
    status: str
    text: str                              # the record's JSON text exactly as written
    state_text: str | None                 # and the state column's
    private: dict[int, str] | None = None  # each human seat's private text after that commit


@dataclass
class Loaded:
    version: int
    record: dict
    game: Game
    guild_id: str | None = None
    state: Any = None  # parsed once in _load; _apply mutates it in place


def parse_settings(text: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise InputError(f"Write settings as key=value (got '{word[:30]}').")
        out[key.strip().lower().replace("-", "_")] = value.strip()
    return out


class GameService:
    def __init__(self, store: Store, *, inline_ai: bool = False, ai_delay: float = 1.5,
                 clock: Callable[[], float] = time.time, render: bool = True) -> None:
        self.store = store
        self.inline_ai = inline_ai  # transcripts and the local table: AI moves at once
        self.ai_delay = ai_delay
        self.clock = clock
        self.render_enabled = render
        self._locks: dict[str, asyncio.Lock] = {}
        # channel -> the row as this process last committed it. Only this process writes
        # its database (one bot per file), so a remembered row is the stored row; a failed
        # compare-and-swap or a delete forgets it, and the next load reads SQLite again.
        self._recent: OrderedDict[str, Recent] = OrderedDict()

    def lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ================================================================
    # entry points
    # ================================================================
    async def _guarded(self, ctx: Ctx, what: str, work, too_late: str) -> list[Outgoing]:
        """Run one request; every failure becomes one sentence to the asker and
        nothing is changed (the store commits only complete actions)."""
        try:
            return await work()
        except (InputError, RuleError) as exc:
            return [self._reply(ctx, str(exc))]
        except CorruptRow:
            return [self._reply(ctx, CORRUPT)]
        except TooLate:
            return [self._reply(ctx, too_late)]
        except Exception:  # a bug: log it, never show a traceback
            log.exception("%s failed", what)
            return [self._reply(ctx, "Something went wrong on our side; nothing was changed. Please try again.")]

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
            handler = getattr(self, f"cmd_{name}")
            async with self.lock(ctx.channel_id):
                return await handler(ctx, **opts)
        return await self._guarded(ctx, f"command {name}", work,
                                   "Too late: the game moved on before your click landed. Nothing was changed.")

    async def component(self, ctx: Ctx, custom_id: str, values: list[str] | None = None) -> list[Outgoing]:
        """A button or select menu. custom_id = kind:channel:... (see _controls)."""
        async def work() -> list[Outgoing]:
            kind, channel_id, rest = _split_custom_id(custom_id)
            here = Ctx(ctx.user, channel_id, ctx.guild_id)
            async with self.lock(channel_id):
                if kind == "pg":
                    return await self._general_button(here, rest)
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
            kind, channel_id, rest = _split_custom_id(custom_id)
            acted_s, _, verb = rest.partition(":")
            if kind != "pm" or not acted_s.isdigit():
                raise InputError("That form is not one of mine.")
            here = Ctx(ctx.user, channel_id, ctx.guild_id)
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

    async def dm_failed(self, channel_id: str, user_id: str, user_name: str | None = None) -> list[Outgoing]:
        """A DM bounced (closed DMs): say so in the channel, reveal nothing, and
        offer the same controls ephemerally."""
        return [Outgoing(
            to="channel", channel_id=channel_id,
            text=(f"<@{user_id}>, I can't send you direct messages (your DMs are closed). "
                  "Press **Open my controls** to see your private cards and moves here, visible only to you."),
            rows=[[Button("Open my controls", f"pg:{channel_id}:turn", "primary")]],
        )]

    # ================================================================
    # lobby commands
    # ================================================================
    async def cmd_new(self, ctx: Ctx, game: str, seed: int | None = None, bots: int | None = None,
                      settings: str | None = None) -> list[Outgoing]:
        if not ctx.guild_id:
            raise InputError("Games are played in server channels, not in direct messages.")
        chosen = get_game(game)
        parsed = parse_settings(settings)
        bot_settings, game_settings = self._split_settings(parsed)
        chosen.options(game_settings)  # validate now, not at start
        existing = await self._load_raw(ctx.channel_id)
        if existing is not None:
            status, title, _ = existing
            if status != "finished":
                raise InputError(f"This channel already has a game of {title} ({status}). "
                                 "Finish it, or the host can /politics cancel it.")
            await self.store.delete(ctx.channel_id, archive=True)
            self._recent.pop(ctx.channel_id, None)
        bots = bots or 0
        if 1 + bots > chosen.max_players:
            raise InputError(f"{chosen.title} takes at most {chosen.max_players} players, so at most {chosen.max_players - 1} bots.")
        players = [{"id": ctx.user.id, "name": _clean_name(ctx.user.name), "bot": False}]
        for i in range(bots):
            players.append({"id": f"bot:{i}", "name": f"AI-{BOT_NAMES[i % len(BOT_NAMES)]}", "bot": True})
        record = {
            "game": chosen.id, "status": "lobby", "host": ctx.user.id, "players": players,
            "options": game_settings, "bot": bot_settings,
            "seed": seed if seed is not None else int(self.clock() * 1000) % (2**31),
            "state": None, "acted": [], "waiting_since": {}, "reminded": [], "timer": None,
            "created": self.clock(),
        }
        if not await self.store.create(ctx.channel_id, ctx.guild_id, chosen.id, "lobby", record):
            raise InputError("This channel already has a game.")
        return [self._lobby_message(ctx.channel_id, record, f"**{_clean_name(ctx.user.name)}** opened a lobby for **{chosen.title}**.")]

    async def cmd_join(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record = loaded.record
        if record["status"] != "lobby":
            raise InputError("The game has already started; you can join the next one.")
        if self._seat_of(record, ctx.user.id) is not None:
            raise InputError("You are already in this lobby.")
        if len(record["players"]) >= loaded.game.max_players:
            raise InputError(f"The lobby is full: {loaded.game.title} takes at most {loaded.game.max_players} players.")
        name = _clean_name(ctx.user.name)
        taken = {p["name"].lower() for p in record["players"]}
        if name.lower() in taken:
            name = f"{name}{len(record['players']) + 1}"
        record["players"].append({"id": ctx.user.id, "name": name, "bot": False})
        await self._save(ctx.channel_id, loaded, record)
        return [self._lobby_message(ctx.channel_id, record, f"**{name}** joined.")]

    async def cmd_leave(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record = loaded.record
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("You are not in this game.")
        name = record["players"][seat]["name"]
        if record["status"] == "lobby":
            record["players"].pop(seat)
            humans = [p for p in record["players"] if not p["bot"]]
            if not humans:
                await self.store.delete(ctx.channel_id, archive=False)
                self._recent.pop(ctx.channel_id, None)
                return [Outgoing(to="channel", channel_id=ctx.channel_id, text=f"**{name}** left; the lobby is closed.")]
            if record["host"] == ctx.user.id:
                record["host"] = humans[0]["id"]
            await self._save(ctx.channel_id, loaded, record)
            return [self._lobby_message(ctx.channel_id, record, f"**{name}** left.")]
        if record["status"] == "finished":
            raise InputError("This game is over.")
        # Mid-game: an AI takes the seat so the game never hangs.
        record["players"][seat]["bot"] = True
        record["players"][seat]["id"] = f"resigned:{ctx.user.id}"
        out = [Outgoing(to="channel", channel_id=ctx.channel_id, text=f"**{name}** left the game; an AI plays their seat from now on.")]
        await self._save(ctx.channel_id, loaded, record, recompute=True)
        out += await self._drain_ai(ctx.channel_id)
        return out

    async def cmd_start(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        if record["status"] != "lobby":
            raise InputError("The game has already started.")
        if ctx.user.id != record["host"]:
            raise InputError("Only the host (who opened the lobby) can start the game.")
        n = len(record["players"])
        if n < game.min_players:
            raise InputError(f"{game.title} needs at least {game.min_players} players; {n} joined. "
                             "Ask others to /politics join, or add AI seats with a new lobby's bots option.")
        seats = [Seat(name=p["name"], bot=p["bot"]) for p in record["players"]]
        guild = loaded.guild_id
        server = await self.store.server_data(guild, game.id)
        state = game.setup(seats, game.options(record["options"]), int(record["seed"]), server=server)
        # The state is kept as its own JSON text: pydantic writes and validates it in one pass
        # (Game.load also reads the older dict form).
        record["state"] = game.dump(state)
        record["status"] = "playing"
        record["acted"] = [0] * n
        record["started"] = self.clock()
        self._refresh_waiting(record, game, state)
        await self._save(ctx.channel_id, loaded, record, status="playing")
        await self._save_server_updates(guild, game, state)
        out = [self._board_message(ctx.channel_id, record, game, state,
                                   f"**{game.title}** begins! Players: {', '.join(p['name'] for p in record['players'])}.",
                                   previous=None)]
        for seat in range(n):
            out += self._private_messages(ctx.channel_id, record, game, state, seat, events=[])
        out += await self._drain_ai(ctx.channel_id)
        return out

    async def cmd_cancel(self, ctx: Ctx) -> list[Outgoing]:
        raw = await self._load_raw(ctx.channel_id)
        if raw is None:
            raise InputError("There is no game in this channel.")
        try:
            row = await self.store.get(ctx.channel_id)
            host = row.record.get("host") if row else None
        except CorruptRow:
            host = None  # a damaged row: a moderator may still clear it
        if ctx.user.id != host and not ctx.user.manage_channel:
            raise InputError("Only the host or someone with Manage Channels can cancel the game.")
        await self.store.delete(ctx.channel_id, archive=True)
        self._recent.pop(ctx.channel_id, None)
        return [Outgoing(to="channel", channel_id=ctx.channel_id, text=f"The game of {raw[1]} was cancelled by **{_clean_name(ctx.user.name)}**.")]

    async def cmd_settings(self, ctx: Ctx, settings: str | None = None) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        if settings:
            if record["status"] != "lobby":
                raise InputError("Settings can only be changed in the lobby, before the game starts.")
            if ctx.user.id != record["host"]:
                raise InputError("Only the host can change the settings.")
            bot_settings, game_settings = self._split_settings(parse_settings(settings))
            merged = {**record["options"], **game_settings}
            game.options(merged)
            record["options"] = merged
            record["bot"] = {**record.get("bot", {}), **bot_settings}
            await self._save(ctx.channel_id, loaded, record)
            return [self._lobby_message(ctx.channel_id, record, "Settings changed.")]
        return [self._reply(ctx, self._settings_text(record, game))]

    # ================================================================
    # game commands
    # ================================================================
    async def cmd_do(self, ctx: Ctx, action: str) -> list[Outgoing]:
        return await self._act(ctx, action)

    async def cmd_status(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        if record["status"] == "lobby":
            return [self._lobby_message(ctx.channel_id, record, "Waiting in the lobby.")]
        state = loaded.state
        return [self._board_message(ctx.channel_id, record, game, state, "", previous=None)]

    async def cmd_hand(self, ctx: Ctx) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        if record["status"] == "lobby":
            raise InputError("The game hasn't started yet.")
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("You are not a player in this game.")
        state = loaded.state
        return [self._private_panel(ctx, record, game, state, seat, to="ephemeral")]

    async def cmd_rules(self, ctx: Ctx, game: str | None = None) -> list[Outgoing]:
        if game is None:
            row = await self._load_raw(ctx.channel_id)
            game = row[2] if row else None
        if game is None:
            listing = "\n".join(f"• **{g.id}** — {g.summary}" for g in all_games().values())
            return [self._reply(ctx, f"Which game? /politics rules game:<id>\n{listing}")]
        g = get_game(game)
        return [self._reply(ctx, g.rules_text or g.summary)]

    async def cmd_help(self, ctx: Ctx) -> list[Outgoing]:
        games = "\n".join(f"• **{g.id}** ({g.min_players}–{g.max_players}) — {g.summary}" for g in all_games().values())
        text = (
            "**politics-bot** hosts election board games in this channel.\n"
            "`/politics new game:<id>` opens a lobby (options: seed, bots, settings) · `/politics join` · "
            "`/politics start` (host) · `/politics do action:<move>` (autocompletes legal moves) · "
            "`/politics hand` (your private view) · `/politics status` · `/politics rules` · "
            "`/politics settings` · `/politics leave` · `/politics cancel`.\n"
            "Buttons on each turn prompt open your moves privately; secret cards and picks come by DM.\n"
            f"**Games**\n{games}"
        )
        return [self._reply(ctx, text)]

    # ================================================================
    # the action path
    # ================================================================
    async def _act(self, ctx: Ctx, text: str, expect_acted: int | None = None,
                   quiet_errors: bool = False) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
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
                     actor: User | None = None) -> list[Outgoing]:
        record, game = loaded.record, loaded.game
        state = loaded.state if loaded.state is not None else game.load(record["state"])
        action = game.parse_action(text)
        # The view before the move only serves the renderer (it may draw just what changed).
        before = game.view(state, None) if self.render_enabled else None
        humans = [s for s, p in enumerate(record["players"]) if not p["bot"]]  # AI seats get no DMs
        recent = self._recent.get(channel_id)
        before_private = recent.private if recent is not None and recent.version == loaded.version else None
        if before_private is None or set(before_private) != set(humans):
            before_private = {s: game.private_text(state, s) for s in humans}
        waiting_before = set(game.to_act(state))
        # Described before the move: afterwards a card it names may have left play.
        done_label = game.describe_action(state, seat, action) if actor is not None and seat != SYSTEM else ""
        events = game.apply_in_place(state, seat, action)
        if seat != SYSTEM:
            record["acted"][seat] += 1
        record["state"] = game.dump(state)
        result = game.result(state)
        status = "finished" if result.finished else "playing"
        record["status"] = status
        self._refresh_waiting(record, game, state)
        await self._save(channel_id, loaded, record, status=status)
        loaded.state = None  # mutated and saved; a retry must reload
        await self._save_server_updates(loaded.guild_id, game, state)
        # ---- messages (all after the commit) ----
        out: list[Outgoing] = []
        public = [e.text for e in events if e.to is None]
        header = "\n".join(public)
        if result.finished:
            header += f"\n🏁 **Game over.** {result.summary}"
        out.append(self._board_message(channel_id, record, game, state, header, previous=before, result=result))
        waiting_after = set(game.to_act(state))
        after_private = {s: game.private_text(state, s) for s in humans}
        recent = self._recent.get(channel_id)
        if recent is not None and recent.version == loaded.version:
            recent.private = after_private  # the next move's "before" texts
        for s in humans:
            if s == seat and actor is not None:
                continue  # the actor gets their panel in the reply below
            private_events = [e for e in events if e.to is not None and s in e.to]
            newly_waiting = s in waiting_after and (s not in waiting_before or s == seat)
            if private_events or newly_waiting or after_private[s] != before_private[s]:
                out += self._private_messages(channel_id, record, game, state, s, private_events,
                                              body=after_private[s])
        if actor is not None and seat != SYSTEM and not record["players"][seat]["bot"]:
            mine = [e.text for e in events if e.to is not None and seat in e.to]
            panel = self._private_panel(Ctx(actor, channel_id), record, game, state, seat, to="ephemeral",
                                        lead="✓ Done: " + done_label + "\n" + "\n".join(mine),
                                        body=after_private.get(seat))
            out.append(panel)
        out += await self._drain_ai(channel_id)
        return out

    async def _drain_ai(self, channel_id: str) -> list[Outgoing]:
        """Inline mode only: let AI seats move until a human must act."""
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
                rng = Rng((int(record["seed"]) * 1_000_003 + sum(record["acted"]) * 7919 + seat) & ((1 << 64) - 1))
                action = game.ai_action(state, seat, rng)
                out += await self._apply(channel_id, loaded, seat, action.text())
                return True
        return False

    # ================================================================
    # scheduled work: AI delays, engine timers, turn timeouts
    # ================================================================
    async def tick(self, now: float | None = None) -> list[Outgoing]:
        now = self.clock() if now is None else now
        out: list[Outgoing] = []
        for channel_id in await self.store.due(now):
            async with self.lock(channel_id):
                try:
                    out += await self._wake(channel_id, now)
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
                    return out
                continue
            timeout = float(record.get("bot", {}).get("timeout", 0) or 0) * 60
            if timeout <= 0:
                continue
            if since + timeout <= now:
                name = record["players"][seat]["name"]
                out.append(Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏰ {name} ran out of time; the AI moves for them this time."))
                await self._ai_step(channel_id, out, force_seats={seat})
                return out
            if since + timeout / 2 <= now and seat not in record.get("reminded", []):
                record.setdefault("reminded", []).append(seat)
                await self._save(channel_id, loaded, record)
                uid = record["players"][seat]["id"]
                out.append(Outgoing(to="channel", channel_id=channel_id,
                                    text=f"⏳ <@{uid}>, the game is waiting for you: about {int(timeout / 120) or 1} "
                                         "minute(s) left before the AI moves for you.",
                                    rows=[[Button("Open my controls", f"pg:{channel_id}:turn", "primary")]]))
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

    # ================================================================
    # components
    # ================================================================
    async def _general_button(self, ctx: Ctx, what: str) -> list[Outgoing]:
        if what == "join":
            return await self.cmd_join(ctx)
        if what == "start":
            return await self.cmd_start(ctx)
        if what in ("turn", "hand"):
            return await self.cmd_hand(ctx)
        if what == "status":
            return await self.cmd_status(ctx)
        raise InputError("That button is not one of mine.")

    async def _navigate(self, ctx: Ctx, acted: int, path: str) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("These controls belong to another player.")
        if record["status"] != "playing":
            raise InputError("This game is over." if record["status"] == "finished" else "The game hasn't started yet.")
        if record["acted"][seat] != acted:
            raise TooLate()
        go = path.endswith(" !")
        path = path[:-2] if go else path
        tokens = tuple(path.split())
        state = loaded.state
        legal = [a.tokens() for a in game.legal_actions(state, seat)]
        complete = any(tuple(t) == tokens for t in legal)
        longer = any(len(t) > len(tokens) and tuple(t[: len(tokens)]) == tokens for t in legal)
        if complete and (go or not longer):
            return await self._act(ctx, " ".join(tokens), expect_acted=acted)
        if not longer:
            raise InputError("That move is no longer possible.")
        return [self._private_panel(ctx, record, game, state, seat, to="edit", prefix=tokens)]

    async def _open_text_prompt(self, ctx: Ctx, acted: int, verb: str) -> list[Outgoing]:
        loaded = await self._require(ctx.channel_id)
        record, game = loaded.record, loaded.game
        seat = self._seat_of(record, ctx.user.id)
        if seat is None:
            raise InputError("These controls belong to another player.")
        if record["acted"][seat] != acted:
            raise TooLate()
        state = loaded.state
        for prompt in game.text_prompts(state, seat):
            if prompt.verb == verb:
                return [Outgoing(to="modal", user_id=ctx.user.id, modal=Modal(
                    custom_id=f"pm:{ctx.channel_id}:{acted}:{verb}", title=_clip(prompt.label, 45),
                    label=_clip(prompt.label, 45), placeholder=_clip(prompt.placeholder, 100)))]
        raise InputError("That question is no longer open.")

    def _controls(self, channel_id: str, record: dict, game: Game, state, seat: int,
                  prefix: tuple[str, ...] = ()) -> list[Row]:
        """Menus built from the words of the legal actions: each step offers the
        distinct next words. custom_ids carry the channel, the seat's action
        count (stale clicks are refused) and the words chosen so far."""
        acted = record["acted"][seat]
        legal = [tuple(a.tokens()) for a in game.legal_actions(state, seat)]
        matching = [t for t in legal if t[:len(prefix)] == prefix]
        while True:
            depth = len(prefix)
            nexts = list(dict.fromkeys(t[depth] for t in matching if len(t) > depth))
            complete = any(len(t) == depth for t in matching)
            if len(nexts) != 1 or complete:
                break
            # A step with one choice and nothing to confirm is no choice: skip it.
            prefix += (nexts[0],)
            matching = [t for t in matching if len(t) > depth]
        complete = complete and depth > 0
        rows: list[Row] = []
        base = f"{channel_id}:{acted}:"
        path = " ".join(prefix)
        if nexts:
            labelled = [(_clip(game.token_label(state, seat, prefix, tok), 80), tok) for tok in nexts]
            ids = [f"pb:{base}" + " ".join(prefix + (tok,)) for tok in nexts]
            if len(nexts) <= 5 and all(len(i) <= 100 for i in ids):
                rows.append([Button(label, cid, "primary" if depth else "secondary")
                             for (label, _tok), cid in zip(labelled, ids)])
            else:
                for start in range(0, min(len(labelled), 100), 25):
                    chunk = labelled[start:start + 25]
                    # "~N" only keeps the ids of several selects distinct; it is dropped on use.
                    cid = f"ps:{base}{path}" + (f" ~{start // 25}" if start else "")
                    rows.append([Select(cid[:100], f"Choose ({start + 1}–{start + len(chunk)} of {len(labelled)})",
                                        tuple(chunk))])
        extra: Row = []
        if complete:
            extra.append(Button("✓ Confirm", f"pb:{base}{path} !", "success"))
        if depth:
            # Back to the nearest step that offered a real choice; steps that were
            # skipped (one choice) would only lead straight back here.
            up = prefix[:-1]
            while up and _forced(legal, up):
                up = up[:-1]
            if up or not _forced(legal, ()):
                extra.append(Button("← Back", f"pb:{base}{' '.join(up)}".rstrip(), "secondary"))
        for prompt in game.text_prompts(state, seat)[:3]:
            extra.append(Button(_clip(prompt.label, 80), f"pt:{base}{prompt.verb}", "primary"))
        if extra:
            rows.append(extra)
        return rows[:5]

    # ================================================================
    # message builders
    # ================================================================
    def _board_message(self, channel_id: str, record: dict, game: Game, state, header: str,
                       previous: dict | None, result: Result | None = None) -> Outgoing:
        status = game.status_text(state)
        result = result or game.result(state)
        text = "\n".join(x for x in (header.strip(), status if not result.finished else "") if x)
        timer = record.get("timer")
        if timer and not result.finished:
            # a live countdown in every client (the engine's clock: a question, an offer, a vote)
            text += f"\n⏱️ Time runs out {countdown(timer['due'])}."
        rows: list[Row] = []
        if not result.finished:
            buttons = [Button("Open my controls", f"pg:{channel_id}:turn", "primary")]
            if game.private_info:
                buttons.append(Button("My hand", f"pg:{channel_id}:hand", "secondary"))
            rows = [buttons]
        job = None
        renderer = get_renderer(game.id) if self.render_enabled else None
        if renderer is not None:
            view = game.view(state, None)
            if previous is None or previous != view:
                job = _image_job(renderer, view, previous)
        return Outgoing(to="channel", channel_id=channel_id, text=text or status, rows=rows, image_job=job)

    def _private_panel(self, ctx: Ctx, record: dict, game: Game, state, seat: int, to: str,
                       prefix: tuple[str, ...] = (), lead: str = "", body: str | None = None) -> Outgoing:
        if body is None:
            body = game.private_text(state, seat)
        rows = self._controls(ctx.channel_id, record, game, state, seat, prefix)
        if not rows:
            waiting = game.to_act(state)
            tail = "The game is over." if game.result(state).finished else (
                "Nothing to do right now." if seat not in waiting else "Type your move with /politics do.")
        else:
            tail = "Your move:" if not prefix else f"Your move: **{' '.join(prefix)}** …"
        text = "\n".join(x for x in (lead.strip(), body, tail) if x)
        return Outgoing(to=to, channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name,
                        text=text, rows=rows)

    def _private_messages(self, channel_id: str, record: dict, game: Game, state, seat: int,
                          events: list, body: str | None = None) -> list[Outgoing]:
        player = record["players"][seat]
        if player["bot"]:
            return []
        user = User(player["id"], player["name"])
        lead = "\n".join(e.text for e in events)
        if body is None:
            body = game.private_text(state, seat)
        panel = self._private_panel(Ctx(user, channel_id), record, game, state, seat, to="dm", lead=lead, body=body)
        if not panel.rows and not lead and not body:
            return []
        panel.text = f"**{game.title}** in <#{channel_id}>\n" + panel.text
        return [panel]

    def _lobby_message(self, channel_id: str, record: dict, lead: str) -> Outgoing:
        game = get_game(record["game"])
        names = ", ".join(p["name"] for p in record["players"])
        host = next((p["name"] for p in record["players"] if p["id"] == record["host"]), "?")
        text = (f"{lead}\n**{game.title}** lobby ({len(record['players'])}/{game.max_players}, "
                f"needs {game.min_players}): {names}. Host: {host}.")
        if record["options"] or record.get("bot"):
            text += "\nSettings: " + " ".join(f"{k}={v}" for k, v in {**record["options"], **record.get("bot", {})}.items())
        return Outgoing(to="channel", channel_id=channel_id, text=text, rows=[[
            Button("Join", f"pg:{channel_id}:join", "primary"),
            Button("Start (host)", f"pg:{channel_id}:start", "success")]])

    def _settings_text(self, record: dict, game: Game) -> str:
        current = game.options(record["options"]).model_dump()
        lines = [f"**{game.title} settings** (change in the lobby: /politics settings settings:\"key=value\")"]
        for name, info in game.OptionsModel.model_fields.items():
            lines.append(f"• `{name}` = {_fmt(current[name])} — {info.description or ''}")
        timeout = record.get("bot", {}).get("timeout", 0)
        lines.append(f"• `timeout` = {timeout} — minutes before a reminder (half-way) and an AI move for a waiting player (0 = off)")
        return "\n".join(lines)

    def _reply(self, ctx: Ctx, text: str) -> Outgoing:
        return Outgoing(to="ephemeral", channel_id=ctx.channel_id, user_id=ctx.user.id, user_name=ctx.user.name, text=text)

    # ================================================================
    # per-server data (custom questions)
    # ================================================================
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

    # ================================================================
    # loading and saving
    # ================================================================
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

    async def _require(self, channel_id: str) -> Loaded:
        loaded = await self._load(channel_id)
        if loaded is None:
            raise InputError("There is no game in this channel: /politics new game:<id> opens one.")
        return loaded

    async def _save(self, channel_id: str, loaded: Loaded, record: dict, status: str | None = None,
                    recompute: bool = False) -> None:
        if recompute and record.get("state"):
            self._refresh_waiting(record, loaded.game, loaded.game.load(record["state"]))
        status = status or record["status"]
        written = await self.store.update(channel_id, loaded.version, status, record, self._wake_at(record))
        if written is None:
            self._recent.pop(channel_id, None)
            raise TooLate()
        loaded.version += 1
        self._recent[channel_id] = Recent(loaded.version, loaded.guild_id, loaded.game.id, status, *written)
        self._recent.move_to_end(channel_id)
        if len(self._recent) > RECENT_CHANNELS:
            self._recent.popitem(last=False)


    async def _complete_settings(self, ctx: Ctx, current: str) -> list[tuple[str, str]]:
        row = await self._load_raw(ctx.channel_id)
        games = [get_game(row[2])] if row else list(all_games().values())
        head, _, last = current.rpartition(" ")
        out = []
        for game in games:
            for name, info in game.OptionsModel.model_fields.items():
                if name.startswith(last.split("=")[0]):
                    value = f"{head} {name}={_fmt(info.default)}".strip()
                    out.append((_clip(f"{name}={_fmt(info.default)} — {info.description or ''}", 100), _clip(value, 100)))
        out.append((_clip("timeout=0 — minutes before the AI moves for a waiting player", 100),
                    _clip(f"{head} timeout=0".strip(), 100)))
        return out[:25]

    def _seat_of(self, record: dict, user_id: str) -> int | None:
        for i, p in enumerate(record["players"]):
            if p["id"] == user_id:
                return i
        return None

    def _split_settings(self, parsed: dict[str, str]) -> tuple[dict, dict]:
        bot_settings = {k: v for k, v in parsed.items() if k in BOT_SETTINGS}
        if "timeout" in bot_settings:
            try:
                minutes = float(bot_settings["timeout"])
            except ValueError:
                raise InputError("timeout is a number of minutes (0 turns it off).") from None
            if not 0 <= minutes <= 1440:
                raise InputError("timeout must be between 0 and 1440 minutes.")
            bot_settings["timeout"] = minutes
        return bot_settings, {k: v for k, v in parsed.items() if k not in BOT_SETTINGS}


def _forced(legal: list, prefix: tuple[str, ...]) -> bool:
    """True if the menus skip this step: exactly one next word and nothing to confirm."""
    depth = len(prefix)
    matching = [t for t in legal if tuple(t[:depth]) == prefix]
    return len({t[depth] for t in matching if len(t) > depth}) == 1 and not any(len(t) == depth for t in matching)


def _image_job(renderer, view: dict, previous: dict | None):
    def job():
        return renderer(view, previous)
    return job


def _split_custom_id(custom_id: str) -> tuple[str, str, str]:
    kind, _, rest = custom_id.partition(":")
    channel_id, _, rest = rest.partition(":")
    if kind not in ("pb", "ps", "pt", "pg", "pm") or not channel_id:
        raise InputError("That button is not one of mine.")
    return kind, channel_id, rest


def _clean_name(name: str) -> str:
    cleaned = " ".join(str(name).replace("@", "").replace("`", "").replace("*", "").split())[:32]
    return cleaned or "player"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _fmt(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)
