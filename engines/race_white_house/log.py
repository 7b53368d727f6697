"""Race for the White House: what the game says. A line goes to the channel (an event) and, as plain
text, to the board's list of the last moves."""
from __future__ import annotations

from ..core import Event
from .models import RWHState

LOG_LINES = 12  # the board shows the last this many lines


def say(state: RWHState, events: list[Event], line: str) -> None:
    events.append(Event(line))
    plain = line.replace("**", "")  # the log is plain text
    d = state.__dict__  # hot path: plain stores of valid values
    d["last"] = plain
    log = state.log
    log.append(plain)
    if len(log) > LOG_LINES:
        del log[:-LOG_LINES]
