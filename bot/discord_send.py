"""The Discord sender: how the service's messages reach Discord, and how each outbox entry is
settled once its messages are out.

- The asker's reply ("✓ Done" and their panel) goes through the interaction (exempt from the
  global rate limit) as soon as the move is committed; the board and other players' DMs follow
  through bot.delivery's lanes, which draw boards in worker processes and keep each channel's order.
- A DM that bounces (closed DMs) turns into a channel notice with a button that shows the same
  controls ephemerally; a bounced user is not tried again for a while (Discord counts 403s).
- After a restart, `redeliver` sends what was committed but never reported sent.
"""
from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord

from .delivery import Delivery, Pending
from .discord_ui import allowed_mentions, build_embed, build_view
from .messages import Images, Outgoing, chunk_text
from .metrics import Metrics
from .render_pool import RenderPool
from .service import GameService

if TYPE_CHECKING:
    from .discord_app import PoliticsBot

log = logging.getLogger("politics.discord")

DM_CLOSED = {50007, 50278}
DM_CLOSED_MEMORY = 600.0  # seconds: after a bounce, no DM attempt and at most one notice per channel
DM_IDS = 50_000  # users whose DM channel id is kept in memory (all are in the store)
BOARDS = 50_000  # channels whose current board message (and last interaction webhook) is kept in memory
FOLLOWUP_SECONDS = 14 * 60  # an interaction token lives 15 minutes; after that, post to the channel
# Discord's name for an interaction's first answer in its webhook's message routes; discord.py
# types message ids as int, but puts the value in the route as it is.
ORIGINAL: Any = "@original"


@dataclass
class BoardMessage:
    """A channel's current board message: its turn's key, its id, and the interaction webhook
    ("app/token") that posted it, if one did (edits through it are not bound by the global limit)."""
    key: str
    message_id: str
    webhook: str | None
    created: float  # when it was posted (time.time()): a webhook's token lives 15 minutes


@dataclass(frozen=True)
class KeptImage:
    """An image a board message already carries, kept by an edit: Discord needs only its
    attachment id (sending more of an uploaded attachment is refused), and discord.py sends
    whatever `to_dict` gives for an entry of `attachments` that is not a File."""
    id: int
    filename: str

    def to_dict(self) -> dict[str, str]:
        return {"id": str(self.id)}


def _kept(message: discord.Message) -> tuple[str, tuple[KeptImage, ...]]:
    return str(message.id), tuple(KeptImage(a.id, a.filename) for a in message.attachments)


def _hook_alive(created: float) -> bool:
    return time.time() - created < FOLLOWUP_SECONDS


def _newer_board(key: str, than: str) -> bool | None:
    """Whether board `key` comes after board `than` of the same game (None: another game)."""
    ref, _, number = key.rpartition(".")
    other_ref, _, other_number = than.rpartition(".")
    if ref != other_ref or not number.isdigit() or not other_number.isdigit():
        return None
    return int(number) > int(other_number)


def remember(memory: dict, key, now: float, keep: float) -> None:
    """Note `key` at `now` (newest last) and forget what is older than `keep` seconds: such an
    entry changes nothing any more, and kept, the map would grow with every user ever bounced."""
    memory.pop(key, None)
    memory[key] = now
    while now - memory[oldest := next(iter(memory))] >= keep:  # ends at `key` itself at the latest
        del memory[oldest]


class Sender:
    """Sends for `client` (its HTTP session and channel cache) what `service` decided."""

    def __init__(self, client: PoliticsBot, service: GameService, render_pool: RenderPool, *,
                 acks_first: Callable[[], Awaitable[None]], metrics: Metrics) -> None:
        self.client = client
        self.service = service
        self.acks_first = acks_first
        self.delivery = Delivery(self.post, render_pool, before_send=acks_first, metrics=metrics,
                                 keeps_images=self.keeps_images)
        self._dm_closed: dict[str, float] = {}  # user id -> when a DM to them last bounced
        self._dm_notified: dict[tuple[str, str], float] = {}  # (channel, user) -> last closed-DM notice
        self.dm_ids: dict[str, str] = {}  # user id -> DM channel id (newest last), backed by the store
        self.dm_unsaved: dict[str, str | None] = {}  # opened (or gone) since the last save
        self.owed: dict[int, int] = {}  # outbox entry -> its messages still waiting in a lane
        # channel -> its current board message (None: the store has none), backed by the store so a
        # restarted process edits the same message
        self.boards: OrderedDict[str, BoardMessage | None] = OrderedDict()
        # channel -> the newest interaction there whose follow-ups may post for it ("app/token", when):
        # a scheduled move's board (an AI seat's) rides it, exempt from the global limit, while it lives
        self.hooks: OrderedDict[str, tuple[str, float]] = OrderedDict()
        # channel -> its board message's id and images as Discord answered them: an edit keeps the
        # images that did not change by id instead of drawing and uploading all of them again
        self.board_images: OrderedDict[str, tuple[str, tuple[KeptImage, ...]]] = OrderedDict()

    def keeps_images(self, lane: str, msg: Outgoing) -> bool:
        """Whether an edit of this channel's board can carry only the images that changed: it
        edits the board message this process posted or edited last, whose images it knows."""
        board = self.boards.get(lane)
        known = self.board_images.get(lane)
        return board is not None and board.key == msg.board_key and known is not None \
            and known[0] == board.message_id

    def forget(self, user_id: str) -> None:
        """/politics forget-me: the store drops their DM channel row; so does this process."""
        self.dm_ids.pop(user_id, None)
        self.dm_unsaved.pop(user_id, None)

    async def save_dm_channels(self) -> None:
        if not self.dm_unsaved or self.service is None:
            return
        unsaved, self.dm_unsaved = self.dm_unsaved, {}
        try:
            await self.service.store.set_dm_channels(unsaved)
        except Exception:
            log.exception("saving DM channel ids failed")  # they are opened again when needed

    async def _archive(self, msg: Outgoing) -> None:
        """Archive a finished game's thread. Discord lets the thread's creator (the bot) do it
        with Send Messages in Threads; a failure only leaves the thread open."""
        if not msg.channel_id:
            return
        channel_id = int(msg.channel_id)
        try:
            thread = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("archiving thread %s failed: %s", msg.channel_id, exc)

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
            if interaction is not None and self._asker(interaction, msg):
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
                via = self._carrier(interaction, msg, answered)
                if via is not None:
                    self._keep(self.hooks, msg.channel_id,
                               (f"{via.application_id}/{via.token}", via.created_at.timestamp()))
                self.delivery.put(msg.channel_id, msg, via=via)
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
        self.service.delivered({msg.outbox_id for msg in out if msg.outbox_id not in self.owed})

    def _owe(self, msg: Outgoing) -> None:
        if msg.outbox_id is not None:
            self.owed[msg.outbox_id] = self.owed.get(msg.outbox_id, 0) + 1

    def _paid(self, item: Pending) -> None:
        for source in item.sources:
            entry = source.outbox_id
            if entry is not None and entry in self.owed:
                self.owed[entry] -= 1
                if not self.owed[entry]:
                    del self.owed[entry]
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
        reply = reply or {}
        webhook = None
        if reply.get("expires", 0) > time.time():
            webhook = discord.Webhook.partial(int(reply["app"]), reply["token"], client=self.client)
        answered, rest = False, []
        for msg in messages:
            if webhook is None or msg.to not in ("ephemeral", "edit") or msg.user_id != reply.get("user"):
                rest.append(msg)  # an asker we can't reach any more gets it by DM (deliver does that)
                continue
            view = build_view(msg.rows)
            text = _parts(msg)[0]
            if reply.get("command") and not answered:
                # The placeholder itself: editing it is the same however often it happens.
                await webhook.edit_message(ORIGINAL, content=text, view=view or None,
                                           allowed_mentions=allowed_mentions(msg))
            else:
                await webhook.send(_content(text), ephemeral=True, view=view or discord.utils.MISSING,
                                   allowed_mentions=allowed_mentions(msg))
            answered = True
        await self.deliver(None, rest)
        if webhook is not None and reply.get("command") and not answered:
            try:
                await webhook.delete_message(ORIGINAL)  # nothing for the asker: just end "thinking…"
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

    async def post(self, item: Pending, images: Images) -> None:
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
            await self._send_channel(item, images)
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

    @staticmethod
    def _keep(memory: OrderedDict, key: str, value: Any) -> None:
        memory.pop(key, None)
        memory[key] = value
        if len(memory) > BOARDS:
            memory.popitem(last=False)

    def _webhook(self, hook: str) -> discord.Webhook:
        """An interaction's follow-up webhook from its stored "app/token" (as Interaction.followup makes it)."""
        app, _, token = hook.partition("/")
        return discord.Webhook.from_state(data={"id": int(app), "type": 3, "token": token},
                                          state=self.client._connection)

    async def _board_of(self, channel_id: str) -> BoardMessage | None:
        if channel_id in self.boards:
            self.boards.move_to_end(channel_id)
            return self.boards[channel_id]
        stored = await self.service.store.board_message(channel_id)
        board = BoardMessage(*stored) if stored is not None else None
        self._keep(self.boards, channel_id, board)
        return board

    async def _edit_board(self, board: BoardMessage, msg: Outgoing, images: Images) -> bool:
        """Edit the turn's board message in place (False: it is gone, or too long for one message)."""
        parts = _parts(msg)
        if len(parts) != 1:
            return False
        kwargs: dict[str, Any] = {"content": _content(parts[0]), "view": build_view(msg.rows) or None,
                                  "allowed_mentions": allowed_mentions(msg)}
        channel_key = msg.channel_id or ""
        if images:
            # The edit's list is the message's new set of images: each changed one replaces its
            # namesake in place, the others are kept by id (delivery drew only the changed ones
            # when keeps_images said so, else all of them, and then none is kept).
            files = self._files(msg, images)
            known = self.board_images.get(channel_key)
            kept = known[1] if known is not None and known[0] == board.message_id else ()
            new = {file.filename: file for file in files}
            attachments: list[Any] = [new.pop(k.filename, k) for k in kept]
            kwargs["attachments"] = attachments + list(new.values())
        try:
            edited: discord.Message
            if board.webhook is not None and _hook_alive(board.created):
                # through the interaction that posted it: not bound by the global limit
                edited = await self._webhook(board.webhook).edit_message(int(board.message_id), **kwargs)
            else:
                channel = self.client.get_partial_messageable(int(msg.channel_id or 0))
                edited = await channel.get_partial_message(int(board.message_id)).edit(**kwargs)
        except discord.NotFound:
            self.board_images.pop(channel_key, None)
            return False  # deleted by someone: the board is posted again
        self._keep(self.board_images, channel_key, _kept(edited))
        return True

    async def _settle_sent(self, item: Pending, channel_id: str, sent: discord.Message | None,
                           hook: str | None, created: float) -> None:
        """After a board or notice went out: remember the board message (in the store too, so a
        restart edits it), and mark follow-ups sent in their outbox entries (a follow-up carries no
        nonce: without the mark a redelivery would post it again)."""
        msg = item.msg
        if msg.board_key is not None and sent is not None:
            board = BoardMessage(msg.board_key, str(sent.id), hook, created)
            self._keep(self.boards, channel_id, board)
            if len(_parts(msg)) == 1:  # the images went with this message (not with a later part)
                self._keep(self.board_images, channel_id, _kept(sent))
            else:
                self.board_images.pop(channel_id, None)
            try:
                await self.service.store.set_board_message(channel_id, board.key, board.message_id, hook, created)
            except Exception:
                log.exception("saving the board message of %s failed", channel_id)
        elif hook is not None:
            for source in item.sources:
                if source.outbox_id is not None:
                    try:
                        await self.service.store.outbox_sent(source.outbox_id, source.index)
                    except Exception:
                        log.exception("marking outbox entry %s sent failed", source.outbox_id)

    async def _send_channel(self, item: Pending, images: Images) -> None:
        """A channel message: a turn's board edits the channel's board message when it is the same
        turn; anything else is posted, as a follow-up of the interaction that caused it or of the
        channel's newest living one (public messages that, unlike a channel post, Discord does not
        count against the global rate limit), else as a channel post with its nonce."""
        msg, via = item.msg, item.via
        channel_key = msg.channel_id or ""
        if msg.board_key is not None:
            board = await self._board_of(channel_key)
            if board is not None and board.key == msg.board_key:
                if await self._edit_board(board, msg, images):
                    return
            elif board is not None and _newer_board(board.key, msg.board_key):
                return  # an older turn's board, redelivered after a restart: a newer one is up already
        hook, created = None, 0.0
        if via is not None and (discord.utils.utcnow() - via.created_at).total_seconds() < FOLLOWUP_SECONDS:
            hook, created = f"{via.application_id}/{via.token}", via.created_at.timestamp()
        elif channel_key in self.hooks and _hook_alive(self.hooks[channel_key][1]):
            hook, created = self.hooks[channel_key]
        if hook is not None:
            webhook = self._webhook(hook)
            posted: list[discord.Message] = []

            async def followup(content: str, **kwargs: Any) -> None:
                kwargs.pop("nonce", None)  # webhooks take no nonce: the outbox marks it sent instead
                posted.append(await webhook.send(content, ephemeral=False, wait=True, **kwargs))
            try:
                await self._send_chunks(followup, msg, images)
                await self._settle_sent(item, channel_key, posted[0] if posted else None, hook, created)
                return
            except discord.Forbidden:
                raise
            except discord.HTTPException as exc:
                if exc.status >= 500 and not images:
                    raise
                self.hooks.pop(channel_key, None)  # an expired or unknown token: not tried again
                log.info("follow-up refused (%s); posting to the channel instead", exc.status)
        channel_id = int(msg.channel_id or 0)  # a channel message always names its channel (deliver)
        channel = cast(discord.abc.Messageable,
                       self.client.get_channel(channel_id) or self.client.get_partial_messageable(channel_id))
        sent: list[discord.Message] = []

        async def post(content: str, **kwargs: Any) -> None:
            sent.append(await channel.send(content, **kwargs))
        try:
            await self._send_chunks(post, msg, images)
            await self._settle_sent(item, channel_key, sent[0] if sent else None, None, time.time())
        except discord.Forbidden:
            if not images:
                raise
            # Probably no Attach Files permission: the text and buttons still matter.
            await self._send_chunks(post, Outgoing(
                to="channel", channel_id=msg.channel_id, rows=msg.rows, board=msg.board,
                text=(msg.text or "") + "\n(I'm not allowed to attach images in this channel.)"), [])
            await self._settle_sent(item, channel_key, sent[0] if sent else None, None, time.time())

    async def _dm_channel(self, user_id: str, fresh: bool = False) -> discord.abc.Messageable:
        """The user's DM channel from its remembered id: opening one is a request of its own
        (and discord.py keeps only 128), so its id is kept in the store, across restarts."""
        channel_id = None if fresh else self.dm_ids.get(user_id)
        if channel_id is None and not fresh:
            channel_id = await self.service.store.dm_channel(user_id)
        if channel_id is None:
            data = await self.client.http.start_private_message(int(user_id))
            channel_id = str(data["id"])
            self.dm_unsaved[user_id] = channel_id  # saved with others by the scheduler, within a second
        self.dm_ids.pop(user_id, None)
        self.dm_ids[user_id] = channel_id
        if len(self.dm_ids) > DM_IDS:
            self.dm_ids.pop(next(iter(self.dm_ids)))
        return self.client.get_partial_messageable(int(channel_id), type=discord.ChannelType.private)

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
        if not msg.channel_id or not msg.user_id:
            return
        key = (msg.channel_id, msg.user_id)
        if now - self._dm_notified.get(key, -DM_CLOSED_MEMORY) < DM_CLOSED_MEMORY:
            return  # the channel already has a recent notice with its "Open my controls" button
        remember(self._dm_notified, key, now, DM_CLOSED_MEMORY)
        for notice in await self.service.dm_failed(msg.channel_id, msg.user_id, msg.user_name):
            if notice.channel_id:
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
            await interaction.followup.send(_content(part), ephemeral=True, view=part_view, files=part_files,
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


def _content(part: str | None) -> str:
    """A part as a send's content: a message of embeds alone sends none."""
    return part if part is not None else discord.utils.MISSING
