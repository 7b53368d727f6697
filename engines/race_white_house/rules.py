"""Race for the White House: the rules as questions about a state, read-only and public.

Every phase module asks these, and so does the AI (it uses nothing private of the engine):
who acts, electoral votes, blocks filled and still needed, ADD leads, which sheet a pawn keeps,
who faces whom, whether a Vice-President's spending waits for the President; and the names and
amounts as the game writes them.
"""
from __future__ import annotations

from .data import ALL_CODES, CATEGORIES, EV, SCALES, SHEET_CODES, SHEET_OF
from .models import OFF, OTHER, PARTY_NAME, Pawn, RWHState, Step
from ..wording import opening, subject, verb_for

# ---------------------------------------------------------------- turns


def acting_pawn(state: RWHState) -> int | None:
    """The pawn whose move it is: the first step's, else the one to roll (None once the game is over)."""
    if state.phase == "over":
        return None
    if state.steps:
        return state.steps[0].pawn
    return state.order[state.turn]


def opponent(state: RWHState, p: int) -> int:
    """The pawn that faces pawn p across its tally sheet."""
    me = state.pawns[p]
    for i, q in enumerate(state.pawns):
        if q.party != me.party and q.sheet == me.sheet:
            return i
    raise AssertionError("every pawn has an opponent")


def president_of(state: RWHState, p: int) -> int:
    """The President's pawn of pawn p's party."""
    party = state.pawns[p].party
    return next(i for i, q in enumerate(state.pawns) if q.party == party and q.role == "P")


def president_decides(state: RWHState, p: int) -> bool:
    """Does spending by pawn p wait for its President? Only a Vice-President played by someone else
    than their President (with three players one seat plays both Republicans)."""
    pawn = state.pawns[p]
    return (pawn.role == "VP" and state.options.vp_spending == "ask"
            and state.pawns[president_of(state, p)].seat != pawn.seat)


# ---------------------------------------------------------------- the tally sheets


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
    """The states a placement may use."""
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


# ---------------------------------------------------------------- words


def pawn_name(state: RWHState, p: int) -> str:
    """'Alice (Democrat)', or with four pawns 'Alice (Democrat Vice-President)'."""
    pawn = state.pawns[p]
    name = state.seats[pawn.seat].name
    if len(state.pawns) == 2:
        return f"{name} ({PARTY_NAME[pawn.party]})"
    role = "President" if pawn.role == "P" else "Vice-President"
    return f"{name} ({PARTY_NAME[pawn.party]} {role})"


def short_name(state: RWHState, p: int) -> str:
    return state.seats[state.pawns[p].seat].name


def pawn_does(state: RWHState, p: int, verb: str, start: bool = True) -> str:
    """'Alice (Democrat) rolls' / 'You (Democrat) roll': the pawn as subject, its verb agreeing (and
    "You" capitalised when it opens the sentence)."""
    text = f"{pawn_name(state, p)} {does(state, p, verb)}"
    return opening(text) if start else text


def name_does(state: RWHState, p: int, verb: str, start: bool = True) -> str:
    """'Alice places' / 'You place': the pawn's player as subject, its verb agreeing."""
    return subject(short_name(state, p), verb, start=start)


def does(state: RWHState, p: int, verb: str) -> str:
    """A verb written for a name, agreeing with the pawn's player ('has' -> 'have' for "you")."""
    return verb_for(short_name(state, p), verb)


def money(d: int) -> str:
    return f"${d:,}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def position_text(pos: tuple) -> str:
    """An Issues card's position as offered, whole and short enough for a button (at most 78 characters:
    Discord cuts a button's label at 80): 'Raise the minimum wage: ADD 1 UNION, 1 MINORITY; opponent places 5'."""
    adds = ", ".join(f"{n} {CATEGORIES[k]}" for k, n in pos[2])
    return f"{pos[1]}: ADD {adds}; opponent places {pos[3]}"


WAITING_FOR = {
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
}


def waiting_for(kind: str) -> str:
    """What the game waits for while a step of this kind is open (said to a move that does not fit)."""
    return WAITING_FOR.get(kind, "That move does not fit now.")
