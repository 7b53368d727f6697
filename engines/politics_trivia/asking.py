"""Questions and help: asking, answering and its rewards, claiming D.C., and paid or free
help."""
from __future__ import annotations

from ..wording import possessive, subject
from ..core import Event, RuleError, resolve_seat
from ..rng import Rng
from . import acting, flow, offers, pile, runoff
from .acting import name_of, wrong_turn
from .actions import Answer, Ask, CallHelp, Claim, Decline, Help, Hire, NoHelp, Suggest
from .board import CATEGORIES, DC, EV, NAMES, _ev, _money
from .models import QState, TriviaState


def ask(state: TriviaState, seat: int, a: Ask) -> list[Event]:
    if state.phase != "choose" or seat != state.turn:
        raise wrong_turn(state, seat, "Questions come after your move." if state.phase in ("start", "move")
                         else "You cannot take a question now.")
    cat = a.category.strip().lower()
    cat = {"gov": "government", "politics": "government", "political": "government", "s": "state",
           "g": "general"}.get(cat, cat)
    if cat not in CATEGORIES:
        raise RuleError("The question categories are state, general and government.")
    p = state.players[seat]
    if cat == "government" and p.cash < 2:
        raise RuleError(f"A Government question costs $2M and you have {_money(p.cash)}.")
    rng = Rng(state.rng)
    code = p.at if cat == "state" else None
    qq = pile.draw(state, rng, cat, code, free_text=False)
    choices = [qq.answer] + list(qq.wrong)
    rng.shuffle(choices)
    state.rng = rng.state
    if cat == "government":
        p.cash -= 2
    state.serial += 1
    state.q = QState(qid=qq.id, category=cat, state=qq.state if cat == "state" else None, choices=choices,
                     correct=choices.index(qq.answer), asker=seat, serial=state.serial)
    state.phase = "question"
    state.wait += 1
    name = name_of(state, seat)
    label = {"state": f"State question about {NAMES.get(qq.state or '', qq.state)}", "general": "General question",
             "government": "Government question ($2M paid)"}[cat]
    listing = "\n".join(f"**{i}.** {c}" for i, c in enumerate(choices, start=1))
    events = [_ev(f"{subject(name, 'takes', start=True)} a {label} — {state.options.question_seconds} "
                  f"seconds:\n**{qq.text}**\n{listing}")]
    return events


def answer(state: TriviaState, seat: int, a: Answer) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None:
        raise RuleError("There is no open multiple-choice question." if state.phase not in ("h2h",)
                        else "Runoff answers are typed: use `guess <answer>` (no choices are shown).")
    if seat != q.asker:
        raise RuleError(f"Only {subject(name_of(state, q.asker), 'answers')} this question; you may offer help.")
    if not 1 <= a.choice <= len(q.choices):
        raise RuleError(f"Choose an answer from 1 to {len(q.choices)}.")
    return resolve_question(state, a.choice - 1)


def resolve_question(state: TriviaState, picked: int | None) -> list[Event]:
    q = state.q
    assert q is not None  # the phase says there is one
    seat = q.asker
    p = state.players[seat]
    name = name_of(state, seat)
    right = picked == q.correct
    answer = q.choices[q.correct]
    if picked is None:
        line = f"⏰ Time is up for {name}: the answer was **{answer}**."
    elif right:
        line = f"✅ {subject(name, 'answers', start=True)} **{answer}** — right!"
        p.right += 1
    else:
        line = f"❌ {subject(name, 'answers', start=True)} {q.choices[picked]} — wrong; the answer was **{answer}**."
    events: list[Event] = []
    deal = state.deal
    claim_dc = False
    if right and deal is not None and deal.accepted:
        line += " " + offers.complete_deal(state, deal)
    elif right:
        if q.category == "state":
            code = p.at
            if code in EV and state.chips.get(code) is None:
                state.chips[code] = seat
                line += f" {subject(name, 'claims', start=True)} the {NAMES[code]} chip ({EV[code]} EV)."
            else:
                p.pv += state.options.state_pv
                line += f" The chip is not free: {state.options.state_pv}M Popular Votes instead."
        elif q.category == "general":
            p.pv += state.options.general_pv
            line += f" +{state.options.general_pv}M Popular Votes."
        else:
            p.cash += state.options.government_cash
            line += f" +{_money(state.options.government_cash)}."
            claim_dc = state.chips[DC] is None
    elif deal is not None and deal.accepted:
        line += f" The deal with {name_of(state, deal.holder)} lapses; nothing is paid."
    state.deal = None
    state.q = None
    events.append(_ev(line))
    if runoff.check_270(state, events):
        return events
    if claim_dc:
        state.phase = "claim"
        state.wait += 1
        events.append(_ev(f"D.C.'s 3 electoral votes are unclaimed: {name} may `claim` them now, before the turn "
                          "ends."))
        return events
    if state.extra > 0:
        state.extra -= 1
        flow.to_choose(state)
        events.append(_ev(f"{subject(name, 'has', start=True)} an extra question this turn."))
        return events
    flow.end_turn(state, events)
    return events


def claim(state: TriviaState, seat: int, a: Claim) -> list[Event]:
    if state.phase != "claim" or seat != state.turn:
        raise wrong_turn(state, seat, "D.C. is claimed right after a right Government answer, before the "
                         "turn ends.")
    if state.chips[DC] is not None:
        raise RuleError("D.C.'s chip has already been claimed.")
    state.chips[DC] = seat
    events = [_ev(f"{subject(name_of(state, seat), 'claims', start=True)} D.C.'s 3 electoral votes.")]
    if runoff.check_270(state, events):
        return events
    if state.extra > 0:
        state.extra -= 1
        flow.to_choose(state)
        return events
    flow.end_turn(state, events)
    return events


# help ------------------------------------------------------------------
def call_help(state: TriviaState, seat: int, a: CallHelp) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None or seat != q.asker:
        raise RuleError("Only the candidate answering a question can ask for help." if state.phase == "question"
                        else "There is no question open.")
    if q.called:
        raise RuleError("You have already asked for help on this question.")
    if q.helper is not None:
        raise RuleError("You already have a helper on this question.")
    offered = {o[0] for o in q.offers}
    q.called = True
    q.responders = [s for s in range(len(state.seats))
                    if s != seat and not state.players[s].out and s not in offered and s not in q.declined]
    return [_ev(f"{subject(name_of(state, seat), 'asks', start=True)} for help. Anyone may `help` (free or for "
                f"a price paid up front) "
                "or `nohelp`.")]


def offer_help(state: TriviaState, seat: int, a: Help) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None:
        raise RuleError("Help is offered while someone answers a multiple-choice question.")
    if seat == q.asker:
        raise RuleError("You cannot help yourself; `callhelp` asks the others.")
    if q.helper is not None:
        raise RuleError(f"{name_of(state, q.asker)} already has a helper on this question.")
    if not acting.may_offer_help(state, seat):
        raise RuleError("You have already answered this question's call for help.")
    unit = a.unit.strip().lower()
    unit = {"$": "cash", "m": "cash", "money": "cash", "votes": "pv", "popular": "pv"}.get(unit, unit)
    if unit not in ("cash", "pv"):
        raise RuleError("A price is in cash or pv (Popular Votes), e.g. `help 2 cash`.")
    if not 0 <= a.price <= 1000:
        raise RuleError("A price is between 0 (free) and 1000.")
    q.offers.append([seat, a.price, unit])
    if seat in q.responders:
        q.responders.remove(seat)
    price = ("for free" if a.price == 0 else f"for {_money(a.price)}" if unit == "cash"
             else f"for {a.price}M Popular Votes")
    return [_ev(f"{subject(name_of(state, seat), 'offers', start=True)} to help {name_of(state, q.asker)} {price}.")]


def no_help(state: TriviaState, seat: int, a: NoHelp) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None or seat not in q.responders:
        raise RuleError("Nobody is waiting for your answer to a call for help.")
    q.responders.remove(seat)
    q.declined.append(seat)
    return [_ev(f"{subject(name_of(state, seat), start=True)} will not help.")]


def offer_of(state: TriviaState, helper: str) -> list:
    q = state.q
    if state.phase != "question" or q is None:
        raise RuleError("There is no question open.")
    s = resolve_seat([x.name for x in state.seats], helper)
    found = next((o for o in q.offers if o[0] == s), None)
    if found is None:
        raise RuleError(f"{subject(name_of(state, s), 'has', start=True)} not offered help on this question.")
    return found


def hire(state: TriviaState, seat: int, a: Hire) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None or seat != q.asker:
        raise RuleError("Only the candidate answering the question can accept help.")
    s, price, unit = offer_of(state, a.helper)
    if not acting.can_pay(state, seat, price, unit):
        have = state.players[seat].cash if unit == "cash" else state.players[seat].pv
        raise RuleError(f"That help costs {price} {'$M' if unit == 'cash' else 'M Popular Votes'} up front and you "
                        f"have {have}.")
    me, them = state.players[seat], state.players[s]
    if unit == "cash":
        me.cash -= price
        them.cash += price
    else:
        me.pv -= price
        them.pv += price
    q.helper = s
    q.offers = []
    q.responders = []
    paid = "for free" if price == 0 else f"and pays {price}{'M Popular Votes' if unit == 'pv' else ' $M'} up front"
    if unit == "cash" and price:
        paid = f"and pays {_money(price)} up front"
    name, hn = name_of(state, seat), name_of(state, s)
    return [_ev(f"{subject(name, 'accepts', start=True)} {possessive(hn)} help {paid}. {hn}, `suggest` a choice (only "
                f"{subject(name, 'sees')} it).")]


def decline(state: TriviaState, seat: int, a: Decline) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None or seat != q.asker:
        raise RuleError("Only the candidate answering the question can turn down help.")
    found = offer_of(state, a.helper)
    q.offers.remove(found)
    q.declined.append(found[0])
    turns = subject(name_of(state, seat), 'turns', start=True)
    return [_ev(f"{turns} down {possessive(name_of(state, found[0]))} help.")]


def suggest(state: TriviaState, seat: int, a: Suggest) -> list[Event]:
    q = state.q
    if state.phase != "question" or q is None or seat != q.helper:
        raise RuleError("Only a hired helper can suggest an answer.")
    if q.hint is not None:
        raise RuleError("You have already made your suggestion.")
    if not 1 <= a.choice <= len(q.choices):
        raise RuleError(f"Suggest a choice from 1 to {len(q.choices)}.")
    q.hint = a.choice - 1
    hn, name = name_of(state, seat), name_of(state, q.asker)
    return [_ev(f"{subject(hn, 'whispers', start=True)} a suggestion to {name}."),
            _ev(f"{subject(hn, 'suggests', start=True)} **{a.choice}. {q.choices[a.choice - 1]}** for "
                f"{possessive(name)} "
                f"question.",
                to=[q.asker, seat])]
