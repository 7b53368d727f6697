"""How a search judges an unfinished game of Politics: The Game (Game.ai_evaluate).

The rulebook's win is 270 electoral votes *with the most Popular Votes* (else a runoff against the
Popular-Vote leader), and most of a turn trades in what leads there: chips, Popular Votes, the cash
that buys chips and flights, and where a candidate stands for its next roll. So every candidate still
in gets a strength, a weighted sum of those (`Side.features`), and a seat's chance is its share of
the table's strengths (a softmax: a multinomial logit). Equal candidates get equal shares at any table
size; at two it is the logistic of the seat's leads over its rival. In a runoff the score decides.

The weights are fitted by maximum likelihood where the search judges a board, at the start of a
seat's own turn (`Game.ai_stops_here`), in normal-vs-normal games labelled by who won
(`python tools/fit_trivia_evaluation.py`; the figures are in docs/games/politics-trivia.md):
- two candidates (WEIGHTS): 400 two-player games, seeds 20000-20399, 23,973 turn starts;
- three or more (WEIGHTS_MANY): games of 3 to 8 players, where Popular Votes near 270 count far more,
  as most such games end in a runoff. Before 6 Dec 2026 a seat's chance there was a logistic of its
  lead over its best rival alone, so each of eight equal seats was told about half.

Read from `seat`'s own view: the public board and its own hand (a rival's position is valued as if
it held no cards, since its cards are secret), so every determinization of a position gets the
same value.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .ai import Reading
from .board import MAJORITY
from .views import PlayerView, TriviaView

# per feature of `Side.features`: electoral votes (per 100), Popular Votes (per 10M), cash (per $10M,
# up to CASH_CAP), position (per $10M of the heuristic's value of its next roll), 1 for the candidate
# whose turn it is, and its Popular-Vote lead over the next best (per 10M, within ±30M) times the
# square of how near the race is to 270
WEIGHTS = (2.265, 0.124, 0.069, 0.156, 0.118, 0.0265)
WEIGHTS_MANY = (1.795, 0.062, 0.042, 0.155, 0.091, 0.668)
CASH_CAP = 40           # cash beyond this buys little more
PV_LEAD_CAP = 3.0       # a Popular-Vote lead beyond 30M decides no more runoffs
RUNOFF_POINT = 0.6      # in a runoff: the weight of each right answer of lead


@dataclass(frozen=True)
class Side:
    """One candidate's standing, in numbers."""
    seat: int
    ev: int
    pv: int
    cash: int
    position: float  # the heuristic's expected value of its next roll from where it stands ($M)

    def features(self, table: Sequence[Side], turn: int | None) -> list[float]:
        """This candidate's features at `table` (every candidate still in, itself among them)."""
        near = max(side.ev for side in table) / MAJORITY  # how close the race is to its end
        next_best = max((side.pv for side in table if side is not self), default=self.pv)
        pv_lead = max(-PV_LEAD_CAP, min(PV_LEAD_CAP, (self.pv - next_best) / 10.0))
        return [
            self.ev / 100.0,
            self.pv / 10.0,
            min(self.cash, CASH_CAP) / 10.0,
            self.position / 10.0,
            1.0 if turn == self.seat else 0.0,
            pv_lead * near * near,
        ]


def weights_for(candidates: int) -> tuple[float, ...]:
    return WEIGHTS if candidates <= 2 else WEIGHTS_MANY


def shares(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """Each row's share of the table: the softmax of its weighted features."""
    strengths = [sum(w * f for w, f in zip(weights, row)) for row in rows]
    top = max(strengths)
    powers = [math.exp(s - top) for s in strengths]
    total = sum(powers)
    return [p / total for p in powers]


def table(view: TriviaView) -> list[Side]:
    """Every candidate still in, read from the view's seat: its own position with its hand, a rival's
    without its (secret) cards."""
    return [_side(view, p) for p in view["players"] if not p["out"]]


def table_features(view: TriviaView) -> tuple[list[int], list[list[float]]]:
    """The seats still in and each one's `Side.features`, in seat order."""
    sides = table(view)
    return [s.seat for s in sides], [s.features(sides, view["turn"]) for s in sides]


def _side(view: TriviaView, player: PlayerView) -> Side:
    at = player["at"]
    position = _reading_of(view, player["seat"]).roll_value(at) if at is not None else 0.0
    return Side(player["seat"], player["ev"], player["pv"], player["cash"], position)


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
    seats, rows = table_features(view)
    if seat not in seats:
        return 0.0
    return shares(rows, weights_for(len(rows)))[seats.index(seat)]
