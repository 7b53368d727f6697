"""A fake Discord on loopback for end-to-end tests of bot.discord_app (a test
fixture, not shipped).

    fake = await FakeDiscord().start()                 # 127.0.0.1, random port
    bot = await BotRunner(fake, service).start()       # the real PoliticsBot, via point_at()
    alice = fake.user("alice")                         # perms=16 Manage Channels, 32 Manage Server
    inter = await alice.slash("/politics new game:primary-general seed:7 bots:1")
    board = fake.channel_messages()[-1]                # Sent: content, components, files [(name, bytes)]
    panel = (await alice.click(board, "Open my controls")).last_reply()
    await alice.select(panel, [panel.selects()[0]["options"][0]["value"]])
    alice.dms(); fake.public(); fake.seen_by("bob")    # who received what
    inter.latency                                      # dispatch -> first callback, seconds
    fake.fail("POST", r"/channels/\\d+/messages$", 429, retry_after=0.2)   # or 500, 503, 404 code=10062
    fake.user("bob", dm_closed=True)                   # 403 / 50007 on every DM
    await fake.drop_gateway(); await fake.send_reconnect()
    fake = FakeDiscord(shard_count=4)                  # shards (gateway.py): a session per IDENTIFY shard
    guild = fake.add_guild("s", shard=2); fake.add_channel("c", guild=guild)
    fake.shard_sessions(); fake.receiver(inter); fake.sender(message)   # which bot process (token)
    FakeDiscord(limits=True)                           # the default: Discord's rate limits (limits.py)
    fake.limits.by_route["message create"].route_429s; fake.request_log[-1].scope   # what they refused

`.venv/bin/python -m testkit.fakediscord.report` runs every scenario and rewrites docs/reliability.md.
"""
from .client import BotRunner, UserHandle, split_command
from .server import FakeDiscord
from .stored import FakeInteraction, FakeUser, Sent

__all__ = ["BotRunner", "FakeDiscord", "FakeInteraction", "FakeUser", "Sent", "UserHandle", "split_command"]
