"""Race for the White House as the players see it: the public view (declared as TypedDicts, which the
renderer and the text board import, so a renamed field fails the type check, not a render), the
status line, and the labels of menus and autocomplete."""
from __future__ import annotations

from functools import lru_cache

from typing import Any, Literal, NotRequired, TypedDict

from ..core import Action
from .actions import Place, Take, code_of
from .data import (CAT_INDEX, CATEGORIES, CIRCUIT, CODES, ENTRIES, ENTRY_COST, EV, ISSUE_BY_SLUG, LEAN, NAMES,
                   POSITION_BY_SLUG, REGION, REGIONS, SHEETS, TO_ELECT, TRACK_SPACES, TRACKS, TV_LOT, TV_PRICE)
from .models import GAME_ID, OFF, OTHER, RWHState, Step
from .rules import acting_pawn, can_place, count, money, party_ev, pawn_name, position_text, sheet_scale


class SpaceView(TypedDict):
    track: str | None  # on a campaign side track, else None (the circuit)
    index: int         # the space on the circuit, or on the track


class PlayerView(TypedDict):
    """One pawn (a seat plays two with three players)."""
    seat: int
    name: str
    bot: bool
    party: Literal["D", "R"]
    role: Literal["P", "VP"]
    sheet: int | None  # None: both sheets (two players)
    home: str | None
    space: SpaceView
    funds: int         # the party's purse
    spent: int         # by this pawn
    pawn: int


class PartyView(TypedDict):
    ev: int
    won: list[str]     # declared states, in the order won
    spent: int
    funds: int
    states: int


class StateView(TypedDict):
    name: str
    ev: int
    region: str
    lean: str | None                     # "D"/"R": a pre-marked LIBERAL/CONSERVATIVE block
    to_win: int
    blocks: dict[str, dict[str, list[int]]]  # category -> party -> [blocks, filled]
    won: str | None
    declared: bool
    count: dict[str, int]                # party -> filled blocks


class PendingView(TypedDict):
    """A placement under way."""
    seat: int
    pawn: int
    kind: str                  # states | category | anywhere
    text: str
    remaining: int
    total: int
    category: str | None
    states: list[str] | None
    placed: list[list[str | int]]  # [code, category, n], for `undo`


class PositionView(TypedDict):
    slug: str
    label: str
    add: list[list[str | int]]  # [category, n]
    opponent: int               # votes the opponent then places anywhere


class ChoiceView(TypedDict):
    """A one-move decision under way (an Issues card, enter, debate, ...)."""
    seat: int
    pawn: int
    kind: str
    text: str
    card: NotRequired[str]                   # issue: the card's title
    options: NotRequired[list[PositionView]]  # issue: its two positions


class BoardSpaceView(TypedDict):
    kind: str
    label: str


class BoardView(TypedDict):
    circuit: list[BoardSpaceView]            # clockwise from Start
    tracks: dict[str, list[BoardSpaceView]]  # the campaign side tracks, in board order
    entries: dict[str, int]                  # track -> its entry space on the circuit
    costs: dict[str, int]                    # track -> dollars to enter


class DecksView(TypedDict):
    issues: int
    spins: int


class RWHView(TypedDict):
    game: str
    phase: Literal["home", "play", "over"]
    turn: int | None        # the seat to roll (while playing)
    turn_pawn: int | None
    round: int
    max_rounds: int
    to_elect: int
    players: list[PlayerView]
    parties: dict[str, PartyView]
    regions: dict[str, list[str]]
    sheets: list[list[str]]  # the regions of each tally sheet
    categories: list[str]
    states: dict[str, StateView]
    board: BoardView
    dice: list[int] | None
    pending: PendingView | None
    choice: ChoiceView | None
    last: str
    log: list[str]
    winner: str | None
    outcome: str
    options: dict[str, Any]
    decks: DecksView


VERB_LABELS = {"roll": "roll the dice", "place": "place votes", "rest": "place the rest for me",
               "undo": "undo the last move", "done": "done", "take": "take a position",
               "enter": "enter the campaign", "advance": "advance to a campaign", "debate": "debate",
               "buy": "buy TV votes", "pass": "pass", "rally": "rally a voter category",
               "declare": "declare a won state", "home": "choose Home State", "approve": "approve the spending",
               "refuse": "refuse: keep the money"}


@lru_cache(maxsize=8192)
def _state_view(code: str, fill: tuple[int, ...], cap: tuple[int, ...], to_win: int, owner: str | None,
                declared: bool) -> StateView:
    """One state's tally, shared by every view that shows it unchanged: a move changes a state or
    two, and building all 51 anew was most of the bot's own time a race-white-house move takes.
    Views are read, never changed, by whoever gets them (renderers, text boards, the store)."""
    return {
        "name": NAMES[code], "ev": EV[code], "region": REGION[code], "lean": LEAN[code] or None,
        "to_win": to_win,
        "blocks": {CATEGORIES[k]: {"D": [cap[k], fill[k]], "R": [cap[k], fill[5 + k]]} for k in range(5)},
        "won": owner, "declared": declared,
        "count": {"D": sum(fill[0:5]), "R": sum(fill[5:10])},
    }


def view(state: RWHState, seat: int | None) -> RWHView:
    """The public view (the same for every seat: nothing in this game is secret)."""
    players: list[PlayerView] = []
    for i, pawn in enumerate(state.pawns):
        players.append({
            "seat": pawn.seat, "name": state.seats[pawn.seat].name, "bot": state.seats[pawn.seat].bot,
            "party": pawn.party, "role": pawn.role, "sheet": pawn.sheet, "home": pawn.home,
            "space": {"track": pawn.track, "index": pawn.index},
            "funds": state.funds[pawn.party], "spent": state.spent[i], "pawn": i,
        })
    parties: dict[str, PartyView] = {}
    for party in ("D", "R"):
        parties[party] = {"ev": party_ev(state, party), "won": list(state.won[party]),
                          "spent": sum(state.spent[i] for i, q in enumerate(state.pawns) if q.party == party),
                          "funds": state.funds[party], "states": len(state.won[party])}
    undeclared = {u[0] for u in state.undeclared}
    states: dict[str, StateView] = {}
    caps, to_win = sheet_scale(state)
    for code in CODES:
        owner = state.owner[code] or None
        states[code] = _state_view(code, tuple(state.fill[code]), tuple(caps[code]), to_win[code], owner,
                                   bool(owner) and code not in undeclared)
    pending: PendingView | None = None
    choice: ChoiceView | None = None
    if state.steps and state.phase != "over":
        step = state.steps[0]
        if step.kind == "place":
            pending = {"seat": state.pawns[step.pawn].seat, "pawn": step.pawn, "kind": pending_kind(step),
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
        "game": GAME_ID, "phase": state.phase,
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


def pending_kind(step: Step) -> str:
    """Where a placement's votes may go: listed states, one category, or anywhere."""
    if step.where is not None:
        return "states"
    if step.cat >= 0:
        return "category"
    return "anywhere"


def status_text(state: RWHState) -> str:
    """Round, who acts and on what, and the score."""
    d, r = party_ev(state, "D"), party_ev(state, "R")
    score = f"Democrats {d} · Republicans {r} (270 wins)"
    if state.phase == "over":
        return f"{state.outcome} {score}."
    p = acting_pawn(state)
    assert p is not None, "a game that is not over has a pawn to act"
    name = pawn_name(state, p)
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


def token_label(state: RWHState, seat: int, prefix: tuple[str, ...], token: str) -> str:
    """A menu choice's label: a verb in words; a state, category or count with where the race stands."""
    if not prefix:
        return VERB_LABELS.get(token, token)
    verb = prefix[0]
    pawn_party = next((q.party for q in state.pawns if q.seat == seat), "D")
    caps, to_win = sheet_scale(state)
    if verb in ("place", "home", "declare") and len(prefix) == 1 and token in EV:
        me, them = count(state, token, pawn_party), count(state, token, OTHER[pawn_party])
        return f"{NAMES[token]} ({EV[token]}) · you {me} of {to_win[token]} to win · them {them}"
    if verb == "place" and len(prefix) == 2 and token in CATEGORIES:
        code = prefix[1]
        if code in EV:
            k = CAT_INDEX[token]
            f = state.fill[code]
            mine, theirs = f[OFF[pawn_party] + k], f[OFF[OTHER[pawn_party]] + k]
            return f"{token} · you {mine} of {caps[code][k]} blocks · them {theirs}"
    if verb == "place" and len(prefix) == 3 and token.isdigit():
        code = prefix[1]
        if code in EV:
            after = count(state, code, pawn_party) + int(token)
            return f"{token} → {after}/{to_win[code]}" + (" WINS" if after >= to_win[code] else "")
    if verb == "take" and token in POSITION_BY_SLUG:
        _slug, pos = POSITION_BY_SLUG[token]
        return position_text(pos)
    if verb == "rally" and token in CATEGORIES and state.steps and state.steps[0].kind == "rally":
        k = CAT_INDEX[token]
        o = OFF[pawn_party]
        reach = sum(1 for c in REGIONS[state.steps[0].card]
                    if not state.owner[c] and caps[c][k] > state.fill[c][o + k])
        return f"{token} · {reach} state{'s' if reach != 1 else ''} with room"
    if verb == "buy" and token.isdigit():
        return f"{token} votes for {money(int(token) // TV_LOT * TV_PRICE)}"
    if verb == "advance" and token in TRACKS:
        cost = ENTRY_COST[token]
        return f"CAMPAIGN for {token}" + (f" ({money(cost)} to enter)" if cost else " (free)")
    return token


def describe_action(state: RWHState, seat: int, action: Action) -> str:
    """An autocomplete line: a placement or an Issues position in words."""
    if isinstance(action, Place):
        code = code_of(action.state)
        if code:
            return f"place {action.n} {action.category} in {NAMES[code]}"
    if isinstance(action, Take) and action.position in POSITION_BY_SLUG:
        return position_text(POSITION_BY_SLUG[action.position][1])  # what the position does, not its name alone
    return action.text()
