"""A local fake Discord on 127.0.0.1 that speaks Discord's real wire protocol.

The bot's real discord.py client connects to it (bot.discord_app.point_at);
nothing in the bot is patched. The fake serves the REST routes the bot uses,
a JSON gateway (HELLO, heartbeat ACK, IDENTIFY -> READY + GUILD_CREATE,
RESUME -> RESUMED with replay, op 7, dropped sockets), dispatches interactions
the way Discord does (each on the shard of its server: gateway.py), records everything the bot
sent, and which bot process sent it (by the token it used), and can fail like Discord
(403/50007 closed DMs, 429 + retry_after + Via, 5xx, unknown/acknowledged
interactions, a dropped websocket). It keeps Discord's rate limits per bot token
(limits.py: the global 50/s, per-route buckets, the invalid-request counter), on
unless FakeDiscord(limits=False).
"""
from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from .gateway import GatewayMixin
from .limits import Decision, Limits
from .stored import (FLAG_EPHEMERAL, FLAG_LOADING, FailRule, FakeInteraction, FakeUser, FormError, Request, Sent,
                     _descriptions, error, jresp)

if TYPE_CHECKING:
    from .client import UserHandle

DISCORD_EPOCH_MS = 1420070400000
# The token of the REST request being handled ("" without one: webhooks carry none).
SENDER: contextvars.ContextVar[str] = contextvars.ContextVar("fake_discord_sender", default="")
BUSY_TASK_PREFIXES = ("CommandTree-invoker", "discord-ui-view-dispatch", "discord-ui-dynamic-item",
                      "discord-ui-modal-dispatch", "discord.py: on_interaction", "discord.py: on_message",
                      "politics-delivery")


class FakeDiscord(GatewayMixin):
    APP_ID = "1100000000000000001"
    BOT_ID = "1100000000000000001"

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, heartbeat_ms: int = 41250,
                 shard_count: int = 1, max_concurrency: int = 1, limits: bool = True) -> None:
        self.clock = clock
        # Discord's rate limits per bot token (limits.py); off only where a test says why.
        self.limits = Limits(enabled=limits)
        self.heartbeat_ms = heartbeat_ms
        self._counter = itertools.count(1)
        self.users: dict[str, FakeUser] = {}
        self.users_by_id: dict[str, FakeUser] = {}
        self.channels: dict[str, str] = {}  # id -> name (guild text channels)
        self.channel_guild: dict[str, str] = {}  # text channel id -> its server
        self.threads: dict[str, dict] = {}  # id -> {"name", "parent_id", "archived"} (public threads)
        self.dm_channels: dict[str, str] = {}  # dm channel id -> user id
        self.messages: dict[str, Sent] = {}
        self.sent: list[Sent] = []
        self.interactions: dict[str, FakeInteraction] = {}
        self.by_token: dict[str, FakeInteraction] = {}
        self.requests: list[tuple[float, str, str, int]] = []  # (t, method, path, status)
        self.request_log: list[Request] = []  # the same requests with their token, route and limit
        self.rules: list[FailRule] = []
        self.commands: dict[str, list] = {}
        self.uploads: dict[str, bytes] = {}
        self.faults_injected: list[str] = []
        self.violations: list[str] = []  # Discord limits the bot broke (answered 400 / 50035)
        self.nonces: dict[tuple[str, str], Sent] = {}  # (channel, nonce) -> the message it created
        self.nonce_repeats = 0  # posts answered with an earlier message because of enforce_nonce
        self.hold_posts = False  # tests: record posts but never answer them (then kill the bot)
        self.held = 0
        self.inflight = 0
        self.unacked: set[str] = set()
        # Load runs (bot.bench_live): called with each reply an interaction gets; attachments
        # counted (file_bytes) and, with keep_files off, not kept.
        self.on_reply: Callable[[FakeInteraction, Sent], None] | None = None
        self.keep_files = True
        self.file_bytes = 0
        self.uploaded: list[str] = []  # the name of every file a request uploaded (kept with keep_files)
        self._settler: asyncio.Future | None = None
        self.last_activity = 0.0
        self._init_gateway(shard_count, max_concurrency)
        self.bot_user = FakeUser(self.BOT_ID, "politics-bot", bot=True)
        self.users_by_id[self.BOT_ID] = self.bot_user
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.add_channel("general")

    # ---- lifecycle -----------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._middleware])
        app.router.add_get("/", self._gateway)
        r = app.router
        base = "/api/v10"
        r.add_get(base + "/gateway", self._get_gateway)
        r.add_get(base + "/gateway/bot", self._get_gateway_bot)
        r.add_get(base + "/users/@me", self._me)
        r.add_get(base + "/oauth2/applications/@me", self._app_info)
        r.add_get(base + "/applications/@me", self._app_info)
        r.add_put(base + "/applications/{app}/commands", self._sync)
        r.add_put(base + "/applications/{app}/guilds/{gid}/commands", self._sync)
        r.add_get(base + "/applications/{app}/commands", self._list_commands)
        r.add_post(base + "/interactions/{iid}/{token}/callback", self._callback)
        r.add_post(base + "/webhooks/{app}/{token}", self._followup)
        r.add_get(base + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_get)
        r.add_patch(base + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_edit)
        r.add_delete(base + "/webhooks/{app}/{token}/messages/{mid}", self._webhook_delete)
        r.add_post(base + "/users/@me/channels", self._open_dm)
        r.add_get(base + "/users/{uid}", self._get_user)
        r.add_get(base + "/channels/{cid}", self._get_channel)
        r.add_patch(base + "/channels/{cid}", self._edit_channel)
        r.add_post(base + "/channels/{cid}/threads", self._create_thread)
        r.add_post(base + "/channels/{cid}/messages", self._post_message)
        r.add_patch(base + "/channels/{cid}/messages/{mid}", self._edit_message)
        r.add_get(base + "/attachments/{aid}/{name}", self._attachment)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]  # (host, port) of the one site, on a free port
        return self

    async def stop(self) -> None:
        await self._close_sockets()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    # ---- ids and the world --------------------------------------------
    def snowflake(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))

    def add_channel(self, name: str, guild: str | None = None) -> str:
        cid = self.snowflake()
        self.channels[cid] = name
        self.channel_guild[cid] = guild or self.GUILD_ID
        return cid

    @property
    def general(self) -> str:
        return next(iter(self.channels))

    def user(self, name: str, *, perms: int = 0, bot: bool = False, dm_closed: bool | None = None) -> UserHandle:
        u = self.users.get(name)
        if u is None:
            u = FakeUser(self.snowflake(), name, perms=perms, bot=bot)
            self.users[name] = u
            self.users_by_id[u.id] = u
        if perms:
            u.perms = perms
        if dm_closed is not None:
            u.dm_closed = dm_closed
        from .client import UserHandle
        return UserHandle(self, u)

    # ---- failure injection ---------------------------------------------
    def fail(self, method: str, path: str, status: int, *, code: int = 0, times: int = 1,
             retry_after: float = 0.05, via: bool = True, skip: int = 0) -> FailRule:
        """The next `times` requests matching METHOD and the path regex (after `skip` that
        pass) fail like Discord."""
        rule = FailRule(method.upper(), re.compile(path), status, code, times, retry_after, via, skip=skip)
        self.rules.append(rule)
        return rule

    @web.middleware
    async def _middleware(self, request: web.Request, handler):
        if request.path == "/":
            return await handler(request)
        self.inflight += 1
        self.last_activity = self.clock()
        token = request.headers.get("Authorization", "").removeprefix("Bot ")
        SENDER.set(token)
        try:
            decision = self.limits.check(token, request.method, request.path)
            if decision is not None and decision.status:
                await request.read()  # a 429 before the handler: the request did nothing
                resp = self._rate_limited(decision)
            else:
                resp = await self._serve(request, handler)
            if decision is not None:
                for key, value in decision.headers.items():
                    resp.headers.setdefault(key, value)
            self.limits.answered(token, resp.status, decision.scope if decision else "")
            self.requests.append((self.clock(), request.method, request.path, resp.status))
            self.request_log.append(Request(self.clock(), token, request.method, request.path,
                                            decision.route if decision else "", resp.status,
                                            bool(decision and decision.global_limited),
                                            decision.scope if decision else ""))
            return resp
        finally:
            self.inflight -= 1
            self.last_activity = self.clock()

    async def _serve(self, request: web.Request, handler) -> web.Response:
        for rule in self.rules:
            if rule.hits < rule.times and rule.method == request.method and rule.path.search(request.path):
                if rule.skip:
                    rule.skip -= 1
                    continue
                rule.hits += 1
                await request.read()
                self.faults_injected.append(f"{rule.status} {request.method} {request.path}")
                return self._failure(rule)
        try:
            return await handler(request)
        except FormError as exc:  # what Discord answers to a message over its limits
            return jresp({"message": "Invalid Form Body", "code": 50035, "errors": exc.args[0]}, 400)

    def _rate_limited(self, decision: Decision) -> web.Response:
        """Discord's 429: a JSON body with retry_after and global, Via (a 429 from Discord, not
        Cloudflare), the scope; a banned token gets Cloudflare's bare 429 instead."""
        if decision.scope == "ban":
            return web.Response(status=429, text="error code: 1015", content_type="text/plain")
        body = {"message": "You are being rate limited.", "retry_after": round(decision.retry_after, 3),
                "global": decision.scope == "global"}
        return jresp(body, 429, {"Via": "1.1 google", **decision.headers})

    def _failure(self, rule: FailRule) -> web.Response:
        if rule.status == 429:
            headers = {"Retry-After": str(rule.retry_after)}
            if rule.via:
                headers["Via"] = "1.1 google"
            return jresp({"message": "You are being rate limited.", "retry_after": rule.retry_after, "global": False},
                         429, headers)
        if rule.status == 403:
            return error(403, rule.code or 50013,
                         "Missing Permissions" if rule.code != 50007 else "Cannot send messages to this user")
        if rule.status >= 500:
            return web.Response(status=rule.status, text="upstream error", content_type="text/plain")
        return error(rule.status, rule.code, "error")

    # ---- interactions ----------------------------------------------------------
    async def interact(self, user: FakeUser, itype: int, data: dict, *, channel_id: str | None = None,
                       message: Sent | None = None, shard: int | None = None) -> FakeInteraction:
        """Dispatch an interaction on its server's shard (`shard`: on that one instead, as Discord
        never would, for a bot that must refuse it)."""
        iid = self.snowflake()
        token = f"tok-{iid}"
        dm = message is not None and message.kind == "dm"
        channel_id = channel_id or (message.channel_id if message else self.general)
        guild = None if dm else self.guild_of(channel_id) or self.GUILD_ID
        payload: dict[str, Any] = {
            "id": iid, "type": itype, "token": token, "version": 1, "application_id": self.APP_ID,
            "attachment_size_limit": 10 * 1024 * 1024, "data": data, "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": guild} if not dm else {"1": user.id},
            "context": 1 if dm else 0, "app_permissions": str((1 << 46) - 1),
            "channel_id": channel_id,
        }
        if dm:
            payload["user"] = user.payload()
            payload["channel"] = {"id": channel_id, "type": 1, "recipients": [user.payload()]}
        else:
            payload["guild_id"] = guild
            payload["guild_locale"] = "en-US"
            payload["member"] = self.member_payload(user)
            payload["channel"] = (self.thread_payload(channel_id) if channel_id in self.threads else
                                  {"id": channel_id, "type": 0, "name": self.channels.get(channel_id, "x"),
                                   "guild_id": guild, "position": 0, "permission_overwrites": []})
        if message is not None:
            payload["message"] = self.message_payload(message)
        inter = FakeInteraction(iid, token, itype, user, channel_id, payload, self.clock(),
                                message_id=message.id if message else None, guild_id=guild)
        self.interactions[iid] = inter
        self.unacked.add(iid)
        self.by_token[token] = inter
        self.last_activity = self.clock()
        session = self.by_shard.get(shard) if shard is not None else self.session_for(guild)
        inter.session = session.id if session is not None else ""
        await self.dispatch("INTERACTION_CREATE", payload, guild, shard)
        return inter

    def message_payload(self, m: Sent) -> dict:
        return {
            "id": m.id, "type": 0 if m.interaction_id is None else 20, "channel_id": m.channel_id,
            "content": m.content, "author": self.bot_user.payload(), "embeds": m.embeds,
            "components": m.components, "attachments": [
                {"id": m.attachment_ids[i] if i < len(m.attachment_ids) else str(i + 1),
                 "filename": name, "size": len(data), "url": f"http://127.0.0.1:{self.port}/x/{name}",
                 "proxy_url": f"http://127.0.0.1:{self.port}/x/{name}",
                 **({"description": m.descriptions[i]} if i < len(m.descriptions) and m.descriptions[i] else {})}
                for i, (name, data) in enumerate(m.files)],
            "mentions": [], "mention_roles": [], "mention_everyone": False, "pinned": False, "tts": False,
            "timestamp": "2024-01-01T00:00:00+00:00", "edited_timestamp": None, "flags": m.flags,
            **({"guild_id": self.guild_of(m.channel_id) or self.GUILD_ID} if m.kind != "dm" else {}),
        }

    # ---- REST: login, sync ---------------------------------------------------
    async def _me(self, request):
        return jresp(self.bot_user.payload())

    async def _list_commands(self, request):
        return jresp(self.commands.get("global", []))

    async def _get_gateway(self, request):
        return jresp({"url": self.gateway_url})

    async def _get_gateway_bot(self, request):
        return jresp({"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": self.max_concurrency}})

    async def _app_info(self, request):
        return jresp({"id": self.APP_ID, "name": "politics-bot", "description": "", "icon": None,
                      "bot_public": True, "bot_require_code_grant": False, "owner": {
                          "id": "1", "username": "owner", "discriminator": "0", "avatar": None},
                      "verify_key": "00", "flags": 0, "team": None, "summary": "", "rpc_origins": []})

    async def _sync(self, request):
        body = await request.json()
        key = request.match_info.get("gid", "global")
        out = []
        for cmd in body:
            out.append({**cmd, "id": self.snowflake(), "application_id": self.APP_ID, "version": "1",
                        "default_member_permissions": cmd.get("default_member_permissions"),
                        "type": cmd.get("type", 1)})
        self.commands[key] = out
        return jresp(out)

    # ---- REST: messages ------------------------------------------------------
    async def _read_body(self, request: web.Request) -> tuple[dict, list[tuple[str, bytes]]]:
        ctype = request.headers.get("Content-Type", "")
        files: list[tuple[str, bytes]] = []
        if ctype.startswith("multipart/"):
            payload: dict = {}
            reader = await request.multipart()
            parts: dict[str, tuple[str, bytes]] = {}
            async for part in reader:
                if not isinstance(part, BodyPartReader):  # a nested multipart: Discord's clients send none
                    continue
                raw = await part.read(decode=False)
                if part.name == "payload_json":
                    payload = json.loads(raw.decode())
                elif part.name and part.name.startswith("files["):
                    parts[part.name[6:-1]] = (part.filename or "file", bytes(raw))
            for att in payload.get("attachments", []) or []:
                key = str(att.get("id"))
                if key in parts:
                    files.append((att.get("filename") or parts[key][0], parts[key][1]))
            if not files:  # payload without an attachments list: keep the order of the parts
                files = [parts[k] for k in sorted(parts, key=lambda k: int(k) if k.isdigit() else 0)]
            return payload, files
        text = await request.text()
        return (json.loads(text) if text else {}), files

    def _record(self, kind: str, channel_id: str, body: dict, files, *, visible_to: str | None = None,
                interaction: FakeInteraction | None = None) -> Sent:
        self._count_uploads(files)
        if not self.keep_files:
            files = [(name, b"") for name, _data in files]
        m = Sent(id=self.snowflake(), kind=kind, channel_id=channel_id, content=body.get("content") or "",
                 components=body.get("components") or [], embeds=body.get("embeds") or [], files=list(files),
                 flags=int(body.get("flags") or 0), t=self.clock(), visible_to=visible_to,
                 interaction_id=interaction.id if interaction else None, descriptions=_descriptions(body, files),
                 attachment_ids=[self.snowflake() for _file in files],
                 sender=SENDER.get(),
                 versions=[(body.get("content") or "", body.get("allowed_mentions"))])
        self._check_limits(m)
        self.messages[m.id] = m
        self.sent.append(m)
        if interaction is not None:
            interaction.replies.append(m)
            if self.on_reply is not None and not m.flags & FLAG_LOADING:
                self.on_reply(interaction, m)
        return m

    def _check_limits(self, m: Sent) -> None:
        problems = []
        if len(m.content) > 2000:
            problems.append("content over 2000")
        if len(m.components) > 5:
            problems.append("more than 5 rows")
        for row in m.components:
            items = row.get("components", [])
            if len(items) > 5:
                problems.append("more than 5 items in a row")
            for c in items:
                if len(c.get("custom_id", "")) > 100:
                    problems.append("custom_id over 100")
                if c.get("type") == 3 and len(c.get("options", [])) > 25:
                    problems.append("select over 25 options")
                if len(c.get("label", "") or "") > 80:
                    problems.append("label over 80")
        for name, data in m.files:
            if len(data) > 10 * 1024 * 1024:
                problems.append(f"file {name} over 10 MiB")
        for text in m.descriptions:
            if len(text) > 1024:
                problems.append("attachment description over 1024")
        if problems:
            self.violations.extend(problems)
            raise FormError(problems)

    async def _post_message(self, request):
        cid = request.match_info["cid"]
        body, files = await self._read_body(request)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: the same author and nonce within a few minutes returns the first message
            # instead of posting again.
            seen = self.nonces.get((cid, str(nonce)))
            if seen is not None:
                self.nonce_repeats += 1
                return jresp(self.message_payload(seen))
        if cid in self.dm_channels:
            owner = self.users_by_id[self.dm_channels[cid]]
            if owner.dm_closed:
                self.faults_injected.append(f"403/50007 DM to {owner.name}")
                return error(403, 50007, "Cannot send messages to this user")
            m = self._record("dm", cid, body, files, visible_to=owner.id)
        elif cid in self.channels:
            m = self._record("channel", cid, body, files)
        elif cid in self.threads:
            self.threads[cid]["archived"] = False  # as on Discord: a new message reopens an archived thread
            m = self._record("channel", cid, body, files)
        else:
            return error(404, 10003, "Unknown Channel")
        if nonce is not None:
            self.nonces[(cid, str(nonce))] = m
        if self.hold_posts:
            # The message exists, but its answer never comes: a bot killed now can't know it was posted.
            self.held += 1
            await asyncio.sleep(5)
        return jresp(self.message_payload(m))

    async def _edit_message(self, request):
        m = self.messages.get(request.match_info["mid"])
        if m is None:
            return error(404, 10008, "Unknown Message")
        body, files = await self._read_body(request)
        self._apply_edit(m, body, files)
        return jresp(self.message_payload(m))

    def _apply_edit(self, m: Sent, body: dict, files) -> None:
        if "content" in body:
            m.content = body["content"] or ""
        if "components" in body:
            m.components = body["components"] or []
        if "embeds" in body:
            m.embeds = body["embeds"] or []
        if files or "attachments" in body:
            self._replace_attachments(m, body, files)
        if "content" in body or "allowed_mentions" in body:
            m.versions.append((m.content, body.get("allowed_mentions")))
        m.flags &= ~FLAG_LOADING
        m.edits += 1
        m.t = self.clock()
        self._check_limits(m)

    def _count_uploads(self, files) -> None:
        self.file_bytes += sum(len(data) for _name, data in files)
        if self.keep_files:
            self.uploaded.extend(name for name, _data in files)

    def _replace_attachments(self, m: Sent, body: dict, files) -> None:
        """An edit's `attachments` list is the message's new set: an entry naming one of its
        attachment ids keeps that file; the others describe the uploaded files, in order; an
        attachment it does not list is removed (files without a list replace them all)."""
        self._count_uploads(files)
        uploads = [(name, data if self.keep_files else b"") for name, data in files]
        existing = {aid: (file, desc) for aid, file, desc in
                    zip(m.attachment_ids, m.files, m.descriptions + [""] * len(m.files))}
        kept_files, ids, descriptions = [], [], []
        next_upload = 0
        for att in body.get("attachments") or []:
            aid = str(att.get("id"))
            if aid in existing:
                file, desc = existing[aid]
                kept_files.append(file)
                ids.append(aid)
                descriptions.append(str(att.get("description") or desc))
            elif next_upload < len(uploads):
                kept_files.append(uploads[next_upload])
                next_upload += 1
                ids.append(self.snowflake())
                descriptions.append(str(att.get("description") or ""))
        for file in uploads[next_upload:]:
            kept_files.append(file)
            ids.append(self.snowflake())
            descriptions.append("")
        m.files, m.attachment_ids, m.descriptions = kept_files, ids, descriptions

    async def _open_dm(self, request):
        body = await request.json()
        uid = str(body.get("recipient_id"))
        u = self.users_by_id.get(uid)
        if u is None:
            return error(400, 50035, "Invalid Form Body")
        cid = next((c for c, owner in self.dm_channels.items() if owner == uid), None)
        if cid is None:
            cid = self.snowflake()
            self.dm_channels[cid] = uid
        return jresp({"id": cid, "type": 1, "recipients": [u.payload()], "last_message_id": None, "flags": 0})

    async def _get_user(self, request):
        u = self.users_by_id.get(request.match_info["uid"])
        return jresp(u.payload()) if u else error(404, 10013, "Unknown User")

    def thread_payload(self, cid: str) -> dict:
        t = self.threads[cid]
        return {"id": cid, "type": 11, "name": t["name"], "guild_id": self.guild_of(cid), "parent_id": t["parent_id"],
                "owner_id": self.BOT_ID, "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0,
                "thread_metadata": {"archived": t["archived"], "auto_archive_duration": t["auto_archive_duration"],
                                    "archive_timestamp": "2024-01-01T00:00:00+00:00", "locked": False}}

    async def _create_thread(self, request):
        """Start a public thread without a message (Discord: POST /channels/{id}/threads)."""
        cid = request.match_info["cid"]
        if cid not in self.channels:
            return error(404, 10003, "Unknown Channel")
        body = await request.json()
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            self.violations.append("thread name not 1-100 characters")
            return jresp({"message": "Invalid Form Body", "code": 50035}, 400)
        tid = self.snowflake()
        self.threads[tid] = {"name": name, "parent_id": cid, "archived": False,
                             "auto_archive_duration": int(body.get("auto_archive_duration") or 4320)}
        return jresp(self.thread_payload(tid), 201)

    async def _edit_channel(self, request):
        """Modify a thread: the bot archives the threads it opened."""
        cid = request.match_info["cid"]
        if cid not in self.threads:
            return error(404, 10003, "Unknown Channel")
        body = await request.json()
        for key in ("archived", "name"):
            if key in body:
                self.threads[cid][key] = body[key]
        return jresp(self.thread_payload(cid))

    async def _get_channel(self, request):
        cid = request.match_info["cid"]
        if cid in self.threads:
            return jresp(self.thread_payload(cid))
        if cid in self.channels:
            return jresp({"id": cid, "type": 0, "name": self.channels[cid], "guild_id": self.guild_of(cid),
                          "position": 0, "permission_overwrites": []})
        if cid in self.dm_channels:
            return jresp({"id": cid, "type": 1, "recipients": [self.users_by_id[self.dm_channels[cid]].payload()]})
        return error(404, 10003, "Unknown Channel")

    async def _attachment(self, request):
        data = self.uploads.get(request.match_info["aid"])
        if data is None:
            return error(404, 0, "Not found")
        return web.Response(body=data, content_type="application/octet-stream")

    # ---- REST: interaction callbacks and webhooks ------------------------------
    async def _callback(self, request):
        inter = self.interactions.get(request.match_info["iid"])
        body, files = await self._read_body(request)
        if inter is None or inter.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        now = self.clock()
        if inter.callbacks:
            return error(400, 40060, "Interaction has already been acknowledged.")
        if now - inter.dispatched_at > 3.0:
            inter.first_callback_at = inter.first_callback_at or now
            return error(404, 10062, "Unknown interaction")
        inter.callbacks += 1
        inter.first_callback_at = now
        ctype = int(body.get("type", 0))
        inter.callback_type = ctype
        data = body.get("data") or {}
        message = None
        if ctype in (4, 5):
            flags = int(data.get("flags") or 0) | (FLAG_LOADING if ctype == 5 else 0)
            eph = bool(flags & FLAG_EPHEMERAL)
            in_dm = bool(inter.message_id) and self.messages[inter.message_id or ""].kind == "dm"
            message = self._record("interaction", inter.channel_id, {**data, "flags": flags}, files,
                                   visible_to=inter.user.id if eph or in_dm else None, interaction=inter)
            inter.original_id = message.id
        elif ctype in (6, 7):
            inter.original_id = inter.message_id
            if ctype == 7 and inter.message_id:
                message = self.messages[inter.message_id]
                self._apply_edit(message, data, files)
        elif ctype == 8:
            inter.choices = data.get("choices", [])
        elif ctype == 9:
            inter.modal = data
        out: dict[str, Any] = {"interaction": {
            "id": inter.id, "type": inter.type, "response_message_id": message.id if message else None,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(message and message.ephemeral)}}
        out["resource"] = {"type": ctype}
        if message is not None:
            out["resource"]["message"] = self.message_payload(message)
        return jresp(out)

    def _webhook_inter(self, request) -> FakeInteraction | None:
        inter = self.by_token.get(request.match_info["token"])
        if inter is None or request.match_info["app"] != self.APP_ID:
            return None
        return inter

    def _expired(self, inter: FakeInteraction) -> bool:
        return self.clock() - inter.dispatched_at > 15 * 60

    async def _followup(self, request):
        inter = self._webhook_inter(request)
        body, files = await self._read_body(request)
        if inter is None or not inter.callbacks:
            return error(404, 10015, "Unknown Webhook")
        if self._expired(inter):
            return error(401, 50027, "Invalid Webhook Token")
        original = self.messages.get(inter.original_id) if inter.original_id else None
        if inter.callback_type == 5 and original is not None and original.flags & FLAG_LOADING and not original.deleted:
            # Discord: the first follow-up after a "thinking" defer replaces that
            # message and keeps the defer's ephemeral setting.
            self._apply_edit(original, {**body, "content": body.get("content") or ""}, files)
            original.edits = 0
            if self.on_reply is not None:
                self.on_reply(inter, original)
            return jresp(self.message_payload(original))
        eph = bool(int(body.get("flags") or 0) & FLAG_EPHEMERAL)
        origin = self.messages.get(inter.message_id) if inter.message_id else None
        private = eph or (origin is not None and origin.kind == "dm")
        m = self._record("interaction", inter.channel_id, body, files,
                         visible_to=inter.user.id if private else None, interaction=inter)
        return jresp(self.message_payload(m))

    def _target(self, inter: FakeInteraction, mid: str) -> Sent | None:
        if mid == "@original":
            return self.messages.get(inter.original_id) if inter.original_id else None
        m = self.messages.get(mid)
        return m if m is not None and m.interaction_id == inter.id else None

    async def _webhook_get(self, request):
        inter = self._webhook_inter(request)
        m = self._target(inter, request.match_info["mid"]) if inter else None
        return jresp(self.message_payload(m)) if m else error(404, 10008, "Unknown Message")

    async def _webhook_edit(self, request):
        inter = self._webhook_inter(request)
        body, files = await self._read_body(request)
        m = self._target(inter, request.match_info["mid"]) if inter else None
        if m is None or inter is None:
            return error(404, 10008, "Unknown Message")
        if self._expired(inter):
            return error(401, 50027, "Invalid Webhook Token")
        self._apply_edit(m, body, files)
        if m not in inter.replies:
            inter.replies.append(m)
        return jresp(self.message_payload(m))

    async def _webhook_delete(self, request):
        inter = self._webhook_inter(request)
        m = self._target(inter, request.match_info["mid"]) if inter else None
        if m is None:
            return error(404, 10008, "Unknown Message")
        m.deleted = True
        return web.Response(status=204)

    def plant(self, channel_id: str, custom_ids: list[str], content: str = "(an old message)") -> Sent:
        """A message of the bot's with these buttons, as if sent long ago (or by an
        older version): Discord only sends clicks for components that exist."""
        rows = [{"type": 1, "components": [{"type": 2, "style": 2, "label": f"b{i}", "custom_id": cid}
                                           for i, cid in enumerate(custom_ids[j:j + 5], start=j)]}
                for j in range(0, len(custom_ids), 5)]
        m = Sent(id=self.snowflake(), kind="channel", channel_id=channel_id, content=content, components=rows,
                 embeds=[], files=[], flags=0, t=self.clock())
        self.messages[m.id] = m
        return m

    # ---- views for assertions -----------------------------------------------
    def receiver(self, inter: FakeInteraction) -> str:
        """The token of the bot process the interaction was sent to ("" if none held its shard)."""
        session = self.sessions.get(inter.session)
        return session.token if session is not None else ""

    def sender(self, m: Sent) -> str:
        """The bot process that sent a message: the token of its post, or, for an interaction's
        reply or follow-up, the process that interaction went to."""
        if m.sender or m.interaction_id is None:
            return m.sender
        return self.receiver(self.interactions[m.interaction_id])

    def channel_messages(self, channel_id: str | None = None) -> list[Sent]:
        """The channel's messages: posts, and public follow-ups (on Discord they are channel messages too)."""
        cid = channel_id or self.general
        return [m for m in self.sent if m.channel_id == cid and not m.deleted and (
            m.kind == "channel" or (m.kind == "interaction" and m.visible_to is None))]

    def dms(self, user: str | FakeUser) -> list[Sent]:
        u = self.users[user] if isinstance(user, str) else user
        return [m for m in self.sent if m.kind == "dm" and self.dm_channels.get(m.channel_id) == u.id]

    def seen_by(self, user: str | FakeUser, channel_id: str | None = None) -> list[Sent]:
        """Everything a user could see: the channel, their DMs, their ephemeral replies."""
        u = self.users[user] if isinstance(user, str) else user
        cid = channel_id or self.general
        return [m for m in self.sent if not m.deleted and (
            (m.visible_to is None and m.channel_id == cid) or m.visible_to == u.id)]

    def public(self, channel_id: str | None = None) -> list[Sent]:
        """Everything anyone in the channel sees: channel posts and non-ephemeral replies."""
        cid = channel_id or self.general
        return [m for m in self.sent if not m.deleted and m.visible_to is None and m.channel_id == cid]

    def latencies(self) -> list[float]:
        return [i.latency for i in self.interactions.values() if i.latency is not None]

    def unanswered(self) -> list[FakeInteraction]:
        return [i for i in self.interactions.values() if i.first_callback_at is None]

    # ---- waiting ------------------------------------------------------------
    def busy(self) -> bool:
        if self.inflight:
            return True
        for task in asyncio.all_tasks():
            if task.done():
                continue
            if task.get_name().startswith(BUSY_TASK_PREFIXES):
                return True
        return False

    def pending(self) -> bool:
        """An interaction not answered yet, or a "thinking…" defer not yet
        replaced by a follow-up or deleted (the bot is still working on it)."""
        now = self.clock()
        for iid in list(self.unacked):
            inter = self.interactions[iid]
            if now - inter.dispatched_at > 3.5 and inter.first_callback_at is None:
                self.unacked.discard(iid)  # refused or never answered: nothing more will come
                continue
            if inter.first_callback_at is None:
                continue
            original = self.messages.get(inter.original_id) if inter.original_id else None
            thinking = inter.callback_type == 5 and original is not None and original.flags & FLAG_LOADING \
                and not original.deleted and now - inter.dispatched_at < 60
            if not thinking:
                self.unacked.discard(iid)
        return bool(self.unacked)

    async def settle(self, timeout: float = 30.0, quiet: float = 0.0) -> None:
        """Wait until every interaction is answered and the bot has gone quiet.
        Many concurrent callers share one poller."""
        if self._settler is None or self._settler.done():
            self._settler = asyncio.ensure_future(self._settle(timeout, quiet))
        await asyncio.shield(self._settler)

    async def _settle(self, timeout: float = 30.0, quiet: float = 0.0) -> None:
        """Wait until every interaction is answered and the bot has gone quiet:
        no handler task of discord.py running (the bot runs in this process),
        no request in flight, and nothing for `quiet` seconds (raise it for a
        bot in another process; such a bot may also be waiting out a rate limit,
        until the last 429's retry_after or an emptied bucket's reset)."""
        # `timeout` without progress: a bot held to Discord's rate limits works through its backlog
        # more slowly, and is waited for while it still sends (up to ten times `timeout` in all).
        start = time.monotonic()
        while time.monotonic() < min(start + 10 * timeout, max(start, self._last_progress()) + timeout):
            waiting_out_a_limit = quiet > 0 and self.limits.clock() < self.limits.busy_until
            if not self.pending() and not self.busy() and self.clock() - self.last_activity >= quiet \
                    and not waiting_out_a_limit:
                await asyncio.sleep(0)
                if not self.pending() and not self.busy():
                    return
            await asyncio.sleep(0.002)
        raise TimeoutError("the bot did not go quiet")

    def _last_progress(self) -> float:
        """When the fake last received a request, on time.monotonic (settle's clock)."""
        return time.monotonic() - (self.clock() - self.last_activity)

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = predicate()
            if found:
                return found
            await asyncio.sleep(0.01)
        raise TimeoutError("condition not met in time")
