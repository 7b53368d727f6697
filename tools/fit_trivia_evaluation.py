"""Fit politics-trivia's playout yardstick (engines/politics_trivia/evaluation.py WEIGHTS) again.

    python tools/fit_trivia_evaluation.py                     # seeds 20000-20399, held out 10000-10199
    python tools/fit_trivia_evaluation.py --train 20000-20099 --held 10000-10049

Why here: the weights are the search's whole idea of a good board, and a figure in the docs should
come from a command. Samples are taken where the search judges a playout, at the start of a seat's own
turn (`Game.ai_stops_here`), in 2-player games played by the search's own rollout policy (the normal
AI, `engines.search.policy.policy_step`), from both seats' side: `Standing.features()` of that seat's
view, labelled 1 if it won (1/2 on a shared win). A logistic regression (Newton's method, no intercept:
every feature is a lead, so the two seats' chances add up to one) is fitted on `--train` and scored on
`--held` by log-loss and how often it calls the winner, beside today's WEIGHTS. About a minute a core
for the default seeds. Pure Python, so it runs in the project's own environment.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engines.core import Seat  # noqa: E402
from engines.politics_trivia import GAME, evaluation  # noqa: E402
from engines.rng import Rng  # noqa: E402
from engines.search.policy import mover, policy_step, rollout_settings, run_timer  # noqa: E402

Sample = tuple[list[float], float]
MOVE_CAP = 20000  # a guard: a 2-player game ends long before


def samples(seeds: range) -> list[Sample]:
    game = GAME
    settings = rollout_settings(game)
    out: list[Sample] = []
    for seed in seeds:
        state = game.setup([Seat(name=f"P{i + 1}", bot=True) for i in range(2)], game.options({}), seed)
        taken: list[tuple[int, list[float]]] = []
        moves = 0
        while not game.result(state).finished and moves < MOVE_CAP:
            who = mover(game, state, 0)
            if who is None:
                if not run_timer(game, state):
                    break
                moves += 1
                continue
            if game.ai_stops_here(state, who):
                board = evaluation.standing(game.view(state, who), who)
                if board is not None:
                    taken.append((who, board.features()))
            policy_step(game, state, who, moves, Rng(seed * 7919 + moves), settings)
            moves += 1
        winners = game.result(state).winners
        out += [(features, 1.0 / len(winners) if seat in winners else 0.0) for seat, features in taken]
    return out


def _chance(weights: list[float] | tuple[float, ...], features: list[float]) -> float:
    x = sum(w * f for w, f in zip(weights, features))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def fit(data: list[Sample], iterations: int = 30) -> list[float]:
    """Maximum likelihood by Newton's method, with a whisker of ridge so the step always solves."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in data:
            p = _chance(w, x)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def score(weights: list[float] | tuple[float, ...], data: list[Sample]) -> tuple[float, float]:
    """(log-loss, share of samples whose winner the sign of the score calls)."""
    loss = called = 0.0
    for x, y in data:
        p = min(max(_chance(weights, x), 1e-9), 1 - 1e-9)
        loss -= y * math.log(p) + (1 - y) * math.log(1 - p)
        called += (p > 0.5) == (y > 0.5)
    return loss / len(data), called / len(data)


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", default="20000-20399", help="seeds to fit on, FIRST-LAST")
    parser.add_argument("--held", default="10000-10199", help="seeds to score on, FIRST-LAST")
    args = parser.parse_args(argv)
    train, held = samples(_seeds(args.train)), samples(_seeds(args.held))
    weights = fit(train)
    print(f"samples: {len(train):,} to fit (seeds {args.train}), {len(held):,} held out (seeds {args.held})")
    for name, w in (("fitted", weights), ("today's WEIGHTS", evaluation.WEIGHTS)):
        loss, called = score(w, held)
        print(f"{name:16s} held-out log-loss {loss:.4f}, winner called {100 * called:.1f} %, "
              f"weights ({', '.join(f'{v:.3f}' for v in w)})")


if __name__ == "__main__":
    main()
