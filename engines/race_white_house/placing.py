"""Race for the White House: placing votes on the tally sheets. A placement (a Step of kind "place")
takes `place` moves until its votes are used (`rest` lets the planner place what is left), `undo`
takes back its last move, `done` confirms it."""
from __future__ import annotations

from ..core import Event, RuleError
from .actions import Done, Place, Rest, Undo, cat_of, code_of
from .data import CAT_INDEX, CATEGORIES, EV, NAMES, SCALES, SHEET_OF, SHEETS
from .log import say
from .menus import touch
from .models import OFF, PARTY_NAME, RWHState, Step
from .planner import plan
from .rules import can_place, name_does, need, plural, waiting_for
from .tally import close, reopen, won_text
from .turns import continue_turn


def place(state: RWHState, p: int, step: Step | None, action: Place) -> list[Event]:
    """`place TX UNION 3`: into the leftmost empty blocks of that row; the vote that reaches the number wins the
    state."""
    if step is None or step.kind != "place":
        raise RuleError("There are no votes to place right now." if step is None or step.kind != "home" else
                        waiting_for(step.kind))
    code = action.state if action.state in EV else code_of(action.state)
    if code is None:
        raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
    cat = CAT_INDEX.get(action.category)
    if cat is None:
        cat = cat_of(action.category)
        if cat is None:
            raise RuleError(f"'{action.category[:40]}' is not a voter category; they are "
                            f"{', '.join(CATEGORIES)}.")
    n = action.n
    if n < 1:
        raise RuleError("Place at least one vote.")
    remaining = step.remaining
    if remaining <= 0:
        raise RuleError("All votes of this placement are placed: `done` confirms it, `undo` takes it back.")
    pawn = state.pawns[p]
    party = pawn.party
    if pawn.sheet is not None and SHEET_OF[code] != pawn.sheet:
        raise RuleError(f"{NAMES[code]} is on your running mate's tally sheet; you place votes only in "
                        f"{' and '.join(SHEETS[pawn.sheet])}.")
    if step.where is not None and code not in step.where:
        allowed = ", ".join(step.where) or "no state on your sheet"
        raise RuleError(f"These votes go only to {allowed}, not {NAMES[code]}.")
    if step.cat >= 0 and cat != step.cat:
        raise RuleError(f"These votes are {CATEGORIES[step.cat]} votes only.")
    if state.owner[code]:
        raise RuleError(f"{NAMES[code]} is already won by the {PARTY_NAME[state.owner[code]]}s; no more votes "
                        "go there.")
    f = state.fill[code]
    o = OFF[party]
    caps, to_win = SCALES[state.options.blocks]
    r = caps[code][cat] - f[o + cat]
    if r <= 0:
        raise RuleError(f"Your {CATEGORIES[cat]} blocks in {NAMES[code]} are full.")
    if n > remaining:
        raise RuleError(f"You have only {plural(remaining, 'vote')} left to place.")
    if n > r:
        raise RuleError(f"Only {plural(r, 'empty block')} left in your {CATEGORIES[cat]} row of {NAMES[code]}.")
    mine = f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4]
    tw = to_win[code]
    nd = tw - mine
    if n > nd:
        raise RuleError(f"{plural(nd, 'more vote')} win{'s' if nd == 1 else ''} {NAMES[code]}, and a won state "
                        "takes no more votes.")
    # -- valid: mutate
    f[o + cat] += n
    touch(step, code)
    step.remaining = remaining - n
    closed = nd == n
    step.placed.append([code, cat, n, 1 if closed else 0])
    events: list[Event] = []
    line = f"{name_does(state, step.pawn, 'places')} {n} {CATEGORIES[cat]} in {NAMES[code]} ({mine + n}/{tw})."
    if closed:
        close(state, p, code, events, announce=False)
        line += " " + won_text(state, p, [code])
    say(state, events, line)
    if state.phase == "over":
        events.append(Event(state.outcome))
    return events


def rest(state: RWHState, p: int, step: Step, action: Rest) -> list[Event]:
    """`rest`: the planner places what is left of this placement (one `undo` takes it all back)."""
    if step.remaining <= 0 or not can_place(state, step):
        raise RuleError("No votes of this placement can be placed any more: `done` confirms it.")
    moves = plan(state, step, state.pawns[p].party)
    batch = len(step.placed) + 1
    events: list[Event] = []
    party = state.pawns[p].party
    bits = []
    closed = []
    for code, cat, n in moves:
        nd = need(state, code, party)
        state.fill[code][OFF[party] + cat] += n
        touch(step, code)
        step.remaining -= n
        shut = n >= nd
        step.placed.append([code, cat, n, 1 if shut else 0, batch])
        bits.append(f"{code} {n} {CATEGORIES[cat]}")
        if shut:
            closed.append(code)
            close(state, p, code, events, announce=False)
            if state.phase == "over":
                break
    line = f"{name_does(state, p, 'places')} " + (", ".join(bits) if bits else "nothing") + "."
    if closed:
        line += " " + won_text(state, p, closed)
    say(state, events, line)
    if state.phase == "over":
        events.append(Event(state.outcome))
    return events


def undo(state: RWHState, p: int, step: Step, action: Undo) -> list[Event]:
    """`undo`: take back the last `place` (or `rest`) of this placement, reopening a state it won."""
    if not step.placed:
        raise RuleError("Nothing of this placement has been placed yet.")
    party = state.pawns[p].party
    # the last move: one `place`, or everything one `rest` placed (entries tagged with the same batch)
    batch = step.placed[-1][4] if len(step.placed[-1]) > 4 else None
    total = 0
    bits = []
    while step.placed and (total == 0 or (batch is not None and len(step.placed[-1]) > 4
                                           and step.placed[-1][4] == batch)):
        code, cat, n, closed = step.placed.pop()[:4]
        if closed:
            reopen(state, code, party)
        state.fill[code][OFF[party] + cat] -= n
        touch(step, code)
        total += n
        bits.append(f"{n} {CATEGORIES[cat]} in {code}")
    step.remaining += total
    events: list[Event] = []
    say(state, events, f"{name_does(state, p, 'takes')} back " + ", ".join(reversed(bits)) + ".")
    return events


def done(state: RWHState, p: int, step: Step, action: Done) -> list[Event]:
    """`done`: confirm the placement (votes may be left only where none fits, or when it says "up to"), or end
    the last chance to declare."""
    events: list[Event] = []
    if step.kind == "declare":  # the end-of-turn chance to declare, passed up
        state.steps.pop(0)
        continue_turn(state, events)
        return events
    if step.remaining > 0 and not step.optional and can_place(state, step):
        raise RuleError(f"You still have {plural(step.remaining, 'vote')} to place (`rest` places them for "
                        "you); only votes that fit nowhere may be left.")
    placed = step.total - step.remaining
    if step.remaining > 0:
        say(state, events, f"{name_does(state, p, 'confirms')} {plural(placed, 'vote')}; "
                           f"{step.remaining} not placed.")
    state.steps.pop(0)
    continue_turn(state, events)
    return events
