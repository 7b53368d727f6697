"""What the service asks a front end to show: plain data, no discord types.

Discord, the terminal table and the transcript runner each turn these into
their own output, so the decision of *what* to say and *to whom* is made once.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

Images = list[tuple[str, bytes]]
# Where a message goes: the game's channel, a user's DMs, an ephemeral reply to the asker, an edit
# of the message whose button was pressed, a form to open, or (archive) closing channel_id's thread.
Destination = Literal["channel", "dm", "ephemeral", "edit", "modal", "archive"]


@dataclass
class User:
    id: str
    name: str
    manage_channel: bool = False  # may cancel any game in the channel
    manage_server: bool = False  # may manage per-server data
    is_bot: bool = False


@dataclass
class Ctx:
    """Who is asking, and where. `channel_id` is the game's channel even when the
    click came from a DM (component ids carry it), and `game_ref` the game a clicked
    control belongs to (None for a typed command: it acts on the channel's game)."""
    user: User
    channel_id: str
    guild_id: str | None = None
    # Opens a thread of the channel named as given and returns its id (None: not possible
    # here). Only Discord and the transcript runner provide one.
    open_thread: Callable[[str], Awaitable[str | None]] | None = None
    # The front end's handle for answering the asker later (Discord: the interaction's webhook
    # token); the service only stores it with the outbox, so a reply survives a restart.
    reply: dict | None = None
    game_ref: str | None = None


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"


@dataclass(frozen=True)
class Select:
    custom_id: str
    placeholder: str
    options: tuple[tuple[str, str], ...]  # (label, value)


Row = list[Button | Select]


@dataclass
class Modal:
    custom_id: str
    title: str
    label: str
    placeholder: str = ""


@dataclass
class Embed:
    """A card of facts (stats, a leaderboard page, recent games). Discord shows it as an
    embed; the terminal table and transcripts print `as_text()`. `image` names one of the
    message's images to show inside it."""
    title: str
    description: str = ""
    fields: list[tuple[str, str]] = field(default_factory=list)  # (name, value), at most 25
    footer: str = ""
    image: str | None = None

    def as_text(self) -> str:
        lines = [f"== {self.title} =="]
        if self.description:
            lines.append(self.description)
        lines += [f"{name}: {value}" for name, value in self.fields]
        if self.footer:
            lines.append(f"({self.footer})")
        return "\n".join(lines)


@dataclass
class Outgoing:
    """One message. `to`: the game's channel, a user's DMs, an ephemeral reply to
    the user who asked, or an edit of the message whose button was pressed."""
    to: Destination
    text: str = ""
    user_id: str | None = None
    user_name: str | None = None
    channel_id: str | None = None
    rows: list[Row] = field(default_factory=list)
    # A board: the public view to draw and its game. The front end draws it (off the event
    # loop) against the view it last showed in the channel, so only changed images go out;
    # `full_image` (/politics status) draws every image.
    view: Mapping[str, Any] | None = None
    game_id: str | None = None
    full_image: bool = False
    # Other images (a rating chart, a replay's frame): drawn by the job, in a thread.
    image_job: Callable[[], Images] | None = None
    images: Images | None = None
    modal: Modal | None = None
    # What the images show, in words: every image's alt text (Discord's attachment
    # description, at most 1,024 characters), for players who can't see them.
    alt: str = ""
    # The game's text board (render/text/): plain text of the whole public state, shown
    # after `text` (Discord sets it in code blocks: aligned, and never read as markup).
    board: str = ""
    embeds: list[Embed] = field(default_factory=list)
    # Set when the message is in the outbox: the entry to mark delivered, and a nonce that is the
    # same on every attempt, so Discord drops a resend after a crash (enforce_nonce).
    outbox_id: int | None = None
    nonce: str | None = None
    index: int = 0  # its place in the entry: a message that can't carry a nonce is marked sent by it
    # Users this message means to ping (their <@id> is in the text). Nobody else is
    # ever pinged: Discord is told so on every message (allowed_mentions).
    ping: list[str] = field(default_factory=list)
    # A turn's board (issue #25): the channel shows one message per key, and a board whose key is
    # the channel's current one (`edit` True) is an edit of that message, not a new post.
    board_key: str | None = None
    edit: bool = False

    def render_images(self) -> Images:
        if self.images is None:
            self.images = self.image_job() if self.image_job else []
        return self.images


def chunk_text(text: str, limit: int = 1900) -> list[str]:
    """Split on line breaks so no message exceeds Discord's 2,000 characters."""
    if len(text) <= limit:
        return [text]
    parts, current = [], ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        parts.append(current)
    return parts


# Discord shows <t:UNIX:R> as a live relative time ("in 2 minutes", then "2 minutes ago"),
# updated on every client without the bot editing the message.
COUNTDOWN = re.compile(r"<t:(\d+):R>")


def countdown(due: float) -> str:
    return f"<t:{int(due)}:R>"


def spell_countdowns(text: str, now: float) -> str:
    """For front ends that are not Discord: '<t:N:R>' as 'in 95 s' (or 'now')."""
    def one(m: re.Match) -> str:
        left = int(m.group(1)) - int(now)
        return f"in {left} s" if left > 0 else "now"
    return COUNTDOWN.sub(one, text)
