"""U.S. President's view: what `USPresident.view` returns, declared once.

The renderer (render/us_president.py) and the text board (render/text/us_president.py) read the
view by these names, so a renamed or retyped field fails the type check, not a render. A seat's
own view adds `you` and its secret `pick`; the public view (seat None) has neither.
"""

# No `from __future__ import annotations` here: evaluated annotations let NotRequired show in the
# TypedDicts' __optional_keys__ at run time (tests/test_typed_views.py checks real views against them).
from typing import Literal, NotRequired, TypedDict


class USPPlayerView(TypedDict):
    name: str
    bot: bool
    electors: int  # now (after a recount: among the seats still counted)
    count: int | None  # on Election Day, once counted
    supply: dict[str, int]  # pyramids left by size: large, medium, small
    picked: bool | None  # this round; None once the game is over
    cards: list[str]  # state cards held now
    dealt: list[str]  # the opening deal
    active: bool  # still in the count


class USPStateView(TypedDict):
    code: str
    name: str
    electors: int
    holder: int | None  # None: the card lies beside the map
    pyramids: list[list[int]]  # per seat, the points of each pyramid, in order
    points: list[int]  # per seat


class USPRevealView(TypedDict):
    round: int
    picks: list[list[str]]  # per seat [state code, size]


# "from" is a keyword, hence the functional form
USPRecountMove = TypedDict("USPRecountMove", {"state": str, "from": int | None, "to": int | None, "why": str})


class USPRecountStep(TypedDict):
    step: int
    leaving: list[int]
    leaving_electors: int
    moves: list[USPRecountMove]
    aside_waiting: list[str]  # cards beside the map that may not be claimed yet
    active: list[int]
    holders: dict[str, int | None]
    electors: list[int | None]  # None for a seat out of the count
    florida_counts: bool
    winner: int | None
    text: str  # the step as the channel read it


class USPPickView(TypedDict):
    state: str
    size: str


class USPView(TypedDict):
    game: str
    phase: Literal["play", "over"]
    round: int
    rounds: int
    majority: int
    total_electors: int
    deal: str
    tie_above_holder: str
    recount_aside: str
    players: list[USPPlayerView]
    states: list[USPStateView]
    aside: list[str]  # cards beside the map
    florida_counts: bool
    waiting: list[int]
    last_reveal: USPRevealView | None
    count: list[int] | None  # Election Day electors per seat
    count_holders: dict[str, int | None] | None
    recount: list[USPRecountStep]
    winner: int | None
    outcome: str
    you: NotRequired[int]
    pick: NotRequired[USPPickView | None]
