"""Who may act now, and how seats are named: the questions every phase asks before it
changes anything."""
from __future__ import annotations

from ..core import RuleError, seat_token
from ..wording import possessive
from .board import GUESSING, HOW_TO_GUESS, JUDGED, WILD
from .models import TriviaState


# ---- who may act -----------------------------------------------------
def to_act(state: TriviaState) -> list[int]:
    ph = state.phase
    if ph in ("start", "move", "choose", "claim"):
        return [state.turn]
    if ph == "question":
        q = state.q
        assert q is not None  # the phase says there is one
        out = [q.asker]
        out += [s for s in q.responders if s not in out]
        if q.helper is not None and q.hint is None and q.helper not in out:
            out.append(q.helper)
        return out
    if ph == "deal":
        assert state.deal is not None  # the phase says there is one
        return [state.deal.holder]
    if ph == "homes":
        out = [s for s, p in enumerate(state.players) if p.dealt]
        picking = chooser(state)
        if picking is not None and picking not in out:
            out.append(picking)
        return sorted(out)
    if ph == "wildcard":
        w = state.wild
        assert w is not None  # the phase says there is one
        if w.stage == "ready":
            return [w.performer]
        card = WILD[w.card]
        if card.kind in JUDGED:
            voted = {v[0] for v in w.votes}
            return [s for s in judges(state) if s not in voted]
        return []
    if ph == "h2h":
        h = state.h2h
        assert h is not None  # the phase says there is one
        return [s for s, a in zip(h.seats, h.answers) if a is None]
    if ph == "review":
        h = state.h2h
        assert h is not None  # the phase says there is one
        return [s for s in h.reviewers if s not in h.oks]
    return []


def may_act(state: TriviaState, seat: int) -> bool:
    if state.phase == "over" or not 0 <= seat < len(state.seats):
        return False
    if seat in to_act(state):
        return True
    ph = state.phase
    if ph == "question" and may_offer_help(state, seat):
        return True
    w = state.wild
    if ph == "wildcard" and w is not None and seat == w.performer:
        return True  # the performer may give the card up at any stage, even while the judges vote
    if ph == "wildcard" and w is not None and w.stage == "performing" and WILD[w.card].kind in GUESSING:
        return True  # guesses
    if ph in ("start", "move", "choose", "deal", "question", "claim", "wildcard") and not state.players[seat].wrapup:
        return True  # the wrap-up vote
    return False


def not_your_turn(state: TriviaState, seat: int) -> str:
    h = state.h2h
    if state.phase == "h2h" and h is not None and seat in h.seats:
        other = h.seats[1 - h.seats.index(seat)]
        return (f"You have already handed in your answer to this question; waiting for "
                f"{name_of(state, other)}.")
    if state.phase == "review" and h is not None and seat in h.reviewers:
        return "You have already reviewed these verdicts."
    # the engine contract's default wording (Game.not_your_turn)
    names = ", ".join(name_of(state, s) for s in to_act(state) if s >= 0)
    return f"It is not your turn: waiting for {names}." if names else "Nobody can act right now."


def chooser(state: TriviaState) -> int | None:
    for s in state.home_order:
        if state.players[s].home is None:
            return s
    return None


def judges(state: TriviaState) -> list[int]:
    w = state.wild
    assert w is not None  # only asked while a Wildcard is on
    return [s for s in range(len(state.seats)) if s != w.performer and not state.players[s].out]


def may_offer_help(state: TriviaState, seat: int) -> bool:
    q = state.q
    if q is None or seat == q.asker or q.helper is not None:
        return False
    return seat not in q.declined and all(o[0] != seat for o in q.offers)


def token_of(state: TriviaState, seat: int) -> str:
    return seat_token([s.name for s in state.seats], seat)


def can_pay(state: TriviaState, seat: int, price: int, unit: str) -> bool:
    p = state.players[seat]
    return (p.cash if unit == "cash" else p.pv) >= price


def overrulable(state: TriviaState, reviewer: int) -> list[int]:
    """Answerers whose verdict `reviewer` may still vote to overrule."""
    h = state.h2h
    assert h is not None  # the phase says there is one
    out = []
    for i, a in enumerate(h.seats):
        if not (h.answers[i] or "").strip():
            continue
        if [reviewer, a] in h.overrules:
            continue
        if reviewer in h.seats:  # no other players: a contestant may only concede the other's answer
            if a == reviewer or h.verdicts[i]:
                continue
        out.append(a)
    return out


def name_of(state: TriviaState, seat: int) -> str:
    return state.seats[seat].name


def wrong_turn(state: TriviaState, seat: int, what: str) -> RuleError:
    """A turn's move out of its place, from a seat the game waits for: `what` (the rule of this
    turn's step) on its own turn; before the first turn and after the last, what the game waits
    for instead (a seat's number in `state.turn` means nothing then, so it must not decide)."""
    if state.phase == "homes":
        return RuleError(setup_first(state, seat))
    if state.phase in ("h2h", "review"):
        return RuleError(no_turns(state))
    if seat != state.turn:
        return RuleError(asked_elsewhere(state, seat) if may_act(state, seat) else not_your_turn(state, seat))
    return RuleError(what)


def asked_elsewhere(state: TriviaState, seat: int) -> str:
    """Another's turn, while the game waits for `seat` too (a deal for its chip, help on a question,
    a Wildcard to judge or guess): what it can do, not "waiting for" a list that names itself.
    (The moves legal.py offers such a seat; legal.py reads this module, so they are named here.)"""
    q, w, d = state.q, state.wild, state.deal
    can = ""
    if state.phase == "deal" and d is not None and seat == d.holder:
        can = "`deal yes` or `deal no`"
    elif state.phase == "question" and q is not None:
        if seat == q.helper and q.hint is None:
            can = "`suggest <choice>`"
        elif may_offer_help(state, seat):
            can = "`help <price> <unit>`" + (" or `nohelp`" if seat in q.responders else "")
    elif state.phase == "wildcard" and w is not None and seat != w.performer and w.stage == "performing":
        kind = WILD[w.card].kind
        if kind in JUDGED and seat in judges(state) and all(v[0] != seat for v in w.votes):
            can = "`judge yes` or `judge no`"
        elif kind in GUESSING:
            can = HOW_TO_GUESS[0].lower() + HOW_TO_GUESS[1:]  # a Wildcard's guess is typed, not chosen
    if not can:
        return not_your_turn(state, seat)
    return f"It is {possessive(name_of(state, state.turn))} turn, not yours; what you can do now: {can}."


def setup_first(state: TriviaState, seat: int) -> str:
    """What setup waits for from `seat`: a card to return, else its home state (to_act's two)."""
    if state.players[seat].dealt:
        return "Setup comes first: return one of your three opening Gerrymander cards (`discard <id>`)."
    return "Setup comes first: choose your home state (`home <state>`)."


def no_turns(state: TriviaState) -> str:
    h = state.h2h
    label = "the runoff" if h is not None and h.kind == "runoff" else "speed play"
    if state.phase == "review":
        return f"The turns are over: {label} is on. Review the verdicts (`ok`, or `overrule <name>`)."
    return f"The turns are over: {label} is on. Answer the question (`guess <answer>`), or `pass`."
