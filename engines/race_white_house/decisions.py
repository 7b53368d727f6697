"""Race for the White House: the one-move decisions a space offers. An Issues card's position (ADD its
votes, then the opponent places votes), a RALLY's category, the CAMPAIGN BUS, a DEBATE, or passing."""
from __future__ import annotations

from ..core import Event, RuleError
from ..wording import possessive
from .actions import Advance, Debate, Pass, Rally, Take, cat_of, track_of
from .board import land
from .data import CATEGORIES, ENTRIES, ISSUE_BY_SLUG, RALLY_VOTES, TRACKS
from .effects import add, apply_effect, push_place
from .log import say
from .models import OTHER, RWHState, Step
from .rules import name_does, opponent, party_ev, pawn_does, short_name
from .turns import continue_turn


def take(state: RWHState, p: int, step: Step, action: Take) -> list[Event]:
    """Issues: ADD the position's votes, then the opponent places its votes anywhere (before anything else)."""
    card = ISSUE_BY_SLUG[step.card]
    slug = action.position.lower()
    pos = next((x for x in card[2] if x[0] == slug), None)
    if pos is None:
        raise RuleError(f"The positions on {card[1]} are `{card[2][0][0]}` and `{card[2][1][0]}`.")
    events: list[Event] = []
    say(state, events, f"{pawn_does(state, p, 'takes')} a position on {card[1]}: **{pos[1]}**.")
    state.steps.pop(0)
    add(state, p, pos[2], pos[1], events)
    if state.phase != "over":
        q = opponent(state, p)
        push_place(state, q, pos[3], -1, None, f"{card[1]}: {pos[3]} votes anywhere, "
                                               f"from {possessive(short_name(state, p))} Issues card", front=True)
        continue_turn(state, events)
    return events


def rally(state: RWHState, p: int, step: Step, action: Rally) -> list[Event]:
    """RALLY: one vote of the chosen category in every state of the space's region."""
    cat = cat_of(action.category)
    if cat is None:
        raise RuleError(f"'{action.category[:40]}' is not a voter category; they are {', '.join(CATEGORIES)}.")
    region = step.card
    events: list[Event] = []
    state.steps.pop(0)
    apply_effect(state, p, ("each", RALLY_VOTES, cat, region), f"Rally in the {region} ({CATEGORIES[cat]})",
                 events)
    continue_turn(state, events)
    return events


def advance(state: RWHState, p: int, step: Step, action: Advance) -> list[Event]:
    """CAMPAIGN BUS: move to a campaign's entry space and land there."""
    track = track_of(action.track)
    if track is None:
        raise RuleError(f"The campaigns are {', '.join(TRACKS)}.")
    pawn = state.pawns[p]
    events: list[Event] = []
    state.steps.pop(0)
    pawn.index = ENTRIES[track]
    land(state, p, pawn_does(state, p, "takes") + " the bus", events)
    continue_turn(state, events)
    return events


def debate(state: RWHState, p: int, step: Step, action: Debate) -> list[Event]:
    """DEBATE: the opponent rolls one die and places that many votes first, then the debater two dice."""
    pawn = state.pawns[p]
    mine, theirs = party_ev(state, pawn.party), party_ev(state, OTHER[pawn.party])
    if mine >= theirs:  # pragma: no cover - the step exists only while trailing
        raise RuleError("You may debate only while your party trails in electoral votes.")
    q = opponent(state, p)
    events: list[Event] = []
    state.steps.pop(0)
    say(state, events, f"{pawn_does(state, p, 'challenges')} {short_name(state, q)} to a debate.")
    push_place(state, p, 0, -1, None, "Debate: two dice of votes anywhere", dice=2, front=True)
    answers = name_does(state, q, "answers", start=False)  # the status line shows it to everyone
    push_place(state, q, 0, -1, None, f"Debate: one die of votes anywhere, {answers} first", dice=1, front=True)
    continue_turn(state, events)
    return events


def decline(state: RWHState, p: int, step: Step, action: Pass) -> list[Event]:
    """`pass`: do not enter the campaign, take the bus, debate or buy TV votes."""
    events: list[Event] = []
    verb, what = {"enter": ("stays", "on the board"), "advance": ("stays", "put"),
                  "debate": ("declines", "to debate"), "buy": ("buys", "no TV time")}[step.kind]
    say(state, events, f"{name_does(state, p, verb)} {what}.")
    state.steps.pop(0)
    continue_turn(state, events)
    return events
