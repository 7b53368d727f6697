"""The AI seat of Politics: The Game (trivia).

Knowledge: an AI seat "knows" an answer with probability `ai_accuracy`
(a setting, default 65%), decided once per question from a hash of the
question, the seat and the question's serial number, so asking the AI twice
gives the same answer. Otherwise it picks a wrong choice (or, in a runoff,
writes a wrong choice's text or nothing).

Strategy, greedy and cheap:
* home: a big state with big neighbours;
* move: the reachable state worth most now — a free chip (its EV times the
  chance of answering), a chip it can afford to buy, or D.C. when short of cash;
* fly for $2M when rich and a big free chip is out of reach;
* question: State when the chip is free, Government when rich and D.C. is
  unclaimed, else General; buy a held chip when the price is fair;
* sells a chip for about $1.6M per EV (more when it is close to 270);
* plays a Gerrymander card whenever its reward is worth more than its cost;
* help: offers help for $1M when it knows the answer; hires cheap help when
  it does not know and follows a helper's hint;
* judges a performance "yes" three times in five (it cannot watch).
"""
from __future__ import annotations

from ..core import Action
from ..rng import Rng
from .actions import (ASK, CALL_HELP, CLAIM, DEAL, END, GIVE_UP, JUDGE, MOVE, NO_HELP, OK, PASS, ROLL, STAY, Answer,
                      Discard, Fly, Guess, Help, Hire, Home, Offer, Perform, Play, Suggest)
from .board import ADJ, DC, EV, GERRY, MAJORITY, REACH, STATES, _h
from .models import TriviaState, ev_of

PRICE_PER_EV = 1.6   # $M per electoral vote when buying or selling a chip
PV_PER_CASH = 3.0    # Popular Votes (M) worth $1M to the AI


def _knows_q(state: TriviaState, seat: int) -> bool:
    q = state.q
    return _h(f"{q.qid}|{seat}|{q.serial}") < state.options.ai_accuracy / 100.0


def _card_value(state: TriviaState, seat: int, cid: int) -> float:
    c = GERRY[cid]
    gain = sum(EV[x] * PRICE_PER_EV for x in c.reward_chips if state.chips.get(x) != seat)
    gain += c.reward_cash + c.reward_pv / PV_PER_CASH
    cost = sum(EV[x] * PRICE_PER_EV for x in c.need_chips) + c.need_cash + c.need_pv / PV_PER_CASH
    return gain - cost


def _home_value(code: str) -> float:
    return EV[code] + 0.4 * sum(EV[n] for n in ADJ[code])


def choose(game, state: TriviaState, seat: int, rng: Rng) -> Action:
    ph = state.phase
    p = state.players[seat]
    acc = state.options.ai_accuracy / 100.0
    legal = game.legal_actions(state, seat)
    if ph == "homes":
        if p.dealt:
            worst = min(p.dealt, key=lambda c: (_card_value(state, seat, c), -c))
            return Discard(card=worst)
        taken = {x.home for x in state.players}
        free = [c for c in STATES if c not in taken]
        return Home(state=max(free, key=lambda c: (_home_value(c), c)))
    if ph in ("h2h", "review"):
        return _h2h(game, state, seat, rng, legal)
    if ph == "start" and seat == state.turn:
        for a in legal:
            if isinstance(a, Play) and _card_value(state, seat, a.card) > 0:
                return a
        if p.at == DC:
            if p.dc_turns < 4 and (p.debt > 0 or p.cash < 6):
                return STAY
            return ROLL
        if p.cash >= 10:
            free = [c for c in STATES if state.chips[c] is None and c != p.at]
            if free:
                best = max(free, key=lambda c: (EV[c], c))
                near = any(best in REACH[p.at][k] for k in range(2, 13))
                if EV[best] >= 15 and (not near or EV[best] >= 28):
                    return Fly(state=best)
        return ROLL
    if ph == "move" and seat == state.turn:
        reach = REACH[p.at][sum(state.dice)]
        best, score = None, -1e9
        for c in reach:
            s = _place_value(state, seat, c, acc) + rng.random() * 0.01
            if s > score:
                best, score = c, s
        return MOVE[best]
    if ph == "choose" and seat == state.turn:
        for a in legal:
            if isinstance(a, Play) and _card_value(state, seat, a.card) > 0:
                return a
        holder = state.chips.get(p.at)
        if state.deal is not None and state.deal.accepted:
            return ASK["general"]
        if holder is None:
            return ASK["state"]
        if holder != seat and not state.offer_made:
            price = int(EV[p.at] * PRICE_PER_EV + 0.999)
            if p.cash - 2 >= price:
                return Offer(cash=price, pv=0, chips="-")
            if p.pv >= price * PV_PER_CASH and p.pv > 30:
                return Offer(cash=0, pv=int(price * PV_PER_CASH), chips="-")
        if p.cash >= 6 and state.chips[DC] is None:
            return ASK["government"]
        return ASK["general"]
    if ph == "claim" and seat == state.turn:
        return CLAIM
    if ph == "deal" and state.deal is not None and seat == state.deal.holder:
        d = state.deal
        value = d.cash + d.pv / PV_PER_CASH + sum(EV[c] * PRICE_PER_EV for c in d.chips)
        want = EV[d.state] * PRICE_PER_EV
        mine = ev_of(state, seat)
        if mine >= MAJORITY - 40 and mine - EV[d.state] < MAJORITY:
            want *= 3
        buyer_ev = ev_of(state, d.buyer) + EV[d.state] + sum(EV[c] for c in d.chips) * 0
        if buyer_ev >= MAJORITY:
            want *= 4
        return DEAL[value >= want]
    if ph == "question":
        q = state.q
        if seat == q.asker:
            know = _knows_q(state, seat)
            if q.hint is not None and not know:
                return Answer(choice=q.hint + 1)
            if not know:
                for a in legal:
                    if isinstance(a, Hire):
                        o = next(o for o in q.offers if game._tok(state, o[0]) == a.helper)
                        if (o[1] <= 2 and o[2] == "cash") or o[1] == 0:
                            return a
                if not q.called and q.helper is None and not q.offers and p.cash >= 3 and rng.random() < 0.3:
                    return CALL_HELP
                wrong = [i for i in range(len(q.choices)) if i != q.correct]
                return Answer(choice=rng.choice(wrong) + 1)
            return Answer(choice=q.correct + 1)
        if seat == q.helper and q.hint is None:
            if _knows_q(state, seat):
                return Suggest(choice=q.correct + 1)
            return Suggest(choice=rng.below(len(q.choices)) + 1)
        if seat in q.responders:
            if _knows_q(state, seat) and state.players[q.asker].cash >= 1:
                return Help(price=1, unit="cash")
            return NO_HELP
    if ph == "wildcard":
        w = state.wild
        if seat == w.performer and w.stage == "ready":
            perf = [a for a in legal if isinstance(a, Perform)]
            if perf:
                return perf[rng.below(len(perf))]
            return GIVE_UP
        if w.stage == "performing" and (JUDGE[True] in legal):
            return JUDGE[rng.random() < 0.6]
    # anything else: the first sensible legal move
    for a in legal:
        if a.verb not in ("wrapup", "fly"):
            return a
    return legal[0] if legal else END


def _place_value(state: TriviaState, seat: int, code: str, acc: float) -> float:
    p = state.players[seat]
    if code == DC:
        return 8.0 if p.cash < 3 else (-5.0 if p.cash >= 10 else 1.0)
    holder = state.chips[code]
    if holder is None:
        return EV[code] * acc + 1.0
    if holder == seat:
        return 10 * acc / PV_PER_CASH * 2
    price = EV[code] * PRICE_PER_EV
    if p.cash - 2 >= price:
        return EV[code] * acc * 0.5
    return 10 * acc / PV_PER_CASH * 2 - 0.5


def _h2h(game, state: TriviaState, seat: int, rng: Rng, legal: list[Action]) -> Action:
    h = state.h2h
    if state.phase == "review":
        return OK
    if seat not in h.seats or h.answers[h.seats.index(seat)] is not None:
        return legal[0] if legal else PASS
    q = game._question(state, h.qids[h.qn])
    key = f"{q.id}|{seat}|{h.round}|{h.qn}|{len(h.history)}"
    if _h(key) < state.options.ai_accuracy / 100.0:
        return Guess(answer=q.answer)
    if q.wrong and rng.random() < 0.7:
        return Guess(answer=rng.choice(list(q.wrong)))
    return PASS
