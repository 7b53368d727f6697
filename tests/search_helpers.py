"""Where hard's paired playouts stop, for the games searched by `Settings.paired` (politics-1952,
politics-trivia): shared by their AI tests."""
from __future__ import annotations

from collections.abc import Iterator

from engines import Seat
from engines.core import Game
from engines.rng import Rng
from engines.search.paired import until_my_turn
from engines.search.policy import Settings, mover, policy_step, run_timer


def policy_game(game: Game, players: int, seed: int, steps: int, settings: Settings) -> Iterator[tuple]:
    """A game every seat plays by the search's rollout policy (timers fire at once): yields
    (state, who moves next, moves so far) before each move."""
    state = game.setup([Seat(name=f"P{i + 1}", bot=True) for i in range(players)], game.options({}), seed)
    for moves in range(steps):
        if game.result(state).finished:
            return
        who = mover(game, state, 0)
        if who is None:
            assert run_timer(game, state)
            continue
        yield state, who, moves
        policy_step(game, state, who, moves, Rng(seed + moves), settings)


def playout_end(game: Game, state, who: int, seed: int, settings: Settings):
    """The world where hard's paired playout of `who`'s policy move from `state` stops: drawn from
    `who`'s view, played on at its table's horizon (`Settings.horizon_of`)."""
    world = game.determinize(state, who, Rng(seed))
    policy_step(game, world, who, 10**6, Rng(seed + 1), settings)
    until_my_turn(game, world, who, Rng(seed + 3), settings, settings.horizon_of(game, world))
    return world
