"""Politics (1952) from one seat's view: the rivals' Speech Cards.

A seat knows its own Speech Cards and every card played (they are public); the rivals' unplayed
cards are dealt again from the cards it has not seen (the unplayed rest of the eighteen, some of
which were never dealt), hand sizes kept. The random stream (every throw of the dice) is
replaced (engines.core.Game.determinize says why).
"""
from __future__ import annotations

from ..rng import Rng
from .cards import SLUGS
from .model import P52State


def determinize(copy: P52State, seat: int, rng: Rng) -> P52State:
    """Rewrites `copy` (a private clone of the real state) as `seat` could picture it."""
    seen = set(copy.hands[seat]) if 0 <= seat < len(copy.hands) else set()
    for played in copy.played:
        seen.update(played)
    unseen = [c for c in SLUGS if c not in seen]
    rng.shuffle(unseen)
    for s in range(len(copy.hands)):
        if s == seat:
            continue
        k = len(copy.hands[s])
        copy.hands[s] = sorted(unseen[:k], key=SLUGS.index)
        unseen = unseen[k:]
    copy.rng = rng.next64()
    return copy
