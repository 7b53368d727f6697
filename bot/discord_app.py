"""The Discord front end: the client that takes interactions and hands them to GameService.
Everything here is translation; no rules, no storage. Its two collaborators:
bot.discord_ui (slash commands generated from bot.registry, buttons and menus) and
bot.discord_send (the Sender: replies, the board and DMs through bot.delivery, the outbox).

- Every interaction is acknowledged first (defer), before any other work, so the
  3-second limit holds however busy the process is; when more work waits than the
  process can do in time, the first answer says so ("busy", nothing was changed).
- A clean stop (SIGTERM/SIGINT) answers new interactions "restarting", finishes those in
  flight and drains the lanes within STOP_SECONDS.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import tasks

from engines import all_games

from . import ratelimit
from .discord_send import Sender
from .discord_ui import GameButton, GameSelect, TextModal, build_group
from .health import OpsServer
from .metrics import Metrics
from .messages import Ctx, Outgoing, User
from .registry import CommandSpec, InputError
from .render_pool import RenderPool
from .service import GameService
from .settings import Settings
from .backup import start_pruning
from .logs import bind_interaction
from .store import StorageError, Store
from .text import plain

log = logging.getLogger("politics.discord")

RESTARTING = "Restarting — try again in a moment."  # an interaction that arrives while the bot stops
BUSY = "Busy right now — your move was not made and nothing was changed. Please try again in a moment."
WORKERS = 16  # service calls running at once: the rest wait their turn, so acks never queue behind them
MAX_WAITING = 1500  # interactions waiting for a turn; beyond it new ones are answered "busy"
ACKS_FIRST_SECONDS = 0.25  # work and deliveries wait at most this long for pending acks to go out
ACKS_FIRST_ABOVE = 8  # ... when more first answers than this are on their way (a burst, not steady play)
AUTOCOMPLETE_SECONDS = 2.0  # an autocomplete answer later than this would miss Discord's 3 s anyway
GAMES_COUNT_SECONDS = 15.0  # how often shard 0's process counts games in play for /metrics (one indexed query)
HTTP_CONNECTIONS = 64  # open HTTP connections to Discord, reused (discord.py's default has no limit)
IDENTIFY_SECONDS = 5.0  # Discord: one identify per max_concurrency bucket in this time
ELSEWHERE = ("This server is served by another of my processes right now (it may be restarting), so nothing "
             "was changed here; please try again in a moment.")


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Tests only: aim discord.py at a local fake Discord."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        import yarl
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


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
        self.tree.error(self._tree_error)
        self.render_pool = RenderPool(settings.render_workers or None, processes=settings.render_processes)
        self.sender = Sender(self, service, self.render_pool, acks_first=self.acks_first, metrics=self.metrics)
        self.delivery = self.sender.delivery
        self.deliver = self.sender.deliver
        self.metrics.time_store(service.store)
        service.play.on_ai_move = self.metrics.ai_move
        self.metrics.watch(self.metrics.render_queue, lambda: self.delivery.boards_waiting)
        self.metrics.watch(self.metrics.delivery_lanes, lambda: len(self.delivery.lanes))
        self.metrics.watch(self.metrics.delivery_backlog, lambda: self.delivery.backlog)
        self.metrics.watch(self.metrics.outbox_depth, lambda: len(self.sender.owed))
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
        await self.sender.redeliver()
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
        await self.sender.save_dm_channels()
        self.render_pool.close()
        self.service.play.ai_workers.close()  # no search left running after the bot stops
        if self.ops is not None:
            await self.ops.stop()
        await super().close()

    @tasks.loop(seconds=1.0)
    async def scheduler(self) -> None:
        # AI moves after their delay, engine timers, turn-timeout reminders; DM channel ids saved.
        await self.sender.save_dm_channels()
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
        if spec.name == "forget-me":
            self.sender.forget(ctx.user.id)
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
