"""The question piles of a game: drawing a question nobody on this server has seen, and
finding one again by id (the bank's or a server's custom question)."""
from __future__ import annotations

from ..rng import Rng
from . import uploads
from .board import _bank_index, _pool, _state_pool
from .questions import Question
from .models import TriviaState


def draw(state: TriviaState, rng: Rng, category: str, code: str | None, free_text: bool) -> Question:
    if code is not None:
        pool = list(_state_pool(code, free_text))
    else:
        pool = list(_pool(category, free_text))
    if state.custom:
        for c in custom_questions(state):
            if c.category == category and (code is None or c.state == code) and (c.free_text or not free_text):
                pool.append(c)
    if not pool and code is not None:
        pool = list(_pool(category, free_text))
    if not pool:
        pool = list(_pool(category, False))
    used = set(state.used)
    q = None
    for _ in range(6):  # mostly a few tries find an unused one without scanning the pile
        x = pool[rng.below(len(pool))]
        if x.id not in used:
            q = x
            break
    if q is None:
        fresh = [x for x in pool if x.id not in used]
        if not fresh:  # this pile is exhausted on this server: it may be used again
            ids = {x.id for x in pool}
            last = state.used[-1] if state.used else None
            state.used = [u for u in state.used if u not in ids]
            # ...but not the question that was just asked, straight back
            fresh = [x for x in pool if x.id != last] or pool
        q = fresh[rng.below(len(fresh))]
    state.used.append(q.id)
    state.drew = True
    return q


def custom_questions(state: TriviaState) -> list[Question]:
    out: list[Question] = []
    for row in state.custom:
        try:
            out.extend(uploads.from_custom([row]))
        except Exception:  # a bad stored row is skipped, never fatal
            continue
    return out


def question(state: TriviaState, qid: str) -> Question | None:
    q = _bank_index().get(qid)
    if q is None:
        q = next((x for x in custom_questions(state) if x.id == qid), None)
    return q


def asked(state: TriviaState, qid: str) -> Question:
    """A question this game drew: always found again (the bank is fixed, and the game keeps its
    server's custom rows in its state)."""
    q = question(state, qid)
    if q is None:
        raise LookupError(f"question {qid} is neither in the bank nor among this game's custom questions")
    return q


def text_of(state: TriviaState, qid: str) -> str:
    q = question(state, qid)
    return q.text if q is not None else "?"
