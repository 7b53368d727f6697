"""What Discord shows and sends back: the slash commands generated from bot.registry, and the
buttons, menus and text boxes built from the service's messages. Translation only: every
interaction goes to the handler (PoliticsBot) handed in, which answers it.

- Buttons and menus are DynamicItems matched by custom_id, so they keep working after a restart
  with no view to re-register.
- Every length is cut to what Discord accepts (labels 80/100, 25 options, embed limits), so a long
  name can never make a message fail.
"""
from __future__ import annotations

import inspect
import re
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from .messages import Button, Embed, Outgoing, Select
from .registry import CommandSpec, commands

STYLES = {"primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
          "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger}


class InteractionHandler(Protocol):
    """What the commands and components call: PoliticsBot (bot/discord_app.py)."""

    async def on_slash(self, interaction: discord.Interaction, spec: CommandSpec, kwargs: dict) -> None: ...

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None: ...

    async def autocomplete(self, interaction: discord.Interaction, name: str, option: str,
                           current: str) -> list[tuple[str, str]]: ...


# ---- components ---------------------------------------------------------
def _bot(interaction: discord.Interaction) -> InteractionHandler:
    """The client that received a component: always PoliticsBot."""
    return cast(InteractionHandler, interaction.client)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"p[bgtr]:(?P<rest>.+)"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label="…"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(str(getattr(item, "custom_id", "")))  # a button or a select: both have one

    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).on_component(interaction, str(self.item.custom_id), [])


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"ps:(?P<rest>.+)"):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /):
        return cls(str(getattr(item, "custom_id", "")))  # a button or a select: both have one

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        await _bot(interaction).on_component(interaction, str(self.item.custom_id), values)


class TextModal(discord.ui.Modal):
    """Shown for free-text moves. Its submission is handled in on_interaction
    (by custom_id), so it also works for a form opened before a restart."""

    def __init__(self, custom_id: str, title: str, label: str, placeholder: str) -> None:
        super().__init__(title=title or "Answer", custom_id=custom_id, timeout=None)
        self.add_item(discord.ui.TextInput(label=label or "Answer", placeholder=placeholder or None,
                                           max_length=200, custom_id="text"))

    async def on_submit(self, interaction: discord.Interaction) -> None:  # handled in on_interaction
        return None


def allowed_mentions(msg: Outgoing) -> discord.AllowedMentions:
    """Exactly the users the service means to ping; never @everyone, @here or a role."""
    users = [discord.Object(id=int(u)) for u in msg.ping if u.isdigit()]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users or False)


def build_view(rows: list[list[Button | Select]]) -> discord.ui.View | None:
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(rows[:5]):
        for item in row:
            if isinstance(item, Button):
                view.add_item(discord.ui.Button(label=item.label[:80], custom_id=item.custom_id[:100],
                                                style=STYLES[item.style], row=row_index))
            else:
                options = [discord.SelectOption(label=label[:100], value=value[:100])
                           for label, value in item.options[:25]]
                view.add_item(discord.ui.Select(custom_id=item.custom_id[:100], placeholder=item.placeholder[:150],
                                                options=options, row=row_index))
    # Stopped before sending: the DynamicItems above handle the clicks, so the
    # view must not also be stored (it would see every click twice).
    view.stop()
    return view


def build_embed(embed: Embed) -> discord.Embed:
    """An Embed within Discord's limits (title 256, description 4,096, 25 fields of 256/1,024)."""
    out = discord.Embed(title=embed.title[:256], description=embed.description[:4096] or None)
    for name, value in embed.fields[:25]:
        out.add_field(name=name[:256] or "\u200b", value=value[:1024] or "\u200b", inline=False)
    if embed.footer:
        out.set_footer(text=embed.footer[:2048])
    if embed.image:
        out.set_image(url=f"attachment://{embed.image}")
    return out


# ---- slash commands from the registry ---------------------------------------

def _annotation(opt) -> Any:
    if opt.kind == "int":
        lo = opt.min_value if opt.min_value is not None else -(2**53)
        hi = opt.max_value if opt.max_value is not None else 2**53
        return app_commands.Range[int, lo, hi]
    if opt.kind == "attachment":
        return discord.Attachment
    if opt.kind == "bool":
        return bool
    if opt.kind == "user":
        return discord.User
    return app_commands.Range[str, 0, opt.max_length or 100]


def make_command(client: InteractionHandler, spec: CommandSpec) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **kwargs: Any) -> None:
        await client.on_slash(interaction, spec, kwargs)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for opt in sorted(spec.options, key=lambda o: not o.required):
        params.append(inspect.Parameter(opt.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(opt),
                                        default=inspect.Parameter.empty if opt.required else None))
    # discord.py reads a command's options from these attributes of its callback (what its
    # decorators would set); the callback is generated, so they are set here.
    described: Any = callback
    described.__signature__ = inspect.Signature(params)
    described.__discord_app_commands_param_description__ = {o.name: o.description[:100] for o in spec.options}
    choices = {o.name: [app_commands.Choice(name=c, value=c) for c in o.choices[:25]]
               for o in spec.options if o.choices}
    if choices:
        described.__discord_app_commands_param_choices__ = choices
    auto = {}
    for opt in spec.options:
        if opt.autocomplete:
            auto[opt.name] = _make_autocomplete(client, spec, opt.name)
    if auto:
        described.__discord_app_commands_param_autocomplete__ = auto
    return app_commands.Command(name=spec.leaf, description=spec.description[:100], callback=callback)


def _make_autocomplete(client: InteractionHandler, spec: CommandSpec, option: str):
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        found = await client.autocomplete(interaction, spec.name, option, current)
        return [app_commands.Choice(name=label[:100] or value[:100], value=value[:100]) for label, value in found[:25]]
    return complete


def build_group(client: InteractionHandler) -> app_commands.Group:
    # Games live in server channels; DMs only carry private hands and picks.
    root = app_commands.Group(name="politics", description="Election board games in this channel", guild_only=True)
    groups: dict[str, app_commands.Group] = {}
    for spec in commands().values():
        command = make_command(client, spec)
        if spec.group:
            if spec.group not in groups:
                groups[spec.group] = app_commands.Group(name=spec.group, description=f"Server {spec.group} (admins)",
                                                        parent=root)
            groups[spec.group].add_command(command)
        else:
            root.add_command(command)
    return root


