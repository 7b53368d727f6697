"""The outbox: what the bot must still say about a commit, stored in the commit's transaction.

A front end that turns it on (Discord) delivers the messages as usual and then reports them
delivered; the service deletes delivered entries with its next commit (or the scheduler's next
tick), so marking costs no transaction of its own. After a crash, `pending_outbox` hands back what
was committed but not reported delivered. Each message carries a nonce that is the same on every
attempt: Discord drops a resend whose nonce it has seen in the last minutes (enforce_nonce), so a
message that did go out just before the crash is not posted twice.
"""
from __future__ import annotations

import json
import secrets

from render import get_renderer

from ..messages import Button, Outgoing, Select
from .common import REQUEST, log


def _row_to_json(row: list) -> list:
    return [{"button": [i.label, i.custom_id, i.style]} if isinstance(i, Button)
            else {"select": [i.custom_id, i.placeholder, [list(o) for o in i.options]]} for i in row]


def _row_from_json(row: list) -> list:
    return [Button(*i["button"]) if "button" in i
            else Select(i["select"][0], i["select"][1], tuple(tuple(o) for o in i["select"][2])) for i in row]


class Outbox:
    """Part of GameService (see bot/service/__init__.py)."""

    def _outbox_entry(self, messages: list[Outgoing]) -> str | None:
        """The outbox body for a commit's messages (None when the outbox is off or there is
        nothing to say). Images are not stored: a board is drawn again from the game if needed;
        embeds (the records' replies to the asker) are not kept either."""
        if not self.outbox or not messages:
            return None
        stored = [{"to": m.to, "text": m.text, "user_id": m.user_id, "user_name": m.user_name,
                   "channel_id": m.channel_id, "rows": [_row_to_json(r) for r in m.rows],
                   "board": m.board, "alt": m.alt, "image": m.view is not None, "ping": m.ping}
                  for m in messages if m.to != "modal"]
        if not stored:
            return None
        request = REQUEST.get()
        reply = request.reply if request is not None else None
        return json.dumps({"nonce": secrets.token_hex(6), "reply": reply, "messages": stored},
                          separators=(",", ":"))

    def _mark_outbox(self, messages: list[Outgoing], outbox_id: int | None, body: str | None) -> None:
        if outbox_id is None or body is None:
            return
        nonce = json.loads(body)["nonce"]
        for i, msg in enumerate(m for m in messages if m.to != "modal"):
            msg.outbox_id, msg.nonce = outbox_id, f"{nonce}.{i}"

    def _said(self, messages: list[Outgoing], outbox_id, body: str | None) -> list[Outgoing]:
        """After a commit that wrote `body` (from _outbox_entry) as entry `outbox_id`: the messages
        carry that entry's id and nonces, and the request knows they are owed."""
        self._mark_outbox(messages, outbox_id if type(outbox_id) is int else None, body)  # create says True without one
        request = REQUEST.get()
        if request is not None:
            request.committed = True
            request.messages += messages
        return messages

    def delivered(self, outbox_ids) -> None:
        """The front end sent these entries' messages (or gave up on them for good)."""
        self._delivered.update(i for i in outbox_ids if i is not None)

    def _take_delivered(self) -> list[int]:
        done, self._delivered = list(self._delivered), set()
        return done

    def _return_delivered(self, done: list[int]) -> None:
        self._delivered.update(done)  # the commit that was to delete them did not happen

    async def flush_delivered(self) -> None:
        """Delete the delivered entries now (the scheduler calls this when no commit came by)."""
        done = self._take_delivered()
        try:
            await self.store.drop_outbox(done)
        except Exception:
            self._return_delivered(done)
            raise

    async def pending_outbox(self) -> list[tuple[int, dict | None, list[Outgoing]]]:
        """What was committed but never reported delivered (after a crash): (entry id, the
        asker's reply handle, messages with their nonces), oldest first. A board is drawn again
        from the game when the game has not moved since; an older board goes as text."""
        out = []
        for entry_id, channel_id, version, text in await self.store.outbox(self.shards):
            try:
                body = json.loads(text)
                current = self._recent.get(channel_id)
                row = None if current is not None else await self.store.get(channel_id)
                now_version = current.version if current is not None else (row.version if row else None)
                messages = []
                for i, m in enumerate(body["messages"]):
                    msg = Outgoing(to=m["to"], text=m["text"], user_id=m["user_id"], user_name=m["user_name"],
                                   channel_id=m["channel_id"], rows=[_row_from_json(r) for r in m["rows"]],
                                   board=m.get("board", ""), alt=m.get("alt", ""), ping=m.get("ping", []),
                                   outbox_id=entry_id, nonce=f"{body['nonce']}.{i}")
                    if m["image"] and now_version == version:
                        # drawn in full: what the channel showed before the crash is not known
                        msg.game_id, msg.view = await self._board_view(channel_id)
                        msg.full_image = msg.view is not None
                    messages.append(msg)
                out.append((entry_id, body.get("reply"), messages))
            except Exception:  # a damaged entry must not block the others
                log.exception("outbox entry %s can't be read; dropped", entry_id)
                self.delivered([entry_id])
        return out

    async def _board_view(self, channel_id: str) -> tuple[str | None, dict | None]:
        """(game id, public view) of the channel's game now, for a board to draw again."""
        if not self.render_enabled:
            return None, None
        loaded = await self._load(channel_id)
        if loaded is None or loaded.state is None or get_renderer(loaded.game.id) is None:
            return None, None
        return loaded.game.id, loaded.game.view(loaded.state, None)
