"""Race for the White House: where a placement's votes do most good — the plan behind the `rest`
move (the engine places what is left for a player) and the AI's placements.

Placement is greedy, one vote at a time, where it raises the party's expected
electoral votes most. A state's chance for me is a race between what I still
need and what my opponent still needs: w = b² / (a² + b²) (a: my blocks still
needed, b: theirs), zero if my empty blocks can no longer reach the number.
So a vote is worth most where a race is close to its end ("thick late"), and
big states weigh in by their electoral votes ("feed the big states"). Early in
the game a vote also earns a bonus for taking the lead in a category of a
state, because leads are what the Issues cards' ADD pays on ("thin early").
"""
from __future__ import annotations

import heapq
from functools import cache

from .data import EV, SCALES
from .models import OFF, OTHER, RWHState, Step
from .rules import party_ev, sheet_scale, step_codes

LEAD_BONUS = 1.0      # early-game value of taking a category lead, in blocks of that state
GAMMA = 1.5           # how sharply a race's chance turns with the blocks still needed
TEMPO = 0.15          # extra value of finishing a state now (its votes count at once), as a share of its EV
TEMPO_LATE = 0.35     # … growing to TEMPO + TEMPO_LATE late in the game


@cache  # small ints in, pure: the placement planner asks thousands of times a game
def chance(a: int, b: int, my_room: int) -> float:
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


def lateness(state: RWHState) -> float:
    """0 early in the game .. 1 late (by the electoral votes already decided)."""
    decided = party_ev(state, "D") + party_ev(state, "R")
    return min(1.0, decided / 300 + state.round / (40 * ROUNDS_SCALE[state.options.blocks]))


def plan(state: RWHState, step: Step, party: str) -> list[tuple[str, int, int]]:
    """Where this placement's remaining votes go: [(code, cat, n)], legal in order."""
    o, t = OFF[party], OFF[OTHER[party]]
    owner, fill = state.owner, state.fill
    cats = (0, 1, 2, 3, 4) if step.cat < 0 else (step.cat,)
    late = lateness(state)
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
        now = chance(a, bb, my_room)
        gain = EV[code] * (chance(a - 1, bb, my_room - 1) - now)
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
