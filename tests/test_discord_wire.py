"""The fake speaks like Discord (exact JSON content type, limits), and the bot
respects Discord's limits: long replies are split, never cut or refused."""
from __future__ import annotations

import aiohttp

from bot.messages import Outgoing
from bot.service import GameService
from testkit.fakediscord import BotRunner, FakeDiscord


async def test_json_answers_have_the_exact_content_type():
    fake = await FakeDiscord().start()
    try:
        async with aiohttp.ClientSession() as http:
            for method, path in [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me"), ("GET", "/gateway/bot"),
                                 ("GET", "/users/1"), ("POST", "/interactions/1/x/callback"),
                                 ("POST", f"/channels/{fake.general}/messages")]:
                kwargs = {"json": {"content": "y" * 2100}} if method == "POST" else {}
                async with http.request(method, fake.api_base + path, **kwargs) as resp:
                    assert resp.headers["Content-Type"] == "application/json", (path, resp.headers["Content-Type"])
                    body = await resp.json(content_type=None)
                    assert isinstance(body, dict)
        assert fake.violations == ["content over 2000"]
    finally:
        await fake.stop()


class LongHelp(GameService):
    """Injected service whose help text is longer than one Discord message."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.handlers["help"] = self.long_help

    async def long_help(self, req, ctx):
        text = "\n".join(f"line {i}: " + "lorem ipsum " * 8 for i in range(60))
        return [self.boards.reply(ctx, text), Outgoing(to="channel", channel_id=ctx.channel_id, text=text)]


async def test_long_replies_are_split_not_cut(tmp_path):
    from bot.store import Store

    fake = await FakeDiscord().start()
    service = LongHelp(await Store.open(str(tmp_path / "l.db")), render=False)
    runner = await BotRunner(fake, service).start()
    try:
        alice = fake.user("alice")
        inter = await alice.slash("/politics help")
        private = [m.content for m in inter.replies if m.visible_to == alice.id]
        text = "\n".join(private)
        assert "line 0:" in text and "line 59:" in text and len(private) >= 2
        # the rest of the interaction's messages are the channel post, sent as public follow-ups
        assert all(m.visible_to in (alice.id, None) for m in inter.replies)
        channel = "\n".join(m.content for m in fake.channel_messages())
        assert "line 0:" in channel and "line 59:" in channel
        assert not fake.violations and not [r for r in fake.requests if r[3] == 400]
    finally:
        await runner.stop()
        await service.store.close()
        await fake.stop()


async def test_status_sends_the_text_board_and_every_image_carries_alt_text(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash("/politics new game:race-white-house seed:5 bots:1", channel=ch)
    await alice.slash("/politics start", channel=ch)
    before = len(fake.channel_messages(ch))
    await alice.slash("/politics status", channel=ch)
    status = fake.channel_messages(ch)[before:]
    # the text board comes in code blocks, each message within Discord's 2,000 characters
    blocks = [m.content for m in status if m.content.startswith("```\n") and m.content.endswith("\n```")]
    board = "\n".join(b[4:-4] for b in blocks)
    assert len(blocks) >= 2 and "Democrats:" in board and "Republicans:" in board and "alice" in board
    assert "Sheet 2, West:" in board and "CA 55*D" in board
    # the image comes with the last part, described for screen readers
    images = [m for m in status if m.files]
    assert len(images) == 1 and images[0] is status[-1]
    for m in fake.channel_messages(ch):
        assert len(m.descriptions) == len(m.files)
        for text in m.descriptions:
            assert 0 < len(text) <= 1024 and "Race for the White House" in text
    assert any(m.files for m in fake.channel_messages(ch)[:before])  # the start's board was described too
    assert not fake.violations
