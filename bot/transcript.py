"""Transcripts: a text file of user commands run through the exact path a
Discord slash command takes (registry parsing, GameService, the store).

Line forms (a `#` starts a comment):
    alice: /politics new game:primary-general seed:7 bots:1
    alice: click Open my controls        press a button on alice's latest message that has it
    alice: select FL                      choose a value in alice's latest select menu
    alice: answer Springfield             fill in the text box a button opened (modal)
    alice: say some chat text             a plain channel message (charades guesses)
    @wait 130                             let 130 seconds pass (timers, AI delays, timeouts)
    @channel main | thread                type in the channel, or in the newest game thread
                                          (after `new ... thread:true` the lines go to the thread)

Output: one JSON line per message the bot would send:
    {"to": "channel" | "dm:NAME" | "ephemeral:NAME", "text": ..., "images": [...], "buttons": [...]}
with "files": [...] (where each image was written) when images are written to a folder, and
"edit": true when the message is the turn's board edited in place (Discord edits that message;
a line without it is a new message), so posts and edits are counted apart.
and last {"final": {"game", "finished", "winners", "scores", "state"}} (state = the public view).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping
from typing import Any

from .messages import Button, Ctx, Outgoing, Select, User
from .registry import InputError, parse_command_line
from .render_pool import render_board
from .service import GameService
from .store import Store
from .text import readable

CHANNEL = "100000000000000001"
GUILD = "200000000000000001"
LINE = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*:\s*(.*)$")


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


@dataclass
class TranscriptRunner:
    service: GameService
    clock: FakeClock
    base_dir: str = "."
    render: bool = True
    image_dir: str | None = None
    users: dict[str, User] = field(default_factory=dict)
    last_rows: dict[str, list] = field(default_factory=dict)  # user -> rows of their latest message with controls
    last_channel_rows: list = field(default_factory=list)
    open_modal: dict[str, str] = field(default_factory=dict)
    image_count: int = 0
    channel: str = CHANNEL                 # where the next line is typed: the channel or a game thread
    threads: list[str] = field(default_factory=list)
    shown: dict[str, Mapping[str, Any]] = field(default_factory=dict)  # channel -> the public view its last board drew
    board_keys: dict[str, str] = field(default_factory=dict)  # channel -> the key of its current board message

    @classmethod
    async def create(cls, db_path: str = ":memory:", base_dir: str = ".", render: bool = True,
                     image_dir: str | None = None, clock=None) -> TranscriptRunner:
        clock = clock or FakeClock()  # the local table passes a real one
        store = await Store.open(db_path)
        service = GameService(store, inline_ai=True, ai_delay=0.0, clock=clock, render=render)
        return cls(service, clock, base_dir, render, image_dir)

    def user(self, name: str) -> User:
        if name not in self.users:
            uid = str(300000000000000000 + len(self.users) + 1)
            # In transcripts the first user is a server admin, like a server owner testing.
            self.users[name] = User(uid, name, manage_channel=not self.users, manage_server=not self.users)
        return self.users[name]

    def _name_of(self, user_id: str | None) -> str:
        for name, u in self.users.items():
            if u.id == user_id:
                return name
        return str(user_id)

    async def run_line(self, line: str) -> list[dict]:
        text = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if not text:
            return []
        if text.startswith("@wait"):
            try:
                seconds = float(text.split()[1])
            except (IndexError, ValueError):
                return [self._note("@wait needs a number of seconds.")]
            self.clock.now += seconds
            return self.emit(await self.service.tick())
        if text.startswith("@channel"):
            where = text.split()[1] if len(text.split()) > 1 else "main"
            if where == "thread" and not self.threads:
                return [self._note("No thread has been opened yet.")]
            self.channel = self.threads[-1] if where == "thread" else CHANNEL
            return []
        match = LINE.match(text)
        if not match:
            return [self._note(f"Not a transcript line (write name: /politics ...): {text[:60]}")]
        name, rest = match.group(1), match.group(2).strip()
        user = self.user(name)
        ctx = Ctx(user, self.channel, GUILD, open_thread=self._open_thread)
        verb, _, arg = rest.partition(" ")
        if verb == "click":
            return self.emit(await self._click(user, arg.strip()))
        if verb == "select":
            return self.emit(await self._select(user, arg.strip()))
        if verb == "answer":
            cid = self.open_modal.pop(name, None)
            if cid is None:
                return [self._eph(name, "There is no open text box to answer.")]
            return self.emit(await self.service.modal_submit(ctx, cid, arg))
        if verb == "say":
            return self.emit(await self.service.chat(ctx, arg))
        try:
            spec, options = parse_command_line(self._mentions(rest))
            options = self._users(spec, self._attachments(spec, options))
        except InputError as exc:
            return [self._eph(name, str(exc))]
        return self.emit(await self.service.handle(ctx, spec.name, options))

    async def _click(self, user: User, label: str) -> list[Outgoing]:
        for rows in (self.last_rows.get(user.name, []), self.last_channel_rows):
            for row in rows:
                for item in row:
                    if isinstance(item, Button) and item.label.lower().startswith(label.lower()):
                        return await self.service.component(Ctx(user, self.channel, GUILD), item.custom_id)
        return [Outgoing(to="ephemeral", user_id=user.id, text=f"No button '{label}' is showing.")]

    async def _select(self, user: User, value: str) -> list[Outgoing]:
        for row in self.last_rows.get(user.name, []):
            for item in row:
                if isinstance(item, Select):
                    for lab, val in item.options:
                        if val.lower() == value.lower() or lab.lower().startswith(value.lower()):
                            return await self.service.component(Ctx(user, self.channel, GUILD), item.custom_id, [val])
        return [Outgoing(to="ephemeral", user_id=user.id, text=f"No menu with '{value}' is showing.")]

    async def _open_thread(self, name: str) -> str:
        """Like Discord: a new thread of the channel; the transcript's next lines are typed there."""
        thread = str(int(CHANNEL) + 1000 + len(self.threads))
        self.threads.append(thread)
        self.channel = thread
        return thread

    def _mentions(self, text: str) -> str:
        return text  # names are used as they are; @name resolves in engines

    def _users(self, spec, options: dict[str, Any]) -> dict[str, Any]:
        """A user option names a transcript user (`user:bob` or `user:@bob`), as Discord's picker would."""
        for opt in spec.options:
            if opt.kind == "user" and opt.name in options:
                name = str(options[opt.name]).lstrip("@")
                if name in self.users:
                    options[opt.name] = f"<@{self.users[name].id}>"
        return options

    def _attachments(self, spec, options: dict[str, Any]) -> dict[str, Any]:
        for opt in spec.options:
            if opt.kind == "attachment" and opt.name in options:
                path = os.path.join(self.base_dir, options[opt.name])
                try:
                    with open(path, "rb") as fh:
                        options[opt.name] = (os.path.basename(path), fh.read())
                except OSError:
                    raise InputError(f"Can't read the file {options[opt.name][:60]}.") from None
        return options

    def _note(self, text: str) -> dict:
        return {"to": "runner", "text": text, "images": []}

    def _eph(self, name: str, text: str) -> dict:
        return {"to": f"ephemeral:{name}", "text": text, "images": []}

    def _images(self, msg: Outgoing) -> list:
        if msg.view is None:
            return msg.render_images()
        # As on Discord: a board is drawn against the view the channel last showed (only changed images).
        previous = None if msg.full_image else self.shown.get(msg.channel_id or "")
        self.shown[msg.channel_id or ""] = msg.view
        # An edit too: Discord's sender keeps the message's unchanged images by id and uploads the rest.
        return render_board(msg.game_id or "", msg.view, previous)

    def _edits(self, msg: Outgoing) -> bool:
        """This board edits the channel's current board message (its turn's key), as Discord's sender does."""
        return msg.to == "channel" and msg.board_key is not None \
            and self.board_keys.get(msg.channel_id or "") == msg.board_key

    def emit(self, outgoing: Iterable[Outgoing]) -> list[dict]:
        lines = []
        for msg in outgoing:
            name = self._name_of(msg.user_id)
            if msg.to == "modal" and msg.modal is not None:
                self.open_modal[name] = msg.modal.custom_id
                lines.append({"to": f"ephemeral:{name}", "text": f"[text box] {msg.modal.label}", "images": []})
                continue
            images, alts, files = [], [], []
            if self.render:
                for fname, data in self._images(msg):
                    self.image_count += 1
                    images.append(fname)
                    alts.append(msg.alt)
                    if self.image_dir:
                        os.makedirs(self.image_dir, exist_ok=True)
                        files.append(os.path.join(self.image_dir, f"{self.image_count:04d}-{fname}"))
                        with open(files[-1], "wb") as fh:
                            fh.write(data)
            if msg.to == "archive":
                lines.append({"to": "channel", "text": "[the thread is archived]", "images": []})
                continue
            edit = self._edits(msg)
            if msg.to == "channel" and msg.board_key is not None:
                self.board_keys[msg.channel_id or ""] = msg.board_key
            to = {"channel": "channel", "dm": f"dm:{name}", "ephemeral": f"ephemeral:{name}",
                  "edit": f"ephemeral:{name}"}[msg.to]
            if msg.rows:
                if msg.to == "channel":
                    self.last_channel_rows = msg.rows
                else:
                    self.last_rows[name] = msg.rows
            text = self._readable("\n".join([msg.text] * bool(msg.text) + [e.as_text() for e in msg.embeds]))
            entry: dict[str, Any] = {"to": to, "text": text, "images": images}
            if edit:
                entry["edit"] = True  # the turn's board edited in place, not a new message
            if alts:
                entry["alt"] = alts  # each image's alt text, as Discord gets it
            if msg.board:
                entry["board"] = msg.board
            if files:
                entry["files"] = files
            labels = [item.label if isinstance(item, Button) else f"[menu: {', '.join(v for _, v in item.options)}]"
                      for row in msg.rows for item in row]
            if labels:
                entry["buttons"] = labels
            lines.append(entry)
        return lines

    def _readable(self, text: str) -> str:
        text = readable(text)
        for name, u in self.users.items():
            text = text.replace(f"<@{u.id}>", f"@{name}")
        for i, thread in enumerate(self.threads):
            text = text.replace(f"<#{thread}>", f"#thread-{i + 1}")
        return text.replace(f"<#{CHANNEL}>", "#game")

    async def final(self) -> dict:
        loaded = await self.service.load(self.channel)
        if loaded is None or loaded.record.state is None:
            return {"final": {"game": loaded.game.id if loaded else None, "finished": False, "winners": [],
                              "scores": [], "state": None}}
        game = loaded.game
        state = game.load(loaded.record.state)
        result = game.result(state)
        names = [p.name for p in loaded.record.players]
        return {"final": {"game": game.id, "finished": result.finished,
                          "winners": [names[w] for w in result.winners], "scores": result.scores,
                          "state": game.view(state, None)}}

    async def close(self) -> None:
        await self.service.store.close()


def channel_as_shown(entries: Iterable[dict]) -> list[dict]:
    """The channel's messages as they read at the end: an edit (`"edit": true`) replaces the
    board message it edits (the newest board before it) instead of adding a message."""
    shown: list[dict] = []
    board_at: int | None = None
    for entry in entries:
        if entry.get("to") != "channel":
            continue
        if entry.get("edit") and board_at is not None:
            shown[board_at] = entry
            continue
        shown.append(entry)
        if "Open my controls" in entry.get("buttons", []) or entry.get("images"):
            board_at = len(shown) - 1
    return shown


def transcript_lines(lines: Iterable[str]) -> list[str]:
    """The lines a transcript runs (commands, clicks, @wait, @channel), without comments and blanks."""
    out = []
    for line in lines:
        text = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if text.startswith(("@wait", "@channel")) or LINE.match(text):
            out.append(text)
    return out


async def run_transcript(path: str, render: bool = True, image_dir: str | None = None,
                         db_path: str = ":memory:") -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    runner = await TranscriptRunner.create(db_path, base_dir=os.path.dirname(os.path.abspath(path)),
                                           render=render, image_dir=image_dir)
    out: list[dict] = []
    try:
        for line in lines:
            out += await runner.run_line(line)
        out.append(await runner.final())
    finally:
        await runner.close()
    return out


def dumps(entry: dict) -> str:
    return json.dumps(entry, ensure_ascii=False)
