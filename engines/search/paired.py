"""`hard` where the dice are loud (`Settings.paired`: politics-1952, politics-trivia): a flat search
over the heuristic's shortlist with common random numbers.

Each round draws one world (`Game.determinize`, so the rivals' hands and every future throw are
redrawn) and plays *every* shortlisted move in a copy of that same world, so sibling moves meet the
same dice and are compared on their difference, not on their luck. A playout goes on by the
heuristic until the searching seat is to move again after `settings.horizon` spells of rivals'
turns, at a point where the game lets a playout stop (`Game.ai_stops_here`), or the game ends, and
is scored by `Game.ai_evaluate`; at a large table (`Settings.large_table`) it stops sooner, where the
first rival's own turn starts, so many rivals' dice do not drown the move's difference; head to
head (`Settings.two_seat_horizon`) it can run longer, through more of the one rival's turns.
The heuristic's own move (the shortlist's first) is left only for one whose paired gain over it is
`settings.margin` standard errors clear of zero, so a small budget keeps the heuristic's move unless
another proves better.
One round costs one playout per shortlisted move; an iteration budget counts playouts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import Action, Game
from ..rng import Rng
from .budget import SearchBudget, Stopwatch
from .policy import Settings, mover, policy_step, reported, run_timer, value


@dataclass
class PairedTally:
    """The rounds' sums per shortlisted move: its values, its differences from the first's, and (for a
    hint) the chances to win a player is shown (`policy.reported`)."""
    moves: int
    rounds: int = 0
    playouts: int = 0
    states: int = 0  # states stepped, the speed figure
    seconds: float = 0.0
    totals: list[float] = field(default_factory=list)
    diffs: list[float] = field(default_factory=list)
    squares: list[float] = field(default_factory=list)
    chances: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.totals = [0.0] * self.moves
        self.diffs = [0.0] * self.moves
        self.squares = [0.0] * self.moves
        self.chances = [0.0] * self.moves

    def add(self, values: list[float]) -> None:
        for i, v in enumerate(values):
            d = v - values[0]
            self.totals[i] += v
            self.diffs[i] += d
            self.squares[i] += d * d
        self.rounds += 1

    def gain(self, i: int) -> float:
        """Move i's mean gain over the first (the heuristic's) in the same worlds."""
        return self.diffs[i] / self.rounds if self.rounds else 0.0

    def error(self, i: int) -> float:
        """The standard error of that gain (infinite before two rounds)."""
        if self.rounds < 2:
            return math.inf
        mean = self.gain(i)
        var = max(0.0, self.squares[i] / self.rounds - mean * mean)
        return math.sqrt(var / (self.rounds - 1))

    def choice(self, margin: float) -> int:
        """The move to play: the one with the largest gain among those `margin` standard errors
        clear of zero, else the first."""
        best, best_gain = 0, 0.0
        for i in range(1, self.moves):
            gain = self.gain(i)
            if gain > margin * self.error(i) and gain > best_gain:
                best, best_gain = i, gain
        return best


def weigh(game: Game, state, seat: int, options: list[Action], rng: Rng, budget: SearchBudget,
          settings: Settings, report: bool = False) -> PairedTally:
    """Play rounds of `options` in common worlds until the budget is spent (at least one round); with
    `report`, also sum each playout's chance to win as a player is shown it (a hint)."""
    watch = Stopwatch(budget)
    k = len(options)
    horizon = settings.horizon_of(game, state)
    tally = PairedTally(moves=k)
    while True:
        if budget.iterations is not None and tally.playouts + k > budget.iterations and tally.rounds:
            break
        if watch.out_of_time(tally.rounds):
            break
        world_seed, policy_seed = rng.next64(), rng.next64()
        values = []
        for i, action in enumerate(options):
            world = game.determinize(state, seat, Rng(world_seed))
            game.apply_in_place(world, seat, action)
            reward, played = until_my_turn(game, world, seat, Rng(policy_seed), settings, horizon)
            values.append(reward)
            if report:  # `world` is where the playout ended
                tally.chances[i] += reported(game, world, seat)
            tally.states += played + 1
        tally.add(values)
        tally.playouts += k
    tally.seconds = watch.seconds()
    return tally


def until_my_turn(game: Game, world, seat: int, rng: Rng, settings: Settings,
                  horizon: int | None = None) -> tuple[float, int]:
    """Play `world` on by the policy until `seat` is to move again after `horizon` (default
    `settings.horizon`) spells of other seats moving, where `Game.ai_stops_here` allows (or the game
    ends, or `settings.max_moves`); `seat`'s value there. A move of `seat`'s inside a rival's spell
    (where the game does not stop) leaves the spell running. Horizon 0 stops where the first rival
    is to move at a point the game lets a search stop for that rival (the start of its own turn):
    the searched move's own turn is played out, and the board judged before any rival answers it."""
    if horizon is None:
        horizon = settings.horizon
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
                if horizon == 0 and game.ai_stops_here(world, who):
                    break
                others_moving = True
            elif others_moving and game.ai_stops_here(world, seat):
                spells += 1
                others_moving = False
                if spells >= horizon:
                    break
            if not policy_step(game, world, who, 1_000_000 + steps, rng, settings):
                break
        steps += 1
    return value(game, world, seat), steps
