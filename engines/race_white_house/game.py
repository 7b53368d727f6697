"""Race for the White House: a race around a board for votes on tally sheets.

Two players (Democrat and Republican), or four in two teams (a Presidential and
a Vice-Presidential candidate per party, each keeping one tally sheet of two
regions; with three players one seat plays both Republican candidates).

A turn is `roll`, then whatever the space asks. Every batch of votes a player
places by choice is a *placement* (a Step of kind "place"): `place TX UNION 3`
until it is used up (or `rest` lets the engine place what is left), `undo`
takes back this placement's votes, `done` confirms it. Decisions are single
moves: `take <position>` (Issues), `enter`/`pass` (a campaign side track),
`advance <TRACK>` (the Campaign Bus), `debate`, `buy <votes>` (TV).
Everything the rulebook leaves open is decided in docs/games/race-white-house.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from ..core import Action, Event, Game, Options, Result, RuleError, Seat
from ..rng import Rng
from .data import (ALL_CODES, CALIFORNIA_VOTES, CAPS, CATEGORIES, CAT_INDEX, CIRCUIT, CODES, CONVENTION_VOTES,
                   ENTRIES, ENTRY_COST, EV, FARM_VOTES, FUNDS, HOME_VOTES, ISSUE_BY_SLUG, ISSUES, LATINO_STATES,
                   LATINO_VOTES, LEAN, NAMES, PENALTY_VOTES, POSITION_BY_SLUG, RALLY_VOTES, REGION, REGIONS,
                   SCALES, SHEET_CODES, SHEET_OF, SHEETS, SPIN_BY_SLUG, SPINS, TO_ELECT, TRACK_LEN, TRACK_SPACES,
                   TRACKS, TV_LOT, TV_MAX, TV_PRICE, C, F, L, M)

PARTY_NAME = {"D": "Democrat", "R": "Republican"}
OTHER = {"D": "R", "R": "D"}
OFF = {"D": 0, "R": 5}  # offset of a party's five categories in a state's fill list
N_SPACES = len(CIRCUIT)
# The most votes one `place` moves (the menus offer 1..MAX_COUNT): every category of the short
# sheets holds at most this many; on the rulebook's sheets a bigger row takes several moves.
MAX_COUNT = max(max(c) for c in CAPS.values())

_ALIASES: dict[str, str] = {}
for _c in CODES:
    _ALIASES[_c.lower()] = _c
    _ALIASES[NAMES[_c].lower().replace(" ", "")] = _c
    _ALIASES[NAMES[_c].lower().replace(" ", "-")] = _c
_CAT_ALIASES: dict[str, int] = {}
for _i, _name in enumerate(CATEGORIES):
    for _a in (_name, _name[:3], _name[:2], _name + "S", {"UNION": "UN", "LIBERAL": "LIB", "CONSERVATIVE": "CON",
                                                           "MINORITY": "MIN", "FARM": "FARM"}[_name]):
        _CAT_ALIASES[_a.lower()] = _i
_CAT_ALIASES["liberals"] = L
_CAT_ALIASES["conservatives"] = C
_CAT_ALIASES["minorities"] = M
_TRACK_ALIASES = {k: CATEGORIES[v] for k, v in _CAT_ALIASES.items() if CATEGORIES[v] in TRACKS}


def code_of(text: str) -> str | None:
    return _ALIASES.get(text.lower())


def cat_of(text: str) -> int | None:
    return _CAT_ALIASES.get(text.lower())


# ---------------------------------------------------------------- options and state

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


# ---------------------------------------------------------------- actions

class Home(Action):
    """Choose your Home State (Democrat first); 2 votes go there at once."""
    verb = "home"
    state: str


class Roll(Action):
    """Roll the dice (two, or one while on a campaign side track) and move."""
    verb = "roll"


class Place(Action):
    """Place votes of one category in one state: `place TX UNION 3`."""
    verb = "place"
    state: str
    category: str
    n: int = 1


class Rest(Action):
    """Let the engine place the rest of this placement for you."""
    verb = "rest"


class Undo(Action):
    """Take back your last move of this placement (one `place`, or what `rest` placed)."""
    verb = "undo"


class Done(Action):
    """Confirm this placement (or finish declaring)."""
    verb = "done"


class Take(Action):
    """Take one of the two positions of the Issues card you drew."""
    verb = "take"
    position: str


class Enter(Action):
    """Enter the campaign side track you landed on (paying its cost)."""
    verb = "enter"


class Advance(Action):
    """Campaign Bus: advance to the entry of a campaign side track."""
    verb = "advance"
    track: str


class Debate(Action):
    """Debate (only while your party trails in electoral votes)."""
    verb = "debate"


class Buy(Action):
    """TV: buy votes, $5,000,000 for every 5, placed Anywhere."""
    verb = "buy"
    votes: int


class Rally(Action):
    """RALLY: one vote of the chosen category in every state of the region."""
    verb = "rally"
    category: str


class Pass(Action):
    """Decline: do not enter, advance, debate or buy."""
    verb = "pass"


class Declare(Action):
    """Declare a state you won (setting declare=manual)."""
    verb = "declare"
    state: str


class Approve(Action):
    """President: let your Vice-President spend the team's money as proposed."""
    verb = "approve"


class Refuse(Action):
    """President: keep the team's money; your Vice-President's proposal becomes a pass."""
    verb = "refuse"


_ROLL, _REST, _UNDO, _DONE, _ENTER, _DEBATE, _PASS = Roll(), Rest(), Undo(), Done(), Enter(), Debate(), Pass()
_APPROVE, _REFUSE = Approve(), Refuse()
_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")

# PLACE[code][cat][m]: the frozen actions `place code CAT 1` .. `place code CAT m`
PLACE: dict[str, tuple[tuple[tuple[Place, ...], ...], ...]] = {
    code: tuple(
        tuple(tuple(Place(state=code, category=CATEGORIES[k], n=i) for i in range(1, m + 1))
              for m in range(MAX_COUNT + 1))
        for k in range(5))
    for code in CODES
}
_HOME = {c: Home(state=c) for c in CODES}
_DECLARE = {c: Declare(state=c) for c in CODES}
_TAKE = {p: Take(position=p) for p in POSITION_BY_SLUG}
_ADVANCE = {t: Advance(track=t) for t in TRACKS}
_RALLY = {c: Rally(category=c) for c in CATEGORIES}


# The place actions of one state for one party, by votes left: levels[m] lists `place code CAT n` for
# every category with room and every n <= m (and <= what the state still needs). They are cached by
# category restriction, then state, then the party's five filled counts there as decimal digits (an
# int is cheaper to build and hash than a tuple); legal_actions assembles its list from these.
_CLOSED_LEVELS: tuple[tuple[Place, ...], ...] = ((),) * (MAX_COUNT + 1)
_LEVELS_BY_CAT: dict[str, dict[int, dict[str, dict[int, tuple]]]] = {
    scale: {k: {c: {} for c in CODES} for k in range(-1, 5)} for scale in SCALES}
assert max(max(c) for caps, _tw in SCALES.values() for c in caps.values()) < 100, "the key holds two digits a count"


def _levels(code: str, cat: int, scale: str, f0: int, f1: int, f2: int, f3: int,
            f4: int) -> tuple[tuple[Place, ...], ...]:
    """Build the levels (the caller caches them in _LEVELS_BY_CAT)."""
    mine = (f0, f1, f2, f3, f4)
    caps, to_win = SCALES[scale]
    nd = to_win[code] - sum(mine)
    cap = caps[code]
    acts = PLACE[code]
    cats = (0, 1, 2, 3, 4) if cat < 0 else (cat,)
    rooms = [(k, cap[k] - mine[k]) for k in cats if cap[k] > mine[k]]
    # past the most any one category may take here, every level is the same tuple
    top = max(0, min(nd, max((r for _k, r in rooms), default=0)))
    levels: list[tuple[Place, ...]] = [()]
    for m in range(1, MAX_COUNT + 1):
        if m > top:
            levels.append(levels[top])
            continue
        out: list[Place] = []
        for k, r in rooms:
            out.extend(acts[k][r if r < m else m])
        levels.append(tuple(out))
    return tuple(levels)


# Per-placement cache of each state's levels, outside the saved state: {id(step): (step, levels by
# state in the placement's order, states changed since)}. While a placement lasts only its own moves
# change its states, and they call _touch; a copied or reloaded state has new Step objects and starts
# afresh. Changed states are marked rather than dropped, so the dict keeps the placement's order and
# the legal list is read straight off its values.
_MENUS: dict[int, tuple[object, dict, set]] = {}


def _menu(step) -> tuple[dict, set]:
    got = _MENUS.get(id(step))
    if got is not None and got[0] is step:
        return got[1], got[2]
    if len(_MENUS) > 64:
        _MENUS.clear()
    segs: dict = {}
    dirty: set = set()
    _MENUS[id(step)] = (step, segs, dirty)
    return segs, dirty


def _touch(step, code: str) -> None:
    got = _MENUS.get(id(step))
    if got is not None and got[0] is step:
        got[2].add(code)


@lru_cache(maxsize=64)
def _buy(votes: int) -> Buy:
    return Buy(votes=votes)


def _money(d: int) -> str:
    return f"${d:,}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---------------------------------------------------------------- board queries

def party_ev(state: RWHState, party: str) -> int:
    return sum(map(EV.__getitem__, state.won[party]))


def count(state: RWHState, code: str, party: str) -> int:
    """Blocks `party` has filled in `code`."""
    o = OFF[party]
    return sum(state.fill[code][o:o + 5])


def sheet_scale(state: RWHState) -> tuple[dict[str, tuple[int, int, int, int, int]], dict[str, int]]:
    """(blocks per category, blocks to win) of every state at this game's scale (setting `blocks`)."""
    return SCALES[state.options.blocks]


def room(state: RWHState, code: str, party: str, cat: int) -> int:
    return sheet_scale(state)[0][code][cat] - state.fill[code][OFF[party] + cat]


def need(state: RWHState, code: str, party: str) -> int:
    """Blocks `party` still needs to win `code`."""
    return sheet_scale(state)[1][code] - count(state, code, party)


def leads(state: RWHState, code: str, party: str, cat: int) -> bool:
    """ADD eligibility: more votes than the opponent in that category of that state."""
    f = state.fill[code]
    return f[OFF[party] + cat] > f[OFF[OTHER[party]] + cat]


def sheet_codes(sheet: int | None) -> tuple[str, ...]:
    return ALL_CODES if sheet is None else SHEET_CODES[sheet]


def on_sheet(pawn: Pawn, code: str) -> bool:
    return pawn.sheet is None or SHEET_OF[code] == pawn.sheet


def opponent(state: RWHState, p: int) -> int:
    """The pawn that faces pawn p across its tally sheet."""
    me = state.pawns[p]
    for i, q in enumerate(state.pawns):
        if q.party != me.party and q.sheet == me.sheet:
            return i
    raise AssertionError("every pawn has an opponent")


def place_limit(state: RWHState, code: str, party: str, cat: int, remaining: int) -> int:
    """Most votes of `cat` that may go into `code` now (0 if none)."""
    if state.owner[code]:
        return 0
    f = state.fill[code]
    o = OFF[party]
    caps, to_win = SCALES[state.options.blocks]
    r = caps[code][cat] - f[o + cat]
    if r <= 0:
        return 0
    nd = to_win[code] - (f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4])
    if nd < r:
        r = nd
    return remaining if remaining < r else r


def step_codes(state: RWHState, step: Step) -> tuple[str, ...] | list[str]:
    if step.where is not None:
        return step.where
    return sheet_codes(state.pawns[step.pawn].sheet)


def can_place(state: RWHState, step: Step) -> bool:
    """Can any vote of this placement still go somewhere?"""
    if step.remaining <= 0:
        return False
    party = state.pawns[step.pawn].party
    o = OFF[party]
    cats = range(5) if step.cat < 0 else (step.cat,)
    owner, fill = state.owner, state.fill
    caps = SCALES[state.options.blocks][0]
    for code in step_codes(state, step):
        if owner[code]:
            continue
        f = fill[code]
        cap = caps[code]
        for k in cats:
            if cap[k] > f[o + k]:
                return True
    return False


# ---------------------------------------------------------------- the game

class RaceWhiteHouse(Game[RWHState]):
    id = "race-white-house"
    title = "Race for the White House"
    min_players = 2
    max_players = 4
    renderer_module = "render.race_white_house"
    text_board_module = "render.text.race_white_house"
    doc = "docs/games/race-white-house.md"
    State = RWHState
    OptionsModel = RWHOptions
    actions = (Home, Roll, Place, Rest, Undo, Done, Take, Rally, Enter, Advance, Debate, Buy, Pass, Declare, Approve,
               Refuse)
    summary = ("Race around the board for votes on tally sheets: five voter blocs, Issues and Spin Doctor cards, "
               "debates and TV, first party to 270. 2 or 4 players (teams).")
    rules_text = (
        "**Race for the White House** — Democrat against Republican, 2 players (or 4 in two teams; with 3, one "
        "seat plays both Republicans). 538 electoral votes (2000 census); 270 wins.\n"
        "• Every state has voting blocks in five categories (UNION, LIBERAL, CONSERVATIVE, MINORITY, FARM) for each "
        "party and a number of blocks to win (a majority). Votes fill a category's blocks left to right; a full "
        "category takes no more. The first party to the number takes the state's electoral votes and the state "
        "closes. 16 Democratic-leaning places start with a LIBERAL block marked, 24 Republican-leaning states with "
        "a CONSERVATIVE one; 11 swing states start empty.\n"
        "• Start: each candidate picks a Home State (`home TX`; Democrat first) and places 2 votes there, again on "
        "every landing on HOME STATE. The Republican moves first: `roll` two dice, clockwise.\n"
        "• Placing: `place TX UNION 3` until the votes are used, `rest` places the remainder for you, `undo` takes "
        "the placement back, `done` confirms. \"Anywhere\" means any state and category.\n"
        "• ISSUES: take one of two positions (`take pro-life`): ADD its votes — that many in every state where you "
        "have more votes in that category than your opponent — then your opponent places votes freely. "
        "SPIN DOCTOR: do what the card says. RALLY: choose a category (`rally UNION`) and take "
        f"{RALLY_VOTES} vote of it in every state of that region. FARM: up to {FARM_VOTES} FARM votes. "
        "VALUES VOTERS: 1 CONSERVATIVE in every South and Midwest state. LATINO VOTE: 2 MINORITY in CA, AZ, NM, IL, "
        "NY, TX, FL. CALIFORNIA: 5 LIBERAL in California. NATIONAL CONVENTION: 6 votes. CAMPAIGN BUS: `advance` to "
        "a campaign track.\n"
        "• CAMPAIGN spaces: `enter` the side track (CONSERVATIVES and LIBERALS cost $10,000,000), roll one die at "
        "once and on every turn inside; each small space gives votes of that category. Leaving it, you go on round "
        "the board.\n"
        "• DEBATE (only while your party trails in electoral votes): your opponent rolls one die and places that "
        f"many, then you roll two and place. TV: `buy 10` — $5,000,000 per 5 votes Anywhere, up to {TV_MAX} a "
        "visit.\n"
        "• $60,000,000 for the whole game (a team shares it), no income. Owing money you lack: you pay what is "
        "left and your opponent places 5 votes. No money: no CONSERVATIVE/LIBERAL campaign, no TV.\n"
        "• Four players: Presidents keep the Northeast+South sheet, Vice-Presidents the Midwest+West sheet; votes "
        "aimed off your sheet are not placed; \"your opponent\" is the other party's player on your sheet. "
        "The Presidents have the final word: a Vice-President's spending (a paid campaign, TV) waits for their "
        "President's `approve` or `refuse` (setting `vp_spending=free` lets each spend alone).\n"
        "• Setting `declare=manual`: `declare` each state you win before giving up the move, or your opponent places "
        "5 votes for it when the next turn begins. `blocks=rulebook`: the printed sheets' scale (North Carolina "
        "takes 13 blocks to win instead of 6; a much longer race). `max_rounds` ends a stalled race (more "
        "electoral votes wins)."
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> RWHState:
        opts = self.setup_options(seats, options, RWHOptions)
        n = len(seats)
        if n == 2:
            pawns = [Pawn(seat=0, party="D", role="P"), Pawn(seat=1, party="R", role="P")]
            order = [1, 0]
            choosing = [0, 1]
        else:
            # Around the table: 0 D President, 1 R Vice-President, 2 R President, 3 D Vice-President (the
            # Presidents face each other on sheet 0, the Vice-Presidents on sheet 1). Clockwise from the
            # Republican President the turns go R-P, D-VP, D-P, R-VP: the Republican moves first on sheet 0,
            # the Democrat on sheet 1. With three players seat 2 plays both Republicans and seat 1 the D VP.
            three = n == 3
            pawns = [Pawn(seat=0, party="D", role="P", sheet=0), Pawn(seat=2 if three else 1, party="R", role="VP", sheet=1),
                     Pawn(seat=2, party="R", role="P", sheet=0), Pawn(seat=1 if three else 3, party="D", role="VP",
                                                                       sheet=1)]
            order = [2, 3, 0, 1]
            choosing = [0, 2, 3, 1]
        rng = Rng(seed)
        issues = [i[0] for i in ISSUES]
        spins = [s[0] for s in SPINS]
        rng.shuffle(issues)
        rng.shuffle(spins)
        fill = {}
        owner = {}
        for code in CODES:
            f = [0] * 10
            if LEAN[code] == "D":
                f[OFF["D"] + L] = 1
            elif LEAN[code] == "R":
                f[OFF["R"] + C] = 1
            fill[code] = f
            owner[code] = ""
        parties = sorted({p.party for p in pawns})
        state = RWHState(
            seats=list(seats), options=opts, rng=rng.state, pawns=pawns, order=order, fill=fill, owner=owner,
            won={"D": [], "R": []}, funds={p: FUNDS for p in parties}, spent=[0] * len(pawns),
            issues=issues, spins=spins,
            steps=[Step(kind="home", pawn=p, text=self._home_prompt(pawns[p])) for p in choosing],
        )
        state.last = f"{self._pname(state, choosing[0])} chooses a Home State first."
        return state

    def _home_prompt(self, pawn: Pawn) -> str:
        where = "any state" if pawn.sheet is None else " or ".join(SHEETS[pawn.sheet]) + " states"
        return f"Choose a Home State ({where}): `home TX`."

    # ---- names ---------------------------------------------------------
    def _pname(self, state: RWHState, p: int) -> str:
        pawn = state.pawns[p]
        name = state.seats[pawn.seat].name
        if len(state.pawns) == 2:
            return f"{name} ({PARTY_NAME[pawn.party]})"
        role = "President" if pawn.role == "P" else "Vice-President"
        return f"{name} ({PARTY_NAME[pawn.party]} {role})"

    def _short(self, state: RWHState, p: int) -> str:
        return state.seats[state.pawns[p].seat].name

    # ---- queries -------------------------------------------------------
    def acting_pawn(self, state: RWHState) -> int | None:
        if state.phase == "over":
            return None
        if state.steps:
            return state.steps[0].pawn
        return state.order[state.turn]

    # to_act and may_act spell acting_pawn out: the simulator and the bot ask after every move
    def to_act(self, state: RWHState) -> list[int]:
        if state.phase == "over":
            return []
        steps = state.steps
        return [state.pawns[steps[0].pawn if steps else state.order[state.turn]].seat]

    def may_act(self, state: RWHState, seat: int) -> bool:
        if state.phase == "over":
            return False
        steps = state.steps
        return state.pawns[steps[0].pawn if steps else state.order[state.turn]].seat == seat

    def legal_actions(self, state: RWHState, seat: int) -> list[Action]:
        if state.phase == "over":
            return []
        steps = state.steps
        if not steps:
            p = state.order[state.turn]
            if state.pawns[p].seat != seat:
                return []
            out: list[Action] = [_ROLL]
            self._declares(state, p, out)
            return out
        step = steps[0]
        p = step.pawn
        if state.pawns[p].seat != seat:
            return []
        kind = step.kind
        if kind == "place":
            return self._place_actions(state, step)
        if kind == "issue":
            card = ISSUE_BY_SLUG[step.card]
            return [_TAKE[pos[0]] for pos in card[2]]
        if kind == "home":
            taken = {q.home for q in state.pawns}
            return [_HOME[c] for c in sheet_codes(state.pawns[p].sheet) if c not in taken]
        if kind == "rally":
            out = [_RALLY[c] for c in CATEGORIES]
        elif kind == "enter":
            out = [_ENTER, _PASS]
        elif kind == "advance":
            out = [_ADVANCE[t] for t in TRACKS] + [_PASS]
        elif kind == "debate":
            out = [_DEBATE, _PASS]
        elif kind == "buy":
            funds = state.funds[state.pawns[p].party]
            lots = min(funds // TV_PRICE, TV_MAX // TV_LOT)
            out = [_buy(TV_LOT * k) for k in range(1, lots + 1)] + [_PASS]
        elif kind == "declare":
            out = [_DONE]
        elif kind == "approve":
            out = [_APPROVE, _REFUSE]
        else:  # pragma: no cover - every kind is listed above
            out = []
        self._declares(state, p, out)
        return out

    def _declares(self, state: RWHState, p: int, out: list[Action]) -> None:
        if state.undeclared:
            seat = state.pawns[p].seat
            for code, q in state.undeclared:
                if state.pawns[q].seat == seat:
                    out.append(_DECLARE[code])

    def _place_actions(self, state: RWHState, step: Step) -> list[Action]:
        out: list[Action] = []
        rem = step.remaining
        if rem > 0:
            o = OFF[state.pawns[step.pawn].party]
            owner, fill, cat = state.owner, state.fill, step.cat
            segs, dirty = _menu(step)
            if not segs or dirty:
                scale = state.options.blocks
                by_code = _LEVELS_BY_CAT[scale][cat]
                for code in (dirty if segs else step_codes(state, step)):
                    if owner[code]:
                        segs[code] = _CLOSED_LEVELS
                        continue
                    f = fill[code]
                    digits = f[o] * 100000000 + f[o + 1] * 1000000 + f[o + 2] * 10000 + f[o + 3] * 100 + f[o + 4]
                    table = by_code[code]
                    seg = table.get(digits)
                    if seg is None:
                        seg = table[digits] = _levels(code, cat, scale, f[o], f[o + 1], f[o + 2], f[o + 3], f[o + 4])
                    segs[code] = seg
                dirty.clear()
            m = rem if rem < MAX_COUNT else MAX_COUNT
            for seg in segs.values():
                out += seg[m]  # a tuple at a time: faster than any per-action join
            if out:
                out.append(_REST)
        if step.placed:
            out.append(_UNDO)
        if rem <= 0 or step.optional or not out or out[-1] is _UNDO and len(out) == 1:
            out.append(_DONE)
        if state.undeclared:
            self._declares(state, step.pawn, out)
        return out

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: RWHState, seat: int, action: Action) -> list[Event]:
        if state.phase == "over":
            raise RuleError("This game is over.")
        steps = state.steps
        step = steps[0] if steps else None
        p = step.pawn if step is not None else state.order[state.turn]
        if state.pawns[p].seat != seat:
            raise RuleError(self.not_your_turn(state, seat))
        move = self._MOVES.get(type(action))
        if move is None:
            raise RuleError("That is not a move in Race for the White House.")
        kinds, between_turns, handler = move
        if kinds is not None:
            kind = step.kind if step is not None else "roll"
            if kind not in kinds:
                raise RuleError(between_turns if between_turns and kind == "roll" else self._wrong(state, kind))
        return handler(self, state, p, step, action)

    def _wrong(self, state: RWHState, kind: str) -> str:
        return {
            "roll": "It is time to `roll` the dice.",
            "place": "Place your votes first (`place`, `rest`), then `done`.",
            "home": "Choose your Home State first: `home <state>`.",
            "issue": "Take one of the two positions of your Issues card first: `take <position>`.",
            "enter": "First decide whether to `enter` the campaign side track or `pass`.",
            "advance": "First choose a campaign to `advance` to, or `pass`.",
            "debate": "First decide whether to `debate` or `pass`.",
            "buy": "First decide how many TV votes to `buy`, or `pass`.",
            "declare": "Declare your won states or say `done`.",
            "rally": "Choose the category of your rally first: `rally <category>`.",
            "approve": "First `approve` or `refuse` your Vice-President's spending: the President has the final "
                       "word on the team's money.",
        }.get(kind, "That move does not fit now.")

    # ---- home states ---------------------------------------------------
    def _home(self, state: RWHState, p: int, step: Step, action: Home) -> list[Event]:
        code = code_of(action.state)
        if code is None:
            raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
        pawn = state.pawns[p]
        if not on_sheet(pawn, code):
            raise RuleError(f"{NAMES[code]} is not on your tally sheet; your Home State must be in "
                            f"{' or '.join(SHEETS[pawn.sheet])}.")  # type: ignore[index]
        for i, q in enumerate(state.pawns):
            if q.home == code:
                raise RuleError(f"{NAMES[code]} is already {self._short(state, i)}'s Home State; no two candidates "
                                "share one.")
        pawn.home = code
        line = f"{self._pname(state, p)} chooses {NAMES[code]} as Home State and places {HOME_VOTES} votes there."
        events = [Event(line)]
        state.last = line
        state.steps[0] = Step(kind="place", pawn=p, remaining=HOME_VOTES, total=HOME_VOTES, where=[code],
                              text=f"{HOME_VOTES} votes in your Home State, {NAMES[code]}")
        self._continue(state, events)
        return events

    # ---- turns ---------------------------------------------------------
    def _roll(self, state: RWHState, p: int, step: None, action: Roll) -> list[Event]:
        rng = Rng(state.rng)
        pawn = state.pawns[p]
        if pawn.track is not None:
            dice = [rng.die()]
        else:
            dice = [rng.die(), rng.die()]
        d = state.__dict__  # hot path: plain stores of valid values
        d["rng"] = rng.state
        d["dice"] = dice
        d["wrapped"] = False
        events: list[Event] = []
        pips = sum(dice)
        roll = " + ".join(map(str, dice)) + (f" = {pips}" if len(dice) > 1 else "")
        head = f"{self._pname(state, p)} rolls {roll}"
        self._move(state, p, pips, head, events)
        self._continue(state, events)
        return events

    def _move(self, state: RWHState, p: int, pips: int, head: str, events: list[Event]) -> None:
        pawn = state.pawns[p]
        if pawn.track is not None:
            pos = pawn.index + pips
            if pos < TRACK_LEN:
                pawn.index = pos
                self._land_track(state, p, head, events)
                return
            left = pos - TRACK_LEN + 1
            track = pawn.track
            pawn.track = None
            pawn.index = (ENTRIES[track] + left) % N_SPACES
            head += f", leaves the {track} campaign"
        else:
            pawn.index = (pawn.index + pips) % N_SPACES
        self._land(state, p, head, events)

    def _land(self, state: RWHState, p: int, head: str, events: list[Event]) -> None:
        pawn = state.pawns[p]
        kind, label, param = CIRCUIT[pawn.index]
        line = f"{head} and lands on **{label}**"
        if kind == "home":
            code = pawn.home
            if code and state.owner[code]:
                self._say(state, events, f"{line}: {NAMES[code]} is already won, no votes.")
            else:
                self._say(state, events, f"{line}: {HOME_VOTES} votes in {NAMES[code]}.")  # type: ignore[index]
                self._push_place(state, p, HOME_VOTES, -1, [code], f"{HOME_VOTES} votes in your Home State, "
                                 f"{NAMES[code]}")  # type: ignore[index]
        elif kind == "issues":
            slug = self._draw(state, "issues")
            card = ISSUE_BY_SLUG[slug]
            a, b = card[2]
            self._say(state, events, f"{line} and draws **{card[1]}**: `take {a[0]}` ({self._pos_text(a)}) or "
                                     f"`take {b[0]}` ({self._pos_text(b)}).")
            state.steps.append(Step(kind="issue", pawn=p, card=slug, text=f"Issues: {card[1]}"))
        elif kind == "spin":
            slug = self._draw(state, "spins")
            card = SPIN_BY_SLUG[slug]
            self._say(state, events, f"{line} — Spin Doctor: **{card[1]}**. {card[2]}")
            for eff in card[3]:
                if state.phase == "over":
                    break
                self._effect(state, p, eff, card[1], events)
        elif kind == "rally":
            region = param
            if pawn.sheet is not None and region not in SHEETS[pawn.sheet]:
                self._say(state, events, f"{line}: the {region} is on your running mate's sheet, nothing happens.")
            else:
                self._say(state, events, f"{line}: `rally` one category — 1 vote of it in every {region} state.")
                state.steps.append(Step(kind="rally", pawn=p, card=region,  # type: ignore[arg-type]
                                        text=f"Rally in the {region}: which category?"))
        elif kind == "campaign":
            track = param
            cost = ENTRY_COST[track]  # type: ignore[index]
            if cost and state.funds[pawn.party] < cost:
                self._say(state, events, f"{line}, but cannot pay the {_money(cost)} to enter.")
            else:
                what = f" for {_money(cost)}" if cost else ""
                self._say(state, events, f"{line}: `enter`{what} or `pass`.")
                state.steps.append(Step(kind="enter", pawn=p, card=track, text=f"Enter the {track} campaign"
                                        + (f" for {_money(cost)}" if cost else "") + "?"))  # type: ignore[arg-type]
        elif kind == "tv":
            funds = state.funds[pawn.party]
            if funds < TV_PRICE:
                self._say(state, events, f"{line}, but has no money left for TV.")
            else:
                self._say(state, events, f"{line}: `buy` votes at {_money(TV_PRICE)} per {TV_LOT}, or `pass`.")
                state.steps.append(Step(kind="buy", pawn=p, text=f"Buy TV votes ({_money(funds)} left)?"))
        elif kind == "latino":
            self._say(state, events, f"{line}: {LATINO_VOTES} MINORITY in CA, AZ, NM, IL, NY, TX and FL.")
            self._effect(state, p, ("each", LATINO_VOTES, M, LATINO_STATES), "Latino vote", events)
        elif kind == "debate":
            mine, theirs = party_ev(state, pawn.party), party_ev(state, OTHER[pawn.party])
            if mine < theirs:
                self._say(state, events, f"{line}: trailing {mine}–{theirs}, may `debate` or `pass`.")
                state.steps.append(Step(kind="debate", pawn=p, text="Debate your opponent?"))
            else:
                why = "tied" if mine == theirs else "ahead"
                self._say(state, events, f"{line}, but is {why} ({mine}–{theirs}): no debate.")
        elif kind == "farm":
            self._say(state, events, f"{line}: up to {FARM_VOTES} FARM votes.")
            self._effect(state, p, ("upto", FARM_VOTES, F, None), "Farm", events)
        elif kind == "values":
            self._say(state, events, f"{line}: 1 CONSERVATIVE in every South and Midwest state.")
            self._effect(state, p, ("each", 1, C, REGIONS["South"] + REGIONS["Midwest"]), "Values voters", events)
        elif kind == "bus":
            self._say(state, events, f"{line}: may `advance` to a CAMPAIGN space.")
            state.steps.append(Step(kind="advance", pawn=p, text="Advance to a campaign?"))
        elif kind == "california":
            self._say(state, events, f"{line}: {CALIFORNIA_VOTES} LIBERAL in California.")
            self._effect(state, p, ("each", CALIFORNIA_VOTES, L, ("CA",)), "California", events)
        elif kind == "convention":
            self._say(state, events, f"{line}: {CONVENTION_VOTES} votes anywhere.")
            self._effect(state, p, ("place", CONVENTION_VOTES, None, None), "National Convention", events)

    def _land_track(self, state: RWHState, p: int, head: str, events: list[Event]) -> None:
        pawn = state.pawns[p]
        label, eff = TRACK_SPACES[pawn.track][pawn.index]  # type: ignore[index]
        self._say(state, events, f"{head}: **{label}**.")
        self._effect(state, p, eff, label.split(":")[0], events)

    def _pos_text(self, pos: tuple) -> str:
        adds = " and ".join(f"ADD {n} {CATEGORIES[k]}" for k, n in pos[2])
        return f"{pos[1]}: {adds}; opponent places {pos[3]}"

    def _draw(self, state: RWHState, pile: str) -> str:
        cards: list[str] = getattr(state, pile)
        if not cards:
            rng = Rng(state.rng)
            cards = [i[0] for i in ISSUES] if pile == "issues" else [s[0] for s in SPINS]
            rng.shuffle(cards)
            state.rng = rng.state
            setattr(state, pile, cards)
        return cards.pop()

    def _say(self, state: RWHState, events: list[Event], line: str) -> None:
        events.append(Event(line))
        plain = line.replace("**", "")  # the log is plain text
        d = state.__dict__  # hot path: plain stores of valid values
        d["last"] = plain
        log = state.log
        log.append(plain)
        if len(log) > 12:
            del log[:-12]

    # ---- effects -------------------------------------------------------
    def _where(self, state: RWHState, p: int, where) -> list[str] | None:
        """The states an effect may use, cut to the pawn's sheet; None = the whole sheet."""
        pawn = state.pawns[p]
        if where is None:
            return None
        if where == "home":
            codes: tuple[str, ...] = (pawn.home,) if pawn.home else ()
        elif isinstance(where, str):
            codes = REGIONS[where]
        else:
            codes = tuple(where)
        return [c for c in codes if on_sheet(pawn, c)]

    def _effect(self, state: RWHState, p: int, eff: tuple, label: str, events: list[Event]) -> None:
        pawn = state.pawns[p]
        kind = eff[0]
        if kind in ("place", "upto"):
            _k, n, cat, where = eff
            codes = self._where(state, p, where)
            cat_txt = f" {CATEGORIES[cat]}" if cat is not None else ""
            where_txt = self._where_text(where, pawn)
            self._push_place(state, p, n, -1 if cat is None else cat, codes,
                             f"{label}: {'up to ' if kind == 'upto' else ''}{n}{cat_txt} votes {where_txt}",
                             optional=kind == "upto")
        elif kind == "each":
            _k, n, cat, where = eff
            codes = self._where(state, p, where)
            self._auto(state, p, [(c, cat, n) for c in codes], label, events)  # type: ignore[union-attr]
        elif kind == "add":
            _k, n, cat = eff
            self._add(state, p, [(cat, n)], label, events)
        elif kind == "opp":
            q = opponent(state, p)
            self._push_place(state, q, eff[1], -1, None, f"{label}: {eff[1]} votes anywhere, from your opponent's card")
        elif kind == "pay":
            self._pay(state, p, eff[1], label, events)
        elif kind == "move":
            target = eff[1]
            if target == "home":
                dest = 0
            else:
                dest = next(i for i in list(range(pawn.index + 1, N_SPACES)) + list(range(0, pawn.index + 1))
                            if CIRCUIT[i][0] == target)
            pawn.index = dest
            self._land(state, p, f"{self._pname(state, p)} advances", events)

    def _where_text(self, where, pawn: Pawn) -> str:
        if where is None:
            return "anywhere" if pawn.sheet is None else "anywhere on your sheet"
        if where == "home":
            return f"in {NAMES[pawn.home]}" if pawn.home else "in your Home State"
        if isinstance(where, str):
            return f"in the {where}"
        return "in " + ", ".join(where)

    def _push_place(self, state: RWHState, p: int, n: int, cat: int, codes: list[str] | None, text: str,
                    optional: bool = False, dice: int = 0, front: bool = False) -> None:
        step = Step(kind="place", pawn=p, remaining=n, total=n, cat=cat, where=codes, text=text, optional=optional,
                    dice=dice)
        if front:
            state.steps.insert(0, step)
        else:
            state.steps.append(step)

    def _pay(self, state: RWHState, p: int, amount: int, label: str, events: list[Event]) -> None:
        pawn = state.pawns[p]
        funds = state.funds[pawn.party]
        paid = min(funds, amount)
        state.funds[pawn.party] = funds - paid
        state.spent[p] += paid
        if paid < amount:
            q = opponent(state, p)
            self._say(state, events, f"{self._pname(state, p)} owes {_money(amount)} but has only {_money(funds)}: "
                                     f"{self._short(state, q)} places {PENALTY_VOTES} votes anywhere.")
            self._push_place(state, q, PENALTY_VOTES, -1, None,
                             f"Penalty: {PENALTY_VOTES} votes anywhere, your opponent could not pay")
        else:
            events.append(Event(f"{self._short(state, p)} pays {_money(amount)}; "
                                f"{_money(state.funds[pawn.party])} left."))

    def _auto(self, state: RWHState, p: int, targets: list[tuple[str, int, int]], label: str,
              events: list[Event]) -> int:
        """Place votes that need no choice; returns how many went in."""
        pawn = state.pawns[p]
        party = pawn.party
        total = 0
        bits = []
        closed = []
        o = OFF[party]
        owner, fill = state.owner, state.fill
        caps, to_win = SCALES[state.options.blocks]
        for code, cat, n in targets:
            if owner[code]:
                continue
            f = fill[code]
            k = caps[code][cat] - f[o + cat]
            if k <= 0:
                continue
            nd = to_win[code] - (f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4])
            if nd < k:
                k = nd
            if n < k:
                k = n
            f[o + cat] += k
            total += k
            bits.append(f"{code} {k}" if k > 1 else code)
            if k == nd:
                closed.append(code)
                self._close(state, p, code, events, announce=False)
                if state.phase == "over":
                    break
        if total:
            line = f"{label}: {self._short(state, p)} places {total} — " + ", ".join(bits) + "."
        else:
            line = f"{label}: no votes could be placed."
        if closed:
            line += " " + self._won_text(state, p, closed)
        events.append(Event(line))
        if state.phase == "over":
            events.append(Event(state.outcome))
        return total

    def _add(self, state: RWHState, p: int, adds, label: str, events: list[Event]) -> None:
        party = state.pawns[p].party
        for cat, n in adds:
            if state.phase == "over":
                return
            owner, fill = state.owner, state.fill
            mine, theirs = OFF[party] + cat, OFF[OTHER[party]] + cat
            targets = [(c, cat, n) for c in sheet_codes(state.pawns[p].sheet)
                       if not owner[c] and fill[c][mine] > fill[c][theirs]]
            self._auto(state, p, targets, f"{label} — ADD {n} {CATEGORIES[cat]}", events)

    def _won_text(self, state: RWHState, p: int, codes: list[str]) -> str:
        party = state.pawns[p].party
        names = ", ".join(f"{NAMES[c]} ({EV[c]})" for c in codes)
        if state.options.declare == "auto":
            return f"**Won: {names}** — {PARTY_NAME[party]}s now {party_ev(state, party)}."
        return f"**Won: {names}** — to be declared (`declare`)."

    def _close(self, state: RWHState, p: int, code: str, events: list[Event], announce: bool = True) -> None:
        party = state.pawns[p].party
        state.owner[code] = party
        if state.options.declare == "auto":
            state.won[party].append(code)
            self._check_win(state)
        else:
            state.undeclared.append([code, p])
        if announce:
            events.append(Event(self._won_text(state, p, [code])))
            if state.phase == "over":
                events.append(Event(state.outcome))

    def _check_win(self, state: RWHState) -> None:
        for party in ("D", "R"):
            ev = party_ev(state, party)
            if ev >= TO_ELECT:
                other = party_ev(state, OTHER[party])
                self._finish(state, party, f"The {PARTY_NAME[party]}s win the White House with {ev} electoral votes "
                                           f"to {other}.")
                return
        if not state.undeclared and all(state.owner.values()):
            self._tiebreak(state, "Every state is decided")

    def _tiebreak(self, state: RWHState, why: str) -> None:
        d, r = party_ev(state, "D"), party_ev(state, "R")
        if d != r:
            party = "D" if d > r else "R"
            self._finish(state, party, f"{why}: the {PARTY_NAME[party]}s lead {max(d, r)} to {min(d, r)} electoral "
                                       "votes and win.")
            return
        sd = sum(1 for c in state.won["D"] if c != "DC")
        sr = sum(1 for c in state.won["R"] if c != "DC")
        if sd != sr:
            party = "D" if sd > sr else "R"
            self._finish(state, party, f"{why} and the electoral votes are tied {d}–{r}: the House decides, one vote "
                                       f"per state delegation, and the {PARTY_NAME[party]}s hold more states "
                                       f"({max(sd, sr)} to {min(sd, sr)}).")
            return
        self._finish(state, None, f"{why}: tied {d}–{r} in electoral votes and {sd}–{sr} in states. Nobody wins.")

    def _finish(self, state: RWHState, party: str | None, outcome: str) -> None:
        state.phase = "over"
        state.winner = party
        state.outcome = outcome
        state.last = outcome.replace("**", "")
        state.log.append(state.last)

    # ---- placing -------------------------------------------------------
    def _place(self, state: RWHState, p: int, step: Step | None, action: Place) -> list[Event]:
        if step is None or step.kind != "place":
            raise RuleError("There are no votes to place right now." if step is None or step.kind != "home" else
                            self._wrong(state, step.kind))
        code = action.state if action.state in EV else code_of(action.state)
        if code is None:
            raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
        cat = CAT_INDEX.get(action.category)
        if cat is None:
            cat = cat_of(action.category)
            if cat is None:
                raise RuleError(f"'{action.category[:40]}' is not a voter category; they are "
                                f"{', '.join(CATEGORIES)}.")
        n = action.n
        if n < 1:
            raise RuleError("Place at least one vote.")
        remaining = step.remaining
        if remaining <= 0:
            raise RuleError("All votes of this placement are placed: `done` confirms it, `undo` takes it back.")
        pawn = state.pawns[p]
        party = pawn.party
        if pawn.sheet is not None and SHEET_OF[code] != pawn.sheet:
            raise RuleError(f"{NAMES[code]} is on your running mate's tally sheet; you place votes only in "
                            f"{' and '.join(SHEETS[pawn.sheet])}.")
        if step.where is not None and code not in step.where:
            allowed = ", ".join(step.where) or "no state on your sheet"
            raise RuleError(f"These votes go only to {allowed}, not {NAMES[code]}.")
        if step.cat >= 0 and cat != step.cat:
            raise RuleError(f"These votes are {CATEGORIES[step.cat]} votes only.")
        if state.owner[code]:
            raise RuleError(f"{NAMES[code]} is already won by the {PARTY_NAME[state.owner[code]]}s; no more votes "
                            "go there.")
        f = state.fill[code]
        o = OFF[party]
        caps, to_win = SCALES[state.options.blocks]
        r = caps[code][cat] - f[o + cat]
        if r <= 0:
            raise RuleError(f"Your {CATEGORIES[cat]} blocks in {NAMES[code]} are full.")
        if n > remaining:
            raise RuleError(f"You have only {_plural(remaining, 'vote')} left to place.")
        if n > r:
            raise RuleError(f"Only {_plural(r, 'empty block')} left in your {CATEGORIES[cat]} row of {NAMES[code]}.")
        mine = f[o] + f[o + 1] + f[o + 2] + f[o + 3] + f[o + 4]
        tw = to_win[code]
        nd = tw - mine
        if n > nd:
            raise RuleError(f"{_plural(nd, 'more vote')} win{'s' if nd == 1 else ''} {NAMES[code]}, and a won state "
                            "takes no more votes.")
        # -- valid: mutate
        f[o + cat] += n
        _touch(step, code)
        step.remaining = remaining - n
        closed = nd == n
        step.placed.append([code, cat, n, 1 if closed else 0])
        events: list[Event] = []
        line = f"{state.seats[pawn.seat].name} places {n} {CATEGORIES[cat]} in {NAMES[code]} ({mine + n}/{tw})."
        if closed:
            self._close(state, p, code, events, announce=False)
            line += " " + self._won_text(state, p, [code])
        self._say(state, events, line)
        if state.phase == "over":
            events.append(Event(state.outcome))
        return events

    def _rest(self, state: RWHState, p: int, step: Step, action: Rest) -> list[Event]:
        if step.remaining <= 0 or not can_place(state, step):
            raise RuleError("No votes of this placement can be placed any more: `done` confirms it.")
        from .ai import plan
        moves = plan(state, step, state.pawns[p].party)
        batch = len(step.placed) + 1
        events: list[Event] = []
        party = state.pawns[p].party
        bits = []
        closed = []
        for code, cat, n in moves:
            nd = need(state, code, party)
            state.fill[code][OFF[party] + cat] += n
            _touch(step, code)
            step.remaining -= n
            shut = n >= nd
            step.placed.append([code, cat, n, 1 if shut else 0, batch])
            bits.append(f"{code} {n} {CATEGORIES[cat]}")
            if shut:
                closed.append(code)
                self._close(state, p, code, events, announce=False)
                if state.phase == "over":
                    break
        line = f"{self._short(state, p)} places " + (", ".join(bits) if bits else "nothing") + "."
        if closed:
            line += " " + self._won_text(state, p, closed)
        self._say(state, events, line)
        if state.phase == "over":
            events.append(Event(state.outcome))
        return events

    def _undo(self, state: RWHState, p: int, step: Step, action: Undo) -> list[Event]:
        if not step.placed:
            raise RuleError("Nothing of this placement has been placed yet.")
        party = state.pawns[p].party
        # the last move: one `place`, or everything one `rest` placed (entries tagged with the same batch)
        batch = step.placed[-1][4] if len(step.placed[-1]) > 4 else None
        total = 0
        bits = []
        while step.placed and (total == 0 or (batch is not None and len(step.placed[-1]) > 4
                                               and step.placed[-1][4] == batch)):
            code, cat, n, closed = step.placed.pop()[:4]
            if closed:
                self._reopen(state, code, party)
            state.fill[code][OFF[party] + cat] -= n
            _touch(step, code)
            total += n
            bits.append(f"{n} {CATEGORIES[cat]} in {code}")
        step.remaining += total
        events: list[Event] = []
        self._say(state, events, f"{self._short(state, p)} takes back " + ", ".join(reversed(bits)) + ".")
        return events

    def _reopen(self, state: RWHState, code: str, party: str) -> None:
        state.owner[code] = ""
        if code in state.won[party]:
            state.won[party].remove(code)
        state.undeclared = [u for u in state.undeclared if u[0] != code]

    def _done(self, state: RWHState, p: int, step: Step, action: Done) -> list[Event]:
        if step.kind == "declare":  # the end-of-turn chance to declare, passed up
            events: list[Event] = []
            state.steps.pop(0)
            self._continue(state, events)
            return events
        if step.remaining > 0 and not step.optional and can_place(state, step):
            raise RuleError(f"You still have {_plural(step.remaining, 'vote')} to place (`rest` places them for "
                            "you); only votes that fit nowhere may be left.")
        events: list[Event] = []
        placed = step.total - step.remaining
        if step.remaining > 0:
            self._say(state, events, f"{self._short(state, p)} confirms {_plural(placed, 'vote')}; "
                                     f"{step.remaining} not placed.")
        state.steps.pop(0)
        self._continue(state, events)
        return events

    def _declare(self, state: RWHState, p: int, step: Step | None, action: Declare) -> list[Event]:
        code = code_of(action.state)
        if code is None:
            raise RuleError(f"'{action.state[:40]}' is not a state; use a postal code such as TX.")
        seat = state.pawns[p].seat
        entry = next((u for u in state.undeclared if u[0] == code), None)
        if entry is None:
            if state.owner[code]:
                raise RuleError(f"{NAMES[code]} is already declared.")
            raise RuleError(f"{NAMES[code]} has not been won yet.")
        if state.pawns[entry[1]].seat != seat:
            raise RuleError(f"{NAMES[code]} was won by {self._short(state, entry[1])}; only they declare it.")
        party = state.pawns[entry[1]].party
        state.undeclared.remove(entry)
        state.won[party].append(code)
        # not final: undoing the placement that won the state reopens it (_reopen)
        events: list[Event] = []
        self._say(state, events, f"{self._pname(state, entry[1])} declares **{NAMES[code]}** ({EV[code]}): "
                                 f"{PARTY_NAME[party]}s now {party_ev(state, party)}.")
        self._check_win(state)
        if state.phase == "over":
            events.append(Event(state.outcome))
        return events

    # ---- decisions -----------------------------------------------------
    def _take(self, state: RWHState, p: int, step: Step, action: Take) -> list[Event]:
        card = ISSUE_BY_SLUG[step.card]
        slug = action.position.lower()
        pos = next((x for x in card[2] if x[0] == slug), None)
        if pos is None:
            raise RuleError(f"The positions on {card[1]} are `{card[2][0][0]}` and `{card[2][1][0]}`.")
        events: list[Event] = []
        self._say(state, events, f"{self._pname(state, p)} takes a position on {card[1]}: **{pos[1]}**.")
        state.steps.pop(0)
        self._add(state, p, pos[2], pos[1], events)
        if state.phase != "over":
            q = opponent(state, p)
            self._push_place(state, q, pos[3], -1, None, f"{card[1]}: {pos[3]} votes anywhere, "
                                                       "from your opponent's Issues card", front=True)
            self._continue(state, events)
        return events

    def _rally(self, state: RWHState, p: int, step: Step, action: Rally) -> list[Event]:
        cat = cat_of(action.category)
        if cat is None:
            raise RuleError(f"'{action.category[:40]}' is not a voter category; they are {', '.join(CATEGORIES)}.")
        region = step.card
        events: list[Event] = []
        state.steps.pop(0)
        self._effect(state, p, ("each", RALLY_VOTES, cat, region), f"Rally in the {region} ({CATEGORIES[cat]})",
                     events)
        self._continue(state, events)
        return events

    def _enter(self, state: RWHState, p: int, step: Step, action: Enter, approved: bool = False) -> list[Event]:
        track = step.card
        pawn = state.pawns[p]
        cost = ENTRY_COST[track]
        if cost and state.funds[pawn.party] < cost:
            raise RuleError(f"Entering the {track} campaign costs {_money(cost)}; your party has "
                            f"{_money(state.funds[pawn.party])}.")
        if cost and not approved and self._president_decides(state, p):
            return self._ask_president(state, p, action, f"enter the {track} campaign for {_money(cost)}")
        events: list[Event] = []
        state.steps.pop(0)
        if cost:
            self._pay(state, p, cost, f"{track} campaign", events)
        rng = Rng(state.rng)
        die = rng.die()
        state.rng = rng.state
        state.dice = [die]
        pawn.track = track
        pawn.index = die - 1
        self._land_track(state, p, f"{self._pname(state, p)} enters the {track} campaign and rolls {die}", events)
        self._continue(state, events)
        return events

    def _advance(self, state: RWHState, p: int, step: Step, action: Advance) -> list[Event]:
        track = _TRACK_ALIASES.get(action.track.lower())
        if track is None:
            raise RuleError(f"The campaigns are {', '.join(TRACKS)}.")
        pawn = state.pawns[p]
        events: list[Event] = []
        state.steps.pop(0)
        pawn.index = ENTRIES[track]
        self._land(state, p, f"{self._pname(state, p)} takes the bus", events)
        self._continue(state, events)
        return events

    def _debate(self, state: RWHState, p: int, step: Step, action: Debate) -> list[Event]:
        pawn = state.pawns[p]
        mine, theirs = party_ev(state, pawn.party), party_ev(state, OTHER[pawn.party])
        if mine >= theirs:  # pragma: no cover - the step exists only while trailing
            raise RuleError("You may debate only while your party trails in electoral votes.")
        q = opponent(state, p)
        events: list[Event] = []
        state.steps.pop(0)
        self._say(state, events, f"{self._pname(state, p)} challenges {self._short(state, q)} to a debate.")
        self._push_place(state, p, 0, -1, None, "Debate: two dice of votes anywhere", dice=2, front=True)
        self._push_place(state, q, 0, -1, None, "Debate: one die of votes anywhere, you answer first", dice=1,
                         front=True)
        self._continue(state, events)
        return events

    def _buy_votes(self, state: RWHState, p: int, step: Step, action: Buy, approved: bool = False) -> list[Event]:
        votes = action.votes
        pawn = state.pawns[p]
        funds = state.funds[pawn.party]
        if votes <= 0 or votes % TV_LOT:
            raise RuleError(f"TV votes come in lots of {TV_LOT}: buy {TV_LOT}, {2 * TV_LOT}, … up to {TV_MAX}.")
        if votes > TV_MAX:
            raise RuleError(f"At most {TV_MAX} TV votes can be bought on one visit.")
        price = votes // TV_LOT * TV_PRICE
        if price > funds:
            raise RuleError(f"{votes} TV votes cost {_money(price)}; your party has {_money(funds)}.")
        if not approved and self._president_decides(state, p):
            return self._ask_president(state, p, action, f"buy {votes} TV votes for {_money(price)}")
        events: list[Event] = []
        state.steps.pop(0)
        state.funds[pawn.party] = funds - price
        state.spent[p] += price
        self._say(state, events, f"{self._pname(state, p)} buys {votes} TV votes for {_money(price)} "
                                 f"({_money(funds - price)} left).")
        self._push_place(state, p, votes, -1, None, f"TV: {votes} votes anywhere", front=True)
        self._continue(state, events)
        return events

    # ---- the President's final word (four players, vp_spending=ask) -----
    def _president_of(self, state: RWHState, p: int) -> int:
        party = state.pawns[p].party
        return next(i for i, q in enumerate(state.pawns) if q.party == party and q.role == "P")

    def _president_decides(self, state: RWHState, p: int) -> bool:
        """Does spending by pawn p wait for its President? Only a Vice-President played by someone else
        than their President (with three players one seat plays both Republicans)."""
        pawn = state.pawns[p]
        return (pawn.role == "VP" and state.options.vp_spending == "ask"
                and state.pawns[self._president_of(state, p)].seat != pawn.seat)

    def _ask_president(self, state: RWHState, p: int, action: Action, what: str) -> list[Event]:
        president = self._president_of(state, p)
        text = (f"{self._pname(state, p)} proposes to {what} from the team's purse "
                f"({_money(state.funds[state.pawns[p].party])}); the President decides: `approve` or `refuse`.")
        state.steps.insert(0, Step(kind="approve", pawn=president, text=text, card=action.text(), by=p))
        return [Event(f"{self._pname(state, p)} proposes to {what}; {self._pname(state, president)} has the final "
                      "word: `approve` or `refuse`.")]

    def _approve(self, state: RWHState, p: int, step: Step, action: Approve) -> list[Event]:
        state.steps.pop(0)
        vp = step.by
        proposal = self.parse_action(step.card)
        events = [Event(f"{self._short(state, p)} approves.")]
        if isinstance(proposal, Enter):
            events += self._enter(state, vp, state.steps[0], proposal, approved=True)
        else:
            events += self._buy_votes(state, vp, state.steps[0], proposal, approved=True)  # type: ignore[arg-type]
        return events

    def _refuse(self, state: RWHState, p: int, step: Step, action: Refuse) -> list[Event]:
        state.steps.pop(0)
        events = [Event(f"{self._short(state, p)} refuses: the money stays in the team's purse.")]
        return events + self._pass(state, step.by, state.steps[0], _PASS)

    def _pass(self, state: RWHState, p: int, step: Step, action: Pass) -> list[Event]:
        events: list[Event] = []
        what = {"enter": "stays on the board", "advance": "stays put", "debate": "declines to debate",
                "buy": "buys no TV time"}[step.kind]
        self._say(state, events, f"{self._short(state, p)} {what}.")
        state.steps.pop(0)
        self._continue(state, events)
        return events

    # ---- flow ----------------------------------------------------------
    def _continue(self, state: RWHState, events: list[Event]) -> None:
        """Start the next step; skip placements that cannot place anything; end the turn when none is left."""
        while state.phase != "over":
            if state.steps:
                step = state.steps[0]
                if step.kind != "place":
                    return
                if step.dice and step.total == 0:
                    rng = Rng(state.rng)
                    dice = [rng.die() for _ in range(step.dice)]
                    state.rng = rng.state
                    state.dice = dice
                    step.total = step.remaining = sum(dice)
                    events.append(Event(f"{self._short(state, step.pawn)} rolls {' + '.join(map(str, dice))}: "
                                        f"{_plural(step.total, 'vote')} to place."))
                if step.placed or can_place(state, step):
                    return
                if step.total:
                    events.append(Event(f"{self._short(state, step.pawn)}: {step.text} — nowhere to place them."))
                state.steps.pop(0)
                continue
            if state.phase == "home":
                state.phase = "play"
                first = state.order[0]
                self._say(state, events, f"Home States chosen. {self._pname(state, first)} moves first: `roll`.")
                return
            # the turn is over
            turn_pawn = state.order[state.turn]
            if state.options.declare == "manual" and not state.wrapped and any(
                    state.pawns[q].seat == state.pawns[turn_pawn].seat for _c, q in state.undeclared):
                state.wrapped = True
                state.steps.append(Step(kind="declare", pawn=turn_pawn, text="Declare the states you won, then `done`."))
                return
            self._next_turn(state, events)
            if state.steps or state.phase == "over":
                continue
            return

    def _next_turn(self, state: RWHState, events: list[Event]) -> None:
        d = state.__dict__  # hot path: plain stores of valid values
        d["turn"] = (state.turn + 1) % len(state.order)
        d["wrapped"] = False
        if state.turn == 0:
            state.round += 1
            if state.round > state.options.max_rounds:
                self._tiebreak(state, f"After {state.options.max_rounds} rounds nobody has {TO_ELECT}")
                events.append(Event(state.outcome))
                return
        if state.undeclared:
            for code, q in list(state.undeclared):
                opp = opponent(state, q)
                party = state.pawns[q].party
                state.undeclared.remove([code, q])
                state.won[party].append(code)
                self._say(state, events, f"{self._short(state, q)} never declared {NAMES[code]}: it is recorded for "
                                         f"the {PARTY_NAME[party]}s, and {self._short(state, opp)} places "
                                         f"{PENALTY_VOTES} votes anywhere.")
                self._push_place(state, opp, PENALTY_VOTES, -1, None,
                                 f"Penalty: {PENALTY_VOTES} votes anywhere, {NAMES[code]} was not declared")
            self._check_win(state)
            if state.phase == "over":
                events.append(Event(state.outcome))
                return
        nxt = state.order[state.turn]
        events.append(Event(f"{self._pname(state, nxt)} to `roll`."))

    # ---- views ---------------------------------------------------------
    def view(self, state: RWHState, seat: int | None) -> dict:
        players = []
        for i, pawn in enumerate(state.pawns):
            players.append({
                "seat": pawn.seat, "name": state.seats[pawn.seat].name, "bot": state.seats[pawn.seat].bot,
                "party": pawn.party, "role": pawn.role, "sheet": pawn.sheet, "home": pawn.home,
                "space": {"track": pawn.track, "index": pawn.index},
                "funds": state.funds[pawn.party], "spent": state.spent[i], "pawn": i,
            })
        parties = {}
        for party in ("D", "R"):
            parties[party] = {"ev": party_ev(state, party), "won": list(state.won[party]),
                              "spent": sum(state.spent[i] for i, q in enumerate(state.pawns) if q.party == party),
                              "funds": state.funds[party], "states": len(state.won[party])}
        undeclared = {u[0] for u in state.undeclared}
        states = {}
        caps, to_win = sheet_scale(state)
        for code in CODES:
            f = state.fill[code]
            cap = caps[code]
            states[code] = {
                "name": NAMES[code], "ev": EV[code], "region": REGION[code], "lean": LEAN[code] or None,
                "to_win": to_win[code],
                "blocks": {CATEGORIES[k]: {"D": [cap[k], f[k]], "R": [cap[k], f[5 + k]]} for k in range(5)},
                "won": state.owner[code] or None, "declared": bool(state.owner[code]) and code not in undeclared,
                "count": {"D": sum(f[0:5]), "R": sum(f[5:10])},
            }
        pending = None
        choice = None
        if state.steps and state.phase != "over":
            step = state.steps[0]
            if step.kind == "place":
                pending = {"seat": state.pawns[step.pawn].seat, "pawn": step.pawn, "kind": self._pending_kind(step),
                           "text": step.text, "remaining": step.remaining, "total": step.total,
                           "category": CATEGORIES[step.cat] if step.cat >= 0 else None,
                           "states": list(step.where) if step.where is not None else None,
                           "placed": [[e[0], CATEGORIES[e[1]], e[2]] for e in step.placed]}
            else:
                choice = {"seat": state.pawns[step.pawn].seat, "pawn": step.pawn, "kind": step.kind,
                          "text": step.text}
                if step.kind == "issue":
                    card = ISSUE_BY_SLUG[step.card]
                    choice["card"] = card[1]
                    choice["options"] = [{"slug": x[0], "label": x[1],
                                          "add": [[CATEGORIES[k], n] for k, n in x[2]], "opponent": x[3]}
                                         for x in card[2]]
        turn_pawn = state.order[state.turn] if state.phase == "play" else None
        return {
            "game": self.id, "phase": state.phase,
            "turn": state.pawns[turn_pawn].seat if turn_pawn is not None else None,
            "turn_pawn": turn_pawn, "round": state.round, "max_rounds": state.options.max_rounds,
            "to_elect": TO_ELECT,
            "players": players, "parties": parties,
            "regions": {r: list(cs) for r, cs in REGIONS.items()},
            "sheets": [list(s) for s in SHEETS],
            "categories": list(CATEGORIES),
            "states": states,
            "board": {"circuit": [{"kind": k, "label": lab} for k, lab, _p in CIRCUIT],
                      "tracks": {t: [{"kind": "track", "label": lab} for lab, _e in TRACK_SPACES[t]] for t in TRACKS},
                      "entries": dict(ENTRIES),
                      "costs": dict(ENTRY_COST)},
            "dice": list(state.dice) or None,
            "pending": pending, "choice": choice,
            "last": state.last, "log": list(state.log),
            "winner": state.winner, "outcome": state.outcome,
            "options": state.options.model_dump(),
            "decks": {"issues": len(state.issues), "spins": len(state.spins)},
        }

    def _pending_kind(self, step: Step) -> str:
        if step.where is not None:
            return "states"
        if step.cat >= 0:
            return "category"
        return "anywhere"

    def result(self, state: RWHState) -> Result:
        if state.phase != "over":
            return _NOT_OVER
        winners = [i for i in range(len(state.seats))
                   if state.winner is not None and any(q.seat == i and q.party == state.winner for q in state.pawns)]
        scores = [float(party_ev(state, next(q.party for q in state.pawns if q.seat == i)))
                  for i in range(len(state.seats))]
        return Result(finished=True, winners=winners, scores=scores, summary=state.outcome)

    def teams(self, state: RWHState) -> list[list[int]]:
        """The Democrats and the Republicans: in the four-player game each party's President
        and Vice-President win or lose together."""
        return [sorted({q.seat for q in state.pawns if q.party == party}) for party in ("D", "R")]

    def status_text(self, state: RWHState) -> str:
        d, r = party_ev(state, "D"), party_ev(state, "R")
        score = f"Democrats {d} · Republicans {r} (270 wins)"
        if state.phase == "over":
            return f"{state.outcome} {score}."
        p = self.acting_pawn(state)
        name = self._pname(state, p)  # type: ignore[arg-type]
        if not state.steps:
            what = "to `roll`"
        else:
            step = state.steps[0]
            if step.kind == "place":
                if step.remaining > 0 and (step.placed or can_place(state, step)):
                    what = f"placing {step.remaining} of {step.total} ({step.text})"
                else:
                    what = f"to confirm ({step.text}): `done`, or `undo`"
            else:
                what = f"— {step.text}"
        return f"Round {state.round}: {name} {what} · {score}"

    def token_label(self, state: RWHState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        if not prefix:
            return {"roll": "roll the dice", "place": "place votes", "rest": "place the rest for me",
                    "undo": "undo the last move", "done": "done", "take": "take a position",
                    "enter": "enter the campaign", "advance": "advance to a campaign", "debate": "debate",
                    "buy": "buy TV votes", "pass": "pass", "rally": "rally a voter category", "declare": "declare a won state",
                    "home": "choose Home State", "approve": "approve the spending",
                    "refuse": "refuse: keep the money"}.get(token, token)
        verb = prefix[0]
        pawn_party = next((q.party for q in state.pawns if q.seat == seat), "D")
        caps, to_win = sheet_scale(state)
        if verb in ("place", "home", "declare") and len(prefix) == 1 and token in EV:
            me, them = count(state, token, pawn_party), count(state, token, OTHER[pawn_party])
            return f"{NAMES[token]} ({EV[token]}) · you {me}/{to_win[token]} · them {them}"
        if verb == "place" and len(prefix) == 2 and token in CATEGORIES:
            code = prefix[1]
            if code in EV:
                k = CAT_INDEX[token]
                f = state.fill[code]
                mine, theirs = f[OFF[pawn_party] + k], f[OFF[OTHER[pawn_party]] + k]
                return f"{token} · you {mine}/{caps[code][k]} · them {theirs}"
        if verb == "place" and len(prefix) == 3 and token.isdigit():
            code = prefix[1]
            if code in EV:
                after = count(state, code, pawn_party) + int(token)
                return f"{token} → {after}/{to_win[code]}" + (" WINS" if after >= to_win[code] else "")
        if verb == "take" and token in POSITION_BY_SLUG:
            _slug, pos = POSITION_BY_SLUG[token]
            return self._pos_text(pos)
        if verb == "rally" and token in CATEGORIES and state.steps and state.steps[0].kind == "rally":
            k = CAT_INDEX[token]
            o = OFF[pawn_party]
            reach = sum(1 for c in REGIONS[state.steps[0].card]
                        if not state.owner[c] and caps[c][k] > state.fill[c][o + k])
            return f"{token} · {reach} state{'s' if reach != 1 else ''} with room"
        if verb == "buy" and token.isdigit():
            return f"{token} votes for {_money(int(token) // TV_LOT * TV_PRICE)}"
        if verb == "advance" and token in TRACKS:
            cost = ENTRY_COST[token]
            return f"CAMPAIGN for {token}" + (f" ({_money(cost)} to enter)" if cost else " (free)")
        return token

    def describe_action(self, state: RWHState, seat: int, action: Action) -> str:
        if isinstance(action, Place):
            code = code_of(action.state)
            if code:
                return f"place {action.n} {action.category} in {NAMES[code]}"
        if isinstance(action, Take) and action.position in POSITION_BY_SLUG:
            return f"take: {POSITION_BY_SLUG[action.position][1][1]}"
        return action.text()

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: RWHState, seat: int, rng: Rng) -> Action:
        from .ai import choose
        return choose(self, state, seat, rng)

    private_info: ClassVar[bool] = False  # tally sheets, funds and cards are all on the table

    # Each action type: the steps it answers (None: the handler checks), the reason it gives between
    # turns (None: the usual one of _wrong), its handler. Looked up once per move instead of a chain
    # of isinstance tests.
    _MOVES: ClassVar[dict] = {
        Place: (None, None, _place),
        Roll: (("roll",), None, _roll),
        Undo: (("place",), None, _undo),
        Done: (("place", "declare"), None, _done),
        Rest: (("place",), None, _rest),
        Take: (("issue",), None, _take),
        Rally: (("rally",), "You can only rally when you land on a RALLY space.", _rally),
        Pass: (("enter", "advance", "debate", "buy"), None, _pass),
        Enter: (("enter",), "You can only enter a campaign side track when you land on its CAMPAIGN space.", _enter),
        Buy: (("buy",), "You can only buy votes when you land on a TV space.", _buy_votes),
        Declare: (None, None, _declare),
        Home: (("home",), None, _home),
        Advance: (("advance",), None, _advance),
        Approve: (("approve",), "Only a President approves, when their Vice-President proposes to spend.", _approve),
        Refuse: (("approve",), "Only a President refuses, when their Vice-President proposes to spend.", _refuse),
        Debate: (("debate",), "You can only debate when you land on a DEBATE space.", _debate),
    }


    def determinize(self, state: RWHState, seat: int, rng: Rng) -> RWHState:  # the search's view of hidden cards
        from .determinize import determinize
        return determinize(self.clone(state), seat, rng)

GAME = RaceWhiteHouse()
