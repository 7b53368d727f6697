"""Race for the White House: the legal moves of a seat.

A placement's menu is the longest list the game hands out (every state, category and count), and
the bot and the simulator ask for it after every move: it is assembled from per-state pieces that
are cached by what fixes them, and kept per placement between its moves.
"""
from __future__ import annotations

from ..core import Action
from .actions import (ADVANCE, APPROVE, DEBATE, DECLARE, DONE, ENTER, HOME, MAX_COUNT, PASS, PLACE, RALLY, REFUSE,
                      REST, ROLL, TAKE, UNDO, Place, buy)
from .data import CATEGORIES, CODES, ISSUE_BY_SLUG, REGIONS, SCALES, TRACKS, TV_LOT, TV_MAX, TV_PRICE
from .models import OFF, RWHState, Step
from .rules import sheet_codes, step_codes

# The place actions of one state for one party, by votes left: levels[m] lists `place code CAT n` for
# every category with room and every n <= m (and <= what the state still needs). They are cached by
# category restriction, then state, then the party's five filled counts there as decimal digits (an
# int is cheaper to build and hash than a tuple); legal_actions assembles its list from these.
_CLOSED_LEVELS: tuple[tuple[Place, ...], ...] = ((),) * (MAX_COUNT + 1)
_LEVELS_BY_CAT: dict[str, dict[int, dict[str, dict[int, tuple]]]] = {
    scale: {k: {c: {} for c in CODES} for k in range(-1, 5)} for scale in SCALES}
assert max(max(c) for caps, _tw in SCALES.values() for c in caps.values()) < 100, "the key holds two digits a count"


def _levels(code: str, cat: int, scale: str, f0: int, f1: int, f2: int, f3: int,
            f4: int) -> tuple[tuple[Place, ...], ...]:
    """Build the levels (the caller caches them in _LEVELS_BY_CAT)."""
    mine = (f0, f1, f2, f3, f4)
    caps, to_win = SCALES[scale]
    nd = to_win[code] - sum(mine)
    cap = caps[code]
    acts = PLACE[code]
    cats = (0, 1, 2, 3, 4) if cat < 0 else (cat,)
    rooms = [(k, cap[k] - mine[k]) for k in cats if cap[k] > mine[k]]
    # past the most any one category may take here, every level is the same tuple
    top = max(0, min(nd, max((r for _k, r in rooms), default=0)))
    levels: list[tuple[Place, ...]] = [()]
    for m in range(1, MAX_COUNT + 1):
        if m > top:
            levels.append(levels[top])
            continue
        out: list[Place] = []
        for k, r in rooms:
            out.extend(acts[k][r if r < m else m])
        levels.append(tuple(out))
    return tuple(levels)


# Per-placement cache of each state's levels, outside the saved state: {id(step): (step, levels by
# state in the placement's order, states changed since)}. While a placement lasts only its own moves
# change its states, and they call touch(); a copied or reloaded state has new Step objects and starts
# afresh. Changed states are marked rather than dropped, so the dict keeps the placement's order and
# the legal list is read straight off its values.
PLACEMENT_MENUS: dict[int, tuple[object, dict, set]] = {}


def _menu(step: Step) -> tuple[dict, set]:
    got = PLACEMENT_MENUS.get(id(step))
    if got is not None and got[0] is step:
        return got[1], got[2]
    if len(PLACEMENT_MENUS) > 64:
        PLACEMENT_MENUS.clear()
    segs: dict = {}
    dirty: set = set()
    PLACEMENT_MENUS[id(step)] = (step, segs, dirty)
    return segs, dirty


def touch(step: Step, code: str) -> None:
    """A move of this placement changed `code`: its piece of the menu is rebuilt on the next call."""
    got = PLACEMENT_MENUS.get(id(step))
    if got is not None and got[0] is step:
        got[2].add(code)


def legal_actions(state: RWHState, seat: int) -> list[Action]:
    """Every legal move of `seat` now (none while another seat is to act)."""
    if state.phase == "over":
        return []
    steps = state.steps
    if not steps:
        p = state.order[state.turn]
        if state.pawns[p].seat != seat:
            return []
        out: list[Action] = [ROLL]
        declares(state, p, out)
        return out
    step = steps[0]
    p = step.pawn
    if state.pawns[p].seat != seat:
        return []
    kind = step.kind
    if kind == "place":
        return place_actions(state, step)
    if kind == "issue":
        card = ISSUE_BY_SLUG[step.card]
        return [TAKE[pos[0]] for pos in card[2]]
    if kind == "home":
        taken = {q.home for q in state.pawns}
        return [HOME[c] for c in sheet_codes(state.pawns[p].sheet) if c not in taken]
    if kind == "rally":
        out = [RALLY[c] for c in CATEGORIES]
    elif kind == "enter":
        out = [ENTER, PASS]
    elif kind == "advance":
        out = [ADVANCE[t] for t in TRACKS] + [PASS]
    elif kind == "debate":
        out = [DEBATE, PASS]
    elif kind == "buy":
        funds = state.funds[state.pawns[p].party]
        lots = min(funds // TV_PRICE, TV_MAX // TV_LOT)
        out = [buy(TV_LOT * k) for k in range(1, lots + 1)] + [PASS]
    elif kind == "declare":
        out = [DONE]
    elif kind == "approve":
        out = [APPROVE, REFUSE]
    else:  # pragma: no cover - every kind is listed above
        out = []
    declares(state, p, out)
    return out


def declares(state: RWHState, p: int, out: list[Action]) -> None:
    """Add a `declare` for each state won by pawn p's seat and not declared yet (setting declare=manual)."""
    if state.undeclared:
        seat = state.pawns[p].seat
        for code, q in state.undeclared:
            if state.pawns[q].seat == seat:
                out.append(DECLARE[code])


def place_actions(state: RWHState, step: Step) -> list[Action]:
    """The moves of a placement: every `place` that fits, `rest`, `undo`, `done`, `declare`."""
    out: list[Action] = []
    rem = step.remaining
    if rem > 0:
        o = OFF[state.pawns[step.pawn].party]
        owner, fill, cat = state.owner, state.fill, step.cat
        segs, dirty = _menu(step)
        if not segs or dirty:
            scale = state.options.blocks
            by_code = _LEVELS_BY_CAT[scale][cat]
            for code in (dirty if segs else step_codes(state, step)):
                if owner[code]:
                    segs[code] = _CLOSED_LEVELS
                    continue
                f = fill[code]
                digits = f[o] * 100000000 + f[o + 1] * 1000000 + f[o + 2] * 10000 + f[o + 3] * 100 + f[o + 4]
                table = by_code[code]
                seg = table.get(digits)
                if seg is None:
                    seg = table[digits] = _levels(code, cat, scale, f[o], f[o + 1], f[o + 2], f[o + 3], f[o + 4])
                segs[code] = seg
            dirty.clear()
        m = rem if rem < MAX_COUNT else MAX_COUNT
        for seg in segs.values():
            out += seg[m]  # a tuple at a time: faster than any per-action join
        if out:
            out.append(REST)
    # `done` before `undo`: a player who keeps choosing the first item confirms, and never takes
    # back the vote just placed (the menus list moves in this order)
    if rem <= 0 or step.optional or not out:
        out.append(DONE)
    if step.placed:
        out.append(UNDO)
    if state.undeclared:
        declares(state, step.pawn, out)
    return out


def home_groups(prefix: tuple[str, ...], tokens: list[str]) -> list[tuple[str, str, list[str]]] | None:
    """The Home State step (every state still free) is chosen region first: 51 states are two
    Discord selects and a wall at the table, and a region's list is one select (the South, the
    largest, holds 17). Only `home`: placements keep their one step, since a turn places often."""
    if prefix != ("home",) or not set(tokens) <= set(CODES):
        return None
    groups = []
    for region, codes in REGIONS.items():
        members = [t for t in tokens if t in codes]
        if members:
            listed = f"{region}: {', '.join(members)}"
            counted = f"{region} ({len(members)} {'state' if len(members) == 1 else 'states'})"
            groups.append((region, listed if len(listed) <= 80 else counted, members))
    return groups
