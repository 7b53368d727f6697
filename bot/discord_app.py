"""The Discord front end: discord.py's CommandTree and persistent components
on top of GameService. Everything here is translation; no rules, no storage.

- Slash commands are generated from bot.registry, so Discord, the local table
  and transcripts share one definition.
- Every interaction is acknowledged first (defer), before any other work, so the
  3-second limit holds however busy the process is; when more work waits than the
  process can do in time, the first answer says so ("busy", nothing was changed).
- The asker's reply ("✓ Done" and their panel) goes out as soon as the move is
  committed; the board and other players' DMs follow through bot.delivery, which
  draws boards in worker processes (bot.render_pool) and sends only changed images.
- Buttons and menus are DynamicItems matched by custom_id, so they keep working
  after a restart with no view to re-register.
- A DM that bounces (closed DMs) turns into a channel notice with a button
  that shows the same controls ephemerally.
"""
from __future__ import annotations

import asyncio
import inspect
import io
import logging
import re
import signal
import sys
import time
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import tasks

from engines import all_games

from . import ratelimit
from .delivery import Delivery, Pending
from .health import OpsServer
from .metrics import Metrics
from .messages import Button, Ctx, Embed, Images, Outgoing, Select, User, chunk_text
from .registry import CommandSpec, InputError, commands
from .render_pool import RenderPool
from .service import GameService
from .settings import Settings
from .backup import start_pruning
from .logs import bind_interaction
from .store import StorageError, Store
from .text import plain

log = logging.getLogger("politics.discord")

STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}
DM_CLOSED = {50007, 50278}
DM_CLOSED_MEMORY = 600.0  # seconds: after a bounce, no DM attempt and at most one notice per channel
RESTARTING = "Restarting — try again in a moment."  # an interaction that arrives while the bot stops
BUSY = "Busy right now — your move was not made and nothing was changed. Please try again in a moment."
WORKERS = 16  # service calls running at once: the rest wait their turn, so acks never queue behind them
MAX_WAITING = 1500  # interactions waiting for a turn; beyond it new ones are answered "busy"
ACKS_FIRST_SECONDS = 0.25  # work and deliveries wait at most this long for pending acks to go out
ACKS_FIRST_ABOVE = 8  # ... when more first answers than this are on their way (a burst, not steady play)
AUTOCOMPLETE_SECONDS = 2.0  # an autocomplete answer later than this would miss Discord's 3 s anyway
GAMES_COUNT_SECONDS = 15.0  # how often shard 0's process counts games in play for /metrics (one indexed query)
DM_IDS = 50_000  # users whose DM channel id is kept in memory (all are in the store)
FOLLOWUP_SECONDS = 14 * 60  # an interaction token lives 15 minutes; after that, post to the channel
HTTP_CONNECTIONS = 64  # open HTTP connections to Discord, reused (discord.py's default has no limit)
IDENTIFY_SECONDS = 5.0  # Discord: one identify per max_concurrency bucket in this time
ELSEWHERE = ("This server is served by another of my processes right now (it may be restarting), so nothing "
             "was changed here; please try again in a moment.")


def remember(memory: dict, key, now: float, keep: float) -> None:
    """Note `key` at `now` (newest last) and forget what is older than `keep` seconds: such an
    entry changes nothing any more, and kept, the map would grow with every user ever bounced."""
    memory.pop(key, None)
    memory[key] = now
    while now - memory[oldest := next(iter(memory))] >= keep:  # ends at `key` itself at the latest
        del memory[oldest]


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Tests only: aim discord.py at a local fake Discord."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        import yarl
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


# ---- components ---------------------------------------------------------

def _bot(interaction: discord.Interaction) -> PoliticsBot:
    """The client that received a component: always this module's PoliticsBot."""
    return cast("PoliticsBot", interaction.client)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p[bgtr]:(?P<rest>.+)"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="…"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(str(getattr(item, "custom_id", "")))  # a button or a select: both have one

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).on_component(interaction, str(self.item.custom_id), [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"ps:(?P<rest>.+)"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(str(getattr(item, "custom_id", "")))  # a button or a select: both have one

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await _bot(interaction).on_component(interaction, str(self.item.custom_id), values)


class TextModal(discord.ui.Modal):
    """Shown for free-text moves. Its submission is handled in on_interaction
    (by custom_id), so it also works for a form opened before a restart."""

    def __init__(self, custom_id: str, title: str, label: str, placeholder: str) -> None:
        super().__init__(title=title or "Answer", custom_id=custom_id, timeout=None)
        self.add_item(discord.ui.TextInput(label=label or "Answer", placeholder=placeholder or None,
                                           max_length=200, custom_id="text"))

    async def on_submit(self, interaction: discord.Interaction) -> None:  # handled in on_interaction
        return None


def allowed_mentions(msg: Outgoing) -> discord.AllowedMentions:
    """Exactly the users the service means to ping; never @everyone, @here or a role."""
    users = [discord.Object(id=int(u)) for u in msg.ping if u.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users or False)


def build_view(rows: list[list[Button | Select]]) -> discord.ui.View | None:
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows[:5]):
        for item in row:
            if isinstance(item, Button):
                view.add_item(discord.ui.Button(label=item.label[:80], custom_id=item.custom_id[:100],
                                                style=STYLES[item.style], row=row_index))
            else:
                options = [discord.SelectOption(label=label[:100], value=value[:100])
                           for label, value in item.options[:25]]
                view.add_item(discord.ui.Select(custom_id=item.custom_id[:100], placeholder=item.placeholder[:150],
                                                options=options, row=row_index))
    # Stopped before sending: the DynamicItems above handle the clicks, so the
    # view must not also be stored (it would see every click twice).
    view.stop()
    return view


def build_embed(embed: Embed) -> discord.Embed:
    """An Embed within Discord's limits (title 256, description 4,096, 25 fields of 256/1,024)."""
    out = discord.Embed(title=embed.title[:256], description=embed.description[:4096] or None)
    for name, value in embed.fields[:25]:
        out.add_field(name=name[:256] or "\u200b", value=value[:1024] or "\u200b", inline=False)
    if embed.footer:
        out.set_footer(text=embed.footer[:2048])
    if embed.image:
        out.set_image(url=f"attachment://{embed.image}")
    return out


# ---- slash commands from the registry ---------------------------------------

def _annotation(opt) -> Any:
    if opt.kind == "int":
        lo = opt.min_value if opt.min_value is not None else -(2**53)
        hi = opt.max_value if opt.max_value is not None else 2**53
        return app_commands.Range[int, lo, hi]
    if opt.kind == "attachment":
        return discord.Attachment
    if opt.kind == "bool":
        return bool
    if opt.kind == "user":
        return discord.User
    return app_commands.Range[str, 0, opt.max_length or 100]


def make_command(client: PoliticsBot, spec: CommandSpec) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
        await client.on_slash(interaction, spec, kwargs)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for opt in sorted(spec.options, key=lambda o: not o.required):
        params.append(inspect.Parameter(opt.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(opt),
                                        default=inspect.Parameter.empty if opt.required else None))
    callback.__signature__ = inspect.Signature(params)
    callback.__discord_app_commands_param_description__ = {o.name: o.description[:100] for o in spec.options}
    choices = {o.name: [app_commands.Choice(name=c, value=c) for c in o.choices[:25]]
               for o in spec.options if o.choices}
    if choices:
        callback.__discord_app_commands_param_choices__ = choices
    auto = {}
    for opt in spec.options:
        if opt.autocomplete:
            auto[opt.name] = _make_autocomplete(client, spec, opt.name)
    if auto:
        callback.__discord_app_commands_param_autocomplete__ = auto
    return app_commands.Command(name=spec.leaf, description=spec.description[:100], callback=callback)


def _make_autocomplete(client: PoliticsBot, spec: CommandSpec, option: str):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await client.autocomplete(interaction, spec.name, option, current)
        return [app_commands.Choice(name=label[:100] or value[:100], value=value[:100]) for label, value in found[:25]]
    return complete


def build_group(client: PoliticsBot) -> app_commands.Group:
    # Games live in server channels; DMs only carry private hands and picks.
    root = app_commands.Group(name="politics", description="Election board games in this channel", guild_only=True)
    groups: dict[str, app_commands.Group] = {}
    for spec in commands().values():
        command = make_command(client, spec)
        if spec.group:
            if spec.group not in groups:
                groups[spec.group] = app_commands.Group(name=spec.group, description=f"Server {spec.group} (admins)",
                                                        parent=root)
            groups[spec.group].add_command(command)
        else:
            root.add_command(command)
    return root


# ---- the client ---------------------------------------------------------------

class PoliticsBot(discord.AutoShardedClient):
    """Always discord.py's AutoShardedClient: with SHARD_COUNT/SHARD_IDS it runs those shards;
    without, every shard, as many as Discord recommends (one below 2,500 servers)."""

    def __init__(self, settings: Settings, *, service: GameService, sync_commands: bool = True,
                 guild_ready_timeout: float = 2.0) -> None:
        intents = discord.Intents.default()
        intents.message_content = any(g.listens_to_chat for g in all_games().values()) and settings.message_content
        shards = settings.shards
        # Counted per process, into this bot's own registry (/metrics when METRICS_PORT is set).
        self.metrics = Metrics()
        # Without shard_ids discord.py runs every shard; with them, only those.
        some_shards: dict[str, Any] = {} if shards is None or shards.all else {"shard_ids": list(shards.ids)}
        # Nobody is pinged unless a message names them in Outgoing.ping (see allowed_mentions).
        super().__init__(intents=intents, guild_ready_timeout=guild_ready_timeout,
                         allowed_mentions=discord.AllowedMentions.none(),
                         shard_count=shards.count if shards else None,
                         http_trace=self.metrics.trace(), **some_shards)
        self.metrics.label_routes(self.http)
        self.settings = settings
        self.service = service
        # Discord's global 50 requests/s, kept before sending instead of learned from 429s (ratelimit.py)
        self.global_limit = ratelimit.GlobalLimit()
        # The service serves only these shards' channels (their timers, AI moves, redelivery);
        # other processes on the same database serve the rest (docs/architecture.md, Shards).
        self.service.shards = shards
        self._identified: dict[int, float] = {}  # shard id -> when it last identified
        self._identify_buckets: int | None = None  # Discord's max_concurrency
        # Discord turns the outbox on: each commit stores what the bot must say until it is sent,
        # so a crash between the commit and the posts loses nothing (see redeliver).
        self.service.outbox.enabled = True
        self.sync_commands = sync_commands
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(build_group(self))
        self.tree.on_error = self._tree_error
        self._dm_closed: dict[str, float] = {}  # user id -> when a DM to them last bounced
        self._dm_notified: dict[tuple[str, str], float] = {}  # (channel, user) -> last closed-DM notice
        self._dm_ids: dict[str, str] = {}  # user id -> DM channel id (newest last), backed by the store
        self._dm_unsaved: dict[str, str | None] = {}  # opened (or gone) since the last save
        self._owed: dict[int, int] = {}  # outbox entry -> its messages still waiting in a lane
        self.render_pool = RenderPool(settings.render_workers or None, processes=settings.render_processes)
        self.delivery = Delivery(self._post, self.render_pool, before_send=self.acks_first, metrics=self.metrics)
        self.metrics.time_store(service.store)
        service.play.on_ai_move = self.metrics.ai_move
        self.metrics.watch(self.metrics.render_queue, lambda: self.delivery.boards_waiting)
        self.metrics.watch(self.metrics.delivery_lanes, lambda: len(self.delivery.lanes))
        self.metrics.watch(self.metrics.delivery_backlog, lambda: self.delivery.backlog)
        self.metrics.watch(self.metrics.outbox_depth, lambda: len(self._owed))
        self._counted_games = 0.0  # when games running were last counted (scheduler)
        self._turns = asyncio.Semaphore(WORKERS)
        self._acking = 0  # handlers whose first answer is on its way
        self._acks_clear = asyncio.Event()
        self._acks_clear.set()
        self._waiting = 0
        self.max_waiting = MAX_WAITING
        self.shed = 0  # interactions answered "busy"
        self.ops: OpsServer | None = None  # /healthz (and /metrics) when METRICS_PORT is set
        # A clean stop (SIGTERM): new interactions are answered RESTARTING, those in flight finish.
        self.stopping = False
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._close_drain = 5.0  # close()'s own wait for the lanes; a clean stop has drained them already

    async def login(self, token: str) -> None:
        if self.http.connector is discord.utils.MISSING:
            # Without a limit, a burst of a thousand interactions opens a thousand connections at
            # once (a connect each, on the event loop); with one, requests reuse the open ones.
            import aiohttp
            self.http.connector = aiohttp.TCPConnector(limit=HTTP_CONNECTIONS)
        await super().login(token)
        if not self.settings.rest_proxy:  # through a proxy, the proxy keeps the limit for all processes
            ratelimit.install(self.http, self.global_limit)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(GameButton, GameSelect)
        self.render_pool.start()
        if self.settings.metrics_port is not None:
            self.ops = OpsServer(self, self.settings.metrics_port, metrics=self.metrics)
            await self.ops.start()
        # The commands are the bot's, not a shard's: of several processes, the one holding
        # shard 0 registers them, once.
        if self.sync_commands and self.service.owns(None):
            if self.settings.guild_id:
                guild = discord.Object(id=self.settings.guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        await self.redeliver()
        self.scheduler.start()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord lets shards identify in max_concurrency buckets (shard id % max_concurrency),
        one a bucket every 5 seconds; discord.py's own hook waits 5 s before every shard but the
        first, whatever the buckets. (Another process's identifies are not known here.)"""
        loop = asyncio.get_running_loop()
        shard = shard_id or 0
        if not initial:
            if self._identify_buckets is None:
                try:
                    self._identify_buckets = max(1, (await self.fetch_session_start_limits()).max_concurrency)
                except (discord.HTTPException, discord.GatewayNotFound, KeyError, TypeError):
                    self._identify_buckets = 1
            buckets = self._identify_buckets
            last = max((t for s, t in self._identified.items() if s % buckets == shard % buckets), default=None)
            if last is not None and loop.time() - last < IDENTIFY_SECONDS:
                await asyncio.sleep(IDENTIFY_SECONDS - (loop.time() - last))
        self._identified[shard] = loop.time()

    async def stop_cleanly(self, seconds: float) -> None:
        """SIGTERM/SIGINT: take no new interactions, let those in flight finish, drain the
        delivery lanes and clear the delivered outbox entries, all within `seconds`; then close
        (gateway, render pool). Whatever is not sent by then stays in the outbox and goes out
        after the restart (redeliver), with the nonces that keep Discord from posting it twice."""
        if self.stopping:
            return
        self.stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        log.info("stopping: finishing %d interactions in flight and %d queued messages",
                 self._in_flight, self.delivery.backlog)
        if self.scheduler.is_running():
            self.scheduler.stop()  # the tick under way finishes (its commit and its messages)
        try:
            await asyncio.wait_for(self._idle.wait(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            log.warning("stopping: %d interactions still in flight at the deadline", self._in_flight)
        ticking = self.scheduler.get_task()
        if ticking is not None and not ticking.done():
            await asyncio.wait([ticking], timeout=max(0.01, deadline - loop.time()))
        await self.delivery.drain(max(0.0, deadline - loop.time()))
        try:
            await asyncio.wait_for(self.service.flush_delivered(), max(0.1, deadline - loop.time()))
        except Exception:
            log.warning("stopping: clearing the outbox failed; the restart redelivers with nonces", exc_info=True)
        if self.delivery.backlog:
            log.warning("stopping: %d messages not sent in %g s; they go out after the restart",
                        self.delivery.backlog, seconds)
        self._close_drain = 0.0
        await self.close()

    def _enter(self) -> None:
        self._in_flight += 1
        self._idle.clear()

    def _leave(self) -> None:
        self._in_flight -= 1
        if not self._in_flight:
            self._idle.set()

    async def close(self) -> None:
        if self.scheduler.is_running():
            self.scheduler.cancel()
        await self.delivery.drain(self._close_drain)
        await self.save_dm_channels()
        self.render_pool.close()
        if self.ops is not None:
            await self.ops.stop()
        await super().close()

    async def save_dm_channels(self) -> None:
        if not self._dm_unsaved or self.service is None:
            return
        unsaved, self._dm_unsaved = self._dm_unsaved, {}
        try:
            await self.service.store.set_dm_channels(unsaved)
        except Exception:
            log.exception("saving DM channel ids failed")  # they are opened again when needed

    @tasks.loop(seconds=1.0)
    async def scheduler(self) -> None:
        # AI moves after their delay, engine timers, turn-timeout reminders; DM channel ids saved.
        await self.save_dm_channels()
        try:
            out = await self.service.tick()
        except Exception:
            log.exception("tick failed")
            return
        if out:
            await self.deliver(None, out)
        try:
            await self.service.flush_delivered()  # delivered outbox entries no commit has cleared yet
        except Exception:
            log.exception("clearing the outbox failed")
        await self._count_games()

    async def _count_games(self) -> None:
        """Games in play, by game, for /metrics: counted by shard 0's process (every process shares
        the database, so one count is the whole bot's), at most every GAMES_COUNT_SECONDS."""
        now = time.monotonic()
        if self.ops is None or not self.service.owns(None) or now - self._counted_games < GAMES_COUNT_SECONDS:
            return
        self._counted_games = now
        try:
            counts = await self.service.store.playing_by_game()
        except Exception:
            log.warning("counting games in play failed", exc_info=True)
            return
        self.metrics.games_running.clear()
        for game, count in counts.items():
            self.metrics.games_running.labels(game).set(count)

    # ---- inputs ---------------------------------------------------------
    def ctx_of(self, interaction: discord.Interaction) -> Ctx:
        bind_interaction(interaction)  # every log line while serving it names its server, channel, id
        perms = interaction.permissions
        user = User(str(interaction.user.id), getattr(interaction.user, "display_name", None) or interaction.user.name,
                    manage_channel=bool(perms and perms.manage_channels),
                    manage_server=bool(perms and perms.manage_guild),
                    is_bot=interaction.user.bot)
        # How to answer this interaction later: its webhook token lives 15 minutes. Stored with the
        # outbox, so a reply cut off by a crash still reaches the asker (or their DMs) after a restart.
        reply = {"app": str(interaction.application_id), "token": interaction.token, "user": user.id,
                 "command": interaction.type == discord.InteractionType.application_command,
                 "expires": time.time() + 14 * 60}
        return Ctx(user, str(interaction.channel_id), str(interaction.guild_id) if interaction.guild_id else None,
                   reply=reply)

    # Every handler answers Discord first: a defer (or "busy") is the first await, before any
    # lookup, lock or render. The work then waits for one of WORKERS turns, so however many
    # interactions arrive at once, the event loop keeps reading the gateway and acknowledging.
    def _overloaded(self) -> bool:
        return self._waiting >= self.max_waiting or self.delivery.full

    async def _ack(self, first) -> None:
        """Send an interaction's first answer (a defer, a modal, "busy"), counted so that other
        work can step aside for it (acks_first)."""
        started = time.perf_counter()
        self._acking += 1
        if self._acking > ACKS_FIRST_ABOVE:
            self._acks_clear.clear()
        try:
            await first
            self.metrics.ack_seconds.observe(time.perf_counter() - started)
        finally:
            self._acking -= 1
            if self._acking <= ACKS_FIRST_ABOVE:
                self._acks_clear.set()

    async def acks_first(self) -> None:
        """Service calls, replies and deliveries step aside (briefly) while first answers are on
        their way: asyncio has no priorities, and in a burst of a thousand interactions the
        3-second acks must not queue behind the follow-ups of the moves already acknowledged."""
        if self._acking > ACKS_FIRST_ABOVE:
            try:
                await asyncio.wait_for(self._acks_clear.wait(), ACKS_FIRST_SECONDS)
            except TimeoutError:
                pass

    def _elsewhere(self, interaction: discord.Interaction) -> bool:
        """From a server on a shard this process doesn't hold. Discord sends a server's
        interactions only on its shard's socket, so it takes a misconfiguration (processes that
        disagree on SHARD_COUNT) to get one; the holder of the shard runs the server's timers and
        delivers its messages, so it alone serves the server. (Direct messages are shard 0's,
        whatever server their game is in: see docs/architecture.md.)"""
        return interaction.guild_id is not None and not self.service.owns(interaction.guild_id)

    async def _refuse(self, interaction: discord.Interaction) -> None:
        try:
            await self._ack(interaction.response.send_message(ELSEWHERE, ephemeral=True))
        except (discord.HTTPException, discord.InteractionResponded):
            pass

    async def _turned_away(self, interaction: discord.Interaction, kind: str) -> bool:
        """Answered already, in one sentence: the bot is stopping, another process's server, or
        too busy to take it."""
        if self.stopping:
            self.metrics.interactions.labels(kind, "stopping").inc()
            await self._say_first(interaction, RESTARTING)
            return True
        if self._elsewhere(interaction):
            self.metrics.interactions.labels(kind, "elsewhere").inc()
            await self._refuse(interaction)
            return True
        if self._overloaded():
            self.metrics.interactions.labels(kind, "busy").inc()
            await self._shed(interaction)
            return True
        return False

    async def _served(self, kind: str, interaction: discord.Interaction, out: list[Outgoing], started: float) -> None:
        """Deliver a handler's answer and count it: the asker's reply ("✓ Done") goes out first."""
        await self.deliver(interaction, out)
        self.metrics.done_seconds.labels(kind).observe(time.perf_counter() - started)
        self.metrics.interactions.labels(kind, "ok").inc()

    async def _failed(self, kind: str) -> None:
        self.metrics.interactions.labels(kind, "error").inc()

    async def _say_first(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await self._ack(interaction.response.send_message(text, ephemeral=True))
        except (discord.HTTPException, discord.InteractionResponded):
            pass

    async def _shed(self, interaction: discord.Interaction) -> None:
        self.shed += 1
        try:
            await self._ack(interaction.response.send_message(BUSY, ephemeral=True))
        except discord.HTTPException:
            pass

    async def _work(self, call):
        """Run a service call in its turn; at most WORKERS run at once."""
        await self.acks_first()
        self._waiting += 1
        try:
            await self._turns.acquire()
        finally:
            self._waiting -= 1
        try:
            return await call()
        finally:
            self._turns.release()

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, kwargs: dict) -> None:
        started = time.perf_counter()
        if await self._turned_away(interaction, "slash"):
            return
        self._enter()
        try:
            await self._slash(interaction, spec, kwargs, started)
        finally:
            self._leave()

    async def _slash(self, interaction: discord.Interaction, spec: CommandSpec, kwargs: dict, started: float) -> None:
        await self._ack(interaction.response.defer(ephemeral=True, thinking=True))  # first: the 3-second rule
        options: dict[str, Any] = {}
        for key, value in kwargs.items():
            if value is None:
                continue
            if isinstance(value, (discord.User, discord.Member)):
                options[key] = f"<@{value.id}>"  # the service looks the player up by id
            elif isinstance(value, discord.Attachment):
                if value.size > 2_000_000:
                    options[key] = (value.filename, b"x" * 2_000_001)  # the service refuses it in one sentence
                else:
                    options[key] = (value.filename, await value.read())
            else:
                options[key] = value
        ctx = self.ctx_of(interaction)
        if spec.name == "new":
            ctx.open_thread = lambda name: self._open_thread(interaction, name)
        if spec.name == "forget-me":  # the store drops their DM channel row; so does this process
            self._dm_ids.pop(ctx.user.id, None)
            self._dm_unsaved.pop(ctx.user.id, None)
        try:
            out = await self._work(lambda: self.service.handle(ctx, spec.name, options))
        except Exception:
            await self._failed("slash")
            raise
        await self._served("slash", interaction, out, started)

    async def _open_thread(self, interaction: discord.Interaction, name: str) -> str | None:
        """A public thread of the channel the command came from (None if Discord refuses)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise InputError("A game thread opens from a text channel, not from inside a thread or a forum.")
        try:
            thread = await channel.create_thread(name=name[:100] or "game", type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=1440)
        except discord.HTTPException as exc:
            log.warning("opening a thread in %s failed: %s", channel.id, exc)
            return None
        return str(thread.id)

    async def _archive(self, msg: Outgoing) -> None:
        """Archive a finished game's thread. Discord lets the thread's creator (the bot) do it
        with Send Messages in Threads; a failure only leaves the thread open."""
        try:
            thread = self.get_channel(int(msg.channel_id)) or await self.fetch_channel(int(msg.channel_id))
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("archiving thread %s failed: %s", msg.channel_id, exc)

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        started = time.perf_counter()
        if await self._turned_away(interaction, "component"):
            return
        self._enter()
        try:
            await self._component(interaction, custom_id, values, started)
        finally:
            self._leave()

    async def _component(self, interaction: discord.Interaction, custom_id: str, values: list[str],
                         started: float) -> None:
        ctx = self.ctx_of(interaction)
        if custom_id.startswith("pt:"):
            # A text box must be the first answer, so no defer here (the lookup is quick and
            # jumps the queue of turns: waiting for one could miss the 3 seconds).
            out = await self.service.component(ctx, custom_id, values)
            for msg in out:
                if msg.to == "modal" and msg.modal:
                    await self._ack(interaction.response.send_modal(
                        TextModal(msg.modal.custom_id, msg.modal.title, msg.modal.label, msg.modal.placeholder)))
                    return
            await self._ack(interaction.response.defer())
            await self._served("component", interaction, out, started)
            return
        await self._ack(interaction.response.defer())  # deferred update of the clicked message
        try:
            out = await self._work(lambda: self.service.component(ctx, custom_id, values))
        except Exception:
            await self._failed("component")
            raise
        await self._served("component", interaction, out, started)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type != discord.InteractionType.modal_submit:
            return
        data = cast(dict[str, Any], interaction.data or {})  # a modal submit's payload
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith("pm:"):
            return
        started = time.perf_counter()
        if self.stopping:
            self.metrics.interactions.labels("modal", "stopping").inc()
            await self._say_first(interaction, RESTARTING)
            return
        if self._elsewhere(interaction):
            self.metrics.interactions.labels("modal", "elsewhere").inc()
            await self._refuse(interaction)
            return
        if not interaction.response.is_done():
            if self._overloaded():
                self.metrics.interactions.labels("modal", "busy").inc()
                await self._shed(interaction)
                return
            await self._ack(interaction.response.defer(ephemeral=True, thinking=True))
        text = ""
        for row in data.get("components", []):
            for comp in row.get("components", []):
                if comp.get("custom_id") == "text":
                    text = comp.get("value", "")
        ctx = self.ctx_of(interaction)
        self._enter()
        try:
            try:
                out = await self._work(lambda: self.service.modal_submit(ctx, custom_id, text))
            except Exception:
                await self._failed("modal")
                raise
            await self._served("modal", interaction, out, started)
        finally:
            self._leave()

    async def autocomplete(self, interaction: discord.Interaction, name: str, option: str,
                           current: str) -> list[tuple[str, str]]:
        """Suggestions, or none if they can't come in time (the answer is the first response)."""
        if self.stopping or self._elsewhere(interaction):
            return []
        try:
            return await asyncio.wait_for(self.service.autocomplete(self.ctx_of(interaction), name, option, current),
                                          AUTOCOMPLETE_SECONDS)
        except TimeoutError:
            return []

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not message.guild or not message.content or not self.service.owns(message.guild.id):
            return
        ctx = Ctx(User(str(message.author.id), message.author.display_name), str(message.channel.id),
                  str(message.guild.id))
        out = await self._work(lambda: self.service.chat(ctx, message.content))
        if out:
            await self.deliver(None, out)

    async def _tree_error(self, interaction: discord.Interaction, error: Exception) -> None:
        log.warning("command error: %s", error)
        said = isinstance(error, app_commands.TransformerError)
        text = "That command didn't work: " + (plain(str(error)[:150]) if said else "please check its options.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    # ---- outputs ------------------------------------------------------------
    def _asker(self, interaction: discord.Interaction | None, msg: Outgoing) -> bool:
        return interaction is not None and msg.to in ("ephemeral", "edit") and msg.user_id == str(interaction.user.id)

    async def deliver(self, interaction: discord.Interaction | None, out: list[Outgoing]) -> None:
        """Send what the service decided: first the asker's own replies, through the
        interaction (not bound by the global rate limit), then hand the rest to the lanes of
        bot.delivery: the board (drawn in the render pool) and other players' DMs."""
        answered = False
        if interaction is not None:
            await self.acks_first()
        for msg in out:
            if self._asker(interaction, msg):
                try:
                    await self._reply(interaction, msg, answered)
                    answered = True
                except Exception:
                    log.exception("replying failed")
        for msg in out:
            if self._asker(interaction, msg) or msg.to == "modal":
                continue
            if msg.to in ("channel", "archive") and msg.channel_id:
                self._owe(msg)
                self.delivery.put(msg.channel_id, msg, via=self._carrier(interaction, msg, answered))
            elif msg.to in ("dm", "ephemeral", "edit") and msg.user_id:
                # Not the asker (a scheduled move, another player): a DM is the private way to reach them.
                msg.to = "dm"
                self._owe(msg)
                self.delivery.put("dm:" + msg.user_id, msg)
        if interaction is not None and not answered and interaction.type == discord.InteractionType.application_command:
            try:
                await interaction.delete_original_response()  # the "thinking…" placeholder
            except discord.HTTPException:
                pass
        # An outbox entry is delivered once its last message has left its lane (see _post).
        self.service.delivered({msg.outbox_id for msg in out if msg.outbox_id not in self._owed})

    def _owe(self, msg: Outgoing) -> None:
        if msg.outbox_id is not None:
            self._owed[msg.outbox_id] = self._owed.get(msg.outbox_id, 0) + 1

    def _paid(self, item: Pending) -> None:
        for source in item.sources:
            entry = source.outbox_id
            if entry is not None and entry in self._owed:
                self._owed[entry] -= 1
                if not self._owed[entry]:
                    del self._owed[entry]
                    self.service.delivered([entry])

    async def redeliver(self) -> None:
        """After a restart: send what was committed but never reported sent. Channel posts and DMs
        carry the nonce they had the first time, so Discord drops any that did go out (enforce_nonce);
        the asker's "thinking…" placeholder is answered while its token lives, else the reply goes
        by DM."""
        for entry_id, reply, messages in await self.service.pending_outbox():
            try:
                await self._deliver_again(reply, messages)
            except Exception:
                log.exception("redelivering outbox entry %s failed", entry_id)
            self.service.delivered([entry_id])
        await self.service.flush_delivered()

    async def _deliver_again(self, reply: dict | None, messages: list[Outgoing]) -> None:
        webhook = None
        if reply and reply.get("expires", 0) > time.time():
            webhook = discord.Webhook.partial(int(reply["app"]), reply["token"], client=self)
        answered, rest = False, []
        for msg in messages:
            if webhook is None or msg.to not in ("ephemeral", "edit") or msg.user_id != reply.get("user"):
                rest.append(msg)  # an asker we can't reach any more gets it by DM (deliver does that)
                continue
            view = build_view(msg.rows) or discord.utils.MISSING
            text = _parts(msg)[0]
            if reply.get("command") and not answered:
                # The placeholder itself: editing it is the same however often it happens.
                await webhook.edit_message("@original", content=text, view=view, allowed_mentions=allowed_mentions(msg))
            else:
                await webhook.send(text, ephemeral=True, view=view, allowed_mentions=allowed_mentions(msg))
            answered = True
        await self.deliver(None, rest)
        if webhook is not None and reply.get("command") and not answered:
            try:
                await webhook.delete_message("@original")  # nothing for the asker: just end "thinking…"
            except discord.HTTPException:
                pass

    def _carrier(self, interaction: discord.Interaction | None, msg: Outgoing, answered: bool):
        """The interaction whose follow-up may post this channel message: one from that channel
        whose private reply has gone out (the first follow-up after a "thinking" defer would
        replace that private placeholder) or a click (its deferred update has no placeholder)."""
        if interaction is None or interaction.guild_id is None or str(interaction.channel_id) != msg.channel_id:
            return None
        if answered or interaction.type == discord.InteractionType.component:
            return interaction
        return None

    async def _post(self, item: Pending, images: Images) -> None:
        """Send one message from a lane of bot.delivery (its images already drawn); sent or
        given up, the outbox entries it stands for are settled."""
        try:
            await self._post_one(item, images)
        finally:
            self._paid(item)

    async def _post_one(self, item: Pending, images: Images) -> None:
        msg = item.msg
        if msg.to == "dm":
            await self._send_dm(msg, images)
            return
        if msg.to == "archive":
            await self._archive(msg)  # after the thread's last board, which went ahead in this lane
            return
        try:
            await self._send_channel(msg, images, item.via)
        except discord.Forbidden:
            # No Send Messages here: tell the asker (anything they did was saved).
            log.warning("no permission to post in channel %s", msg.channel_id)
            if item.via is not None:
                try:
                    await item.via.followup.send(
                        "I'm not allowed to post in this channel (I need View Channel, Send Messages and Attach "
                        "Files here). Anything you did was saved; ask a moderator to fix my permissions.",
                        ephemeral=True)
                except discord.HTTPException:
                    pass

    def _files(self, msg: Outgoing, images: Images) -> list[discord.File]:
        # The alt text is the attachment's description: screen readers read it out.
        return [discord.File(io.BytesIO(data), filename=name, description=msg.alt or None) for name, data in images]

    async def _send_chunks(self, send, msg: Outgoing, images: Images) -> None:
        """`send(content, **kwargs)`: a channel's, a DM's or a follow-up's send."""
        files = self._files(msg, images)
        parts = _parts(msg)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(msg)}
            if last:
                view = build_view(msg.rows)
                if view:
                    kwargs["view"] = view
                if files:
                    kwargs["files"] = files
                if msg.embeds:
                    kwargs["embeds"] = [build_embed(e) for e in msg.embeds[:10]]
            if msg.nonce:
                kwargs["nonce"] = f"{msg.nonce}.{i}"  # discord.py sends it with enforce_nonce: true
            try:
                await send(part, **kwargs)
            except discord.DiscordServerError:
                if not files:
                    raise
                # The image failed after discord.py's own retries: the action is
                # already committed, so say so in text; /politics status re-posts the board.
                kwargs.pop("files", None)
                await send((part or "") + "\n(The board image couldn't be sent; /politics status shows it.)", **kwargs)

    async def _send_channel(self, msg: Outgoing, images: Images, via: discord.Interaction | None = None) -> None:
        if via is not None and (discord.utils.utcnow() - via.created_at).total_seconds() < FOLLOWUP_SECONDS:
            # A follow-up of the interaction that caused it: a public message in the same channel
            # that, unlike a channel post, does not count against the global rate limit.
            async def followup(content: str, **kwargs: Any) -> None:
                kwargs.pop("nonce", None)  # webhooks take no nonce (a redelivery after a crash posts to the channel)
                await via.followup.send(content, ephemeral=False, **kwargs)
            try:
                await self._send_chunks(followup, msg, images)
                return
            except discord.Forbidden:
                raise
            except discord.HTTPException as exc:
                if exc.status >= 500 and not images:
                    raise
                log.info("follow-up refused (%s); posting to the channel instead", exc.status)
        channel = self.get_channel(int(msg.channel_id)) or self.get_partial_messageable(int(msg.channel_id))
        try:
            await self._send_chunks(channel.send, msg, images)
        except discord.Forbidden:
            if not images:
                raise
            # Probably no Attach Files permission: the text and buttons still matter.
            await self._send_chunks(channel.send, Outgoing(
                to="channel", channel_id=msg.channel_id, rows=msg.rows, board=msg.board,
                text=(msg.text or "") + "\n(I'm not allowed to attach images in this channel.)"), [])

    async def _dm_channel(self, user_id: str, fresh: bool = False) -> discord.abc.Messageable:
        """The user's DM channel from its remembered id: opening one is a request of its own
        (and discord.py keeps only 128), so its id is kept in the store, across restarts."""
        channel_id = None if fresh else self._dm_ids.get(user_id)
        if channel_id is None and not fresh:
            channel_id = await self.service.store.dm_channel(user_id)
        if channel_id is None:
            data = await self.http.start_private_message(int(user_id))
            channel_id = str(data["id"])
            self._dm_unsaved[user_id] = channel_id  # saved with others by the scheduler, within a second
        self._dm_ids.pop(user_id, None)
        self._dm_ids[user_id] = channel_id
        if len(self._dm_ids) > DM_IDS:
            self._dm_ids.pop(next(iter(self._dm_ids)))
        return self.get_partial_messageable(int(channel_id), type=discord.ChannelType.private)

    async def _send_dm(self, msg: Outgoing, images: Images | None = None) -> None:
        if not msg.user_id or not msg.user_id.isdigit():
            return
        now = asyncio.get_running_loop().time()
        if now - self._dm_closed.get(msg.user_id, -DM_CLOSED_MEMORY) < DM_CLOSED_MEMORY:
            # Their DMs bounced a moment ago: don't collect another 403 (Discord bans
            # IPs with too many), just remind them in the channel now and then.
            await self._dm_notice(msg, now)
            return
        try:
            channel = await self._dm_channel(msg.user_id)
            try:
                await self._send_chunks(channel.send, msg, list(images or []))
            except discord.NotFound:
                # The remembered channel is gone: open a new one, once.
                channel = await self._dm_channel(msg.user_id, fresh=True)
                await self._send_chunks(channel.send, msg, list(images or []))
        except discord.Forbidden as exc:
            if exc.code in DM_CLOSED or exc.status == 403:
                # Never retry a 403: say so in the channel (nothing secret) and offer ephemeral controls.
                remember(self._dm_closed, msg.user_id, now, DM_CLOSED_MEMORY)
                await self._dm_notice(msg, now)
            else:
                raise
        except (discord.NotFound, discord.HTTPException) as exc:
            if isinstance(exc, discord.DiscordServerError):
                raise
            log.warning("DM to user %s failed: %s", msg.user_id, exc)

    async def _dm_notice(self, msg: Outgoing, now: float) -> None:
        if not msg.channel_id:
            return
        key = (msg.channel_id, msg.user_id or "")
        if now - self._dm_notified.get(key, -DM_CLOSED_MEMORY) < DM_CLOSED_MEMORY:
            return  # the channel already has a recent notice with its "Open my controls" button
        remember(self._dm_notified, key, now, DM_CLOSED_MEMORY)
        for notice in await self.service.dm_failed(msg.channel_id, msg.user_id, msg.user_name):
            self.delivery.put(notice.channel_id, notice)

    async def _reply(self, interaction: discord.Interaction, msg: Outgoing, answered: bool) -> None:
        view = build_view(msg.rows) or discord.utils.MISSING
        # Replies carry no board (boards go to the channel's lane), but may carry a chart or a replay's frame.
        images = await asyncio.to_thread(msg.render_images) if msg.image_job or msg.images else []
        files = self._files(msg, images)
        embeds = [build_embed(e) for e in msg.embeds[:10]]
        parts = _parts(msg)  # a long hand or rules text: every part, in order
        from_component = interaction.type == discord.InteractionType.component
        private_origin = interaction.guild_id is None or (
            interaction.message is not None and interaction.message.flags.ephemeral)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            part_view = view if last else discord.utils.MISSING
            part_files = files if last and files else discord.utils.MISSING
            if i == 0 and from_component and not answered and private_origin and msg.to in ("edit", "ephemeral") \
                    and msg.rows:
                # A click in a DM or an ephemeral panel: update that panel in place. A reply
                # without controls (an error, "too late") comes as its own message, so a
                # double click can't wipe out the fresh panel the first click produced.
                await interaction.edit_original_response(
                    content=part, view=view if last else None, embeds=embeds if last else [],
                    allowed_mentions=allowed_mentions(msg),
                    attachments=part_files if last and files else discord.utils.MISSING)
                continue
            await interaction.followup.send(part, ephemeral=True, view=part_view, files=part_files,
                                            embeds=embeds if last and embeds else discord.utils.MISSING,
                                            allowed_mentions=allowed_mentions(msg))


def _parts(msg: Outgoing) -> list[str | None]:
    """The message's text, then its text board in code blocks (monospace, so the columns line
    up, and nothing in it is read as markup or a mention), each part under 2,000 characters.
    A backtick (from a custom trivia question, say) can't close the block early. A message of
    embeds alone has no text (None)."""
    if not msg.text and not msg.board and msg.embeds:
        return [None]
    parts: list[str | None] = list(chunk_text(msg.text or "\u200b"))
    if msg.board:
        parts += [f"```\n{part}\n```" for part in chunk_text(msg.board.replace("`", "'"))]
    return parts


def stop_on_signals(client: PoliticsBot, seconds: float) -> None:
    """SIGTERM (docker stop, systemd) and SIGINT (Ctrl-C) stop the bot cleanly, within `seconds`;
    client.start() then returns and the process exits 0. A second signal changes nothing: the
    stop is already bounded."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task] = []  # held, so the task is not collected mid-stop

    def stop() -> None:
        if not stopping:
            stopping.append(loop.create_task(client.stop_cleanly(seconds), name="politics-stop"))

    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop)
        except (NotImplementedError, RuntimeError):  # not the main thread, or not Unix
            pass


def run_discord(settings: Settings) -> int:
    point_at(settings.rest_base, settings.gateway_url)
    try:
        asyncio.run(_run_client(settings))
    except StorageError as exc:  # before connecting: one sentence, and the process ends
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("politics-bot: Discord rejected DISCORD_TOKEN (check it in the Developer Portal).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("politics-bot: enable the Message Content intent in the Developer Portal, or unset "
              "MESSAGE_CONTENT_INTENT.", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


async def _run_client(settings: Settings) -> None:
    """The database is opened first, so a file that can't be used ends the run before Discord is
    contacted; the store is closed however the client stops (its thread would keep the process alive)."""
    store = await Store.open(settings.database)
    pruning = start_pruning(store, settings.archive_days, settings.shards is None or 0 in settings.shards.ids)
    try:
        client = PoliticsBot(settings, service=GameService(store, ai_delay=settings.ai_delay, shards=settings.shards))
        async with client:
            stop_on_signals(client, settings.stop_seconds)
            await client.start(settings.token or "")  # none: Discord refuses it (LoginFailure, one sentence)
    finally:
        if pruning is not None:
            pruning.cancel()
        await store.close()
