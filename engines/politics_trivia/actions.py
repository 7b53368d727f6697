"""The typed moves of Politics: The Game, and shared instances of the common ones
(the AI and legal_actions hand these out instead of building new objects)."""
from __future__ import annotations

from ..core import Action
from .board import CATEGORIES, CODES, STATES

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
    """Offer to buy the chip of the state you are in from its holder: cash ($M), Popular Votes (M) and chips
    (TX,OH or -)."""
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
    clock_only = True


ROLL, STAY, END, CLAIM, CALL_HELP, NO_HELP, GIVE_UP, PASS, OK, WRAPUP = (
    Roll(), Stay(), End(), Claim(), CallHelp(), NoHelp(), GiveUp(), PassAnswer(), Ok(), Wrapup())
FLY = {c: Fly(state=c) for c in CODES}
MOVE = {c: Move(state=c) for c in CODES}
HOME = {c: Home(state=c) for c in STATES}
ASK = {c: Ask(category=c) for c in CATEGORIES}
ANSWER = {i: Answer(choice=i) for i in range(1, 7)}
SUGGEST = {i: Suggest(choice=i) for i in range(1, 7)}
JUDGE = {True: Judge(success=True), False: Judge(success=False)}
DEAL = {True: DealAnswer(accept=True), False: DealAnswer(accept=False)}
HELP_CASH = (0, 1, 2, 3, 5)
HELP_PV = (5, 10)
OFFER_CASH = (1, 2, 3, 5, 8, 10, 15, 20, 30, 50)
OFFER_PV = (5, 10, 20, 30, 50)
