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

from collections.abc import Callable
from typing import Any

from ..core import SYSTEM, Action, Event, Game, Options, Result, RuleError, Seat, TextPrompt, Timer
from ..rng import Rng
from . import (acting, ai, asking, clock, evaluation, forecast, gerrymander, legal, menus, offers, pile, runoff,
               server_data, turns, views, wildcards)
from . import determinize as search_hooks
from .actions import (ANSWER, PASS, WRAPUP, Answer, Ask, CallHelp, Claim, DealAnswer, Decline, Discard, End, Fly,
                      GiveUp, Guess, Help, Hire, Home, Judge, Move, NoHelp, Offer, Ok, Overrule, PassAnswer, Perform,
                      Play, Roll, Stay, Suggest, Timeout, Wrapup)
from .board import CODES, GERRY, WILD
from .models import PlayerState, TriviaOptions, TriviaState, ev_of
from .views import GAME_ID, TriviaView

# Re-exported: the bot, the renderer and the tests know these names from `game`.
from .board import (ADJ, CATEGORIES, DC, EV, LAYERS, MAJORITY, NAMES, REACH, SEA_LANES, STATES,  # noqa: F401
                    TOTAL_EV, code_of, walk)
from .models import H2H, Deal, QState, WildState, _minimal_chips, chips_of  # noqa: F401

_NOT_OVER = Result(finished=False, winners=[], scores=[], summary="")

Handler = Callable[[TriviaState, int, Any], list[Event]]

# Each move's handler, by its action type; the handlers live in the modules of the game's phases.
HANDLERS: dict[type[Action], Handler] = {
    Discard: turns.discard, Home: turns.home, Roll: turns.roll, Fly: turns.fly, Stay: turns.stay, Move: turns.move,
    End: turns.end,
    Ask: asking.ask, Answer: asking.answer, Claim: asking.claim, CallHelp: asking.call_help, Help: asking.offer_help,
    NoHelp: asking.no_help, Hire: asking.hire, Decline: asking.decline, Suggest: asking.suggest,
    Offer: offers.offer, DealAnswer: offers.answer_offer, Play: gerrymander.play,
    Perform: wildcards.perform, GiveUp: wildcards.give_up, Judge: wildcards.judge, Guess: wildcards.guess,
    PassAnswer: runoff.pass_answer, Overrule: runoff.overrule, Ok: runoff.ok, Wrapup: runoff.wrapup,
}


class PoliticsTrivia(Game[TriviaState]):
    """The engine contract (engines/core.py) over the functions of the game's phases: each hook
    hands the state to the module that knows that part of the rules."""
    id = GAME_ID
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
        "• Wildcards: charades, drawing and 'direct another' (the performer alone sees the secret; `guess <answer>`, "
        "or a plain message on Discord; an AI performer gives clues), physical and sing/recite (the others "
        "`judge`), campaign events (the bot applies them). "
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

    # ---- who may act, and what they may do --------------------------------
    def to_act(self, state: TriviaState) -> list[int]:
        return acting.to_act(state)

    def may_act(self, state: TriviaState, seat: int) -> bool:
        return acting.may_act(state, seat)

    def not_your_turn(self, state: TriviaState, seat: int) -> str:
        return acting.not_your_turn(state, seat)

    def legal_actions(self, state: TriviaState, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def text_prompts(self, state: TriviaState, seat: int) -> list[TextPrompt]:
        return views.text_prompts(state, seat)

    def chat_action(self, state: TriviaState, seat: int, text: str) -> Action | None:
        return wildcards.chat_action(state, seat, text)

    # ---- apply ---------------------------------------------------------
    def _apply(self, state: TriviaState, seat: int, action: Action) -> list[Event]:
        if state.phase == "over":
            raise RuleError("This game is over.")
        if isinstance(action, Timeout):
            if seat != SYSTEM:
                raise RuleError("Only the bot's clock can call time.")
            handler: Handler = _clock
        else:
            if not 0 <= seat < len(state.seats):
                raise RuleError("Only a candidate can move in Politics: The Game.")
            found = HANDLERS.get(type(action))
            if found is None:
                raise RuleError("That is not a move in Politics: The Game.")
            handler = found
        drew = state.drew
        state.drew = False
        try:
            events = handler(state, seat, action)
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

    def timer(self, state: TriviaState) -> Timer | None:
        return clock.timer(state)

    def result(self, state: TriviaState) -> Result:
        if state.phase != "over":
            return _NOT_OVER
        n = len(state.seats)
        return Result(finished=True, winners=[state.winner] if state.winner is not None else [],
                      scores=[float(ev_of(state, s)) for s in range(n)], summary=state.outcome, ending=state.ending)

    # ---- what each seat sees ---------------------------------------------
    def view(self, state: TriviaState, seat: int | None) -> TriviaView:
        return views.view(state, seat)

    def status_text(self, state: TriviaState) -> str:
        return views.status_text(state)

    def private_text(self, state: TriviaState, seat: int) -> str:
        return views.private_text(state, seat)

    def token_label(self, state: TriviaState, seat: int, prefix: tuple[str, ...], token: str) -> str:
        return views.token_label(state, seat, prefix, token)

    def menu_lead(self, state: TriviaState, seat: int) -> str | None:
        return menus.menu_lead(state, seat)

    def menu_groups(self, state: TriviaState, seat: int, prefix: tuple[str, ...],
                    tokens: list[str]) -> list[tuple[str, str, list[str]]] | None:
        return menus.menu_groups(state, seat, prefix, tokens)

    def describe_action(self, state: TriviaState, seat: int, action: Action) -> str:
        return views.describe_action(state, seat, action)

    # ---- server data: used questions and custom uploads --------------------
    def server_updates(self, state: TriviaState) -> dict:
        return server_data.server_updates(state)

    def server_import(self, kind: str, filename: str, data: bytes, current: dict) -> tuple[dict, str]:
        return server_data.server_import(kind, filename, data, current)

    def server_list(self, kind: str, current: dict) -> str:
        return server_data.server_list(kind, current)

    def server_remove(self, kind: str, ident: str, current: dict) -> tuple[dict, str]:
        return server_data.server_remove(kind, ident, current)

    # ---- AI ------------------------------------------------------------
    def ai_action(self, state: TriviaState, seat: int, rng: Rng) -> Action:
        return ai.decide(self.view(state, seat), self.legal_actions(state, seat), rng)

    def ai_candidates(self, state: TriviaState, seat: int, rng: Rng) -> list[Action] | None:
        return ai.candidates(self.view(state, seat), self.legal_actions(state, seat), rng)

    def ai_evaluate(self, state: TriviaState, seat: int) -> float | None:  # from `seat`'s own view
        return evaluation.chance(self.view(state, seat), seat)

    def ai_chance(self, state: TriviaState, seat: int) -> float | None:  # what a hint reports: a share
        return forecast.chance(self.view(state, seat), seat)

    def ai_stops_here(self, state: TriviaState, seat: int) -> bool:
        # A seat also acts inside a rival's turn (help on its question, a Wildcard vote, a deal): a
        # playout cut there would judge one sibling move before the rival's question is answered and
        # another after it. So a search judges the board only where the seat's own turn starts.
        return state.phase == "start" and state.turn == seat

    def fair_random_action(self, state: TriviaState, seat: int, random: Callable[[], float]) -> Action | None:
        """A random seat in a strength test answers like a player who knows each answer as often as an
        AI seat (never a blank or a uniform pick among the choices) and never votes to wrap up."""
        ph = state.phase
        accuracy = state.options.ai_accuracy
        q = state.q
        if ph == "question" and q is not None and seat == q.asker:  # what the seat's view shows of the question
            return ANSWER[ai.choice_answer(pile.text_of(state, q.qid), q.choices, q.serial, seat, accuracy, random)]
        h = state.h2h
        if ph == "h2h" and h is not None:
            key = ai.h2h_key(h.kind, h.round, h.qn + 1, h.seats)
            text = ai.free_text_answer(pile.text_of(state, h.qids[h.qn]), key, seat, accuracy, random)
            return Guess(answer=text) if text else PASS
        moves = [a for a in legal.legal_actions(state, seat) if a is not WRAPUP]
        return moves[int(random() * len(moves))] if moves else None

    def determinize(self, state: TriviaState, seat: int, rng: Rng) -> TriviaState:  # the search's view
        return search_hooks.determinize(self, self.clone(state), seat, rng)

    def ai_fixed_action(self, state: TriviaState, seat: int, rng: Rng) -> Action | None:  # answers: every level alike
        return search_hooks.fixed_action(self, state, seat, rng)


def _clock(state: TriviaState, seat: int, action: Action) -> list[Event]:
    """The clock ran out (a Timeout from SYSTEM): the default move of whoever it waited for."""
    return clock.timeout(state)


GAME = PoliticsTrivia()
