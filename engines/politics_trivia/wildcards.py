"""Wildcards (performances and campaign events) and the shortfall rules for
cash, Popular Votes and electoral votes a card asks for."""
from __future__ import annotations

from ..core import Action, Event, RuleError, resolve_seat
from ..rng import Rng
from ..wording import card_for, subject, verb_for
from . import acting, flow, performing, runoff
from .acting import name_of
from .actions import GiveUp, Guess, Judge, Perform
from .board import (DC, EV, GUESSING, HOW_TO_GUESS, JUDGED, NAMES, WILD, _ev, _match, _money, _plural,
                    _secret_question, code_of)
from .models import TriviaState, WildState, _minimal_chips, chips_of, ev_of


def chat_action(state: TriviaState, seat: int, text: str) -> Action | None:
    w = state.wild
    if state.phase != "wildcard" or w is None or w.stage != "performing" or WILD[w.card].kind not in GUESSING:
        return None
    if seat == w.performer or not 0 <= seat < len(state.seats):
        return None
    text = " ".join(text.split())[:200]
    if not text or text.startswith("/"):
        return None
    if not _match(text, _secret_question(WILD[w.card])):
        return None  # ordinary chat, not a right guess: say nothing
    return Guess(answer=text)


# Wildcards ---------------------------------------------------------------
# How to guess, in words true at the table and on Discord (the engine does not know which shows it).

def draw_wildcard(state: TriviaState, seat: int, events: list[Event]) -> None:
    if state.wpos >= len(state.wdeck):
        rng = Rng(state.rng)
        rng.shuffle(state.wdeck)
        state.rng = rng.state
        state.wpos = 0
    cid = state.wdeck[state.wpos]
    state.wpos += 1
    card = WILD[cid]
    name = name_of(state, seat)
    kind = {"charades": "Charades", "drawing": "Drawing", "physical": "Physical challenge",
            "sing": "Sing or recite", "direct": "Direct another", "event": "Campaign event"}[card.kind]
    if card.kind == "event":
        events.append(_ev(f"🃏 {subject(name, 'draws', start=True)} a Wildcard — {kind}: {card_for(card.text, name)}"))
        apply_effects(state, seat, card, events)
        after_wildcard(state, events)
        return
    state.wild = WildState(card=cid, performer=seat)
    state.phase = "wildcard"
    state.wait += 1
    how = {"charades": "act it out (no words)",
           "drawing": "draw it and post the picture (no letters or numbers)",
           "direct": "name who acts it out, then direct them in words only",
           "physical": "do it; the other candidates judge", "sing": "perform it; the other candidates judge"}[card.kind]
    events.append(_ev(f"🃏 {subject(name, 'draws', start=True)} a Wildcard — {kind}: {card_for(card.text, name)} "
                      f"({how}; {card.seconds} seconds once {subject(name, 'presses')} `perform`)."))
    if card.secret:
        events.append(_ev(f"Your secret for the Wildcard: **{card.secret}**. Press `perform` when ready.", to=[seat]))


def perform(state: TriviaState, seat: int, a: Perform) -> list[Event]:
    w = state.wild
    if state.phase != "wildcard" or w is None or seat != w.performer:
        raise RuleError("Only the candidate who drew the Wildcard performs it.")
    if w.stage != "ready":
        raise RuleError("The performance has already started.")
    card = WILD[w.card]
    actor = None
    if card.kind == "direct":
        if not a.actor:
            raise RuleError("Name the candidate who will act it out: `perform <name>`.")
        actor = resolve_seat([x.name for x in state.seats], a.actor, me=seat)
        if actor == seat or state.players[actor].out:
            raise RuleError("Choose another candidate to act it out.")
    return start_performance(state, actor)


def start_performance(state: TriviaState, actor: int | None) -> list[Event]:
    w = state.wild
    assert w is not None  # the phase says there is one
    card = WILD[w.card]
    w.stage = "performing"
    w.actor = actor
    w.staged = card.kind in GUESSING and bool(performing.ai_seats(state))
    state.wait += 1
    name = name_of(state, w.performer)
    if card.kind in GUESSING:
        pattern = " / ".join(" ".join("_" for _ in word) for word in (card.secret or "").split())
        words = len((card.secret or "").split())
        lead = (f"{subject(name, 'directs', start=True)} {name_of(state, actor)}" if actor is not None
                else subject(name, 'performs', start=True))
        events = [_ev(f"🎭 {lead} — {_plural(words, 'word')}: `{pattern}`. {HOW_TO_GUESS}; {card.seconds} seconds.")]
        return events + (performing.opening(state) if performing.staged(state) else [])
    return [_ev(f"🎭 {subject(name, 'performs', start=True)}: {card_for(card.text, name)} Judges, vote with "
                f"`judge yes` or `judge no` ({card.seconds} seconds; a simple majority decides).")]


def give_up(state: TriviaState, seat: int, a: GiveUp) -> list[Event]:
    w = state.wild
    if state.phase != "wildcard" or w is None or seat != w.performer:
        raise RuleError("Only the candidate performing a Wildcard can give it up.")
    events = [_ev(f"{subject(name_of(state, seat), 'gives', start=True)} up the Wildcard.")]
    wild_result(state, False, None, events)
    return events


def judge(state: TriviaState, seat: int, a: Judge) -> list[Event]:
    w = state.wild
    if state.phase != "wildcard" or w is None or WILD[w.card].kind not in JUDGED:
        raise RuleError("There is no challenge to judge now.")
    if w.stage != "performing":
        raise RuleError("Wait until the performance starts.")
    if seat == w.performer or seat not in acting.judges(state):
        raise RuleError("The performer does not judge their own challenge.")
    if any(v[0] == seat for v in w.votes):
        raise RuleError("You have already voted.")
    w.votes.append([seat, 1 if a.success else 0])
    events = [_ev(f"{subject(name_of(state, seat), 'has', start=True)} judged.")]
    judges = len(acting.judges(state))
    yes = sum(v[1] for v in w.votes)
    no = len(w.votes) - yes
    if yes * 2 > judges or no * 2 >= judges or len(w.votes) == judges:
        wild_result(state, yes * 2 > judges, None, events)
    return events


def guess(state: TriviaState, seat: int, a: Guess) -> list[Event]:
    text = a.answer.strip()
    if state.phase == "h2h":
        return runoff.h2h_answer(state, seat, text)
    w = state.wild
    if state.phase != "wildcard" or w is None or WILD[w.card].kind not in GUESSING or w.stage != "performing":
        if state.phase == "question":
            raise RuleError("This question has choices: `answer <number>`.")
        raise RuleError("There is nothing to guess right now.")
    if seat == w.performer:
        raise RuleError("The performer cannot guess their own secret.")
    if not text:
        raise RuleError("Type a guess.")
    card = WILD[w.card]
    if not _match(text, _secret_question(card)):
        return [_ev(f"{subject(name_of(state, seat), 'guesses', start=True)} “{text[:60]}” — not it.", to=[seat])]
    events: list[Event] = []
    guessed(state, seat, events)
    return events


def guessed(state: TriviaState, seat: int, events: list[Event]) -> None:
    """`seat` named the secret: it is said, and the card pays."""
    w = state.wild
    assert w is not None  # only while a performance runs
    events.append(_ev(f"🎉 {subject(name_of(state, seat), 'guesses', start=True)} it: **{WILD[w.card].secret}**!"))
    wild_result(state, True, seat, events)


def clock_ran_out(state: TriviaState, events: list[Event]) -> None:
    """The clock of a running guessing card ran out: with AI seats in it, one of the house rule's
    stages is over (performing.py) and the card goes on unless it was the last; else time is up."""
    if performing.staged(state):
        right = performing.stage_over(state, events)
        if right is not None:
            guessed(state, right, events)
            return
        w = state.wild
        assert w is not None  # stage_over ends nothing itself
        if w.clues < performing.STAGES:
            return
    events.append(_ev("⏰ Time is up."))
    wild_result(state, False, None, events)


def wild_result(state: TriviaState, success: bool, guesser: int | None, events: list[Event]) -> None:
    w = state.wild
    assert w is not None  # the phase says there is one
    card = WILD[w.card]
    perf = w.performer
    n = len(state.seats)
    others = [s for s in range(n) if s != perf and not state.players[s].out]
    name = name_of(state, perf)
    parts: list[str] = []
    if card.kind in GUESSING and not success and card.secret:
        parts.append(f"Nobody got it: it was **{card.secret}**.")
    if card.kind == "charades":
        if success:
            assert guesser is not None  # a guessing card succeeds when someone guesses it
            for s in (perf, guesser):
                state.players[s].pv += 10
            parts.append(f"{name} and {name_of(state, guesser)} each get 10M Popular Votes.")
        else:
            parts.append(lose_pv(state, perf, 5, f"{subject(name, 'loses', start=True)} 5M Popular Votes"))
    elif card.kind == "drawing":
        if success:
            assert guesser is not None  # a guessing card succeeds when someone guesses it
            for s in (perf, guesser):
                state.players[s].cash += 5
            parts.append(f"{name} and {name_of(state, guesser)} each get $5M from the bank.")
        else:
            parts.append(pay_each(state, perf, others, 1, f"{subject(name, 'pays', start=True)} each candidate $1M"))
    elif card.kind == "physical":
        if success:
            state.players[perf].pv += 10
            parts.append(f"The judges say yes: {subject(name, 'gets')} 10M Popular Votes.")
        else:
            parts.append(lose_pv(state, perf, 5, f"The judges say no: {subject(name, 'loses')} 5M Popular Votes"))
    elif card.kind == "sing":
        if success:
            state.players[perf].cash += 5
            parts.append(f"The judges say yes: {subject(name, 'gets')} $5M from the bank.")
        else:
            parts.append(pay_each(state, perf, others, 1, f"The judges say no: {subject(name, 'pays')} each "
                                                          f"candidate $1M"))
    elif card.kind == "direct":
        actor = w.actor
        if success:
            assert guesser is not None and actor is not None  # someone acted, and someone guessed it
            state.players[perf].cash += 5
            if guesser == actor:
                state.players[actor].cash += 10
                parts.append(f"{subject(name, 'gets', start=True)} $5M and {name_of(state, actor)}, who acted "
                             f"and guessed, gets $10M.")
            else:
                state.players[actor].cash += 5
                state.players[guesser].cash += 5
                parts.append(f"{name}, {name_of(state, actor)} (acting) and {name_of(state, guesser)} each "
                             "get $5M.")
        else:
            bits = [lose_cash(state, perf, 2, None, f"{subject(name, 'pays', start=True)} $2M to the bank")]
            if actor is not None:
                pays = subject(name_of(state, actor), 'pays', start=True)
                bits.append(lose_cash(state, actor, 2, None, f"{pays} $2M to the bank"))
            parts.append(" ".join(bits))
    events.append(_ev(" ".join(p for p in parts if p)))
    state.wild = None
    if runoff.check_270(state, events):
        return
    after_wildcard(state, events)


def after_wildcard(state: TriviaState, events: list[Event]) -> None:
    """Back to the roll the Wildcard interrupted, unless it ended the turn."""
    if state.phase in ("over", "h2h", "review"):
        return
    seat = state.turn
    p = state.players[seat]
    if state.phase == "choose":  # a Wildcard moved the candidate: the roll is spent
        state.pending_dice = 0
        return
    if p.at == DC:  # sent to D.C.: the turn is over
        state.pending_dice = 0
        flow.end_turn(state, events)
        return
    state.pending_dice = 0
    flow.to_move(state, events)


# money, votes, shortfalls ------------------------------------------------
def lose_cash(state: TriviaState, seat: int, amount: int, to: int | None, what: str) -> str:
    """Pay `amount` to the bank (to=None) or to a candidate; what cannot be paid
    becomes a debt and sends the candidate to D.C."""
    p = state.players[seat]
    paid = min(p.cash, amount)
    p.cash -= paid
    if to is not None:
        state.players[to].cash += paid
    short = amount - paid
    if short <= 0:
        return what + "."
    p.debt += short
    has = verb_for(name_of(state, seat), "has")
    line = f"{what}, but {has} only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C."
    dc = flow.go_dc(state, seat)
    return line + (" " + dc if dc else ".")


def pay_each(state: TriviaState, seat: int, others: list[int], amount: int, what: str) -> str:
    p = state.players[seat]
    owed = amount * len(others)
    if p.cash >= owed:
        for s in others:
            state.players[s].cash += amount
        p.cash -= owed
        return what + "."
    # not enough: pay round by round in seat order, the rest is a debt
    paid = 0
    for _ in range(amount):
        for s in others:
            if p.cash > 0:
                p.cash -= 1
                state.players[s].cash += 1
                paid += 1
    short = owed - paid
    p.debt += short
    dc = flow.go_dc(state, seat)
    has = verb_for(name_of(state, seat), "has")
    return f"{what}, but {has} only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C." + (
        " " + dc if dc else "")


def lose_pv(state: TriviaState, seat: int, amount: int, what: str, to: int | None = None) -> str:
    p = state.players[seat]
    if p.pv >= amount:
        p.pv -= amount
        if to is not None:
            state.players[to].pv += amount
        return what + "."
    have = p.pv
    p.pv = 0
    if to is not None:
        state.players[to].pv += have
    missing = amount - have
    return lose_cash(state, seat, missing, None,
                     f"{what}: only {have}M to give, so {_money(missing)} for the missing votes")


def lose_ev(state: TriviaState, seat: int, amount: int, what: str) -> str:
    held = chips_of(state, seat)
    total = sum(EV[c] for c in held)
    if total >= amount:
        give = _minimal_chips(held, amount)
        for c in give:
            state.chips[c] = None
        return f"{what}: gives back {', '.join(give)} ({sum(EV[c] for c in give)} EV)."
    for c in held:
        state.chips[c] = None
    missing = amount - total
    lead = f"{what}: gives back every chip ({total} EV)" if held else f"{what}: holds no chips"
    return lose_cash(state, seat, missing, None, f"{lead} and owes {_money(missing)} for the missing votes")


def who(state: TriviaState, seat: int, who: str) -> list[int]:
    n = len(state.seats)
    alive = [s for s in range(n) if not state.players[s].out]
    if who == "you":
        return [seat]
    if who == "each_other":
        return [s for s in alive if s != seat]
    if who == "all":
        return alive
    if who in ("pv_leader", "ev_leader"):
        vals = {s: (state.players[s].pv if who == "pv_leader" else ev_of(state, s)) for s in alive}
        top = max(vals.values())
        return [s for s in alive if vals[s] == top] if top > 0 else []
    if who == "poorest":
        low = min(state.players[s].cash for s in alive)
        return [s for s in alive if state.players[s].cash == low]
    return [seat]


def apply_effects(state: TriviaState, seat: int, card, events: list[Event]) -> None:
    lines: list[str] = []
    for eff in card.effects:
        targets = who(state, seat, eff.who)
        for t in targets:
            tn = name_of(state, t)
            p = state.players[t]
            k, amt = eff.kind, eff.amount
            if k == "cash":
                if amt >= 0 and eff.from_others:
                    for o in range(len(state.seats)):
                        if o != t and not state.players[o].out:
                            pays = subject(name_of(state, o), 'pays', start=True)
                            lines.append(lose_cash(state, o, amt, t, f"{pays} {tn} {_money(amt)}"))
                elif amt >= 0:
                    p.cash += amt
                    lines.append(f"{tn} gets {_money(amt)}.")
                else:
                    lines.append(lose_cash(state, t, -amt, None, f"{tn} pays {_money(-amt)} to the bank"))
            elif k == "pv":
                if amt >= 0 and eff.from_others:
                    for o in range(len(state.seats)):
                        if o != t and not state.players[o].out:
                            gives = subject(name_of(state, o), 'gives', start=True)
                            lines.append(lose_pv(state, o, amt, f"{gives} {tn} {amt}M "
                                                 "Popular Votes", to=t))
                elif amt >= 0:
                    p.pv += amt
                    lines.append(f"{tn} gains {amt}M Popular Votes.")
                else:
                    lines.append(lose_pv(state, t, -amt, f"{tn} loses {-amt}M Popular Votes"))
            elif k == "ev_lose":
                lines.append(lose_ev(state, t, abs(amt), f"{tn} must give back {abs(amt)} EV"))
            elif k == "go_dc":
                if p.at != DC:
                    lines.append(f"{tn} goes to D.C. " + flow.go_dc(state, t))
            elif k == "move_to":
                code = code_of(eff.state or "") if eff.state else None
                if code and t == state.turn and state.phase not in ("h2h", "review"):
                    if code == DC:
                        lines.append(f"{tn} goes to D.C. " + flow.go_dc(state, t))
                    else:
                        state.path = [p.at, code] if p.at else [code]
                        p.at = code
                        lines.append(f"{tn} moves to {NAMES[code]} instead of moving the dice.")
                        flow.to_choose(state)
            elif k == "skip_turn":
                p.skip += max(1, amt)
                lines.append(f"{tn} will miss {_plural(max(1, amt), 'turn')}.")
            elif k == "extra_question":
                if t == state.turn:
                    state.extra += max(1, amt)
                    lines.append(f"{tn} may take {_plural(max(1, amt), 'extra question')} this turn.")
    if lines:
        events.append(_ev(" ".join(lines)))
    runoff.check_270(state, events)
