"""What the fake Discord stores and answers with (testkit/fakediscord/server.py serves it): each
message the bot sent (`Sent`), each interaction a fake user made (`FakeInteraction`), the users, the
log of REST requests, the failure rules a test plants, and the JSON responses in Discord's form
(`jresp`, `error`), with Discord's rule of who a message pings (`pings_of`)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

JSON = "application/json"
FLAG_EPHEMERAL = 64
FLAG_LOADING = 128


def jresp(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
    # Content-Type must be exactly application/json (discord.py compares with ==).
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": JSON, **(headers or {})})


def error(status: int, code: int, message: str, headers: dict | None = None) -> web.Response:
    return jresp({"message": message, "code": code}, status, headers)


# A mention counts only when not escaped with a backslash (Discord shows \\<@1> as text).
_USER_MENTION = re.compile(r"(?<!\\)<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"(?<!\\)<@&(\d+)>")
_MASS_MENTION = re.compile(r"(?<!\\)@(everyone|here)")


def pings_of(content: str, allowed: dict | None) -> set[str]:
    """Discord's rule: without allowed_mentions every mention in the content pings;
    with it, only the kinds in `parse` and the ids listed in `users` / `roles`."""
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
    users = {str(u) for u in (allowed or {}).get("users") or []}
    roles = {str(r) for r in (allowed or {}).get("roles") or []}
    out = {f"user:{u}" for u in _USER_MENTION.findall(content) if "users" in parse or u in users}
    out |= {f"role:{r}" for r in _ROLE_MENTION.findall(content) if "roles" in parse or r in roles}
    if "everyone" in parse and _MASS_MENTION.search(content):
        out.add("everyone")
    return out


class FormError(Exception):
    """A message over one of Discord's limits."""


@dataclass
class FakeUser:
    id: str
    name: str
    perms: int = 0  # permission bits in the guild (Manage Channels 16, Manage Guild 32)
    bot: bool = False
    dm_closed: bool = False

    def payload(self) -> dict:
        return {"id": self.id, "username": self.name, "discriminator": "0", "global_name": self.name,
                "avatar": None, "bot": self.bot, "public_flags": 0}


def _descriptions(body: dict, files: list) -> list[str]:
    """The attachments' descriptions (alt text), in the order of the files they describe."""
    described = [str(att.get("description") or "") for att in body.get("attachments") or [] if "id" in att]
    return described[:len(files)] + [""] * (len(files) - len(described))


@dataclass
class Sent:
    """One message the bot produced, as Discord would store it."""
    id: str
    kind: str  # "channel" | "dm" | "interaction" (callback message or follow-up)
    channel_id: str
    content: str
    components: list
    embeds: list
    files: list[tuple[str, bytes]]
    flags: int
    t: float  # fake clock
    visible_to: str | None = None  # a user id for ephemeral replies and DMs; None = everyone in the channel
    interaction_id: str | None = None
    sender: str = ""  # the token of the bot process that posted it ("" for a follow-up: see FakeDiscord.sender)
    edits: int = 0
    deleted: bool = False
    descriptions: list[str] = field(default_factory=list)  # each file's alt text ("" if none)
    # each file's attachment id: an edit keeps an attachment by listing its id (Discord's semantics)
    attachment_ids: list[str] = field(default_factory=list)
    # Every version the bot sent (the post, then each edit): (content, allowed_mentions or None if absent)
    versions: list[tuple[str, dict | None]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    def buttons(self) -> list[dict]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 2]

    def selects(self) -> list[dict]:
        return [c for row in self.components for c in row.get("components", []) if c.get("type") == 3]

    def labels(self) -> list[str]:
        return [b.get("label", "") for b in self.buttons()]

    def filenames(self) -> list[str]:
        return [name for name, _ in self.files]

    @property
    def allowed_mentions(self) -> dict | None:
        return self.versions[-1][1] if self.versions else None

    def pings(self) -> set[str]:
        """Who Discord notified for any version of this message: 'user:ID', 'role:ID', 'everyone'."""
        return set().union(*(pings_of(content, allowed) for content, allowed in self.versions))


@dataclass
class FakeInteraction:
    id: str
    token: str
    type: int
    user: FakeUser
    channel_id: str
    payload: dict
    dispatched_at: float
    first_callback_at: float | None = None
    callback_type: int | None = None
    original_id: str | None = None  # the message @original refers to
    message_id: str | None = None  # the clicked message (components)
    replies: list[Sent] = field(default_factory=list)  # callback message, follow-ups (in order)
    choices: list[dict] | None = None  # autocomplete answer
    modal: dict | None = None  # a modal the bot opened
    callbacks: int = 0
    guild_id: str | None = None  # None: a direct message
    session: str = ""  # the gateway session it was dispatched to ("": none had its shard); only the
    # bot process holding that session has its token, so it alone answers it (callbacks and
    # follow-ups carry no bot token of their own)

    @property
    def latency(self) -> float | None:
        return None if self.first_callback_at is None else self.first_callback_at - self.dispatched_at

    def texts(self) -> list[str]:
        return [m.content for m in self.replies if not m.deleted]

    def text(self) -> str:
        return "\n".join(self.texts())

    def last_reply(self) -> Sent | None:
        live = [m for m in self.replies if not m.deleted]
        return live[-1] if live else None


@dataclass(frozen=True)
class Request:
    """One REST request as the fake answered it (FakeDiscord.request_log)."""
    t: float
    token: str  # the bot process's token ("" for interaction webhooks, which carry none)
    method: str
    path: str
    route: str  # limits.py's name of its route ("" outside the API)
    status: int
    global_limited: bool  # counts against the 50/s global limit (not an interaction endpoint)
    scope: str  # a 429 of the limiter: "global" or "user" (a route's bucket); "ban"; "" otherwise


@dataclass
class FailRule:
    method: str
    path: re.Pattern
    status: int
    code: int = 0
    times: int = 1
    retry_after: float = 0.05
    via: bool = True
    hits: int = 0
    skip: int = 0  # matching requests let through before the first failure
