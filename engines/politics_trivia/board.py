"""The board and content of Politics: The Game: the electoral votes, the map's
borders and sea lanes, where a roll can end, the card tables, the question
piles, and small text helpers every phase uses."""
from __future__ import annotations

from functools import lru_cache

from ..core import Event
from . import answers, cards, questions
from .usmap import LAND_BORDERS, STATE_NAMES

# ---------------------------------------------------------------- the board

EV: dict[str, int] = {
    'AL': 9, 'AK': 3, 'AZ': 11, 'AR': 6, 'CA': 54, 'CO': 10, 'CT': 7, 'DE': 3, 'DC': 3, 'FL': 30, 'GA': 16,
    'HI': 4, 'ID': 4, 'IL': 19, 'IN': 11, 'IA': 6, 'KS': 6, 'KY': 8, 'LA': 8, 'ME': 4, 'MD': 10, 'MA': 11,
    'MI': 15, 'MN': 10, 'MS': 6, 'MO': 10, 'MT': 4, 'NE': 5, 'NV': 6, 'NH': 4, 'NJ': 14, 'NM': 5, 'NY': 28,
    'NC': 16, 'ND': 3, 'OH': 17, 'OK': 7, 'OR': 8, 'PA': 19, 'RI': 4, 'SC': 9, 'SD': 3, 'TN': 11, 'TX': 40,
    'UT': 6, 'VT': 3, 'VA': 13, 'WA': 12, 'WV': 4, 'WI': 10, 'WY': 3,
}  # ev_2024 from /work/shared/data/electoral_votes.csv (a test checks it)
CODES: tuple[str, ...] = tuple(sorted(EV))
STATES: tuple[str, ...] = tuple(c for c in CODES if c != "DC")  # home states and State questions
NAMES: dict[str, str] = dict(STATE_NAMES)
TOTAL_EV = sum(EV.values())  # 538
MAJORITY = 270
DC = "DC"
# Sea lanes, like the board's insets: Alaska is reached from Washington, Hawaii from California.
SEA_LANES: tuple[tuple[str, str], ...] = (("AK", "WA"), ("HI", "CA"))


def _adjacency() -> dict[str, tuple[str, ...]]:
    adj = {c: set(LAND_BORDERS[c]) for c in CODES}
    for a, b in SEA_LANES:
        adj[a].add(b)
        adj[b].add(a)
    return {c: tuple(sorted(n)) for c, n in adj.items()}


ADJ: dict[str, tuple[str, ...]] = _adjacency()
MAX_STEPS = 12


def _layers(start: str) -> list[frozenset[str]]:
    """layers[k]: every state where a walk of exactly k steps from `start` can end."""
    out = [frozenset([start])]
    for _ in range(MAX_STEPS):
        out.append(frozenset(n for c in out[-1] for n in ADJ[c]))
    return out


LAYERS: dict[str, list[frozenset[str]]] = {c: _layers(c) for c in CODES}
# REACH[start][k]: the end states of a k-step move, sorted (never the start itself)
REACH: dict[str, list[tuple[str, ...]]] = {
    c: [tuple(sorted(x for x in LAYERS[c][k] if x != c)) for k in range(MAX_STEPS + 1)] for c in CODES}


def walk(start: str, end: str, steps: int) -> list[str]:
    """One walk of exactly `steps` borders from start to end (for the picture's path)."""
    layers = LAYERS[start]
    path = [end]
    for k in range(steps - 1, -1, -1):
        here = path[-1]
        prev = next(p for p in ADJ[here] if p in layers[k]) if k else start
        path.append(prev)
    path.reverse()
    return path


_ALIASES: dict[str, str] = {}
for _c in CODES:
    _ALIASES[_c.lower()] = _c
    for _sep in ("", "-", "_"):
        _ALIASES[NAMES[_c].lower().replace(" ", _sep)] = _c
_ALIASES["dc"] = DC
_ALIASES["washingtondc"] = DC
_ALIASES["d.c."] = DC


def code_of(text: str) -> str | None:
    return _ALIASES.get(text.strip().lower())


# ---------------------------------------------------------------- content

GERRY = {c.id: c for c in cards.GERRYMANDERS}
WILD = {w.id: w for w in cards.WILDCARDS}
GUESSING = ("charades", "drawing", "direct")
JUDGED = ("physical", "sing")
CATEGORIES = ("state", "general", "government")
MAX_CUSTOM = 2000  # custom questions kept per server


@lru_cache(maxsize=1)
def _bank_index() -> dict[str, questions.Question]:
    return {q.id: q for q in questions.bank()}


@lru_cache(maxsize=8)
def _pool(category: str, free_text: bool) -> tuple[questions.Question, ...]:
    return tuple(q for q in questions.by_category(category) if q.free_text or not free_text)


@lru_cache(maxsize=128)
def _state_pool(code: str, free_text: bool) -> tuple[questions.Question, ...]:
    return tuple(q for q in questions.about_state(code) if q.free_text or not free_text)


@lru_cache(maxsize=1)
def _bank_by_text() -> dict[str, tuple[questions.Question, ...]]:
    out: dict[str, list[questions.Question]] = {}
    for q in questions.bank():
        out.setdefault(q.text, []).append(q)
    return {text: tuple(qs) for text, qs in out.items()}


def bank_question(text: str, choices: list[str] | None = None) -> questions.Question | None:
    """The bank's question with this text (and, when choices are shown, whose answer is among them), or
    None (a server's custom question). What a well-read player could know: the AI's knowledge."""
    for q in _bank_by_text().get(text, ()):
        if choices is None or q.answer in choices:
            return q
    return None


def _match(given: str, q: questions.Question) -> bool:
    try:
        return bool(answers.matches(given, q))
    except Exception:  # a content bug must never break a game
        return answers.normalise(given) == answers.normalise(q.answer)


def _secret_question(card: cards.Wildcard) -> questions.Question:
    """A wildcard's secret as a Question, so guesses use the same forgiving matcher."""
    wrong = "—" if card.secret != "—" else "-"
    return questions.Question(id=f"wild-{card.id}", category="general", text=card.text[:300] or "?",
                            answer=(card.secret or "?")[:80], wrong=(wrong,), accept=tuple(card.accept))



def _ev(text: str, to: list[int] | None = None) -> Event:
    return Event(text=text, to=to)


def _money(n: int) -> str:
    return f"${n}M"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"

HOW_TO_GUESS = "Guess with `guess <answer>` or “Guess the secret” (on Discord a plain message counts too)"
