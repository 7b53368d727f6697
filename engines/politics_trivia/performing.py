"""AI seats and the performance Wildcards (charades, drawing, direct another): the house rule
that gets them through cards made for bodies and pencils (docs/games/politics-trivia.md).

An AI seat can neither act nor watch. So when an AI seat performs a guessing card, or guesses at
one, the card's two minutes run in STAGES equal stages instead of one:

* An AI performer "acts" in clues: at the start a public fact about the answer (CLUES, written
  for each card, never naming it), after the first stage each word's first letter, after the
  second every other letter. Anyone guesses with the normal guess (`guess …`, the text box, or
  plain chat on Discord).
* An AI guesser, which cannot see a human's charade, guesses at the end of every stage: right
  with chance ai_accuracy × (stages done) / STAGES, as if it followed along (the same trust with
  which it judges a physical challenge), else a wrong answer from the other cards of the kind,
  said in the channel.

Whatever happens, the card ends by its normal rules (a right guess, give-up, time) and always
says the answer. A table of humans only keeps the one two-minute clock of the rulebook.
"""
from __future__ import annotations

from ..core import Event
from ..rng import Rng
from .acting import name_of
from .board import GUESSING, WILD, _ev
from .cards import Wildcard
from .models import TriviaState

STAGES = 3

# A public fact about each secret: the AI performer's first clue. A test keeps every word of the
# answer out of its clue.
CLUES: dict[str, str] = {
    "charades-1": "a campaign-trail ritual with the youngest people in the crowd, who cannot vote yet",
    "charades-2": "a copper gift from France holding a torch over New York Harbor",
    "charades-3": "talking for hours on the Senate floor to delay a vote",
    "charades-4": "what a candidate does along a rope line of voters, palm to palm",
    "charades-5": "what a President-elect does on January 20, one hand on a Bible",
    "charades-6": "what a citizen does in a booth on Election Day",
    "charades-7": "Washington's boat trip on a winter night in 1776, before Trenton",
    "charades-8": "travelling town to town on wheels painted with the candidate's slogan",
    "charades-9": "sounding Philadelphia's cracked symbol of independence",
    "charades-10": "what a President does from the mound on baseball's opening day",
    "charades-11": "four presidents carved into granite in South Dakota's Black Hills",
    "charades-12": "reporters shouting questions at a podium in the briefing room",
    "drawing-1": "the President's home at 1600 Pennsylvania Avenue",
    "drawing-2": "the national bird, with a white head",
    "drawing-3": "Philadelphia's cracked symbol of independence",
    "drawing-4": "the rounded top of the building where Congress meets",
    "drawing-5": "where a voter drops a paper vote on Election Day",
    "drawing-6": "fifty stars and thirteen stripes",
    "drawing-7": "the top-hatted, white-bearded man on the poster who says 'I want YOU'",
    "drawing-8": "the Democratic Party's animal",
    "drawing-9": "the Republican Party's animal",
    "drawing-10": "San Francisco's orange-red suspension span",
    "drawing-11": "the little wooden hammer a Speaker bangs for order",
    "drawing-12": "Lincoln's humble wooden birthplace, a campaign symbol since 1840",
    "drawing-13": "a round pin with a candidate's name, worn on a lapel",
    "direct-1": "swinging for the fences at the ballpark",
    "direct-2": "a White House tradition every November, before Thanksgiving dinner",
    "direct-3": "opening a new bridge or factory with big scissors",
    "direct-4": "riding slowly down Main Street on the Fourth of July, greeting the crowd",
    "direct-5": "what a President does with many pens when Congress sends an act",
    "direct-6": "how a judge or a Speaker calls the room to order",
    "direct-7": "a hand raised to the brow as the colors pass",
    "direct-8": "Iowa's summer food, eaten row by row with butter",
    "direct-9": "pulling two oars across a lake",
    "direct-10": "addressing a rally from behind a lectern",
    "direct-11": "a dairy chore candidates try in the Iowa barns",
    "direct-12": "a breakfast stop in New Hampshire, spatula in hand",
}


def ai_seats(state: TriviaState) -> list[int]:
    return [s for s, seat in enumerate(state.seats) if seat.bot and not state.players[s].out]


def staged(state: TriviaState) -> bool:
    """Whether the running performance follows the house rule: a guessing card with an AI seat in it
    when it started. A player who leaves during it hands their seat to the AI, but the card keeps its
    clock: its stages (or its one clock) don't change halfway."""
    w = state.wild
    if w is None or w.stage != "performing" or WILD[w.card].kind not in GUESSING:
        return False
    if w.staged is not None:
        return w.staged
    return bool(ai_seats(state))


def stage_seconds(card: Wildcard) -> int:
    return max(1, card.seconds // STAGES)


def clue(card: Wildcard, n: int) -> str:
    """The AI performer's n-th clue (1-based): the fact, then first letters, then every other letter."""
    secret = card.secret or ""
    if n <= 1:
        return CLUES.get(card.id, "something from American politics") + "."
    def shown(word: str) -> str:
        keep = (lambda i: i == 0) if n == 2 else (lambda i: i % 2 == 0)
        return " ".join(ch if not ch.isalpha() or keep(i) else "_" for i, ch in enumerate(word))
    return "`" + " / ".join(shown(word) for word in secret.split()) + "`"


def opening(state: TriviaState) -> list[Event]:
    """What the house rule adds when a staged performance starts."""
    w = state.wild
    assert w is not None  # only called once a performance starts
    card = WILD[w.card]
    step = stage_seconds(card)
    if state.seats[w.performer].bot:
        name = name_of(state, w.performer)
        return [_ev(f"🤖 An AI can't act or draw, so {name} gives {STAGES} clues instead, one every {step} "
                    f"seconds. Clue 1: {clue(card, 1)}")]
    return [_ev(f"🤖 AI seats can't watch: each guesses once every {step} seconds, as if it followed along.")]


def stage_over(state: TriviaState, events: list[Event]) -> int | None:
    """A stage of a staged performance ran out: the AI guessers guess, and an AI performer gives its
    next clue if time is left. Returns the seat that guessed it, or None."""
    w = state.wild
    assert w is not None  # only called while a performance runs
    card = WILD[w.card]
    w.clues += 1
    rng = Rng(state.rng)
    chance = state.options.ai_accuracy / 100.0 * w.clues / STAGES
    n = len(state.seats)
    order = sorted((s for s in ai_seats(state) if s != w.performer), key=lambda s: (s - w.performer) % n)
    others = [c.secret for c in WILD.values() if c.kind == card.kind and c.secret and c.id != card.id]
    right = None
    for s in order:
        if rng.random() < chance:
            right = s
            break
        if others:
            events.append(_ev(f"{name_of(state, s)} guesses “{others[rng.below(len(others))]}” — not it."))
    state.rng = rng.state
    if right is None and w.clues < STAGES:
        state.wait += 1  # the next stage's clock
        if state.seats[w.performer].bot:
            events.append(_ev(f"🤖 Clue {w.clues + 1} from {name_of(state, w.performer)}: "
                              f"{clue(card, w.clues + 1)}"))
    return right
