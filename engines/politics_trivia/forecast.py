"""The chance to win a hint reports (Game.ai_chance): each candidate's share of the table.

The search ranks moves by `evaluation.chance`, the seat's leads over its best rival alone. At two
candidates that is a chance to win; at a larger table it is not (each of eight equal candidates
scores about half), so a hint said "about 47 %" in round one of an eight-player game. Here every
candidate still in gets a strength, a weighted sum of its own standing (`Side.features`), and a seat's
chance is its strength's share of the table (a softmax: a multinomial logit). At two candidates it is
the search's own logistic (to 6e-16); at three and more the weights are WEIGHTS_MANY, fitted on games of
3 to 8 players (`python tools/fit_trivia_evaluation.py --players 3-8`; docs/games/politics-trivia.md).
A search that ranked its moves by these shares won fewer eight-player games than one ranking by leads
(6 Dec 2026), so they only report: a better forecast need not be a better ranking.

Read from `seat`'s own view, like `evaluation.chance`: a rival's position is valued without its cards.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from . import evaluation
from .board import MAJORITY
from .views import PlayerView, TriviaView

# per feature of `Side.features`: electoral votes (per 100), Popular Votes (per 10M), cash (per $10M, up to
# evaluation.CASH_CAP), position (per $10M of the heuristic's value of its next roll), 1 for the candidate
# whose turn it is, and its Popular-Vote lead over the next best (per 10M, within ±30M) times the square of
# how near the race is to 270. At two candidates the search's WEIGHTS, whose last weight is on the seat's
# lead; here each candidate's own lead enters, which counts that lead twice, so it is halved.
WEIGHTS_TWO = (*evaluation.WEIGHTS[:5], evaluation.WEIGHTS[5] / 2)
WEIGHTS_MANY = (1.795, 0.062, 0.042, 0.155, 0.091, 0.668)


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
        cap = evaluation.PV_LEAD_CAP
        pv_lead = max(-cap, min(cap, (self.pv - next_best) / 10.0))
        return [
            self.ev / 100.0,
            self.pv / 10.0,
            min(self.cash, evaluation.CASH_CAP) / 10.0,
            self.position / 10.0,
            1.0 if turn == self.seat else 0.0,
            pv_lead * near * near,
        ]


def weights_for(candidates: int) -> tuple[float, ...]:
    return WEIGHTS_TWO if candidates <= 2 else WEIGHTS_MANY


def shares(rows: Sequence[Sequence[float]], weights: Sequence[float]) -> list[float]:
    """Each row's share of the table: the softmax of its weighted features."""
    strengths = [sum(w * f for w, f in zip(weights, row)) for row in rows]
    top = max(strengths)
    powers = [math.exp(s - top) for s in strengths]
    total = sum(powers)
    return [p / total for p in powers]


def table_features(view: TriviaView) -> tuple[list[int], list[list[float]]]:
    """The seats still in and each one's `Side.features`, in seat order, read from the view's seat."""
    sides = [_side(view, p) for p in view["players"] if not p["out"]]
    return [s.seat for s in sides], [s.features(sides, view["turn"]) for s in sides]


def _side(view: TriviaView, player: PlayerView) -> Side:
    return Side(player["seat"], player["ev"], player["pv"], player["cash"], evaluation.position_of(view, player))


def chance(view: TriviaView, seat: int) -> float:
    """`seat`'s chance to win, in [0, 1]: its share of the table."""
    h2h = view["runoff"]
    if view["step"] == "homes" or (h2h is not None and seat in h2h["seats"]):
        return evaluation.chance(view, seat)  # even shares in setup; the score in a runoff
    seats, rows = table_features(view)
    if seat not in seats:
        return 0.0
    return shares(rows, weights_for(len(rows)))[seats.index(seat)]
