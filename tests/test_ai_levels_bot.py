"""The bot side of AI levels (#27): the lobby's ai/ai_budget_ms/ai_iterations/hints settings, AI
seats moving at the game's level, searched moves off the event loop, and /politics hint."""
from __future__ import annotations

import pytest

from bot.ai_worker import ai_move
from bot.store import BotSettings
from engines import all_games, get_game
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


async def started(svc, settings="ai_iterations=20", bots=1, game="us-president", seed=5):
    await svc.handle(ctx(alice), "new", {"game": game, "bots": bots, "seed": seed, "settings": settings})
    await svc.handle(ctx(alice), "start", {})
    return await svc.load(CH)


async def test_hint_is_private_and_the_record_says_hints_were_used(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    loaded = await started(svc)
    game, state = loaded.game, loaded.state
    assert 0 in game.to_act(state)
    out = await svc.handle(ctx(alice), "hint", {})
    assert [m.to for m in out] == ["ephemeral"] and out[0].user_id == alice.id
    assert "Hint" in out[0].text and "% chance to win" in out[0].text
    suggested = out[0].text.split("type `", 1)[1].split("`", 1)[0]
    assert suggested in [a.text() for a in game.legal_actions(state, 0)]
    assert (await svc.load(CH)).record.hinted == [0]
    refused = await svc.handle(ctx(bob), "hint", {})
    assert refused[0].to == "ephemeral" and "not a player" in refused[0].text
    await svc.handle(ctx(alice), "leave", {})  # the AI finishes the game
    history = await svc.handle(ctx(alice), "history", {})
    fields = " ".join(value for _name, value in history[0].embeds[0].fields)
    assert "hints used by alice" in fields
    await svc.store.close()


async def test_hint_refused_when_off_or_not_your_turn(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await started(svc, settings="hints=off")
    out = await svc.handle(ctx(alice), "hint", {})
    assert out[0].to == "ephemeral" and "turned hints off" in out[0].text
    assert (await svc.load(CH)).record.hinted == []
    await svc.store.close()
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await svc.handle(ctx(alice), "cancel", {})
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 3, "settings": "ai_iterations=5"})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    waiting = [p for s, p in zip(range(2), (alice, bob)) if s not in loaded.game.to_act(loaded.state)]
    assert waiting
    out = await svc.handle(ctx(waiting[0]), "hint", {})
    assert "when it's your turn" in out[0].text
    await svc.store.close()


async def test_a_player_who_leaves_hands_their_seat_to_the_games_level(database, monkeypatch):
    import bot.service.play_loop as play_loop
    levels = []
    real = play_loop.ai_move

    def spy(game, state, seat, moves, settings, level=None):
        levels.append(level or settings.ai)
        return real(game, state, seat, moves, settings, level)
    monkeypatch.setattr(play_loop, "ai_move", spy)
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await svc.handle(ctx(alice), "new", {"game": "us-president", "seed": 2, "settings": "ai=easy"})
    await svc.handle(ctx(bob), "join", {})
    await svc.handle(ctx(alice), "start", {})
    out = await svc.handle(ctx(bob), "leave", {})
    assert "an AI plays their seat" in texts(out)[0] and "easy" in texts(out)[0]
    assert levels and set(levels) == {"easy"}
    await svc.store.close()


async def test_hard_searches_off_the_loop_and_a_stale_search_is_dropped(database):
    from bot.ai_worker import AiWorkers
    from bot.transcript import FakeClock
    clock = FakeClock()
    svc = await service_on(database, ai_delay=0, clock=clock)
    svc.play.ai_workers = AiWorkers(1, processes=False)  # threads: same path, no process start in a test
    loaded = await started(svc, settings="ai=hard ai_iterations=30", game="primary-general", seed=3)
    assert loaded.record.players[1].ai
    for _ in range(400):  # the human moves whenever it is their turn; the AI's search is polled by tick
        loaded = await svc.load(CH)
        if loaded.record.status != "playing":
            break
        game, state = loaded.game, loaded.state
        if 0 in game.to_act(state):
            await svc.handle(ctx(alice), "do", {"action": game.legal_actions(state, 0)[0].text()})
            continue
        before = loaded.version
        first = await svc.tick(clock.now + 1)
        pending = svc.play.searches.get(CH)
        if pending is None:
            continue
        assert first == [] and pending.version == before  # started, not waited for
        # A search whose row moved on meanwhile is dropped, never applied: a new one starts.
        pending.version -= 1  # as if a human's move or a timeout had committed since it began
        pending.future.result(timeout=60)
        assert await svc.tick(clock.now + 1) == []
        fresh = svc.play.searches[CH]
        assert fresh is not pending and fresh.version == before and (await svc.load(CH)).version == before
        fresh.future.result(timeout=60)
        out = await svc.tick(clock.now + 1)
        assert any(m.to == "channel" for m in out) and (await svc.load(CH)).version > before
        assert CH not in svc.play.searches
        break
    else:
        raise AssertionError("the AI never searched")
    await svc.store.close()


def test_worker_process_moves_like_in_process():
    import asyncio
    from bot.ai_worker import AiWorkers
    from engines import Seat
    game = get_game("primary-general")
    state = game.setup([Seat(name="a"), Seat(name="b", bot=True)], game.options({}), 11)
    seat = game.to_act(state)[0]
    settings = BotSettings(ai="hard", ai_iterations=25)
    workers = AiWorkers(1)
    try:
        text = asyncio.run(workers.move(game.id, game.dump(state), seat, 0, settings))
    finally:
        workers.close()
    assert text == ai_move(game, state, seat, 0, settings).text()


async def test_table_hint(tmp_path):
    import io

    from bot.table import run_table
    from bot.transcript import FakeClock
    out = io.StringIO()
    code = await run_table("us-president", 1, 5, str(tmp_path / "img"), str(tmp_path / "t.db"),
                           "ai=hard ai_iterations=10", stdin=io.StringIO("hint\nstatus\nquit\n"), stdout=out,
                           clock=FakeClock())
    text = out.getvalue()
    assert code == 0 and "Hint (only you see this)" in text and "% chance to win" in text
    assert "AI level: hard" in text


def test_play_ai_sets_the_level_of_the_tables_ai_seats(tmp_path, monkeypatch):
    import bot.table
    from bot.cli import main
    seen = {}

    async def fake_table(game, bots, seed, out_dir, db, settings, **kwargs):
        seen.update(game=game, settings=settings)
        return 0
    monkeypatch.setattr(bot.table, "run_table", fake_table)
    assert main(["play", "us-president", "--ai", "hard", "--out", str(tmp_path / "o")]) == 0
    assert seen == {"game": "us-president", "settings": "ai=hard"}
    assert main(["play", "us-president", "--ai", "hard", "--settings", "deal=one", "--out", str(tmp_path)]) == 0
    assert seen["settings"] == "deal=one ai=hard"
    with pytest.raises(SystemExit):  # argparse: one line naming the choices
        main(["play", "us-president", "--ai", "expert"])


async def test_no_hint_for_a_question_of_knowledge(database, monkeypatch):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    loaded = await started(svc)
    game, state = loaded.game, loaded.state
    answer = game.legal_actions(state, 0)[0]
    # as politics-trivia does while a question is open: every level answers as normal does
    monkeypatch.setattr(type(game), "ai_fixed_action", lambda self, state, seat, rng: answer)
    out = await svc.handle(ctx(alice), "hint", {})
    assert out[0].to == "ephemeral" and "not for answers" in out[0].text and answer.text() not in out[0].text
    assert (await svc.load(CH)).record.hinted == []
    await svc.store.close()


@pytest.mark.parametrize("switched_off", [False, True])
@pytest.mark.parametrize("game_id", sorted(all_games()))
async def test_hard_where_it_plays_as_normal_says_so_in_the_lobby_and_on_the_board(database, game_id, switched_off,
                                                                                  monkeypatch):
    """A player who picks hard in a game whose hard plays normal's move (no search has beaten it yet)
    is told so where the level is shown, and nowhere else: hard that searches makes no such note.
    (Every game's hard searches today; `switched_off` turns a game's search off as policy.py would.)"""
    from dataclasses import replace
    from engines.search import hard_searches, policy
    if switched_off:
        monkeypatch.setitem(policy.SETTINGS, game_id, replace(policy.rollout_settings(all_games()[game_id]),
                                                              search=False))
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": game_id, "bots": 1, "seed": 5, "settings": "ai=hard"})
    lobby = out[0].text
    searches = hard_searches(all_games()[game_id])
    assert searches is not switched_off
    assert ("hard plays as normal" in lobby) is (not searches)
    out = await svc.handle(ctx(alice), "start", {})
    board = "\n".join(m.text for m in out if m.to == "channel")
    assert "AI level: hard" in board and ("hard plays as normal" in board) is (not searches)
    await svc.store.close()
