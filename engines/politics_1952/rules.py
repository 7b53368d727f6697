"""Politics (1952): the board's rules as plain functions of the state.

Who holds a state, the votes if counted now, whether the board is closed, where a pin may go
and how it moves, and the dice. The engine (game.py) and the AI (ai.py) both use them, so the
AI judges the board by the same rules the engine applies.
"""
from __future__ import annotations

from collections.abc import Sequence

from ..rng import Rng
from .model import GROUP_TABLE, P52State
from .states import CODES, EV, LINES

_MASK = (1 << 64) - 1
_LIMIT_216 = (1 << 64) - (1 << 64) % 216


def throw_three(rng: Rng) -> tuple[int, int, int]:
    """The coloured die and the two white dice from one exactly uniform draw
    over the 216 outcomes (one 64-bit step instead of three)."""
    while True:
        z = rng.next64()
        if z < _LIMIT_216:
            return z % 6 + 1, (z // 6) % 6 + 1, (z // 36) % 6 + 1


def throw_three_at(rng_state: int) -> tuple[int, int, int, int]:
    """throw_three on a stored RNG state, with Rng.next64 inlined (every turn
    begins with it): (new state, coloured, white, white) -- the same draws."""
    s = rng_state
    while True:
        s = (s + 0x9E3779B97F4A7C15) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < _LIMIT_216:
            return s, z % 6 + 1, (z // 6) % 6 + 1, (z // 36) % 6 + 1


# ---------------------------------------------------------------- board queries

def controller(state: P52State, code: str) -> int | None:
    """Who takes the state's whole vote now: the capital's pin, else the most
    counties, ties to the northernmost pin on that line."""
    cap = state.capital[code]
    if cap is not None:
        return cap
    pos = state.pos[code]
    best = max(pos)
    if best == 0:
        return None
    return northernmost(pos, state.arrived[code], best)


def northernmost(pos: Sequence[int], arrived: Sequence[int], line: int) -> int:
    """The seat whose pin stands furthest north on `line` (arrived there first)."""
    who, when = -1, 0
    for seat, p in enumerate(pos):
        if p == line and (who < 0 or arrived[seat] < when):
            who, when = seat, arrived[seat]
    return who


def line_pins(state: P52State, code: str) -> list[list[int]]:
    """Per county line (west to east), the seats with a pin there, north to south."""
    return pins_on_lines(state.pos[code], state.arrived[code], LINES[code])


def pins_on_lines(pos: Sequence[int], arrived: Sequence[int], lines: int) -> list[list[int]]:
    return [sorted((s for s, p in enumerate(pos) if p == k), key=arrived.__getitem__) for k in range(1, lines + 1)]


def votes(state: P52State) -> list[int]:
    """Each seat's votes if counted now (controller() inlined: the AI calls this a lot)."""
    out = [0] * len(state.seats)
    capital, pos, arrived = state.capital, state.pos, state.arrived
    for code in CODES:
        c = capital[code]
        if c is None:
            best = max(pos[code])
            if best == 0:
                continue
            c = northernmost(pos[code], arrived[code], best)
        out[c] += EV[code]
    return out


def pinned(state: P52State) -> int:
    """States with at least one pin."""
    return sum(map(any, state.pos.values()))  # any(): a third of max()'s time


def board_closed(state: P52State) -> bool:
    return all(map(any, state.pos.values()))


def counties_held(state: P52State, seat: int) -> int:
    return sum(state.pos[c][seat] for c in CODES)


def room_left(state: P52State, code: str, seat: int) -> int:
    """Counties `seat` may still take in `code` (the capital counts as one)."""
    if state.capital[code] is not None:
        return 0
    return LINES[code] + 1 - state.pos[code][seat]


def can_place(state: P52State, seat: int) -> bool:
    """Can a county of this turn's white dice still be placed?"""
    d = state.__dict__
    if d["remaining"] <= 0 or not d["dice"]:
        return False
    capital, pos = d["capital"], d["pos"]
    for code, lines, _captures in GROUP_TABLE[d["dice"][0]]:
        if capital[code] is None and pos[code][seat] <= lines:
            return True
    return False


def advance_pin(state: P52State, code: str, seat: int, k: int) -> tuple[int, int]:
    """Move seat's pin k lines east in code (k <= room). Returns (old, new) position."""
    old = state.pos[code][seat]
    move_pin(state.__dict__, code, seat, k)
    return old, old + k


def move_pin(d: dict, code: str, seat: int, k: int) -> tuple[int | None, int, bool]:
    """Move seat's pin k lines east in `code` (k <= its room; one past the last line
    is the capital), on the state's field dict `d`. Returns who held the state before
    (a seat, None for nobody, -1 for a rival not worth naming because seat does not
    pass them), the new position, and whether seat now holds a state it did not.

    Worked out from the furthest line alone instead of controller() before and after:
    a pin that moves past every other pin holds the state; one that only draws level
    arrived last, so it stands south of the others and does not."""
    pos = d["pos"][code]
    old = pos[seat]
    best = max(pos)
    new = old + k
    if best == 0:
        before: int | None = None
    elif old < best and new <= best:
        before = -1
    else:
        before = northernmost(pos, d["arrived"][code], best)
    pos[seat] = new
    if new > LINES[code]:
        d["capital"][code] = seat
        return before, new, before != seat
    d["clock"] = clock = d["clock"] + 1
    d["arrived"][code][seat] = clock
    return before, new, new > best and before != seat


def place_name(code: str, p: int) -> str:
    if p > LINES[code]:
        return "the capital"
    return f"line {p}/{LINES[code]}"

