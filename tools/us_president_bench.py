"""Random-play speed and AI-vs-random win rate for U.S. President, using only the engine.

    .venv/bin/python tools/us_president_bench.py [--games N] [--players K]
"""
from __future__ import annotations

import argparse
import time

from engines.core import Seat
from engines.rng import Rng
from engines.us_president import GAME


def play(seed: int, players: int, ai_seats: frozenset[int] = frozenset(), options: dict | None = None):
    seats = [Seat(name=f"P{i + 1}", bot=True) for i in range(players)]
    state = GAME.setup(seats, GAME.options(options or {}), seed)
    rng = Rng(seed ^ 0x5EED)
    while not GAME.result(state).finished:
        acting = GAME.to_act(state)
        seat = acting[rng.below(len(acting))]
        if seat in ai_seats:
            action = GAME.ai_action(state, seat, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.below(len(legal))]
        GAME.apply_in_place(state, seat, action)
    return state


def speed(games: int, players: int) -> float:
    start = time.perf_counter()
    for i in range(games):
        play(i, players)
    return games / (time.perf_counter() - start)


def win_rate(games: int, players: int, options: dict | None = None) -> dict:
    """The AI sits at a rotating seat; everyone else plays uniformly at random."""
    ai_wins = random_wins = no_winner = 0
    for i in range(games):
        ai = i % players
        state = play(10_000 + i, players, frozenset({ai}), options)
        res = GAME.result(state)
        if not res.winners:
            no_winner += 1
        elif res.winners[0] == ai:
            ai_wins += 1
        else:
            random_wins += 1
    return {"games": games, "players": players, "ai_win_rate": ai_wins / games,
            "random_seat_win_rate": random_wins / games / (players - 1), "no_winner": no_winner / games}


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deal", default="equal")
    a = p.parse_args()
    print(f"random games/s ({a.players} players): {speed(a.games, a.players):.0f}")
    print(win_rate(a.games, a.players, {"deal": a.deal}))
