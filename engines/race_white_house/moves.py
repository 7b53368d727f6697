"""Race for the White House: which function answers each move, and when the move fits.

Each action type has the steps it answers (None: its handler checks for itself), the reason it gives
when tried between turns (None: the usual one of rules.waiting_for), and its handler, a function
(state, pawn, step, action) -> events in the phase module it belongs to. Looked up once per move
instead of a chain of isinstance tests.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from ..core import Action, Event
from . import decisions, placing, spending, tally, turns
from .actions import (Advance, Approve, Buy, Debate, Declare, Done, Enter, Home, Pass, Place, Rally, Refuse, Rest,
                      Roll, Take, Undo)
from .models import RWHState

# (state, pawn, step or None between turns, the action) -> events; each handler takes its own action type
Handler = Callable[[RWHState, int, Any, Any], list[Event]]


class Move(NamedTuple):
    kinds: tuple[str, ...] | None  # the steps this move answers ("roll": between turns); None: the handler checks
    between_turns: str | None      # what is said when it is tried between turns; None: rules.waiting_for
    handler: Handler


MOVES: dict[type[Action], Move] = {
    Place: Move(None, None, placing.place),
    Roll: Move(("roll",), None, turns.roll),
    Undo: Move(("place",), None, placing.undo),
    Done: Move(("place", "declare"), None, placing.done),
    Rest: Move(("place",), None, placing.rest),
    Take: Move(("issue",), None, decisions.take),
    Rally: Move(("rally",), "You can only rally when you land on a RALLY space.", decisions.rally),
    Pass: Move(("enter", "advance", "debate", "buy"), None, decisions.decline),
    Enter: Move(("enter",), "You can only enter a campaign side track when you land on its CAMPAIGN space.",
                spending.enter),
    Buy: Move(("buy",), "You can only buy votes when you land on a TV space.", spending.buy_votes),
    Declare: Move(None, None, tally.declare),
    Home: Move(("home",), None, turns.choose_home),
    Advance: Move(("advance",), None, decisions.advance),
    Approve: Move(("approve",), "Only a President approves, when their Vice-President proposes to spend.",
                  spending.approve),
    Refuse: Move(("approve",), "Only a President refuses, when their Vice-President proposes to spend.",
                 spending.refuse),
    Debate: Move(("debate",), "You can only debate when you land on a DEBATE space.", decisions.debate),
}
