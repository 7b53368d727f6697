"""AI levels for every game, over the public engine contract only (no discord, no I/O).

`choose(game, state, seat, level, rng, budget_ms=None, iterations=None)` is the one entry:

* ``easy``   — a beginner (levels.py): the game's heuristic, but now and then a legal move at random.
* ``normal`` — the game's own heuristic, `Game.ai_action` (today's AI).
* ``hard``   — information-set Monte-Carlo tree search (ismcts.py) over determinizations.
* ``flat``   — flat Monte-Carlo (flat.py): the floor any search must clear; for strength tests.
* ``random`` — a uniformly random legal move; for strength tests.

The searches see other seats only through `Game.determinize`: every iteration plays out a state
drawn from what the searching seat has seen, with the random stream replaced.
"""
from __future__ import annotations

from .levels import LEVELS, LOBBY_LEVELS, SearchBudget, choose, hard_searches, suggest  # noqa: F401
