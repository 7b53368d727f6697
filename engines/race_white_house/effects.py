"""Race for the White House: votes that spaces, side tracks and cards give (the effects of data.py):
a placement for the player to make, votes placed at once in every state of a list, ADD (more votes
where the player leads a category), the opponent's votes, and paying from the party's purse."""
from __future__ import annotations

from collections.abc import Iterable

from ..core import Event
from ..wording import possessive, their
from .data import CATEGORIES, NAMES, PENALTY_VOTES, REGIONS, SCALES
from .log import say
from .models import OFF, OTHER, Pawn, RWHState, Step
from .rules import money, name_does, on_sheet, opponent, does, pawn_does, sheet_codes, short_name
from .tally import close, won_text

# Where an effect's votes may go: anywhere on the sheet (None), "home", a region, or a list of states.
Where = str | tuple[str, ...] | None


def states_for(state: RWHState, p: int, where: Where) -> list[str] | None:
    """The states an effect may use, cut to the pawn's sheet; None = the whole sheet."""
    pawn = state.pawns[p]
    if where is None:
        return None
    if where == "home":
        codes: tuple[str, ...] = (pawn.home,) if pawn.home else ()
    elif isinstance(where, str):
        codes = REGIONS[where]
    else:
        codes = tuple(where)
    return [c for c in codes if on_sheet(pawn, c)]


def where_text(where: Where, pawn: Pawn, name: str) -> str:
    """Where an effect's votes go, as the placement's prompt says it (the status line shows it to
    everyone, so the sheet is the placer's: "your sheet" at the table, "their sheet" for a name)."""
    if where is None:
        return "anywhere" if pawn.sheet is None else f"anywhere on {their(name)} sheet"
    if where == "home":
        return f"in {NAMES[pawn.home]}" if pawn.home else f"in {their(name)} Home State"
    if isinstance(where, str):
        return f"in the {where}"
    return "in " + ", ".join(where)


def push_place(state: RWHState, p: int, n: int, cat: int, codes: list[str] | None, text: str,
               optional: bool = False, dice: int = 0, front: bool = False) -> None:
    """Queue a placement for pawn p (at the front: it comes before what is already waiting)."""
    step = Step(kind="place", pawn=p, remaining=n, total=n, cat=cat, where=codes, text=text, optional=optional,
                dice=dice)
    if front:
        state.steps.insert(0, step)
    else:
        state.steps.append(step)


def pay(state: RWHState, p: int, amount: int, label: str, events: list[Event]) -> None:
    """Pay from the party's purse; owing more than is left, pay what is left and the opponent places 5 votes."""
    pawn = state.pawns[p]
    funds = state.funds[pawn.party]
    paid = min(funds, amount)
    state.funds[pawn.party] = funds - paid
    state.spent[p] += paid
    if paid < amount:
        q = opponent(state, p)
        say(state, events, f"{pawn_does(state, p, 'owes')} {money(amount)} but "
                           f"{does(state, p, 'has')} only {money(funds)}: "
                           f"{short_name(state, q)} {does(state, q, 'places')} {PENALTY_VOTES} votes anywhere.")
        push_place(state, q, PENALTY_VOTES, -1, None,
                   f"Penalty: {PENALTY_VOTES} votes anywhere, {short_name(state, p)} could not pay")
    else:
        events.append(Event(f"{name_does(state, p, 'pays')} {money(amount)}; "
                            f"{money(state.funds[pawn.party])} left."))


def place_each(state: RWHState, p: int, targets: list[tuple[str, int, int]], label: str,
               events: list[Event]) -> int:
    """Place votes that need no choice; returns how many went in."""
    pawn = state.pawns[p]
    party = pawn.party
    total = 0
    bits = []
    closed = []
    o = OFF[party]
    owner, fill = state.owner, state.fill
    caps, to_win = SCALES[state.options.blocks]
    for code, cat, n in targets:
        if owner[code]:
            continue
        f = fill[code]
        k = caps[code][cat] - f[o + cat]
        if k <= 0:
            continue
        nd = to_win[code] - (f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4])
        if nd < k:
            k = nd
        if n < k:
            k = n
        f[o + cat] += k
        total += k
        bits.append(f"{code} {k}" if k > 1 else code)
        if k == nd:
            closed.append(code)
            close(state, p, code, events, announce=False)
            if state.phase == "over":
                break
    if total:
        line = f"{label}: {name_does(state, p, 'places', start=False)} {total} — " + ", ".join(bits) + "."
    else:
        line = f"{label}: no votes could be placed."
    if closed:
        line += " " + won_text(state, p, closed)
    events.append(Event(line))
    if state.phase == "over":
        events.append(Event(state.outcome))
    return total


def add(state: RWHState, p: int, adds: Iterable[tuple[int, int]], label: str, events: list[Event]) -> None:
    """ADD: n votes of a category in every state of the sheet where the player leads that category."""
    party = state.pawns[p].party
    for cat, n in adds:
        if state.phase == "over":
            return
        owner, fill = state.owner, state.fill
        mine, theirs = OFF[party] + cat, OFF[OTHER[party]] + cat
        targets = [(c, cat, n) for c in sheet_codes(state.pawns[p].sheet)
                   if not owner[c] and fill[c][mine] > fill[c][theirs]]
        place_each(state, p, targets, f"{label} — ADD {n} {CATEGORIES[cat]}", events)


def apply_effect(state: RWHState, p: int, eff: tuple, label: str, events: list[Event]) -> None:
    """Apply one effect of data.py, except "move" (the board's: it lands the pawn again)."""
    pawn = state.pawns[p]
    kind = eff[0]
    if kind in ("place", "upto"):
        _k, n, cat, where = eff
        codes = states_for(state, p, where)
        cat_txt = f" {CATEGORIES[cat]}" if cat is not None else ""
        where_txt = where_text(where, pawn, short_name(state, p))
        push_place(state, p, n, -1 if cat is None else cat, codes,
                   f"{label}: {'up to ' if kind == 'upto' else ''}{n}{cat_txt} votes {where_txt}",
                   optional=kind == "upto")
    elif kind == "each":
        _k, n, cat, where = eff
        codes = states_for(state, p, where) or []  # "each" always names its states
        place_each(state, p, [(c, cat, n) for c in codes], label, events)
    elif kind == "add":
        _k, n, cat = eff
        add(state, p, [(cat, n)], label, events)
    elif kind == "opp":
        q = opponent(state, p)
        # the placer reads it, and so does everyone in the status line: the card is named by its owner
        push_place(state, q, eff[1], -1, None,
                   f"{label}: {eff[1]} votes anywhere, from {possessive(short_name(state, p))} card")
    elif kind == "pay":
        pay(state, p, eff[1], label, events)
    else:
        raise ValueError(f"not an effect for effects.apply_effect: {eff!r}")
