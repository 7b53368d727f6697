"""The AI of Race for the White House (and the `rest` helper's placement plan).

Placement is greedy, one vote at a time, where it raises the party's expected
electoral votes most. A state's chance for me is a race between what I still
need and what my opponent still needs: w = b² / (a² + b²) (a: my blocks still
needed, b: theirs), zero if my empty blocks can no longer reach the number.
So a vote is worth most where a race is close to its end ("thick late"), and
big states weigh in by their electoral votes ("feed the big states"). Early in
the game a vote also earns a bonus for taking the lead in a category of a
state, because leads are what the Issues cards' ADD pays on ("thin early").
TV money is saved for late in the game; debates are always taken.
"""
from __future__ import annotations

import heapq
from functools import lru_cache

from ..core import Action
from ..rng import Rng
from .data import (CATEGORIES, ENTRY_COST, EV, ISSUE_BY_SLUG, LEAN, REGIONS, SCALES, TO_ELECT, TRACKS, TV_LOT,
                   TV_MAX, TV_PRICE)
from .game import (_RALLY, _ADVANCE, _APPROVE, _DEBATE, _DECLARE, _DONE, _ENTER, _HOME, _PASS, _REFUSE, _REST, _ROLL,
                   _TAKE, OFF, OTHER, Buy, RaceWhiteHouse, RWHState, Step, _buy, leads, on_sheet, party_ev,
                   sheet_codes, sheet_scale, step_codes)

LEAD_BONUS = 1.0      # early-game value of taking a category lead, in blocks of that state
GAMMA = 1.5           # how sharply a race's chance turns with the blocks still needed
TEMPO = 0.15          # extra value of finishing a state now (its votes count at once), as a share of its EV
TEMPO_LATE = 0.35     # … growing to TEMPO + TEMPO_LATE late in the game
RESERVE = 15_000_000  # money kept for late TV before paying to enter a campaign (shrinks as the game goes on)
TV_LATE = 0.3         # from this lateness on, TV buys as much as it may


@lru_cache(maxsize=None)  # small ints in, pure: the placement planner asks thousands of times a game
def _chance(a: int, b: int, my_room: int) -> float:
    """A rough chance to win a race needing a blocks against an opponent needing b."""
    if a <= 0:
        return 1.0
    if my_room < a:
        return 0.0
    if b <= 0:
        return 0.0
    x, y = a ** GAMMA, b ** GAMMA
    return y / (x + y)


# every block of a party in a state, per scale
CAP_TOTAL = {scale: {code: sum(cap) for code, cap in caps.items()} for scale, (caps, _tw) in SCALES.items()}


# How much longer a race runs on each sheet scale (median rounds of AI games: 14 short, 39.5 on the
# rulebook's sheets), so "late in the game" comes at the same point of the race.
ROUNDS_SCALE = {"short": 1.0, "rulebook": 2.8}


def _lateness(state: RWHState) -> float:
    """0 early in the game .. 1 late (by the electoral votes already decided)."""
    decided = party_ev(state, "D") + party_ev(state, "R")
    return min(1.0, decided / 300 + state.round / (40 * ROUNDS_SCALE[state.options.blocks]))


def plan(state: RWHState, step: Step, party: str) -> list[tuple[str, int, int]]:
    """Where this placement's remaining votes go: [(code, cat, n)], legal in order."""
    o, t = OFF[party], OFF[OTHER[party]]
    owner, fill = state.owner, state.fill
    cats = (0, 1, 2, 3, 4) if step.cat < 0 else (step.cat,)
    late = _lateness(state)
    bonus = LEAD_BONUS * (1.0 - late)
    # local copies: [mine per cat], [theirs per cat]
    work: dict[str, list[int]] = {}
    for code in step_codes(state, step):
        if owner[code]:
            continue
        work[code] = fill[code][:]
    if not work:
        return []

    tempo = TEMPO + TEMPO_LATE * late
    remaining = step.remaining
    caps, to_win = sheet_scale(state)
    cap_total = CAP_TOTAL[state.options.blocks]

    def best_in(code: str) -> tuple[float, int]:
        f = work[code]
        cap = caps[code]
        mine = f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4]
        theirs = f[t] + f[t + 1] + f[t + 2] + f[t + 3] + f[t + 4]
        tw = to_win[code]
        a, b = tw - mine, tw - theirs
        if a <= 0:
            return -1.0, -1
        room = cap_total[code]
        my_room = room - mine
        their_room = room - theirs
        bb = b if their_room >= b else 99
        now = _chance(a, bb, my_room)
        gain = EV[code] * (_chance(a - 1, bb, my_room - 1) - now)
        if a <= remaining:  # this placement can finish the state: value the whole finish, per vote
            finish = (EV[code] * (1.0 - now + tempo)) / a
            if finish > gain:
                gain = finish
        best, best_k = -1.0, -1
        for k in cats:
            r = cap[k] - f[o + k]
            if r <= 0:
                continue
            v = 0.0
            mk, tk = f[o + k], f[t + k]
            if mk <= tk and cap[k] > mk + 1:  # this vote takes (or ties toward) the lead in k
                v += bonus * (1.0 if mk == tk else 0.3) * EV[code] / (2 * tw)
            v += r * 0.01
            if v > best:
                best, best_k = v, k
        if best_k < 0:
            return -1.0, -1
        return gain + best, best_k

    scores = {code: best_in(code) for code in work}
    # The best state is the top of a heap (ties to the earlier state, as max() over the dict
    # would pick); an entry whose score was replaced since is skipped when it comes up.
    index = {code: i for i, code in enumerate(work)}
    heap = [(-sc[0], index[c], c) for c, sc in scores.items()]
    heapq.heapify(heap)
    # states by the votes they still need, so "needs one more than is left" is a look-up
    need = {c: to_win[c] - (w[o] + w[o + 1] + w[o + 2] + w[o + 3] + w[o + 4]) for c, w in work.items()}
    by_need: dict[int, set[str]] = {}
    for c, nd in need.items():
        by_need.setdefault(nd, set()).add(c)

    def rescore(c: str) -> None:
        scores[c] = sc = best_in(c)
        heapq.heappush(heap, (-sc[0], index[c], c))

    out: list[tuple[str, int, int]] = []
    while remaining > 0 and scores:
        while True:
            neg, _i, code = heap[0]
            current = scores.get(code)
            if current is not None and current[0] == -neg:
                break
            heapq.heappop(heap)
        score, k = scores[code]
        if score < 0 or k < 0:
            break
        work[code][o + k] += 1
        remaining -= 1
        if out and out[-1][0] == code and out[-1][1] == k:
            out[-1] = (code, k, out[-1][2] + 1)
        else:
            out.append((code, k, 1))
        by_need[need[code]].discard(code)
        need[code] -= 1
        if need[code] <= 0:
            del scores[code]
        else:
            by_need.setdefault(need[code], set()).add(code)
            rescore(code)
        # one vote fewer left: a state needing exactly one more than that can no longer be finished now
        for c in by_need.get(remaining + 1, ()):
            rescore(c)
    return out


def _issue_value(state: RWHState, p: int, pos: tuple) -> float:
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


def _would_enter(state: RWHState, party: str, cost: int) -> bool:
    """Pay to enter a campaign only while the money kept for late TV stays."""
    return not cost or state.funds[party] >= cost + RESERVE * (1.0 - _lateness(state))


def _would_buy_tv(state: RWHState, party: str) -> bool:
    """TV late in the game, or once either party is within 100 electoral votes of winning."""
    mine, theirs = party_ev(state, party), party_ev(state, OTHER[party])
    return _lateness(state) >= TV_LATE or max(mine, theirs) >= TO_ELECT - 100


def choose(game: RaceWhiteHouse, state: RWHState, seat: int, rng: Rng) -> Action:
    p = game.acting_pawn(state)
    assert p is not None
    pawn = state.pawns[p]
    party = pawn.party
    for code, q in state.undeclared:
        if state.pawns[q].seat == seat:
            return _DECLARE[code]
    if not state.steps:
        return _ROLL
    step = state.steps[0]
    kind = step.kind
    if kind == "place":
        legal = game.legal_actions(state, seat)
        if _REST in legal:
            return _REST
        return _DONE
    if kind == "declare":
        return _DONE
    if kind == "home":
        taken = {q.home for q in state.pawns}

        def home_score(c: str) -> float:
            lean = LEAN[c]
            return EV[c] * (1.3 if lean == "" else (0.6 if lean == party else 0.4))
        choices = [c for c in sheet_codes(pawn.sheet) if c not in taken]
        return _HOME[max(choices, key=home_score)]
    if kind == "issue":
        card = ISSUE_BY_SLUG[step.card]
        a, b = card[2]
        va, vb = _issue_value(state, p, a), _issue_value(state, p, b)
        return _TAKE[a[0] if va >= vb else b[0]]
    if kind == "enter":
        return _ENTER if _would_enter(state, party, ENTRY_COST[step.card]) else _PASS
    if kind == "approve":  # as President: agree to what this AI would have spent itself
        proposal = game.parse_action(step.card)
        wanted = _would_buy_tv(state, party) if isinstance(proposal, Buy) else \
            _would_enter(state, party, ENTRY_COST[state.steps[1].card])
        return _APPROVE if wanted else _REFUSE
    if kind == "advance":
        options = [t for t in TRACKS if _would_enter(state, party, ENTRY_COST[t])]
        # the campaign whose category this party leads in most states (ADD spaces pay on leads)
        def track_score(t: str) -> int:
            k = CATEGORIES.index(t)
            return sum(1 for c in sheet_codes(pawn.sheet) if not state.owner[c] and leads(state, c, party, k))
        return _ADVANCE[max(options, key=track_score)] if options else _PASS
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
        return _RALLY[CATEGORIES[max(range(5), key=rally_score)]]
    if kind == "debate":
        return _DEBATE
    if kind == "buy":
        lots = min(state.funds[party] // TV_PRICE, TV_MAX // TV_LOT)
        return _buy(lots * TV_LOT) if lots and _would_buy_tv(state, party) else _PASS
    legal = game.legal_actions(state, seat)
    return legal[rng.below(len(legal))]


__all__ = ["choose", "plan", "on_sheet"]
