"""Offers for a chip someone else holds: made before the question, answered by
the holder, paid only on a right answer."""
from __future__ import annotations

from ..wording import possessive, subject
from ..core import Event, RuleError
from . import flow
from .acting import name_of, wrong_turn
from .actions import DealAnswer, Offer
from .board import EV, NAMES, _ev, _money, code_of
from .models import Deal, TriviaState


# chip offers -------------------------------------------------------------
def offer(state: TriviaState, seat: int, a: Offer) -> list[Event]:
    if state.phase != "choose" or seat != state.turn:
        raise wrong_turn(state, seat, "An offer for a chip is made after your move, before a question.")
    p = state.players[seat]
    code = p.at
    assert code is not None  # after a move every candidate stands somewhere
    holder = state.chips.get(code)
    if holder is None:
        raise RuleError(f"Nobody holds {NAMES[code]}'s chip: answer a State question to claim it.")
    if holder == seat:
        raise RuleError(f"You already hold {NAMES[code]}'s chip.")
    if state.offer_made or state.deal is not None:
        raise RuleError("You may make one offer a turn.")
    chips = parse_chips(a.chips)
    if a.cash < 0 or a.pv < 0:
        raise RuleError("An offer cannot be negative.")
    if a.cash > p.cash:
        raise RuleError(f"No IOUs: you offer {_money(a.cash)} but have {_money(p.cash)}.")
    if a.pv > p.pv:
        raise RuleError(f"No IOUs: you offer {a.pv}M Popular Votes but have {p.pv}M.")
    for c in chips:
        if state.chips.get(c) != seat:
            raise RuleError(f"No IOUs: you do not hold the {NAMES.get(c, c)} chip.")
    if code in chips:
        raise RuleError("You cannot offer the chip you are buying.")
    if not (a.cash or a.pv or chips):
        raise RuleError("Offer something: cash, Popular Votes or chips you hold.")
    state.deal = Deal(buyer=seat, holder=holder, state=code, cash=a.cash, pv=a.pv, chips=chips)
    state.offer_made = True
    state.phase = "deal"
    state.wait += 1
    return [_ev(f"{subject(name_of(state, seat), 'offers', start=True)} {deal_text(state.deal)} for "
                f"{possessive(name_of(state, holder))} {NAMES[code]} chip ({EV[code]} EV). "
                f"{subject(name_of(state, holder), start=True)}: `deal yes` or `deal no`.")]


def parse_chips(text: str) -> list[str]:
    raw = text.strip()
    if raw in ("", "-", "none", "0"):
        return []
    out = []
    for part in raw.replace("+", ",").split(","):
        part = part.strip()
        if not part:
            continue
        c = code_of(part)
        if c is None:
            raise RuleError(f"'{part[:20]}' is not a state chip; list chips like TX,OH.")
        if c not in out:
            out.append(c)
    return out


def deal_text(d: Deal) -> str:
    parts = []
    if d.cash:
        parts.append(_money(d.cash))
    if d.pv:
        parts.append(f"{d.pv}M Popular Votes")
    if d.chips:
        parts.append("the " + ", ".join(d.chips) + " chip" + ("s" if len(d.chips) > 1 else ""))
    return " + ".join(parts) or "nothing"


def answer_offer(state: TriviaState, seat: int, a: DealAnswer) -> list[Event]:
    d = state.deal
    if state.phase != "deal" or d is None or seat != d.holder:
        raise RuleError("There is no offer waiting for your answer.")
    name, buyer = name_of(state, seat), name_of(state, d.buyer)
    flow.to_choose(state)
    if a.accept:
        d.accepted = True
        return [_ev(f"{subject(name, 'accepts', start=True)}. If {buyer} now answers a question right, {buyer} pays "
                    f"{deal_text(d)} and takes the {NAMES[d.state]} chip.")]
    state.deal = None
    return [_ev(f"{subject(name, 'declines', start=True)} the offer. {buyer} may still take a State or General "
                f"question.")]


def complete_deal(state: TriviaState, d: Deal) -> str:
    buyer, holder = state.players[d.buyer], state.players[d.holder]
    if (buyer.cash < d.cash or buyer.pv < d.pv or any(state.chips.get(c) != d.buyer for c in d.chips)
            or state.chips.get(d.state) != d.holder):
        return "The deal can no longer be paid in full, so it lapses."
    buyer.cash -= d.cash
    holder.cash += d.cash
    buyer.pv -= d.pv
    holder.pv += d.pv
    for c in d.chips:
        state.chips[c] = d.holder
    state.chips[d.state] = d.buyer
    return (f"{subject(name_of(state, d.buyer), 'pays', start=True)} {deal_text(d)} to "
            f"{name_of(state, d.holder)} and takes "
            f"the {NAMES[d.state]} chip ({EV[d.state]} EV).")
