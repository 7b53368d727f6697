"""The test-side API: a fake user acting through the fake Discord, and a
helper that runs the bot's real PoliticsBot against it."""
from __future__ import annotations

import asyncio
import shlex
from typing import TYPE_CHECKING, Any

from bot.registry import commands

from .stored import FakeInteraction, FakeUser, Sent

if TYPE_CHECKING:
    from bot.discord_app import PoliticsBot

    from .server import FakeDiscord

OPT_TYPES = {"str": 3, "int": 4, "bool": 5, "user": 6, "attachment": 11}


def split_command(line: str) -> tuple[str, dict[str, str]]:
    """The text form of bot.registry.parse_command_line, without checking the
    values: `/politics do action:play x` -> ("do", {"action": "play x"}).
    Checking is the bot's job; Discord only enforces types."""
    text = line.strip()
    assert text.startswith("/politics"), line
    words = shlex.split(text[len("/politics"):].strip(), posix=True)
    table = commands()
    for length in (2, 1):
        name = " ".join(words[:length])
        if name in table and (length == 1 or len(words) >= 2):
            spec = table[name]
            words = words[length:]
            break
    else:
        return words[0] if words else "", {}
    names = {o.name for o in spec.options}
    raw: dict[str, str] = {}
    current = None
    for word in words:
        key, sep, value = word.partition(":")
        if sep and (key in names or current is None):
            current = key
            raw[key] = value
        elif current is not None:
            raw[current] = (raw[current] + " " + word).strip()
    return spec.name, raw


class UserHandle:
    def __init__(self, fake: FakeDiscord, user: FakeUser) -> None:
        self.fake = fake
        self.u = user

    @property
    def id(self) -> str:
        return self.u.id

    @property
    def name(self) -> str:
        return self.u.name

    def command_data(self, name: str, options: dict[str, Any], *, focused: str | None = None,
                     files: dict[str, tuple[str, bytes]] | None = None) -> dict:
        spec = commands().get(name)
        kinds = {o.name: o.kind for o in spec.options} if spec else {}
        opts = []
        resolved: dict = {}
        for key, value in options.items():
            kind = kinds.get(key, "str")
            if kind == "int" and isinstance(value, str) and value.lstrip("-").isdigit():
                value = int(value)
            if kind == "bool" and isinstance(value, str):
                value = value.lower() in ("true", "yes", "1")
            if kind == "user":  # Discord sends the id and the user in data.resolved
                picked = self.fake.users.get(str(value).lstrip("@"))
                if picked is not None:
                    value = picked.id
                    resolved.setdefault("users", {})[picked.id] = picked.payload()
                    member = self.fake.member_payload(picked)
                    resolved.setdefault("members", {})[picked.id] = {k: v for k, v in member.items() if k != "user"}
            opt = {"name": key, "type": OPT_TYPES.get(kind, 3), "value": value}
            if focused == key:
                opt["focused"] = True
            opts.append(opt)
        for key, (filename, content) in (files or {}).items():
            aid = self.fake.snowflake()
            self.fake.uploads[aid] = content
            url = f"http://127.0.0.1:{self.fake.port}/api/v10/attachments/{aid}/{filename}"
            resolved.setdefault("attachments", {})[aid] = {
                "id": aid, "filename": filename, "size": len(content), "url": url, "proxy_url": url,
                "content_type": "text/csv" if filename.endswith(".csv") else "application/json"}
            opts.append({"name": key, "type": 11, "value": aid})
        leaf = {"name": name.split()[-1], "type": 1, "options": opts}
        if " " in name:
            top = {"name": name.split()[0], "type": 2, "options": [leaf]}
        else:
            top = leaf
        cmd_id = next((c["id"] for c in self.fake.commands.get("global", []) if c["name"] == "politics"),
                      "1300000000000000001")
        data = {"id": cmd_id, "name": "politics", "type": 1, "options": [top]}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, line: str, *, channel: str | None = None, files: dict | None = None,
                    settle: bool = True) -> FakeInteraction:
        name, raw = split_command(line)
        return await self.slash_raw(name, raw, channel=channel, files=files, settle=settle)

    async def slash_raw(self, name: str, options: dict[str, Any], *, channel: str | None = None,
                        files: dict | None = None, settle: bool = True) -> FakeInteraction:
        data = self.command_data(name, options, files=files)
        inter = await self.fake.interact(self.u, 2, data, channel_id=channel)
        if settle:
            await self.fake.settle()
        return inter

    async def autocomplete(self, line: str, option: str, *, channel: str | None = None) -> list[dict]:
        name, raw = split_command(line)
        raw.setdefault(option, "")
        inter = await self.fake.interact(self.u, 4, self.command_data(name, raw, focused=option), channel_id=channel)
        await self.fake.settle()
        return inter.choices or []

    async def click(self, message: Sent, label: str | None = None, *, custom_id: str | None = None,
                    settle: bool = True) -> FakeInteraction:
        for b in message.buttons():
            if (custom_id and b.get("custom_id") == custom_id) or (label is not None and b.get("label") == label):
                data = {"custom_id": b["custom_id"], "component_type": 2}
                inter = await self.fake.interact(self.u, 3, data, message=message)
                if settle:
                    await self.fake.settle()
                return inter
        raise LookupError(f"no button {label or custom_id!r} on {message.labels()}")

    async def select(self, message: Sent, values: list[str], *, index: int = 0, settle: bool = True) -> FakeInteraction:
        sel = message.selects()[index]
        data = {"custom_id": sel["custom_id"], "component_type": 3, "values": list(values)}
        inter = await self.fake.interact(self.u, 3, data, message=message)
        if settle:
            await self.fake.settle()
        return inter

    async def submit_modal(self, opened_by: FakeInteraction, text: str, *, settle: bool = True) -> FakeInteraction:
        modal = opened_by.modal
        assert modal, "that interaction did not open a form"
        rows = []
        for row in modal.get("components", []):
            comps = []
            for c in row.get("components", []):
                comps.append({"type": 4, "custom_id": c.get("custom_id"), "value": text})
            if row.get("type") == 18 and row.get("component"):  # a Label wrapping one input
                c = row["component"]
                rows.append({"type": 18, "component": {"type": 4, "custom_id": c.get("custom_id"), "value": text}})
                continue
            rows.append({"type": 1, "components": comps})
        data = {"custom_id": modal["custom_id"], "components": rows}
        origin = self.fake.messages.get(opened_by.message_id) if opened_by.message_id else None
        inter = await self.fake.interact(self.u, 5, data, channel_id=opened_by.channel_id, message=origin)
        if settle:
            await self.fake.settle()
        return inter

    # ---- what this user sees ------------------------------------------------
    def dms(self) -> list[Sent]:
        return self.fake.dms(self.u)

    def seen(self, channel: str | None = None) -> list[Sent]:
        return self.fake.seen_by(self.u, channel)


class BotRunner:
    """Start the bot's real PoliticsBot against the fake, in this process."""

    def __init__(self, fake: FakeDiscord, service, *, sync_commands: bool = True, db_path: str = ":memory:",
                 render_processes: bool = False, shards=None, token: str = "fake-token",
                 metrics_port: int | None = None) -> None:
        self.fake = fake
        self.shards = shards  # bot.shards.Shards this bot serves (None: all)
        self.token = token  # the fake tells bot processes apart by the token they send
        self.render_processes = render_processes  # threads by default: a test may patch a renderer
        self.service = service
        self.sync_commands = sync_commands
        self.db_path = db_path
        self.metrics_port = metrics_port  # 0: /healthz and /metrics on a port the system picks
        self.client: PoliticsBot | None = None
        self.task: asyncio.Task | None = None

    async def start(self) -> BotRunner:
        from bot.discord_app import PoliticsBot, point_at
        from bot.settings import Settings

        settings = Settings(token=self.token, guild_id=None, database_path=self.db_path, ai_delay=0.0,
                            message_content=False, api_base=self.fake.api_base, gateway_url=self.fake.gateway_url,
                            render_processes=self.render_processes, shards=self.shards,
                            metrics_port=self.metrics_port)
        point_at(settings.rest_base, settings.gateway_url)
        self.fake.connected.clear()
        client = PoliticsBot(settings, service=self.service, sync_commands=self.sync_commands,
                             guild_ready_timeout=0.05)
        self.client = client
        task = self.task = asyncio.create_task(client.start(self.token), name="fake-bot-runner")
        await self.fake.wait_for(lambda: client.is_ready() or task.done(), timeout=15)
        if task.done():
            task.result()
        return self

    async def stop(self) -> None:
        if self.client is not None:
            await self.client.close()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 5)
            except (TimeoutError, asyncio.CancelledError):
                pass
