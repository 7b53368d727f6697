"""A fake Discord on loopback for end-to-end tests of bot.discord_app (test fixture, not shipped)."""
from .client import BotRunner, UserHandle, split_command
from .server import FakeDiscord, FakeInteraction, FakeUser, Sent

__all__ = ["BotRunner", "FakeDiscord", "FakeInteraction", "FakeUser", "Sent", "UserHandle", "split_command"]
