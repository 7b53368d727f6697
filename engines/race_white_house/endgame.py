"""Race for the White House: the end of the race. 270 electoral votes win at once; when every state
is decided, or the rounds run out (setting `max_rounds`), more electoral votes win, then more states
(the House votes by state delegation), else nobody."""
from __future__ import annotations

from ..core import Result
from .data import TO_ELECT
from .models import OTHER, PARTY_NAME, RWHState
from .rules import party_ev

_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")


def check_win(state: RWHState) -> None:
    """End the game if a party has 270, or every state is decided and declared."""
    for party in ("D", "R"):
        ev = party_ev(state, party)
        if ev >= TO_ELECT:
            other = party_ev(state, OTHER[party])
            finish(state, party, f"The {PARTY_NAME[party]}s win the White House with {ev} electoral votes "
                                 f"to {other}.")
            return
    if not state.undeclared and all(state.owner.values()):
        tiebreak(state, "Every state is decided")


def tiebreak(state: RWHState, why: str) -> None:
    """End a race nobody won outright: more electoral votes, then more states (DC is no state)."""
    d, r = party_ev(state, "D"), party_ev(state, "R")
    if d != r:
        party = "D" if d > r else "R"
        finish(state, party, f"{why}: the {PARTY_NAME[party]}s lead {max(d, r)} to {min(d, r)} electoral "
                             "votes and win.")
        return
    sd = sum(1 for c in state.won["D"] if c != "DC")
    sr = sum(1 for c in state.won["R"] if c != "DC")
    if sd != sr:
        party = "D" if sd > sr else "R"
        finish(state, party, f"{why} and the electoral votes are tied {d}–{r}: the House decides, one vote "
                             f"per state delegation, and the {PARTY_NAME[party]}s hold more states "
                             f"({max(sd, sr)} to {min(sd, sr)}).")
        return
    finish(state, None, f"{why}: tied {d}–{r} in electoral votes and {sd}–{sr} in states. Nobody wins.")


def finish(state: RWHState, party: str | None, outcome: str) -> None:
    state.phase = "over"
    state.winner = party
    state.outcome = outcome
    state.last = outcome.replace("**", "")
    state.log.append(state.last)


def result(state: RWHState) -> Result:
    """Every seat of the winning party wins; a seat scores its party's electoral votes."""
    if state.phase != "over":
        return _NOT_OVER
    winners = [i for i in range(len(state.seats))
               if state.winner is not None and any(q.seat == i and q.party == state.winner for q in state.pawns)]
    scores = [float(party_ev(state, next(q.party for q in state.pawns if q.seat == i)))
              for i in range(len(state.seats))]
    return Result(finished=True, winners=winners, scores=scores, summary=state.outcome)
