"""Politics (Parker Brothers, 1952): county lines, pins, speech cards and
tabulations on doubles once the board is closed.

A turn is a chain of small moves so chat controls stay simple: `roll`, then
`capture <STATE> [n]` until the white dice are used up, a `speech <card>` at
any point after the roll, and `end`. Decisions the rulebook leaves to the
table are documented in docs/games/politics-1952.md.
"""
from __future__ import annotations

from functools import lru_cache
from typing import cast

from ..core import Action, Event, Game, Options, Result, RuleError, Seat
from ..rng import Rng
from ..wording import opening, possessive, subject, their, verb_for
from .ai import candidates, choose, evaluate
from .cards import BY_SLUG, SLUGS
from .model import (END, GROUP_TABLE, ROLL, SPEECHES, THROW, Capture, End, P52Options, P52State, Roll, Speech,
                    Throw)
from .rules import (board_closed, can_place, controller, counties_held, move_pin, northernmost, pinned, pins_on_lines,
                    place_name, room_left, throw_three_at, votes)
from .states import CODES, EV, GROUP, GROUPS, LINES, MAJORITY, NAMES, TOTAL_VOTES
from .view import P52PlayerView, P52StateView, P52TabulationView, P52View
from . import determinize as hidden

_ALIASES: dict[str, str] = {}
for _c in CODES:
    _ALIASES[_c.lower()] = _c
    _ALIASES[NAMES[_c].lower().replace(" ", "")] = _c
    _ALIASES[NAMES[_c].lower().replace(" ", "-")] = _c
    _ALIASES[NAMES[_c].lower().replace(" ", "_")] = _c
_GROUP_LIST = {g: ", ".join(codes) for g, codes in GROUPS.items()}
_CLOSED_NOTE = " **The board is now closed**: from now on doubles on the white dice count the votes."
# a turn's move before the first turn (the apply layer answers for a finished game)
THROW_FIRST = "First everyone throws for first player: use `throw`."
# result() is called after every action by the simulators: hand out one shared
# "not finished" Result instead of building a new model each time.
_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")



@lru_cache(maxsize=8192)
def _state_view(code: str, pos: tuple[int, ...], arrived: tuple[int, ...], capital: int | None) -> P52StateView:
    """One state's pins and holder, shared by every view that shows it unchanged: a move changes a
    state or two, and building all 48 anew was most of the bot's own time a move takes. Views are
    read, never changed, by whoever gets them (renderers, text boards, the store)."""
    best = max(pos)
    holder = capital if capital is not None else (northernmost(pos, arrived, best) if best else None)
    return {"code": code, "name": NAMES[code], "ev": EV[code], "group": GROUP[code], "lines": LINES[code],
            "pins": pins_on_lines(pos, arrived, LINES[code]), "capital": capital, "controller": holder}


class Politics1952(Game[P52State]):
    id = "politics-1952"
    title = "Politics (1952)"
    min_players = 2
    max_players = 6
    renderer_module = "render.politics_1952"
    text_board_module = "render.text.politics_1952"
    doc = "docs/games/politics-1952.md"
    State = P52State
    OptionsModel = P52Options
    actions = (Throw, Roll, Capture, Speech, End)
    summary = ("Parker Brothers' 1952 race for 266 of 531 electoral votes: dice, county lines and speech cards. "
               "2–6 players.")
    rules_text = (
        "**Politics (1952)** — 2–6 players. 48 states, 531 electoral votes: 266 elects you.\n"
        "• Each state has 7 county lines (Delaware, New Jersey and Rhode Island have 4), played west to east. "
        "The states sit in 6 dice groups (group 6 is New York, Ohio and Illinois).\n"
        "• Who begins: everyone `throw`s the two white dice; the highest begins (ties throw again). Play goes left.\n"
        "• Your turn: `roll` throws the coloured die (the group) and two white dice (how many counties). Then "
        "`capture NY 2` (or `capture NY` for one) until all are placed, in any states of that group. Each county "
        "moves your pin one line east in that state; the first pin on a line is northernmost, later ones below it. "
        "One more after the last line puts your pin in the capital: the state is yours outright and closed to "
        "everyone else. You must place every county you can; ones that fit nowhere are lost. Then `end`.\n"
        "• Whoever has the most counties in a state holds its whole vote; a tie goes to the pin further north on "
        "that line (who got there first).\n"
        "• Speech Cards: 3 each, secret (`/politics hand`). After your roll you may play one a turn: "
        "`speech farm`. Every county on it is taken, in any state; counties in a state won outright are lost.\n"
        "• The board is closed when every state has a pin. While it is closed, a roll with doubles on the white "
        "dice stops play and the votes are counted. 266 wins; otherwise all but the two leaders are out (ties: "
        "more counties on the board stays, then a throw; setting `elimination_ties=throw` skips the counties), "
        "their pins come off, and the two play on until the next count."
    )

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> P52State:
        opts = self.setup_options(seats, options, P52Options, name="Politics")
        n = len(seats)
        rng = Rng(seed)
        deck = list(SLUGS)
        rng.shuffle(deck)
        k = opts.speech_cards
        hands = [sorted(deck[i * k:(i + 1) * k], key=SLUGS.index) for i in range(n)]
        return P52State(
            seats=list(seats), options=opts, rng=rng.state,
            contenders=list(range(n)), opening=[None] * n,
            pos={c: [0] * n for c in CODES},
            arrived={c: [0] * n for c in CODES},
            capital={c: None for c in CODES},
            hands=hands, played=[[] for _ in range(n)], active=list(range(n)),
        )

    # ---- queries -------------------------------------------------------
    def may_act(self, state: P52State, seat: int) -> bool:
        if state.phase in ("roll", "move"):
            return seat == state.turn
        return seat in self.to_act(state)

    def not_your_turn(self, state: P52State, seat: int) -> str:
        if 0 <= seat < len(state.seats) and seat not in state.active:
            return ("You were eliminated at a tabulation (only the two with the most votes stay in), "
                    "so you have no more moves in this game.")
        return super().not_your_turn(state, seat)

    def to_act(self, state: P52State) -> list[int]:
        phase = state.phase
        if phase == "roll" or phase == "move":
            return [state.turn]
        if phase == "opening":
            return [s for s in state.contenders if state.opening[s] is None]
        return []

    def legal_actions(self, state: P52State, seat: int) -> list[Action]:
        phase = state.phase
        if phase == "roll":
            return [ROLL] if seat == state.turn else []
        if phase == "move":
            if seat != state.turn:
                return []
            out: list[Action] = []
            rem = state.remaining
            if rem > 0:
                capital = state.capital
                pos = state.pos
                for code, lines, captures in GROUP_TABLE[state.dice[0]]:
                    if capital[code] is None:
                        room = lines + 1 - pos[code][seat]
                        if room > 0:
                            out += captures[rem if rem < room else room]
            placeable = bool(out)
            if not state.speech_done:
                for slug in state.hands[seat]:
                    out.append(SPEECHES[slug])
            if not placeable:
                out.append(END)
            return out
        if phase == "opening":
            return [THROW] if seat in state.contenders and state.opening[seat] is None else []
        return []

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: P52State, seat: int, action: Action) -> list[Event]:
        if state.phase == "over":
            raise RuleError("This game is over.")
        if not 0 <= seat < len(state.seats):
            raise RuleError("Only a player can move in Politics.")
        kind = type(action)
        if kind is Capture:
            return self._capture(state, seat, action)  # type: ignore[arg-type]
        if kind is Roll:
            return self._roll(state, seat)
        if isinstance(action, Throw):
            return self._throw(state, seat)
        if isinstance(action, Speech):
            return self._speech(state, seat, action)
        if isinstance(action, End):
            return self._end(state, seat)
        raise RuleError("That is not a move in Politics.")

    def _name(self, state: P52State, seat: int) -> str:
        return state.seats[seat].name

    def _throw(self, state: P52State, seat: int) -> list[Event]:
        if state.phase != "opening":
            raise RuleError("The throw for first player is over: use `roll` on your turn.")
        if seat not in state.contenders or state.opening[seat] is not None:
            raise RuleError("You have already thrown for first player; wait for the others.")
        rng = Rng(state.rng)
        a, b = rng.die(), rng.die()
        state.rng = rng.state
        state.opening[seat] = a + b
        who = subject(self._name(state, seat), 'throws', start=True)
        events = [Event(f"{who} {a} + {b} = {a + b} for first player.")]
        if any(state.opening[s] is None for s in state.contenders):
            return events
        best = max(state.opening[s] for s in state.contenders)  # type: ignore[type-var]
        top = [s for s in state.contenders if state.opening[s] == best]
        if len(top) > 1:
            state.contenders = top
            state.opening = [None] * len(state.seats)
            tied = " and ".join(self._name(state, s) for s in top)
            events.append(Event(opening(f"{tied} tie on {best} and throw again.")))
            return events
        state.phase = "roll"
        state.turn = top[0]
        state.turns = 1
        state.contenders = []
        events.append(Event(f"{subject(self._name(state, top[0]), start=True)} threw highest and "
                                f"{verb_for(self._name(state, top[0]), 'begins')}: `roll`."))
        return events

    def _roll(self, state: P52State, seat: int) -> list[Event]:
        if state.phase != "roll":
            if state.phase == "opening":
                raise RuleError(THROW_FIRST)
            raise RuleError("You have already rolled this turn.")
        d = state.__dict__  # hot path: plain stores, the values are already valid
        d["rng"], g, a, b = throw_three_at(d["rng"])
        d["dice"] = [g, a, b]
        name = state.seats[seat].name
        if a == b and board_closed(state):
            rolls = subject(name, 'rolls', start=True)
            state.log = [f"{rolls} group {g}, {a} + {b}: doubles with the board closed."]
            events = [Event(f"{rolls} group {g} and {a} + {b} — **doubles with the board closed**: "
                            "play stops and the votes are counted.")]
            self._tabulate(state, seat, events)
            return events
        d["phase"] = "move"
        d["remaining"] = a + b
        d["speech_done"] = False
        line = f"{subject(name, 'rolls', start=True)} group {g} ({_GROUP_LIST[g]}) and {a} + {b} = {a + b} counties."
        d["log"] = [line]
        events = [Event(line)]
        if can_place(state, seat):
            return events
        d["remaining"] = 0
        events.append(Event(f"Every state of group {g} is won outright, so the {a + b} counties are lost."))
        self._maybe_end(state, seat, events, False)
        return events

    def _capture(self, state: P52State, seat: int, action: Capture) -> list[Event]:
        # The commonest move of the game: fields are read once and the pin moved
        # here rather than through room_left/advance_pin (same rules, see those helpers).
        d = state.__dict__
        if d["phase"] != "move":
            raise RuleError("Roll the dice first: `roll`." if state.phase == "roll" else THROW_FIRST)
        code = action.state if action.state in EV else _ALIASES.get(action.state.lower())
        if code is None:
            raise RuleError(f"'{action.state[:40]}' is not one of the 48 states; use its postal code, like NY.")
        g = d["dice"][0]
        if GROUP[code] != g:
            raise RuleError(f"The coloured die shows group {g} ({', '.join(GROUPS[g])}); "
                            f"{NAMES[code]} is in group {GROUP[code]}.")
        remaining = d["remaining"]
        if remaining <= 0:
            raise RuleError("You have placed every county of your white dice this turn.")
        capital = d["capital"]
        cap = capital[code]
        if cap is not None:
            who = "you" if cap == seat else self._name(state, cap)
            raise RuleError(f"{NAMES[code]} is won outright by {who} (pin in the capital): no more play there.")
        k = action.n
        if k < 1:
            raise RuleError("Capture at least one county.")
        if k > remaining:
            raise RuleError(f"You have only {remaining} count{'y' if remaining == 1 else 'ies'} "
                            "left to place this turn.")
        pos = d["pos"][code]
        old = pos[seat]
        lines = LINES[code]
        room = lines + 1 - old
        if k > room:
            raise RuleError(f"{NAMES[code]} has room for only {room} more of your counties "
                            "(its county lines and then the capital).")
        before, new, gained = move_pin(d, code, seat, k)
        d["remaining"] = remaining = remaining - k
        name = d["seats"][seat].name
        captures = subject(name, 'captures', start=True)
        if new > lines:
            line = (f"{captures} {k} in {NAMES[code]} → the capital: **{NAMES[code]} won outright** "
                    f"({EV[code]} votes).")
        elif gained:
            line = (f"{captures} {k} in {NAMES[code]} → line {new}/{lines}, taking control ({EV[code]} votes)"
                    + (f" from {d['seats'][before].name}." if before is not None else "."))
        else:
            line = f"{captures} {k} in {NAMES[code]} → line {new}/{lines}."
        if before is None and board_closed(state):
            line += _CLOSED_NOTE
        d["log"].append(line)
        events = [Event(line)]
        # still room where this capture went: the turn goes on without a search
        self._maybe_end(state, seat, events, remaining > 0 and (new <= lines or can_place(state, seat)))
        return events

    def _speech(self, state: P52State, seat: int, action: Speech) -> list[Event]:
        if state.phase != "move":
            raise RuleError("A Speech Card is played after your roll: `roll` first."
                            if state.phase == "roll" else THROW_FIRST)
        slug = action.card.lower()
        card = BY_SLUG.get(slug)
        if card is None:
            raise RuleError(f"'{action.card[:40]}' is not a Speech Card; `/politics hand` shows yours.")
        if slug not in state.hands[seat]:
            raise RuleError(f"You do not hold the Speech Card '{slug}'.")
        if state.speech_done:
            raise RuleError("Only one Speech Card may be played a turn.")
        state.hands[seat].remove(slug)
        state.played[seat].append(slug)
        state.speech_done = True
        name = self._name(state, seat)
        parts = []
        first_pin = False
        d = state.__dict__
        for code, k in card.counties:
            room = room_left(state, code, seat)
            if room == 0:
                cap = state.capital[code]
                who = "won outright by " + ("you" if cap == seat else self._name(state, cap))  # type: ignore[arg-type]
                parts.append(f"{code}: {k} lost ({who})")
                continue
            take = min(k, room)
            before, new, gained = move_pin(d, code, seat, take)
            first_pin = first_pin or before is None
            bit = f"{code} +{take} → {place_name(code, new)}"
            if take < k:
                bit += f" ({k - take} lost)"
            if new > LINES[code]:
                bit += " WON OUTRIGHT"
            elif gained:
                bit += " (control)"
            parts.append(bit)
        line = f"{subject(name, 'makes', start=True)} a speech — **{card.title}**: " + "; ".join(parts) + "."
        if first_pin and board_closed(state):
            line += _CLOSED_NOTE
        state.log.append(line)
        events = [Event(line)]
        self._maybe_end(state, seat, events)
        return events

    def _end(self, state: P52State, seat: int) -> list[Event]:
        if state.phase != "move":
            raise RuleError("Roll first: `roll`." if state.phase == "roll" else THROW_FIRST)
        if can_place(state, seat):
            raise RuleError(f"You still have {state.remaining} count{'y' if state.remaining == 1 else 'ies'} "
                            f"to place in group {state.dice[0]}; every county that can be placed must be.")
        events: list[Event] = []
        self._next_turn(state, events)
        return events

    def _maybe_end(self, state: P52State, seat: int, events: list[Event], placeable: bool | None = None) -> None:
        """End the turn by itself when nothing is left to choose."""
        if placeable if placeable is not None else can_place(state, seat):
            return
        if not state.speech_done and state.hands[seat]:
            return
        self._next_turn(state, events)

    def _next_turn(self, state: P52State, events: list[Event]) -> None:
        n = len(state.seats)
        d = state.__dict__  # hot path: plain stores, the values are already valid
        d["remaining"] = 0
        d["speech_done"] = False
        s = state.turn
        for _ in range(n):
            s = (s + 1) % n
            if s in state.active:
                break
        d["turn"] = s
        d["turns"] += 1
        d["phase"] = "roll"
        events.append(Event(f"{subject(state.seats[s].name, start=True)} to `roll`."))

    # ---- tabulation ----------------------------------------------------
    def _tabulate(self, state: P52State, thrower: int, events: list[Event]) -> None:
        tally = votes(state)
        active = list(state.active)
        names = [s.name for s in state.seats]
        listing = ", ".join(f"{names[s]} {tally[s]}" for s in sorted(active, key=lambda s: -tally[s]))
        entry: dict = {"turn": state.turns, "votes": [tally[s] if s in active else None for s in range(len(names))],
                       "eliminated": [], "winner": None, "throws": []}
        best = max(tally[s] for s in active)
        if best >= MAJORITY:
            w = next(s for s in active if tally[s] == best)
            state.winner = w
            state.phase = "over"
            state.outcome = f"{names[w]} is elected President with {best} of {TOTAL_VOTES} electoral votes."
            entry["winner"] = w
            state.tabulations.append(entry)
            events.append(Event(f"**Tabulation:** {listing}. {state.outcome}"))
            state.log.append(f"Tabulation: {listing}. {state.outcome}")
            return
        keep, notes = self._two_highest(state, active, tally, entry)
        out = [s for s in active if s not in keep]
        entry["eliminated"] = out
        for s in out:
            for code in CODES:
                if state.pos[code][s]:
                    state.pos[code][s] = 0
                    state.arrived[code][s] = 0
                    if state.capital[code] == s:
                        state.capital[code] = None
            state.hands[s] = []
        state.active = [s for s in active if s in keep]
        state.tabulations.append(entry)
        text = f"**Tabulation:** {listing}. Nobody has {MAJORITY}."
        if notes:
            text += " " + " ".join(notes)
        if out:
            text += (f" {' and '.join(names[s] for s in out)} {'are' if len(out) > 1 else 'is'} eliminated and "
                     f"their pins come off. {' and '.join(names[s] for s in state.active)} play on.")
            text += " The board is closed." if board_closed(state) else \
                f" The board is open again ({pinned(state)}/48 states pinned)."
        events.append(Event(text))
        state.log.append(text.replace("**", ""))
        state.turn = thrower
        self._next_turn(state, events)

    def _two_highest(self, state: P52State, active: list[int], tally: list[int],
                     entry: dict) -> tuple[list[int], list[str]]:
        """The two who stay in, with tie-break notes for the log."""
        if len(active) <= 2:
            return list(active), []
        names = [s.name for s in state.seats]
        use_counties = state.options.elimination_ties == "counties"
        held = {s: counties_held(state, s) for s in active}
        ranked = sorted(active, key=lambda s: (-tally[s], -held[s] if use_counties else 0))
        key = (lambda s: (tally[s], held[s])) if use_counties else (lambda s: (tally[s],))
        cut = key(ranked[1])
        sure = [s for s in ranked if key(s) > cut]
        tied = [s for s in ranked if key(s) == cut]
        notes: list[str] = []
        # A tie on votes for a place among the two is broken on counties: the
        # channel hears who was tied, their counties, and who that drops.
        cut_votes = tally[ranked[1]]
        vote_tied = [s for s in ranked if tally[s] == cut_votes]
        above = sum(tally[s] > cut_votes for s in ranked)
        if use_counties and above + len(vote_tied) > 2:
            counts = ", ".join(f"{names[s]} {held[s]}" for s in vote_tied)
            note = opening(f"{' and '.join(names[s] for s in vote_tied)} tie on {cut_votes} votes for "
                    f"{'a place' if above == 1 else 'the places'} among the two who stay, so counties on the "
                    f"board decide ({counts})")
            dropped = [s for s in vote_tied if s not in sure and s not in tied]
            if dropped:
                verb = "is" if len(dropped) == 1 else "are"
                note += f": {' and '.join(names[s] for s in dropped)} {verb} out with fewer counties."
            else:
                note += "."
            notes.append(note)
        if len(sure) + len(tied) <= 2:
            return sure + tied, notes
        need = 2 - len(sure)
        notes.append(opening(f"{' and '.join(names[s] for s in tied)} tie")
                     + (f" on {tally[tied[0]]} votes and {held[tied[0]]} counties" if use_counties
                        else f" on {tally[tied[0]]} votes") + " and throw the white dice:")
        rng = Rng(state.rng)
        order: list[int] = []
        pool = list(tied)
        while len(order) < need:
            throws = {s: rng.die() + rng.die() for s in pool}
            entry["throws"].append({str(s): t for s, t in throws.items()})
            notes.append(", ".join(f"{names[s]} {t}" for s, t in throws.items()) + ".")
            hi = max(throws.values())
            top = [s for s in pool if throws[s] == hi]
            if len(top) == 1:
                order.append(top[0])
                pool.remove(top[0])
            else:
                pool = top  # the highest throw again among themselves
        state.rng = rng.state
        return sure + order, notes

    # ---- views ---------------------------------------------------------
    def view(self, state: P52State, seat: int | None) -> P52View:
        n = len(state.seats)
        tally = votes(state)
        states = [_state_view(code, tuple(state.pos[code]), tuple(state.arrived[code]), state.capital[code])
                  for code in CODES]
        players: list[P52PlayerView] = []
        for s in range(n):
            players.append({
                "name": state.seats[s].name, "bot": state.seats[s].bot,
                "active": s in state.active, "votes": tally[s],
                "cards_left": len(state.hands[s]), "played": list(state.played[s]),
                "counties": counties_held(state, s),
                "states": sum(1 for st in states if st["controller"] == s),
                "opening": state.opening[s] if state.opening else None,
            })
        v: P52View = {
            "game": self.id, "phase": state.phase, "turn": state.turn if state.phase in ("roll", "move") else None,
            "turns": state.turns, "majority": MAJORITY, "total_votes": TOTAL_VOTES,
            "dice": {"group": state.dice[0], "white": state.dice[1:]} if state.dice else None,
            "remaining": state.remaining, "speech_done": state.speech_done,
            "board_closed": board_closed(state), "pinned": pinned(state),
            "players": players, "states": states, "contenders": list(state.contenders),
            # the state keeps each tabulation as the plain dict _tabulate wrote, with exactly these fields
            "tabulations": [cast(P52TabulationView, dict(t)) for t in state.tabulations], "log": list(state.log),
            "winner": state.winner, "outcome": state.outcome,
            "options": state.options.model_dump(),
        }
        if seat is not None and 0 <= seat < n:
            v["you"] = seat
            v["hand"] = [{"card": s, "title": BY_SLUG[s].title, "counties": BY_SLUG[s].listing()}
                         for s in state.hands[seat]]
        return v

    def result(self, state: P52State) -> Result:
        if state.phase != "over":
            return _NOT_OVER
        tally = votes(state)
        return Result(finished=True, winners=[state.winner] if state.winner is not None else [],
                      scores=[float(x) for x in tally], summary=state.outcome)

    def status_text(self, state: P52State) -> str:
        if state.phase == "over":
            return state.outcome
        if state.phase == "opening":
            waiting = [self._name(state, s) for s in self.to_act(state)]
            return f"Throwing for first player · waiting for {', '.join(waiting)} to `throw`"
        name = self._name(state, state.turn)
        board = "board closed" if board_closed(state) else f"board open ({pinned(state)}/48 states pinned)"
        if state.phase == "roll":
            what = "to `roll`"
        else:
            g, a, b = state.dice
            what = (f"to place {state.remaining} of {a + b} counties in group {g}"
                    + ("" if state.speech_done or not state.hands[state.turn] else ", may make a speech"))
        tally = votes(state)
        lead = " · ".join(f"{self._name(state, s)} {tally[s]}" for s in state.active)
        return f"Turn {state.turns}: {name} {what} · {board} · votes now: {lead}"

    def private_text(self, state: P52State, seat: int) -> str:
        if not 0 <= seat < len(state.seats):
            return ""
        # every line names its owner, so no two players' private texts share a line
        name = self._name(state, seat)
        if seat not in state.active:
            return (f"{subject(name, 'was', start=True)} eliminated at a tabulation; {their(name)} Speech Cards are "
                    "out of the game.")
        hand = state.hands[seat]
        if not hand:
            return f"{subject(name, 'has', start=True)} no Speech Cards left."
        lines = [f"{possessive(name, start=True)} Speech Cards (play one a turn after your roll: `speech <card>`):"]
        for s in hand:
            c = BY_SLUG[s]
            lines.append(f"• `{s}` — **{c.title}**: {c.listing()}. {c.text}")
        return "\n".join(lines)

    def token_label(self, state: P52State, seat: int, prefix: tuple[str, ...], token: str) -> str:
        if not prefix:
            return {"capture": "capture counties", "speech": "make a speech", "end": "end turn",
                    "roll": "roll the dice", "throw": "throw for first player"}.get(token, token)
        if prefix[0] == "capture" and len(prefix) == 1 and token in EV:
            me = state.pos[token][seat] if 0 <= seat < len(state.seats) else 0
            holder = controller(state, token)
            held = "nobody" if holder is None else ("you" if holder == seat else self._name(state, holder))
            pin = place_name(token, me) if me else "none"
            return f"{NAMES[token]} ({EV[token]}) · your pin: {pin} · held by {held}"
        if prefix[0] == "capture" and len(prefix) == 2 and token.isdigit():
            code = prefix[1]
            if code in EV and 0 <= seat < len(state.seats):
                return f"{token} → {place_name(code, state.pos[code][seat] + int(token))}"
        if prefix[0] == "speech" and token in BY_SLUG:
            c = BY_SLUG[token]
            return f"{c.title}: {c.listing()}"
        return token

    def describe_action(self, state: P52State, seat: int, action: Action) -> str:
        if isinstance(action, Capture):
            code = _ALIASES.get(action.state.lower(), action.state)
            if code in EV and 0 <= seat < len(state.seats):
                return (f"capture {action.n} in {NAMES[code]} ({EV[code]} votes) → "
                        f"{place_name(code, state.pos[code][seat] + action.n)}")
        if isinstance(action, Speech) and action.card in BY_SLUG:
            c = BY_SLUG[action.card]
            return f"speech: {c.title} ({c.listing()})"
        return action.text()

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: P52State, seat: int, rng: Rng) -> Action:
        return choose(self, state, seat, rng)

    def ai_candidates(self, state: P52State, seat: int, rng: Rng) -> list[Action] | None:
        return candidates(self, state, seat, rng)

    def ai_evaluate(self, state: P52State, seat: int) -> float | None:
        return evaluate(state, seat)


    def determinize(self, state: P52State, seat: int, rng: Rng) -> P52State:  # the search's view of hidden cards
        return hidden.determinize(hidden.private_copy(state), seat, rng)

GAME = Politics1952()
