"""Primary/General from one seat's view: the search's picture of the hidden cards.

A seat sees its own hand, the table (cards in play, the discard pile) and how many cards each
rival holds. Everything else — the rivals' hands and the deck's order — is dealt again from the
cards it has not seen, hand sizes kept; the random stream (the next starter, tie-breaks) is
replaced (engines.core.Game.determinize says why).
"""
from __future__ import annotations

from ..rng import Rng
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the state's class lives in game.py, which imports this module
    from .game import PGState


def determinize(copy: PGState, seat: int, rng: Rng) -> PGState:
    """Rewrites `copy` (a private clone of the real state) as `seat` could picture it."""
    others = [s for s in range(len(copy.hands)) if s != seat]
    unseen = list(copy.deck)
    for s in others:
        unseen.extend(copy.hands[s])
    unseen.sort()  # the pool's order must not tell where its cards were
    rng.shuffle(unseen)
    for s in others:
        k = len(copy.hands[s])
        copy.hands[s] = sorted(unseen[:k])
        unseen = unseen[k:]
    copy.deck = unseen
    copy.rng = rng.next64()
    return copy
