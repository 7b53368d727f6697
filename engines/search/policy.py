"""Playing a determinized state forward: whose move, the rollout policy, and the value of an end.

Every seat in a playout (the searching one outside its tree, and all the others) moves as the
game's own heuristic does, with a small chance of a random legal move so the playouts do not all
repeat one line; answers (`Game.ai_fixed_action`) always go through the heuristic's answer policy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..core import SYSTEM, Action, Game
from ..rng import Rng


@dataclass(frozen=True)
class Settings:
    exploration: float = 0.7        # UCB's constant (rewards are in [0, 1])
    epsilon: float = 0.1            # chance that a playout move is random instead of the heuristic's
    max_moves: int | None = None    # playout length before it is scored by `evaluate` (None: to the end)
    prior_visits: float = 2.0       # the candidate list's first starts with this many visits worth its first result
    widen: float = 0.0              # progressive widening: children allowed = 1 + widen * visits**0.5 (0: all)
    search: bool = True             # False: hard plays the heuristic's move (where its search measured weaker)
    # paired: hard is ismcts.paired_search (common random numbers over the shortlist) instead of the tree
    paired: bool = False
    shortlist: int = 0              # paired: weigh at most this many of the shortlist (0: all)
    horizon: int = 1                # paired: playouts stop when the seat is to move after this many rivals' turns
                                    # (0: where the first rival's own turn starts, as `Game.ai_stops_here` says)
    large_table: int = 0            # paired: at a table of this many seats or more the horizon is 0 (0: never)
    two_seat_horizon: int = 0       # paired: the horizon at a table of two seats (0: `horizon`)
    margin: float = 2.0             # paired: leave the heuristic's move only for a gain this many std errors clear
    common_worlds: bool = False     # root moves are compared on common random worlds: each one's k-th visit
                                    # plays in the same determinization and playout stream (ismcts.py)

    def horizon_at(self, seats: int) -> int:
        """The paired search's horizon at a table of `seats`: at a large table a playout that runs
        through every rival's turn drowns the searched move in their dice and answers; head to head,
        a longer one can pay (politics-trivia)."""
        if self.large_table and seats >= self.large_table:
            return 0
        if self.two_seat_horizon and seats == 2:
            return self.two_seat_horizon
        return self.horizon

    def horizon_of(self, game: Game, state) -> int:
        """`horizon_at` the table of `state` (its seats, counted through `Game.teams`)."""
        if not self.large_table and not self.two_seat_horizon:
            return self.horizon
        return self.horizon_at(sum(len(team) for team in game.teams(state)))


# Per game: where a full playout would leave a move only a few of them, playouts are cut short and
# scored by `evaluate`; where the dice or the answers are loud, the search is flat and paired and leaves
# the heuristic's move only for a gain clear of its error. What each setting measured, and what was
# tried instead, is in the game's doc (docs/games/<game>.md, "AI levels", and its dated sections).
SETTINGS: dict[str, Settings] = {
    # politics-trivia: paired, because a tree of a few dozen playouts could not tell moves apart when a
    # question is answered right only 65 % of the time. Margin 1 picks better than 2 (tools/screen_search.py,
    # then +1.1 points in games). Head to head a playout looks through two of the rival's turns (+4.7
    # points over one); larger tables keep one: at eight nothing tried (sooner, later, two rounds, the
    # board as a share of the table) found an edge, and horizon 2 cost playouts for no gain.
    # politics-1952: paired, because the dice drowned the tree's estimates. At six seats a playout through
    # five rivals' throws drowned one county's difference, so it stops where the next rival is to throw
    # (large_table: +9.1 points over normal's move). Two seats keep horizon 1: screened against a reference
    # that judges the board four rival turns on, horizon 2 picked worse.
    "politics-trivia": Settings(max_moves=200, epsilon=0.0, paired=True, shortlist=8, horizon=1, margin=1.0,
                                two_seat_horizon=2),
    "politics-1952": Settings(max_moves=200, epsilon=0.0, paired=True, shortlist=8, horizon=1, margin=2.0,
                              large_table=6),
    # race-white-house: a tree that widens through the heuristic's order, its root moves compared in common
    # random worlds; playouts of 30 moves at every table size (60 at four seats, as many of the seat's own
    # turns as at two, did no better).
    "race-white-house": Settings(max_moves=30, widen=1.0, exploration=0.5, epsilon=0.0, common_worlds=True),
}


def rollout_settings(game: Game) -> Settings:
    return SETTINGS.get(game.id, Settings())


def mover(game: Game, state, seat: int) -> int | None:
    """The seat to move next in a playout: the searching seat when it is among those who may act
    (simultaneous picks), else the first one; None when only a timer can move the game."""
    acting = [s for s in game.to_act(state) if s != SYSTEM]
    if not acting:
        return None
    return seat if seat in acting else acting[0]


def run_timer(game: Game, state, stuck: int | None = None) -> bool:
    """Let the game's timer fire (nobody answers in time); False when there is none."""
    timer = game.timer(state)
    if timer is None:
        return False
    who = timer.seat if timer.seat != stuck else SYSTEM
    game.apply_in_place(state, who, game.parse_action(timer.action_text))
    return True


def policy_action(game: Game, state, who: int, moves: int, rng: Rng, settings: Settings) -> Action | None:
    ai_rng = game.ai_rng(state, who, moves)
    fixed = game.ai_fixed_action(state, who, ai_rng)
    if fixed is not None:
        return fixed
    if settings.epsilon and rng.random() < settings.epsilon:
        legal = game.legal_actions(state, who)
        if not legal:
            return None
        fair = game.fair_random_action(state, who, rng.random)
        return fair if fair is not None else legal[rng.below(len(legal))]
    if not game.legal_actions(state, who):
        return None
    return game.ai_action(state, who, ai_rng)


def policy_step(game: Game, state, who: int, moves: int, rng: Rng, settings: Settings) -> bool:
    """`who` moves by the policy (or, with no move, lets its clock run out); False when neither can."""
    action = policy_action(game, state, who, moves, rng, settings)
    if action is None:
        return run_timer(game, state, stuck=who)
    game.apply_in_place(state, who, action)
    return True


def playout(game: Game, state, seat: int, moves: int, rng: Rng, settings: Settings,
            limit: int = 20_000) -> tuple[float, int]:
    """Play `state` (a determinization, changed in place) forward by the policy; the searching
    seat's value of where it ends, in [0, 1], and the number of moves played."""
    cap = settings.max_moves
    steps = 0
    while not game.result(state).finished:
        if (cap is not None and steps >= cap) or steps >= limit:
            return evaluate(game, state, seat), steps
        who = mover(game, state, seat)
        if who is None:
            if not run_timer(game, state):
                break
        else:
            if not policy_step(game, state, who, moves, rng, settings):
                break
        moves += 1
        steps += 1
    return value(game, state, seat), steps


def value(game: Game, state, seat: int) -> float:
    """`seat`'s value of a playout's end: 1 for a win, shared only with rivals who won too (a tie),
    never with team-mates (`Game.teams`): a party's win is a whole win to its running mate, as
    `evaluate` judges an unfinished board. (Split between team-mates, a won four-player race was worth
    0.5 while a board still in play could score 0.9: the search could prefer that board to a win.)"""
    result = game.result(state)
    if not result.finished:
        return evaluate(game, state, seat)
    if seat not in result.winners:
        return 0.0
    winners = set(result.winners)
    sides = [team for team in game.teams(state) if winners.intersection(team)]
    return 1.0 / max(1, len(sides))


def reported(game: Game, state, seat: int) -> float:
    """`seat`'s chance to win at a playout's end, to show a player: `value`, except that an unfinished
    board is judged by `Game.ai_chance` where the game has one (its `ai_evaluate` ranks, not forecasts)."""
    if not game.result(state).finished:
        shown = game.ai_chance(state, seat)
        if shown is not None:
            return shown
    return value(game, state, seat)


def evaluate(game: Game, state, seat: int) -> float:
    """An unfinished playout's value for `seat`: the game's own judgement of the public board
    (`Game.ai_evaluate`) where it has one, else a logistic of its lead over the best rival in
    the game's public standing (its party's electoral votes in a team game, its own electoral
    votes where the public view shows them, else the result's running scores), 0.5 when there is
    nothing to compare."""
    judged = game.ai_evaluate(state, seat)
    if judged is not None:
        return judged
    view = game.view(state, None)
    players = view.get("players") if isinstance(view, dict) else None
    parties = view.get("parties") if isinstance(view, dict) else None
    if isinstance(parties, dict) and isinstance(players, list) and len(players) > seat and "party" in players[seat]:
        mine = players[seat]["party"]  # a team game: the parties' electoral votes
        names = sorted(parties)
        scores = [float(parties[name].get("ev") or 0) for name in names]
        return _lead_value(scores, names.index(mine), scale=40.0)
    if isinstance(players, list) and players and isinstance(players[0], dict):
        key = next((k for k in ("ev", "electors", "votes", "electoral_votes") if k in players[0]), None)
        if key is not None:
            scores = [float(p.get(key) or 0) for p in players]
            return _lead_value(scores, seat, scale=40.0)
    scores = list(game.result(state).scores)
    if len(scores) > seat:
        return _lead_value(scores, seat, scale=max(1.0, max(abs(x) for x in scores)))
    return 0.5


def _lead_value(scores: list[float], seat: int, scale: float) -> float:
    rivals = [x for i, x in enumerate(scores) if i != seat]
    if not rivals:
        return 0.5
    lead = (scores[seat] - max(rivals)) / scale
    return 1.0 / (1.0 + math.exp(-3.0 * lead))
