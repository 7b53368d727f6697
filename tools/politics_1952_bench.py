"""Random-play speed and AI-vs-random win rate for Politics (1952), through the
engine only (bot.simulate.play_one drives the game).

    .venv/bin/python tools/politics_1952_bench.py [--games N] [--players K] [--speed-only]
"""
from __future__ import annotations

import argparse
import time

from bot.simulate import play_one
from engines.politics_1952 import GAME


def speed(games: int, players: int, repeats: int = 3) -> tuple[float, float]:
    """Best games/s of a few runs (CPU time: the machines are shared) and actions per game."""
    best, per_game = 0.0, 0.0
    for _ in range(repeats):
        start = time.process_time()
        total = sum(play_one(GAME, players, i, set())[1] for i in range(games))
        best = max(best, games / (time.process_time() - start))
        per_game = total / games
    return best, per_game


def win_rate(games: int, players: int, options: dict | None = None) -> dict:
    """The AI sits at a rotating seat; everyone else plays uniformly at random."""
    ai_wins = 0
    for i in range(games):
        ai = i % players
        state, _ = play_one(GAME, players, 10_000 + i, {ai}, options)
        if GAME.result(state).winners == [ai]:
            ai_wins += 1
    return {"games": games, "players": players, "ai_win_rate": ai_wins / games, "fair_share": 1 / players}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--speed-only", action="store_true")
    a = p.parse_args()
    gps, apg = speed(min(a.games, 100), a.players)
    print(f"random play, {a.players} players: {gps:.0f} games/s ({apg:.0f} actions per game)")
    if not a.speed_only:
        print(win_rate(a.games, a.players))
