"""The trivia rules tests' table: a game past setup, and the few moves every rules test makes."""
from __future__ import annotations

from engines import Seat
from engines.politics_trivia import GAME
from engines.politics_trivia import game as g
from engines.rng import Rng

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal"]


def fresh(n=3, seed=1, homes=None, **opts):
    """A game past setup: everyone has returned a card and chosen a home; seat 0 to act at the start of a turn."""
    s = GAME.setup([Seat(name=NAMES[i]) for i in range(n)], GAME.options(opts), seed)
    homes = homes or ["TX", "NY", "CA", "FL", "OH", "PA", "GA", "NC"][:n]
    for i, p in enumerate(s.players):
        if p.dealt:
            GAME.apply_in_place(s, i, g.Discard(card=p.dealt[0]))
    for seat in list(s.home_order):
        GAME.apply_in_place(s, seat, g.Home(state=homes[seat]))
    assert s.phase == "start"
    s.turn = 0
    return s


def act(s, seat, text):
    return GAME.apply_in_place(s, seat, GAME.parse_action(text))


def public(events):
    return "\n".join(e.text for e in events if e.to is None)


def rng_for(a, b):
    for r in range(200_000):
        x = Rng(r)
        if (x.die(), x.die()) == (a, b):
            return r
    raise AssertionError("no such seed")


def at_choose(s, seat, code):
    s.turn = seat
    s.players[seat].at = code
    s.phase = "choose"
    s.dice = [1, 2]


def ask(s, seat, cat):
    act(s, seat, f"ask {cat}")
    assert s.phase == "question"
    return s.q


def answer(s, seat, right=True):
    q = s.q
    pick = q.correct if right else (q.correct + 1) % len(q.choices)
    return act(s, seat, f"answer {pick + 1}")
