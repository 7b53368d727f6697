"""The levels and the one function that picks a move at a level."""
from __future__ import annotations

from collections.abc import Callable

from ..core import Action, Game, RuleError
from ..rng import Rng
from .budget import SearchBudget
from .flat import flat_monte_carlo
from .ismcts import ismcts
from .policy import rollout_settings

LOBBY_LEVELS = ("easy", "normal", "hard")  # what a lobby offers
LEVELS = LOBBY_LEVELS + ("flat", "random")  # plus the yardsticks of `simulate --levels`

# How often `easy` plays a random legal move instead of the heuristic's (per game: a game where a
# random move is rarely a blunder needs more of them before it plays like a beginner).
EASY_SLIPS = {"primary-general": 0.5, "us-president": 0.5, "politics-1952": 0.5,
              "race-white-house": 0.4, "politics-trivia": 0.25}


def hard_searches(game: Game) -> bool:
    """Whether `hard` searches in this game; where no search has yet measured stronger than the
    heuristic it plays normal's move, and the lobby and the board say so."""
    return rollout_settings(game).search


def choose(game: Game, state, seat: int, level: str, rng: Rng, budget_ms: float | None = None,
           iterations: int | None = None, clock: Callable[[], float] | None = None) -> Action:
    """The move of an AI seat at `level`. `rng` is the decision's own stream (the bot passes
    `game.ai_rng(state, seat, moves)`); with `iterations` the move depends on nothing else, so a
    replay or a test gets the same move; with `budget_ms` (default 1000 when neither is given) it
    stops when `clock` says the time is up."""
    began = clock() if clock is not None else None  # the budget is the whole move's, not the search's
    if level == "normal":
        return game.ai_action(state, seat, rng)
    legal = game.legal_actions(state, seat)
    if not legal:
        raise RuleError("There is nothing to do right now.")
    fixed = game.ai_fixed_action(state, seat, rng)
    if fixed is not None:  # knowledge, not play (a trivia answer): every level alike
        return fixed
    if level == "random":
        return legal[rng.below(len(legal))]
    if level == "easy":
        if len(legal) > 1 and rng.random() < EASY_SLIPS.get(game.id, 0.5):
            fair = game.fair_random_action(state, seat, rng.random)
            return fair if fair is not None else legal[rng.below(len(legal))]
        return game.ai_action(state, seat, rng)
    if len(legal) == 1:
        return legal[0]
    budget = SearchBudget(iterations, budget_ms, clock, began).resolved()
    settings = rollout_settings(game)
    if level == "hard":
        if not settings.search:  # a game whose search measured weaker than its heuristic: normal's move
            return game.ai_action(state, seat, rng)
        return ismcts(game, state, seat, legal, rng, budget, settings).action
    if level == "flat":
        return flat_monte_carlo(game, state, seat, legal, rng, budget, settings).action
    raise RuleError(f"There is no AI level '{level[:20]}'; levels are: {', '.join(LEVELS)}.")


def suggest(game: Game, state, seat: int, rng: Rng, budget_ms: float | None = None, iterations: int | None = None,
            clock: Callable[[], float] | None = None) -> tuple[Action, float | None]:
    """A hint for `seat` (`/politics hint`): `hard`'s move from that seat's view only, with its
    estimated chance to win (None where the move is not searched: an answer, a forced move)."""
    began = clock() if clock is not None else None
    legal = game.legal_actions(state, seat)
    if not legal:
        raise RuleError("There is nothing to do right now.")
    fixed = game.ai_fixed_action(state, seat, rng)
    if fixed is not None:
        return fixed, None
    if len(legal) == 1:
        return legal[0], None
    result = ismcts(game, state, seat, legal, rng, SearchBudget(iterations, budget_ms, clock, began).resolved(),
                    rollout_settings(game), report=True)
    return result.action, result.win_chance
