"""Politics (1952)'s view: what `Politics1952.view` returns, declared once.

The renderer (render/politics_1952.py) and the text board (render/text/politics_1952.py) read
the view by these names, so a renamed or retyped field fails the type check, not a render. A
seat's own view adds `you` and its secret `hand`; the public view (seat None) has neither.
"""

# No `from __future__ import annotations` here: evaluated annotations let NotRequired show in the
# TypedDicts' __optional_keys__ at run time (tests/test_typed_views.py checks real views against them).
from typing import Any, Literal, NotRequired, TypedDict


class P52PlayerView(TypedDict):
    name: str
    bot: bool
    active: bool  # not eliminated at a tabulation
    votes: int  # if counted now
    cards_left: int  # Speech Cards in hand
    played: list[str]  # Speech Cards played, in order
    counties: int  # counties on the board
    states: int  # states held now
    opening: int | None  # the throw for first player, while it lasts


class P52StateView(TypedDict):
    code: str
    name: str
    ev: int
    group: int  # the coloured die's group
    lines: int  # county lines, west to east
    pins: list[list[int]]  # per county line, the seats with a pin there, north to south
    capital: int | None  # the seat whose pin is in the capital
    controller: int | None  # who takes the state's vote now


class P52DiceView(TypedDict):
    group: int  # the coloured die
    white: list[int]  # the two white dice


class P52TabulationView(TypedDict):
    turn: int
    votes: list[int | None]  # None for a seat already out
    eliminated: list[int]
    winner: int | None
    throws: list[dict[str, int]]  # tie-break throws: seat (as text) -> throw


class P52HandCardView(TypedDict):
    card: str  # slug, as typed in `speech`
    title: str
    counties: str  # the card's counties, listed


class P52View(TypedDict):
    game: str
    phase: Literal["opening", "roll", "move", "over"]
    turn: int | None  # None outside a turn (the opening throw, the end)
    turns: int
    majority: int
    total_votes: int
    dice: P52DiceView | None
    remaining: int  # counties of the white dice not yet placed
    speech_done: bool
    board_closed: bool
    pinned: int  # states with at least one pin
    players: list[P52PlayerView]
    states: list[P52StateView]
    contenders: list[int]  # still in the throw for first player
    tabulations: list[P52TabulationView]
    log: list[str]  # the last turn's public lines
    winner: int | None
    outcome: str
    options: dict[str, Any]  # the game's settings, as P52Options dumps them
    you: NotRequired[int]
    hand: NotRequired[list[P52HandCardView]]
