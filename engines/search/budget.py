"""A search's budget, and the stopwatch that keeps a move within it."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEFAULT_BUDGET_MS = 1000
ITERATION_SPREAD = 2.0  # the next iteration is guessed at this many times the mean so far


@dataclass(frozen=True)
class SearchBudget:
    """Iterations make a move replayable (tests, simulations); milliseconds bound a move's time,
    read from `clock` (engines read no clock of their own: the caller hands one in, e.g.
    time.perf_counter). Both: whichever runs out first."""
    iterations: int | None = None
    budget_ms: float | None = None
    clock: Callable[[], float] | None = None
    started: float | None = None  # when the move began (the clock's reading); None: when the search does

    def resolved(self) -> SearchBudget:
        budget = self
        if budget.iterations is None and budget.budget_ms is None:
            budget = SearchBudget(budget_ms=DEFAULT_BUDGET_MS, clock=budget.clock, started=budget.started)
        if budget.iterations is None and budget.clock is None:
            raise ValueError("A search with a time budget needs a clock (e.g. time.perf_counter).")
        return budget


class Stopwatch:
    """The time side of a budget. A search asks `out_of_time(done)` before each iteration (or round
    of playouts) and stops when the next one would likely end past the deadline: when twice the mean
    of those done so far would cross it (iterations vary: a race-white-house playout's length does).
    A move's time then stays within its budget, counted from when the move began
    (`SearchBudget.started`), where stopping only once the deadline had passed let the last
    iteration overshoot it (by 50 ms at the 99th percentile of six-player us-president moves). With
    no time budget it never stops a search."""

    def __init__(self, budget: SearchBudget):
        self.clock = budget.clock
        now = self.clock() if self.clock is not None else 0.0
        self.start = budget.started if budget.started is not None and self.clock is not None else now
        self.deadline = None if budget.budget_ms is None or self.clock is None \
            else self.start + budget.budget_ms / 1000.0

    def out_of_time(self, done: int) -> bool:
        if self.deadline is None or self.clock is None or not done:
            return False
        now = self.clock()
        return now + ITERATION_SPREAD * (now - self.start) / done >= self.deadline

    def seconds(self) -> float:
        return self.clock() - self.start if self.clock is not None else 0.0
