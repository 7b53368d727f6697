"""What is owed after a commit, sent in order per destination, never ahead of the player's reply.

The front end answers the asker itself (the "✓ Done" and their panel) and hands everything else
here: the channel's board and notices, other players' DMs. Each destination (a channel, one
user's DMs) is a lane: a FIFO with one sender task, so messages of a lane arrive in the order
they were decided, a lane waiting on a render never holds up another lane, and a channel has
at most one render in flight.

Boards are drawn here, in the render pool, against the view the channel last showed (only the
images that changed go out). Boards of one turn that queue up behind a render (a fast AI chain's
edits of the turn's board) are merged when the sender gets to them: the turn's newest text, and
only the newest view drawn. Boards of different turns are never merged: each turn's board is its
own message, and a later edit of a turn replaces exactly that turn's message.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from .messages import Images, Outgoing
from .render_pool import RenderPool

if TYPE_CHECKING:
    from .metrics import Metrics

log = logging.getLogger("politics.delivery")

SENDING = 16  # messages being sent at once, over all lanes (a thousand at once would crowd out the acks)
MAX_MERGED_TEXT = 6000  # characters of merged board text; beyond it a board starts a new message
SHOWN_CHANNELS = 4096  # channels whose last drawn view is remembered (the next board sends only changes)


@dataclass
class Pending:
    msg: Outgoing
    via: Any = None  # the interaction whose follow-up may carry the message (front end's own object)
    merged: int = 1  # how many boards this one stands for
    sources: list[Outgoing] = field(default_factory=list)  # the messages it stands for (their outbox
    # entries are delivered with it); none given: the message itself
    turns: list[tuple[str | None, str]] = field(default_factory=list)  # merged boards: (turn key, its text)

    def __post_init__(self) -> None:
        if not self.sources:
            self.sources = [self.msg]
        if not self.turns:
            self.turns = [(self.msg.board_key, self.msg.text)]


def _mergeable(item: Pending) -> bool:
    msg = item.msg
    # a turn's board (keyed) merges even when drawn in full (a new game's first board, an edit)
    return msg.to == "channel" and msg.view is not None and not msg.board \
        and (not msg.full_image or msg.board_key is not None)


def _merged(older: Pending, newer: Outgoing) -> Pending:
    """Two boards as one message. Each turn's newest text stands for that turn (a turn's board
    text holds all its lines so far), the turns' texts in order; the first board of the run decides
    whether the message is a new post or an edit, and a post keeps its turn notice (ping)."""
    first = older.msg
    turns = list(older.turns)
    ping_line = ""
    if turns and turns[-1][0] is not None and turns[-1][0] == newer.board_key:
        last_text = turns[-1][1]
        ping_line = last_text.rsplit("\n", 1)[-1] if "— your turn." in last_text.rsplit("\n", 1)[-1] else ""
        turns[-1] = (newer.board_key, newer.text + ("\n" + ping_line if ping_line and ping_line not in newer.text
                                                    else ""))
    else:
        turns.append((newer.board_key, newer.text))
    edit = first.edit and first.board_key == newer.board_key
    text = "\n".join(t for _key, t in turns if t)
    msg = Outgoing(to="channel", channel_id=newer.channel_id, text=text, rows=newer.rows, view=newer.view,
                   game_id=newer.game_id, alt=newer.alt, nonce=newer.nonce, board_key=newer.board_key, edit=edit,
                   ping=list(dict.fromkeys(first.ping + newer.ping)),
                   full_image=first.full_image or newer.full_image)
    return Pending(msg, older.via, older.merged, older.sources, turns)


def coalesce(items: list[Pending]) -> list[Pending]:
    """Adjacent boards of one channel become one: the turns' texts (each turn's newest, in order),
    the newest view, controls, alt text and follow-up. Anything else (a notice, /politics status)
    stays as it is and keeps its place."""
    out: list[Pending] = []
    for item in items:
        last = out[-1] if out else None
        # Only boards of one turn merge. Merged across turns, the message is remembered as the newer
        # turn's board while showing the older turn's lines too, and the newer turn's next edit
        # (its own lines only) wiped them out: bench --live's delivery check found lines lost.
        if last is not None and _mergeable(last) and _mergeable(item) \
                and last.msg.board_key == item.msg.board_key \
                and len(last.msg.text) + len(item.msg.text) < MAX_MERGED_TEXT:
            merged = _merged(last, item.msg)
            out[-1] = Pending(merged.msg, item.via or last.via, last.merged + item.merged, last.sources + item.sources,
                              merged.turns)
        else:
            out.append(item)
    return out


@dataclass
class DeliveryStats:
    boards: int = 0  # boards handed in
    renders: int = 0  # boards drawn (the rest were merged into a newer one)
    images_sent: int = 0
    image_bytes: int = 0
    failures: int = 0


class Delivery:
    """`post(item, images)` sends one message (the front end's job); this decides when, in
    which order, and with which images. `limit` bounds the messages waiting in all lanes:
    the front end stops taking new work (and says so) while it is reached."""

    def __init__(self, post: Callable[[Pending, Images], Awaitable[None]], pool: RenderPool | None,
                 *, limit: int = 5000, before_send: Callable[[], Awaitable[None]] | None = None,
                 metrics: Metrics | None = None, keeps_images: Callable[[str, Outgoing], bool] | None = None) -> None:
        self.post = post
        # `keeps_images(lane, msg)`: the front end can edit that board's message keeping the images
        # that did not change (Discord keeps an attachment listed by its id), so an edit carries
        # only the changed ones; without it an edit carries every image (they replace the message's).
        self.keeps_images = keeps_images
        self.before_send = before_send  # the front end may hold a send back briefly (acks go first)
        self.pool = pool
        self.limit = limit
        self.backlog = 0
        self.stats = DeliveryStats()
        self.metrics = metrics  # render time and failed sends, for /metrics
        self._sending = asyncio.Semaphore(SENDING)
        self._lanes: dict[str, deque[Pending]] = {}
        self._senders: dict[str, asyncio.Task] = {}
        self._shown: dict[str, Mapping[str, Any]] = {}  # channel -> the view its last board drew

    @property
    def full(self) -> bool:
        return self.backlog >= self.limit

    @property
    def lanes(self) -> Mapping[str, Any]:
        """The lanes with messages on their way (channel id, or "dm:" + user id)."""
        return self._senders

    @property
    def boards_waiting(self) -> int:
        """Lanes holding a board not yet handed to the render pool."""
        return sum(1 for queue in self._lanes.values() if any(p.msg.view is not None for p in queue))

    def put(self, lane: str, msg: Outgoing, via: Any = None) -> None:
        queue = self._lanes.setdefault(lane, deque())
        queue.append(Pending(msg, via))
        self.backlog += 1
        if msg.view is not None:
            self.stats.boards += 1
        if lane not in self._senders:
            self._senders[lane] = asyncio.create_task(self._run(lane), name=f"politics-delivery:{lane}")

    async def _run(self, lane: str) -> None:
        queue = self._lanes[lane]
        try:
            while queue:
                # A board waits for a free render worker *before* the lane is read: boards that
                # arrive meanwhile are merged into it, so renders never queue up behind each other
                # and the one drawn is the newest state.
                pool = self.pool if any(p.msg.view is not None for p in queue) else None
                if pool is not None:
                    await pool.slots.acquire()
                items = coalesce(list(queue))
                queue.clear()
                try:
                    images = [await self._render(lane, item.msg) for item in items]
                finally:
                    if pool is not None:
                        pool.slots.release()
                for item, drawn in zip(items, images):
                    try:
                        async with self._sending:
                            if self.before_send is not None:
                                await self.before_send()
                            await self.post(item, drawn)
                    except Exception:
                        self.stats.failures += 1
                        if self.metrics is not None:
                            self.metrics.delivery_failures.inc()
                        log.exception("delivering a message failed")
                    finally:
                        self.backlog -= item.merged
        finally:
            del self._senders[lane]
            if not queue:
                del self._lanes[lane]

    async def _render(self, lane: str, msg: Outgoing) -> Images:
        """A board's images against the view the channel last showed (only those that changed)."""
        if msg.view is None or not msg.game_id or self.pool is None:
            # not a board: any other images (a chart) are drawn by their job, in a thread
            return await asyncio.to_thread(msg.render_images) if msg.image_job or msg.images else []
        previous = None if msg.full_image else self._shown.get(lane)
        self._shown.pop(lane, None)
        self._shown[lane] = msg.view  # newest last: the oldest channel is forgotten first
        if len(self._shown) > SHOWN_CHANNELS:
            self._shown.pop(next(iter(self._shown)))
        started = time.perf_counter()
        try:
            images = await self.pool.render(msg.game_id, msg.view, previous)
            if msg.edit and images and previous is not None \
                    and not (self.keeps_images is not None and self.keeps_images(lane, msg)):
                # An edit's images replace all of the message's: when any changed, it carries every
                # one (none changed: the edit leaves the message's images as they are).
                images = await self.pool.render(msg.game_id, msg.view, None)
            if self.metrics is not None:
                self.metrics.render_seconds.labels(msg.game_id).observe(time.perf_counter() - started)
        except Exception:
            log.exception("rendering a board failed")  # the text and controls still go out
            self._shown.pop(lane, None)  # the next board draws every image
            return []
        self.stats.renders += 1
        self.stats.images_sent += len(images)
        self.stats.image_bytes += sum(len(data) for _name, data in images)
        return images

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until every lane is empty (shutdown, tests)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._senders and loop.time() < deadline:
            await asyncio.wait(list(self._senders.values()), timeout=max(0.0, deadline - loop.time()))
