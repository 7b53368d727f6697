"""Race for the White House: the turn. Home States first (the party that does not move first chooses
first; each places 2 votes there), then each pawn in turn order rolls and moves; the steps a space
queues are answered one by one, and when none is left the turn passes (with declare=manual, after a
last chance to declare)."""
from __future__ import annotations

from ..core import Event, RuleError
from ..rng import Rng
from .actions import Home, Roll, code_of
from .board import move
from .data import HOME_VOTES, NAMES, PENALTY_VOTES, SHEETS, TO_ELECT
from .effects import push_place
from .endgame import check_win, tiebreak
from .log import say
from .models import PARTY_NAME, Pawn, RWHState, Step
from ..wording import opening, possessive
from .rules import can_place, name_does, on_sheet, opponent, does, pawn_does, pawn_name, plural, short_name


def home_prompt(pawn: Pawn) -> str:
    """What a candidate is asked at the start: a Home State on their sheet."""
    where = "any state" if pawn.sheet is None else " or ".join(SHEETS[pawn.sheet]) + " states"
    return f"Choose a Home State ({where}): `home TX`."


def choose_home(state: RWHState, p: int, step: Step, action: Home) -> list[Event]:
    """`home TX`: no two candidates share one; its 2 votes are placed at once (a placement of its own)."""
    code = code_of(action.state)
    if code is None:
        raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
    pawn = state.pawns[p]
    if pawn.sheet is not None and not on_sheet(pawn, code):
        raise RuleError(f"{NAMES[code]} is not on your tally sheet; your Home State must be in "
                        f"{' or '.join(SHEETS[pawn.sheet])}.")
    for i, q in enumerate(state.pawns):
        if q.home == code:
            raise RuleError(f"{NAMES[code]} is already {possessive(short_name(state, i))} Home State; "
                            "no two candidates share one.")
    pawn.home = code
    line = (f"{pawn_does(state, p, 'chooses')} {NAMES[code]} as Home State and "
            f"{does(state, p, 'places')} {HOME_VOTES} votes there.")
    events = [Event(line)]
    state.last = line
    state.steps[0] = Step(kind="place", pawn=p, remaining=HOME_VOTES, total=HOME_VOTES, where=[code],
                          text=f"{HOME_VOTES} votes in the Home State, {NAMES[code]}")
    continue_turn(state, events)
    return events


def roll(state: RWHState, p: int, step: None, action: Roll) -> list[Event]:
    """Two dice round the circuit, one on a side track; move and land."""
    rng = Rng(state.rng)
    pawn = state.pawns[p]
    if pawn.track is not None:
        dice = [rng.die()]
    else:
        dice = [rng.die(), rng.die()]
    d = state.__dict__  # hot path: plain stores of valid values
    d["rng"] = rng.state
    d["dice"] = dice
    d["wrapped"] = False
    events: list[Event] = []
    pips = sum(dice)
    shown = " + ".join(map(str, dice)) + (f" = {pips}" if len(dice) > 1 else "")
    head = f"{pawn_does(state, p, 'rolls')} {shown}"
    move(state, p, pips, head, events)
    continue_turn(state, events)
    return events


def continue_turn(state: RWHState, events: list[Event]) -> None:
    """Start the next step; skip placements that cannot place anything; end the turn when none is left."""
    while state.phase != "over":
        if state.steps:
            step = state.steps[0]
            if step.kind != "place":
                return
            if step.dice and step.total == 0:
                rng = Rng(state.rng)
                dice = [rng.die() for _ in range(step.dice)]
                state.rng = rng.state
                state.dice = dice
                step.total = step.remaining = sum(dice)
                events.append(Event(f"{name_does(state, step.pawn, 'rolls')} {' + '.join(map(str, dice))}: "
                                    f"{plural(step.total, 'vote')} to place."))
            if step.placed or can_place(state, step):
                return
            if step.total:
                events.append(Event(f"{opening(short_name(state, step.pawn))}: {step.text} — nowhere to place them."))
            state.steps.pop(0)
            continue
        if state.phase == "home":
            state.phase = "play"
            first = state.order[0]
            say(state, events, f"Home States chosen. {pawn_does(state, first, 'moves')} first: `roll`.")
            return
        # the turn is over
        turn_pawn = state.order[state.turn]
        if state.options.declare == "manual" and not state.wrapped and any(
                state.pawns[q].seat == state.pawns[turn_pawn].seat for _c, q in state.undeclared):
            state.wrapped = True
            state.steps.append(Step(kind="declare", pawn=turn_pawn, text="Declare the states you won, then `done`."))
            return
        next_turn(state, events)
        if state.steps or state.phase == "over":
            continue
        return


def next_turn(state: RWHState, events: list[Event]) -> None:
    """Pass the turn: a new round after the last pawn (or the end at max_rounds); a won state left
    undeclared is recorded now and its winner's opponent places the penalty votes."""
    d = state.__dict__  # hot path: plain stores of valid values
    d["turn"] = (state.turn + 1) % len(state.order)
    d["wrapped"] = False
    if state.turn == 0:
        state.round += 1
        if state.round > state.options.max_rounds:
            tiebreak(state, f"After {state.options.max_rounds} rounds nobody has {TO_ELECT}")
            events.append(Event(state.outcome))
            return
    if state.undeclared:
        for code, q in list(state.undeclared):
            opp = opponent(state, q)
            party = state.pawns[q].party
            state.undeclared.remove([code, q])
            state.won[party].append(code)
            say(state, events, f"{opening(short_name(state, q))} never declared {NAMES[code]}: it is recorded for "
                               f"the {PARTY_NAME[party]}s, and {name_does(state, opp, 'places', start=False)} "
                               f"{PENALTY_VOTES} votes anywhere.")
            push_place(state, opp, PENALTY_VOTES, -1, None,
                       f"Penalty: {PENALTY_VOTES} votes anywhere, {NAMES[code]} was not declared")
        check_win(state)
        if state.phase == "over":
            events.append(Event(state.outcome))
            return
    nxt = state.order[state.turn]
    events.append(Event(f"{opening(pawn_name(state, nxt))} to `roll`."))
