"""Politics (1952): the state of a game, its settings and its moves.

The vocabulary every other module of the game (rules, the engine, the AI) shares. Moves are
frozen and compared by value, so the ones handed out again and again (`legal_actions` after
every move) are built once here.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from ..core import Action, Options, Seat
from .cards import SLUGS
from .states import CODES, GROUPS, LINES

HAND = 3


class P52Options(Options):
    speech_cards: int = Field(HAND, ge=0, le=3, description="Speech Cards dealt to each player (the rulebook deals 3)")
    elimination_ties: Literal["counties", "throw"] = Field(
        "counties", description="A tie for a place among the two who stay in at a tabulation: 'counties' keeps "
                                "whoever holds more counties on the board (then a throw of the white dice), "
                                "'throw' goes straight to a throw of the white dice")


class P52State(BaseModel):
    seats: list[Seat]
    options: P52Options
    rng: int
    phase: Literal["opening", "roll", "move", "over"] = "opening"
    # the throw for first player: who is still in the roll-off and what each threw
    contenders: list[int] = []
    opening: list[int | None] = []
    turn: int = 0
    turns: int = 0  # turns begun so far
    dice: list[int] = []  # the last throw: [coloured, white, white]
    remaining: int = 0  # counties of the white dice not yet placed this turn
    speech_done: bool = False  # a speech card was played this turn
    # pos[state][seat]: 0 = no pin, 1..lines = on that county line, lines + 1 = in the capital
    pos: dict[str, list[int]]
    # arrived[state][seat]: when that pin reached its current line (a stamp from
    # `clock`); on one line the earliest arrival stands furthest north
    arrived: dict[str, list[int]]
    clock: int = 0
    capital: dict[str, int | None]
    hands: list[list[str]]  # secret
    played: list[list[str]]  # public, in the order played
    active: list[int]
    tabulations: list[dict] = []
    log: list[str] = []  # the last turn's public lines, for the picture's caption
    winner: int | None = None
    outcome: str = ""


class Throw(Action):
    """Throw the two white dice to decide who begins."""
    verb = "throw"


class Roll(Action):
    """Throw the coloured die and the two white dice to begin your turn."""
    verb = "roll"


class Capture(Action):
    """Capture n counties (default 1) in one state of the group the coloured die named."""
    verb = "capture"
    state: str
    n: int = 1


class Speech(Action):
    """Play one of your Speech Cards (at most one a turn, after the roll)."""
    verb = "speech"
    card: str


class End(Action):
    """End your turn (only once no county of the dice can still be placed)."""
    verb = "end"



THROW, ROLL, END = Throw(), Roll(), End()


@lru_cache(maxsize=1024)
def capture_action(code: str, n: int) -> Capture:
    return Capture(state=code, n=n)


# CAPTURES[code][m]: the frozen actions `capture code 1` .. `capture code m`
CAPTURES: dict[str, tuple[tuple[Capture, ...], ...]] = {
    c: tuple(tuple(capture_action(c, k) for k in range(1, m + 1)) for m in range(LINES[c] + 2)) for c in CODES
}
# per dice group: (code, county lines, its capture actions) -- what legal_actions and
# can_place walk after every move, without three dict look-ups per state
GROUP_TABLE = {g: tuple((c, LINES[c], CAPTURES[c]) for c in codes) for g, codes in GROUPS.items()}

SPEECHES = {slug: Speech(card=slug) for slug in SLUGS}


def speech_action(slug: str) -> Speech:
    return SPEECHES.get(slug) or Speech(card=slug)
