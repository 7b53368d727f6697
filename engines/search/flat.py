"""Flat Monte-Carlo: the floor any search must clear (issue #27 measures `hard` against it).

Each legal move in turn (round-robin, so every move gets the same share of the budget) is played
in a fresh determinization and the game is played out by the same policy as `hard`'s playouts;
the move with the best mean wins. No tree: the seat's later moves are the heuristic's.
"""
from __future__ import annotations


from ..core import Action, Game
from ..rng import Rng
from .budget import Stopwatch
from .ismcts import SearchResult
from .policy import Settings, playout


def flat_monte_carlo(game: Game, state, seat: int, legal: list[Action], rng: Rng, budget,
                     settings: Settings) -> SearchResult:
    watch = Stopwatch(budget)
    totals = [0.0] * len(legal)
    counts = [0] * len(legal)
    iterations = steps = 0
    while True:
        if budget.iterations is not None and iterations >= budget.iterations:
            break
        if watch.out_of_time(iterations):
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
                        seconds=watch.seconds())
