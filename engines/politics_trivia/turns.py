"""Setup choices and the turn: homes, the order of turns, rolling, flying, moving,
D.C. and ending a turn."""
from __future__ import annotations

from ..core import Event, RuleError
from ..rng import Rng
from .actions import Discard, End, Fly, Home, Move, Roll, Stay
from .board import DC, EV, LAYERS, NAMES, _ev, _money, code_of, walk
from .models import TriviaState


class TurnsMixin:
    """Part of PoliticsTrivia (game.py), which it shares helpers with."""

    # homes ------------------------------------------------------------------
    def _discard(self, state: TriviaState, seat: int, a: Discard) -> list[Event]:
        p = state.players[seat]
        if not p.dealt:
            raise RuleError("You have no opening Gerrymander cards to return." if state.phase == "homes"
                            else "Gerrymander cards are returned only at the start of the game.")
        if a.card not in p.dealt:
            raise RuleError(f"Card {a.card} is not one of your three opening Gerrymander cards.")
        p.hand = [c for c in p.dealt if c != a.card]
        p.dealt = []
        state.gdeck.append(a.card)
        events = [_ev(f"{self._name(state, seat)} returns one Gerrymander card to the deck and keeps two."),
                  _ev(f"You keep Gerrymander cards {', '.join(str(c) for c in p.hand)}.", to=[seat])]
        self._maybe_begin(state, events)
        return events

    def _home(self, state: TriviaState, seat: int, a: Home) -> list[Event]:
        if state.phase != "homes":
            raise RuleError("Home states were chosen at the start of the game.")
        chooser = self._chooser(state)
        if chooser != seat:
            who = self._name(state, chooser) if chooser is not None else "nobody"
            raise RuleError(f"Home states are chosen in order of the opening roll: it is {who}'s choice now.")
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        if code == DC:
            raise RuleError("D.C. cannot be a home state.")
        owner = next((s for s, p in enumerate(state.players) if p.home == code), None)
        if owner is not None:
            raise RuleError(f"{NAMES[code]} is already {self._name(state, owner)}'s home state; one candidate per state.")
        p = state.players[seat]
        p.home = p.at = code
        state.wait += 1
        events = [_ev(f"{self._name(state, seat)} chooses {NAMES[code]} as home state.")]
        self._maybe_begin(state, events)
        return events

    def _maybe_begin(self, state: TriviaState, events: list[Event]) -> None:
        if any(p.dealt for p in state.players) or self._chooser(state) is not None:
            return
        if state.gdeck:
            rng = Rng(state.rng)
            rng.shuffle(state.gdeck)
            state.rng = rng.state
        events.append(_ev(f"The campaign begins. {self._name(state, state.first)} had the lowest roll and goes "
                          "first; play passes down the seat list."))
        self._begin_turn(state, state.first, events)

    # turns ------------------------------------------------------------------
    def _begin_turn(self, state: TriviaState, seat: int, events: list[Event]) -> None:
        n = len(state.seats)
        for _ in range(4 * n + 4):
            state.turn = seat
            state.turns += 1
            state.dice = None
            state.moved = state.offer_made = False
            state.deal = None
            state.extra = 0
            state.q = None
            state.wild = None
            state.pending_dice = 0
            state.phase = "start"
            state.wait += 1
            p = state.players[seat]
            if p.at == DC and p.dc_turns >= 4 and p.debt > 0:
                events.append(_ev(f"{self._name(state, seat)} has spent 4 turns in D.C.; the bank writes off the "
                                  f"remaining debt of {_money(p.debt)}."))
                p.debt = 0
            if p.skip <= 0:
                events.append(_ev(f"{self._name(state, seat)}'s turn" + (" (in D.C.)." if p.at == DC else
                                                                         f" (in {NAMES.get(p.at, p.at)}).")))
                return
            p.skip -= 1
            line = f"{self._name(state, seat)} misses this turn."
            if p.at == DC and p.dc_turns < 4:
                line += " " + self._dc_collect(state, seat)
            events.append(_ev(line))
            reason = self._speed_reason(state)
            if reason:
                self._start_speed(state, events, reason)
                return
            seat = self._next_seat(state, seat)
        # everyone keeps skipping (cannot really happen): just hand the turn on
        state.phase = "start"

    def _next_seat(self, state: TriviaState, seat: int) -> int:
        return (seat - 1) % len(state.seats)  # counter-clockwise: down the seat list

    def _speed_reason(self, state: TriviaState) -> str:
        """Asked at the end of every turn: why speed play starts now — "speed" (a majority voted `wrapup`),
        "limit" (max_rounds rounds are played) or "stall" (nobody has set a new high of electoral votes for
        stall_rounds rounds) — or "" to play on. The high only ever rises and a game ends at 270, so with
        the stall rule on even a game without a round limit ends."""
        n = len(state.seats)
        held = [0] * n
        for code, owner in state.chips.items():
            if owner is not None:
                held[owner] += EV[code]
        best = max(held)
        if best > state.record_ev:
            state.record_ev, state.record_turn = best, state.turns
        if state.speed_due:
            return "speed"
        limit = state.options.max_rounds
        if limit > 0 and state.turns >= limit * n:
            return "limit"
        stall = state.options.stall_rounds
        if stall > 0 and state.turns - state.record_turn >= stall * n:
            return "stall"
        return ""

    def _end_turn(self, state: TriviaState, events: list[Event]) -> None:
        if state.phase in ("over", "h2h", "review"):
            return
        reason = self._speed_reason(state)
        if reason:
            self._start_speed(state, events, reason)
            return
        self._begin_turn(state, self._next_seat(state, state.turn), events)

    def _dc_collect(self, state: TriviaState, seat: int) -> str:
        p = state.players[seat]
        p.dc_turns += 1
        p.cash += 10
        line = f"{self._name(state, seat)} collects $10M in D.C. (turn {p.dc_turns} of 4)"
        if p.debt:
            paid = min(p.debt, p.cash)
            p.cash -= paid
            p.debt -= paid
            line += f" and pays {_money(paid)} of debt" + (f" ({_money(p.debt)} still owed)" if p.debt else "")
        return line + "."

    def _go_dc(self, state: TriviaState, seat: int) -> str:
        p = state.players[seat]
        if p.at == DC:
            return ""
        p.at = DC
        p.dc_turns = 0
        return self._dc_collect(state, seat)

    def _roll(self, state: TriviaState, seat: int, a: Roll) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "You have already moved this turn.")
        p = state.players[seat]
        if p.at == DC and p.debt > 0 and p.dc_turns < 4:
            raise RuleError(f"You owe {_money(p.debt)}: all debts are paid before you leave D.C., so `stay`.")
        rng = Rng(state.rng)
        d1, d2 = rng.die(), rng.die()
        state.rng = rng.state
        state.dice = [d1, d2]
        state.moved = True
        if p.at == DC:
            p.dc_turns = 0
        name = self._name(state, seat)
        events = [_ev(f"{name} rolls {d1} + {d2} = {d1 + d2}" + (" — doubles!" if d1 == d2 else "."))]
        if d1 == d2 and state.wdeck:
            state.pending_dice = d1 + d2
            self._draw_wildcard(state, seat, events)
            return events
        self._to_move(state, events)
        return events

    def _to_move(self, state: TriviaState, events: list[Event]) -> None:
        state.phase = "move"
        state.wait += 1

    def _fly(self, state: TriviaState, seat: int, a: Fly) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "Flying replaces the roll: it is only possible before you roll.")
        p = state.players[seat]
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        if code == p.at:
            raise RuleError(f"You are already in {NAMES[code]}; fly to another state.")
        if p.at == DC and p.debt > 0 and p.dc_turns < 4:
            raise RuleError(f"You owe {_money(p.debt)}: all debts are paid before you leave D.C., so `stay`.")
        if p.cash < 2:
            raise RuleError(f"A flight costs $2M and you have {_money(p.cash)}.")
        p.cash -= 2
        frm = p.at
        p.at = code
        if frm == DC:
            p.dc_turns = 0
        state.dice = None
        state.path = [frm, code] if frm else [code]
        name = self._name(state, seat)
        line = f"{name} flies to {NAMES[code]} for $2M; the turn ends there."
        if code == DC:
            p.at = frm
            line = f"{name} flies to D.C. for $2M. " + self._go_dc(state, seat)
        events = [_ev(line)]
        self._end_turn(state, events)
        return events

    def _stay(self, state: TriviaState, seat: int, a: Stay) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "You can only stay in D.C. at the start of your turn.")
        p = state.players[seat]
        if p.at != DC:
            raise RuleError("Only a candidate in D.C. can stay there to collect $10M.")
        if p.dc_turns >= 4:
            raise RuleError("You may stay in D.C. at most 4 turns in a row: roll or fly out.")
        events = [_ev(self._dc_collect(state, seat))]
        self._end_turn(state, events)
        return events

    def _move(self, state: TriviaState, seat: int, a: Move) -> list[Event]:
        if state.phase != "move" or seat != state.turn:
            raise self._wrong_turn(state, seat, "Roll first: `roll`." if state.phase == "start"
                                   else "You have already moved this turn.")
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        p = state.players[seat]
        steps = sum(state.dice)
        if code == p.at:
            raise RuleError("You may not end your move where you started the turn.")
        if code not in LAYERS[p.at][steps]:
            raise RuleError(f"{NAMES[code]} is not exactly {steps} steps from {NAMES[p.at]} over the borders.")
        frm = p.at
        state.path = walk(frm, code, steps)
        p.at = code
        name = self._name(state, seat)
        if code == DC:
            p.at = frm
            events = [_ev(f"{name} moves {steps} steps to D.C.; the turn ends. " + self._go_dc(state, seat))]
            self._end_turn(state, events)
            return events
        holder = state.chips[code]
        tail = ("its chip is free" if holder is None else "its chip is yours" if holder == seat
                else f"its chip is held by {self._name(state, holder)}")
        events = [_ev(f"{name} moves {steps} steps to {NAMES[code]} ({EV[code]} EV; {tail}).")]
        self._to_choose(state)
        return events

    def _to_choose(self, state: TriviaState) -> None:
        state.phase = "choose"
        state.q = None
        state.wait += 1

    def _end(self, state: TriviaState, seat: int, a: End) -> list[Event]:
        if seat != state.turn or state.phase not in ("choose", "claim"):
            raise self._wrong_turn(state, seat, "You can end your turn after your move, instead of a question.")
        name = self._name(state, seat)
        text = (f"{name} does not claim D.C. and ends the turn." if state.phase == "claim"
                else f"{name} ends the turn without a question.")
        events = [_ev(text)]
        self._end_turn(state, events)
        return events
