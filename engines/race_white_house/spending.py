"""Race for the White House: spending the party's purse ($60,000,000 for the whole game, no income).
Entering the CONSERVATIVE or LIBERAL campaign costs $10,000,000; TV sells 5 votes for $5,000,000.
With four players (setting vp_spending=ask) a Vice-President's spending waits for their President
to `approve` or `refuse` it."""
from __future__ import annotations

from ..core import Action, Event, RuleError
from ..rng import Rng
from .actions import PASS, Approve, Buy, Enter, Refuse, proposal
from .board import land_track
from .data import ENTRY_COST, TV_LOT, TV_MAX, TV_PRICE
from .decisions import decline
from .effects import pay, push_place
from .log import say
from .models import RWHState, Step
from .rules import money, does, name_does, pawn_does, president_decides, president_of
from .turns import continue_turn


def enter(state: RWHState, p: int, step: Step, action: Enter, approved: bool = False) -> list[Event]:
    """`enter` a campaign side track (paying its cost), roll one die at once and land on its space."""
    track = step.card
    pawn = state.pawns[p]
    cost = ENTRY_COST[track]
    if cost and state.funds[pawn.party] < cost:
        raise RuleError(f"Entering the {track} campaign costs {money(cost)}; your party has "
                        f"{money(state.funds[pawn.party])}.")
    if cost and not approved and president_decides(state, p):
        return ask_president(state, p, action, f"enter the {track} campaign for {money(cost)}")
    events: list[Event] = []
    state.steps.pop(0)
    if cost:
        pay(state, p, cost, f"{track} campaign", events)
    rng = Rng(state.rng)
    die = rng.die()
    state.rng = rng.state
    state.dice = [die]
    pawn.track = track
    pawn.index = die - 1
    land_track(state, p, f"{pawn_does(state, p, 'enters')} the {track} campaign and "
                         f"{does(state, p, 'rolls')} {die}", events)
    continue_turn(state, events)
    return events


def buy_votes(state: RWHState, p: int, step: Step, action: Buy, approved: bool = False) -> list[Event]:
    """TV: `buy 10` pays $5,000,000 per 5 votes, then places them anywhere."""
    votes = action.votes
    pawn = state.pawns[p]
    funds = state.funds[pawn.party]
    if votes <= 0 or votes % TV_LOT:
        raise RuleError(f"TV votes come in lots of {TV_LOT}: buy {TV_LOT}, {2 * TV_LOT}, … up to {TV_MAX}.")
    if votes > TV_MAX:
        raise RuleError(f"At most {TV_MAX} TV votes can be bought on one visit.")
    price = votes // TV_LOT * TV_PRICE
    if price > funds:
        raise RuleError(f"{votes} TV votes cost {money(price)}; your party has {money(funds)}.")
    if not approved and president_decides(state, p):
        return ask_president(state, p, action, f"buy {votes} TV votes for {money(price)}")
    events: list[Event] = []
    state.steps.pop(0)
    state.funds[pawn.party] = funds - price
    state.spent[p] += price
    say(state, events, f"{pawn_does(state, p, 'buys')} {votes} TV votes for {money(price)} "
                       f"({money(funds - price)} left).")
    push_place(state, p, votes, -1, None, f"TV: {votes} votes anywhere", front=True)
    continue_turn(state, events)
    return events


def ask_president(state: RWHState, p: int, action: Action, what: str) -> list[Event]:
    """Hold a Vice-President's spending until their President answers (`approve` or `refuse`)."""
    president = president_of(state, p)
    text = (f"{pawn_does(state, p, 'proposes')} to {what} from the team's purse "
            f"({money(state.funds[state.pawns[p].party])}); the President decides: `approve` or `refuse`.")
    state.steps.insert(0, Step(kind="approve", pawn=president, text=text, card=action.text(), by=p))
    decides = pawn_does(state, president, 'has', start=False)
    return [Event(f"{pawn_does(state, p, 'proposes')} to {what}; {decides} the final word: `approve` or `refuse`.")]


def approve(state: RWHState, p: int, step: Step, action: Approve) -> list[Event]:
    """The President approves: the proposed move is made for the Vice-President."""
    state.steps.pop(0)
    vp = step.by
    proposed = proposal(step.card)
    events = [Event(f"{name_does(state, p, 'approves')}.")]
    if isinstance(proposed, Enter):
        events += enter(state, vp, state.steps[0], proposed, approved=True)
    else:
        events += buy_votes(state, vp, state.steps[0], proposed, approved=True)
    return events


def refuse(state: RWHState, p: int, step: Step, action: Refuse) -> list[Event]:
    """The President refuses: the Vice-President passes."""
    state.steps.pop(0)
    events = [Event(f"{name_does(state, p, 'refuses')}: the money stays in the team's purse.")]
    return events + decline(state, step.by, state.steps[0], PASS)
