"""Wildcards (performances and campaign events) and the shortfall rules for
cash, Popular Votes and electoral votes a card asks for."""
from __future__ import annotations

from ..core import Event, RuleError, resolve_seat
from ..rng import Rng
from .actions import GiveUp, Guess, Judge, Perform
from .board import DC, EV, GUESSING, JUDGED, NAMES, WILD, _ev, _match, _money, _plural, _secret_question, code_of
from .models import TriviaState, WildState, _minimal_chips, chips_of, ev_of


class WildcardsMixin:
    """Part of PoliticsTrivia (game.py), which it shares helpers with."""

    # Wildcards ---------------------------------------------------------------
    def _draw_wildcard(self, state: TriviaState, seat: int, events: list[Event]) -> None:
        if state.wpos >= len(state.wdeck):
            rng = Rng(state.rng)
            rng.shuffle(state.wdeck)
            state.rng = rng.state
            state.wpos = 0
        cid = state.wdeck[state.wpos]
        state.wpos += 1
        card = WILD[cid]
        name = self._name(state, seat)
        kind = {"charades": "Charades", "drawing": "Drawing", "physical": "Physical challenge",
                "sing": "Sing or recite", "direct": "Direct another", "event": "Campaign event"}[card.kind]
        if card.kind == "event":
            events.append(_ev(f"🃏 {name} draws a Wildcard — {kind}: {card.text}"))
            self._apply_effects(state, seat, card, events)
            self._after_wildcard(state, events)
            return
        state.wild = WildState(card=cid, performer=seat)
        state.phase = "wildcard"
        state.wait += 1
        how = {"charades": "act it out (no words); guesses typed in the channel count",
               "drawing": "draw it and post the picture (no letters or numbers); guesses typed in the channel count",
               "direct": "name who acts it out, then direct them in words only; guesses typed in the channel count",
               "physical": "do it; the other candidates judge", "sing": "perform it; the other candidates judge"}[card.kind]
        events.append(_ev(f"🃏 {name} draws a Wildcard — {kind}: {card.text} ({how}; {card.seconds} seconds once "
                          f"{name} presses `perform`)."))
        if card.secret:
            events.append(_ev(f"Your secret for the Wildcard: **{card.secret}**. Press `perform` when ready.", to=[seat]))

    def _perform(self, state: TriviaState, seat: int, a: Perform) -> list[Event]:
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
            actor = resolve_seat([x.name for x in state.seats], a.actor)
            if actor == seat or state.players[actor].out:
                raise RuleError("Choose another candidate to act it out.")
        return self._start_performance(state, actor)

    def _start_performance(self, state: TriviaState, actor: int | None) -> list[Event]:
        w = state.wild
        card = WILD[w.card]
        w.stage = "performing"
        w.actor = actor
        state.wait += 1
        name = self._name(state, w.performer)
        if card.kind in GUESSING:
            pattern = " / ".join(" ".join("_" for _ in word) for word in (card.secret or "").split())
            words = len((card.secret or "").split())
            lead = (f"{name} directs {self._name(state, actor)}" if actor is not None else f"{name} performs")
            return [_ev(f"🎭 {lead} — {_plural(words, 'word')}: `{pattern}`. Type your guesses in the channel; "
                        f"{card.seconds} seconds.")]
        return [_ev(f"🎭 {name} performs: {card.text} Judges, vote with `judge yes` or `judge no` "
                    f"({card.seconds} seconds; a simple majority decides).")]

    def _giveup(self, state: TriviaState, seat: int, a: GiveUp) -> list[Event]:
        w = state.wild
        if state.phase != "wildcard" or w is None or seat != w.performer:
            raise RuleError("Only the candidate performing a Wildcard can give it up.")
        events = [_ev(f"{self._name(state, seat)} gives up the Wildcard.")]
        self._wild_result(state, False, None, events)
        return events

    def _judge(self, state: TriviaState, seat: int, a: Judge) -> list[Event]:
        w = state.wild
        if state.phase != "wildcard" or w is None or WILD[w.card].kind not in JUDGED:
            raise RuleError("There is no challenge to judge now.")
        if w.stage != "performing":
            raise RuleError("Wait until the performance starts.")
        if seat == w.performer or seat not in self._judges(state):
            raise RuleError("The performer does not judge their own challenge.")
        if any(v[0] == seat for v in w.votes):
            raise RuleError("You have already voted.")
        w.votes.append([seat, 1 if a.success else 0])
        events = [_ev(f"{self._name(state, seat)} has judged.")]
        judges = len(self._judges(state))
        yes = sum(v[1] for v in w.votes)
        no = len(w.votes) - yes
        if yes * 2 > judges or no * 2 >= judges or len(w.votes) == judges:
            self._wild_result(state, yes * 2 > judges, None, events)
        return events

    def _guess(self, state: TriviaState, seat: int, a: Guess) -> list[Event]:
        text = a.answer.strip()
        if state.phase == "h2h":
            return self._h2h_answer(state, seat, text)
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
            return [_ev(f"{self._name(state, seat)} guesses “{text[:60]}” — not it.", to=[seat])]
        events = [_ev(f"🎉 {self._name(state, seat)} guesses it: **{card.secret}**!")]
        self._wild_result(state, True, seat, events)
        return events

    def _wild_result(self, state: TriviaState, success: bool, guesser: int | None, events: list[Event]) -> None:
        w = state.wild
        card = WILD[w.card]
        perf = w.performer
        n = len(state.seats)
        others = [s for s in range(n) if s != perf and not state.players[s].out]
        name = self._name(state, perf)
        parts: list[str] = []
        if card.kind in GUESSING and not success and card.secret:
            parts.append(f"Nobody got it: it was **{card.secret}**.")
        if card.kind == "charades":
            if success:
                for s in (perf, guesser):
                    state.players[s].pv += 10
                parts.append(f"{name} and {self._name(state, guesser)} each get 10M Popular Votes.")
            else:
                parts.append(self._lose_pv(state, perf, 5, f"{name} loses 5M Popular Votes"))
        elif card.kind == "drawing":
            if success:
                for s in (perf, guesser):
                    state.players[s].cash += 5
                parts.append(f"{name} and {self._name(state, guesser)} each get $5M from the bank.")
            else:
                parts.append(self._pay_each(state, perf, others, 1, f"{name} pays each candidate $1M"))
        elif card.kind == "physical":
            if success:
                state.players[perf].pv += 10
                parts.append(f"The judges say yes: {name} gets 10M Popular Votes.")
            else:
                parts.append(self._lose_pv(state, perf, 5, f"The judges say no: {name} loses 5M Popular Votes"))
        elif card.kind == "sing":
            if success:
                state.players[perf].cash += 5
                parts.append(f"The judges say yes: {name} gets $5M from the bank.")
            else:
                parts.append(self._pay_each(state, perf, others, 1, f"The judges say no: {name} pays each candidate $1M"))
        elif card.kind == "direct":
            actor = w.actor
            if success:
                state.players[perf].cash += 5
                if guesser == actor:
                    state.players[actor].cash += 10
                    parts.append(f"{name} gets $5M and {self._name(state, actor)}, who acted and guessed, gets $10M.")
                else:
                    state.players[actor].cash += 5
                    state.players[guesser].cash += 5
                    parts.append(f"{name}, {self._name(state, actor)} (acting) and {self._name(state, guesser)} each "
                                 "get $5M.")
            else:
                bits = [self._lose_cash(state, perf, 2, None, f"{name} pays $2M to the bank")]
                if actor is not None:
                    bits.append(self._lose_cash(state, actor, 2, None, f"{self._name(state, actor)} pays $2M to the bank"))
                parts.append(" ".join(bits))
        events.append(_ev(" ".join(p for p in parts if p)))
        state.wild = None
        if self._check_270(state, events):
            return
        self._after_wildcard(state, events)

    def _after_wildcard(self, state: TriviaState, events: list[Event]) -> None:
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
            self._end_turn(state, events)
            return
        state.pending_dice = 0
        self._to_move(state, events)

    # money, votes, shortfalls ------------------------------------------------
    def _lose_cash(self, state: TriviaState, seat: int, amount: int, to: int | None, what: str) -> str:
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
        line = f"{what}, but has only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C."
        dc = self._go_dc(state, seat)
        return line + (" " + dc if dc else ".")

    def _pay_each(self, state: TriviaState, seat: int, others: list[int], amount: int, what: str) -> str:
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
        dc = self._go_dc(state, seat)
        return f"{what}, but has only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C." + (
            " " + dc if dc else "")

    def _lose_pv(self, state: TriviaState, seat: int, amount: int, what: str, to: int | None = None) -> str:
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
        return self._lose_cash(state, seat, missing, None,
                               f"{what}: only {have}M to give, so {_money(missing)} for the missing votes")

    def _lose_ev(self, state: TriviaState, seat: int, amount: int, what: str) -> str:
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
        return self._lose_cash(state, seat, missing, None, f"{lead} and owes {_money(missing)} for the missing votes")

    def _who(self, state: TriviaState, seat: int, who: str) -> list[int]:
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

    def _apply_effects(self, state: TriviaState, seat: int, card, events: list[Event]) -> None:
        lines: list[str] = []
        for eff in card.effects:
            targets = self._who(state, seat, eff.who)
            for t in targets:
                tn = self._name(state, t)
                p = state.players[t]
                k, amt = eff.kind, eff.amount
                if k == "cash":
                    if amt >= 0 and eff.from_others:
                        for o in range(len(state.seats)):
                            if o != t and not state.players[o].out:
                                lines.append(self._lose_cash(state, o, amt, t, f"{self._name(state, o)} pays {tn} {_money(amt)}"))
                    elif amt >= 0:
                        p.cash += amt
                        lines.append(f"{tn} gets {_money(amt)}.")
                    else:
                        lines.append(self._lose_cash(state, t, -amt, None, f"{tn} pays {_money(-amt)} to the bank"))
                elif k == "pv":
                    if amt >= 0 and eff.from_others:
                        for o in range(len(state.seats)):
                            if o != t and not state.players[o].out:
                                lines.append(self._lose_pv(state, o, amt, f"{self._name(state, o)} gives {tn} {amt}M "
                                                                          "Popular Votes", to=t))
                    elif amt >= 0:
                        p.pv += amt
                        lines.append(f"{tn} gains {amt}M Popular Votes.")
                    else:
                        lines.append(self._lose_pv(state, t, -amt, f"{tn} loses {-amt}M Popular Votes"))
                elif k == "ev_lose":
                    lines.append(self._lose_ev(state, t, abs(amt), f"{tn} must give back {abs(amt)} EV"))
                elif k == "go_dc":
                    if p.at != DC:
                        lines.append(f"{tn} goes to D.C. " + self._go_dc(state, t))
                elif k == "move_to":
                    code = code_of(eff.state or "") if eff.state else None
                    if code and t == state.turn and state.phase not in ("h2h", "review"):
                        if code == DC:
                            lines.append(f"{tn} goes to D.C. " + self._go_dc(state, t))
                        else:
                            state.path = [p.at, code] if p.at else [code]
                            p.at = code
                            lines.append(f"{tn} moves to {NAMES[code]} instead of moving the dice.")
                            self._to_choose(state)
                elif k == "skip_turn":
                    p.skip += max(1, amt)
                    lines.append(f"{tn} will miss {_plural(max(1, amt), 'turn')}.")
                elif k == "extra_question":
                    if t == state.turn:
                        state.extra += max(1, amt)
                        lines.append(f"{tn} may take {_plural(max(1, amt), 'extra question')} this turn.")
        if lines:
            events.append(_ev(" ".join(lines)))
        self._check_270(state, events)
