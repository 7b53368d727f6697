"""Politics: The Game (trivia) from one seat's view, and the moves every AI level makes alike.

What a seat has not seen, drawn afresh:
* the rivals' Gerrymander cards (hands and the opening three not yet returned) and the order of
  the Gerrymander pile, dealt again from the cards it has not seen, sizes kept (played cards are
  public);
* the order of the Wildcards not yet drawn;
* a helper's hint, when the seat is neither the asker nor the helper;
* a head-to-head rival's sealed answer, written again by a player who knows answers as often as
  an AI seat (`fair_random_action`);
* the random stream, which draws the next questions, dice and reshuffles (engines.core.Game.determinize).
The open question's right choice stays: a bank question's answer is in the bank, and whether a
seat *knows* it is the answer policy's draw, which every level shares (see `fixed_action`).
"""
from __future__ import annotations

from ..core import Action
from ..rng import Rng
from .actions import Guess
from .models import TriviaState


def determinize(game, copy: TriviaState, seat: int, rng: Rng) -> TriviaState:
    """Rewrites `copy` (a private clone of the real state) as `seat` could picture it."""
    others = [s for s in range(len(copy.players)) if s != seat]
    unseen = list(copy.gdeck)
    for s in others:
        unseen.extend(copy.players[s].hand)
        unseen.extend(copy.players[s].dealt)
    unseen.sort()  # the pool's order must not tell where its cards were
    rng.shuffle(unseen)
    for s in others:
        p = copy.players[s]
        k, d = len(p.hand), len(p.dealt)
        p.hand, p.dealt = sorted(unseen[:k]), sorted(unseen[k:k + d])
        unseen = unseen[k + d:]
    copy.gdeck = unseen
    rest = sorted(copy.wdeck[copy.wpos:])
    rng.shuffle(rest)
    copy.wdeck = copy.wdeck[:copy.wpos] + rest
    q = copy.q
    if q is not None and q.hint is not None and seat not in (q.asker, q.helper):
        q.hint = rng.below(len(q.choices))
    h = copy.h2h
    if h is not None and copy.phase == "h2h":  # once both are in, both are shown
        for i, s in enumerate(h.seats):
            if s != seat and h.answers[i] is not None:
                h.answers[i] = None
                guess = game.fair_random_action(copy, s, Rng(rng.next64()).random)
                h.answers[i] = guess.answer if isinstance(guess, Guess) else ""
    copy.rng = rng.next64()
    return copy


def fixed_action(game, state: TriviaState, seat: int, rng: Rng) -> Action | None:
    """Answering is knowledge, not play: while a question is open (asking, helping, suggesting),
    in a head-to-head round and in a review of its verdicts, every AI level moves as `normal` does,
    so `hard` answers exactly as often right; its edge comes from moves, chips, deals and cards."""
    q = state.q
    if state.phase == "question" and q is not None and (seat in (q.asker, q.helper) or seat in q.responders):
        return game.ai_action(state, seat, rng)
    if state.phase in ("h2h", "review"):
        return game.ai_action(state, seat, rng)
    return None
