"""The bot side of AI levels (#27): the lobby's ai/ai_budget_ms/ai_iterations/hints settings, AI
seats moving at the game's level, searched moves off the event loop, and /politics hint."""
from __future__ import annotations

from bot.ai_worker import ai_move
from bot.store import BotSettings
from engines import get_game
from engines.search import choose
from tests.helpers import CH, ctx, service_on, texts, user

alice, bob = user("alice"), user("bob")


async def test_lobby_takes_the_ai_settings_and_shows_them(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "us-president", "bots": 1,
                                               "settings": "ai=hard ai_iterations=20 hints=off"})
    assert "ai=hard" in out[0].text and "ai_iterations=20" in out[0].text and "hints=off" in out[0].text
    record = (await svc.load(CH)).record
    assert record.bot_settings.ai == "hard" and record.bot_settings.ai_iterations == 20
    assert record.bot_settings.hints is False and record.bot_settings.ai_budget_ms == 1000
    listing = texts(await svc.handle(ctx(alice), "settings", {}))[0]
    assert "`ai` = hard" in listing and "`hints` = off" in listing and "`ai_budget_ms` = 1000" in listing
    for bad, words in (("ai=expert", "easy, normal, hard"), ("ai_budget_ms=5", "50 to 10000"),
                       ("ai_iterations=lots", "1 to 100000"), ("hints=maybe", "on or off")):
        out = await svc.handle(ctx(alice), "settings", {"settings": bad})
        assert out[0].to == "ephemeral" and words in out[0].text, (bad, out[0].text)
    assert (await svc.load(CH)).record.bot_settings.ai == "hard"  # a refused change loses nothing
    await svc.store.close()


async def test_default_level_is_normal_and_named_where_ai_seats_play(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "us-president", "bots": 1})
    assert "ai=normal" in out[0].text
    record = (await svc.load(CH)).record
    assert record.bot_settings.ai == "normal" and "ai" not in record.bot_settings.given()  # the default isn't stored
    await svc.handle(ctx(alice), "start", {})
    status = await svc.handle(ctx(alice), "status", {})
    assert "AI level: normal" in status[0].text
    await svc.store.close()


async def test_hard_level_is_on_every_board(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await svc.handle(ctx(alice), "new", {"game": "us-president", "bots": 1, "seed": 5,
                                         "settings": "ai=hard ai_iterations=10"})
    out = await svc.handle(ctx(alice), "start", {})
    assert any("AI level: hard" in m.text for m in out if m.to == "channel")
    await svc.store.close()


def test_normal_is_todays_heuristic_and_iterations_replay():
    game = get_game("us-president")
    from engines import Seat
    state = game.setup([Seat(name="a"), Seat(name="b", bot=True)], game.options({}), 7)
    seat = game.to_act(state)[0]
    today = game.ai_action(state, seat, game.ai_rng(state, seat, 0))
    assert ai_move(game, state, seat, 0, BotSettings()) == today
    hard = BotSettings(ai="hard", ai_iterations=30)
    first = ai_move(game, state, seat, 0, hard)
    assert ai_move(game, state, seat, 0, hard) == first
    assert first == choose(game, state, seat, "hard", game.ai_rng(state, seat, 0), iterations=30)
