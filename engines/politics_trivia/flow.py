"""The turn's flow between phases: starting the campaign, beginning and ending a turn
(missed turns, the round limit and the stall rule), D.C.'s pay and the step to moving or
to choosing a question."""
from __future__ import annotations

from ..core import Event
from ..rng import Rng
from ..wording import possessive, subject, verb_for
from . import acting, runoff
from .acting import name_of
from .board import DC, EV, NAMES, _ev, _money
from .models import TriviaState


def maybe_begin(state: TriviaState, events: list[Event]) -> None:
    if any(p.dealt for p in state.players) or acting.chooser(state) is not None:
        return
    if state.gdeck:
        rng = Rng(state.rng)
        rng.shuffle(state.gdeck)
        state.rng = rng.state
    first = subject(name_of(state, state.first), start=True)
    events.append(_ev(f"The campaign begins. {first} had the lowest roll and "
                      f"{verb_for(name_of(state, state.first), 'goes')} "
                      "first; play passes down the seat list."))
    begin_turn(state, state.first, events)


# turns ------------------------------------------------------------------
def begin_turn(state: TriviaState, seat: int, events: list[Event]) -> None:
    n = len(state.seats)
    for _ in range(4 * n + 4):
        state.turn = seat
        state.turns += 1
        state.dice = None
        state.moved = state.offer_made = False
        state.deal = None
        state.extra = 0
        state.q = None
        state.wild = None
        state.pending_dice = 0
        state.phase = "start"
        state.wait += 1
        p = state.players[seat]
        if p.at == DC and p.dc_turns >= 4 and p.debt > 0:
            events.append(_ev(f"{subject(name_of(state, seat), 'has', start=True)} spent 4 turns in D.C.; the "
                              f"bank writes off the "
                              f"remaining debt of {_money(p.debt)}."))
            p.debt = 0
        if p.skip <= 0:
            events.append(_ev(f"{possessive(name_of(state, seat), start=True)} turn" + (" (in D.C.)." if p.at == DC else
                                                                  f" (in {NAMES.get(p.at or '', p.at)}).")))
            return
        p.skip -= 1
        line = f"{subject(name_of(state, seat), 'misses', start=True)} this turn."
        if p.at == DC and p.dc_turns < 4:
            line += " " + dc_collect(state, seat)
        events.append(_ev(line))
        reason = speed_reason(state)
        if reason:
            runoff.start_speed(state, events, reason)
            return
        seat = next_seat(state, seat)
    # everyone keeps skipping (cannot really happen): just hand the turn on
    state.phase = "start"


def next_seat(state: TriviaState, seat: int) -> int:
    return (seat - 1) % len(state.seats)  # counter-clockwise: down the seat list


def speed_reason(state: TriviaState) -> str:
    """Asked at the end of every turn: why speed play starts now — "speed" (a majority voted `wrapup`),
    "limit" (max_rounds rounds are played) or "stall" (nobody has set a new high of electoral votes for
    stall_rounds rounds) — or "" to play on. The high only ever rises and a game ends at 270, so with
    the stall rule on even a game without a round limit ends."""
    n = len(state.seats)
    held = [0] * n
    for code, owner in state.chips.items():
        if owner is not None:
            held[owner] += EV[code]
    best = max(held)
    if best > state.record_ev:
        state.record_ev, state.record_turn = best, state.turns
    if state.speed_due:
        return "speed"
    limit = state.options.max_rounds
    if limit > 0 and state.turns >= limit * n:
        return "limit"
    stall = state.options.stall_rounds
    if stall > 0 and state.turns - state.record_turn >= stall * n:
        return "stall"
    return ""


def end_turn(state: TriviaState, events: list[Event]) -> None:
    if state.phase in ("over", "h2h", "review"):
        return
    reason = speed_reason(state)
    if reason:
        runoff.start_speed(state, events, reason)
        return
    begin_turn(state, next_seat(state, state.turn), events)


def dc_collect(state: TriviaState, seat: int) -> str:
    p = state.players[seat]
    p.dc_turns += 1
    p.cash += 10
    line = f"{subject(name_of(state, seat), 'collects', start=True)} $10M in D.C. (turn {p.dc_turns} of 4)"
    if p.debt:
        paid = min(p.debt, p.cash)
        p.cash -= paid
        p.debt -= paid
        line += f" and pays {_money(paid)} of debt" + (f" ({_money(p.debt)} still owed)" if p.debt else "")
    return line + "."


def go_dc(state: TriviaState, seat: int) -> str:
    p = state.players[seat]
    if p.at == DC:
        return ""
    p.at = DC
    p.dc_turns = 0
    return dc_collect(state, seat)


def to_move(state: TriviaState, events: list[Event]) -> None:
    state.phase = "move"
    state.wait += 1


def to_choose(state: TriviaState) -> None:
    state.phase = "choose"
    state.q = None
    state.wait += 1
