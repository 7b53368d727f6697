"""Inline AI (transcripts, the local table, tests) plays a game left to AI seats in a loop:
however long the game, the service never nests one AI move inside another."""
from __future__ import annotations

import sys

import pytest

from bot.transcript import FakeClock
from engines import all_games
from testkit.fakediscord.figures import record
from tests.helpers import CH, ctx, service_on, user

alice = user("alice")


def _depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        n, frame = n + 1, frame.f_back
    return n


@pytest.mark.parametrize("game_id", sorted(all_games()))
async def test_a_whole_all_ai_game_plays_through_the_service_without_recursion(database, game_id):
    game = all_games()[game_id]
    clock = FakeClock()
    svc = await service_on(database, inline_ai=True, ai_delay=0, clock=clock)
    await svc.handle(ctx(alice), "new", {"game": game_id, "seed": 3, "bots": game.min_players - 1})
    out = await svc.handle(ctx(alice), "start", {})
    assert out[0].to == "channel" and "begins" in out[0].text, out[0].text

    moves_before = sum((await svc.load(CH)).record.acted)
    depths: list[int] = []
    apply = svc.play.apply

    async def measured(*args, **kwargs):
        depths.append(_depth())
        return await apply(*args, **kwargs)
    svc.play.apply = measured  # type: ignore[method-assign]  # every move of the loop passes here

    # A recursive chain adds a few frames per AI move and a game takes dozens to hundreds of
    # moves; the loop needs the same few frames however long the game. The lowered limit leaves
    # room for one move's own calls (the engine, pydantic, the store), not for a chain of them.
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + 150)
    try:
        out = await svc.handle(ctx(alice), "leave", {})  # the AI takes alice's seat: every seat is AI now
        for _ in range(500):  # engine timers (trivia's timed answers) fire from the scheduler
            loaded = await svc.load(CH)
            if loaded.record.status == "finished":
                break
            clock.now += 600
            out += await svc.tick()
    finally:
        sys.setrecursionlimit(old)
    assert not any("Something went wrong" in m.text for m in out), [m.text for m in out if "wrong" in m.text][:3]
    loaded = await svc.load(CH)
    assert loaded.record.status == "finished"
    assert any("Game over" in m.text for m in out)
    assert len(depths) >= 20 and len(depths) >= sum(loaded.record.acted) - moves_before
    assert max(depths) - min(depths) <= 6, "an AI move ran inside another move's call"
    await svc.store.close()
    record(f"all-AI game through the service: {game_id}", all_ai_games=1, moves=len(depths))
