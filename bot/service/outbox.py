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
from typing import Any
from collections.abc import Iterable

from ..messages import Button, Outgoing, Row, Select
from ..store import Store
from .common import Request


def row_to_json(row: Row) -> list[dict[str, Any]]:
    return [{"button": [i.label, i.custom_id, i.style]} if isinstance(i, Button)
            else {"select": [i.custom_id, i.placeholder, [list(o) for o in i.options]]} for i in row]


def row_from_json(row: list[dict[str, Any]]) -> Row:
    return [Button(*i["button"]) if "button" in i
            else Select(i["select"][0], i["select"][1], tuple((o[0], o[1]) for o in i["select"][2])) for i in row]


def message_from_json(m: dict[str, Any], entry_id: int, nonce: str) -> Outgoing:
    """A stored message as it is delivered again (its board, if any, is drawn by the caller)."""
    return Outgoing(to=m["to"], text=m["text"], user_id=m["user_id"], user_name=m["user_name"],
                    channel_id=m["channel_id"], rows=[row_from_json(r) for r in m["rows"]],
                    board=m.get("board", ""), alt=m.get("alt", ""), ping=m.get("ping", []),
                    board_key=m.get("board_key"), edit=m.get("edit", False), outbox_id=entry_id, nonce=nonce,
                    index=int(nonce.rsplit(".", 1)[-1]))


class Outbox:
    """The outbox's bookkeeping: a commit's entry, the ids delivered since the last commit.
    Off (`enabled` False) for the local table and transcripts, which print at once."""

    def __init__(self, store: Store, *, enabled: bool = False) -> None:
        self.store = store
        self.enabled = enabled  # Discord turns this on
        self._delivered: set[int] = set()  # entries delivered, deleted with the next commit

    def entry(self, messages: list[Outgoing], request: Request | None) -> str | None:
        """The outbox body for a commit's messages (None when the outbox is off or there is
        nothing to say). Images are not stored: a board is drawn again from the game if needed;
        embeds (the records' replies to the asker) are not kept either."""
        if not self.enabled or not messages:
            return None
        stored = [{"to": m.to, "text": m.text, "user_id": m.user_id, "user_name": m.user_name,
                   "channel_id": m.channel_id, "rows": [row_to_json(r) for r in m.rows],
                   "board": m.board, "alt": m.alt, "image": m.view is not None, "ping": m.ping,
                   "board_key": m.board_key, "edit": m.edit}
                  for m in messages if m.to != "modal"]
        if not stored:
            return None
        reply = request.reply if request is not None else None
        return json.dumps({"nonce": secrets.token_hex(6), "reply": reply, "messages": stored},
                          separators=(",", ":"))

    def mark(self, messages: list[Outgoing], outbox_id: int | None, body: str | None) -> None:
        """The messages of a committed entry carry its id and their nonces."""
        if outbox_id is None or body is None:
            return
        nonce = json.loads(body)["nonce"]
        for i, msg in enumerate(m for m in messages if m.to != "modal"):
            msg.outbox_id, msg.nonce, msg.index = outbox_id, f"{nonce}.{i}", i

    def said(self, request: Request | None, messages: list[Outgoing], outbox_id: int | bool | None,
             body: str | None) -> list[Outgoing]:
        """After a commit that wrote `body` (from entry()) as entry `outbox_id`: the messages
        carry that entry's id and nonces, and the request knows they are owed."""
        self.mark(messages, outbox_id if type(outbox_id) is int else None, body)  # create says True without one
        if request is not None:
            request.said(messages)
        return messages

    def delivered(self, outbox_ids: Iterable[int | None]) -> None:
        """The front end sent these entries' messages (or gave up on them for good)."""
        self._delivered.update(i for i in outbox_ids if i is not None)

    def take_delivered(self) -> list[int]:
        """The ids for the next commit to delete (give them back if it does not happen)."""
        done, self._delivered = list(self._delivered), set()
        return done

    def give_back(self, done: list[int]) -> None:
        self._delivered.update(done)  # the commit that was to delete them did not happen

    async def flush_delivered(self) -> None:
        """Delete the delivered entries now (the scheduler calls this when no commit came by)."""
        done = self.take_delivered()
        try:
            await self.store.drop_outbox(done)
        except Exception:
            self.give_back(done)
            raise
