"""Race for the White House: the tally sheets' outcomes. A state closes when a party fills its number of
blocks (its electoral votes are recorded at once, or on `declare` with setting declare=manual); undoing
the placement that won it reopens it."""
from __future__ import annotations

from ..core import Event, RuleError
from .actions import Declare, code_of
from .data import EV, NAMES
from .endgame import check_win
from .log import say
from .models import PARTY_NAME, RWHState, Step
from .rules import party_ev, pawn_does, short_name


def won_text(state: RWHState, p: int, codes: list[str]) -> str:
    """'**Won: Texas (34)** — Republicans now 120.' (or 'to be declared' with declare=manual)."""
    party = state.pawns[p].party
    names = ", ".join(f"{NAMES[c]} ({EV[c]})" for c in codes)
    if state.options.declare == "auto":
        return f"**Won: {names}** — {PARTY_NAME[party]}s now {party_ev(state, party)}."
    return f"**Won: {names}** — to be declared (`declare`)."


def close(state: RWHState, p: int, code: str, events: list[Event], announce: bool = True) -> None:
    """Pawn p's party has won `code`: record it (or leave it to `declare`) and check for the end."""
    party = state.pawns[p].party
    state.owner[code] = party
    if state.options.declare == "auto":
        state.won[party].append(code)
        check_win(state)
    else:
        state.undeclared.append([code, p])
    if announce:
        events.append(Event(won_text(state, p, [code])))
        if state.phase == "over":
            events.append(Event(state.outcome))


def reopen(state: RWHState, code: str, party: str) -> None:
    """Undo a win (its placement was taken back)."""
    state.owner[code] = ""
    if code in state.won[party]:
        state.won[party].remove(code)
    state.undeclared = [u for u in state.undeclared if u[0] != code]


def declare(state: RWHState, p: int, step: Step | None, action: Declare) -> list[Event]:
    """`declare TX` (setting declare=manual): record a won state's electoral votes."""
    code = code_of(action.state)
    if code is None:
        raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
    seat = state.pawns[p].seat
    entry = next((u for u in state.undeclared if u[0] == code), None)
    if entry is None:
        if state.owner[code]:
            raise RuleError(f"{NAMES[code]} is already declared.")
        raise RuleError(f"{NAMES[code]} has not been won yet.")
    if state.pawns[entry[1]].seat != seat:
        raise RuleError(f"{NAMES[code]} was won by {short_name(state, entry[1])}; only they declare it.")
    party = state.pawns[entry[1]].party
    state.undeclared.remove(entry)
    state.won[party].append(code)
    # not final: undoing the placement that won the state reopens it (reopen)
    events: list[Event] = []
    say(state, events, f"{pawn_does(state, entry[1], 'declares')} **{NAMES[code]}** ({EV[code]}): "
                       f"{PARTY_NAME[party]}s now {party_ev(state, party)}.")
    check_win(state)
    if state.phase == "over":
        events.append(Event(state.outcome))
    return events
