"""The fake Discord's gateway and its servers (guilds), split by shard the way Discord does it.

A client IDENTIFYs with `shard: [id, count]` (none: [0, 1]) and gets a session of its own: READY
lists only that shard's servers, then a GUILD_CREATE for each; a server is on shard
(guild_id >> 22) % count and its dispatches (interactions) go only to the newest session of that
shard; direct messages are shard 0's. A session keeps its own sequence and backlog: while its
socket is down, its dispatches wait for a RESUME; a new IDENTIFY for the shard replaces the
session and what the old one missed is gone (on Discord, an interaction nobody received fails
for the user). Each session remembers the token it identified with, so a test can tell which
bot process was told what.

GatewayMixin is part of FakeDiscord (server.py): it uses the world kept there (users, channels,
threads, snowflake, bot_user).
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from bot.shards import shard_of

if TYPE_CHECKING:
    from .stored import FakeUser

DISCORD_EPOCH_MS = 1420070400000
INVALID_SHARD = 4010  # Discord's close code for a shard id outside 0..count-1


@dataclass
class Session:
    """One IDENTIFY: a shard's session, its socket (replaced on RESUME) and its dispatches."""
    id: str
    shard: int
    count: int
    token: str
    ws: web.WebSocketResponse | None = None
    live: bool = False  # READY or RESUMED, and its socket open
    seq: int = 0
    backlog: list[dict] = field(default_factory=list)  # dispatches kept for RESUME replay
    guilds: list[str] = field(default_factory=list)  # the servers READY listed

    def serves(self, guild_id: str | None) -> bool:
        return shard_of(guild_id, self.count) == self.shard


class GatewayMixin:
    GUILD_ID = "1200000000000000001"  # the server every channel is in unless told otherwise

    # The world this part of FakeDiscord uses, kept by FakeDiscord itself (server.py).
    APP_ID: str
    heartbeat_ms: int
    users: dict[str, FakeUser]
    channels: dict[str, str]
    channel_guild: dict[str, str]
    threads: dict[str, dict]
    faults_injected: list[str]
    bot_user: FakeUser
    if TYPE_CHECKING:
        @property
        def gateway_url(self) -> str: ...

        def snowflake(self) -> str: ...

    def _init_gateway(self, shard_count: int, max_concurrency: int) -> None:
        self.shard_count = shard_count  # what /gateway/bot recommends
        self.max_concurrency = max_concurrency
        self.guilds: dict[str, str] = {self.GUILD_ID: "Fake Guild"}  # id -> name
        self.sessions: dict[str, Session] = {}  # by session id, every one ever identified
        self.by_shard: dict[int, Session] = {}  # shard id -> its newest session
        self.undelivered: list[dict] = []  # dispatches for a shard nobody has identified
        self.identifies = 0
        self.resumes = 0
        self.heartbeats = 0
        self.connected = asyncio.Event()  # some session became live since the last clear()

    # ---- servers --------------------------------------------------------------
    def add_guild(self, name: str, *, shard: int | None = None, count: int | None = None) -> str:
        """A new server; with `shard`, its id is chosen so that it lands on that shard of
        `count` (default: the recommended count)."""
        count = count or self.shard_count
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS + len(self.guilds) * 7
        while shard is not None and ms % count != shard:
            ms += 1
        gid = str((ms << 22) | (len(self.guilds) & 0x3FFFFF))
        self.guilds[gid] = name
        return gid

    def guild_of(self, channel_id: str | None) -> str | None:
        """The server of a channel or thread; None for a DM channel (or one unknown)."""
        if channel_id is None:
            return None
        if channel_id in self.threads:
            channel_id = self.threads[channel_id]["parent_id"]
        return self.channel_guild.get(channel_id or "")

    def shard_sessions(self) -> dict[int, Session]:
        """The live session of each shard that has one."""
        return {shard: s for shard, s in self.by_shard.items() if s.live}

    def session_for(self, guild_id: str | None) -> Session | None:
        """Where Discord sends this server's events (DMs: shard 0)."""
        found = [s for s in self.by_shard.values() if s.serves(guild_id)]
        return max(found, key=lambda s: int(s.id.split("-")[1]), default=None)

    def member_payload(self, u) -> dict:
        return {"user": u.payload(), "roles": [], "flags": 0, "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "nick": None, "permissions": str(u.perms | 0x400 | 0x800),
                "pending": False}

    def guild_payload(self, guild_id: str | None = None) -> dict:
        gid = guild_id or self.GUILD_ID
        channels = [(cid, name) for cid, name in self.channels.items() if self.channel_guild.get(cid) == gid]
        return {
            "id": gid, "name": self.guilds[gid], "owner_id": "1", "unavailable": False,
            "member_count": len(self.users) + 1,
            "roles": [{"id": gid, "name": "@everyone", "permissions": str(0x400 | 0x800), "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [{"id": cid, "type": 0, "name": name, "position": i, "guild_id": gid,
                          "permission_overwrites": []} for i, (cid, name) in enumerate(channels)],
            "members": [self.member_payload(u) for u in [self.bot_user, *self.users.values()]],
            "emojis": [], "stickers": [], "features": [], "threads": [], "voice_states": [], "presences": [],
            "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
            "joined_at": "2024-01-01T00:00:00+00:00", "large": False, "premium_tier": 0,
        }

    # ---- the socket -------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}})
        session: Session | None = None
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op, d = data.get("op"), data.get("d") or {}
            if op == 1:
                self.heartbeats += 1
                await ws.send_json({"op": 11})
            elif op == 2:
                session = await self._identify(ws, d)
                if session is None:
                    break
            elif op == 6:
                session = await self._resume(ws, d)
            elif op == 8:
                gid = str(d.get("guild_id") or self.GUILD_ID)
                if session is not None:
                    await self._send(session, "GUILD_MEMBERS_CHUNK", force=True, d={
                        "guild_id": gid, "members": [self.member_payload(u) for u in self.users.values()],
                        "chunk_index": 0, "chunk_count": 1, "nonce": d.get("nonce")})
        if session is not None and session.ws is ws:
            session.live = False
            if not self.shard_sessions():
                self.connected.clear()
        return ws

    async def _identify(self, ws, d: dict) -> Session | None:
        shard, count = (d.get("shard") or [0, 1])[:2]
        if not 0 <= shard < count:
            await ws.close(code=INVALID_SHARD, message=b"Invalid shard")
            return None
        self.identifies += 1
        session = Session(f"sess-{self.snowflake()}", shard, count, str(d.get("token") or ""), ws)
        old = self.by_shard.get(shard)
        if old is not None and old.ws is not None and not old.ws.closed and old.ws is not ws:
            old.live = False  # replaced: Discord sends this shard's events to the new session only
        self.sessions[session.id] = session
        self.by_shard[shard] = session
        session.guilds = [gid for gid in self.guilds if session.serves(gid)]
        await self._send(session, "READY", force=True, d={
            "v": 10, "user": self.bot_user.payload(),
            "guilds": [{"id": g, "unavailable": True} for g in session.guilds],
            "session_id": session.id, "resume_gateway_url": self.gateway_url,
            "application": {"id": self.APP_ID, "flags": 0}, "private_channels": [], "relationships": [],
            "shard": [shard, count], "session_type": "normal", "geo_ordered_rtc_regions": [],
        })
        for gid in session.guilds:
            await self._send(session, "GUILD_CREATE", self.guild_payload(gid), force=True)
        session.live = True
        self.connected.set()
        return session

    async def _resume(self, ws, d: dict) -> Session | None:
        session = self.sessions.get(str(d.get("session_id")))
        if session is None or self.by_shard.get(session.shard) is not session:
            await ws.send_json({"op": 9, "d": False})  # invalid session: identify anew
            return None
        self.resumes += 1
        session.ws = ws
        after = int(d.get("seq") or 0)
        for event in [e for e in session.backlog if e["s"] > after]:
            await ws.send_json(event)
        session.seq += 1
        await ws.send_json({"op": 0, "t": "RESUMED", "s": session.seq, "d": {}})
        session.live = True
        self.connected.set()
        return session

    async def _send(self, session: Session, event: str, d: dict, force: bool = False) -> None:
        """Number the dispatch in its session and send it now if the session is live (`force`:
        during IDENTIFY, before it is)."""
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": d}
        session.backlog.append(payload)
        del session.backlog[:-2000]
        ws = session.ws
        if session.live or force:
            if ws is not None and not ws.closed:
                try:
                    await ws.send_json(payload)
                except ConnectionError:
                    pass

    async def dispatch(self, event: str, d: dict, guild_id: str | None = None, shard: int | None = None) -> None:
        """Send a dispatch on the shard of `guild_id` (None: shard 0; `shard`: that one's session
        whatever the server, which Discord never does); while that session's socket is down it
        waits in its backlog for RESUME; with no session for the shard it is lost."""
        session = self.by_shard.get(shard) if shard is not None else self.session_for(guild_id)
        if session is None:
            self.undelivered.append(d)
            return
        await self._send(session, event, d)

    async def drop_gateway(self, code: int = 4000, shard: int | None = None) -> None:
        """Close the socket(s) like a network blip; the client should RESUME."""
        self.faults_injected.append(f"gateway dropped ({code})")
        for s in self._chosen(shard):
            s.live = False
            if s.ws is not None:
                await s.ws.close(code=code)
        self.connected.clear()

    async def send_reconnect(self, shard: int | None = None) -> None:
        """op 7: Discord asks the client to reconnect and resume."""
        self.faults_injected.append("gateway op 7 reconnect")
        for s in self._chosen(shard):
            s.live = False
            if s.ws is not None and not s.ws.closed:
                await s.ws.send_json({"op": 7, "d": None})
        self.connected.clear()

    def _chosen(self, shard: int | None) -> list[Session]:
        return [s for i, s in self.by_shard.items() if shard is None or i == shard]

    async def _close_sockets(self) -> None:
        for s in self.sessions.values():
            if s.ws is not None and not s.ws.closed:
                await s.ws.close()

