"""Primary/General's view: what `PrimaryGeneral.view` returns, declared once.

The renderer (render/primary_general.py) and the text board (render/text/primary_general.py)
read the view by these names, so a renamed or retyped field fails the type check, not a render.
A seat's own view adds `you` and `hand`; the public view (seat None) has neither.
"""

# No `from __future__ import annotations` here: evaluated annotations let NotRequired show in the
# TypedDicts' __optional_keys__ at run time (tests/test_typed_views.py checks real views against them).
from typing import Literal, NotRequired, TypedDict


class PGPlayerView(TypedDict):
    name: str
    bot: bool
    electability: int
    affiliation: int
    cards_in_hand: int
    role: Literal["candidate", "spoiler", ""]  # "" until the Primary ends
    primary_total: int | None  # Electability + Affiliation once the Primary is over
    general_total: int | None  # Electability − Affiliation once the General is over
    points: int | None  # party match only
    party: str | None  # party match only: "Blue" or "Red"


class PGCardInPlayView(TypedDict):
    id: str  # "c3": what Voter ADHD names
    card: str  # the card's name
    effect: str  # short form, e.g. "+2E -1A"
    target: int
    by: int
    phase: str  # the phase it was played in


class PGHandCardView(TypedDict):
    card: str  # slug, as typed in `play`
    name: str
    effect: str


class PGView(TypedDict):
    game: str
    phase: Literal["primary", "general", "over"]
    turn: int | None  # None once the game is over
    players: list[PGPlayerView]
    deck: int
    discard: int
    in_play: list[PGCardInPlayView]
    winner: int | None
    winner_reason: str
    party_match: bool
    game_number: int
    match_games: int
    you: NotRequired[int]
    hand: NotRequired[list[PGHandCardView]]
