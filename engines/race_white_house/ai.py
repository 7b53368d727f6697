"""The AI of Race for the White House. It uses the game's public rules only (rules, planner, menus,
actions), as any player could.

Placements follow the planner (planner.py, also behind the `rest` move): thin early, thick late,
feed the big states. An Issues position is taken by the votes its ADD brings against the votes it
gives the opponent; campaigns are entered while money for late TV stays; TV money is saved for late
in the game; debates are always taken.
"""
from __future__ import annotations

import math

from ..core import Action
from ..rng import Rng
from .actions import (ADVANCE, APPROVE, DEBATE, DECLARE, DONE, ENTER, HOME, PASS, RALLY, REFUSE, REST, ROLL, TAKE,
                      Buy, buy, proposal)
from .data import CATEGORIES, ENTRY_COST, EV, ISSUE_BY_SLUG, LEAN, REGIONS, TO_ELECT, TRACKS, TV_LOT, TV_MAX, TV_PRICE
from .menus import legal_actions
from .models import OFF, OTHER, RWHState
from .planner import CAP_TOTAL, chance, lateness
from .rules import acting_pawn, count, leads, on_sheet, party_ev, sheet_codes, sheet_scale

RESERVE = 15_000_000  # money kept for late TV before paying to enter a campaign (shrinks as the game goes on)
TV_LATE = 0.3         # from this lateness on, TV buys as much as it may


def issue_value(state: RWHState, p: int, pos: tuple) -> float:
    pawn = state.pawns[p]
    party = pawn.party
    total = 0.0
    caps, to_win = sheet_scale(state)
    for cat, n in pos[2]:
        for code in sheet_codes(pawn.sheet):
            if state.owner[code] or not leads(state, code, party, cat):
                continue
            f = state.fill[code]
            r = min(n, caps[code][cat] - f[OFF[party] + cat])
            if r > 0:
                total += r * (0.5 + EV[code] / to_win[code] / 2)
    return total - pos[3] * 1.6


def would_enter(state: RWHState, party: str, cost: int) -> bool:
    """Pay to enter a campaign only while the money kept for late TV stays."""
    return not cost or state.funds[party] >= cost + RESERVE * (1.0 - lateness(state))


def would_buy_tv(state: RWHState, party: str) -> bool:
    """TV late in the game, or once either party is within 100 electoral votes of winning."""
    mine, theirs = party_ev(state, party), party_ev(state, OTHER[party])
    return lateness(state) >= TV_LATE or max(mine, theirs) >= TO_ELECT - 100


def choose(state: RWHState, seat: int, rng: Rng) -> Action:
    """The AI's move for `seat` (the seat to act)."""
    p = acting_pawn(state)
    assert p is not None
    pawn = state.pawns[p]
    party = pawn.party
    for code, q in state.undeclared:
        if state.pawns[q].seat == seat:
            return DECLARE[code]
    if not state.steps:
        return ROLL
    step = state.steps[0]
    kind = step.kind
    if kind == "place":
        legal = legal_actions(state, seat)
        if REST in legal:
            return REST
        return DONE
    if kind == "declare":
        return DONE
    if kind == "home":
        taken = {q.home for q in state.pawns}

        def home_score(c: str) -> float:
            lean = LEAN[c]
            return EV[c] * (1.3 if lean == "" else (0.6 if lean == party else 0.4))
        choices = [c for c in sheet_codes(pawn.sheet) if c not in taken]
        return HOME[max(choices, key=home_score)]
    if kind == "issue":
        card = ISSUE_BY_SLUG[step.card]
        a, b = card[2]
        va, vb = issue_value(state, p, a), issue_value(state, p, b)
        return TAKE[a[0] if va >= vb else b[0]]
    if kind == "enter":
        return ENTER if would_enter(state, party, ENTRY_COST[step.card]) else PASS
    if kind == "approve":  # as President: agree to what this AI would have spent itself
        wanted = would_buy_tv(state, party) if isinstance(proposal(step.card), Buy) else \
            would_enter(state, party, ENTRY_COST[state.steps[1].card])
        return APPROVE if wanted else REFUSE
    if kind == "advance":
        options = [t for t in TRACKS if would_enter(state, party, ENTRY_COST[t])]
        # the campaign whose category this party leads in most states (ADD spaces pay on leads)
        def track_score(t: str) -> int:
            k = CATEGORIES.index(t)
            return sum(1 for c in sheet_codes(pawn.sheet) if not state.owner[c] and leads(state, c, party, k))
        return ADVANCE[max(options, key=track_score)] if options else PASS
    if kind == "rally":
        region = REGIONS[step.card]
        o = OFF[party]
        caps, to_win = sheet_scale(state)

        def rally_score(k: int) -> float:
            total = 0.0
            for c in region:
                if state.owner[c] or not on_sheet(pawn, c):
                    continue
                f = state.fill[c]
                if caps[c][k] > f[o + k]:
                    total += EV[c] / to_win[c] * (1.5 if f[o + k] <= f[OFF[OTHER[party]] + k] else 1.0)
            return total
        return RALLY[CATEGORIES[max(range(5), key=rally_score)]]
    if kind == "debate":
        return DEBATE
    if kind == "buy":
        lots = min(state.funds[party] // TV_PRICE, TV_MAX // TV_LOT)
        return buy(lots * TV_LOT) if lots and would_buy_tv(state, party) else PASS
    legal = legal_actions(state, seat)
    return legal[rng.below(len(legal))]




def candidates(state: RWHState, seat: int, rng: Rng) -> list[Action] | None:
    """The moves a search weighs (Game.ai_candidates), best first. Votes are placed by the planner
    (`rest`, what `choose` plays): the hundred ways to place one block are not weighed apart, so a
    search spends its budget on the decisions (positions, campaigns, TV, rallies, the home state).
    The home state: `choose`'s, then the others by the same score. Elsewhere: None."""
    if not state.steps or state.undeclared:
        return None
    kind = state.steps[0].kind
    if kind not in ("place", "home"):
        return None
    first = choose(state, seat, rng)
    if kind == "place":
        return [first]
    p = acting_pawn(state)
    assert p is not None
    party = state.pawns[p].party
    taken = {q.home for q in state.pawns}
    lean = {"": 1.3, party: 0.6}
    homes = sorted((c for c in sheet_codes(state.pawns[p].sheet) if c not in taken),
                   key=lambda c: (-EV[c] * lean.get(LEAN[c], 0.4), c))
    return [first] + [HOME[c] for c in homes[:HOME_SHORTLIST] if HOME[c] != first]


HOME_SHORTLIST = 6  # home states a search weighs


def evaluate(state: RWHState, seat: int) -> float:
    """`seat`'s chance to win judged from the board (Game.ai_evaluate): each party's expected
    electoral votes — the states it has won, and every open state's votes times its chance in the
    race for it (the planner's `chance`: the blocks each side still needs) — and a logistic in the
    lead of `seat`'s party, per EVAL_SCALE votes."""
    party = next((q.party for q in state.pawns if q.seat == seat), None)
    if party is None:
        return 0.5
    _caps, to_win = sheet_scale(state)
    expected = {"D": 0.0, "R": 0.0}
    for code, owner in state.owner.items():
        if owner:
            expected[owner] += EV[code]
            continue
        room = CAP_TOTAL[state.options.blocks][code]
        d, r = count(state, code, "D"), count(state, code, "R")
        a, b = to_win[code] - d, to_win[code] - r
        expected["D"] += EV[code] * chance(a, b if room - r >= b else 99, room - d)
        expected["R"] += EV[code] * chance(b, a if room - d >= a else 99, room - r)
    lead = expected[party] - expected[OTHER[party]]
    return 1.0 / (1.0 + math.exp(-lead / EVAL_SCALE))


EVAL_SCALE = 30.0  # expected electoral votes of lead per unit of the logistic
