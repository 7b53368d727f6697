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


def private_copy(state: P52State) -> P52State:
    """A copy of `state` that shares nothing it could change with it: the lists and dicts of
    lists a move writes are copied, the rest (seats, options: never written during play, and
    the strings and ints inside) shared. A search makes one per playout, where pydantic's deep
    copy was most of its time."""
    d = dict(state.__dict__)
    for key in ("contenders", "opening", "dice", "active", "log"):
        d[key] = list(d[key])
    for key in ("hands", "played"):
        d[key] = [list(x) for x in d[key]]
    for key in ("pos", "arrived"):
        d[key] = {c: list(v) for c, v in d[key].items()}
    d["capital"] = dict(d["capital"])
    d["tabulations"] = [dict(t, votes=list(t["votes"]), eliminated=list(t["eliminated"]), throws=list(t["throws"]))
                        for t in d["tabulations"]]
    return P52State.model_construct(_fields_set=set(state.model_fields_set), **d)


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
