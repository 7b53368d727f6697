"""Random-play speed and AI-vs-random win rate for Politics (1952), using only the engine.

    .venv/bin/python tools/politics_1952_bench.py [--games N] [--players K]
"""
from __future__ import annotations

import argparse
import time

from engines.core import Seat
from engines.politics_1952 import GAME
from engines.rng import Rng


def play(seed: int, players: int, ai_seats: frozenset[int] = frozenset(), options: dict | None = None):
    seats = [Seat(name=f"P{i + 1}", bot=True) for i in range(players)]
    state = GAME.setup(seats, GAME.options(options or {}), seed)
    rng = Rng(seed ^ 0x5EED)
    actions = 0
    while not GAME.result(state).finished:
        acting = GAME.to_act(state)
        seat = acting[rng.below(len(acting))]
        if seat in ai_seats:
            action = GAME.ai_action(state, seat, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.below(len(legal))]
        GAME.apply_in_place(state, seat, action)
        actions += 1
    return state, actions


def speed(games: int, players: int) -> tuple[float, float]:
    start = time.perf_counter()
    total = 0
    for i in range(games):
        total += play(i, players)[1]
    t = time.perf_counter() - start
    return games / t, total / games


def win_rate(games: int, players: int, options: dict | None = None) -> dict:
    """The AI sits at a rotating seat; everyone else plays uniformly at random."""
    ai_wins = 0
    for i in range(games):
        ai = i % players
        state, _ = play(10_000 + i, players, frozenset({ai}), options)
        if GAME.result(state).winners == [ai]:
            ai_wins += 1
    return {"games": games, "players": players, "ai_win_rate": ai_wins / games, "fair_share": 1 / players}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--speed-only", action="store_true")
    a = p.parse_args()
    gps, apg = speed(min(a.games, 300), a.players)
    print(f"random play, {a.players} players: {gps:.0f} games/s ({apg:.0f} actions per game)")
    if not a.speed_only:
        print(win_rate(a.games, a.players))
