"""Race for the White House from one seat's view: the draw piles.

Tally sheets, funds and played cards are all on the table; what no seat knows is the order of
the Issue and Spin piles, and the random stream (dice, reshuffles). Both piles are shuffled
afresh and the stream replaced (engines.core.Game.determinize says why).
"""
from __future__ import annotations

from ..rng import Rng
from .models import RWHState


def determinize(copy: RWHState, seat: int, rng: Rng) -> RWHState:
    """Rewrites `copy` (a private clone of the real state) as any seat could picture it."""
    copy.issues.sort()  # the piles' order must not carry over into the new one
    copy.spins.sort()
    rng.shuffle(copy.issues)
    rng.shuffle(copy.spins)
    copy.rng = rng.next64()
    return copy
