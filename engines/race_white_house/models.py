"""Race for the White House: the settings and the saved state (pawns, the steps the game waits for,
the tally sheets' filled blocks, money, decks, log)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

from ..core import Options, Seat

GAME_ID = "race-white-house"
PARTY_NAME = {"D": "Democrat", "R": "Republican"}
OTHER = {"D": "R", "R": "D"}
OFF = {"D": 0, "R": 5}  # offset of a party's five categories in a state's fill list


class RWHOptions(Options):
    declare: Literal["auto", "manual"] = Field(
        "auto", description="'auto': a won state is declared and its electoral votes recorded at once; 'manual' "
                            "(the printed rule): you must `declare` it yourself before you give up the move, or "
                            "your opponent places 5 votes Anywhere for it when the next turn begins")
    blocks: Literal["short", "rulebook"] = Field(
        "short", description="Voting blocks on the tally sheets: 'short' about one per two electoral votes (North "
                             "Carolina takes 6 to win; an evening's game), 'rulebook' the printed sheets' scale "
                             "(North Carolina takes 13, the others in proportion; a game almost three times as long)")
    vp_spending: Literal["ask", "free"] = Field(
        "ask", description="Four players: 'ask' (the rulebook's 'final decisions are made by the Presidents'): a "
                           "Vice-President's spending from the team's purse (a paid campaign, TV) waits for their "
                           "President to `approve` or `refuse` it; 'free': each candidate spends alone")
    first_move: Literal["republican", "democrat"] = Field(
        "republican", description="Who takes the first turn: 'republican' (the rulebook: the Democrat picks the "
                                  "first Home State, the Republican rolls first); 'democrat' (the mirror: the "
                                  "Republican picks first, the Democrat rolls first)")
    # 120: about twice the longest of 1,000 AI games on either scale (31 rounds short, 61 on the rulebook's)
    max_rounds: int = Field(120, ge=5, le=500, description="A stalled election ends after this many rounds; the "
                                                           "party with more electoral votes wins (then more states)")


# Pawn and Step are plain dataclasses inside the pydantic state (which still
# validates them when a game is loaded): steps are made and changed on most
# moves, and pydantic's construction and attribute checks were a tenth of a game.
@dataclass(slots=True)
class Pawn:
    seat: int
    party: Literal["D", "R"]
    role: Literal["P", "VP"]
    sheet: int | None = None  # None: both sheets (two-player game)
    home: str | None = None
    track: str | None = None  # on a campaign side track
    index: int = 0            # circuit space, or track space while on a track


@dataclass(slots=True)
class Step:
    """One thing the game waits for. kind: place | home | issue | rally | enter | advance | debate | buy |
    declare | approve."""
    kind: str
    pawn: int
    text: str = ""
    remaining: int = 0
    total: int = 0
    cat: int = -1                    # place: the one category allowed, -1 any
    where: list[str] | None = None   # place: the states allowed (already cut to the pawn's sheet); None = its sheet
    optional: bool = False           # place: "up to" (may stop early)
    dice: int = 0                    # place: roll this many dice when the placement begins
    placed: list[list] = field(default_factory=list)  # place: [code, cat, n, closed(, batch of a `rest`)] for `undo`
    card: str = ""                   # issue slug, track name; approve: the proposed move's text
    by: int = -1                     # approve: the Vice-President's pawn whose proposal waits


class RWHState(BaseModel):
    seats: list[Seat]
    options: RWHOptions
    rng: int
    phase: Literal["home", "play", "over"] = "home"
    pawns: list[Pawn]
    order: list[int]                 # pawns in turn order
    turn: int = 0                    # index into order
    round: int = 1
    fill: dict[str, list[int]]       # per state: D's five categories, then R's
    owner: dict[str, str]            # "" open, "D"/"R" won
    won: dict[str, list[str]]        # declared states per party, in the order won
    undeclared: list[list] = []      # manual declaring: [code, pawn]
    funds: dict[str, int]            # per party (a team shares one purse)
    spent: list[int]                 # per pawn
    issues: list[str]                # draw piles (reshuffled when empty)
    spins: list[str]
    dice: list[int] = []
    steps: list[Step] = []
    wrapped: bool = False            # manual declaring: the end-of-turn declare check was offered
    last: str = ""
    log: list[str] = []
    winner: str | None = None
    outcome: str = ""
