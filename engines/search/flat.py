"""Flat Monte-Carlo: the floor any search must clear (issue #27 measures `hard` against it).

Each legal move in turn (round-robin, so every move gets the same share of the budget) is played
in a fresh determinization and the game is played out by the same policy as `hard`'s playouts;
the move with the best mean wins. No tree: the seat's later moves are the heuristic's.
"""
from __future__ import annotations

import math

from ..core import Action, Game
from ..rng import Rng
from .ismcts import SearchResult
from .policy import Settings, mover, playout, policy_action, run_timer, value


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


def paired_search(game: Game, state, seat: int, legal: list[Action], rng: Rng, budget,
                  settings: Settings) -> SearchResult:
    """`hard` where the dice are loud (`Settings.paired`): a flat search over the heuristic's
    shortlist with common random numbers. Each round draws one world (`Game.determinize`, so the
    rivals' hands and every future throw are redrawn) and plays *every* shortlisted move in a copy
    of that same world, so sibling moves meet the same dice and are compared on their difference,
    not on their luck. A playout goes on by the heuristic until the searching seat is to move again
    after `settings.horizon` rivals' turns (or the game ends) and is scored by `Game.ai_evaluate`.
    The heuristic's own move (the shortlist's first) is left only for one whose paired gain over
    it is `settings.margin` standard errors clear of zero, so a small budget keeps the heuristic's
    move unless another proves better. One round costs one playout per shortlisted move; an
    iteration budget counts playouts."""
    from .ismcts import candidates  # ismcts imports this module's caller: import here, not at the top
    clock = budget.clock
    start = clock() if clock is not None else 0.0
    deadline = None if budget.budget_ms is None or clock is None else start + budget.budget_ms / 1000.0
    options = candidates(game, state, seat, Rng(rng.next64()), legal)
    if settings.shortlist:
        options = options[:settings.shortlist]
    if len(options) == 1:
        return SearchResult(action=options[0], iterations=0, states=0, win_chance=value(game, state, seat),
                            seconds=0.0)
    k = len(options)
    totals = [0.0] * k
    diffs = [0.0] * k    # sum of (option's value - the heuristic's) over the rounds
    squares = [0.0] * k  # sum of their squares, for the standard error
    rounds = playouts = steps = 0
    while True:
        if budget.iterations is not None and playouts + k > budget.iterations and rounds:
            break
        if deadline is not None and rounds and clock is not None and clock() >= deadline:
            break
        world_seed, policy_seed = rng.next64(), rng.next64()
        values = []
        for action in options:
            world = game.determinize(state, seat, Rng(world_seed))
            game.apply_in_place(world, seat, action)
            reward, played = _until_my_turn(game, world, seat, Rng(policy_seed), settings)
            values.append(reward)
            steps += played + 1
        for i, v in enumerate(values):
            totals[i] += v
            d = v - values[0]
            diffs[i] += d
            squares[i] += d * d
        rounds += 1
        playouts += k
    best = 0
    best_gain = 0.0
    for i in range(1, k):
        mean = diffs[i] / rounds
        var = max(0.0, squares[i] / rounds - mean * mean)
        se = math.sqrt(var / max(1, rounds - 1)) if rounds > 1 else float("inf")
        if mean > settings.margin * se and mean > best_gain:
            best, best_gain = i, mean
    return SearchResult(action=options[best], iterations=playouts, states=steps, win_chance=totals[best] / rounds,
                        seconds=(clock() - start) if clock is not None else 0.0,
                        visits={a.text(): float(rounds) for a in options})


def _until_my_turn(game: Game, world, seat: int, rng: Rng, settings: Settings) -> tuple[float, int]:
    """Play `world` on by the policy until `seat` is to move again after `settings.horizon` spells of
    other seats moving (or the game ends, or `settings.max_moves`); `seat`'s value there."""
    spells = steps = 0
    others_moving = False
    limit = settings.max_moves or 2_000
    while not game.result(world).finished and steps < limit:
        who = mover(game, world, seat)
        if who is None:
            if not run_timer(game, world):
                break
        else:
            if who != seat:
                others_moving = True
            elif others_moving:
                spells += 1
                others_moving = False
                if spells >= settings.horizon:
                    break
            action = policy_action(game, world, who, 1_000_000 + steps, rng, settings)
            if action is None:
                if not run_timer(game, world, stuck=who):
                    break
            else:
                game.apply_in_place(world, who, action)
        steps += 1
    return value(game, world, seat), steps
