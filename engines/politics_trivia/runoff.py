"""The end of the game: 270 with the most Popular Votes, the runoff, speed play
(after the round limit or a majority wrap-up vote) and the review of free-text
verdicts."""
from __future__ import annotations

from ..core import Event, RuleError, resolve_seat
from ..rng import Rng
from ..wording import opening, possessive, subject, verb_for
from . import acting, pile
from .acting import name_of
from .actions import Ok, Overrule, PassAnswer, Wrapup
from .board import MAJORITY, NAMES, STATES, _ev, _match
from .models import H2H, TriviaState, chips_of, ev_of


# winning --------------------------------------------------------------
def check_270(state: TriviaState, events: list[Event]) -> bool:
    if state.phase in ("over", "h2h", "review"):
        return state.phase == "over"
    n = len(state.seats)
    evs = [ev_of(state, s) for s in range(n)]
    holder = next((s for s in range(n) if evs[s] >= MAJORITY), None)
    if holder is None:
        return False
    pvs = [state.players[s].pv for s in range(n)]
    # The rulebook sends to a runoff only a rival with MORE Popular Votes: a tie goes to the 270 holder.
    rivals = [s for s in range(n) if s != holder and pvs[s] > pvs[holder]]
    name = name_of(state, holder)
    if not rivals:
        finish(state, holder, f"{subject(name, 'reaches', start=True)} {evs[holder]} electoral votes with the "
                              f"most Popular Votes "
               f"({pvs[holder]}M) and {verb_for(name, 'is')} elected President!", events, "270")
        return True
    top = max(pvs[s] for s in rivals)
    best = seeded_order(state, [s for s in rivals if pvs[s] == top], lambda s: -evs[s])[0]
    events.append(_ev(f"🗳️ {subject(name, 'has', start=True)} {evs[holder]} electoral votes, but "
                      f"{subject(name_of(state, best), 'has')} more "
                      f"Popular Votes ({pvs[best]}M to {pvs[holder]}M): a **runoff**! 5 General and 5 State "
                      "questions, no choices, typed answers in secret, no help."))
    state.h2h = H2H(kind="runoff", seats=[holder, best])
    h2h_round(state, events)
    return True


def finish(state: TriviaState, winner: int, outcome: str, events: list[Event], ending: str) -> None:
    state.phase = "over"
    state.winner = winner
    state.outcome = outcome
    state.ending = ending
    state.q = None
    state.wild = None
    state.deal = None
    events.append(_ev(f"🏛️ {outcome}"))


def seeded_order(state: TriviaState, seats: list[int], key) -> list[int]:
    """`seats` sorted by `key`; candidates tied on it are put in a seeded random order (never by seat
    number, which would favour one chair). The RNG is only drawn from when there is a tie."""
    ordered = sorted(seats, key=key)
    keys = [key(s) for s in ordered]
    if len(set(keys)) == len(keys):
        return ordered
    rng = Rng(state.rng)
    draw = {s: rng.random() for s in ordered}
    state.rng = rng.state
    return sorted(ordered, key=lambda s: (key(s), draw[s]))


# runoff and speed play ------------------------------------------------
def start_speed(state: TriviaState, events: list[Event], reason: str) -> None:
    """Speed play, because of `reason`: "speed" (the wrap-up vote), "limit" (max_rounds) or "stall"."""
    n = len(state.seats)
    alive = [s for s in range(n) if not state.players[s].out]
    order = seeded_order(state, alive, lambda s: (ev_of(state, s), state.players[s].pv))
    state.q = None
    state.wild = None
    state.deal = None
    state.speed_reason = reason
    why = {"speed": "The table voted to wrap up.",
           "limit": f"{state.options.max_rounds} rounds are played.",
           "stall": f"Nobody has set a new high of electoral votes for {state.options.stall_rounds} rounds."}[reason]
    listing = ", ".join(f"{name_of(state, s)} {ev_of(state, s)} EV" for s in order)
    events.append(_ev(f"⏱️ {why} **Speed play!** Every vote is up for grabs. From the lowest EV up ({listing}): "
                      "head-to-head rounds of 5 General questions, typed answers in secret; the winner takes the "
                      "loser's votes, the loser is out."))
    state.h2h = H2H(kind="speed", seats=order[:2], queue=order[2:])
    h2h_round(state, events)


def h2h_round(state: TriviaState, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    rng = Rng(state.rng)
    qids: list[str] = []
    if h.kind == "runoff":
        for _ in range(5):
            qids.append(pile.draw(state, rng, "general", None, free_text=True).id)
            code = rng.choice(STATES)
            qids.append(pile.draw(state, rng, "state", code, free_text=True).id)
    else:
        for _ in range(5):
            qids.append(pile.draw(state, rng, "general", None, free_text=True).id)
    state.rng = rng.state
    h.qids = qids
    h.qn = 0
    h.scores = [0, 0]
    a, b = h.seats
    label = "Runoff" if h.kind == "runoff" else "Speed play"
    rep = f" (replay {h.round - 1})" if h.round > 1 else ""
    events.append(_ev(f"**{label}{rep}: {name_of(state, a)} vs {name_of(state, b)}** — "
                      f"{len(qids)} questions."))
    h2h_question(state, events)


def h2h_question(state: TriviaState, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    h.answers = [None, None]
    h.verdicts = [False, False]
    h.reviewers, h.oks, h.overrules = [], [], []
    state.phase = "h2h"
    state.wait += 1
    q = pile.asked(state, h.qids[h.qn])
    about = f" ({NAMES.get(q.state, q.state)})" if q.category == "state" and q.state else ""
    events.append(_ev(f"Question {h.qn + 1} of {len(h.qids)} — {q.category.title()}{about}:\n**{q.text}**\n"
                      f"{opening(name_of(state, h.seats[0]))} and {name_of(state, h.seats[1])}: type your answer "
                      f"(`guess …`, it stays secret until both are in); {state.options.question_seconds} seconds."))


def h2h_answer(state: TriviaState, seat: int, text: str) -> list[Event]:
    h = state.h2h
    assert h is not None  # the phase says there is one
    if seat not in h.seats:
        raise RuleError("Only the two candidates in this head-to-head round answer.")
    i = h.seats.index(seat)
    if h.answers[i] is not None:
        raise RuleError("You have already handed in your answer to this question.")
    if len(text) > 200:
        raise RuleError("Keep an answer under 200 characters.")
    h.answers[i] = text
    shown = text if text else "(blank)"
    events = [_ev(f"{subject(name_of(state, seat), 'has', start=True)} handed in an answer."),
              _ev(f"Your answer: “{shown[:100]}”.", to=[seat])]
    if all(x is not None for x in h.answers):
        h2h_reveal(state, events)
    return events


def pass_answer(state: TriviaState, seat: int, a: PassAnswer) -> list[Event]:
    if state.phase != "h2h":
        raise RuleError("A blank answer is only handed in during a runoff or speed play.")
    return h2h_answer(state, seat, "")


def h2h_reveal(state: TriviaState, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    q = pile.asked(state, h.qids[h.qn])
    bits = []
    for i, s in enumerate(h.seats):
        given = h.answers[i] or ""
        ok = bool(given.strip()) and _match(given, q)
        h.verdicts[i] = ok
        shown = f"“{given[:80]}”" if given.strip() else "nothing"
        bits.append(f"{name_of(state, s)} wrote {shown} {'✅' if ok else '❌'}")
    events.append(_ev(f"The answer: **{q.answer}**. " + opening("; ".join(bits)) + "."))
    n = len(state.seats)
    judges = [s for s in range(n) if s not in h.seats]
    h.reviewers = judges if judges else list(h.seats)
    h.reviewers = [r for r in h.reviewers if acting.overrulable(state, r)]
    if h.reviewers:
        state.phase = "review"
        state.wait += 1
        who = "the other candidates (majority)" if judges else "the other contestant (only to accept an answer)"
        events.append(_ev(f"A verdict may be overruled by {who}: `overrule <name>` or `ok` "
                          f"({state.options.review_seconds} seconds)."))
        return
    h2h_score(state, events)


def overrule(state: TriviaState, seat: int, a: Overrule) -> list[Event]:
    h = state.h2h
    if state.phase != "review" or h is None or seat not in h.reviewers or seat in h.oks:
        raise RuleError("There is no verdict for you to overrule now.")
    target = resolve_seat([x.name for x in state.seats], a.seat, me=seat)
    if target not in acting.overrulable(state, seat):
        if target in h.seats and seat in h.seats:
            raise RuleError("A contestant may only accept the other contestant's answer, not change their own.")
        raise RuleError("You cannot overrule that verdict (no answer, or you already voted on it).")
    h.overrules.append([seat, target])
    events = [_ev(f"{subject(name_of(state, seat), 'votes', start=True)} to overrule the verdict on "
                  f"{possessive(name_of(state, target))} answer.")]
    if not acting.overrulable(state, seat):
        h.oks.append(seat)
    if all(r in h.oks for r in h.reviewers):
        close_review(state, events)
    return events


def ok(state: TriviaState, seat: int, a: Ok) -> list[Event]:
    h = state.h2h
    if state.phase != "review" or h is None or seat not in h.reviewers:
        raise RuleError("There is no verdict for you to review now.")
    if seat in h.oks:
        raise RuleError("You have already accepted the verdicts.")
    h.oks.append(seat)
    events: list[Event] = []
    if all(r in h.oks for r in h.reviewers):
        close_review(state, events)
    return events


def close_review(state: TriviaState, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    contestants_only = all(r in h.seats for r in h.reviewers)
    n_judges = len([s for s in range(len(state.seats)) if s not in h.seats])
    for i, s in enumerate(h.seats):
        votes = sum(1 for r, t in h.overrules if t == s)
        flip = votes >= 1 if contestants_only else votes * 2 > n_judges
        if flip:
            h.verdicts[i] = not h.verdicts[i]
            events.append(_ev(f"Overruled: {possessive(name_of(state, s))} answer now counts as "
                              f"{'right ✅' if h.verdicts[i] else 'wrong ❌'}."))
    h2h_score(state, events)


def h2h_score(state: TriviaState, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    for i in range(2):
        if h.verdicts[i]:
            h.scores[i] += 1
    h.history.append({"qid": h.qids[h.qn], "answers": list(h.answers), "verdicts": list(h.verdicts)})
    if len(h.history) > 30:
        del h.history[:-30]
    h.qn += 1
    if h.qn < len(h.qids):
        h2h_question(state, events)
        return
    a, b = h.seats
    sa, sb = h.scores
    events.append(_ev(f"Score: {name_of(state, a)} {sa}, {name_of(state, b)} {sb}."))
    if sa == sb:
        if h.round <= state.options.max_tiebreaks:
            h.round += 1
            events.append(_ev("A tie: the round is played again."))
            h2h_round(state, events)
            return
        key = lambda s: (-ev_of(state, s), -state.players[s].pv, -state.players[s].cash)  # noqa: E731
        win = seeded_order(state, [a, b], key)[0]
        events.append(_ev(f"Still tied after {state.options.max_tiebreaks} replays: "
                          f"{subject(name_of(state, win), 'goes', start=True)} through on electoral votes."))
    else:
        win = a if sa > sb else b
    lose = b if win == a else a
    h2h_settle(state, win, lose, events)


def h2h_settle(state: TriviaState, win: int, lose: int, events: list[Event]) -> None:
    h = state.h2h
    assert h is not None  # the phase says there is one
    W, L = state.players[win], state.players[lose]
    for c in chips_of(state, lose):
        state.chips[c] = win
    W.pv += L.pv
    L.pv = 0
    wn, ln = name_of(state, win), name_of(state, lose)
    if h.kind == "runoff":
        W.cash += L.cash
        L.cash = 0
        finish(state, win, f"{subject(wn, 'wins', start=True)} the runoff, {verb_for(wn, 'takes')} {possessive(ln)} "
               f"votes and money, and {verb_for(wn, 'is')} elected President with {ev_of(state, win)} electoral "
               "votes!", events, "runoff")
        return
    L.out = True
    if not h.queue:
        finish(state, win, f"{subject(wn, 'is', start=True)} the last candidate standing after speed play and "
               f"{verb_for(wn, 'is')} elected President with {ev_of(state, win)} electoral votes!", events,
               "speed" if state.speed_reason == "speed" else "limit")
        return
    nxt = h.queue.pop(0)
    events.append(_ev(f"{subject(wn, 'takes', start=True)} {possessive(ln)} votes; {subject(ln, 'is')} out. Next: {wn} "
                      f"against {name_of(state, nxt)}."))
    state.h2h = H2H(kind="speed", seats=[win, nxt], queue=h.queue, history=h.history)
    h2h_round(state, events)


# wrap-up vote ------------------------------------------------------------
def wrapup(state: TriviaState, seat: int, a: Wrapup) -> list[Event]:
    if state.phase in ("homes", "h2h", "review"):
        raise RuleError("A wrap-up vote is held during ordinary turns.")
    p = state.players[seat]
    if p.wrapup:
        raise RuleError("You have already voted to wrap up.")
    p.wrapup = True
    n = len(state.seats)
    votes = sum(1 for x in state.players if x.wrapup)
    line = (f"{subject(name_of(state, seat), 'votes', start=True)} to wrap up ({votes} of {n}; a majority needs "
            f"{n // 2 + 1}).")
    if votes * 2 > n:
        state.speed_due = True
        line += " Speed play starts after this turn."
    return [_ev(line)]
