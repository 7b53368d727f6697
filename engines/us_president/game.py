"""U.S. President: twelve weeks of simultaneous pyramid placement in eleven
swing states, then the count (and, if nobody has 73 electors, the recount).

Decisions the rulebook leaves to the table are documented in
docs/games/us-president.md; the ones reasonable players disagree about are
options (`deal`, `tie_above_holder`, `recount_aside`).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Literal, cast

from pydantic import BaseModel, Field

from ..core import SYSTEM, Action, Event, Game, Options, Result, RuleError, Seat
from ..rng import Rng
from ..wording import opening, subject, their, verb_for
from .states import (CODES, ELECTORS, FLORIDA, FLORIDA_MARGIN, MAJORITY, MAX_PER_STATE, NAMES, PER_SIZE,
                     POINTS, ROUNDS, SIZES, TOTAL_ELECTORS)
from .view import USPPlayerView, USPRecountStep, USPStateView, USPView
from . import determinize as hidden

_SIZE_ALIASES = {"large": "large", "l": "large", "big": "large", "3": "large",
                 "medium": "medium", "m": "medium", "mid": "medium", "middle": "medium", "2": "medium",
                 "small": "small", "s": "small", "1": "small"}
_STATE_ALIASES: dict[str, str] = {}
for _code in CODES:
    _STATE_ALIASES[_code.lower()] = _code
    _STATE_ALIASES[NAMES[_code].lower().replace(" ", "")] = _code
    _STATE_ALIASES[NAMES[_code].lower().replace(" ", "-")] = _code
_SIZE_INDEX = {s: i for i, s in enumerate(SIZES)}
_SIZE_POINTS = tuple(POINTS[s] for s in SIZES)  # biggest first (SIZES' order)


class USPOptions(Options):
    deal: Literal["equal", "one"] = Field(
        "equal", description="State cards at the start: 'equal' deals them out evenly and sets the rest aside "
                             "(English rules); 'one' gives each player a single card (the Czech original)")
    tie_above_holder: Literal["aside", "keep"] = Field(
        "aside", description="When two or more players tie for the most points in a state and all of them beat "
                             "the card's holder: 'aside' takes the card from its holder and sets it aside, "
                             "'keep' leaves it with its holder")
    recount_aside: Literal["second", "first"] = Field(
        "second", description="When the recount may hand out State cards lying beside the map: 'second' from "
                              "the second recount step on (the rulebook says so only for the repeated "
                              "recount), 'first' from the first step")


class USPState(BaseModel):
    seats: list[Seat]
    options: USPOptions
    rng: int
    phase: Literal["play", "over"] = "play"
    round: int = 1
    # state code -> per seat, the points of each pyramid placed there (in order)
    board: dict[str, list[list[int]]]
    # per seat: pyramids left as [large, medium, small]
    supply: list[list[int]]
    # state code -> seat holding its card, or None (set aside beside the map)
    holder: dict[str, int | None]
    dealt: list[list[str]]  # the opening deal, per seat (public)
    # secret until the reveal: per seat [code, size] or None
    picks: list[list[str] | None]
    reveals: list[list[list[str]]] = []  # per finished round, per seat [code, size] (public)
    count: list[int] = []  # electors per seat after round 12, before any recount
    count_holders: dict[str, int | None] = {}  # the cards after round 12, before any recount
    recount: list[dict] = []  # one entry per recount step (public)
    active: list[int] = []  # seats still in the count
    winner: int | None = None
    outcome: str = ""


class Pick(Action):
    """Choose the state and the pyramid size for this round (secret until everyone has picked)."""
    verb = "pick"
    state: str
    size: str


_PICKS: dict[tuple[str, str], Pick] = {(c, s): Pick(state=c, size=s) for c in CODES for s in SIZES}


def _ev(text: str, to: list[int] | None = None) -> Event:
    return Event(text=text, to=to)


@lru_cache(maxsize=8192)
def _picks_for(full: tuple[str, ...], sizes: tuple[str, ...]) -> tuple[Pick, ...]:
    return tuple(_PICKS[(c, s)] for c in CODES if c not in full for s in sizes)


def _points(board_state: list[list[int]]) -> list[int]:
    return [sum(p) for p in board_state]


def florida_counts(state: USPState, seats: list[int] | None = None) -> bool:
    """Whether Florida's holder leads every other counted player there by 2."""
    h = state.holder[FLORIDA]
    if h is None:
        return False
    pts = _points(state.board[FLORIDA])
    others = [pts[s] for s in (seats if seats is not None else range(len(pts))) if s != h]
    return pts[h] - max(others, default=0) >= FLORIDA_MARGIN


def electors(state: USPState, seats: list[int] | None = None) -> list[int]:
    """Electors per seat; only `seats` (default: all) count, and Florida's
    margin is measured against those seats only."""
    n = len(state.seats)
    counted = set(range(n) if seats is None else seats)
    out = [0] * n
    for code, h in state.holder.items():
        if h is None or h not in counted:
            continue
        if code == FLORIDA and not florida_counts(state, sorted(counted)):
            continue
        out[h] += ELECTORS[code]
    return out


def deciding_electors(state: USPState) -> list[int]:
    """The electors that decided the game, per seat: the Election Day count
    when there was no recount; otherwise each player's electors at the recount
    step where they left the race, or at the step someone won it."""
    scores = list(state.count)
    for step in state.recount:
        for s in step["leaving"]:
            scores[s] = step["leaving_electors"]
        if step["winner"] is not None:
            for s in step["active"]:
                scores[s] = step["electors"][s]
    return scores


AI_TEMPERATURE = 1.0  # electors: how far below the best pick the AI still sometimes plays
AI_INTEREST = 1.0  # extra threat from a rival who matches my points in a state


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class USPresident(Game[USPState]):
    id = "us-president"
    title = "U.S. President"
    min_players = 2
    max_players = 6
    renderer_module = "render.us_president"
    text_board_module = "render.text.us_president"
    doc = "docs/games/us-president.md"
    State = USPState
    OptionsModel = USPOptions
    actions = (Pick,)
    summary = "Twelve secret rounds of pyramids in eleven swing states; 73 electors make a President. 2–6 players."
    rules_text = (
        "**U.S. President** — 2–6 players, 12 rounds, 11 swing states worth 145 electors; 73 wins.\n"
        "• You own 12 pyramids: 4 large (3 points), 4 medium (2), 4 small (1). Everyone can see what everyone has "
        "left.\n"
        "• The state cards (MT 3, NV 6, IA 6, CO 9, WI 10, VA 13, NC 15, MI 16, OH 18, PA 20, FL 29) are shuffled. "
        "Setting `deal=equal` (default, the English rules) deals them out evenly and sets the leftovers aside; "
        "`deal=one` (the Czech original) gives each player one card and sets the rest aside.\n"
        "• Every round each player secretly picks a state and a size: `/politics do action:pick FL large`. "
        "You may pick again to change your mind until the last player has picked; then all picks are revealed "
        "together and the pyramids go on the map. No more than 3 of your pyramids may stand in one state.\n"
        "• Whoever has more points in a state than every other player takes its card. A tie never takes a card "
        "from its holder. If several players tie for the lead above the holder, the card is set aside "
        "(setting `tie_above_holder=keep` leaves it with the holder instead).\n"
        "• Florida only pays its 29 electors if its holder leads everyone else there by 2 points or more "
        "(alone there, that means at least 2 points).\n"
        "• After round 12 a player with 73+ electors is President. Otherwise recount: the player(s) with the "
        "fewest electors leave together; each card they held goes to the strongest player left in that state if "
        "they have points there and nobody ties them, else it is set aside. From the second recount step on, "
        "cards beside the map go the same way (`recount_aside=first` lets them go from the first step). "
        "Repeat until someone reaches 73 or nobody is left (then nobody wins). The final scores are each "
        "player's electors when they left the race or won it."
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> USPState:
        opts = self.setup_options(seats, options, USPOptions)
        n = len(seats)
        rng = Rng(seed)
        deck = list(CODES)
        rng.shuffle(deck)
        each = len(deck) // n if opts.deal == "equal" else 1
        dealt = [sorted(deck[i * each:(i + 1) * each], key=CODES.index) for i in range(n)]
        holder: dict[str, int | None] = {c: None for c in CODES}
        for s, cards in enumerate(dealt):
            for c in cards:
                holder[c] = s
        return USPState(
            seats=list(seats), options=opts, rng=rng.state,
            board={c: [[] for _ in range(n)] for c in CODES},
            supply=[[PER_SIZE] * len(SIZES) for _ in range(n)],
            holder=holder, dealt=dealt, picks=[None] * n, active=list(range(n)),
        )

    # ---- queries -------------------------------------------------------
    def to_act(self, state: USPState) -> list[int]:
        if state.phase != "play":
            return []
        return [s for s, p in enumerate(state.picks) if p is None]

    def legal_actions(self, state: USPState, seat: int) -> list[Action]:
        if state.phase != "play" or not 0 <= seat < len(state.seats):
            return []
        sizes = tuple(s for s, left in zip(SIZES, state.supply[seat]) if left > 0)
        board = state.board
        full = tuple(c for c in CODES if len(board[c][seat]) >= MAX_PER_STATE)
        return list(_picks_for(full, sizes))

    def may_act(self, state: USPState, seat: int) -> bool:
        """Seats that may move now: everyone still thinking (to_act) and,
        while the round is open, everyone who has picked and may change it.
        to_act lists only the first, so reminders, timeouts and AI seats wait
        only for players who have not picked."""
        if state.phase != "play" or not 0 <= seat < len(state.picks):
            return False
        return True

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: USPState, seat: int, action: Action) -> list[Event]:
        if state.phase != "play":
            raise RuleError("This game is over.")
        if seat == SYSTEM or not 0 <= seat < len(state.seats):
            raise RuleError("Only a player can pick a state and a pyramid.")
        if not isinstance(action, Pick):
            raise RuleError("In U.S. President the only move is to pick a state and a pyramid size.")
        code = _STATE_ALIASES.get(action.state.lower())
        if code is None:
            raise RuleError(f"'{action.state[:40]}' is not one of the swing states: {', '.join(CODES)}.")
        size = _SIZE_ALIASES.get(action.size.lower())
        if size is None:
            raise RuleError(f"'{action.size[:40]}' is not a pyramid size: say large, medium or small.")
        if len(state.board[code][seat]) >= MAX_PER_STATE:
            raise RuleError(f"You already have {MAX_PER_STATE} pyramids in {NAMES[code]}, the most one player may "
                            "place in a state.")
        if state.supply[seat][_SIZE_INDEX[size]] <= 0:
            raise RuleError(f"You have no {size} pyramid left.")
        # validated: mutate from here on
        name = state.seats[seat].name
        old = state.picks[seat]
        state.picks[seat] = [code, size]
        events: list[Event] = []
        if old is None:
            waiting = [state.seats[s].name for s, p in enumerate(state.picks) if p is None]
            tail = f" Still thinking: {', '.join(waiting)}." if waiting else ""
            events.append(_ev(text=f"{subject(name, 'has', start=True)} picked.{tail}"))
            # while others still think, the pick can change; the last pick reveals the round at once
            change = " You can change it until everyone has picked." if waiting else ""
            events.append(_ev(text=f"Your pick for round {state.round}: {NAMES[code]} with a {size} pyramid.{change}",
                              to=[seat]))
        else:
            events.append(_ev(text=f"Your pick for round {state.round} is now {NAMES[code]} with a {size} pyramid.",
                                to=[seat]))
            events.append(_ev(text=f"{subject(name, start=True)} changed {their(name)} pick."))
        if all(p is not None for p in state.picks):
            self._reveal(state, events)
        return events

    def _reveal(self, state: USPState, events: list[Event]) -> None:
        picks = [list(p) for p in state.picks if p is not None]
        n = len(state.seats)
        touched: list[str] = []
        for s, (code, size) in enumerate(picks):
            state.board[code][s].append(POINTS[size])
            state.supply[s][_SIZE_INDEX[size]] -= 1
            if code not in touched:
                touched.append(code)
        listing = "; ".join(f"{state.seats[s].name}: {picks[s][0]} {picks[s][1]}" for s in range(n))
        lines = [f"**Round {state.round} revealed** — {listing}."]
        for code in sorted(touched, key=CODES.index):
            line = self._settle(state, code)
            if line:
                lines.append(line)
        florida_holder = state.holder[FLORIDA]
        if florida_holder is not None and FLORIDA in touched and not florida_counts(state):
            lines.append(f"Florida's card is with {state.seats[florida_holder].name}, but without a "
                         f"{FLORIDA_MARGIN}-point lead its 29 electors go to no one.")
        state.reveals.append(picks)
        state.picks = [None] * n
        el = electors(state)
        lines.append("Electors: " + ", ".join(f"{state.seats[s].name} {el[s]}" for s in range(n)) + ".")
        events.append(_ev(text="\n".join(lines)))
        if state.round >= ROUNDS:
            self._final_count(state, events)
        else:
            state.round += 1

    def _settle(self, state: USPState, code: str) -> str:
        """Give the card of `code` to the new leader, if any; returns a line for the log."""
        pts = _points(state.board[code])
        top = max(pts)
        h = state.holder[code]
        if top == 0 or (h is not None and pts[h] == top):
            return ""
        leaders = [s for s, p in enumerate(pts) if p == top]
        names = [state.seats[s].name for s in leaders]
        label = f"{NAMES[code]} ({ELECTORS[code]})"
        if len(leaders) == 1:
            state.holder[code] = leaders[0]
            if h is None:
                return f"{subject(names[0], 'takes', start=True)} {label}."
            return f"{subject(names[0], 'takes', start=True)} {label} from {state.seats[h].name}."
        if h is None:
            return f"{' and '.join(names)} tie for the lead in {label}: nobody takes the card."
        if state.options.tie_above_holder == "keep":
            return f"{' and '.join(names)} tie for the lead in {label}; {state.seats[h].name} keeps the card."
        state.holder[code] = None
        return (f"{' and '.join(names)} tie for the lead in {label} above {state.seats[h].name}: "
                "the card is set aside.")

    # ---- the count and the recount --------------------------------------
    def _final_count(self, state: USPState, events: list[Event]) -> None:
        n = len(state.seats)
        names = [s.name for s in state.seats]
        active = list(range(n))
        el = electors(state, active)
        state.count = list(el)
        state.count_holders = dict(state.holder)
        state.phase = "over"
        best = max(el)
        if best >= MAJORITY:
            state.winner = el.index(best)
            state.outcome = (f"{subject(names[state.winner], 'wins', start=True)} with {best} electors and "
                             f"{verb_for(names[state.winner], 'is')} President.")
            events.append(_ev(text=f"**Election Day.** {state.outcome}"))
            state.active = active
            return
        events.append(_ev(text=f"**Election Day.** Nobody has {MAJORITY} electors "
                                 f"({', '.join(f'{names[s]} {el[s]}' for s in active)}): the recount begins."))
        step_no = 0
        while active:
            step_no += 1
            low = min(el[s] for s in active)
            leaving = [s for s in active if el[s] == low]
            active = [s for s in active if el[s] != low]
            moves: list[dict] = []
            leave = "leave" if len(leaving) > 1 else verb_for(names[leaving[0]], "leaves")
            lines = [f"**Recount {step_no}:** {' and '.join(names[s] for s in leaving)} "
                     f"({low} elector{'s' if low != 1 else ''}) {leave} the race."]
            # The rulebook lets the remaining players claim the cards beside the
            # map only when the recount is repeated (its step 3); `first` also
            # lets them do so at the first step.
            aside_open = step_no > 1 or state.options.recount_aside == "first"
            previously_aside = [c for c in CODES if state.holder[c] is None] if aside_open else []
            waiting_aside = [c for c in CODES if state.holder[c] is None] if not aside_open else []
            for code in CODES:
                frm = state.holder[code]
                if frm is not None and frm in leaving:
                    to, why = self._second(state, code, active)
                    state.holder[code] = to
                    moves.append({"state": code, "from": frm, "to": to, "why": why})
                    lines.append(f"{NAMES[code]}: " + (f"{names[frm]} → {names[to]}." if to is not None
                                                       else f"set aside ({why})."))
            for code in previously_aside:
                to, why = self._second(state, code, active)
                if to is not None:
                    state.holder[code] = to
                    moves.append({"state": code, "from": None, "to": to, "why": why})
                    lines.append(f"{NAMES[code]}: from beside the map → {names[to]}.")
            if waiting_aside and active:
                lines.append(f"Beside the map ({', '.join(NAMES[c] for c in waiting_aside)}): these cards can "
                             "only be claimed from the second recount step on.")
            el = electors(state, active) if active else [0] * n
            step: dict = {
                "step": step_no, "leaving": leaving, "leaving_electors": low, "moves": moves,
                "aside_waiting": waiting_aside if active else [],
                "active": list(active), "holders": dict(state.holder),
                "electors": [el[s] if s in active else None for s in range(n)],
                "florida_counts": florida_counts(state, active) if active else False,
                "winner": None,
            }
            if active:
                lines.append("Electors: " + ", ".join(f"{names[s]} {el[s]}" for s in active) + ".")
                best = max(el[s] for s in active)
                if best >= MAJORITY:
                    winner = next(s for s in active if el[s] == best)
                    state.winner = winner
                    step["winner"] = winner
                    state.outcome = (f"{names[winner]} wins the recount with {best} electors and "
                                     f"{verb_for(names[winner], 'is')} President.")
                    lines.append(f"**{state.outcome}**")
            else:
                state.outcome = "Everyone has left the race: there is no President."
                lines.append(f"**{state.outcome}**")
            step["text"] = "\n".join(lines)
            state.recount.append(step)
            events.append(_ev(text=step["text"]))
            if state.winner is not None:
                break
        state.active = active

    def _second(self, state: USPState, code: str, active: list[int]) -> tuple[int | None, str]:
        """The strongest player still in the count in `code`, if they have
        points there and nobody ties them."""
        if not active:
            return None, "nobody is left"
        pts = _points(state.board[code])
        top = max(pts[s] for s in active)
        if top == 0:
            return None, "nobody left has points there"
        best = [s for s in active if pts[s] == top]
        if len(best) > 1:
            return None, "tie between " + " and ".join(state.seats[s].name for s in best)
        return best[0], f"{top} point{'s' if top != 1 else ''}"

    # ---- views ---------------------------------------------------------
    def view(self, state: USPState, seat: int | None) -> USPView:
        n = len(state.seats)
        el = electors(state, state.active if state.phase == "over" and state.recount else None)
        players: list[USPPlayerView] = []
        for s in range(n):
            players.append({
                "name": state.seats[s].name, "bot": state.seats[s].bot,
                "electors": el[s],
                "count": state.count[s] if state.count else None,
                "supply": dict(zip(SIZES, state.supply[s])),
                "picked": state.picks[s] is not None if state.phase == "play" else None,
                "cards": [c for c in CODES if state.holder[c] == s],
                "dealt": list(state.dealt[s]),
                "active": s in state.active,
            })
        states: list[USPStateView] = []
        for code in CODES:
            pts = _points(state.board[code])
            states.append({
                "code": code, "name": NAMES[code], "electors": ELECTORS[code],
                "holder": state.holder[code], "pyramids": [list(p) for p in state.board[code]],
                "points": pts,
            })
        v: USPView = {
            "game": self.id, "phase": state.phase, "round": min(state.round, ROUNDS), "rounds": ROUNDS,
            "majority": MAJORITY, "total_electors": TOTAL_ELECTORS,
            "deal": state.options.deal, "tie_above_holder": state.options.tie_above_holder,
            "recount_aside": state.options.recount_aside,
            "players": players, "states": states,
            "aside": [c for c in CODES if state.holder[c] is None],
            "florida_counts": florida_counts(state),
            "waiting": self.to_act(state),
            "last_reveal": ({"round": len(state.reveals), "picks": [list(p) for p in state.reveals[-1]]}
                            if state.reveals else None),
            "count": list(state.count) if state.count else None,
            "count_holders": dict(state.count_holders) if state.count_holders else None,
            # the state keeps each step as the plain dict _final_count wrote, with exactly these fields
            "recount": [cast(USPRecountStep, dict(step)) for step in state.recount],
            "winner": state.winner, "outcome": state.outcome,
        }
        if seat is not None and 0 <= seat < n:
            v["you"] = seat
            p = state.picks[seat]
            v["pick"] = {"state": p[0], "size": p[1]} if p is not None else None
        return v

    def result(self, state: USPState) -> Result:
        if state.phase != "over":
            return Result(finished=False, winners=[], scores=[], summary="")
        winners = [state.winner] if state.winner is not None else []
        return Result(finished=True, winners=winners, scores=[float(x) for x in deciding_electors(state)],
                      summary=state.outcome)

    def status_text(self, state: USPState) -> str:
        if state.phase == "over":
            return state.outcome
        picked = [state.seats[s].name for s, p in enumerate(state.picks) if p is not None]
        waiting = [state.seats[s].name for s, p in enumerate(state.picks) if p is None]
        text = f"Round {state.round}/{ROUNDS} · thinking: {', '.join(waiting)}"
        if picked:
            text += f" · picked: {', '.join(picked)}"
        return text

    def private_text(self, state: USPState, seat: int) -> str:
        # Every line names the player: the first is their secret, the second
        # is public knowledge about them, and neither should read like a line
        # from someone else's panel.
        if not 0 <= seat < len(state.seats):
            return ""
        who = opening(state.seats[seat].name)  # the panel's owner: "You" at the table
        lines = []
        if state.phase == "play":
            p = state.picks[seat]
            if p is None:
                lines.append(f"**{who}** · round {state.round} of {ROUNDS}: you have not picked yet.")
            else:
                lines.append(f"**{who}** · round {state.round} of {ROUNDS}: your pick is **{NAMES[p[0]]} ({p[0]}) "
                             f"with a {p[1]} pyramid**. Pick again to change it until everyone has picked.")
        sup = state.supply[seat]
        full = [c for c in CODES if len(state.board[c][seat]) >= MAX_PER_STATE]
        cards = [c for c in CODES if state.holder[c] == seat]
        line = f"**{who}** · pyramids left: {sup[0]} large, {sup[1]} medium, {sup[2]} small"
        if full:
            line += f" · full (3 pyramids) in {', '.join(full)}"
        line += f" · your cards: {', '.join(f'{c} {ELECTORS[c]}' for c in cards) or 'none'}."
        lines.append(line)
        return "\n".join(lines)

    def token_label(self, state: USPState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        if len(prefix) == 1 and token in ELECTORS:
            mine = len(state.board[token][seat]) if 0 <= seat < len(state.seats) else 0
            return f"{NAMES[token]} ({ELECTORS[token]} electors) · your pyramids here: {mine} of {MAX_PER_STATE}"
        if len(prefix) == 2 and token in POINTS:
            left = state.supply[seat][_SIZE_INDEX[token]] if 0 <= seat < len(state.seats) else 0
            return f"{token} ({POINTS[token]} point{'s' if POINTS[token] > 1 else ''}) · {left} left"
        return token

    def describe_action(self, state: USPState, seat: int, action: Action) -> str:
        if isinstance(action, Pick):
            code = _STATE_ALIASES.get(action.state.lower(), action.state)
            size = _SIZE_ALIASES.get(action.size.lower(), action.size)
            return (f"{NAMES.get(code, code)} ({ELECTORS.get(code, '?')}) with a {size} pyramid "
                    f"({POINTS.get(size, '?')})")
        return action.text()

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: USPState, seat: int, rng: Rng) -> Action:
        """Estimated electors gained per pick: for each legal pick, how much it
        raises the chance of ending the game holding that state (with Florida's
        margin and the 3-per-state cap), weighed by electors, minus the points
        it spends. Picks are simultaneous and a predictable player is easy to
        shadow, so it draws among the best picks with weights falling off
        exponentially (a pick worth one elector less is e times less likely)."""
        picked = state.picks[seat]
        if state.phase == "play" and picked is not None:
            code, size = picked
            return _PICKS[(code, size)]  # already picked: keep it
        legal = [a for a in self.legal_actions(state, seat) if isinstance(a, Pick)]  # all of them: the only move
        if not legal:
            raise RuleError("There is nothing to do right now.")
        memo: dict[str, tuple[float, float]] = {}
        scores = [self._ai_gain(state, seat, a.state, POINTS[a.size], memo) for a in legal]
        top = max(scores)
        weights = self._softmax(scores)
        r = rng.random() * sum(weights)
        for action, w in zip(legal, weights):
            r -= w
            if r < 0 and w > 0:
                return action
        return legal[scores.index(top)]

    @staticmethod
    def _softmax(scores: list[float]) -> list[float]:
        top = max(scores)
        return [math.exp((x - top) / AI_TEMPERATURE) if x > top - 6 * AI_TEMPERATURE else 0.0 for x in scores]

    def _capacity(self, state: USPState, s: int, code: str, rounds_left: int, spent: int = 0) -> int:
        """Most points seat `s` could still add to `code` in `rounds_left` rounds: its biggest
        pyramids left (less the one of `spent` points this pick uses), one a round, up to the cap."""
        slots = min(MAX_PER_STATE - len(state.board[code][s]) - (1 if spent else 0), rounds_left)
        total = 0
        for points, left in zip(_SIZE_POINTS, state.supply[s]):  # biggest first
            if slots <= 0:
                break
            if points == spent:
                left -= 1
            if left > 0:
                take = left if left < slots else slots
                total += points * take
                slots -= take
        return total

    def _hold_chance(self, state: USPState, seat: int, code: str, mine: int, my_cap: int, rounds_left: int,
                     threat: float) -> float:
        """A rough chance of ending the game holding `code` with its electors:
        a logistic in my lead, my own room to add points there (the 3-per-state
        cap and my remaining pyramids) and the strongest rival's room to add
        (`threat`, from `_threat`). The weights were tuned by simulation against
        random and AI seats."""
        pts = _points(state.board[code])
        h = state.holder[code]
        best_other = max((pts[o] for o in range(len(pts)) if o != seat), default=0)
        # points needed over the best rival: Florida pays only with a 2-point
        # lead; a holder keeps a card on a tie; anyone else must get ahead
        need = FLORIDA_MARGIN if code == FLORIDA else (0 if h == seat else 1)
        lead = mine - best_other - need
        # the further from Election Day, the less a lead (or a deficit) is worth
        spread = 1.0 + 0.1 * rounds_left
        x = (lead + 0.5 + 0.45 * my_cap - 0.35 * threat) / spread
        return _sigmoid(2.2 * x)

    def _threat(self, state: USPState, seat: int, code: str, rounds_left: int, base: int) -> float:
        """The strongest rival's room to add points to `code`; a rival who has matched what I had
        invested there (`base`) before this pick is likelier to add more (and may well be adding
        this very round: the picks are simultaneous)."""
        pts = _points(state.board[code])
        return max((self._capacity(state, o, code, rounds_left + 1) * (1.0 + AI_INTEREST * (pts[o] >= base > 0))
                    for o in range(len(pts)) if o != seat), default=0)

    def _ai_gain(self, state: USPState, seat: int, code: str, v: int,
                 memo: dict[str, tuple[float, float]] | None = None) -> float:
        """Electors gained by adding `v` points to `code`, less the points spent. `memo` keeps what
        does not depend on `v` (the chance before the pick, the rivals' room after it) across one
        decision's picks: three pyramid sizes share them, and a search calls this in every playout."""
        rounds_left = ROUNDS - state.round  # rounds after this one
        mine = sum(state.board[code][seat])
        known = memo.get(code) if memo is not None else None
        if known is None:
            before = self._hold_chance(state, seat, code, mine, self._capacity(state, seat, code, rounds_left + 1),
                                       rounds_left + 1, self._threat(state, seat, code, rounds_left + 1, mine))
            known = (before, self._threat(state, seat, code, rounds_left, mine))
            if memo is not None:
                memo[code] = known
        before, threat = known
        after = self._hold_chance(state, seat, code, mine + v, self._capacity(state, seat, code, rounds_left, v),
                                  rounds_left, threat)
        return ELECTORS[code] * (after - before) - 1.2 * v

    def determinize(self, state: USPState, seat: int, rng: Rng) -> USPState:  # the search's view of hidden cards
        return hidden.determinize(self, self.clone(state), seat, rng)

GAME = USPresident()
