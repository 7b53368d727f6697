"""Flat Monte-Carlo: the floor any search must clear (issue #27 measures `hard` against it).

Each legal move in turn (round-robin, so every move gets the same share of the budget) is played
in a fresh determinization and the game is played out by the same policy as `hard`'s playouts;
the move with the best mean wins. No tree: the seat's later moves are the heuristic's.
"""
from __future__ import annotations


from ..core import Action, Game
from ..rng import Rng
from .ismcts import SearchResult
from .policy import Settings, playout


def flat_monte_carlo(game: Game, state, seat: int, legal: list[Action], rng: Rng, budget,
                     settings: Settings) -> SearchResult:
    clock = budget.clock
    start = clock() if clock is not None else 0.0
    deadline = None if budget.budget_ms is None or clock is None else start + budget.budget_ms / 1000.0
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    iterations = steps = 0
    while True:
        if budget.iterations is not None and iterations >= budget.iterations:
            break
        if deadline is not None and iterations and clock is not None and clock() >= deadline:
            break
        i = iterations % len(legal)
        world = game.determinize(state, seat, Rng(rng.next64()))
        prng = Rng(rng.next64())
        game.apply_in_place(world, seat, legal[i])
        reward, played = playout(game, world, seat, 1_000_000, prng, settings)
        totals[i] += reward
        steps += played + 1
        counts[i] += 1
        iterations += 1
    means = [t / c if c else 0.0 for t, c in zip(totals, counts)]
    best = max(range(len(legal)), key=lambda i: (means[i], counts[i]))
    return SearchResult(action=legal[best], iterations=iterations, states=steps, win_chance=means[best],
                        seconds=(clock() - start) if clock is not None else 0.0)
