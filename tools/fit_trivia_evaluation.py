"""Fit politics-trivia's judgements of a board again: the search's WEIGHTS and the hint's WEIGHTS_MANY.

    python tools/fit_trivia_evaluation.py                  # 2 players, seeds 20000-20399, held 10000-10199
    python tools/fit_trivia_evaluation.py --players 3-8    # 3 to 8, seeds 30000-30599, held 31000-31299
    python tools/fit_trivia_evaluation.py --train 20000-20099 --held 10000-10049

Why here: the weights are the search's whole idea of a good board (engines/politics_trivia/evaluation.py
WEIGHTS, fitted at two players) and what a hint tells a player at a larger table (forecast.py
WEIGHTS_MANY), and a figure in the docs should come from a command. Both are one model, a candidate's
share of the table (forecast.py): at two players its fit is WEIGHTS with the last weight halved
(`forecast.WEIGHTS_TWO`, each candidate's own Popular-Vote lead where WEIGHTS read the seat's). Samples
are taken where the search judges a playout, at the start of a seat's own turn (`Game.ai_stops_here`),
in games played by the search's own rollout policy (the normal AI, `engines.search.policy.policy_step`):
every candidate's `Side.features` read from the mover's view, labelled by who won (a shared win shares
the label). With `--players LO-HI` seed s plays at LO + s mod (HI - LO + 1) seats, and a board counts
only while as many candidates are in as the weights are fitted for (two, or three and more). A
multinomial logit (Newton's method; no intercept, so equal candidates get equal shares) is fitted on
`--train` and scored on `--held` by log-loss and how often its favourite won, beside today's weights and
equal shares; with --players 3-8 also by how many candidates are in, beside the two-candidate WEIGHTS. A
few minutes a core. Pure Python, so it runs in the project's own environment.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engines.core import Seat  # noqa: E402
from engines.politics_trivia import GAME, forecast  # noqa: E402
from engines.rng import Rng  # noqa: E402
from engines.search.policy import mover, policy_step, rollout_settings, run_timer  # noqa: E402

Sample = tuple[list[list[float]], list[float]]  # every candidate's features, and its share of the win
MOVE_CAP = 60000  # a guard: an eight-player game ends long before


def samples(seeds: range, players: tuple[int, int] = (2, 2)) -> list[Sample]:
    game = GAME
    settings = rollout_settings(game)
    low, high = players
    out: list[Sample] = []
    for seed in seeds:
        n = low + seed % (high - low + 1)
        state = game.setup([Seat(name=f"P{i + 1}", bot=True) for i in range(n)], game.options({}), seed)
        taken: list[tuple[list[int], list[list[float]]]] = []
        moves = 0
        while not game.result(state).finished and moves < MOVE_CAP:
            who = mover(game, state, 0)
            if who is None:
                if not run_timer(game, state):
                    break
                moves += 1
                continue
            if game.ai_stops_here(state, who):
                seats, rows = forecast.table_features(game.view(state, who))
                if (len(rows) > 2) == (low > 2) and len(rows) > 1:
                    taken.append((seats, rows))
            policy_step(game, state, who, moves, Rng(seed * 7919 + moves), settings)
            moves += 1
        winners = game.result(state).winners
        for seats, rows in taken:
            won = [s in winners for s in seats]
            if any(won):  # a winner who was out of this board's count cannot label it
                out.append((rows, [w / sum(won) for w in won]))
    return out


def fit(data: list[Sample], iterations: int = 30) -> list[float]:
    """Maximum likelihood by Newton's method, with a whisker of ridge so the step always solves."""
    k = len(data[0][0][0])
    w = [0.0] * k
    for _ in range(iterations):
        grad = [0.0] * k
        hess = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for rows, y in data:
            p = forecast.shares(rows, w)
            mean = [sum(pj * row[i] for pj, row in zip(p, rows)) for i in range(k)]
            for pj, yj, row in zip(p, y, rows):
                d = [row[i] - mean[i] for i in range(k)]
                for i in range(k):
                    grad[i] += (yj - pj) * row[i]
                    for j in range(k):
                        hess[i][j] += pj * d[i] * d[j]
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
    """(log-loss, share of samples whose favourite won): at two candidates, the binary log-loss."""
    loss = called = 0.0
    for rows, y in data:
        p = forecast.shares(rows, weights)
        loss -= sum(yj * math.log(max(pj, 1e-12)) for pj, yj in zip(p, y))
        called += y[max(range(len(p)), key=p.__getitem__)] > 0
    return loss / len(data), called / len(data)


def _range(text: str) -> tuple[int, int]:
    first, _, last = text.partition("-")
    return int(first), int(last or first)


def _seeds(text: str) -> range:
    first, last = _range(text)
    return range(first, last + 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", default="2", help="table sizes, LO-HI: 2 fits WEIGHTS, 3-8 WEIGHTS_MANY")
    parser.add_argument("--train", help="seeds to fit on, FIRST-LAST (20000-20399 at 2, else 30000-30599)")
    parser.add_argument("--held", help="seeds to score on, FIRST-LAST (10000-10199 at 2, else 31000-31299)")
    args = parser.parse_args(argv)
    players = _range(args.players)
    many = players[0] > 2
    train_seeds = args.train or ("30000-30599" if many else "20000-20399")
    held_seeds = args.held or ("31000-31299" if many else "10000-10199")
    train, held = samples(_seeds(train_seeds), players), samples(_seeds(held_seeds), players)
    weights = fit(train)
    today = ("WEIGHTS_MANY", forecast.WEIGHTS_MANY) if many else ("WEIGHTS", forecast.WEIGHTS_TWO)
    print(f"samples: {len(train):,} to fit (seeds {train_seeds}), {len(held):,} held out (seeds {held_seeds}), "
          f"{args.players} players")
    for name, w in (("fitted", weights), (f"today's {today[0]}", today[1]), ("equal shares", [0.0] * len(weights))):
        loss, called = score(w, held)
        favourite = f"favourite won {100 * called:.1f} %" if any(w) else "no favourite"
        print(f"{name:20s} held-out log-loss {loss:.4f}, {favourite}, weights ({', '.join(f'{v:.4f}' for v in w)})")
    if many:  # the two-candidate weights read as a share: what the search's judgement would say
        loss, called = score(forecast.WEIGHTS_TWO, held)
        print(f"{'WEIGHTS as a share':20s} held-out log-loss {loss:.4f}, favourite won {100 * called:.1f} %")
    for size in sorted({len(rows) for rows, _ in held}) if many else ():
        boards = [sample for sample in held if len(sample[0]) == size]
        losses = ", ".join(f"{name} {score(w, boards)[0]:.4f}" for name, w in (("fitted", weights),
                                                                               ("WEIGHTS", forecast.WEIGHTS_TWO)))
        print(f"  {size} candidates in: {len(boards):,} held-out boards, log-loss {losses}, equal {math.log(size):.4f}")


if __name__ == "__main__":
    main()
