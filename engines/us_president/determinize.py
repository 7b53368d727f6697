"""U.S. President from one seat's view: the rivals' pending picks.

Everything in U.S. President is on the table except this round's picks until the reveal. A rival
who has picked keeps having picked, but what they picked is drawn again: from the game's own
AI (its softmax over estimated elector gains, which spreads over many picks) with a fresh stream,
so the search expects the picks a sensible player makes rather than any uniformly. The random
stream is replaced too (engines.core.Game.determinize says why); this game draws from it only
for its AI's choices.
"""
from __future__ import annotations

from ..rng import Rng
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # game.py imports this module; the game comes in as an argument
    from .game import USPresident, USPState


def determinize(game: USPresident, copy: USPState, seat: int, rng: Rng) -> USPState:
    """Rewrites `copy` (a private clone of the real state) as `seat` could picture it."""
    copy.rng = rng.next64()
    others = [s for s, p in enumerate(copy.picks) if p is not None and s != seat]
    for s in others:
        copy.picks[s] = None  # the AI keeps a pick it has made: forget it before asking afresh
    for s in others:
        pick = game.ai_action(copy, s, Rng(rng.next64()))
        copy.picks[s] = [pick.state, pick.size]  # type: ignore[attr-defined]
    return copy
