"""Politics: The Game (politics-trivia): move on the real map of the states,
answer trivia for Electoral Votes, Popular Votes and cash, and reach 270 EV
with the most Popular Votes. On Discord the bot is the game's phone app: it
draws the questions, shuffles the answers, runs the 2-minute clock and keeps
the secrets (the right answer, a performer's word, a runoff answer).

The turn is a chain of small moves so chat controls stay simple:
`roll` (or `fly TX`), `move TX`, then `ask state|general|government`
(or `offer …` for a chip someone else holds) and `answer 2`. Decisions the
rulebook leaves to the table are documented in docs/games/politics-trivia.md.
"""
from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, Field

from ..core import SYSTEM, Action, Event, Game, Options, Result, RuleError, Seat, TextPrompt, Timer, resolve_seat, seat_token
from ..rng import Rng
from . import answers, cards, questions
from .usmap import LAND_BORDERS, STATE_NAMES

# ---------------------------------------------------------------- the board

EV: dict[str, int] = {
    'AL': 9, 'AK': 3, 'AZ': 11, 'AR': 6, 'CA': 54, 'CO': 10, 'CT': 7, 'DE': 3, 'DC': 3, 'FL': 30, 'GA': 16,
    'HI': 4, 'ID': 4, 'IL': 19, 'IN': 11, 'IA': 6, 'KS': 6, 'KY': 8, 'LA': 8, 'ME': 4, 'MD': 10, 'MA': 11,
    'MI': 15, 'MN': 10, 'MS': 6, 'MO': 10, 'MT': 4, 'NE': 5, 'NV': 6, 'NH': 4, 'NJ': 14, 'NM': 5, 'NY': 28,
    'NC': 16, 'ND': 3, 'OH': 17, 'OK': 7, 'OR': 8, 'PA': 19, 'RI': 4, 'SC': 9, 'SD': 3, 'TN': 11, 'TX': 40,
    'UT': 6, 'VT': 3, 'VA': 13, 'WA': 12, 'WV': 4, 'WI': 10, 'WY': 3,
}  # ev_2024 from /work/shared/data/electoral_votes.csv (a test checks it)
CODES: tuple[str, ...] = tuple(sorted(EV))
STATES: tuple[str, ...] = tuple(c for c in CODES if c != "DC")  # home states and State questions
NAMES: dict[str, str] = dict(STATE_NAMES)
TOTAL_EV = sum(EV.values())  # 538
MAJORITY = 270
DC = "DC"
# Sea lanes, like the board's insets: Alaska is reached from Washington, Hawaii from California.
SEA_LANES: tuple[tuple[str, str], ...] = (("AK", "WA"), ("HI", "CA"))


def _adjacency() -> dict[str, tuple[str, ...]]:
    adj = {c: set(LAND_BORDERS[c]) for c in CODES}
    for a, b in SEA_LANES:
        adj[a].add(b)
        adj[b].add(a)
    return {c: tuple(sorted(n)) for c, n in adj.items()}


ADJ: dict[str, tuple[str, ...]] = _adjacency()
MAX_STEPS = 12


def _layers(start: str) -> list[frozenset[str]]:
    """layers[k]: every state where a walk of exactly k steps from `start` can end."""
    out = [frozenset([start])]
    for _ in range(MAX_STEPS):
        out.append(frozenset(n for c in out[-1] for n in ADJ[c]))
    return out


LAYERS: dict[str, list[frozenset[str]]] = {c: _layers(c) for c in CODES}
# REACH[start][k]: the end states of a k-step move, sorted (never the start itself)
REACH: dict[str, list[tuple[str, ...]]] = {
    c: [tuple(sorted(x for x in LAYERS[c][k] if x != c)) for k in range(MAX_STEPS + 1)] for c in CODES}


def walk(start: str, end: str, steps: int) -> list[str]:
    """One walk of exactly `steps` borders from start to end (for the picture's path)."""
    layers = LAYERS[start]
    path = [end]
    for k in range(steps - 1, -1, -1):
        here = path[-1]
        prev = next(p for p in ADJ[here] if p in layers[k]) if k else start
        path.append(prev)
    path.reverse()
    return path


_ALIASES: dict[str, str] = {}
for _c in CODES:
    _ALIASES[_c.lower()] = _c
    for _sep in ("", "-", "_"):
        _ALIASES[NAMES[_c].lower().replace(" ", _sep)] = _c
_ALIASES["dc"] = DC
_ALIASES["washingtondc"] = DC
_ALIASES["d.c."] = DC


def code_of(text: str) -> str | None:
    return _ALIASES.get(text.strip().lower())


# ---------------------------------------------------------------- content

GERRY = {c.id: c for c in cards.GERRYMANDERS}
WILD = {w.id: w for w in cards.WILDCARDS}
GUESSING = ("charades", "drawing", "direct")
JUDGED = ("physical", "sing")
CATEGORIES = ("state", "general", "government")
MAX_CUSTOM = 2000  # custom questions kept per server


@lru_cache(maxsize=1)
def _bank_index() -> dict[str, object]:
    return {q.id: q for q in questions.bank()}


@lru_cache(maxsize=8)
def _pool(category: str, free_text: bool) -> tuple:
    return tuple(q for q in questions.by_category(category) if q.free_text or not free_text)


@lru_cache(maxsize=128)
def _state_pool(code: str, free_text: bool) -> tuple:
    return tuple(q for q in questions.about_state(code) if q.free_text or not free_text)


def _match(given: str, q) -> bool:
    try:
        return bool(answers.matches(given, q))
    except Exception:  # a content bug must never break a game
        return answers.normalise(given) == answers.normalise(q.answer)


def _secret_question(card) -> object:
    """A wildcard's secret as a Question, so guesses use the same forgiving matcher."""
    wrong = "—" if card.secret != "—" else "-"
    return questions.Question(id=f"wild-{card.id}", category="general", text=card.text[:300] or "?",
                            answer=(card.secret or "?")[:80], wrong=(wrong,), accept=tuple(card.accept))


def _h(text: str) -> float:
    """A deterministic number in [0, 1) from a string (the AI's knowledge)."""
    return (zlib.crc32(text.encode()) & 0xFFFFFF) / float(1 << 24)


# ---------------------------------------------------------------- settings and state

class TriviaOptions(Options):
    max_rounds: int = Field(20, ge=0, le=500, description="Speed play starts by itself after this many rounds "
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
                                                           "broken by Electoral Votes")


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
    speed_due: bool = False
    headline: str = ""
    log: list[str] = []
    winner: int | None = None
    outcome: str = ""


# ---------------------------------------------------------------- actions

class Discard(Action):
    """Return one of your three opening Gerrymander cards to the deck (you keep the other two)."""
    verb = "discard"
    card: int


class Home(Action):
    """Choose your home state (in order of the opening roll; never D.C., one candidate per state)."""
    verb = "home"
    state: str


class Roll(Action):
    """Roll the two dice (doubles draw a Wildcard first), then `move` that many steps."""
    verb = "roll"


class Fly(Action):
    """Fly to any other state for $2M instead of rolling; your turn ends there."""
    verb = "fly"
    state: str


class Stay(Action):
    """In D.C.: skip this turn and collect $10M (at most 4 turns in a row)."""
    verb = "stay"


class Move(Action):
    """Move your piece to a state exactly as many steps away as you rolled (any direction, not where you started)."""
    verb = "move"
    state: str


class Ask(Action):
    """Take a question: state or general (free), government ($2M)."""
    verb = "ask"
    category: str


class Offer(Action):
    """Offer to buy the chip of the state you are in from its holder: cash ($M), Popular Votes (M) and chips (TX,OH or -)."""
    verb = "offer"
    cash: int = 0
    pv: int = 0
    chips: str = "-"


class DealAnswer(Action):
    """Accept (yes) or decline (no) the offer for your chip."""
    verb = "deal"
    accept: bool


class Answer(Action):
    """Answer the open multiple-choice question with the number of your choice."""
    verb = "answer"
    choice: int


class CallHelp(Action):
    """Ask the other candidates for help with your question."""
    verb = "callhelp"


class Help(Action):
    """Offer help on another candidate's question, free (0) or for a price paid up front (cash or pv)."""
    verb = "help"
    price: int = 0
    unit: str = "cash"


class NoHelp(Action):
    """Say you will not help with this question."""
    verb = "nohelp"


class Hire(Action):
    """Accept a candidate's offer of help (you pay their price now)."""
    verb = "hire"
    helper: str


class Decline(Action):
    """Turn down a candidate's offer of help."""
    verb = "decline"
    helper: str


class Suggest(Action):
    """As the hired helper, whisper the choice you think is right (only the asker sees it)."""
    verb = "suggest"
    choice: int


class Claim(Action):
    """Claim D.C.'s 3 electoral votes after your right Government answer (before the turn ends)."""
    verb = "claim"


class End(Action):
    """End your turn (without a question, or without claiming D.C.)."""
    verb = "end"


class Play(Action):
    """Play a Gerrymander card from your hand during your turn (turn in what it needs, take its reward)."""
    verb = "play"
    card: int


class Perform(Action):
    """Start your Wildcard performance (for 'direct another', name the candidate who acts it out)."""
    verb = "perform"
    actor: str = ""


class GiveUp(Action):
    """Give up your Wildcard challenge (it counts as failed)."""
    verb = "giveup"


class Judge(Action):
    """Judge the performer's challenge: yes (done) or no."""
    verb = "judge"
    success: bool


class Guess(Action):
    """Type a free-text answer (runoff, speed play) or a guess at a charade, drawing or directed scene."""
    verb = "guess"
    rest_field = "answer"
    answer: str


class PassAnswer(Action):
    """Hand in a blank answer in a runoff or speed-play round."""
    verb = "pass"


class Overrule(Action):
    """Overrule the bot's verdict on a candidate's free-text answer (right ↔ wrong)."""
    verb = "overrule"
    seat: str


class Ok(Action):
    """Accept the bot's verdicts on the last free-text answers."""
    verb = "ok"


class Wrapup(Action):
    """Vote to wrap up: with a majority, speed play starts after this turn."""
    verb = "wrapup"


class Timeout(Action):
    """(the bot's clock) A deadline ran out: the documented default happens."""
    verb = "timeout"


_ROLL, _STAY, _END, _CLAIM, _CALL, _NOHELP, _GIVEUP, _PASS, _OK, _WRAPUP = (
    Roll(), Stay(), End(), Claim(), CallHelp(), NoHelp(), GiveUp(), PassAnswer(), Ok(), Wrapup())
_FLY = {c: Fly(state=c) for c in CODES}
_MOVE = {c: Move(state=c) for c in CODES}
_HOME = {c: Home(state=c) for c in STATES}
_ASK = {c: Ask(category=c) for c in CATEGORIES}
_ANSWER = {i: Answer(choice=i) for i in range(1, 7)}
_SUGGEST = {i: Suggest(choice=i) for i in range(1, 7)}
_JUDGE = {True: Judge(success=True), False: Judge(success=False)}
_DEAL = {True: DealAnswer(accept=True), False: DealAnswer(accept=False)}
HELP_CASH = (0, 1, 2, 3, 5)
HELP_PV = (5, 10)
OFFER_CASH = (1, 2, 3, 5, 8, 10, 15, 20, 30, 50)
OFFER_PV = (5, 10, 20, 30, 50)
_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")


def _ev(text: str, to: list[int] | None = None) -> Event:
    return Event(text=text, to=to)


def _money(n: int) -> str:
    return f"${n}M"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def ev_of(state: TriviaState, seat: int) -> int:
    return sum(EV[c] for c, o in state.chips.items() if o == seat)


def chips_of(state: TriviaState, seat: int) -> list[str]:
    return [c for c in CODES if state.chips[c] == seat]


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


# ---------------------------------------------------------------- the game

class PoliticsTrivia(Game[TriviaState]):
    id = "politics-trivia"
    title = "Politics: The Game (trivia)"
    min_players = 2
    max_players = 8
    State = TriviaState
    OptionsModel = TriviaOptions
    actions = (Discard, Home, Roll, Fly, Stay, Move, Ask, Offer, DealAnswer, Answer, CallHelp, Help, NoHelp, Hire,
               Decline, Suggest, Claim, End, Play, Perform, GiveUp, Judge, Guess, PassAnswer, Overrule, Ok, Wrapup,
               Timeout)
    listens_to_chat = True
    server_data_kinds = ("questions",)
    summary = ("Trivia across the real map: State, General and Government questions for EV chips, Popular Votes "
               "and cash; 270 EV and the most Popular Votes win. 2–8 players.")
    rules_text = (
        "**Politics: The Game (trivia)** — 2–8 candidates, 50 states + D.C. (538 EV). Win with **270+ EV and the "
        "most Popular Votes**. Everyone starts with $10M.\n"
        "• Setup: 3 Gerrymander cards each, `discard` one. The dice pick who chooses a `home` state first "
        "(never D.C.); the lowest roll plays first, then down the seat list (counter-clockwise).\n"
        "• Your turn: `fly TX` anywhere for $2M (turn ends), or `roll` two dice and `move` exactly that many "
        "steps over real borders (Alaska–Washington and Hawaii–California are sea lanes), any direction, not back "
        "where you began. Doubles draw a Wildcard first.\n"
        "• Then `ask state` or `ask general` (free) or `ask government` ($2M); `answer 1`–`4` within 2 minutes. "
        "Right State answer: the state's EV chip if free (else 5M PV). Right General: 10M PV. Right Government: "
        "$5M, and the first to `claim` it after a right Government answer takes D.C.'s 3 EV.\n"
        "• A chip held by someone else: `offer <cash> <pv> <chips>` (all in hand, no IOUs). If they `deal yes` "
        "and you then answer right, you pay and take the chip.\n"
        "• Help: `callhelp`, or anyone may `help <price>`; `hire` pays the price up front, the helper `suggest`s "
        "a choice only you see.\n"
        "• D.C.: landing there ends the turn and pays $10M; `stay` for $10M more a turn, at most 4 in a row. "
        "Debts you cannot pay send you there; they are paid before you leave.\n"
        "• Gerrymander cards (`play <id>`, your turn): turn in what it needs, take its reward, draw a new one.\n"
        "• Wildcards: charades, drawing and 'direct another' (the bot DMs the secret; guesses typed in the channel "
        "are recognised), physical and sing/recite (the others `judge`), campaign events (the bot applies them). "
        "Missing EV/PV cost $1M each; missing cash sends you to D.C.\n"
        "• 270+ EV without the most PV: a **runoff** against the PV leader — 5 General + 5 State questions, no "
        "choices, typed answers (`guess …`) in secret, no help; most right takes the other's votes and money.\n"
        "• **Speed play** after `max_rounds` rounds or a majority `wrapup` vote: head-to-head rounds of 5 General "
        "questions from the lowest EV up; the winner takes the loser's votes; last one standing wins.\n"
        "• Free-text verdicts can be overruled by the other players (majority) with `overrule`.")

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> TriviaState:
        opts = options if isinstance(options, TriviaOptions) else TriviaOptions(**options.model_dump())
        n = len(seats)
        if not self.min_players <= n <= self.max_players:
            raise RuleError(f"Politics: The Game takes 2 to 8 candidates, not {n}.")
        rng = Rng(seed)
        players = [PlayerState() for _ in range(n)]
        gdeck: list[int] = []
        if opts.gerrymander:
            gdeck = sorted(GERRY)
            rng.shuffle(gdeck)
            for p in players:
                p.dealt = sorted(gdeck[:3])
                gdeck = gdeck[3:]
        wdeck: list[str] = []
        if opts.wildcards:
            wdeck = sorted(WILD)
            rng.shuffle(wdeck)
        # the opening roll: highest chooses a home first; ties are rolled off among themselves
        keys: dict[int, tuple] = {}
        for s in range(n):
            a, b = rng.die(), rng.die()
            players[s].roll = a + b
            keys[s] = (a + b,)
        order = sorted(range(n), key=lambda s: (-keys[s][0], s))
        for _ in range(50):
            groups: dict[tuple, list[int]] = {}
            for s in order:
                groups.setdefault(keys[s], []).append(s)
            tied = [g for g in groups.values() if len(g) > 1]
            if not tied:
                break
            for g in tied:
                for s in g:
                    keys[s] = keys[s] + (rng.die() + rng.die(),)
            order = sorted(range(n), key=lambda s: tuple(-k for k in keys[s]) + (s,))
        server = server or {}
        used = [str(x) for x in server.get("used", []) if isinstance(x, str)]
        custom = [dict(r) for r in server.get("questions", []) if isinstance(r, dict)]
        state = TriviaState(seats=list(seats), options=opts, rng=rng.state, players=players,
                            chips={c: None for c in CODES}, home_order=order, first=order[-1], turn=order[-1],
                            gdeck=gdeck, wdeck=wdeck, used=used, custom=custom)
        rolls = ", ".join(f"{seats[s].name} {players[s].roll}" for s in order)
        state.headline = f"Opening roll: {rolls}. {seats[order[0]].name} chooses a home state first."
        state.log.append(state.headline)
        return state

    # ---- who may act -----------------------------------------------------
    def to_act(self, state: TriviaState) -> list[int]:
        ph = state.phase
        if ph in ("start", "move", "choose", "claim"):
            return [state.turn]
        if ph == "question":
            q = state.q
            out = [q.asker]
            out += [s for s in q.responders if s not in out]
            if q.helper is not None and q.hint is None and q.helper not in out:
                out.append(q.helper)
            return out
        if ph == "deal":
            return [state.deal.holder]
        if ph == "homes":
            out = [s for s, p in enumerate(state.players) if p.dealt]
            chooser = self._chooser(state)
            if chooser is not None and chooser not in out:
                out.append(chooser)
            return sorted(out)
        if ph == "wildcard":
            w = state.wild
            if w.stage == "ready":
                return [w.performer]
            card = WILD[w.card]
            if card.kind in JUDGED:
                voted = {v[0] for v in w.votes}
                return [s for s in self._judges(state) if s not in voted]
            return []
        if ph == "h2h":
            h = state.h2h
            return [s for s, a in zip(h.seats, h.answers) if a is None]
        if ph == "review":
            h = state.h2h
            return [s for s in h.reviewers if s not in h.oks]
        return []

    def may_act(self, state: TriviaState, seat: int) -> bool:
        if state.phase == "over" or not 0 <= seat < len(state.seats):
            return False
        if seat in self.to_act(state):
            return True
        ph = state.phase
        if ph == "question" and self._may_offer_help(state, seat):
            return True
        if ph == "wildcard" and state.wild.stage == "performing" and WILD[state.wild.card].kind in GUESSING:
            return True  # guesses (and the performer's give-up)
        if ph in ("start", "move", "choose", "deal", "question", "claim", "wildcard") and not state.players[seat].wrapup:
            return True  # the wrap-up vote
        return False

    def not_your_turn(self, state: TriviaState, seat: int) -> str:
        h = state.h2h
        if state.phase == "h2h" and h is not None and seat in h.seats:
            other = h.seats[1 - h.seats.index(seat)]
            return (f"You have already handed in your answer to this question; waiting for "
                    f"{self._name(state, other)}.")
        if state.phase == "review" and h is not None and seat in h.reviewers:
            return "You have already reviewed these verdicts."
        return super().not_your_turn(state, seat)

    def _chooser(self, state: TriviaState) -> int | None:
        for s in state.home_order:
            if state.players[s].home is None:
                return s
        return None

    def _judges(self, state: TriviaState) -> list[int]:
        return [s for s in range(len(state.seats)) if s != state.wild.performer and not state.players[s].out]

    def _may_offer_help(self, state: TriviaState, seat: int) -> bool:
        q = state.q
        if q is None or seat == q.asker or q.helper is not None:
            return False
        return seat not in q.declined and all(o[0] != seat for o in q.offers)

    # ---- legal actions -------------------------------------------------
    def legal_actions(self, state: TriviaState, seat: int) -> list[Action]:
        ph = state.phase
        if ph == "over" or not 0 <= seat < len(state.seats):
            return []
        p = state.players[seat]
        out: list[Action] = []
        if ph == "homes":
            if p.dealt:
                out.extend(Discard(card=c) for c in p.dealt)
            if self._chooser(state) == seat:
                taken = {x.home for x in state.players}
                out.extend(_HOME[c] for c in STATES if c not in taken)
            return out
        if ph in ("h2h", "review"):
            h = state.h2h
            if ph == "h2h":
                # Answers are free text (text_prompts: `guess …`); `pass` (a blank answer) is
                # typed, never a lone button that could be pressed by mistake. AI seats answer
                # through ai_action; random seats let the clock run out (a blank answer).
                return out
            if seat in h.reviewers and seat not in h.oks:
                out.append(_OK)
                out.extend(Overrule(seat=self._tok(state, a)) for a in self._overrulable(state, seat))
            return out
        mine = seat == state.turn
        if ph == "start" and mine:
            if p.at == DC:
                if p.dc_turns < 4:
                    out.append(_STAY)
                if p.debt <= 0 or p.dc_turns >= 4:
                    out.append(_ROLL)
                    if p.cash >= 2:
                        out.extend(_FLY[c] for c in CODES if c != DC)
            else:
                out.append(_ROLL)
                if p.cash >= 2:
                    out.extend(_FLY[c] for c in CODES if c != p.at)
            out.extend(self._playable(state, seat))
        elif ph == "move" and mine:
            out.extend(_MOVE[c] for c in REACH[p.at][sum(state.dice)])
            out.extend(self._playable(state, seat))
        elif ph == "choose" and mine:
            out.append(_ASK["state"])
            out.append(_ASK["general"])
            if p.cash >= 2:
                out.append(_ASK["government"])
            out.extend(self._offers(state, seat))
            out.extend(self._playable(state, seat))
            out.append(_END)
        elif ph == "claim" and mine:
            out.append(_CLAIM)
            out.extend(self._playable(state, seat))
            out.append(_END)
        elif ph == "deal" and seat == state.deal.holder:
            out.extend((_DEAL[True], _DEAL[False]))
        elif ph == "question":
            q = state.q
            k = len(q.choices)
            if seat == q.asker:
                out.extend(_ANSWER[i] for i in range(1, k + 1))
                if not q.called and q.helper is None and len(state.seats) > 1:
                    out.append(_CALL)
                for s, price, unit in q.offers:
                    if self._can_pay(state, seat, price, unit):
                        out.append(Hire(helper=self._tok(state, s)))
                    out.append(Decline(helper=self._tok(state, s)))
            if seat == q.helper and q.hint is None:
                out.extend(_SUGGEST[i] for i in range(1, k + 1))
            if self._may_offer_help(state, seat):
                asker = state.players[q.asker]
                out.extend(Help(price=c, unit="cash") for c in HELP_CASH if c <= asker.cash)
                out.extend(Help(price=v, unit="pv") for v in HELP_PV if v <= asker.pv)
                if seat in q.responders:
                    out.append(_NOHELP)
        elif ph == "wildcard":
            w = state.wild
            card = WILD[w.card]
            if seat == w.performer:
                if w.stage == "ready":
                    if card.kind == "direct":
                        out.extend(Perform(actor=self._tok(state, s)) for s in self._judges(state))
                    else:
                        out.append(Perform())
                out.append(_GIVEUP)
            elif w.stage == "performing" and card.kind in JUDGED and seat in self._judges(state):
                if all(v[0] != seat for v in w.votes):
                    out.extend((_JUDGE[True], _JUDGE[False]))
        if ph == "start" and mine and not p.wrapup:
            out.append(_WRAPUP)  # any candidate may also type `wrapup` at any time of ordinary play
        return out

    def _tok(self, state: TriviaState, seat: int) -> str:
        return seat_token([s.name for s in state.seats], seat)

    def _playable(self, state: TriviaState, seat: int) -> list[Action]:
        if state.deal is not None:
            return []
        return [Play(card=c) for c in state.players[seat].hand if self._can_play(state, seat, c)]

    def _can_play(self, state: TriviaState, seat: int, cid: int) -> bool:
        card = GERRY[cid]
        p = state.players[seat]
        return (p.cash >= card.need_cash and p.pv >= card.need_pv
                and all(state.chips.get(c) == seat for c in card.need_chips))

    def _offers(self, state: TriviaState, seat: int) -> list[Action]:
        p = state.players[seat]
        holder = state.chips.get(p.at) if p.at else None
        if state.offer_made or state.deal is not None or holder is None or holder == seat:
            return []
        out: list[Action] = [Offer(cash=c, pv=0, chips="-") for c in OFFER_CASH if c <= p.cash]
        out.extend(Offer(cash=0, pv=v, chips="-") for v in OFFER_PV if v <= p.pv)
        out.extend(Offer(cash=0, pv=0, chips=c) for c in chips_of(state, seat) if c != p.at)
        return out

    def _can_pay(self, state: TriviaState, seat: int, price: int, unit: str) -> bool:
        p = state.players[seat]
        return (p.cash if unit == "cash" else p.pv) >= price

    def _overrulable(self, state: TriviaState, reviewer: int) -> list[int]:
        """Answerers whose verdict `reviewer` may still vote to overrule."""
        h = state.h2h
        out = []
        for i, a in enumerate(h.seats):
            if not (h.answers[i] or "").strip():
                continue
            if [reviewer, a] in h.overrules:
                continue
            if reviewer in h.seats:  # no other players: a contestant may only concede the other's answer
                if a == reviewer or h.verdicts[i]:
                    continue
            out.append(a)
        return out

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: TriviaState, seat: int, action: Action) -> list[Event]:
        if state.phase == "over":
            raise RuleError("This game is over.")
        if isinstance(action, Timeout):
            if seat != SYSTEM:
                raise RuleError("Only the bot's clock can call time.")
            drew = state.drew
            state.drew = False
            try:
                events = self._timeout(state)
            except RuleError:
                state.drew = drew
                raise
        else:
            if not 0 <= seat < len(state.seats):
                raise RuleError("Only a candidate can move in Politics: The Game.")
            handler = self._HANDLERS.get(type(action))
            if handler is None:
                raise RuleError("That is not a move in Politics: The Game.")
            drew = state.drew
            state.drew = False
            try:
                events = handler(self, state, seat, action)
            except RuleError:
                state.drew = drew  # refused: nothing changed
                raise
        publics = [e.text for e in events if e.to is None]
        if publics:
            state.headline = publics[-1].split("\n")[0][:300]
            state.log.extend(publics)
            if len(state.log) > 40:
                del state.log[:-40]
        return events

    def _name(self, state: TriviaState, seat: int) -> str:
        return state.seats[seat].name

    def _wrong_turn(self, state: TriviaState, seat: int, what: str) -> RuleError:
        if seat != state.turn:
            return RuleError(self.not_your_turn(state, seat))
        return RuleError(what)

    # homes ------------------------------------------------------------------
    def _discard(self, state: TriviaState, seat: int, a: Discard) -> list[Event]:
        p = state.players[seat]
        if not p.dealt:
            raise RuleError("You have no opening Gerrymander cards to return." if state.phase == "homes"
                            else "Gerrymander cards are returned only at the start of the game.")
        if a.card not in p.dealt:
            raise RuleError(f"Card {a.card} is not one of your three opening Gerrymander cards.")
        p.hand = [c for c in p.dealt if c != a.card]
        p.dealt = []
        state.gdeck.append(a.card)
        events = [_ev(f"{self._name(state, seat)} returns one Gerrymander card to the deck and keeps two."),
                  _ev(f"You keep Gerrymander cards {', '.join(str(c) for c in p.hand)}.", to=[seat])]
        self._maybe_begin(state, events)
        return events

    def _home(self, state: TriviaState, seat: int, a: Home) -> list[Event]:
        if state.phase != "homes":
            raise RuleError("Home states were chosen at the start of the game.")
        chooser = self._chooser(state)
        if chooser != seat:
            who = self._name(state, chooser) if chooser is not None else "nobody"
            raise RuleError(f"Home states are chosen in order of the opening roll: it is {who}'s choice now.")
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        if code == DC:
            raise RuleError("D.C. cannot be a home state.")
        owner = next((s for s, p in enumerate(state.players) if p.home == code), None)
        if owner is not None:
            raise RuleError(f"{NAMES[code]} is already {self._name(state, owner)}'s home state; one candidate per state.")
        p = state.players[seat]
        p.home = p.at = code
        state.wait += 1
        events = [_ev(f"{self._name(state, seat)} chooses {NAMES[code]} as home state.")]
        self._maybe_begin(state, events)
        return events

    def _maybe_begin(self, state: TriviaState, events: list[Event]) -> None:
        if any(p.dealt for p in state.players) or self._chooser(state) is not None:
            return
        if state.gdeck:
            rng = Rng(state.rng)
            rng.shuffle(state.gdeck)
            state.rng = rng.state
        events.append(_ev(f"The campaign begins. {self._name(state, state.first)} had the lowest roll and goes "
                          "first; play passes down the seat list."))
        self._begin_turn(state, state.first, events)

    # turns ------------------------------------------------------------------
    def _begin_turn(self, state: TriviaState, seat: int, events: list[Event]) -> None:
        n = len(state.seats)
        for _ in range(4 * n + 4):
            state.turn = seat
            state.turns += 1
            state.dice = None
            state.moved = state.offer_made = False
            state.deal = None
            state.extra = 0
            state.q = None
            state.wild = None
            state.pending_dice = 0
            state.phase = "start"
            state.wait += 1
            p = state.players[seat]
            if p.at == DC and p.dc_turns >= 4 and p.debt > 0:
                events.append(_ev(f"{self._name(state, seat)} has spent 4 turns in D.C.; the bank writes off the "
                                  f"remaining debt of {_money(p.debt)}."))
                p.debt = 0
            if p.skip <= 0:
                events.append(_ev(f"{self._name(state, seat)}'s turn" + (" (in D.C.)." if p.at == DC else
                                                                         f" (in {NAMES.get(p.at, p.at)}).")))
                return
            p.skip -= 1
            line = f"{self._name(state, seat)} misses this turn."
            if p.at == DC and p.dc_turns < 4:
                line += " " + self._dc_collect(state, seat)
            events.append(_ev(line))
            if self._round_limit(state):
                self._start_speed(state, events)
                return
            seat = self._next_seat(state, seat)
        # everyone keeps skipping (cannot really happen): just hand the turn on
        state.phase = "start"

    def _next_seat(self, state: TriviaState, seat: int) -> int:
        return (seat - 1) % len(state.seats)  # counter-clockwise: down the seat list

    def _round_limit(self, state: TriviaState) -> bool:
        limit = state.options.max_rounds
        return state.speed_due or (limit > 0 and state.turns >= limit * len(state.seats))

    def _end_turn(self, state: TriviaState, events: list[Event]) -> None:
        if state.phase in ("over", "h2h", "review"):
            return
        if self._round_limit(state):
            self._start_speed(state, events)
            return
        self._begin_turn(state, self._next_seat(state, state.turn), events)

    def _dc_collect(self, state: TriviaState, seat: int) -> str:
        p = state.players[seat]
        p.dc_turns += 1
        p.cash += 10
        line = f"{self._name(state, seat)} collects $10M in D.C. (turn {p.dc_turns} of 4)"
        if p.debt:
            paid = min(p.debt, p.cash)
            p.cash -= paid
            p.debt -= paid
            line += f" and pays {_money(paid)} of debt" + (f" ({_money(p.debt)} still owed)" if p.debt else "")
        return line + "."

    def _go_dc(self, state: TriviaState, seat: int) -> str:
        p = state.players[seat]
        if p.at == DC:
            return ""
        p.at = DC
        p.dc_turns = 0
        return self._dc_collect(state, seat)

    def _roll(self, state: TriviaState, seat: int, a: Roll) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "You have already moved this turn.")
        p = state.players[seat]
        if p.at == DC and p.debt > 0 and p.dc_turns < 4:
            raise RuleError(f"You owe {_money(p.debt)}: all debts are paid before you leave D.C., so `stay`.")
        rng = Rng(state.rng)
        d1, d2 = rng.die(), rng.die()
        state.rng = rng.state
        state.dice = [d1, d2]
        state.moved = True
        if p.at == DC:
            p.dc_turns = 0
        name = self._name(state, seat)
        events = [_ev(f"{name} rolls {d1} + {d2} = {d1 + d2}" + (" — doubles!" if d1 == d2 else "."))]
        if d1 == d2 and state.wdeck:
            state.pending_dice = d1 + d2
            self._draw_wildcard(state, seat, events)
            return events
        self._to_move(state, events)
        return events

    def _to_move(self, state: TriviaState, events: list[Event]) -> None:
        state.phase = "move"
        state.wait += 1

    def _fly(self, state: TriviaState, seat: int, a: Fly) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "Flying replaces the roll: it is only possible before you roll.")
        p = state.players[seat]
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        if code == p.at:
            raise RuleError(f"You are already in {NAMES[code]}; fly to another state.")
        if p.at == DC and p.debt > 0 and p.dc_turns < 4:
            raise RuleError(f"You owe {_money(p.debt)}: all debts are paid before you leave D.C., so `stay`.")
        if p.cash < 2:
            raise RuleError(f"A flight costs $2M and you have {_money(p.cash)}.")
        p.cash -= 2
        frm = p.at
        p.at = code
        if frm == DC:
            p.dc_turns = 0
        state.dice = None
        state.path = [frm, code] if frm else [code]
        name = self._name(state, seat)
        line = f"{name} flies to {NAMES[code]} for $2M; the turn ends there."
        if code == DC:
            p.at = frm
            line = f"{name} flies to D.C. for $2M. " + self._go_dc(state, seat)
        events = [_ev(line)]
        self._end_turn(state, events)
        return events

    def _stay(self, state: TriviaState, seat: int, a: Stay) -> list[Event]:
        if state.phase != "start" or seat != state.turn:
            raise self._wrong_turn(state, seat, "You can only stay in D.C. at the start of your turn.")
        p = state.players[seat]
        if p.at != DC:
            raise RuleError("Only a candidate in D.C. can stay there to collect $10M.")
        if p.dc_turns >= 4:
            raise RuleError("You may stay in D.C. at most 4 turns in a row: roll or fly out.")
        events = [_ev(self._dc_collect(state, seat))]
        self._end_turn(state, events)
        return events

    def _move(self, state: TriviaState, seat: int, a: Move) -> list[Event]:
        if state.phase != "move" or seat != state.turn:
            raise self._wrong_turn(state, seat, "Roll first: `roll`." if state.phase == "start"
                                   else "You have already moved this turn.")
        code = code_of(a.state)
        if code is None:
            raise RuleError(f"'{a.state[:40]}' is not a state; use a postal code such as TX.")
        p = state.players[seat]
        steps = sum(state.dice)
        if code == p.at:
            raise RuleError("You may not end your move where you started the turn.")
        if code not in LAYERS[p.at][steps]:
            raise RuleError(f"{NAMES[code]} is not exactly {steps} steps from {NAMES[p.at]} over the borders.")
        frm = p.at
        state.path = walk(frm, code, steps)
        p.at = code
        name = self._name(state, seat)
        if code == DC:
            p.at = frm
            events = [_ev(f"{name} moves {steps} steps to D.C.; the turn ends. " + self._go_dc(state, seat))]
            self._end_turn(state, events)
            return events
        holder = state.chips[code]
        tail = ("its chip is free" if holder is None else "its chip is yours" if holder == seat
                else f"its chip is held by {self._name(state, holder)}")
        events = [_ev(f"{name} moves {steps} steps to {NAMES[code]} ({EV[code]} EV; {tail}).")]
        self._to_choose(state)
        return events

    def _to_choose(self, state: TriviaState) -> None:
        state.phase = "choose"
        state.q = None
        state.wait += 1

    def _end(self, state: TriviaState, seat: int, a: End) -> list[Event]:
        if seat != state.turn or state.phase not in ("choose", "claim"):
            raise self._wrong_turn(state, seat, "You can end your turn after your move, instead of a question.")
        name = self._name(state, seat)
        text = (f"{name} does not claim D.C. and ends the turn." if state.phase == "claim"
                else f"{name} ends the turn without a question.")
        events = [_ev(text)]
        self._end_turn(state, events)
        return events

    # questions -------------------------------------------------------------
    def _draw(self, state: TriviaState, rng: Rng, category: str, code: str | None, free_text: bool):
        if code is not None:
            pool = list(_state_pool(code, free_text))
        else:
            pool = list(_pool(category, free_text))
        if state.custom:
            for q in self._custom_questions(state):
                if q.category == category and (code is None or q.state == code) and (q.free_text or not free_text):
                    pool.append(q)
        if not pool and code is not None:
            pool = list(_pool(category, free_text))
        if not pool:
            pool = list(_pool(category, False))
        used = set(state.used)
        q = None
        for _ in range(6):  # mostly a few tries find an unused one without scanning the pile
            x = pool[rng.below(len(pool))]
            if x.id not in used:
                q = x
                break
        if q is None:
            fresh = [x for x in pool if x.id not in used]
            if not fresh:  # this pile is exhausted on this server: it may be used again
                ids = {x.id for x in pool}
                state.used = [u for u in state.used if u not in ids]
                fresh = pool
            q = fresh[rng.below(len(fresh))]
        state.used.append(q.id)
        state.drew = True
        return q

    def _custom_questions(self, state: TriviaState) -> list:
        out = []
        for row in state.custom:
            try:
                out.extend(questions.from_custom([row]))
            except Exception:  # a bad stored row is skipped, never fatal
                continue
        return out

    def _question(self, state: TriviaState, qid: str):
        q = _bank_index().get(qid)
        if q is None:
            q = next((x for x in self._custom_questions(state) if x.id == qid), None)
        return q

    def _ask(self, state: TriviaState, seat: int, a: Ask) -> list[Event]:
        if state.phase != "choose" or seat != state.turn:
            raise self._wrong_turn(state, seat, "Questions come after your move." if state.phase in ("start", "move")
                                   else "You cannot take a question now.")
        cat = a.category.strip().lower()
        cat = {"gov": "government", "politics": "government", "political": "government", "s": "state",
               "g": "general"}.get(cat, cat)
        if cat not in CATEGORIES:
            raise RuleError("The question categories are state, general and government.")
        p = state.players[seat]
        if cat == "government" and p.cash < 2:
            raise RuleError(f"A Government question costs $2M and you have {_money(p.cash)}.")
        rng = Rng(state.rng)
        code = p.at if cat == "state" else None
        qq = self._draw(state, rng, cat, code, free_text=False)
        choices = [qq.answer] + list(qq.wrong)
        rng.shuffle(choices)
        state.rng = rng.state
        if cat == "government":
            p.cash -= 2
        state.serial += 1
        state.q = QState(qid=qq.id, category=cat, state=qq.state if cat == "state" else None, choices=choices,
                         correct=choices.index(qq.answer), asker=seat, serial=state.serial)
        state.phase = "question"
        state.wait += 1
        name = self._name(state, seat)
        label = {"state": f"State question about {NAMES.get(qq.state or '', qq.state)}", "general": "General question",
                 "government": "Government question ($2M paid)"}[cat]
        listing = "\n".join(f"**{i}.** {c}" for i, c in enumerate(choices, start=1))
        events = [_ev(f"{name} takes a {label} — {state.options.question_seconds} seconds:\n**{qq.text}**\n{listing}")]
        return events

    def _answer(self, state: TriviaState, seat: int, a: Answer) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None:
            raise RuleError("There is no open multiple-choice question." if state.phase not in ("h2h",)
                            else "Runoff answers are typed: use `guess <answer>` (no choices are shown).")
        if seat != q.asker:
            raise RuleError(f"Only {self._name(state, q.asker)} answers this question; you may offer help.")
        if not 1 <= a.choice <= len(q.choices):
            raise RuleError(f"Choose an answer from 1 to {len(q.choices)}.")
        return self._resolve_question(state, a.choice - 1)

    def _resolve_question(self, state: TriviaState, picked: int | None) -> list[Event]:
        q = state.q
        seat = q.asker
        p = state.players[seat]
        name = self._name(state, seat)
        right = picked == q.correct
        answer = q.choices[q.correct]
        if picked is None:
            line = f"⏰ Time is up for {name}: the answer was **{answer}**."
        elif right:
            line = f"✅ {name} answers **{answer}** — right!"
            p.right += 1
        else:
            line = f"❌ {name} answers {q.choices[picked]} — wrong; the answer was **{answer}**."
        events: list[Event] = []
        deal = state.deal
        claim_dc = False
        if right and deal is not None and deal.accepted:
            line += " " + self._complete_deal(state, deal)
        elif right:
            if q.category == "state":
                code = p.at
                if code in EV and state.chips.get(code) is None:
                    state.chips[code] = seat
                    line += f" {name} claims the {NAMES[code]} chip ({EV[code]} EV)."
                else:
                    p.pv += state.options.state_pv
                    line += f" The chip is not free: {state.options.state_pv}M Popular Votes instead."
            elif q.category == "general":
                p.pv += state.options.general_pv
                line += f" +{state.options.general_pv}M Popular Votes."
            else:
                p.cash += state.options.government_cash
                line += f" +{_money(state.options.government_cash)}."
                claim_dc = state.chips[DC] is None
        elif deal is not None and deal.accepted:
            line += f" The deal with {self._name(state, deal.holder)} lapses; nothing is paid."
        state.deal = None
        state.q = None
        events.append(_ev(line))
        if self._check_270(state, events):
            return events
        if claim_dc:
            state.phase = "claim"
            state.wait += 1
            events.append(_ev(f"D.C.'s 3 electoral votes are unclaimed: {name} may `claim` them now, before the turn "
                              "ends."))
            return events
        if state.extra > 0:
            state.extra -= 1
            self._to_choose(state)
            events.append(_ev(f"{name} has an extra question this turn."))
            return events
        self._end_turn(state, events)
        return events

    def _claim(self, state: TriviaState, seat: int, a: Claim) -> list[Event]:
        if state.phase != "claim" or seat != state.turn:
            raise self._wrong_turn(state, seat, "D.C. is claimed right after a right Government answer, before the "
                                   "turn ends.")
        if state.chips[DC] is not None:
            raise RuleError("D.C.'s chip has already been claimed.")
        state.chips[DC] = seat
        events = [_ev(f"{self._name(state, seat)} claims D.C.'s 3 electoral votes.")]
        if self._check_270(state, events):
            return events
        if state.extra > 0:
            state.extra -= 1
            self._to_choose(state)
            return events
        self._end_turn(state, events)
        return events

    # help ------------------------------------------------------------------
    def _call_help(self, state: TriviaState, seat: int, a: CallHelp) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None or seat != q.asker:
            raise RuleError("Only the candidate answering a question can ask for help." if state.phase == "question"
                            else "There is no question open.")
        if q.called:
            raise RuleError("You have already asked for help on this question.")
        if q.helper is not None:
            raise RuleError("You already have a helper on this question.")
        offered = {o[0] for o in q.offers}
        q.called = True
        q.responders = [s for s in range(len(state.seats))
                        if s != seat and not state.players[s].out and s not in offered and s not in q.declined]
        return [_ev(f"{self._name(state, seat)} asks for help. Anyone may `help` (free or for a price paid up front) "
                    "or `nohelp`.")]

    def _help(self, state: TriviaState, seat: int, a: Help) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None:
            raise RuleError("Help is offered while someone answers a multiple-choice question.")
        if seat == q.asker:
            raise RuleError("You cannot help yourself; `callhelp` asks the others.")
        if q.helper is not None:
            raise RuleError(f"{self._name(state, q.asker)} already has a helper on this question.")
        if not self._may_offer_help(state, seat):
            raise RuleError("You have already answered this question's call for help.")
        unit = a.unit.strip().lower()
        unit = {"$": "cash", "m": "cash", "money": "cash", "votes": "pv", "popular": "pv"}.get(unit, unit)
        if unit not in ("cash", "pv"):
            raise RuleError("A price is in cash or pv (Popular Votes), e.g. `help 2 cash`.")
        if not 0 <= a.price <= 1000:
            raise RuleError("A price is between 0 (free) and 1000.")
        q.offers.append([seat, a.price, unit])
        if seat in q.responders:
            q.responders.remove(seat)
        price = "for free" if a.price == 0 else (f"for {_money(a.price)}" if unit == "cash" else f"for {a.price}M Popular Votes")
        return [_ev(f"{self._name(state, seat)} offers to help {self._name(state, q.asker)} {price}.")]

    def _nohelp(self, state: TriviaState, seat: int, a: NoHelp) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None or seat not in q.responders:
            raise RuleError("Nobody is waiting for your answer to a call for help.")
        q.responders.remove(seat)
        q.declined.append(seat)
        return [_ev(f"{self._name(state, seat)} will not help.")]

    def _offer_of(self, state: TriviaState, helper: str) -> list:
        q = state.q
        if state.phase != "question" or q is None:
            raise RuleError("There is no question open.")
        s = resolve_seat([x.name for x in state.seats], helper)
        found = next((o for o in q.offers if o[0] == s), None)
        if found is None:
            raise RuleError(f"{self._name(state, s)} has not offered help on this question.")
        return found

    def _hire(self, state: TriviaState, seat: int, a: Hire) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None or seat != q.asker:
            raise RuleError("Only the candidate answering the question can accept help.")
        s, price, unit = self._offer_of(state, a.helper)
        if not self._can_pay(state, seat, price, unit):
            have = state.players[seat].cash if unit == "cash" else state.players[seat].pv
            raise RuleError(f"That help costs {price} {'$M' if unit == 'cash' else 'M Popular Votes'} up front and you "
                            f"have {have}.")
        me, them = state.players[seat], state.players[s]
        if unit == "cash":
            me.cash -= price
            them.cash += price
        else:
            me.pv -= price
            them.pv += price
        q.helper = s
        q.offers = []
        q.responders = []
        paid = "for free" if price == 0 else f"and pays {price}{'M Popular Votes' if unit == 'pv' else ' $M'} up front"
        if unit == "cash" and price:
            paid = f"and pays {_money(price)} up front"
        name, hn = self._name(state, seat), self._name(state, s)
        return [_ev(f"{name} accepts {hn}'s help {paid}. {hn}, `suggest` a choice (only {name} sees it).")]

    def _decline(self, state: TriviaState, seat: int, a: Decline) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None or seat != q.asker:
            raise RuleError("Only the candidate answering the question can turn down help.")
        found = self._offer_of(state, a.helper)
        q.offers.remove(found)
        q.declined.append(found[0])
        return [_ev(f"{self._name(state, seat)} turns down {self._name(state, found[0])}'s help.")]

    def _suggest(self, state: TriviaState, seat: int, a: Suggest) -> list[Event]:
        q = state.q
        if state.phase != "question" or q is None or seat != q.helper:
            raise RuleError("Only a hired helper can suggest an answer.")
        if q.hint is not None:
            raise RuleError("You have already made your suggestion.")
        if not 1 <= a.choice <= len(q.choices):
            raise RuleError(f"Suggest a choice from 1 to {len(q.choices)}.")
        q.hint = a.choice - 1
        hn, name = self._name(state, seat), self._name(state, q.asker)
        return [_ev(f"{hn} whispers a suggestion to {name}."),
                _ev(f"{hn} suggests **{a.choice}. {q.choices[a.choice - 1]}** for {name}'s question.",
                    to=[q.asker, seat])]

    # chip offers -------------------------------------------------------------
    def _offer(self, state: TriviaState, seat: int, a: Offer) -> list[Event]:
        if state.phase != "choose" or seat != state.turn:
            raise self._wrong_turn(state, seat, "An offer for a chip is made after your move, before a question.")
        p = state.players[seat]
        code = p.at
        holder = state.chips.get(code)
        if holder is None:
            raise RuleError(f"Nobody holds {NAMES[code]}'s chip: answer a State question to claim it.")
        if holder == seat:
            raise RuleError(f"You already hold {NAMES[code]}'s chip.")
        if state.offer_made or state.deal is not None:
            raise RuleError("You may make one offer a turn.")
        chips = self._parse_chips(a.chips)
        if a.cash < 0 or a.pv < 0:
            raise RuleError("An offer cannot be negative.")
        if a.cash > p.cash:
            raise RuleError(f"No IOUs: you offer {_money(a.cash)} but have {_money(p.cash)}.")
        if a.pv > p.pv:
            raise RuleError(f"No IOUs: you offer {a.pv}M Popular Votes but have {p.pv}M.")
        for c in chips:
            if state.chips.get(c) != seat:
                raise RuleError(f"No IOUs: you do not hold the {NAMES.get(c, c)} chip.")
        if code in chips:
            raise RuleError("You cannot offer the chip you are buying.")
        if not (a.cash or a.pv or chips):
            raise RuleError("Offer something: cash, Popular Votes or chips you hold.")
        state.deal = Deal(buyer=seat, holder=holder, state=code, cash=a.cash, pv=a.pv, chips=chips)
        state.offer_made = True
        state.phase = "deal"
        state.wait += 1
        return [_ev(f"{self._name(state, seat)} offers {self._deal_text(state.deal)} for {self._name(state, holder)}'s "
                    f"{NAMES[code]} chip ({EV[code]} EV). {self._name(state, holder)}: `deal yes` or `deal no`.")]

    def _parse_chips(self, text: str) -> list[str]:
        raw = text.strip()
        if raw in ("", "-", "none", "0"):
            return []
        out = []
        for part in raw.replace("+", ",").split(","):
            part = part.strip()
            if not part:
                continue
            c = code_of(part)
            if c is None:
                raise RuleError(f"'{part[:20]}' is not a state chip; list chips like TX,OH.")
            if c not in out:
                out.append(c)
        return out

    def _deal_text(self, d: Deal) -> str:
        parts = []
        if d.cash:
            parts.append(_money(d.cash))
        if d.pv:
            parts.append(f"{d.pv}M Popular Votes")
        if d.chips:
            parts.append("the " + ", ".join(d.chips) + " chip" + ("s" if len(d.chips) > 1 else ""))
        return " + ".join(parts) or "nothing"

    def _deal(self, state: TriviaState, seat: int, a: DealAnswer) -> list[Event]:
        d = state.deal
        if state.phase != "deal" or d is None or seat != d.holder:
            raise RuleError("There is no offer waiting for your answer.")
        name, buyer = self._name(state, seat), self._name(state, d.buyer)
        self._to_choose(state)
        if a.accept:
            d.accepted = True
            return [_ev(f"{name} accepts. If {buyer} now answers a question right, {buyer} pays "
                        f"{self._deal_text(d)} and takes the {NAMES[d.state]} chip.")]
        state.deal = None
        return [_ev(f"{name} declines the offer. {buyer} may still take a State or General question.")]

    def _complete_deal(self, state: TriviaState, d: Deal) -> str:
        buyer, holder = state.players[d.buyer], state.players[d.holder]
        if (buyer.cash < d.cash or buyer.pv < d.pv or any(state.chips.get(c) != d.buyer for c in d.chips)
                or state.chips.get(d.state) != d.holder):
            return "The deal can no longer be paid in full, so it lapses."
        buyer.cash -= d.cash
        holder.cash += d.cash
        buyer.pv -= d.pv
        holder.pv += d.pv
        for c in d.chips:
            state.chips[c] = d.holder
        state.chips[d.state] = d.buyer
        return (f"{self._name(state, d.buyer)} pays {self._deal_text(d)} to {self._name(state, d.holder)} and takes "
                f"the {NAMES[d.state]} chip ({EV[d.state]} EV).")

    # Gerrymander cards ------------------------------------------------------
    def _play(self, state: TriviaState, seat: int, a: Play) -> list[Event]:
        if state.phase in ("h2h", "review"):
            raise RuleError("No Gerrymander cards may be played in a runoff or in speed play.")
        if seat != state.turn or state.phase not in ("start", "move", "choose", "claim"):
            raise self._wrong_turn(state, seat, "Gerrymander cards are played on your own turn, before you roll or "
                                   "after your move.")
        p = state.players[seat]
        if a.card not in p.hand:
            raise RuleError(f"You do not hold Gerrymander card {a.card}; `/politics hand` shows yours.")
        if state.deal is not None:
            raise RuleError("Finish the accepted chip deal (answer your question) before playing a Gerrymander card.")
        card = GERRY[a.card]
        if p.cash < card.need_cash:
            raise RuleError(f"Card {a.card} needs {_money(card.need_cash)} and you have {_money(p.cash)}.")
        if p.pv < card.need_pv:
            raise RuleError(f"Card {a.card} needs {card.need_pv}M Popular Votes and you have {p.pv}M.")
        missing = [c for c in card.need_chips if state.chips.get(c) != seat]
        if missing:
            raise RuleError(f"Card {a.card} needs the {', '.join(missing)} chip{'s' if len(missing) > 1 else ''}, "
                            "which you do not hold.")
        for c in card.need_chips:
            state.chips[c] = None
        p.cash -= card.need_cash
        p.pv -= card.need_pv
        took = []
        for c in card.reward_chips:
            if c in state.chips:
                prev = state.chips[c]
                state.chips[c] = seat
                took.append(c + (f" from {self._name(state, prev)}" if prev is not None and prev != seat else ""))
        p.cash += card.reward_cash
        p.pv += card.reward_pv
        p.hand.remove(a.card)
        p.played.append(a.card)
        drew = ""
        if state.gdeck:
            new = state.gdeck.pop(0)
            p.hand.append(new)
            drew = " and draws a new card"
        events = [_ev(f"{self._name(state, seat)} plays Gerrymander **{card.title}**: {card.text}"
                      + (f" (takes {', '.join(took)})" if took else "") + f"{drew}.")]
        if drew:
            events.append(_ev(f"You draw Gerrymander card {new}: {GERRY[new].title} — {GERRY[new].text}", to=[seat]))
        self._check_270(state, events)
        return events

    # Wildcards ---------------------------------------------------------------
    def _draw_wildcard(self, state: TriviaState, seat: int, events: list[Event]) -> None:
        if state.wpos >= len(state.wdeck):
            rng = Rng(state.rng)
            rng.shuffle(state.wdeck)
            state.rng = rng.state
            state.wpos = 0
        cid = state.wdeck[state.wpos]
        state.wpos += 1
        card = WILD[cid]
        name = self._name(state, seat)
        kind = {"charades": "Charades", "drawing": "Drawing", "physical": "Physical challenge",
                "sing": "Sing or recite", "direct": "Direct another", "event": "Campaign event"}[card.kind]
        if card.kind == "event":
            events.append(_ev(f"🃏 {name} draws a Wildcard — {kind}: {card.text}"))
            self._apply_effects(state, seat, card, events)
            self._after_wildcard(state, events)
            return
        state.wild = WildState(card=cid, performer=seat)
        state.phase = "wildcard"
        state.wait += 1
        how = {"charades": "act it out (no words); guesses typed in the channel count",
               "drawing": "draw it and post the picture (no letters or numbers); guesses typed in the channel count",
               "direct": "name who acts it out, then direct them in words only; guesses typed in the channel count",
               "physical": "do it; the other candidates judge", "sing": "perform it; the other candidates judge"}[card.kind]
        events.append(_ev(f"🃏 {name} draws a Wildcard — {kind}: {card.text} ({how}; {card.seconds} seconds once "
                          f"{name} presses `perform`)."))
        if card.secret:
            events.append(_ev(f"Your secret for the Wildcard: **{card.secret}**. Press `perform` when ready.", to=[seat]))

    def _perform(self, state: TriviaState, seat: int, a: Perform) -> list[Event]:
        w = state.wild
        if state.phase != "wildcard" or w is None or seat != w.performer:
            raise RuleError("Only the candidate who drew the Wildcard performs it.")
        if w.stage != "ready":
            raise RuleError("The performance has already started.")
        card = WILD[w.card]
        actor = None
        if card.kind == "direct":
            if not a.actor:
                raise RuleError("Name the candidate who will act it out: `perform <name>`.")
            actor = resolve_seat([x.name for x in state.seats], a.actor)
            if actor == seat or state.players[actor].out:
                raise RuleError("Choose another candidate to act it out.")
        return self._start_performance(state, actor)

    def _start_performance(self, state: TriviaState, actor: int | None) -> list[Event]:
        w = state.wild
        card = WILD[w.card]
        w.stage = "performing"
        w.actor = actor
        state.wait += 1
        name = self._name(state, w.performer)
        if card.kind in GUESSING:
            pattern = " / ".join(" ".join("_" for _ in word) for word in (card.secret or "").split())
            words = len((card.secret or "").split())
            lead = (f"{name} directs {self._name(state, actor)}" if actor is not None else f"{name} performs")
            return [_ev(f"🎭 {lead} — {_plural(words, 'word')}: `{pattern}`. Type your guesses in the channel; "
                        f"{card.seconds} seconds.")]
        return [_ev(f"🎭 {name} performs: {card.text} Judges, vote with `judge yes` or `judge no` "
                    f"({card.seconds} seconds; a simple majority decides).")]

    def _giveup(self, state: TriviaState, seat: int, a: GiveUp) -> list[Event]:
        w = state.wild
        if state.phase != "wildcard" or w is None or seat != w.performer:
            raise RuleError("Only the candidate performing a Wildcard can give it up.")
        events = [_ev(f"{self._name(state, seat)} gives up the Wildcard.")]
        self._wild_result(state, False, None, events)
        return events

    def _judge(self, state: TriviaState, seat: int, a: Judge) -> list[Event]:
        w = state.wild
        if state.phase != "wildcard" or w is None or WILD[w.card].kind not in JUDGED:
            raise RuleError("There is no challenge to judge now.")
        if w.stage != "performing":
            raise RuleError("Wait until the performance starts.")
        if seat == w.performer or seat not in self._judges(state):
            raise RuleError("The performer does not judge their own challenge.")
        if any(v[0] == seat for v in w.votes):
            raise RuleError("You have already voted.")
        w.votes.append([seat, 1 if a.success else 0])
        events = [_ev(f"{self._name(state, seat)} has judged.")]
        judges = len(self._judges(state))
        yes = sum(v[1] for v in w.votes)
        no = len(w.votes) - yes
        if yes * 2 > judges or no * 2 >= judges or len(w.votes) == judges:
            self._wild_result(state, yes * 2 > judges, None, events)
        return events

    def _guess(self, state: TriviaState, seat: int, a: Guess) -> list[Event]:
        text = a.answer.strip()
        if state.phase == "h2h":
            return self._h2h_answer(state, seat, text)
        w = state.wild
        if state.phase != "wildcard" or w is None or WILD[w.card].kind not in GUESSING or w.stage != "performing":
            if state.phase == "question":
                raise RuleError("This question has choices: `answer <number>`.")
            raise RuleError("There is nothing to guess right now.")
        if seat == w.performer:
            raise RuleError("The performer cannot guess their own secret.")
        if not text:
            raise RuleError("Type a guess.")
        card = WILD[w.card]
        if not _match(text, _secret_question(card)):
            return [_ev(f"{self._name(state, seat)} guesses “{text[:60]}” — not it.", to=[seat])]
        events = [_ev(f"🎉 {self._name(state, seat)} guesses it: **{card.secret}**!")]
        self._wild_result(state, True, seat, events)
        return events

    def _wild_result(self, state: TriviaState, success: bool, guesser: int | None, events: list[Event]) -> None:
        w = state.wild
        card = WILD[w.card]
        perf = w.performer
        n = len(state.seats)
        others = [s for s in range(n) if s != perf and not state.players[s].out]
        name = self._name(state, perf)
        parts: list[str] = []
        if card.kind in GUESSING and not success and card.secret:
            parts.append(f"Nobody got it: it was **{card.secret}**.")
        if card.kind == "charades":
            if success:
                for s in (perf, guesser):
                    state.players[s].pv += 10
                parts.append(f"{name} and {self._name(state, guesser)} each get 10M Popular Votes.")
            else:
                parts.append(self._lose_pv(state, perf, 5, f"{name} loses 5M Popular Votes"))
        elif card.kind == "drawing":
            if success:
                for s in (perf, guesser):
                    state.players[s].cash += 5
                parts.append(f"{name} and {self._name(state, guesser)} each get $5M from the bank.")
            else:
                parts.append(self._pay_each(state, perf, others, 1, f"{name} pays each candidate $1M"))
        elif card.kind == "physical":
            if success:
                state.players[perf].pv += 10
                parts.append(f"The judges say yes: {name} gets 10M Popular Votes.")
            else:
                parts.append(self._lose_pv(state, perf, 5, f"The judges say no: {name} loses 5M Popular Votes"))
        elif card.kind == "sing":
            if success:
                state.players[perf].cash += 5
                parts.append(f"The judges say yes: {name} gets $5M from the bank.")
            else:
                parts.append(self._pay_each(state, perf, others, 1, f"The judges say no: {name} pays each candidate $1M"))
        elif card.kind == "direct":
            actor = w.actor
            if success:
                state.players[perf].cash += 5
                if guesser == actor:
                    state.players[actor].cash += 10
                    parts.append(f"{name} gets $5M and {self._name(state, actor)}, who acted and guessed, gets $10M.")
                else:
                    state.players[actor].cash += 5
                    state.players[guesser].cash += 5
                    parts.append(f"{name}, {self._name(state, actor)} (acting) and {self._name(state, guesser)} each "
                                 "get $5M.")
            else:
                bits = [self._lose_cash(state, perf, 2, None, f"{name} pays $2M to the bank")]
                if actor is not None:
                    bits.append(self._lose_cash(state, actor, 2, None, f"{self._name(state, actor)} pays $2M to the bank"))
                parts.append(" ".join(bits))
        events.append(_ev(" ".join(p for p in parts if p)))
        state.wild = None
        if self._check_270(state, events):
            return
        self._after_wildcard(state, events)

    def _after_wildcard(self, state: TriviaState, events: list[Event]) -> None:
        """Back to the roll the Wildcard interrupted, unless it ended the turn."""
        if state.phase in ("over", "h2h", "review"):
            return
        seat = state.turn
        p = state.players[seat]
        if state.phase == "choose":  # a Wildcard moved the candidate: the roll is spent
            state.pending_dice = 0
            return
        if p.at == DC:  # sent to D.C.: the turn is over
            state.pending_dice = 0
            self._end_turn(state, events)
            return
        state.pending_dice = 0
        self._to_move(state, events)

    # money, votes, shortfalls ------------------------------------------------
    def _lose_cash(self, state: TriviaState, seat: int, amount: int, to: int | None, what: str) -> str:
        """Pay `amount` to the bank (to=None) or to a candidate; what cannot be paid
        becomes a debt and sends the candidate to D.C."""
        p = state.players[seat]
        paid = min(p.cash, amount)
        p.cash -= paid
        if to is not None:
            state.players[to].cash += paid
        short = amount - paid
        if short <= 0:
            return what + "."
        p.debt += short
        line = f"{what}, but has only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C."
        dc = self._go_dc(state, seat)
        return line + (" " + dc if dc else ".")

    def _pay_each(self, state: TriviaState, seat: int, others: list[int], amount: int, what: str) -> str:
        p = state.players[seat]
        owed = amount * len(others)
        if p.cash >= owed:
            for s in others:
                state.players[s].cash += amount
            p.cash -= owed
            return what + "."
        # not enough: pay round by round in seat order, the rest is a debt
        paid = 0
        for _ in range(amount):
            for s in others:
                if p.cash > 0:
                    p.cash -= 1
                    state.players[s].cash += 1
                    paid += 1
        short = owed - paid
        p.debt += short
        dc = self._go_dc(state, seat)
        return f"{what}, but has only {_money(paid)}: {_money(short)} is owed to the bank, and off to D.C." + (
            " " + dc if dc else "")

    def _lose_pv(self, state: TriviaState, seat: int, amount: int, what: str, to: int | None = None) -> str:
        p = state.players[seat]
        if p.pv >= amount:
            p.pv -= amount
            if to is not None:
                state.players[to].pv += amount
            return what + "."
        have = p.pv
        p.pv = 0
        if to is not None:
            state.players[to].pv += have
        missing = amount - have
        return self._lose_cash(state, seat, missing, None,
                               f"{what}: only {have}M to give, so {_money(missing)} for the missing votes")

    def _lose_ev(self, state: TriviaState, seat: int, amount: int, what: str) -> str:
        held = chips_of(state, seat)
        total = sum(EV[c] for c in held)
        if total >= amount:
            give = _minimal_chips(held, amount)
            for c in give:
                state.chips[c] = None
            return f"{what}: gives back {', '.join(give)} ({sum(EV[c] for c in give)} EV)."
        for c in held:
            state.chips[c] = None
        missing = amount - total
        lead = f"{what}: gives back every chip ({total} EV)" if held else f"{what}: holds no chips"
        return self._lose_cash(state, seat, missing, None, f"{lead} and owes {_money(missing)} for the missing votes")

    def _who(self, state: TriviaState, seat: int, who: str) -> list[int]:
        n = len(state.seats)
        alive = [s for s in range(n) if not state.players[s].out]
        if who == "you":
            return [seat]
        if who == "each_other":
            return [s for s in alive if s != seat]
        if who == "all":
            return alive
        if who in ("pv_leader", "ev_leader"):
            vals = {s: (state.players[s].pv if who == "pv_leader" else ev_of(state, s)) for s in alive}
            top = max(vals.values())
            return [s for s in alive if vals[s] == top] if top > 0 else []
        if who == "poorest":
            low = min(state.players[s].cash for s in alive)
            return [s for s in alive if state.players[s].cash == low]
        return [seat]

    def _apply_effects(self, state: TriviaState, seat: int, card, events: list[Event]) -> None:
        lines: list[str] = []
        for eff in card.effects:
            targets = self._who(state, seat, eff.who)
            for t in targets:
                tn = self._name(state, t)
                p = state.players[t]
                k, amt = eff.kind, eff.amount
                if k == "cash":
                    if amt >= 0 and eff.from_others:
                        for o in range(len(state.seats)):
                            if o != t and not state.players[o].out:
                                lines.append(self._lose_cash(state, o, amt, t, f"{self._name(state, o)} pays {tn} {_money(amt)}"))
                    elif amt >= 0:
                        p.cash += amt
                        lines.append(f"{tn} gets {_money(amt)}.")
                    else:
                        lines.append(self._lose_cash(state, t, -amt, None, f"{tn} pays {_money(-amt)} to the bank"))
                elif k == "pv":
                    if amt >= 0 and eff.from_others:
                        for o in range(len(state.seats)):
                            if o != t and not state.players[o].out:
                                lines.append(self._lose_pv(state, o, amt, f"{self._name(state, o)} gives {tn} {amt}M "
                                                                          "Popular Votes", to=t))
                    elif amt >= 0:
                        p.pv += amt
                        lines.append(f"{tn} gains {amt}M Popular Votes.")
                    else:
                        lines.append(self._lose_pv(state, t, -amt, f"{tn} loses {-amt}M Popular Votes"))
                elif k == "ev_lose":
                    lines.append(self._lose_ev(state, t, abs(amt), f"{tn} must give back {abs(amt)} EV"))
                elif k == "go_dc":
                    if p.at != DC:
                        lines.append(f"{tn} goes to D.C. " + self._go_dc(state, t))
                elif k == "move_to":
                    code = code_of(eff.state or "") if eff.state else None
                    if code and t == state.turn and state.phase not in ("h2h", "review"):
                        if code == DC:
                            lines.append(f"{tn} goes to D.C. " + self._go_dc(state, t))
                        else:
                            state.path = [p.at, code] if p.at else [code]
                            p.at = code
                            lines.append(f"{tn} moves to {NAMES[code]} instead of moving the dice.")
                            self._to_choose(state)
                elif k == "skip_turn":
                    p.skip += max(1, amt)
                    lines.append(f"{tn} will miss {_plural(max(1, amt), 'turn')}.")
                elif k == "extra_question":
                    if t == state.turn:
                        state.extra += max(1, amt)
                        lines.append(f"{tn} may take {_plural(max(1, amt), 'extra question')} this turn.")
        if lines:
            events.append(_ev(" ".join(lines)))
        self._check_270(state, events)

    # winning --------------------------------------------------------------
    def _check_270(self, state: TriviaState, events: list[Event]) -> bool:
        if state.phase in ("over", "h2h", "review"):
            return state.phase == "over"
        n = len(state.seats)
        evs = [ev_of(state, s) for s in range(n)]
        holder = next((s for s in range(n) if evs[s] >= MAJORITY), None)
        if holder is None:
            return False
        pvs = [state.players[s].pv for s in range(n)]
        rivals = [s for s in range(n) if s != holder and pvs[s] > pvs[holder]]
        name = self._name(state, holder)
        if not rivals:
            self._finish(state, holder, f"{name} reaches {evs[holder]} electoral votes with the most Popular Votes "
                                        f"({pvs[holder]}M) and is elected President!", events)
            return True
        top = max(pvs[s] for s in rivals)
        best = sorted((s for s in rivals if pvs[s] == top), key=lambda s: (-evs[s], s))[0]
        events.append(_ev(f"🗳️ {name} has {evs[holder]} electoral votes, but {self._name(state, best)} has more "
                          f"Popular Votes ({pvs[best]}M to {pvs[holder]}M): a **runoff**! 5 General and 5 State "
                          "questions, no choices, typed answers in secret, no help."))
        state.h2h = H2H(kind="runoff", seats=[holder, best])
        self._h2h_round(state, events)
        return True

    def _finish(self, state: TriviaState, winner: int, outcome: str, events: list[Event]) -> None:
        state.phase = "over"
        state.winner = winner
        state.outcome = outcome
        state.q = None
        state.wild = None
        state.deal = None
        events.append(_ev(f"🏛️ {outcome}"))

    # runoff and speed play ------------------------------------------------
    def _start_speed(self, state: TriviaState, events: list[Event]) -> None:
        n = len(state.seats)
        alive = [s for s in range(n) if not state.players[s].out]
        order = sorted(alive, key=lambda s: (ev_of(state, s), state.players[s].pv, s))
        state.q = None
        state.wild = None
        state.deal = None
        listing = ", ".join(f"{self._name(state, s)} {ev_of(state, s)} EV" for s in order)
        events.append(_ev(f"⏱️ **Speed play!** Every vote is up for grabs. From the lowest EV up ({listing}): "
                          "head-to-head rounds of 5 General questions, typed answers in secret; the winner takes the "
                          "loser's votes, the loser is out."))
        state.h2h = H2H(kind="speed", seats=order[:2], queue=order[2:])
        self._h2h_round(state, events)

    def _h2h_round(self, state: TriviaState, events: list[Event]) -> None:
        h = state.h2h
        rng = Rng(state.rng)
        qids: list[str] = []
        if h.kind == "runoff":
            for i in range(5):
                qids.append(self._draw(state, rng, "general", None, free_text=True).id)
                code = rng.choice(STATES)
                qids.append(self._draw(state, rng, "state", code, free_text=True).id)
        else:
            for i in range(5):
                qids.append(self._draw(state, rng, "general", None, free_text=True).id)
        state.rng = rng.state
        h.qids = qids
        h.qn = 0
        h.scores = [0, 0]
        a, b = h.seats
        label = "Runoff" if h.kind == "runoff" else "Speed play"
        rep = f" (replay {h.round - 1})" if h.round > 1 else ""
        events.append(_ev(f"**{label}{rep}: {self._name(state, a)} vs {self._name(state, b)}** — "
                          f"{len(qids)} questions."))
        self._h2h_question(state, events)

    def _h2h_question(self, state: TriviaState, events: list[Event]) -> None:
        h = state.h2h
        h.answers = [None, None]
        h.verdicts = [False, False]
        h.reviewers, h.oks, h.overrules = [], [], []
        state.phase = "h2h"
        state.wait += 1
        q = self._question(state, h.qids[h.qn])
        about = f" ({NAMES.get(q.state, q.state)})" if q.category == "state" and q.state else ""
        events.append(_ev(f"Question {h.qn + 1} of {len(h.qids)} — {q.category.title()}{about}:\n**{q.text}**\n"
                          f"{self._name(state, h.seats[0])} and {self._name(state, h.seats[1])}: type your answer "
                          f"(`guess …`, it stays secret until both are in); {state.options.question_seconds} seconds."))

    def _h2h_answer(self, state: TriviaState, seat: int, text: str) -> list[Event]:
        h = state.h2h
        if seat not in h.seats:
            raise RuleError("Only the two candidates in this head-to-head round answer.")
        i = h.seats.index(seat)
        if h.answers[i] is not None:
            raise RuleError("You have already handed in your answer to this question.")
        if len(text) > 200:
            raise RuleError("Keep an answer under 200 characters.")
        h.answers[i] = text
        shown = text if text else "(blank)"
        events = [_ev(f"{self._name(state, seat)} has handed in an answer."),
                  _ev(f"Your answer: “{shown[:100]}”.", to=[seat])]
        if all(x is not None for x in h.answers):
            self._h2h_reveal(state, events)
        return events

    def _pass(self, state: TriviaState, seat: int, a: PassAnswer) -> list[Event]:
        if state.phase != "h2h":
            raise RuleError("A blank answer is only handed in during a runoff or speed play.")
        return self._h2h_answer(state, seat, "")

    def _h2h_reveal(self, state: TriviaState, events: list[Event]) -> None:
        h = state.h2h
        q = self._question(state, h.qids[h.qn])
        bits = []
        for i, s in enumerate(h.seats):
            given = h.answers[i] or ""
            ok = bool(given.strip()) and _match(given, q)
            h.verdicts[i] = ok
            shown = f"“{given[:80]}”" if given.strip() else "nothing"
            bits.append(f"{self._name(state, s)} wrote {shown} {'✅' if ok else '❌'}")
        events.append(_ev(f"The answer: **{q.answer}**. " + "; ".join(bits) + "."))
        n = len(state.seats)
        judges = [s for s in range(n) if s not in h.seats]
        h.reviewers = judges if judges else list(h.seats)
        h.reviewers = [r for r in h.reviewers if self._overrulable(state, r)]
        if h.reviewers:
            state.phase = "review"
            state.wait += 1
            who = "the other candidates (majority)" if judges else "the other contestant (only to accept an answer)"
            events.append(_ev(f"A verdict may be overruled by {who}: `overrule <name>` or `ok` "
                              f"({state.options.review_seconds} seconds)."))
            return
        self._h2h_score(state, events)

    def _overrule(self, state: TriviaState, seat: int, a: Overrule) -> list[Event]:
        h = state.h2h
        if state.phase != "review" or h is None or seat not in h.reviewers or seat in h.oks:
            raise RuleError("There is no verdict for you to overrule now.")
        target = resolve_seat([x.name for x in state.seats], a.seat)
        if target not in self._overrulable(state, seat):
            if target in h.seats and seat in h.seats:
                raise RuleError("A contestant may only accept the other contestant's answer, not change their own.")
            raise RuleError("You cannot overrule that verdict (no answer, or you already voted on it).")
        h.overrules.append([seat, target])
        events = [_ev(f"{self._name(state, seat)} votes to overrule the verdict on {self._name(state, target)}'s answer.")]
        if not self._overrulable(state, seat):
            h.oks.append(seat)
        if all(r in h.oks for r in h.reviewers):
            self._close_review(state, events)
        return events

    def _ok(self, state: TriviaState, seat: int, a: Ok) -> list[Event]:
        h = state.h2h
        if state.phase != "review" or h is None or seat not in h.reviewers:
            raise RuleError("There is no verdict for you to review now.")
        if seat in h.oks:
            raise RuleError("You have already accepted the verdicts.")
        h.oks.append(seat)
        events: list[Event] = []
        if all(r in h.oks for r in h.reviewers):
            self._close_review(state, events)
        return events

    def _close_review(self, state: TriviaState, events: list[Event]) -> None:
        h = state.h2h
        contestants_only = all(r in h.seats for r in h.reviewers)
        n_judges = len([s for s in range(len(state.seats)) if s not in h.seats])
        for i, s in enumerate(h.seats):
            votes = sum(1 for r, t in h.overrules if t == s)
            flip = votes >= 1 if contestants_only else votes * 2 > n_judges
            if flip:
                h.verdicts[i] = not h.verdicts[i]
                events.append(_ev(f"Overruled: {self._name(state, s)}'s answer now counts as "
                                  f"{'right ✅' if h.verdicts[i] else 'wrong ❌'}."))
        self._h2h_score(state, events)

    def _h2h_score(self, state: TriviaState, events: list[Event]) -> None:
        h = state.h2h
        for i in range(2):
            if h.verdicts[i]:
                h.scores[i] += 1
        h.history.append({"qid": h.qids[h.qn], "answers": list(h.answers), "verdicts": list(h.verdicts)})
        if len(h.history) > 30:
            del h.history[:-30]
        h.qn += 1
        if h.qn < len(h.qids):
            self._h2h_question(state, events)
            return
        a, b = h.seats
        sa, sb = h.scores
        events.append(_ev(f"Score: {self._name(state, a)} {sa}, {self._name(state, b)} {sb}."))
        if sa == sb:
            if h.round <= state.options.max_tiebreaks:
                h.round += 1
                events.append(_ev("A tie: the round is played again."))
                self._h2h_round(state, events)
                return
            key = lambda s: (ev_of(state, s), state.players[s].pv, state.players[s].cash, -s)  # noqa: E731
            win = max((a, b), key=key)
            events.append(_ev(f"Still tied after {state.options.max_tiebreaks} replays: "
                              f"{self._name(state, win)} goes through on electoral votes."))
        else:
            win = a if sa > sb else b
        lose = b if win == a else a
        self._h2h_settle(state, win, lose, events)

    def _h2h_settle(self, state: TriviaState, win: int, lose: int, events: list[Event]) -> None:
        h = state.h2h
        W, L = state.players[win], state.players[lose]
        for c in chips_of(state, lose):
            state.chips[c] = win
        W.pv += L.pv
        L.pv = 0
        wn, ln = self._name(state, win), self._name(state, lose)
        if h.kind == "runoff":
            W.cash += L.cash
            L.cash = 0
            self._finish(state, win, f"{wn} wins the runoff, takes {ln}'s votes and money, and is elected President "
                                     f"with {ev_of(state, win)} electoral votes!", events)
            return
        L.out = True
        if not h.queue:
            self._finish(state, win, f"{wn} is the last candidate standing after speed play and is elected President "
                                     f"with {ev_of(state, win)} electoral votes!", events)
            return
        nxt = h.queue.pop(0)
        events.append(_ev(f"{wn} takes {ln}'s votes; {ln} is out. Next: {wn} against {self._name(state, nxt)}."))
        state.h2h = H2H(kind="speed", seats=[win, nxt], queue=h.queue, history=h.history)
        self._h2h_round(state, events)

    # wrap-up vote ------------------------------------------------------------
    def _wrapup(self, state: TriviaState, seat: int, a: Wrapup) -> list[Event]:
        if state.phase in ("homes", "h2h", "review"):
            raise RuleError("A wrap-up vote is held during ordinary turns.")
        p = state.players[seat]
        if p.wrapup:
            raise RuleError("You have already voted to wrap up.")
        p.wrapup = True
        n = len(state.seats)
        votes = sum(1 for x in state.players if x.wrapup)
        line = f"{self._name(state, seat)} votes to wrap up ({votes} of {n}; a majority needs {n // 2 + 1})."
        if votes * 2 > n:
            state.speed_due = True
            line += " Speed play starts after this turn."
        return [_ev(line)]

    # the clock ---------------------------------------------------------------
    def _timeout(self, state: TriviaState) -> list[Event]:
        ph = state.phase
        events: list[Event] = []
        if ph == "homes":
            for s, p in enumerate(state.players):
                if p.dealt:
                    events += self._discard(state, s, Discard(card=p.dealt[-1]))
            chooser = self._chooser(state)
            if chooser is not None and state.phase == "homes":
                taken = {x.home for x in state.players}
                code = max((c for c in STATES if c not in taken), key=lambda c: (EV[c], c))
                events.insert(0, _ev(f"⏰ Time: {self._name(state, chooser)} is given a home state."))
                events += self._home(state, chooser, Home(state=code))
            return events
        seat = state.turn
        if ph == "start":
            p = state.players[seat]
            events.append(_ev(f"⏰ Time: {self._name(state, seat)} " +
                              ("stays in D.C." if p.at == DC and p.dc_turns < 4 and p.debt > 0 else "rolls.")))
            if p.at == DC and p.dc_turns < 4 and p.debt > 0:
                return events + self._stay(state, seat, _STAY)
            return events + self._roll(state, seat, _ROLL)
        if ph == "move":
            p = state.players[seat]
            reach = REACH[p.at][sum(state.dice)]
            code = max(reach, key=lambda c: (state.chips.get(c) is None and c != DC, EV[c], c))
            events.append(_ev(f"⏰ Time: {self._name(state, seat)} is moved to the most valuable state in reach."))
            return events + self._move(state, seat, _MOVE[code])
        if ph in ("choose", "claim"):
            events.append(_ev(f"⏰ Time: {self._name(state, seat)}'s turn ends."))
            return events + self._end(state, seat, _END)
        if ph == "deal":
            events.append(_ev(f"⏰ Time: the offer counts as declined."))
            return events + self._deal(state, state.deal.holder, _DEAL[False])
        if ph == "question":
            return self._resolve_question(state, None)
        if ph == "wildcard":
            w = state.wild
            card = WILD[w.card]
            if w.stage == "ready":
                actor = None
                if card.kind == "direct":
                    n = len(state.seats)
                    judges = sorted(self._judges(state), key=lambda s: (w.performer - s) % n)
                    actor = judges[0] if judges else None
                events.append(_ev(f"⏰ Time: the performance starts."))
                return events + self._start_performance(state, actor)
            if card.kind in JUDGED:
                yes = sum(v[1] for v in w.votes)
                no = len(w.votes) - yes
                events.append(_ev(f"⏰ Time: the judges' votes are counted ({yes} yes, {no} no)."))
                self._wild_result(state, yes > no, None, events)
                return events
            events.append(_ev("⏰ Time is up."))
            self._wild_result(state, False, None, events)
            return events
        if ph == "h2h":
            h = state.h2h
            late = [s for s, x in zip(h.seats, h.answers) if x is None]
            events.append(_ev(f"⏰ Time: {' and '.join(self._name(state, s) for s in late)} hand in nothing."))
            for i in range(2):
                if h.answers[i] is None:
                    h.answers[i] = ""
            self._h2h_reveal(state, events)
            return events
        if ph == "review":
            self._close_review(state, events)
            return events
        raise RuleError("Nothing is waiting for the clock.")

    _HANDLERS = {
        Discard: _discard, Home: _home, Roll: _roll, Fly: _fly, Stay: _stay, Move: _move, Ask: _ask, Offer: _offer,
        DealAnswer: _deal, Answer: _answer, CallHelp: _call_help, Help: _help, NoHelp: _nohelp, Hire: _hire,
        Decline: _decline, Suggest: _suggest, Claim: _claim, End: _end, Play: _play, Perform: _perform,
        GiveUp: _giveup, Judge: _judge, Guess: _guess, PassAnswer: _pass, Overrule: _overrule, Ok: _ok,
        Wrapup: _wrapup,
    }

    # ---- hooks ---------------------------------------------------------
    def timer(self, state: TriviaState) -> Timer | None:
        ph = state.phase
        o = state.options
        if ph == "over":
            return None
        if ph in ("question", "h2h"):
            seconds = o.question_seconds
        elif ph == "deal":
            seconds = o.offer_seconds
        elif ph == "review":
            seconds = o.review_seconds
        elif ph == "wildcard":
            seconds = WILD[state.wild.card].seconds if state.wild.stage == "performing" else o.offer_seconds
        else:
            if not o.turn_seconds:
                return None
            seconds = o.turn_seconds
        return Timer(seconds=seconds, seat=SYSTEM, action_text="timeout", key=f"{ph}-{state.wait}")

    def text_prompts(self, state: TriviaState, seat: int) -> list[TextPrompt]:
        if state.phase == "h2h" and seat in state.h2h.seats and state.h2h.answers[state.h2h.seats.index(seat)] is None:
            return [TextPrompt(verb="guess", label="Type your answer", placeholder="Your answer (secret until both are in)")]
        w = state.wild
        if (state.phase == "wildcard" and w is not None and w.stage == "performing"
                and WILD[w.card].kind in GUESSING and seat != w.performer and 0 <= seat < len(state.seats)):
            return [TextPrompt(verb="guess", label="Guess the secret", placeholder="Your guess")]
        return []

    def chat_action(self, state: TriviaState, seat: int, text: str) -> Action | None:
        w = state.wild
        if state.phase != "wildcard" or w is None or w.stage != "performing" or WILD[w.card].kind not in GUESSING:
            return None
        if seat == w.performer or not 0 <= seat < len(state.seats):
            return None
        text = " ".join(text.split())[:200]
        if not text or text.startswith("/"):
            return None
        if not _match(text, _secret_question(WILD[w.card])):
            return None  # ordinary chat, not a right guess: say nothing
        return Guess(answer=text)

    # ---- server data: used questions and custom uploads --------------------
    def server_updates(self, state: TriviaState) -> dict:
        if not state.drew:
            return {}
        return {"used": list(state.used)}

    def server_import(self, kind: str, filename: str, data: bytes, current: dict) -> tuple[dict, str]:
        if kind != "questions":
            raise RuleError("This game stores only custom questions.")
        try:
            rows = questions.parse_upload(filename, data)
        except questions.UploadError as exc:
            errors = getattr(exc, "errors", None) or [str(exc)]
            more = f" ({len(errors) - 1} more problem{'s' if len(errors) > 2 else ''} after it.)" if len(errors) > 1 else ""
            raise RuleError(f"Nothing was stored. {errors[0]}{more}") from None
        existing = [dict(r) for r in current.get("questions", []) if isinstance(r, dict)]
        have = {questions.custom_id(r) for r in existing}
        added = []
        for r in rows:
            cid = questions.custom_id(r)
            if cid in have:
                continue
            have.add(cid)
            added.append(dict(r))
        if len(existing) + len(added) > MAX_CUSTOM:
            raise RuleError(f"Nothing was stored: a server may keep at most {MAX_CUSTOM:,} custom questions; it has "
                            f"{len(existing)} and the file adds {len(added)}.")
        new = dict(current)
        new["questions"] = existing + added
        cats: dict[str, int] = {}
        for r in added:
            cats[r["category"]] = cats.get(r["category"], 0) + 1
        by = ", ".join(f"{v} {k}" for k, v in sorted(cats.items())) or "none new"
        dup = len(rows) - len(added)
        report = f"Added {_plural(len(added), 'custom question')} ({by})"
        if dup:
            report += f"; {dup} already stored {'was' if dup == 1 else 'were'} skipped"
        report += (f". This server now has {len(new['questions'])}; they join the draw in new games "
                   "(/politics questions list shows their ids).")
        return new, report

    def server_list(self, kind: str, current: dict) -> str:
        rows = [r for r in current.get("questions", []) if isinstance(r, dict)]
        if not rows:
            return "This server has no custom questions. Admins add some with /politics questions upload (CSV or JSON)."
        lines = [f"**{len(rows)} custom question{'s' if len(rows) != 1 else ''}** (remove one with /politics "
                 "questions remove id:<id>, or all with id:all):"]
        size = len(lines[0])
        for i, r in enumerate(rows):
            st = f" [{r.get('state')}]" if r.get("state") else ""
            text = str(r.get("question", ""))
            line = f"• `{questions.custom_id(r)}` {r.get('category')}{st}: {text[:70]}{'…' if len(text) > 70 else ''}"
            if size + len(line) > 1800:
                lines.append(f"… and {len(rows) - i} more.")
                break
            lines.append(line)
            size += len(line) + 1
        return "\n".join(lines)

    def server_remove(self, kind: str, ident: str, current: dict) -> tuple[dict, str]:
        rows = [r for r in current.get("questions", []) if isinstance(r, dict)]
        key = ident.strip().lower()
        new = dict(current)
        if key == "all":
            new["questions"] = []
            return new, f"Removed all {_plural(len(rows), 'custom question')}."
        if not key.startswith("custom-"):
            key = f"custom-{key}"
        keep = [r for r in rows if questions.custom_id(r) != key]
        if len(keep) == len(rows):
            raise RuleError(f"There is no custom question '{ident[:40]}'; /politics questions list shows the ids.")
        new["questions"] = keep
        return new, f"Removed custom question {key}; {_plural(len(keep), 'custom question')} left."

    # ---- views ---------------------------------------------------------
    def _phase_view(self, state: TriviaState) -> str:
        ph = state.phase
        if ph in ("start", "move", "choose", "claim"):
            p = state.players[state.turn]
            return "dc" if ph == "start" and p.at == DC else "turn"
        if ph == "deal":
            return "offer"
        if ph == "question":
            q = state.q
            return "help" if (q.responders or q.offers or (q.helper is not None and q.hint is None)) else "question"
        if ph in ("h2h", "review"):
            return "runoff" if state.h2h.kind == "runoff" else "speed"
        return ph

    def view(self, state: TriviaState, seat: int | None) -> dict:
        n = len(state.seats)
        players = []
        for s in range(n):
            p = state.players[s]
            held = chips_of(state, s)
            players.append({
                "seat": s, "name": state.seats[s].name, "bot": state.seats[s].bot, "home": p.home, "at": p.at,
                "cash": p.cash, "pv": p.pv, "ev": sum(EV[c] for c in held), "chips": held,
                "cards": len(p.hand) + len(p.dealt), "played": len(p.played),
                "played_cards": [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.played],
                "dc_turns": p.dc_turns if p.at == DC else 0, "debt": p.debt, "skip": p.skip, "out": p.out,
                "roll": p.roll, "wrapup": p.wrapup, "right": p.right,
            })
        question = None
        if state.phase == "question" and state.q is not None:
            q = state.q
            question = {"category": q.category, "state": q.state, "text": self._qtext(state, q.qid),
                        "choices": list(q.choices), "seconds_left": state.options.question_seconds,
                        "asker": q.asker, "helper": q.helper, "offers": [list(o) for o in q.offers]}
        elif state.phase in ("h2h", "review") and state.h2h is not None:
            h = state.h2h
            qq = self._question(state, h.qids[h.qn]) if h.qn < len(h.qids) else None
            if qq is not None and state.phase == "h2h":
                question = {"category": qq.category, "state": qq.state if qq.category == "state" else None,
                            "text": qq.text, "choices": None, "seconds_left": state.options.question_seconds,
                            "answered": [a is not None for a in h.answers]}
        runoff = None
        if state.h2h is not None and state.phase in ("h2h", "review"):
            h = state.h2h
            runoff = {"seats": list(h.seats), "round": h.round, "scores": list(h.scores), "kind": h.kind,
                      "question": h.qn + 1, "questions": len(h.qids), "queue": list(h.queue)}
            if state.phase == "review":
                runoff["revealed"] = {"answers": list(h.answers), "verdicts": list(h.verdicts),
                                      "answer": self._question(state, h.qids[h.qn]).answer}
        wildcard = None
        if state.phase == "wildcard" and state.wild is not None:
            w = state.wild
            card = WILD[w.card]
            wildcard = {"kind": card.kind, "text": card.text, "performer": w.performer, "stage": w.stage,
                        "actor": w.actor, "votes": len(w.votes), "seconds": card.seconds,
                        "words": len((card.secret or "").split()) if w.stage == "performing" else None}
        deal = None
        if state.deal is not None:
            d = state.deal
            deal = {"buyer": d.buyer, "holder": d.holder, "state": d.state, "cash": d.cash, "pv": d.pv,
                    "chips": list(d.chips), "accepted": d.accepted}
        v: dict = {
            "game": self.id, "phase": self._phase_view(state),
            "step": state.phase,
            "turn": state.turn if state.phase not in ("homes", "over", "h2h", "review") else None,
            "round": (state.turns - 1) // n + 1 if state.turns else 0,
            "max_rounds": state.options.max_rounds,
            "players": players,
            "chips": dict(state.chips), "ev": dict(EV), "majority": MAJORITY,
            "dice": list(state.dice) if state.dice else None,
            "path": list(state.path) if state.path else None,
            "question": question, "runoff": runoff, "wildcard": wildcard, "deal": deal,
            "chooser": self._chooser(state) if state.phase == "homes" else None,
            "headline": state.headline, "log": list(state.log[-8:]),
            "winner": state.winner, "outcome": state.outcome,
            "wrapup_votes": sum(1 for p in state.players if p.wrapup),
            "gerrymander_deck": len(state.gdeck),
        }
        if seat is not None and 0 <= seat < n:
            p = state.players[seat]
            v["you"] = seat
            v["hand"] = [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.hand]
            v["dealt"] = [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.dealt]
            w = state.wild
            if w is not None and w.performer == seat and WILD[w.card].secret:
                v["secret"] = WILD[w.card].secret
            q = state.q
            if q is not None and q.hint is not None and seat in (q.asker, q.helper):
                v["hint"] = q.hint + 1
            h = state.h2h
            if h is not None and state.phase == "h2h" and seat in h.seats:
                v["my_answer"] = h.answers[h.seats.index(seat)]
        return v

    def _qtext(self, state: TriviaState, qid: str) -> str:
        q = self._question(state, qid)
        return q.text if q is not None else "?"

    def result(self, state: TriviaState) -> Result:
        if state.phase != "over":
            return _NOT_OVER
        n = len(state.seats)
        return Result(finished=True, winners=[state.winner] if state.winner is not None else [],
                      scores=[float(ev_of(state, s)) for s in range(n)], summary=state.outcome)

    def status_text(self, state: TriviaState) -> str:
        ph = state.phase
        if ph == "over":
            return state.outcome
        n = len(state.seats)
        if ph == "homes":
            chooser = self._chooser(state)
            waiting = [self._name(state, s) for s, p in enumerate(state.players) if p.dealt]
            bits = []
            if chooser is not None:
                bits.append(f"{self._name(state, chooser)} chooses a home state (`home TX`)")
            if waiting:
                bits.append(f"returning a Gerrymander card: {', '.join(waiting)}")
            rolls = ", ".join(f"{self._name(state, s)} {state.players[s].roll}" for s in state.home_order)
            return f"Setup (opening roll: {rolls}) · " + " · ".join(bits)
        standings = " · ".join(f"{self._name(state, s)} {ev_of(state, s)} EV/{state.players[s].pv}M PV/"
                               f"{_money(state.players[s].cash)}" for s in range(n) if not state.players[s].out)
        if ph in ("h2h", "review"):
            h = state.h2h
            a, b = h.seats
            label = "Runoff" if h.kind == "runoff" else "Speed play"
            what = (f"question {h.qn + 1}/{len(h.qids)}" + (", waiting for answers" if ph == "h2h" else ", review"))
            return (f"{label}: {self._name(state, a)} {h.scores[0]} – {h.scores[1]} {self._name(state, b)} · {what}"
                    f" · {standings}")
        name = self._name(state, state.turn)
        p = state.players[state.turn]
        where = "D.C." if p.at == DC else NAMES.get(p.at or "", "?")
        what = {"start": "to `roll` or `fly`" + (" (or `stay`)" if p.at == DC else ""),
                "move": f"to `move` {sum(state.dice or [0])} steps", "choose": "to `ask` a question (or `offer`)",
                "claim": "may `claim` D.C.", "question": "answering a question",
                "deal": f"waiting for {self._name(state, state.deal.holder)} to `deal yes|no`" if state.deal else "",
                "wildcard": "performing a Wildcard"}.get(ph, ph)
        rnd = (state.turns - 1) // n + 1
        limit = f"/{state.options.max_rounds}" if state.options.max_rounds else ""
        return f"Round {rnd}{limit} · {name} (in {where}) {what} · {standings}"

    def private_text(self, state: TriviaState, seat: int) -> str:
        if not 0 <= seat < len(state.seats):
            return ""
        name = self._name(state, seat)
        p = state.players[seat]
        lines = []
        w = state.wild
        if w is not None and w.performer == seat and WILD[w.card].secret:
            lines.append(f"**{name}**, your Wildcard secret: **{WILD[w.card].secret}** (never type it in the channel).")
        q = state.q
        if q is not None and q.hint is not None and seat == q.asker:
            lines.append(f"**{name}**, {self._name(state, q.helper)} suggests **{q.hint + 1}. {q.choices[q.hint]}**.")
        h = state.h2h
        if h is not None and state.phase == "h2h" and seat in h.seats:
            mine = h.answers[h.seats.index(seat)]
            qq = self._question(state, h.qids[h.qn])
            if qq is not None:
                lines.append(f"**{name}**, question {h.qn + 1} of {len(h.qids)}: {qq.text}")
            lines.append(f"**{name}**, " + ("you have not answered this question yet (type it with the button or "
                                             "`guess …`)." if mine is None else f"your answer: “{mine or '(blank)'}”."))
        if p.dealt:
            lines.append(f"**{name}**, return one of your three opening Gerrymander cards (`discard <id>`):")
            for c in p.dealt:
                lines.append(f"• `{c}` **{GERRY[c].title}** — {GERRY[c].text}")
        elif p.hand:
            lines.append(f"**{name}**, your Gerrymander cards (`play <id>` on your turn):")
            for c in p.hand:
                ok = " ✅ playable now" if self._can_play(state, seat, c) else ""
                lines.append(f"• `{c}` **{GERRY[c].title}** — {GERRY[c].text}{ok}")
        if p.debt:
            lines.append(f"**{name}**, you owe the bank {_money(p.debt)}.")
        return "\n".join(lines)

    def token_label(self, state: TriviaState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        if not prefix:
            return {"roll": "🎲 roll the dice", "fly": "✈️ fly ($2M)", "stay": "stay in D.C. (+$10M)",
                    "move": "move", "ask": "take a question", "offer": "offer to buy this chip",
                    "deal": "answer the offer", "answer": "answer", "callhelp": "ask for help", "help": "offer help",
                    "nohelp": "no help", "hire": "accept help", "decline": "turn down help",
                    "suggest": "suggest an answer", "claim": "claim D.C. (3 EV)", "end": "end turn",
                    "play": "play a Gerrymander card", "perform": "▶ perform", "giveup": "give up",
                    "judge": "judge", "pass": "hand in a blank answer", "overrule": "overrule a verdict",
                    "ok": "accept the verdicts", "wrapup": "vote to wrap up", "discard": "return a Gerrymander card",
                    "home": "choose a home state"}.get(token, token)
        head = prefix[0]
        if head in ("fly", "move", "home") and len(prefix) == 1 and token in EV:
            holder = state.chips.get(token)
            tail = "free" if holder is None else ("yours" if holder == seat else f"held by {self._name(state, holder)}")
            return f"{NAMES[token]} ({EV[token]} EV, {tail})" if token != DC else "D.C. (+$10M, turn ends)"
        if head == "ask" and len(prefix) == 1:
            return {"state": "State (free)", "general": "General (free)", "government": "Government ($2M)"}.get(token, token)
        if head in ("answer", "suggest") and len(prefix) == 1 and token.isdigit() and state.q is not None:
            i = int(token) - 1
            if 0 <= i < len(state.q.choices):
                return f"{token}. {state.q.choices[i]}"
        if head == "deal" and len(prefix) == 1:
            return {"yes": "✅ accept", "no": "❌ decline"}.get(token, token)
        if head == "judge" and len(prefix) == 1:
            return {"yes": "✅ done", "no": "❌ not done"}.get(token, token)
        if head in ("play", "discard") and len(prefix) == 1 and token.isdigit() and int(token) in GERRY:
            c = GERRY[int(token)]
            return f"{c.title}: {c.text}"
        if head == "offer":
            if len(prefix) == 1:
                return "no cash" if token == "0" else _money(int(token)) if token.isdigit() else token
            if len(prefix) == 2:
                return "no Popular Votes" if token == "0" else f"{token}M Popular Votes"
            if len(prefix) == 3:
                return "no chips" if token == "-" else f"the {token} chip ({EV.get(token, '?')} EV)"
        if head == "help":
            if len(prefix) == 1:
                return "free" if token == "0" else token
            if len(prefix) == 2:
                return {"cash": "$M", "pv": "M Popular Votes"}.get(token, token)
        if head in ("hire", "decline", "overrule", "perform") and len(prefix) == 1:
            try:
                s = resolve_seat([x.name for x in state.seats], token)
            except RuleError:
                return token
            if head == "hire" and state.q is not None:
                o = next((o for o in state.q.offers if o[0] == s), None)
                if o:
                    price = "free" if o[1] == 0 else (_money(o[1]) if o[2] == "cash" else f"{o[1]}M PV")
                    return f"{self._name(state, s)} ({price})"
            return self._name(state, s)
        return token

    def describe_action(self, state: TriviaState, seat: int, action: Action) -> str:
        if isinstance(action, (Fly, Move, Home)):
            code = code_of(action.state) or action.state
            return f"{action.verb} to {NAMES.get(code, code)} ({EV.get(code, '?')} EV)" if action.verb != "home" \
                else f"home state {NAMES.get(code, code)}"
        if isinstance(action, Answer) and state.q is not None and 1 <= action.choice <= len(state.q.choices):
            return f"answer {action.choice}: {state.q.choices[action.choice - 1]}"
        if isinstance(action, Play) and action.card in GERRY:
            return f"play Gerrymander {action.card}: {GERRY[action.card].title}"
        if isinstance(action, Guess):
            return "hand in your answer" if state.phase == "h2h" else f"guess “{action.answer[:60]}”"
        return action.text()

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: TriviaState, seat: int, rng: Rng) -> Action:
        from .ai import choose
        return choose(self, state, seat, rng)


GAME = PoliticsTrivia()
