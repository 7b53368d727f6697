"""Setup choices and the moves of a turn: returning a Gerrymander card, choosing a home,
rolling, flying, moving, staying in D.C. and ending a turn."""
from __future__ import annotations

from ..core import Event, RuleError
from ..rng import Rng
from ..wording import possessive, subject, verb_for
from . import acting, flow, wildcards
from .acting import name_of, wrong_turn
from .actions import Discard, End, Fly, Home, Move, Roll, Stay
from .board import DC, EV, LAYERS, NAMES, _ev, _money, code_of, walk
from .models import TriviaState


# homes ------------------------------------------------------------------
def discard(state: TriviaState, seat: int, a: Discard) -> list[Event]:
    p = state.players[seat]
    if not p.dealt:
        raise RuleError("You have no opening Gerrymander cards to return." if state.phase == "homes"
                        else "Gerrymander cards are returned only at the start of the game.")
    if a.card not in p.dealt:
        raise RuleError(f"Card {a.card} is not one of your three opening Gerrymander cards.")
    p.hand = [c for c in p.dealt if c != a.card]
    p.dealt = []
    state.gdeck.append(a.card)
    events = [_ev(f"{subject(name_of(state, seat), 'returns', start=True)} one Gerrymander card to the deck and "
                      f"{verb_for(name_of(state, seat), 'keeps')} two."),
              _ev(f"You keep Gerrymander cards {', '.join(str(c) for c in p.hand)}.", to=[seat])]
    flow.maybe_begin(state, events)
    return events


def home(state: TriviaState, seat: int, a: Home) -> list[Event]:
    if state.phase != "homes":
        raise RuleError("Home states were chosen at the start of the game.")
    chooser = acting.chooser(state)
    if chooser != seat:
        who = name_of(state, chooser) if chooser is not None else "nobody"
        raise RuleError(f"Home states are chosen in order of the opening roll: it is {possessive(who)} choice now.")
    code = code_of(a.state)
    if code is None:
        raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
    if code == DC:
        raise RuleError("D.C. cannot be a home state.")
    owner = next((s for s, p in enumerate(state.players) if p.home == code), None)
    if owner is not None:
        raise RuleError(f"{NAMES[code]} is already {possessive(name_of(state, owner))} home state; "
                        "one candidate per state.")
    p = state.players[seat]
    p.home = p.at = code
    state.wait += 1
    events = [_ev(f"{subject(name_of(state, seat), 'chooses', start=True)} {NAMES[code]} as home state.")]
    flow.maybe_begin(state, events)
    return events


def roll(state: TriviaState, seat: int, a: Roll) -> list[Event]:
    if state.phase != "start" or seat != state.turn:
        raise wrong_turn(state, seat, "You have already moved this turn.")
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
    name = name_of(state, seat)
    rolls = subject(name, 'rolls', start=True)
    events = [_ev(f"{rolls} {d1} + {d2} = {d1 + d2}" + (" — doubles!" if d1 == d2 else "."))]
    if d1 == d2 and state.wdeck:
        state.pending_dice = d1 + d2
        wildcards.draw_wildcard(state, seat, events)
        return events
    flow.to_move(state, events)
    return events


def fly(state: TriviaState, seat: int, a: Fly) -> list[Event]:
    if state.phase != "start" or seat != state.turn:
        raise wrong_turn(state, seat, "Flying replaces the roll: it is only possible before you roll.")
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
    name = name_of(state, seat)
    line = f"{subject(name, 'flies', start=True)} to {NAMES[code]} for $2M; the turn ends there."
    if code == DC:
        p.at = frm
        line = f"{subject(name, 'flies', start=True)} to D.C. for $2M. " + flow.go_dc(state, seat)
    events = [_ev(line)]
    flow.end_turn(state, events)
    return events


def stay(state: TriviaState, seat: int, a: Stay) -> list[Event]:
    if state.phase != "start" or seat != state.turn:
        raise wrong_turn(state, seat, "You can only stay in D.C. at the start of your turn.")
    p = state.players[seat]
    if p.at != DC:
        raise RuleError("Only a candidate in D.C. can stay there to collect $10M.")
    if p.dc_turns >= 4:
        raise RuleError("You may stay in D.C. at most 4 turns in a row: roll or fly out.")
    events = [_ev(flow.dc_collect(state, seat))]
    flow.end_turn(state, events)
    return events


def move(state: TriviaState, seat: int, a: Move) -> list[Event]:
    if state.phase != "move" or seat != state.turn:
        raise wrong_turn(state, seat, "Roll first: `roll`." if state.phase == "start"
                         else "You have already moved this turn.")
    code = code_of(a.state)
    if code is None:
        raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
    p = state.players[seat]
    assert p.at is not None and state.dice is not None  # a move follows a roll, from a home state on
    steps = sum(state.dice)
    if code == p.at:
        raise RuleError("You may not end your move where you started the turn.")
    if code not in LAYERS[p.at][steps]:
        raise RuleError(f"{NAMES[code]} is not exactly {steps} steps from {NAMES[p.at]} over the borders.")
    frm = p.at
    state.path = walk(frm, code, steps)
    p.at = code
    name = name_of(state, seat)
    if code == DC:
        p.at = frm
        moves = subject(name, 'moves', start=True)
        events = [_ev(f"{moves} {steps} steps to D.C.; the turn ends. " + flow.go_dc(state, seat))]
        flow.end_turn(state, events)
        return events
    holder = state.chips[code]
    tail = ("its chip is free" if holder is None else "its chip is yours" if holder == seat
            else f"its chip is held by {name_of(state, holder)}")
    events = [_ev(f"{subject(name, 'moves', start=True)} {steps} steps to {NAMES[code]} ({EV[code]} EV; {tail}).")]
    flow.to_choose(state)
    return events


def end(state: TriviaState, seat: int, a: End) -> list[Event]:
    if seat != state.turn or state.phase not in ("choose", "claim"):
        raise wrong_turn(state, seat, "You can end your turn after your move, instead of a question.")
    name = name_of(state, seat)
    text = (f"{subject(name, 'does', start=True)} not claim D.C. and ends the turn." if state.phase == "claim"
            else f"{subject(name, 'ends', start=True)} the turn without a question.")
    events = [_ev(text)]
    flow.end_turn(state, events)
    return events
