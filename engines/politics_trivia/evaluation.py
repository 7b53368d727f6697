"""How a search judges an unfinished game of Politics: The Game (Game.ai_evaluate).

The rulebook's win is 270 electoral votes *with the most Popular Votes* (else a runoff against the
Popular-Vote leader), and most of a turn trades in what leads there: chips, Popular Votes, the cash
that buys chips and flights, and where a candidate stands for its next roll. So a board's value to
a seat is a logistic of its lead over its best rival in each of those (`Standing.features`), with
WEIGHTS fitted by logistic regression where the search judges a board, at the start of a seat's own
turn (`Game.ai_stops_here`): 400 normal-vs-normal 2-player games (seeds 20000–20399), both seats'
turn starts, labelled by who won, 23,973 samples. On 200 other games (seeds 10000–10199, 12,193 turn
starts) it scores log-loss 0.513 and calls the winner 76 % of the time, against 0.529 (75 %) for
the weights before it (fitted on every step of a turn) and 0.656 for the electoral-vote lead alone
(`engines.search.policy.evaluate`). In a runoff the score decides.

Read from `seat`'s own view: the public board and its own hand (a rival's position is valued as if
it held no cards, since its cards are secret), so every determinization of a position gets the
same value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .ai import Reading
from .board import MAJORITY
from .views import PlayerView, TriviaView

# per feature of `Standing.features`: the lead in electoral votes (per 100), Popular Votes (per 10M),
# cash (per $10M, up to CASH_CAP), position (per $10M of the heuristic's value of the next roll),
# who moves next (+1 the seat, -1 the rival; every sample was a seat's own turn start, so this is the
# mover's edge there), and the Popular-Vote lead as the race nears 270
WEIGHTS = (2.265, 0.124, 0.069, 0.156, 0.118, 0.053)
CASH_CAP = 40           # cash beyond this buys little more
PV_LEAD_CAP = 3.0       # a Popular-Vote lead beyond 30M decides no more runoffs
RUNOFF_POINT = 0.6      # in a runoff: the weight of each right answer of lead


@dataclass(frozen=True)
class Side:
    """One candidate's standing, in numbers."""
    ev: int
    pv: int
    cash: int
    position: float  # the heuristic's expected value of its next roll from where it stands ($M)


@dataclass(frozen=True)
class Standing:
    me: Side
    rival: Side
    mover: float  # +1: the seat moves next, -1: the rival does, 0: someone else

    def features(self) -> list[float]:
        me, rival = self.me, self.rival
        near = max(me.ev, rival.ev) / MAJORITY  # how close the race is to its end
        pv_lead = max(-PV_LEAD_CAP, min(PV_LEAD_CAP, (me.pv - rival.pv) / 10.0))
        return [
            (me.ev - rival.ev) / 100.0,
            (me.pv - rival.pv) / 10.0,
            (min(me.cash, CASH_CAP) - min(rival.cash, CASH_CAP)) / 10.0,
            (me.position - rival.position) / 10.0,
            self.mover,
            pv_lead * near * near,
        ]

    def chance(self) -> float:
        x = sum(w * f for w, f in zip(WEIGHTS, self.features()))
        return 1.0 / (1.0 + math.exp(-x))


def standing(view: TriviaView, seat: int) -> Standing | None:
    """The board from `seat`'s side against its best rival (most electoral votes, then Popular
    Votes); None when no rival is left."""
    players = view["players"]
    rivals = [p for p in players if p["seat"] != seat and not p["out"]]
    if not rivals:
        return None
    rival = max(rivals, key=lambda p: (p["ev"], p["pv"], -p["seat"]))
    turn = view["turn"]
    mover = 0.0 if turn is None else 1.0 if turn == seat else -1.0 if turn == rival["seat"] else 0.0
    return Standing(_side(view, players[seat]), _side(view, rival), mover)


def _side(view: TriviaView, player: PlayerView) -> Side:
    return Side(player["ev"], player["pv"], player["cash"], position_of(view, player))


def position_of(view: TriviaView, player: PlayerView) -> float:
    """The heuristic's value of `player`'s next roll from where it stands (0 while it stands nowhere),
    read from the view's seat: a rival's without its (secret) cards."""
    at = player["at"]
    return 0.0 if at is None else _reading_of(view, player["seat"]).roll_value(at)


def _reading_of(view: TriviaView, seat: int) -> Reading:
    """The heuristic's reading of the board from `seat`'s side, without a rival's (secret) cards."""
    if seat == view.get("you"):
        return Reading(view)
    side: TriviaView = dict(view)  # type: ignore[assignment]  # the same board, read as `seat`
    side["you"] = seat
    side["hand"] = []
    return Reading(side)


def chance(view: TriviaView, seat: int) -> float:
    """`seat`'s chance to win, in [0, 1]."""
    if view["step"] == "homes":
        # Setup: a seat still to choose its home stands nowhere, which the fitted weights (turns only)
        # would read as a poor position. Nobody has moved yet, so every candidate's chance is even.
        # (The search weighs no setup move: this is what a hint at setup says.)
        return 1.0 / sum(1 for p in view["players"] if not p["out"])
    h2h = view["runoff"]
    if h2h is not None and seat in h2h["seats"]:  # head to head: the questions decide, not the board
        mine = h2h["scores"][h2h["seats"].index(seat)]
        return 1.0 / (1.0 + math.exp(-RUNOFF_POINT * (2 * mine - sum(h2h["scores"]))))
    board = standing(view, seat)
    return 1.0 if board is None else board.chance()
