"""Settings and state of Politics: The Game (pydantic models that round-trip
JSON), plus the read-only questions every phase asks of a state: whose chips,
how many electoral votes."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..core import Options, Seat
from .board import CODES, EV

# ---------------------------------------------------------------- settings and state

class TriviaOptions(Options):
    max_rounds: int = Field(45, ge=0, le=500, description="Speed play starts by itself after this many rounds "
                                                          "(every player had a turn); 0 = no limit")
    ai_accuracy: int = Field(65, ge=0, le=100, description="How often an AI seat knows the answer (percent)")
    general_pv: int = Field(10, ge=0, le=100, description="Popular Votes (millions) for a right General answer")
    state_pv: int = Field(5, ge=0, le=100, description="Popular Votes (millions) for a right State answer "
                                                       "when the state's chip is not free to claim")
    government_cash: int = Field(5, ge=0, le=100, description="Cash ($M) for a right Government answer "
                                                              "(the question costs $2M)")
    gerrymander: bool = Field(True, description="Deal Gerrymander cards (3 dealt, keep 2)")
    wildcards: bool = Field(True, description="Doubles draw a Wildcard")
    question_seconds: int = Field(120, ge=10, le=3600, description="Seconds to answer a question")
    offer_seconds: int = Field(60, ge=10, le=3600, description="Seconds to answer an offer, start a performance "
                                                               "or cast a judge's vote (then the default applies)")
    review_seconds: int = Field(30, ge=5, le=600, description="Seconds to overrule a runoff/speed verdict")
    turn_seconds: int = Field(300, ge=0, le=86400, description="Seconds for a turn's other choices (roll, move, "
                                                              "category) before the default move; 0 = wait forever")
    max_tiebreaks: int = Field(3, ge=0, le=20, description="Tied runoff/speed rounds replayed before the tie is "
                                                           "broken by Electoral Votes (then Popular Votes, cash, "
                                                           "a seeded draw)")
    stall_rounds: int = Field(12, ge=0, le=500, description="Speed play starts when nobody has set a new high of "
                                                           "electoral votes for this many rounds; 0 = never")


class PlayerState(BaseModel):
    home: str | None = None
    at: str | None = None
    cash: int = 10
    pv: int = 0
    hand: list[int] = []       # Gerrymander cards (secret)
    dealt: list[int] = []      # the opening three until one is returned (secret)
    played: list[int] = []     # public
    dc_turns: int = 0
    debt: int = 0
    skip: int = 0
    out: bool = False          # eliminated in speed play
    roll: int = 0              # the opening roll
    wrapup: bool = False
    right: int = 0             # questions answered right (public tally)


class QState(BaseModel):
    qid: str
    category: Literal["state", "general", "government"]
    state: str | None = None
    choices: list[str]
    correct: int                # 0-based index; SECRET while open
    asker: int
    called: bool = False
    responders: list[int] = []  # seats asked for help who have not answered
    offers: list[list] = []     # [seat, price, unit]
    declined: list[int] = []
    helper: int | None = None
    hint: int | None = None     # 0-based; private to asker and helper
    serial: int = 0


class Deal(BaseModel):
    buyer: int
    holder: int
    state: str
    cash: int = 0
    pv: int = 0
    chips: list[str] = []
    accepted: bool = False


class WildState(BaseModel):
    card: str
    performer: int
    stage: Literal["ready", "performing"] = "ready"
    actor: int | None = None
    votes: list[list[int]] = []  # [judge, 1|0]
    clues: int = 0               # stages done of a performance with AI seats in it (performing.py)
    staged: bool | None = None   # whether it runs in stages, fixed when it starts (None: a state from before)


class H2H(BaseModel):
    kind: Literal["runoff", "speed"]
    seats: list[int]
    queue: list[int] = []        # speed play: challengers still to come, in order
    round: int = 1               # 1 + tied rounds replayed
    qids: list[str] = []
    qn: int = 0                  # index of the open question in qids
    answers: list[str | None] = [None, None]  # SECRET until both are in
    verdicts: list[bool] = [False, False]
    scores: list[int] = [0, 0]
    reviewers: list[int] = []
    oks: list[int] = []
    overrules: list[list[int]] = []  # [reviewer, answerer]
    history: list[dict] = []


class TriviaState(BaseModel):
    seats: list[Seat]
    options: TriviaOptions
    rng: int
    phase: Literal["homes", "start", "move", "choose", "deal", "question", "claim", "wildcard", "h2h", "review",
                   "over"] = "homes"
    players: list[PlayerState]
    chips: dict[str, int | None]
    home_order: list[int] = []   # who chooses a home state, in order (highest roll first)
    first: int = 0
    turn: int = 0
    turns: int = 0               # turns begun
    dice: list[int] | None = None
    path: list[str] | None = None
    moved: bool = False          # rolled or flew this turn
    offer_made: bool = False
    deal: Deal | None = None
    extra: int = 0
    q: QState | None = None
    serial: int = 0              # questions asked so far
    wild: WildState | None = None
    pending_dice: int = 0        # a roll waiting for its Wildcard to finish
    h2h: H2H | None = None
    gdeck: list[int] = []
    wdeck: list[str] = []
    wpos: int = 0
    used: list[str] = []         # question ids used on this server (and in this game)
    custom: list[dict] = []      # this server's custom question rows
    drew: bool = False           # the last action drew a question (server data to save)
    wait: int = 0                # bumps whenever a new deadline starts
    speed_due: bool = False      # a majority voted `wrapup`: speed play after this turn
    record_ev: int = 0           # the most electoral votes any candidate has held at the end of a turn
    record_turn: int = 0         # the turn that set it (the stall rule counts from there)
    speed_reason: str = ""       # "speed" (the wrap-up vote) or "limit" (round limit or stall) once speed play starts
    ending: str = ""             # how the game ended: 270, runoff, speed or limit
    headline: str = ""
    log: list[str] = []
    winner: int | None = None
    outcome: str = ""


def ev_of(state: TriviaState, seat: int) -> int:
    return sum(EV[c] for c, o in state.chips.items() if o == seat)


def chips_of(state: TriviaState, seat: int) -> list[str]:
    chips = state.chips
    return [c for c in CODES if chips[c] == seat]


def holdings(state: TriviaState) -> list[list[str]]:
    """Every seat's chips in map order, in one pass over the map (a view lists them all, and
    the search builds a view at every move of every playout)."""
    held: list[list[str]] = [[] for _ in state.seats]
    chips = state.chips
    for c in CODES:
        owner = chips[c]
        if owner is not None:
            held[owner].append(c)
    return held


def _minimal_chips(chips: list[str], need: int) -> list[str]:
    """The chips to give back for `need` EV: the smallest total of at least
    `need` (ties: fewest chips, then alphabetical)."""
    best: dict[int, tuple[int, tuple[str, ...]]] = {0: (0, ())}
    for c in sorted(chips):
        v = EV[c]
        for total, (count, picked) in list(best.items()):
            t = total + v
            cand = (count + 1, picked + (c,))
            if t not in best or cand < best[t]:
                best[t] = cand
    totals = sorted(t for t in best if t >= need)
    return list(best[totals[0]][1]) if totals else sorted(chips)

