"""LOG_FORMAT=json (bot/logs.py): one JSON object a line with time, level, logger and message, and the
server, channel, game ref and interaction id of the interaction being served; and never a secret: a
game played through the fake Discord with JSON logs at DEBUG leaves no seat's hidden tokens (hand
cards, secret picks) in the log, checked step by step as tests/leakcheck.py checks the channel."""
from __future__ import annotations

import asyncio
import io
import json
import logging
import types

import pytest

from bot.logs import bind, bind_interaction, game_ref, level_of, parse_log_format, setup_logging
from testkit.fakediscord.driver import latest
from testkit.leakcheck import leaks_in, snapshot


@pytest.fixture
def captured():
    """The root logger writing JSON at DEBUG into a buffer; everything put back afterwards."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers),
             {name: logging.getLogger(name).level for name in ("discord", "aiosqlite", "asyncpg", "aiohttp",
                                                               "websockets")})
    for name in saved[2]:  # as in a fresh process (the fake Discord's fixtures quiet discord.py)
        logging.getLogger(name).setLevel(logging.NOTSET)
    buffer = io.StringIO()
    handler = setup_logging(logging.DEBUG, "json", stream=buffer)
    try:
        yield buffer
    finally:
        root.removeHandler(handler)
        root.setLevel(saved[0])
        for h in saved[1]:
            if h not in root.handlers:
                root.addHandler(h)
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)


def lines_of(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def test_one_json_object_a_line_with_the_bound_fields(captured):
    log = logging.getLogger("politics.test")

    async def serve(n: int) -> None:  # two interactions at once: each line carries its own fields
        bind(server="900", channel=f"50{n}", interaction=f"1{n}", game=f"g{n}")
        await asyncio.sleep(0)
        log.info("served %d", n)

    async def both() -> None:
        await asyncio.gather(serve(1), serve(2))
    asyncio.run(both())
    log.warning("outside any interaction: \"quoted\"\nand a second line")
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("it failed")
    first, second, outside, failed = [e for e in lines_of(captured) if e["logger"] == "politics.test"]
    assert {k: first[k] for k in ("level", "logger", "message", "server", "channel", "interaction", "game")} == \
        {"level": "INFO", "logger": "politics.test", "message": "served 1", "server": "900", "channel": "501",
         "interaction": "11", "game": "g1"}
    assert second["channel"] == "502" and second["game"] == "g2"
    assert first["time"].endswith("Z") and first["time"][:2] == "20"
    assert outside["message"] == "outside any interaction: \"quoted\"\nand a second line"
    assert "channel" not in outside  # nothing bound here
    assert failed["level"] == "ERROR" and "ValueError: boom" in failed["error"]


def test_an_interaction_binds_its_server_channel_id_and_game_ref(captured):
    click = types.SimpleNamespace(guild_id=900, channel_id=501, id=123,
                                  data={"custom_id": "pb:501.k3x9:4:play", "component_type": 2})
    slash = types.SimpleNamespace(guild_id=900, channel_id=502, id=124,
                                  data={"name": "politics", "options": [
                                      {"name": "do", "type": 1, "options": [{"name": "action", "type": 3,
                                                                            "value": "play negative-ad alice"}]}]})

    async def enter(interaction) -> None:
        bind_interaction(interaction)
        logging.getLogger("politics.service").info("handled")

    async def both() -> None:
        await asyncio.gather(enter(click), enter(slash))
    asyncio.run(both())
    entries = lines_of(captured)
    handled = [e for e in entries if e["message"] == "handled"]
    assert {(e["channel"], e["interaction"], e.get("game")) for e in handled} == {("501", "123", "k3x9"),
                                                                                 ("502", "124", None)}
    said = [e["message"] for e in entries if e["logger"] == "politics.interactions"]
    assert sorted(said) == ["interaction: pb", "interaction: politics do"]
    assert "negative-ad" not in captured.getvalue()  # a command's options are never logged
    assert game_ref("pr:lb:us-president:2") is None and game_ref("pb:501:4:play") is None


def test_settings_in_one_sentence():
    assert parse_log_format(None) == "text" and parse_log_format(" JSON ") == "json"
    with pytest.raises(ValueError, match="LOG_FORMAT must be text or json, not 'xml'"):
        parse_log_format("xml")
    assert level_of("debug") == logging.DEBUG and level_of("") == logging.WARNING
    with pytest.raises(ValueError, match="LOG_LEVEL must be"):
        level_of("loud")


def test_libraries_that_log_payloads_stay_at_info_under_debug(captured):
    assert logging.getLogger("politics.service").isEnabledFor(logging.DEBUG)
    for name in ("discord.http", "discord.gateway", "aiosqlite", "asyncpg"):
        assert not logging.getLogger(name).isEnabledFor(logging.DEBUG), name


async def test_a_game_played_with_json_logs_at_debug_logs_no_secret(harness, captured):  # noqa: F811
    """Two players through the fake Discord (slash commands, buttons, DMs with their hands), every
    line of the log checked after each step against every seat's hidden tokens."""
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash("/politics new game:primary-general seed:5", channel=ch)
    await bob.click(latest(fake.public(ch), "Join"), "Join")
    await alice.slash("/politics start", channel=ch)
    service = harness.service
    owners: dict[int, str | None] = {}
    secrets: set[str] = set()
    found: list[str] = []
    before, read = None, 0

    async def observe() -> None:
        nonlocal before, read
        await fake.settle()
        loaded = await service.load(ch)
        game = loaded.game
        now = snapshot(game, game.load(loaded.record.state))
        for seat in now.secret:
            owners[seat] = None  # the log is nobody's: every seat's secret counts
            secrets.update(now.secret[seat])
        text = captured.getvalue()
        found.extend(leaks_in(before or now, now, owners, [(None, text[read:])]))
        read, before = len(text), now

    await observe()
    for _ in range(8):
        for user in (alice, bob):
            choices = await user.autocomplete("/politics do action:", "action", channel=ch)
            if choices:
                await user.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
            await observe()
    entries = lines_of(captured)  # every line is one JSON object
    assert secrets, "the game dealt hidden cards"
    assert alice.dms() and bob.dms()  # their hands went out, by DM, while the log watched
    served = [e for e in entries if e["logger"] == "politics.interactions"]
    assert len(served) >= 10 and all(e.get("interaction") and e.get("channel") == str(ch) and e.get("server")
                                      for e in served)
    assert not found, found
