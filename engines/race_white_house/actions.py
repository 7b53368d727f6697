"""Race for the White House: the moves, their text forms, and the names a player may type for a state,
a voter category or a campaign track.

The moves without a choice are made once (ROLL, DONE, ...) and the ones with few choices are made
once per choice (PLACE, HOME, ...): legal_actions hands out these frozen objects instead of building
new ones on every call.
"""
from __future__ import annotations

from functools import lru_cache

from ..core import Action
from .data import CAPS, CATEGORIES, CODES, NAMES, POSITION_BY_SLUG, TRACKS, C, L, M

# The most votes one `place` moves (the menus offer 1..MAX_COUNT): every category of the short
# sheets holds at most this many; on the rulebook's sheets a bigger row takes several moves.
MAX_COUNT = max(max(c) for c in CAPS.values())


class Home(Action):
    """Choose your Home State (the Democrat first; with `first_move=democrat` the Republican); 2 votes go there."""
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


ACTIONS: tuple[type[Action], ...] = (Home, Roll, Place, Rest, Undo, Done, Take, Rally, Enter, Advance, Debate, Buy,
                                     Pass, Declare, Approve, Refuse)

ROLL, REST, UNDO, DONE, ENTER, DEBATE, PASS = Roll(), Rest(), Undo(), Done(), Enter(), Debate(), Pass()
APPROVE, REFUSE = Approve(), Refuse()

# PLACE[code][cat][m]: the frozen actions `place code CAT 1` .. `place code CAT m`
PLACE: dict[str, tuple[tuple[tuple[Place, ...], ...], ...]] = {
    code: tuple(
        tuple(tuple(Place(state=code, category=CATEGORIES[k], n=i) for i in range(1, m + 1))
              for m in range(MAX_COUNT + 1))
        for k in range(5))
    for code in CODES
}
HOME = {c: Home(state=c) for c in CODES}
DECLARE = {c: Declare(state=c) for c in CODES}
TAKE = {p: Take(position=p) for p in POSITION_BY_SLUG}
ADVANCE = {t: Advance(track=t) for t in TRACKS}
RALLY = {c: Rally(category=c) for c in CATEGORIES}


@lru_cache(maxsize=64)
def buy(votes: int) -> Buy:
    return Buy(votes=votes)


def proposal(text: str) -> Enter | Buy:
    """The move a Vice-President proposed (kept as its text on the approve step): `enter` or `buy N`."""
    words = text.split()
    return buy(int(words[1])) if words[0] == Buy.verb else ENTER


# ---------------------------------------------------------------- names a player may type

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
    """The postal code of a state named by code or name ('tx', 'texas', 'new-york'), or None."""
    return _ALIASES.get(text.lower())


def cat_of(text: str) -> int | None:
    """The index of a voter category ('UNION', 'lib', 'conservatives'), or None."""
    return _CAT_ALIASES.get(text.lower())


def track_of(text: str) -> str | None:
    """The campaign side track named by its category ('union', 'lib', 'minorities'), or None."""
    return _TRACK_ALIASES.get(text.lower())
