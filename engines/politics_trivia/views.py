"""What each seat sees: the view, the status line, private notes, text prompts, button
labels and action descriptions. Never another seat's secret.

No `from __future__ import annotations` here: the TypedDicts' annotations stay real types, so at
run time TriviaView.__required_keys__ leaves out the NotRequired ones (tests check views by it)."""
from typing import Any, NotRequired, TypedDict

from ..wording import is_you, subject
from ..core import Action, RuleError, TextPrompt, resolve_seat
from . import acting, gerrymander, pile
from .acting import name_of
from .actions import Answer, Fly, Guess, Home, Move, Play
from .board import DC, EV, GERRY, GUESSING, MAJORITY, NAMES, STATES, WILD, _money, code_of
from .models import TriviaState, ev_of, holdings

GAME_ID = "politics-trivia"


# ---- the view's shape: what render/ and the text board read, so a renamed field fails mypy ----
class CardView(TypedDict):
    """A Gerrymander card: played (public) or in a seat's own hand."""
    id: int
    title: str
    text: str


class PlayerView(TypedDict):
    seat: int
    name: str
    bot: bool
    home: str | None
    at: str | None
    cash: int                  # $M
    pv: int                    # Popular Votes, millions
    ev: int                    # electoral votes held
    chips: list[str]           # the state chips held, in code order
    cards: int                 # Gerrymander cards in hand (a count: the cards are secret)
    played: int
    played_cards: list[CardView]
    dc_turns: int              # turns spent in D.C. (0 elsewhere)
    debt: int
    skip: int                  # turns still to miss
    out: bool                  # eliminated in speed play
    roll: int                  # the opening roll
    wrapup: bool               # voted to wrap up
    right: int                 # questions answered right


class QuestionView(TypedDict):
    """The open question: a multiple-choice one on a turn, or a typed runoff/speed-play one
    (choices None). Never which answer is right."""
    category: str
    state: str | None
    text: str
    choices: list[str] | None
    seconds_left: int
    # a multiple-choice question only:
    asker: NotRequired[int]
    helper: NotRequired[int | None]
    offers: NotRequired[list[list[Any]]]  # help offered: [seat, price, unit ("cash" or "pv")]
    serial: NotRequired[int]
    # a runoff/speed-play question only: who has handed in an answer
    answered: NotRequired[list[bool]]


class RevealedView(TypedDict):
    """A runoff/speed-play question's answers once both are in (the review)."""
    answers: list[str | None]
    verdicts: list[bool]
    answer: str


class RunoffView(TypedDict):
    """A head-to-head round: the runoff, or one duel of speed play."""
    seats: list[int]
    round: int                 # 1 + tied rounds replayed
    scores: list[int]
    kind: str                  # "runoff" or "speed"
    question: int              # the open question's number, from 1
    questions: int
    queue: list[int]           # speed play: challengers still to come
    revealed: NotRequired[RevealedView]


class WildcardView(TypedDict):
    """A Wildcard being performed (never its secret)."""
    kind: str
    text: str
    performer: int
    stage: str                 # "ready" or "performing"
    actor: int | None
    votes: int                 # judges who have voted
    seconds: int
    words: int | None          # words in the secret, once the performance starts


class DealView(TypedDict):
    """An offer for a chip someone else holds."""
    buyer: int
    holder: int
    state: str
    cash: int
    pv: int
    chips: list[str]
    accepted: bool


class TriviaView(TypedDict):
    """Politics: The Game as one seat (or the channel) sees it: `Game.view`'s return."""
    game: str
    phase: str                 # what the board shows: homes, turn, dc, offer, question, help, wildcard, runoff, ...
    step: str                  # the engine's phase: homes, start, move, choose, deal, question, claim, ...
    turn: int | None
    round: int
    max_rounds: int
    settings: dict[str, Any]   # TriviaOptions as a dict
    offer_made: bool
    players: list[PlayerView]
    chips: dict[str, int | None]   # state code -> holder
    ev: dict[str, int]
    majority: int
    dice: list[int] | None
    path: list[str] | None
    question: QuestionView | None
    runoff: RunoffView | None
    wildcard: WildcardView | None
    deal: DealView | None
    chooser: int | None        # who chooses a home state now
    headline: str
    log: list[str]
    winner: int | None
    outcome: str
    wrapup_votes: int
    gerrymander_deck: int
    # a seat's own view only:
    you: NotRequired[int]
    hand: NotRequired[list[CardView]]
    dealt: NotRequired[list[CardView]]
    secret: NotRequired[str]       # the Wildcard secret of its performer
    hint: NotRequired[int]         # a hired helper's suggestion (1-based)
    my_answer: NotRequired[str | None]


def text_prompts(state: TriviaState, seat: int) -> list[TextPrompt]:
    h = state.h2h
    if state.phase == "h2h" and h is not None and seat in h.seats and h.answers[h.seats.index(seat)] is None:
        return [TextPrompt(verb="guess", label="Type your answer",
                           placeholder="Your answer (secret until both are in)")]
    w = state.wild
    if (state.phase == "wildcard" and w is not None and w.stage == "performing"
            and WILD[w.card].kind in GUESSING and seat != w.performer and 0 <= seat < len(state.seats)):
        return [TextPrompt(verb="guess", label="Guess the secret", placeholder="Your guess")]
    return []


# ---- views ---------------------------------------------------------
def phase_of(state: TriviaState) -> str:
    ph = state.phase
    if ph in ("start", "move", "choose", "claim"):
        p = state.players[state.turn]
        return "dc" if ph == "start" and p.at == DC else "turn"
    if ph == "deal":
        return "offer"
    if ph == "question":
        q = state.q
        assert q is not None  # the phase says there is one
        return "help" if (q.responders or q.offers or (q.helper is not None and q.hint is None)) else "question"
    if ph in ("h2h", "review"):
        return "runoff" if state.h2h is not None and state.h2h.kind == "runoff" else "speed"
    return ph


def view(state: TriviaState, seat: int | None) -> TriviaView:
    n = len(state.seats)
    players: list[PlayerView] = []
    holding = holdings(state)
    for s in range(n):
        p = state.players[s]
        held = holding[s]
        players.append({
            "seat": s, "name": state.seats[s].name, "bot": state.seats[s].bot, "home": p.home, "at": p.at,
            "cash": p.cash, "pv": p.pv, "ev": sum(EV[c] for c in held), "chips": held,
            "cards": len(p.hand) + len(p.dealt), "played": len(p.played),
            "played_cards": [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.played],
            "dc_turns": p.dc_turns if p.at == DC else 0, "debt": p.debt, "skip": p.skip, "out": p.out,
            "roll": p.roll, "wrapup": p.wrapup, "right": p.right,
        })
    question: QuestionView | None = None
    if state.phase == "question" and state.q is not None:
        q = state.q
        question = {"category": q.category, "state": q.state, "text": pile.text_of(state, q.qid),
                    "choices": list(q.choices), "seconds_left": state.options.question_seconds,
                    "asker": q.asker, "helper": q.helper, "offers": [list(o) for o in q.offers],
                    "serial": q.serial}
    elif state.phase in ("h2h", "review") and state.h2h is not None:
        h = state.h2h
        qq = pile.question(state, h.qids[h.qn]) if h.qn < len(h.qids) else None
        if qq is not None and state.phase == "h2h":
            question = {"category": qq.category, "state": qq.state if qq.category == "state" else None,
                        "text": qq.text, "choices": None, "seconds_left": state.options.question_seconds,
                        "answered": [a is not None for a in h.answers]}
    runoff: RunoffView | None = None
    if state.h2h is not None and state.phase in ("h2h", "review"):
        h = state.h2h
        runoff = {"seats": list(h.seats), "round": h.round, "scores": list(h.scores), "kind": h.kind,
                  "question": h.qn + 1, "questions": len(h.qids), "queue": list(h.queue)}
        if state.phase == "review":
            runoff["revealed"] = {"answers": list(h.answers), "verdicts": list(h.verdicts),
                                  "answer": pile.asked(state, h.qids[h.qn]).answer}
    wildcard: WildcardView | None = None
    if state.phase == "wildcard" and state.wild is not None:
        w = state.wild
        card = WILD[w.card]
        wildcard = {"kind": card.kind, "text": card.text, "performer": w.performer, "stage": w.stage,
                    "actor": w.actor, "votes": len(w.votes), "seconds": card.seconds,
                    "words": len((card.secret or "").split()) if w.stage == "performing" else None}
    deal: DealView | None = None
    if state.deal is not None:
        d = state.deal
        deal = {"buyer": d.buyer, "holder": d.holder, "state": d.state, "cash": d.cash, "pv": d.pv,
                "chips": list(d.chips), "accepted": d.accepted}
    v: TriviaView = {
        "game": GAME_ID, "phase": phase_of(state),
        "step": state.phase,
        "turn": state.turn if state.phase not in ("homes", "over", "h2h", "review") else None,
        "round": (state.turns - 1) // n + 1 if state.turns else 0,
        "max_rounds": state.options.max_rounds,
        "settings": state.options.model_dump(),
        "offer_made": state.offer_made,
        "players": players,
        "chips": dict(state.chips), "ev": dict(EV), "majority": MAJORITY,
        "dice": list(state.dice) if state.dice else None,
        "path": list(state.path) if state.path else None,
        "question": question, "runoff": runoff, "wildcard": wildcard, "deal": deal,
        "chooser": acting.chooser(state) if state.phase == "homes" else None,
        "headline": state.headline, "log": list(state.log[-8:]),
        "winner": state.winner, "outcome": state.outcome,
        "wrapup_votes": sum(1 for p in state.players if p.wrapup),
        "gerrymander_deck": len(state.gdeck),
    }
    if seat is not None and 0 <= seat < n:
        _add_own(state, seat, v)
    return v


def _add_own(state: TriviaState, seat: int, v: TriviaView) -> None:
    """What only `seat` sees: its cards, its Wildcard secret, its helper's hint, its typed answer."""
    p = state.players[seat]
    v["you"] = seat
    v["hand"] = [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.hand]
    v["dealt"] = [{"id": c, "title": GERRY[c].title, "text": GERRY[c].text} for c in p.dealt]
    w = state.wild
    secret = WILD[w.card].secret if w is not None and w.performer == seat else None
    if secret:
        v["secret"] = secret
    q = state.q
    if q is not None and q.hint is not None and seat in (q.asker, q.helper):
        v["hint"] = q.hint + 1
    h = state.h2h
    if h is not None and state.phase == "h2h" and seat in h.seats:
        v["my_answer"] = h.answers[h.seats.index(seat)]


def _free_home(state: TriviaState) -> str:
    taken = {p.home for p in state.players}
    return next(c for c in ("TX", *STATES) if c not in taken)


def status_text(state: TriviaState) -> str:
    ph = state.phase
    if ph == "over":
        return state.outcome
    n = len(state.seats)
    if ph == "homes":
        chooser = acting.chooser(state)
        waiting = [name_of(state, s) for s, p in enumerate(state.players) if p.dealt]
        bits = []
        if chooser is not None:
            # the command's form, for a person; with a state still free, so the example works as typed
            example = "" if state.seats[chooser].bot else f" (`home {_free_home(state)}`)"
            bits.append(f"{subject(name_of(state, chooser), 'chooses', start=True)} a home state{example}")
        if waiting:
            bits.append(f"returning a Gerrymander card: {', '.join(waiting)}")
        rolls = ", ".join(f"{name_of(state, s)} {state.players[s].roll}" for s in state.home_order)
        return f"Setup (opening roll: {rolls}) · " + " · ".join(bits)
    standings = " · ".join(f"{name_of(state, s)} {ev_of(state, s)} EV/{state.players[s].pv}M PV/"
                           f"{_money(state.players[s].cash)}" for s in range(n) if not state.players[s].out)
    if ph in ("h2h", "review"):
        h = state.h2h
        assert h is not None  # the phase says there is one
        a, b = h.seats
        label = "Runoff" if h.kind == "runoff" else "Speed play"
        what = (f"question {h.qn + 1}/{len(h.qids)}" + (", waiting for answers" if ph == "h2h" else ", review"))
        return (f"{label}: {name_of(state, a)} {h.scores[0]} – {h.scores[1]} {name_of(state, b)} · {what}"
                f" · {standings}")
    name = name_of(state, state.turn)
    p = state.players[state.turn]
    where = "D.C." if p.at == DC else NAMES.get(p.at or "", "?")
    what = {"start": "to `roll` or `fly`" + (" (or `stay`)" if p.at == DC else ""),
            "move": f"to `move` {sum(state.dice or [0])} steps", "choose": "to `ask` a question (or `offer`)",
            "claim": "may `claim` D.C.", "question": "answering a question",
            "deal": f"waiting for {name_of(state, state.deal.holder)} to `deal yes|no`" if state.deal else "",
            "wildcard": "performing a Wildcard"}.get(ph, ph)
    rnd = (state.turns - 1) // n + 1
    limit = f"/{state.options.max_rounds}" if state.options.max_rounds else ""
    return f"Round {rnd}{limit} · {name} (in {where}) {what} · {standings}"


def private_text(state: TriviaState, seat: int) -> str:
    if not 0 <= seat < len(state.seats):
        return ""
    name = name_of(state, seat)

    def to(text: str) -> str:
        """A line of the seat's own panel, naming its owner ("**Alice**, your …"); at the table "you"
        is not called by name ("Your …")."""
        return text[0].upper() + text[1:] if is_you(name) else f"**{name}**, {text}"

    p = state.players[seat]
    lines = []
    w = state.wild
    if w is not None and w.performer == seat and WILD[w.card].secret:
        lines.append(to(f"your Wildcard secret: **{WILD[w.card].secret}** (never type it in the channel)."))
    q = state.q
    if q is not None and q.hint is not None and q.helper is not None and seat == q.asker:
        lines.append(to(f"{subject(name_of(state, q.helper), 'suggests')} **{q.hint + 1}. {q.choices[q.hint]}**."))
    h = state.h2h
    if h is not None and state.phase == "h2h" and seat in h.seats:
        mine = h.answers[h.seats.index(seat)]
        qq = pile.question(state, h.qids[h.qn])
        if qq is not None:
            lines.append(to(f"question {h.qn + 1} of {len(h.qids)}: {qq.text}"))
        lines.append(to("you have not answered this question yet: choose “Type your answer” or type "
                        "`guess <answer>`." if mine is None else f"your answer: “{mine or '(blank)'}”."))
    if p.dealt:
        lines.append(to("return one of your three opening Gerrymander cards (`discard <id>`):"))
        for c in p.dealt:
            lines.append(f"• `{c}` **{GERRY[c].title}** — {GERRY[c].text}")
    elif p.hand:
        lines.append(to("your Gerrymander cards (`play <id>` on your turn):"))
        for c in p.hand:
            ok = " ✅ playable now" if gerrymander.can_play(state, seat, c) else ""
            lines.append(f"• `{c}` **{GERRY[c].title}** — {GERRY[c].text}{ok}")
    if p.debt:
        lines.append(to(f"you owe the bank {_money(p.debt)}."))
    return "\n".join(lines)


MENU_LABEL = 80  # the longest menu label a front end shows whole


def token_label(state: TriviaState, seat: int, prefix: tuple[str, ...], token: str) -> str:
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
        tail = "free" if holder is None else ("yours" if holder == seat else f"held by {name_of(state, holder)}")
        return f"{NAMES[token]} ({EV[token]} EV, {tail})" if token != DC else "D.C. (+$10M, turn ends)"
    if head == "ask" and len(prefix) == 1:
        return {"state": "State (free)", "general": "General (free)", "government": "Government ($2M)"}.get(token,
                                                                                                            token)
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
        # What the card does comes first and whole; the title only if it fits a menu label (80 characters
        # on Discord), so a cut never falls in the middle of the trade ("Turn in DE, MD chips + $5M → …").
        trade = f"Turn in {c.need_text()} → take {c.reward_text()}".replace(" Popular Votes", " PV")
        if head == "discard":
            # a table menu lists these beside other moves: without the verb a card given back reads as
            # a card played. Two characters short of a label, for the confirm button's "✓ ".
            return next(x for x in (f"↩ return {c.title}: {trade}", f"↩ return: {trade}", f"↩ return {c.title}")
                        if len(x) <= MENU_LABEL - 2)
        titled = f"{trade} ({c.title})"
        return titled if len(titled) <= MENU_LABEL else trade
    if head == "offer":
        if len(prefix) == 1:
            return "no cash" if token == "0" else _money(int(token)) if token.isdigit() else token
        if len(prefix) == 2:
            return "no Popular Votes" if token == "0" else f"{token}M Popular Votes"
        if len(prefix) == 3:
            return "no chips" if token == "-" else f"the {token} chip ({EV.get(token, '?')} EV)"
    if head == "help":
        if len(prefix) == 1:
            return "offer help free" if token == "0" else f"offer help at a price of {token}"
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
                return f"{name_of(state, s)} ({price})"
        if head == "perform":
            return f"▶ perform, {name_of(state, s)} acting"  # a directed scene's actor
        return name_of(state, s)
    return token


def describe_action(state: TriviaState, seat: int, action: Action) -> str:
    if isinstance(action, (Fly, Move, Home)):
        code = code_of(action.state) or action.state
        if action.verb == "home":
            return f"home state {NAMES.get(code, code)}"
        if code == DC or code not in EV:
            return f"{action.verb} to {NAMES.get(code, code)}" + (" (+$10M, turn ends)" if code == DC else "")
        # whose chip it is: what makes a state worth the trip
        return f"{action.verb} to {token_label(state, seat, (action.verb,), code)}"
    if isinstance(action, Answer) and state.q is not None and 1 <= action.choice <= len(state.q.choices):
        return f"answer {action.choice}: {state.q.choices[action.choice - 1]}"
    if isinstance(action, Play) and action.card in GERRY:
        return f"play Gerrymander {action.card}: {GERRY[action.card].title}"
    if isinstance(action, Guess):
        return "hand in your answer" if state.phase == "h2h" else f"guess “{action.answer[:60]}”"
    return action.text()
