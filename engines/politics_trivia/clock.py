"""The clock: how long each wait lasts, and the default move when time runs out."""
from __future__ import annotations

from ..wording import possessive, subject
from ..core import SYSTEM, Event, RuleError, Timer
from . import acting, asking, offers, runoff, turns, wildcards
from .acting import name_of
from .actions import DEAL, END, MOVE, ROLL, STAY, Discard, Home
from .board import DC, EV, JUDGED, REACH, STATES, WILD, _ev
from .models import TriviaState


# the clock ---------------------------------------------------------------
def timeout(state: TriviaState) -> list[Event]:
    ph = state.phase
    events: list[Event] = []
    if ph == "homes":
        for s, p in enumerate(state.players):
            if p.dealt:
                events += turns.discard(state, s, Discard(card=p.dealt[-1]))
        chooser = acting.chooser(state)
        if chooser is not None and state.phase == "homes":
            taken = {x.home for x in state.players}
            code = max((c for c in STATES if c not in taken), key=lambda c: (EV[c], c))
            events.insert(0, _ev(f"⏰ Time: {subject(name_of(state, chooser), 'is')} given a home state."))
            events += turns.home(state, chooser, Home(state=code))
        return events
    seat = state.turn
    if ph == "start":
        p = state.players[seat]
        events.append(_ev(f"⏰ Time: {name_of(state, seat)} " +
                          ("stays in D.C." if p.at == DC and p.dc_turns < 4 and p.debt > 0 else "rolls.")))
        if p.at == DC and p.dc_turns < 4 and p.debt > 0:
            return events + turns.stay(state, seat, STAY)
        return events + turns.roll(state, seat, ROLL)
    if ph == "move":
        p = state.players[seat]
        assert p.at is not None and state.dice is not None  # a move follows a roll, from a home state on
        reach = REACH[p.at][sum(state.dice)]
        code = max(reach, key=lambda c: (state.chips.get(c) is None and c != DC, EV[c], c))
        events.append(_ev(f"⏰ Time: {subject(name_of(state, seat), 'is')} moved to the most valuable state in reach."))
        return events + turns.move(state, seat, MOVE[code])
    if ph in ("choose", "claim"):
        events.append(_ev(f"⏰ Time: {possessive(name_of(state, seat))} turn ends."))
        return events + turns.end(state, seat, END)
    if ph == "deal":
        events.append(_ev("⏰ Time: the offer counts as declined."))
        assert state.deal is not None  # the phase says there is one
        return events + offers.answer_offer(state, state.deal.holder, DEAL[False])
    if ph == "question":
        return asking.resolve_question(state, None)
    if ph == "wildcard":
        w = state.wild
        assert w is not None  # the phase says there is one
        card = WILD[w.card]
        if w.stage == "ready":
            actor = None
            if card.kind == "direct":
                n = len(state.seats)
                judges = sorted(acting.judges(state), key=lambda s: (w.performer - s) % n)
                actor = judges[0] if judges else None
            events.append(_ev("⏰ Time: the performance starts."))
            return events + wildcards.start_performance(state, actor)
        if card.kind in JUDGED:
            yes = sum(v[1] for v in w.votes)
            no = len(w.votes) - yes
            events.append(_ev(f"⏰ Time: the judges' votes are counted ({yes} yes, {no} no)."))
            wildcards.wild_result(state, yes > no, None, events)
            return events
        events.append(_ev("⏰ Time is up."))
        wildcards.wild_result(state, False, None, events)
        return events
    if ph == "h2h":
        h = state.h2h
        assert h is not None  # the phase says there is one
        late = [s for s, x in zip(h.seats, h.answers) if x is None]
        events.append(_ev(f"⏰ Time: {' and '.join(name_of(state, s) for s in late)} hand in nothing."))
        for i in range(2):
            if h.answers[i] is None:
                h.answers[i] = ""
        runoff.h2h_reveal(state, events)
        return events
    if ph == "review":
        runoff.close_review(state, events)
        return events
    raise RuleError("Nothing is waiting for the clock.")


# how long each wait lasts --------------------------------------------------
def timer(state: TriviaState) -> Timer | None:
    ph = state.phase
    o = state.options
    if ph == "over":
        return None
    if ph in ("question", "h2h"):
        seconds = o.question_seconds
    elif ph == "deal":
        seconds = o.offer_seconds
    elif ph == "review":
        seconds = o.review_seconds
    elif ph == "wildcard":
        w = state.wild
        seconds = WILD[w.card].seconds if w is not None and w.stage == "performing" else o.offer_seconds
    else:
        if not o.turn_seconds:
            return None
        seconds = o.turn_seconds
    return Timer(seconds=seconds, seat=SYSTEM, action_text="timeout", key=f"{ph}-{state.wait}")
