"""Every legal move of a seat now, as the bot's buttons and menus list them (typed answers
excepted: see views.text_prompts)."""
from __future__ import annotations

from ..core import Action
from . import acting, gerrymander
from .actions import (ANSWER, ASK, CALL_HELP, CLAIM, DEAL, END, FLY, GIVE_UP, HELP_CASH, HELP_PV, HOME, JUDGE, MOVE,
                      NO_HELP, OFFER_CASH, OFFER_PV, OK, ROLL, STAY, SUGGEST, WRAPUP, Decline, Discard, Help, Hire,
                      Offer, Overrule, Perform, Play)
from .board import CODES, DC, JUDGED, REACH, STATES, WILD
from .models import TriviaState, chips_of


# ---- legal actions -------------------------------------------------
def legal_actions(state: TriviaState, seat: int) -> list[Action]:
    ph = state.phase
    if ph == "over" or not 0 <= seat < len(state.seats):
        return []
    p = state.players[seat]
    out: list[Action] = []
    if ph == "homes":
        if p.dealt:
            out.extend(Discard(card=c) for c in p.dealt)
        if acting.chooser(state) == seat:
            taken = {x.home for x in state.players}
            out.extend(HOME[c] for c in STATES if c not in taken)
        return out
    if ph in ("h2h", "review"):
        h = state.h2h
        assert h is not None  # the phase says there is one
        if ph == "h2h":
            # Answers are free text (text_prompts: `guess …`); `pass` (a blank answer) is
            # typed, never a lone button that could be pressed by mistake. AI seats answer
            # through ai_action; random seats let the clock run out (a blank answer).
            return out
        if seat in h.reviewers and seat not in h.oks:
            out.append(OK)
            out.extend(Overrule(seat=acting.token_of(state, a)) for a in acting.overrulable(state, seat))
        return out
    mine = seat == state.turn
    if ph == "start" and mine:
        if p.at == DC:
            if p.dc_turns < 4:
                out.append(STAY)
            if p.debt <= 0 or p.dc_turns >= 4:
                out.append(ROLL)
                if p.cash >= 2:
                    out.extend(FLY[c] for c in CODES if c != DC)
        else:
            out.append(ROLL)
            if p.cash >= 2:
                out.extend(FLY[c] for c in CODES if c != p.at)
        out.extend(playable(state, seat))
    elif ph == "move" and mine:
        assert p.at is not None and state.dice is not None  # a move follows a roll, from a home state on
        out.extend(MOVE[c] for c in REACH[p.at][sum(state.dice)])
        out.extend(playable(state, seat))
    elif ph == "choose" and mine:
        out.append(ASK["state"])
        out.append(ASK["general"])
        if p.cash >= 2:
            out.append(ASK["government"])
        out.extend(offer_actions(state, seat))
        out.extend(playable(state, seat))
        out.append(END)
    elif ph == "claim" and mine:
        if state.chips[DC] is None:  # a Gerrymander card played meanwhile may have taken it
            out.append(CLAIM)
        out.extend(playable(state, seat))
        out.append(END)
    elif ph == "deal" and state.deal is not None and seat == state.deal.holder:
        out.extend((DEAL[True], DEAL[False]))
    elif ph == "question":
        q = state.q
        assert q is not None  # the phase says there is one
        k = len(q.choices)
        if seat == q.asker:
            out.extend(ANSWER[i] for i in range(1, k + 1))
            if not q.called and q.helper is None and len(state.seats) > 1:
                out.append(CALL_HELP)
            for s, price, unit in q.offers:
                if acting.can_pay(state, seat, price, unit):
                    out.append(Hire(helper=acting.token_of(state, s)))
                out.append(Decline(helper=acting.token_of(state, s)))
        if seat == q.helper and q.hint is None:
            out.extend(SUGGEST[i] for i in range(1, k + 1))
        if acting.may_offer_help(state, seat):
            asker = state.players[q.asker]
            out.extend(Help(price=c, unit="cash") for c in HELP_CASH if c <= asker.cash)
            out.extend(Help(price=v, unit="pv") for v in HELP_PV if v <= asker.pv)
            if seat in q.responders:
                out.append(NO_HELP)
    elif ph == "wildcard":
        w = state.wild
        assert w is not None  # the phase says there is one
        card = WILD[w.card]
        if seat == w.performer:
            if w.stage == "ready":
                if card.kind == "direct":
                    out.extend(Perform(actor=acting.token_of(state, s)) for s in acting.judges(state))
                else:
                    out.append(Perform())
            out.append(GIVE_UP)
        elif w.stage == "performing" and card.kind in JUDGED and seat in acting.judges(state):
            if all(v[0] != seat for v in w.votes):
                out.extend((JUDGE[True], JUDGE[False]))
    if ph == "start" and mine and not p.wrapup:
        out.append(WRAPUP)  # any candidate may also type `wrapup` at any time of ordinary play
    return out


def playable(state: TriviaState, seat: int) -> list[Action]:
    if state.deal is not None:
        return []
    return [Play(card=c) for c in state.players[seat].hand if gerrymander.can_play(state, seat, c)]


def offer_actions(state: TriviaState, seat: int) -> list[Action]:
    p = state.players[seat]
    holder = state.chips.get(p.at) if p.at else None
    if state.offer_made or state.deal is not None or holder is None or holder == seat:
        return []
    out: list[Action] = [Offer(cash=c, pv=0, chips="-") for c in OFFER_CASH if c <= p.cash]
    out.extend(Offer(cash=0, pv=v, chips="-") for v in OFFER_PV if v <= p.pv)
    out.extend(Offer(cash=0, pv=0, chips=c) for c in chips_of(state, seat) if c != p.at)
    return out
