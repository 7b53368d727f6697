"""The AI seat of Politics: The Game (trivia).

It plays to the rulebook's goal, 270 electoral votes with the most Popular
Votes, and it decides from its own seat's view alone (`decide(view, legal,
rng)`): the public board, its own hand, the question on the table as its
choices read. It never reads the state behind the view.

Knowledge: an AI seat "knows" an answer with probability `ai_accuracy` (a
setting, default 65 %), drawn once per question from a hash of what it sees
(the question's text and serial number, its seat), so asking it twice gives
the same answer. It knows the answers of the project's question bank (as a
well-read player would) but not a server's custom questions, where it guesses.
When it does not know it picks a wrong choice (in a runoff: writes a wrong
choice or nothing). `fair_answer` answers the same way for the random seats of
a strength test.

Strategy, in dollars ($M) of value:
* Two roles. A *racer* (the electoral-vote leader, anyone close to it, and
  everyone at a 2-player table) goes for 270: it claims free chips, buys held
  ones, plays Gerrymander cards, and raises money in D.C. to pay for them. A
  *trailer* (far behind the leader once the board fills) cannot reach 270
  itself, so it plays for the other way to the presidency: it collects
  Popular Votes (the rulebook sends the Popular-Vote leader to a runoff
  against whoever reaches 270) and sells its chips for money. Normal turns
  trailer below 90 % of the leader's electoral votes; hard's own seat races
  on down to half of them (HARD_RACE_MARGIN), which wins far more at a large
  table of normal seats.
* Prices. Every AI asks the same public price for a chip: $1M per electoral
  vote (the rulebook's own rate for a missing vote), more from a buyer who
  would pass 220 and more again from one who would reach 270, and more when
  the seller itself is near 270. A buyer offers exactly that price when the
  chip is worth it to it, so AI deals go through; a human may haggle.
* Moving: to the reachable state worth most now (a free chip times its chance
  of answering, a chip it can buy, a chip a Gerrymander card in hand needs, or
  D.C.'s $10M when it needs money); it flies for $2M when the best state
  anywhere beats the expected value of a roll by more than the fare.
* Questions: State for a free chip, else the better of General (Popular
  Votes), Government (cash, and D.C.'s chip while it is unclaimed) and State
  on a held chip. It claims D.C. whenever it may.
* Help: offers help for $1M when it knows the answer; when it does not, it
  hires help costing at most $2M, sometimes calls for help, and follows a
  hint. It judges a performance "yes" three times in five (it cannot watch),
  and never votes to wrap up. It performs a Wildcard at once; on the guessing
  cards the engine's house rule (performing.py) gives its clues and its guesses.
"""
from __future__ import annotations

import math
import zlib

from collections.abc import Callable

from ..core import Action, seat_token
from ..rng import Rng
from .actions import (ASK, CALL_HELP, CLAIM, DEAL, END, GIVE_UP, JUDGE, NO_HELP, OK, PASS, ROLL, STAY, Answer,
                      Discard, Fly, Guess, Help, Hire, Home, Move, Offer, Perform, Play, Suggest)
from .board import ADJ, CODES, DC, EV, GERRY, MAJORITY, REACH, bank_question
from .views import TriviaView

PRICE_PER_EV = 1.0      # $M per electoral vote: the rulebook's rate for a missing vote
NEAR = 50               # a buyer who would come within this many votes of 270 pays NEAR_PREMIUM
NEAR_PREMIUM = 1.5
WIN_PREMIUM = 2.5       # … and one who would reach 270 pays this many times the price
SELLER_NEAR_PREMIUM = 1.5  # a seller within NEAR of 270 gives up a chip it needs
TRAILER_DISCOUNT = 0.5  # a trailer sells cheap (see the module notes)
RIVAL_PREMIUM = 1.5     # a racer sells to another racer only dear
RACE_MARGIN = 0.9      # a racer holds at least this share of the leader's electoral votes
# hard's own seat races on down to half the leader's votes: among seats that turn trailer at 90 % and
# sell their chips cheap, that alone won 35.6 % at eight players (docs/games/politics-trivia-ai.md,
# "7 Dec 2026, 09:57"); at two players every seat is a racer, so it changes nothing there
HARD_RACE_MARGIN = 0.5
EV_VALUE = {True: 1.6, False: 0.7}   # what one electoral vote is worth to a racer / a trailer ($M)
PV_VALUE = {True: 0.15, False: 0.5}  # what a million Popular Votes is worth to a racer / a trailer ($M)
PV_PER_CASH = 2         # Popular Votes (M) a buyer pays instead of $1M
ROLL_ODDS = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}
# ROLLS[start]: (chance, the states that many steps reach) for each throw of two dice that goes somewhere
ROLLS: dict[str, list[tuple[float, tuple[str, ...]]]] = {
    start: [(odds, REACH[start][s]) for s, odds in ROLL_ODDS.items() if REACH[start][s]] for start in REACH}


# ---------------------------------------------------------------- knowledge

def _draw(key: str) -> float:
    """A deterministic number in [0, 1) from what a seat sees."""
    return (zlib.crc32(key.encode()) & 0xFFFFFF) / float(1 << 24)


def knows(key: str, seat: int, accuracy: int) -> bool:
    return _draw(f"{key}|{seat}") < accuracy / 100.0


def choice_answer(text: str, choices: list[str], serial: int, seat: int, accuracy: int,
                  random: Callable[[], float]) -> int:
    """The 1-based choice that a player who knows an answer with probability `accuracy` gives to the
    open multiple-choice question (its text, choices as shown, serial number): the right one if it
    knows, else one of the wrong ones. `random()` draws floats in [0, 1)."""
    q = bank_question(text, choices)
    if q is None:  # a custom question: nobody's knowledge, a guess
        return int(random() * len(choices)) + 1
    right = choices.index(q.answer)
    if knows(f"{text}|{serial}", seat, accuracy):
        return right + 1
    wrong = [i for i in range(len(choices)) if i != right]
    return wrong[int(random() * len(wrong))] + 1


def free_text_answer(text: str, key: str, seat: int, accuracy: int, random: Callable[[], float]) -> str:
    """A runoff or speed-play answer (typed, no choices) from the same knowledge; "" is a blank.
    `key` tells this asking of the question from others (h2h_key)."""
    q = bank_question(text)
    if q is not None and knows(f"{text}|{key}", seat, accuracy):
        return q.answer
    if q is not None and q.wrong and random() < 0.7:
        return q.wrong[int(random() * len(q.wrong))]
    return ""


def h2h_key(kind: str, replay: int, number: int, seats: list[int]) -> str:
    """Which asking of a runoff/speed question this is: its kind, replay round, number and contestants."""
    return f"{kind}|{replay}|{number}|{seats}"


# ---------------------------------------------------------------- prices and values

def asking_price(view: TriviaView, seller: int, buyer: int, code: str, margin: float = RACE_MARGIN) -> int:
    """What an AI holder asks for its chip (in $M): public, so an AI buyer offers just that. `margin`
    is the racer rule of the seat that reckons it (`is_racer`)."""
    players = view["players"]
    return price_of(code, is_racer(view, seller, margin), is_racer(view, buyer, margin), players[seller]["ev"],
                    players[buyer]["ev"])


def price_of(code: str, seller_racer: bool, buyer_racer: bool, seller_ev: int, buyer_ev: int) -> int:
    """`asking_price` from what it depends on (a search's playouts ask it for every held chip)."""
    if not seller_racer:
        m = TRAILER_DISCOUNT  # its way to the presidency is the runoff, which needs somebody at 270
    elif buyer_racer:
        m = RIVAL_PREMIUM  # a rival in the race to 270
    else:
        m = 1.0
    after = buyer_ev + EV[code]
    if after >= MAJORITY:
        m *= WIN_PREMIUM
    elif after >= MAJORITY - NEAR:
        m *= NEAR_PREMIUM
    if seller_ev >= MAJORITY - NEAR:
        m *= SELLER_NEAR_PREMIUM
    return max(1, math.ceil(EV[code] * PRICE_PER_EV * m))


def offer_value(cash: int, pv: int, chips: list[str]) -> float:
    return cash + pv / PV_PER_CASH + sum(EV[c] * PRICE_PER_EV for c in chips)


def is_racer(view: TriviaView, seat: int, margin: float = RACE_MARGIN) -> bool:
    """Whether `seat` still plays for 270 itself (see the module notes): while half of 270 is still
    unclaimed, or while it holds at least `margin` of the leader's electoral votes."""
    players = [p for p in view["players"] if not p["out"]]
    if len(players) <= 2:
        return True
    mine = view["players"][seat]["ev"]
    lead = max(p["ev"] for p in players)
    unclaimed = sum(EV[c] for c, o in view["chips"].items() if o is None)
    return unclaimed > MAJORITY // 2 or mine >= margin * lead


class Reading:
    """The AI's reading of its view, with the values it compares moves by; `margin` is its racer
    rule (`is_racer`): normal's, or hard's own (HARD_RACE_MARGIN)."""

    def __init__(self, view: TriviaView, margin: float = RACE_MARGIN):
        self.view = view
        self.margin = margin
        self.seat = view["you"]
        self.me = view["players"][self.seat]
        self.s = view["settings"]
        self.acc = self.s["ai_accuracy"] / 100.0
        self.chips = view["chips"]
        self.racer = is_racer(view, self.seat, margin)
        self.unclaimed = sum(EV[c] for c, o in self.chips.items() if o is None)
        # a racer's every vote counts more the closer it is to 270
        self.ev_value = EV_VALUE[self.racer] * ((1 + self.me["ev"] / MAJORITY) if self.racer else 1)
        self.pv_value = PV_VALUE[self.racer]
        if self.racer and self.me["ev"] >= MAJORITY - NEAR and self._pv_behind():
            self.pv_value = 0.6  # near 270 without the Popular-Vote lead: a runoff looms
        self.wanted = {c for card in view["hand"] for c in GERRY[card["id"]].need_chips}
        self._places: dict[str, float] = {}
        self._rolls: dict[str, float] = {}
        self._racers: dict[int, bool] = {self.seat: self.racer}
        self._best_question: tuple[float, str] | None = None

    def place(self, code: str) -> float:
        """place_value, remembered for this decision (a flight weighs every state's rolls)."""
        v = self._places.get(code)
        if v is None:
            v = self._places[code] = self.place_value(code)
        return v

    def roll_value(self, start: str) -> float:
        """The expected value of rolling from `start` and moving to the best state the dice reach,
        remembered for this decision. A turn's start weighs the rolls from every state a flight
        reaches, which touches each state's value thousands of times: so every value is worked out
        once and the dice's best is taken by lookups (this was 85 % of a searched move's time)."""
        v = self._rolls.get(start)
        if v is None:
            value_of = self._all_places().__getitem__
            v = self._rolls[start] = sum(odds * max(map(value_of, reach)) for odds, reach in ROLLS[start])
        return v

    def best_place(self) -> float:
        """The value of the best state on the map: no roll, from anywhere, is worth more."""
        return max(self._all_places().values())

    def _all_places(self) -> dict[str, float]:
        """Every state's place value, each worked out once into the memo `place` reads."""
        places = self._places
        if len(places) < len(CODES):
            value_of = self.place_value
            for code in CODES:
                if code not in places:
                    places[code] = value_of(code)
        return places

    def _pv_behind(self) -> bool:
        return any(p["pv"] > self.me["pv"] for p in self.view["players"] if p["seat"] != self.seat and not p["out"])

    def cash_value(self) -> float:
        """What $1M is worth now: full while it is short of what it wants to spend, little beyond."""
        if not self.racer:
            want = 6
        else:  # money buys chips: little is needed while plenty of votes are still free to win
            want = 10 if self.unclaimed > 100 else 40
        return 1.0 if self.me["cash"] < want else 0.25

    def best_question(self) -> tuple[float, str]:
        """The question worth most where a chip is not free, (value, category): the same in every
        state, so worked out once a decision."""
        if self._best_question is None:
            self._best_question = max(self._question_values(), key=lambda x: x[0])
        return self._best_question

    def _question_values(self) -> list[tuple[float, str]]:
        s, acc = self.s, self.acc
        out = [(acc * s["general_pv"] * self.pv_value, "general"),
               (acc * s["state_pv"] * self.pv_value - 0.01, "state")]  # General first on a tie
        if self.me["cash"] >= 2:
            cash = self.cash_value()
            gov = acc * s["government_cash"] * cash - 2 * cash
            if self.chips[DC] is None:
                gov += acc * EV[DC] * self.ev_value  # the only way to D.C.'s chip
            out.append((gov, "government"))
        return out

    def chip_gain(self, code: str) -> float:
        """What holding `code` is worth to it (before any price)."""
        gain = EV[code] * self.ev_value + (3.0 if code in self.wanted else 0.0)
        if self.me["ev"] + EV[code] >= MAJORITY:
            gain += 100.0  # the chip that makes 270
        return gain

    def buy_value(self, code: str) -> float:
        """The gain from buying `code` at its asking price, if it can and wants to (else 0)."""
        holder = self.chips[code]
        if holder is None or holder == self.seat or not self.racer:
            return 0.0
        racer = self._racers.get(holder)
        if racer is None:
            racer = self._racers[holder] = is_racer(self.view, holder, self.margin)
        players = self.view["players"]
        price = price_of(code, racer, True, players[holder]["ev"], self.me["ev"])  # it buys only as a racer
        if price > self.me["cash"]:
            return 0.0
        return self.acc * max(0.0, self.chip_gain(code) - price)

    def place_value(self, code: str) -> float:
        if code == DC:
            return 10 * self.cash_value() + (5.0 if self.me["cash"] < 2 else 0.0)  # broke: D.C. first
        holder = self.chips[code]
        if holder is None:
            return self.acc * self.chip_gain(code) + 0.5
        return max(self.buy_value(code), self.best_question()[0])

    def card_value(self, cid: int) -> float:
        c = GERRY[cid]
        gain = sum(EV[x] * self.ev_value for x in c.reward_chips if self.chips.get(x) != self.seat)
        if self.me["ev"] - sum(EV[x] for x in c.need_chips) + sum(
                EV[x] for x in c.reward_chips if self.chips.get(x) != self.seat) >= MAJORITY:
            gain += 100.0
        gain += c.reward_cash * self.cash_value() + c.reward_pv * self.pv_value
        cost = (sum(EV[x] * self.ev_value for x in c.need_chips) + c.need_cash * self.cash_value()
                + c.need_pv * self.pv_value)
        return gain - cost

    def best_card(self, legal: list[Action]) -> Action | None:
        plays = [(self.card_value(a.card), a.card, a) for a in legal if isinstance(a, Play)]
        plays = [x for x in plays if x[0] > 0]
        return max(plays)[2] if plays else None


def _home_value(code: str) -> float:
    return EV[code] + 0.4 * sum(EV[n] for n in ADJ[code])


# ---------------------------------------------------------------- the decision

def decide(view: TriviaView, legal: list[Action], rng: Rng, margin: float = RACE_MARGIN) -> Action:
    """The bot's entry point (Game.ai_action): the AI sees only its seat's view and its legal moves.
    `margin` is its racer rule (`is_racer`): normal's by default, hard's own from `candidates`."""
    step = view["step"]
    seat = view["you"]
    if step == "homes":
        if view["dealt"]:
            ai = Reading(view, margin)
            worst = min(view["dealt"], key=lambda c: (ai.card_value(c["id"]), -c["id"]))
            return Discard(card=worst["id"])
        homes = [a for a in legal if isinstance(a, Home)]
        return max(homes, key=lambda a: (_home_value(a.state), a.state)) if homes else legal[0]
    if step == "h2h":
        return _h2h(view, seat, rng, legal)
    if step == "review":
        return OK if OK in legal else legal[0]
    ai = Reading(view, margin)
    mine = view["turn"] == seat
    if step == "start" and mine:
        return _start(ai, legal)
    if step == "move" and mine:
        moves = [a for a in legal if isinstance(a, Move)]
        return max(moves, key=lambda a: (ai.place(a.state), a.state))
    if step == "choose" and mine:
        return _choose(ai, legal)
    if step == "claim" and mine:
        return CLAIM if CLAIM in legal else END
    if step == "deal" and view["deal"] is not None and view["deal"]["holder"] == seat:
        d = view["deal"]
        price = asking_price(view, seat, d["buyer"], d["state"], margin)
        return DEAL[offer_value(d["cash"], d["pv"], d["chips"]) >= price]
    if step == "question":
        return _question(ai, legal, rng)
    if step == "wildcard":
        w = view["wildcard"]
        if w is not None and seat == w["performer"] and w["stage"] == "ready":
            perf = [a for a in legal if isinstance(a, Perform)]
            return perf[rng.below(len(perf))] if perf else GIVE_UP
        if JUDGE[True] in legal:
            return JUDGE[rng.random() < 0.6]
    for a in legal:  # anything else: the first sensible legal move
        if a.verb not in ("wrapup", "fly"):
            return a
    return legal[0] if legal else END


def candidates(view: TriviaView, legal: list[Action], rng: Rng) -> list[Action] | None:
    """The moves a search weighs (Game.ai_candidates), best first: `decide`'s own move by hard's
    racer rule (HARD_RACE_MARGIN), then where to move by what the state is worth to it, or at the
    start of a turn the Gerrymander cards worth playing, the roll, staying, and the flights with the
    best rolls from where they land. Every other decision (a question's category, a deal, a verdict)
    is `decide`'s alone, by the same rule: searched, with playouts scored by evaluation.py, they made
    hard lose to normal (docs/games/politics-trivia-ai.md)."""
    if len(legal) <= 1:
        return None
    first = decide(view, legal, rng, HARD_RACE_MARGIN)
    step = view["step"]
    if view["turn"] != view["you"] or step not in ("start", "move"):
        return [first]
    ai = Reading(view, HARD_RACE_MARGIN)
    ranked: list[Action]
    if step == "move":
        moves = [a for a in legal if isinstance(a, Move)]
        ranked = [a for a in sorted(moves, key=lambda a: (-ai.place(a.state), a.state))[:SHORTLIST]]
    else:
        flights = sorted((a for a in legal if isinstance(a, Fly)),
                         key=lambda a: (-(ai.place(DC) if a.state == DC else ai.roll_value(a.state)), a.state))
        ranked = [a for a in legal if isinstance(a, Play) and ai.card_value(a.card) > 0]
        ranked += [a for a in (ROLL, STAY) if a in legal]
        ranked += flights[:SHORTLIST]
    return [first] + [a for a in ranked if a != first]


SHORTLIST = 6  # states a search weighs for a move or a flight


def _start(ai: Reading, legal: list[Action]) -> Action:
    card = ai.best_card(legal)
    if card is not None:
        return card
    me = ai.me
    if me["at"] == DC:
        if STAY in legal and (ROLL not in legal or ai.cash_value() >= 1.0):
            return STAY  # in debt, or still short of money: another $10M
    at = me["at"]
    assert at is not None  # on a turn every candidate stands somewhere
    roll = ai.roll_value(at)
    flights = {a.state: a for a in legal if isinstance(a, Fly)}
    if flights:
        fare = 2 * ai.cash_value()
        if DC in flights and ai.place(DC) - fare > roll + 1.0:
            return flights[DC]  # D.C. pays on arrival
        # Any other flight ends the turn where it lands (the next move must leave it), so it buys a
        # better roll next turn at the price of this turn: worth it only from a poor spot. No roll is
        # worth more than the best state on the map (every state's value is at least 0), so when even
        # that could not pay, no flight can, and the rolls from some 50 states go unweighed.
        if ai.best_place() - fare <= 2 * roll + 1.0 - 1e-9:
            return ROLL
        best = max((c for c in flights if c != DC), key=lambda c: (ai.roll_value(c), c), default=None)
        if best is not None and ai.roll_value(best) - fare > 2 * roll + 1.0:
            return flights[best]
    return ROLL


def _choose(ai: Reading, legal: list[Action]) -> Action:
    card = ai.best_card(legal)
    if card is not None:
        return card
    view, me = ai.view, ai.me
    deal = view["deal"]
    if deal is not None and deal["accepted"]:
        return ASK["general"]  # any right answer completes the deal
    code = me["at"]
    assert code is not None  # after a move every candidate stands somewhere
    holder = ai.chips.get(code)
    if holder is None:
        return ASK["state"]
    if holder != ai.seat and not view["offer_made"] and ai.buy_value(code) > 0:
        price = asking_price(view, holder, ai.seat, code, ai.margin)
        return Offer(cash=price, pv=0, chips="-")
    return ASK[ai.best_question()[1]]


def _question(ai: Reading, legal: list[Action], rng: Rng) -> Action:
    view, seat = ai.view, ai.seat
    q = view["question"]
    choices = q["choices"] if q is not None else None
    assert q is not None and choices is not None  # the step is a multiple-choice question
    accuracy = ai.s["ai_accuracy"]
    if seat == q["asker"]:
        if view.get("hint") is not None:
            return Answer(choice=view["hint"])
        answer = choice_answer(q["text"], choices, q["serial"], seat, accuracy, rng.random)
        bank = bank_question(q["text"], choices)
        knows_it = bank is not None and choices[answer - 1] == bank.answer
        if not knows_it:
            for a in legal:
                if isinstance(a, Hire):
                    offer = next((o for o in q["offers"] if _token_of(view, o[0]) == a.helper), None)
                    if offer is not None and (offer[1] == 0 or (offer[2] == "cash" and offer[1] <= 2)):
                        return a
            if CALL_HELP in legal and not q["offers"] and ai.me["cash"] >= 3 and rng.random() < 0.3:
                return CALL_HELP
        return Answer(choice=answer)
    if seat == q["helper"] and view.get("hint") is None:
        return Suggest(choice=choice_answer(q["text"], choices, q["serial"], seat, accuracy, rng.random))
    if NO_HELP in legal:
        bank = bank_question(q["text"], choices)
        if (bank is not None and knows(f"{q['text']}|{q['serial']}", seat, accuracy)
                and view["players"][q["asker"]]["cash"] >= 1):
            return Help(price=1, unit="cash")
        return NO_HELP
    return legal[0] if legal else END


def _token_of(view: TriviaView, seat: int) -> str:
    return seat_token([p["name"] for p in view["players"]], seat)


def _h2h(view: TriviaView, seat: int, rng: Rng, legal: list[Action]) -> Action:
    h2h = view["runoff"]
    if h2h is None or seat not in h2h["seats"] or view.get("my_answer") is not None or view["question"] is None:
        return legal[0] if legal else PASS
    key = h2h_key(h2h["kind"], h2h["round"], h2h["question"], h2h["seats"])
    text = free_text_answer(view["question"]["text"], key, seat, view["settings"]["ai_accuracy"], rng.random)
    return Guess(answer=text) if text else PASS
