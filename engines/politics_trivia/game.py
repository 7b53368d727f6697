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

from ..core import SYSTEM, Action, Event, Game, Options, Result, RuleError, Seat, TextPrompt, Timer, seat_token
from ..rng import Rng
from .actions import (ANSWER, ASK, CALL_HELP, CLAIM, DEAL, END, FLY, GIVE_UP, HELP_CASH, HELP_PV, HOME, JUDGE, MOVE,
                      NO_HELP, OFFER_CASH, OFFER_PV, OK, PASS, ROLL, STAY, SUGGEST, WRAPUP, Answer, Ask, CallHelp,
                      Claim, DealAnswer, Decline, Discard, End, Fly, GiveUp, Guess, Help, Hire, Home, Judge, Move,
                      NoHelp, Offer, Ok, Overrule, PassAnswer, Perform, Play, Roll, Stay, Suggest, Timeout, Wrapup)
from .asking import QuestionsMixin
from .board import CODES, DC, EV, GERRY, GUESSING, JUDGED, REACH, STATES, WILD, _ev, _match, _secret_question
from .gerrymander import GerrymanderMixin
from .models import PlayerState, TriviaOptions, TriviaState, chips_of, ev_of
from .offers import OffersMixin
from .runoff import RunoffMixin
from .server_data import ServerDataMixin
from .turns import TurnsMixin
from .views import ViewsMixin
from .wildcards import WildcardsMixin

# Re-exported: the bot, the renderer and the tests know these names from `game`.
from .board import ADJ, CATEGORIES, LAYERS, MAJORITY, NAMES, SEA_LANES, TOTAL_EV, code_of, walk  # noqa: E402,F401,I001
from .models import H2H, Deal, QState, WildState, _minimal_chips  # noqa: E402,F401

_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")


class PoliticsTrivia(TurnsMixin, QuestionsMixin, OffersMixin, GerrymanderMixin, WildcardsMixin, RunoffMixin,
                     ServerDataMixin, ViewsMixin, Game[TriviaState]):
    id = "politics-trivia"
    title = "Politics: The Game (trivia)"
    min_players = 2
    max_players = 8
    renderer_module = "render.politics_trivia"
    text_board_module = "render.text.politics_trivia"
    doc = "docs/games/politics-trivia.md"
    short_settings = {"max_rounds": "2", "question_seconds": "10", "offer_seconds": "10", "review_seconds": "5",
                      "turn_seconds": "15"}
    State = TriviaState
    OptionsModel = TriviaOptions
    actions = (Discard, Home, Roll, Fly, Stay, Move, Ask, Offer, DealAnswer, Answer, CallHelp, Help, NoHelp, Hire,
               Decline, Suggest, Claim, End, Play, Perform, GiveUp, Judge, Guess, PassAnswer, Overrule, Ok, Wrapup,
               Timeout)
    listens_to_chat = True
    # 270 with the most Popular Votes; a runoff; speed play after the wrap-up vote; or after the round
    # limit or a stalled race (the backstops)
    endings = ("270", "runoff", "speed", "limit")
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
        "• 270+ EV and no rival with more PV wins at once. 270+ EV with a rival ahead on PV: a **runoff** "
        "against the PV leader — 5 General + 5 State questions, no "
        "choices, typed answers (`guess …`) in secret, no help; most right takes the other's votes and money.\n"
        "• **Speed play** after `max_rounds` rounds, a majority `wrapup` vote, or `stall_rounds` rounds without a "
        "new high of EV: head-to-head rounds of 5 General "
        "questions from the lowest EV up; the winner takes the loser's votes; last one standing wins.\n"
        "• Free-text verdicts can be overruled by the other players (majority) with `overrule`.")

    # ---- setup ---------------------------------------------------------
    def setup(self, seats: list[Seat], options: Options, seed: int, server: dict | None = None) -> TriviaState:
        opts = self.setup_options(seats, options, TriviaOptions, name="Politics: The Game", seated="candidates")
        n = len(seats)
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
                out.extend(HOME[c] for c in STATES if c not in taken)
            return out
        if ph in ("h2h", "review"):
            h = state.h2h
            if ph == "h2h":
                # Answers are free text (text_prompts: `guess …`); `pass` (a blank answer) is
                # typed, never a lone button that could be pressed by mistake. AI seats answer
                # through ai_action; random seats let the clock run out (a blank answer).
                return out
            if seat in h.reviewers and seat not in h.oks:
                out.append(OK)
                out.extend(Overrule(seat=self._tok(state, a)) for a in self._overrulable(state, seat))
            return out
        mine = seat == state.turn
        if ph == "start" and mine:
            if p.at == DC:
                if p.dc_turns < 4:
                    out.append(STAY)
                if p.debt <= 0 or p.dc_turns >= 4:
                    out.append(ROLL)
                    if p.cash >= 2:
                        out.extend(FLY[c] for c in CODES if c != DC)
            else:
                out.append(ROLL)
                if p.cash >= 2:
                    out.extend(FLY[c] for c in CODES if c != p.at)
            out.extend(self._playable(state, seat))
        elif ph == "move" and mine:
            out.extend(MOVE[c] for c in REACH[p.at][sum(state.dice)])
            out.extend(self._playable(state, seat))
        elif ph == "choose" and mine:
            out.append(ASK["state"])
            out.append(ASK["general"])
            if p.cash >= 2:
                out.append(ASK["government"])
            out.extend(self._offers(state, seat))
            out.extend(self._playable(state, seat))
            out.append(END)
        elif ph == "claim" and mine:
            if state.chips[DC] is None:  # a Gerrymander card played meanwhile may have taken it
                out.append(CLAIM)
            out.extend(self._playable(state, seat))
            out.append(END)
        elif ph == "deal" and seat == state.deal.holder:
            out.extend((DEAL[True], DEAL[False]))
        elif ph == "question":
            q = state.q
            k = len(q.choices)
            if seat == q.asker:
                out.extend(ANSWER[i] for i in range(1, k + 1))
                if not q.called and q.helper is None and len(state.seats) > 1:
                    out.append(CALL_HELP)
                for s, price, unit in q.offers:
                    if self._can_pay(state, seat, price, unit):
                        out.append(Hire(helper=self._tok(state, s)))
                    out.append(Decline(helper=self._tok(state, s)))
            if seat == q.helper and q.hint is None:
                out.extend(SUGGEST[i] for i in range(1, k + 1))
            if self._may_offer_help(state, seat):
                asker = state.players[q.asker]
                out.extend(Help(price=c, unit="cash") for c in HELP_CASH if c <= asker.cash)
                out.extend(Help(price=v, unit="pv") for v in HELP_PV if v <= asker.pv)
                if seat in q.responders:
                    out.append(NO_HELP)
        elif ph == "wildcard":
            w = state.wild
            card = WILD[w.card]
            if seat == w.performer:
                if w.stage == "ready":
                    if card.kind == "direct":
                        out.extend(Perform(actor=self._tok(state, s)) for s in self._judges(state))
                    else:
                        out.append(Perform())
                out.append(GIVE_UP)
            elif w.stage == "performing" and card.kind in JUDGED and seat in self._judges(state):
                if all(v[0] != seat for v in w.votes):
                    out.extend((JUDGE[True], JUDGE[False]))
        if ph == "start" and mine and not p.wrapup:
            out.append(WRAPUP)  # any candidate may also type `wrapup` at any time of ordinary play
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
                return events + self._stay(state, seat, STAY)
            return events + self._roll(state, seat, ROLL)
        if ph == "move":
            p = state.players[seat]
            reach = REACH[p.at][sum(state.dice)]
            code = max(reach, key=lambda c: (state.chips.get(c) is None and c != DC, EV[c], c))
            events.append(_ev(f"⏰ Time: {self._name(state, seat)} is moved to the most valuable state in reach."))
            return events + self._move(state, seat, MOVE[code])
        if ph in ("choose", "claim"):
            events.append(_ev(f"⏰ Time: {self._name(state, seat)}'s turn ends."))
            return events + self._end(state, seat, END)
        if ph == "deal":
            events.append(_ev("⏰ Time: the offer counts as declined."))
            return events + self._deal(state, state.deal.holder, DEAL[False])
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
                events.append(_ev("⏰ Time: the performance starts."))
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

    # each move's handler, by its action type (the handlers live in the phase mixins)
    _HANDLERS = {
        Discard: TurnsMixin._discard, Home: TurnsMixin._home, Roll: TurnsMixin._roll, Fly: TurnsMixin._fly,
        Stay: TurnsMixin._stay, Move: TurnsMixin._move, End: TurnsMixin._end,
        Ask: QuestionsMixin._ask, Answer: QuestionsMixin._answer, Claim: QuestionsMixin._claim,
        CallHelp: QuestionsMixin._call_help, Help: QuestionsMixin._help, NoHelp: QuestionsMixin._nohelp,
        Hire: QuestionsMixin._hire, Decline: QuestionsMixin._decline, Suggest: QuestionsMixin._suggest,
        Offer: OffersMixin._offer, DealAnswer: OffersMixin._deal, Play: GerrymanderMixin._play,
        Perform: WildcardsMixin._perform, GiveUp: WildcardsMixin._giveup, Judge: WildcardsMixin._judge,
        Guess: WildcardsMixin._guess, PassAnswer: RunoffMixin._pass, Overrule: RunoffMixin._overrule,
        Ok: RunoffMixin._ok, Wrapup: RunoffMixin._wrapup,
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

    def result(self, state: TriviaState) -> Result:
        if state.phase != "over":
            return _NOT_OVER
        n = len(state.seats)
        return Result(finished=True, winners=[state.winner] if state.winner is not None else [],
                      scores=[float(ev_of(state, s)) for s in range(n)], summary=state.outcome, ending=state.ending)


    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: TriviaState, seat: int, rng: Rng) -> Action:
        from .ai import choose  # ai.py reads only the public contract; it never imports this module
        return choose(self, state, seat, rng)

    def fair_random_action(self, state: TriviaState, seat: int, random) -> Action | None:
        """A random seat in a strength test answers like a player who knows each answer as often as an
        AI seat (never a blank or a uniform pick among the choices) and never votes to wrap up."""
        from .ai import choice_answer, free_text_answer, h2h_key
        ph = state.phase
        accuracy = state.options.ai_accuracy
        if ph == "question" and seat == state.q.asker:  # what the seat's view shows of the question
            q = state.q
            return ANSWER[choice_answer(self._qtext(state, q.qid), q.choices, q.serial, seat, accuracy, random)]
        if ph == "h2h":
            h = state.h2h
            key = h2h_key(h.kind, h.round, h.qn + 1, h.seats)
            text = free_text_answer(self._qtext(state, h.qids[h.qn]), key, seat, accuracy, random)
            return Guess(answer=text) if text else PASS
        legal = [a for a in self.legal_actions(state, seat) if a is not WRAPUP]
        return legal[int(random() * len(legal))] if legal else None


    def determinize(self, state: TriviaState, seat: int, rng: Rng) -> TriviaState:  # the search's view
        from . import determinize as search_hooks
        return search_hooks.determinize(self, self.clone(state), seat, rng)

    def ai_fixed_action(self, state: TriviaState, seat: int, rng: Rng) -> Action | None:  # answers: every level alike
        from . import determinize as search_hooks
        return search_hooks.fixed_action(self, state, seat, rng)

GAME = PoliticsTrivia()
