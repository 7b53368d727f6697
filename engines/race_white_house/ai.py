"""The AI of Race for the White House. It uses the game's public rules only (rules, planner, menus,
actions), as any player could.

Placements follow the planner (planner.py, also behind the `rest` move): thin early, thick late,
feed the big states. An Issues position is taken by the votes its ADD brings against the votes it
gives the opponent; campaigns are entered while money for late TV stays; TV money is saved for late
in the game; debates are always taken; as a President it approves what its running mate proposes.
"""
from __future__ import annotations

import math

from ..core import Action
from ..rng import Rng
from .actions import (ADVANCE, APPROVE, DEBATE, DECLARE, DONE, ENTER, HOME, PASS, PLACE, RALLY, REST, ROLL,
                      TAKE, Buy, buy)
from .data import CATEGORIES, ENTRY_COST, EV, ISSUE_BY_SLUG, LEAN, REGIONS, TO_ELECT, TRACKS, TV_LOT, TV_MAX, TV_PRICE
from .menus import legal_actions
from .models import OFF, OTHER, RWHState, Step
from .planner import CAP_TOTAL, chance, lateness
from .rules import acting_pawn, count, leads, on_sheet, party_ev, sheet_codes, sheet_scale, step_codes

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
        # REST is one shared constant: found by identity, since `in` would compare it with every
        # `place` of the menu (pydantic's ==), the slowest part of a search's playouts
        return REST if any(a is REST for a in legal_actions(state, seat)) else DONE
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
    if kind == "approve":
        # as President: back the running mate. Refusing what this AI would not have spent itself
        # vetoed a hard or human running mate's early TV, the move measured best at a TV space; it
        # changed nothing when the running mate is this AI, which proposes only what it would approve
        # (docs/games/race-white-house.md, "why hard added nothing as a running mate")
        return APPROVE
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
    The home state: `choose`'s, then the others by the same score. A TV space: `tv_first`, not
    `choose`'s saving. Elsewhere: None (every legal move, `choose`'s first)."""
    if not state.steps or state.undeclared:
        return None
    kind = state.steps[0].kind
    if kind == "buy":
        return tv_first(legal_actions(state, seat))
    if kind not in ("place", "home"):
        return None
    first = choose(state, seat, rng)
    if kind == "place":
        return [first] + placement_alternatives(state, state.steps[0])
    p = acting_pawn(state)
    assert p is not None
    party = state.pawns[p].party
    taken = {q.home for q in state.pawns}
    lean = {"": 1.3, party: 0.6}
    homes = sorted((c for c in sheet_codes(state.pawns[p].sheet) if c not in taken),
                   key=lambda c: (-EV[c] * lean.get(LEAN[c], 0.4), c))
    return [first] + [HOME[c] for c in homes[:HOME_SHORTLIST] if HOME[c] != first]


def tv_first(legal: list[Action]) -> list[Action]:
    """A TV space: the biggest buy first, then smaller ones, then `pass`. The normal AI saves its
    money for late TV, as the rulebook advises; at each of the 48 early TV spaces where it passed
    in 60 games against itself, buying 30 votes was worth 0.23 of a win more on average (0.04 to
    0.44, each valued over the same 100 worlds; docs/games/race-white-house.md). So the search
    starts from the biggest buy, and its playouts decide where saving is better."""
    buys = sorted((a for a in legal if isinstance(a, Buy)), key=lambda a: -a.votes)
    return buys + [a for a in legal if not isinstance(a, Buy)]


HOME_SHORTLIST = 6  # home states a search weighs
PLACE_SHORTLIST = 3  # alternatives to the planner a search weighs at the start of a big placement
PLACE_MIN = 4        # … one of at least this many votes (smaller ones: the planner's alone)


def placement_alternatives(state: RWHState, step: Step) -> list[Action]:
    """Besides the planner's `rest`: at the start of a placement of PLACE_MIN votes or more, the
    first `place` of a few concentrated plans — as many of the votes as one category takes into one
    state: the biggest state these votes can win outright, then the states where that many votes
    raise the expected electoral votes most per vote (the planner's `chance`) — after which the
    planner places what is left. The planner spreads votes
    by one-vote gains; a search can weigh taking a big state in one go against it."""
    if step.placed or step.remaining < PLACE_MIN or step.where is not None and len(step.where) <= 1:
        return []
    party = state.pawns[step.pawn].party
    other = OTHER[party]
    o = OFF[party]
    caps, to_win = sheet_scale(state)
    total = CAP_TOTAL[state.options.blocks]
    cats = range(5) if step.cat < 0 else (step.cat,)
    scored: list[tuple[float, str, int, int]] = []
    finishes: list[tuple[float, str, int, int]] = []  # a state these votes win outright
    for code in step_codes(state, step):
        if state.owner[code]:
            continue
        mine, theirs = count(state, code, party), count(state, code, other)
        a, b = to_win[code] - mine, to_win[code] - theirs
        best_k = max(cats, key=lambda k: (caps[code][k] - state.fill[code][o + k], -k))
        n = min(step.remaining, a, caps[code][best_k] - state.fill[code][o + best_k])
        if n <= 0:
            continue
        bb = b if total[code] - theirs >= b else 99
        now = chance(a, bb, total[code] - mine)
        gain = EV[code] * (chance(a - n, bb, total[code] - mine - n) - now)
        scored.append((gain / n, code, best_k, n))
        if a <= step.remaining and sum(caps[code][k] - state.fill[code][o + k] for k in cats) >= a:
            finishes.append((EV[code] * (1.0 - now), code, best_k, n))
    scored.sort(key=lambda t: (-t[0], t[1]))
    finishes.sort(key=lambda t: (-t[0], t[1]))
    picked = finishes[:1] + [t for t in scored if not finishes or t[1] != finishes[0][1]]
    return [PLACE[code][k][n][n - 1] for _g, code, k, n in picked[:PLACE_SHORTLIST]]


def evaluate(state: RWHState, seat: int) -> float:
    """`seat`'s chance to win judged from the board (Game.ai_evaluate): its party's electoral votes
    at the end, as the states it has won plus every open state won with its chance in the race for
    it (the planner's `chance`: the blocks each side still needs), one coin per state — the chance
    that they reach 270, by the normal approximation of that sum (a spread of EVAL_SPREAD votes
    added for what the coins leave out: both sides draw on one supply of votes). Late in a race
    few coins are left, so a lead of 20 votes means more than it does early."""
    party = next((q.party for q in state.pawns if q.seat == seat), None)
    if party is None:
        return 0.5
    other = OTHER[party]
    _caps, to_win = sheet_scale(state)
    room_of = CAP_TOTAL[state.options.blocks]
    mean = variance = 0.0
    for code, owner in state.owner.items():
        ev = EV[code]
        if owner:
            if owner == party:
                mean += ev
            continue
        room = room_of[code]
        mine, theirs = count(state, code, party), count(state, code, other)
        a, b = to_win[code] - mine, to_win[code] - theirs
        w = chance(a, b if room - theirs >= b else 99, room - mine)
        lose = chance(b, a if room - mine >= a else 99, room - theirs)
        if w + lose > 0:
            w = w / (w + lose)  # the state is decided one way or the other (a dead race: neither)
        mean += ev * w
        variance += ev * ev * w * (1.0 - w)
    z = (mean - (TO_ELECT - 0.5)) / math.sqrt(variance + EVAL_SPREAD ** 2)
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


# electoral votes of uncertainty beyond the states' own coins (the best log-loss of 15/30/45/60 over
# 718 positions of 150 normal-against-normal games)
EVAL_SPREAD = 45.0
