"""Lobby commands: opening, joining, leaving, starting and cancelling a game, its settings, rules and help."""
from __future__ import annotations

import secrets

from typing import Any
from collections.abc import Callable, Mapping

from engines import SYSTEM, Game, HandOver, Seat, all_games, get_game
from engines.search import LOBBY_LEVELS

from .. import records, sentences
from ..messages import Button, Ctx, Outgoing
from ..registry import InputError
from ..store import BotSettings, CorruptRow, GameRecord, Player, Row, Store
from ..text import display_name, plain
from .boards import Boards, public_seed_note
from .clocks import refresh_waiting
from .common import BOT_NAMES, BOT_SETTINGS, Request, _clip, _fmt, control_ref, log, new_game_ref
from .outbox import Outbox
from .play_loop import PlayLoop
from .rows import Rows
from .server_data import server_merge


def parse_settings(text: str | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for word in (text or "").replace(",", " ").split():
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise InputError(f"Write settings as key=value (got '{word[:30]}').")
        out[key.strip().lower().replace("-", "_")] = value.strip()
    return out


def check_settings(game: Game, text: str | None,
                   current: Mapping[str, Any] | None = None) -> tuple[BotSettings, dict[str, Any]]:
    """`key=value …` split into the bot's settings and the game's, both checked now, once:
    an unknown key is named together with the keys that exist. The game's settings come back
    typed (as its Options model reads them), on top of `current` (the lobby's so far), with the
    keys the host has given; a combination the game refuses is refused here."""
    parsed = parse_settings(text)
    valid = sorted(game.OptionsModel.model_fields) + sorted(BOT_SETTINGS)
    unknown = [k for k in parsed if k not in valid]
    if unknown:
        raise InputError(f"{game.title} has no setting '{unknown[0][:30]}'; its settings are {', '.join(valid)}.")
    bot_settings: dict[str, Any] = {k: v for k, v in parsed.items() if k in BOT_SETTINGS}
    if "timeout" in bot_settings:
        try:
            minutes = float(bot_settings["timeout"])
        except ValueError:
            raise InputError("timeout is a number of minutes (0 turns it off).") from None
        if not 0 <= minutes <= 1440:
            raise InputError("timeout must be between 0 and 1440 minutes.")
        bot_settings["timeout"] = minutes
    if "archive" in bot_settings:
        bot_settings["archive"] = _switch(bot_settings["archive"],
                                          "archive is yes or no: archive a game's thread when the game ends.")
    if "hints" in bot_settings:
        bot_settings["hints"] = _switch(bot_settings["hints"], "hints is on or off: may players ask /politics hint.")
    if "dm_turns" in bot_settings:
        bot_settings["dm_turns"] = _switch(bot_settings["dm_turns"],
                                           "dm-turns is on or off: tell each player their turn by DM as well.")
    if "ai" in bot_settings:
        level = str(bot_settings["ai"]).lower()
        if level not in LOBBY_LEVELS:
            raise InputError(f"ai is the AI seats' level: {', '.join(LOBBY_LEVELS)} (got '{level[:20]}').")
        bot_settings["ai"] = level
    if "ai_budget_ms" in bot_settings:
        bot_settings["ai_budget_ms"] = _whole(bot_settings["ai_budget_ms"], 50, 10000,
                                              "ai_budget_ms is a hard AI move's time in milliseconds, 50 to 10000.")
    if "ai_iterations" in bot_settings:
        bot_settings["ai_iterations"] = _whole(
            bot_settings["ai_iterations"], 1, 100000,
            "ai_iterations is a hard AI move's number of searches, 1 to 100000 (the same seed, the same moves).")
    given = {**(current or {}), **{k: v for k, v in parsed.items() if k not in BOT_SETTINGS}}
    options = game.options(given)  # RuleError: one sentence naming the setting
    return BotSettings(**bot_settings), options.model_dump(mode="json", include=set(given))


def _switch(value: Any, sentence: str) -> bool:
    word = str(value).lower()
    if word not in ("yes", "no", "on", "off", "true", "false", "1", "0"):
        raise InputError(sentence)
    return word in ("yes", "on", "true", "1")


def _whole(value: Any, low: int, high: int, sentence: str) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise InputError(sentence) from None
    if not low <= number <= high:
        raise InputError(sentence)
    return number


class Lobby:
    """The lobby's commands. A new game's row is created here; every later change is saved
    through Rows. Starting a game (and a player leaving one) hands the AI seats to the play loop."""

    def __init__(self, store: Store, rows: Rows, boards: Boards, outbox: Outbox, play: PlayLoop, *,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.rows = rows
        self.boards = boards
        self.outbox = outbox
        self.play = play
        self.clock = clock

    async def new(self, req: Request, ctx: Ctx, game: str, seed: int | None = None, bots: int | None = None,
                      settings: str | None = None, thread: bool | None = None) -> list[Outgoing]:
        if not ctx.guild_id:
            raise InputError("Games are played in server channels, not in direct messages.")
        chosen = get_game(game)
        bot_settings, game_settings = check_settings(chosen, settings)  # validated now, not at start
        bots = bots or 0
        if 1 + bots > chosen.max_players:
            raise InputError(f"{chosen.title} takes at most {chosen.max_players} players, "
                             f"so at most {chosen.max_players - 1} bots.")
        if thread:
            return await self._new_in_thread(req, ctx, chosen, seed, bots, bot_settings, game_settings)
        existing = await self.rows.load_raw(ctx.channel_id)
        if existing is not None:
            status, title, _ = existing
            if status != "finished":
                raise InputError(f"This channel already has a game of {title} ({status}). "
                                 "Finish it, or the host can /politics cancel it.")
            await self.store.delete(ctx.channel_id, archive=True)
            self.rows.forget(ctx.channel_id)
        record = self._new_record(ctx, chosen, seed, bots, bot_settings, game_settings)
        opened = sentences.opened_lobby(record.players[0].name, chosen.title) + "."
        messages = [self.boards.lobby_message(ctx.channel_id, record, opened)]
        body = self.outbox.entry(messages, req)
        created = await self.store.create(ctx.channel_id, ctx.guild_id, chosen.id, "lobby", record, outbox=body)
        if not created:
            raise InputError("This channel already has a game.")
        return self.outbox.said(req, messages, created, body)

    async def _new_in_thread(self, req: Request, ctx: Ctx, chosen: Game, seed: int | None, bots: int,
                             bot_settings: BotSettings, game_settings: dict[str, Any]) -> list[Outgoing]:
        """Game night: each game in a thread of its own, keyed by the thread as channels are."""
        if ctx.open_thread is None:
            raise InputError("Threads can't be opened here; leave out thread:true.")
        host = display_name(ctx.user.name)
        thread_id = await ctx.open_thread(_clip(f"{chosen.title} — {host}", 100))
        if not thread_id:
            raise InputError("I couldn't open a thread here (I need Create Public Threads and Send Messages in "
                             "Threads); no game was opened.")
        record = self._new_record(ctx, chosen, seed, bots, bot_settings, game_settings)
        record.thread_of = ctx.channel_id
        opened = sentences.opened_lobby(host, chosen.title)
        messages = [self.boards.lobby_message(thread_id, record, f"{opened} in this thread."),
                    Outgoing(to="channel", channel_id=ctx.channel_id, text=f"{opened} in <#{thread_id}>: join there.",
                             rows=[[Button("Join", f"pg:{control_ref(thread_id, record)}:join", "primary")]])]
        body = self.outbox.entry(messages, req)
        created = await self.store.create(thread_id, ctx.guild_id, chosen.id, "lobby", record, outbox=body)
        if not created:
            raise InputError("That thread already has a game.")
        return self.outbox.said(req, messages, created, body)

    def _new_record(self, ctx: Ctx, chosen: Game, seed: int | None, bots: int, bot_settings: BotSettings,
                    game_settings: dict[str, Any]) -> GameRecord:
        players = [Player(id=ctx.user.id, name=display_name(ctx.user.name))]
        for i in range(bots):
            players.append(Player(id=f"bot:{i}", name=f"AI-{BOT_NAMES[i % len(BOT_NAMES)]}", ai=True))
        return GameRecord(
            game=chosen.id, status="lobby", host=ctx.user.id, players=players,
            options=game_settings, bot_settings=bot_settings,
            # Without a host's seed: 64 secret bits, so no deal or AI choice can be searched for
            # from what a player sees. A host's seed is public: everyone is told (see the lobby).
            seed=seed if seed is not None else secrets.randbits(64), seed_public=seed is not None,
            created=self.clock(), game_ref=new_game_ref(),
        )

    async def join(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record = loaded.record
        if record.status != "lobby":
            raise InputError("The game has already started; you can join the next one.")
        if record.seat_of(ctx.user.id) is not None:
            raise InputError("You are already in this lobby.")
        if len(record.players) >= loaded.game.max_players:
            raise InputError(f"The lobby is full: {loaded.game.title} takes at most {loaded.game.max_players} players.")
        name = display_name(ctx.user.name)
        taken = {p.name.casefold() for p in record.players}
        if name.casefold() in taken:
            name = f"{name}{len(record.players) + 1}"
        record.players.append(Player(id=ctx.user.id, name=name))
        out = [self.boards.lobby_message(ctx.channel_id, record, sentences.joined(name))]
        await self.rows.save(req, ctx.channel_id, loaded, record, messages=out)
        return out

    async def leave(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record = loaded.record
        seat = record.seat_of(ctx.user.id)
        if seat is None:
            raise InputError("You are not in this game.")
        name = record.players[seat].name
        if record.status == "lobby":
            record.players.pop(seat)
            humans = [p for p in record.players if not p.ai]
            if not humans:
                await self.store.delete(ctx.channel_id, archive=False)
                self.rows.forget(ctx.channel_id)
                return [Outgoing(to="channel", channel_id=ctx.channel_id,
                                 text=sentences.left_lobby(name, closed=True))]
            if record.host == ctx.user.id:
                record.host = humans[0].id
            out = [self.boards.lobby_message(ctx.channel_id, record, sentences.left_lobby(name, closed=False))]
            await self.rows.save(req, ctx.channel_id, loaded, record, messages=out)
            return out
        if record.status == "finished":
            raise InputError("This game is over.")
        # Mid-game: an AI takes the seat so the game never hangs. The hand-over is a logged move
        # (HandOver), so the engine knows the seat is an AI's and a replay makes the same change.
        record.players[seat].ai = True
        record.players[seat].id = f"resigned:{ctx.user.id}"
        return await self.play.apply(req, ctx.channel_id, loaded, SYSTEM, HandOver(seat=seat).text(),
                                     lead=sentences.left_game(name, record.bot_settings.ai))

    async def start(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record, game = loaded.record, loaded.game
        if record.status != "lobby":
            raise InputError("The game has already started.")
        if ctx.user.id != record.host:
            raise InputError("Only the host (who opened the lobby) can start the game.")
        n = len(record.players)
        if n < game.min_players:
            raise InputError(f"{game.title} needs at least {game.min_players} players; {n} joined. "
                             "Ask others to /politics join, or add AI seats with a new lobby's bots option.")
        seats = [Seat(name=p.name, bot=p.ai) for p in record.players]
        guild = loaded.guild_id
        server = await self.store.server_data(guild, game.id)
        state = game.setup(seats, game.options(record.options), int(record.seed), server=server)
        # The state is kept as its own JSON text: pydantic writes and validates it in one pass
        # (Game.load also reads the older dict form).
        record.state = record.opening = game.dump(state)  # with the log of moves, a finished game replays exactly
        record.log = []
        record.status = "playing"
        record.acted = [0] * n
        record.started = self.clock()
        refresh_waiting(record, game, state, self.clock())
        lead = f"**{game.title}** begins! Players: {', '.join(plain(p.name) for p in record.players)}."
        if record.seed_public:
            lead += "\n" + public_seed_note(record)
        # a new game: every image, whatever the channel showed; its first board pings who moves first
        out = [self.boards.turn_board(ctx.channel_id, record, game, state, lead, new_turn=True, full_image=True)]
        waiting = set(game.to_act(state))
        for seat in range(n):
            # a seat's DM at the start: its hand (private information), or its turn if dm_turns asks
            if game.private_text(state, seat) or (seat in waiting and record.bot_settings.dm_turns):
                out += self.boards.private_messages(ctx.channel_id, record, game, state, seat, events=[])
        await self.rows.save(req, ctx.channel_id, loaded, record, status="playing", messages=out,
                         server=server_merge(guild, game, {}, state))
        out += await self.play.drain_ai(req, ctx.channel_id)
        return out

    async def cancel(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        raw = await self.rows.load_raw(ctx.channel_id)
        if raw is None:
            raise InputError("There is no game in this channel.")
        try:
            row = await self.store.get(ctx.channel_id)
            host = row.record.host if row else None
        except CorruptRow:
            row, host = None, None  # a damaged row: a moderator may still clear it
        if ctx.user.id != host and not ctx.user.manage_channel:
            raise InputError("Only the host or someone with Manage Channels can cancel the game.")
        who = display_name(ctx.user.name)
        archived = self._archived_result(row, ctx) if row is not None and row.status == "playing" else None
        messages = [Outgoing(to="channel", channel_id=ctx.channel_id,
                             text=sentences.cancelled(raw[1], who, archived=archived is not None))]
        body = self.outbox.entry(messages, req)
        outbox_id = await self.store.delete(ctx.channel_id, archive=True, outbox=body, result=archived)
        self.rows.forget(ctx.channel_id)
        return self.outbox.said(req, messages, outbox_id, body)

    def _archived_result(self, row: Row, ctx: Ctx) -> dict | None:
        """A game cancelled in play goes into history as archived (no winner, no rating change);
        if its state can't be read, it is cancelled all the same."""
        try:
            game = get_game(row.game)
            state = game.load(row.record.saved_state())
            return records.archived_game(row.record, game, state, guild_id=row.guild_id or ctx.guild_id or "",
                                         archived_at=self.clock())
        except Exception:  # recording must never keep a game from being cancelled
            log.exception("archiving the cancelled game in %s failed", ctx.channel_id)
            return None

    async def settings(self, req: Request, ctx: Ctx, settings: str | None = None) -> list[Outgoing]:
        loaded = await self.rows.require(ctx)
        record, game = loaded.record, loaded.game
        if settings:
            if record.status != "lobby":
                raise InputError("Settings can only be changed in the lobby, before the game starts.")
            if ctx.user.id != record.host:
                raise InputError("Only the host can change the settings.")
            bot_settings, record.options = check_settings(game, settings, current=record.options)
            record.bot_settings = record.bot_settings.merged(bot_settings)
            out = [self.boards.lobby_message(ctx.channel_id, record, "Settings changed.")]
            await self.rows.save(req, ctx.channel_id, loaded, record, messages=out)
            return out
        return [self.boards.reply(ctx, self.settings_text(record, game))]

    async def rules(self, req: Request, ctx: Ctx, game: str | None = None) -> list[Outgoing]:
        if game is None:
            row = await self.rows.load_raw(ctx.channel_id)
            game = row[2] if row else None
        if game is None:
            listing = "\n".join(f"• **{g.id}** — {g.summary}" for g in all_games().values())
            return [self.boards.reply(ctx, f"Which game? /politics rules game:<id>\n{listing}")]
        g = get_game(game)
        return [self.boards.reply(ctx, g.rules_text or g.summary)]

    async def help(self, req: Request, ctx: Ctx) -> list[Outgoing]:
        games = "\n".join(f"• **{g.id}** ({g.min_players}–{g.max_players}) — {g.summary}" for g in all_games().values())
        text = (
            "**politics-bot** hosts election board games in this channel.\n"
            "`/politics new game:<id>` opens a lobby (options: seed, bots, settings) · `/politics join` · "
            "`/politics start` (host) · `/politics do action:<move>` (autocompletes legal moves) · "
            "`/politics hand` (your private view) · `/politics hint` · `/politics status` · `/politics rules` · "
            "`/politics settings` · `/politics leave` · `/politics cancel`.\n"
            "Finished games: `/politics stats` · `/politics leaderboard` · `/politics history` (download or replay a "
            "game) · `/politics forget-me`. `thread:true` on `/politics new` gives a game its own thread.\n"
            "Buttons on each turn prompt open your moves privately; secret cards and picks come by DM.\n"
            f"**Games**\n{games}"
        )
        return [self.boards.reply(ctx, text)]

    def settings_text(self, record: GameRecord, game: Game) -> str:
        current = game.options(record.options).model_dump()
        lines = [f"**{game.title} settings** (change in the lobby: /politics settings settings:\"key=value\")"]
        for name, info in game.OptionsModel.model_fields.items():
            lines.append(f"• `{name}` = {plain(_fmt(current[name]))} — {info.description or ''}")
        timeout = record.bot_settings.timeout
        lines.append(f"• `timeout` = {timeout:g} — minutes before a reminder (half-way) and an AI move for a waiting "
                     "player (0 = off)")
        archive = _fmt(record.bot_settings.archive)
        lines.append(f"• `archive` = {archive} — archive the game's thread when it ends "
                     "(games opened with thread:true)")
        bot = record.bot_settings
        lines.append(f"• `ai` = {bot.ai} — the AI seats' level: easy, normal or hard (searches)")
        lines.append(f"• `ai_budget_ms` = {bot.ai_budget_ms} — a hard AI move's time in milliseconds")
        lines.append(f"• `ai_iterations` = {bot.ai_iterations or 'none'} — a hard AI move's searches instead "
                     "(the same seed, the same moves)")
        lines.append(f"• `hints` = {_fmt(bot.hints)} — players may ask /politics hint for a suggested move")
        return "\n".join(lines)

    async def complete_settings(self, ctx: Ctx, current: str) -> list[tuple[str, str]]:
        row = await self.rows.load_raw(ctx.channel_id)
        games = [get_game(row[2])] if row else list(all_games().values())
        head, _, last = current.rpartition(" ")
        out = []
        for game in games:
            for name, info in game.OptionsModel.model_fields.items():
                if name.startswith(last.split("=")[0]):
                    value = f"{head} {name}={_fmt(info.default)}".strip()
                    label = f"{name}={_fmt(info.default)} — {info.description or ''}"
                    out.append((_clip(label, 100), _clip(value, 100)))
        out.append((_clip("timeout=0 — minutes before the AI moves for a waiting player", 100),
                    _clip(f"{head} timeout=0".strip(), 100)))
        out.append((_clip("ai=hard — the AI seats' level: easy, normal or hard", 100),
                    _clip(f"{head} ai=hard".strip(), 100)))
        return out[:25]
