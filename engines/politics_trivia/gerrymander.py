"""Gerrymander cards: turning in what a card needs for its reward."""
from __future__ import annotations

from ..wording import subject
from ..core import Event, RuleError
from . import runoff
from .acting import name_of, wrong_turn
from .actions import Play
from .board import GERRY, _ev, _money
from .models import TriviaState


def can_play(state: TriviaState, seat: int, cid: int) -> bool:
    card = GERRY[cid]
    p = state.players[seat]
    return (p.cash >= card.need_cash and p.pv >= card.need_pv
            and all(state.chips.get(c) == seat for c in card.need_chips))


# Gerrymander cards ------------------------------------------------------
def play(state: TriviaState, seat: int, a: Play) -> list[Event]:
    if state.phase in ("h2h", "review"):
        raise RuleError("No Gerrymander cards may be played in a runoff or in speed play.")
    if seat != state.turn or state.phase not in ("start", "move", "choose", "claim"):
        raise wrong_turn(state, seat, "Gerrymander cards are played on your own turn, before you roll or "
                         "after your move.")
    p = state.players[seat]
    if a.card not in p.hand:
        raise RuleError(f"You do not hold Gerrymander card {a.card}; `/politics hand` shows yours.")
    if state.deal is not None:
        raise RuleError("Finish the accepted chip deal (answer your question) before playing a Gerrymander card.")
    card = GERRY[a.card]
    if p.cash < card.need_cash:
        raise RuleError(f"Card {a.card} needs {_money(card.need_cash)} and you have {_money(p.cash)}.")
    if p.pv < card.need_pv:
        raise RuleError(f"Card {a.card} needs {card.need_pv}M Popular Votes and you have {p.pv}M.")
    missing = [c for c in card.need_chips if state.chips.get(c) != seat]
    if missing:
        raise RuleError(f"Card {a.card} needs the {', '.join(missing)} chip{'s' if len(missing) > 1 else ''}, "
                        "which you do not hold.")
    for c in card.need_chips:
        state.chips[c] = None
    p.cash -= card.need_cash
    p.pv -= card.need_pv
    took = []
    for c in card.reward_chips:
        if c in state.chips:
            prev = state.chips[c]
            state.chips[c] = seat
            took.append(c + (f" from {name_of(state, prev)}" if prev is not None and prev != seat else ""))
    p.cash += card.reward_cash
    p.pv += card.reward_pv
    p.hand.remove(a.card)
    p.played.append(a.card)
    drew = ""
    if state.gdeck:
        new = state.gdeck.pop(0)
        p.hand.append(new)
        drew = " and draws a new card"
    events = [_ev(f"{subject(name_of(state, seat), 'plays', start=True)} Gerrymander **{card.title}**: {card.text}"
                  + (f" (takes {', '.join(took)})" if took else "") + f"{drew}.")]
    if drew:
        events.append(_ev(f"You draw Gerrymander card {new}: {GERRY[new].title} — {GERRY[new].text}", to=[seat]))
    runoff.check_270(state, events)
    return events
