"""The built-in trivia bank (State, General, Government); custom uploads are in uploads.py.

Questions are generated from the fact tables in facts_states.py, facts_general.py
and facts_government.py plus hand-written entries. Wrong choices are of the same
kind as the answer and are picked deterministically from the question id, so the
bank is identical on every run. The bank is built on first use and cached.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..rng import Rng
from .facts_general import NAME_ACCEPT, PRESIDENTS, VICE_PRESIDENTS, GENERAL_FACTS, Fact
from .facts_government import AMENDMENTS, ARTICLES, GOVERNMENT_FACTS
from .facts_states import (BIRTH_STATE, BY_CODE, CODES, FOUR_CORNERS, NEAR_BORDERS, ORIGINAL_13, STATE_EXTRAS,
                           STATES)
from .usmap import LAND_BORDERS

Category = Literal["state", "general", "government"]
CATEGORIES: tuple[str, ...] = ("state", "general", "government")

MAX_TEXT = 300
MAX_CHOICE = 80


class Question(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    category: Category
    text: str
    answer: str
    wrong: tuple[str, ...]
    state: str | None = None
    free_text: bool = True
    accept: tuple[str, ...] = ()

    def choices(self) -> tuple[str, ...]:
        """Answer first, then the wrong choices (the engine shuffles)."""
        return (self.answer, *self.wrong)


# ---------------------------------------------------------------- helpers

def _rng(qid: str) -> Rng:
    return Rng(int.from_bytes(hashlib.sha256(qid.encode()).digest()[:8], "big"))


def _pick(qid: str, preferred: Iterable[str], fallback: Iterable[str], exclude: Iterable[str],
          k: int = 3) -> tuple[str, ...]:
    """k distinct wrong choices: from `preferred` first, topped up from `fallback`;
    never anything in `exclude`. Deterministic in qid."""
    ex = {e.casefold() for e in exclude}
    rng = _rng(qid)
    out: list[str] = []
    for pool in (preferred, fallback):
        items = []
        for x in pool:
            if x.casefold() not in ex and x not in items and x not in out:
                items.append(x)
        rng.shuffle(items)
        for x in items:
            if len(out) == k:
                break
            out.append(x)
    if len(out) < k:
        raise ValueError(f"not enough wrong choices for {qid}")
    return tuple(out)


def _near_numbers(qid: str, value: int, lo: int = 0, spread: tuple[int, ...] = (1, 2, 3, 4), k: int = 3,
                  also_right: tuple[int, ...] = ()) -> tuple[str, ...]:
    """k wrong numbers near value, never value itself nor another defensible answer (also_right)."""
    cands = [value + d for s in spread for d in (s, -s) if value + d >= lo]
    return _pick(qid, [str(c) for c in cands], [], [str(v) for v in (value, *also_right)], k)


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII"}


def _states_near(code: str, depth: int = 2) -> list[str]:
    """States within `depth` land steps of code, nearest first (code excluded)."""
    seen = {code}
    frontier = [code]
    order: list[str] = []
    for _ in range(depth):
        nxt = []
        for c in frontier:
            for n in LAND_BORDERS.get(c, ()):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        order += sorted(nxt)
        frontier = nxt
    return order


def _borders(code: str) -> set[str]:
    return set(LAND_BORDERS.get(code, ()))


def _may_seem_to_border(a: str, b: str) -> bool:
    return b in _borders(a) or frozenset((a, b)) in NEAR_BORDERS


def _name(code: str) -> str:
    return BY_CODE[code].name


_STATE_ONLY = [c for c in CODES if c != "DC"]


def _last_name(name: str) -> str:
    words = name.split()
    if len(words) >= 3 and words[-2].casefold() in ("van", "de", "von"):
        return " ".join(words[-2:])
    return words[-1]


def _person_accept(name: str) -> tuple[str, ...]:
    out = list(NAME_ACCEPT.get(name, ()))
    last = _last_name(name)
    if _LAST_NAME_COUNT.get(last, 0) == 1 and last not in out:
        out.append(last)
    return tuple(out)


def _people() -> set[str]:
    return {p.name for p in PRESIDENTS} | {v.name for v in VICE_PRESIDENTS} | {
        "Hillary Clinton", "George Clinton", "DeWitt Clinton", "Stonewall Jackson", "Jesse Jackson",
        "Ketanji Brown Jackson", "John Marshall", "Thurgood Marshall", "Samuel Adams", "Henry Clay",
        "Robert E. Lee", "Jefferson Davis", "Adlai Stevenson", "Gary Johnson", "Richard M. Johnson",
        "Clarence Thomas", "Frances Perkins", "William Rehnquist", "Earl Warren", "Warren Burger",
        "John Jay", "Benjamin Franklin", "Alexander Hamilton", "Tim Kaine", "Tim Walz",
        "Stephen Douglas", "Frederick Douglass", "Henry Knox", "Edmund Randolph", "Bob Dole",
        "Ross Perot", "John Kerry", "John McCain", "Mitt Romney", "Paul Ryan", "Sarah Palin",
    }


_LAST_NAME_COUNT: dict[str, int] = {}
for _p in _people():
    _LAST_NAME_COUNT[_last_name(_p)] = _LAST_NAME_COUNT.get(_last_name(_p), 0) + 1


# ---------------------------------------------------------------- State questions

def _state_questions() -> list[Question]:
    out: list[Question] = []
    capitals = {s.code: s.capital for s in STATES if s.capital}
    nicknames = {s.code: s.nickname for s in STATES if s.nickname}
    largest_names = [s.largest_city for s in STATES if s.largest_city]
    dup_largest = {c for c in largest_names if largest_names.count(c) > 1}

    def add(qid: str, code: str, text: str, answer: str, wrong: tuple[str, ...], free_text: bool = True,
            accept: tuple[str, ...] = ()):
        out.append(Question(id=qid, category="state", text=text, answer=answer, wrong=wrong,
                            state=code, free_text=free_text, accept=accept))

    for s in STATES:
        if s.code == "DC":   # never a place to answer questions: D.C.'s facts are Government questions
            continue
        code, name = s.code, s.name
        near = [c for c in _states_near(code, 3) if c != "DC"]
        if s.capital:
            qid = f"state-capital-{code}"
            traps = [s.largest_city] if s.largest_city and s.largest_city != s.capital else []
            near_caps = [capitals[c] for c in near[:8] if c in capitals]
            wrong: Sequence[str] = traps[:1] + list(_pick(qid, near_caps, capitals.values(), [s.capital] + traps,
                                                          3 - len(traps[:1])))
            accept: tuple[str, ...] = ("Salt Lake",) if s.capital == "Salt Lake City" else ()
            add(qid, code, f"What is the capital of {name}?", s.capital, tuple(wrong), accept=accept)
            if name.split()[0].casefold() not in s.capital.casefold():
                qid = f"state-capital-of-{code}"
                add(qid, code, f"{s.capital} is the capital of which state?", name,
                    _pick(qid, [_name(c) for c in near[:6]], [_name(c) for c in _STATE_ONLY], [name]))
        if s.nickname:
            qid = f"state-nickname-{code}"
            add(qid, code, f"Which state is nicknamed the {s.nickname}?", name,
                _pick(qid, [_name(c) for c in near[:6]], [_name(c) for c in _STATE_ONLY], [name]))
            qid = f"state-nickname-of-{code}"
            others = [nicknames[c] for c in sorted(nicknames) if c != code and c not in near[:4]]
            excluded = {s.nickname, *s.also_nicknamed}
            if code == "GA":
                excluded.add("Empire State")   # Georgia is sometimes "Empire State of the South"
            wrong = _pick(qid, others, [], excluded)
            accept = tuple(s.also_nicknamed)
            add(qid, code, f"What is the nickname of {name}?", s.nickname, wrong, accept=accept)
        # postal abbreviation
        qid = f"state-postal-{code}"
        same_first = [c for c in CODES if c != code and c[0] == code[0]]
        shares = [c for c in CODES if c != code and (c[1] == code[1] or code[1] in c or name[0] == c[0])]
        add(qid, code, f"What is the two-letter postal abbreviation for {name}?", code,
            _pick(qid, same_first, shares + list(CODES), [code]))
        # electoral votes
        qid = f"state-ev-{code}"
        add(qid, code, f"How many electoral votes does {name} have in the 2024 and 2028 elections?",
            str(s.ev), _near_numbers(qid, s.ev, lo=3))
        qid = f"state-house-{code}"
        seats = s.ev - 2
        add(qid, code, f"How many seats does {name} have in the U.S. House of Representatives after the 2020 census?",
            str(seats), _near_numbers(qid, seats, lo=1))
        if s.admitted:
            qid = f"state-year-{code}"
            admitted = s.admitted
            years = sorted({t.admitted for t in STATES if t.admitted and t.admitted != admitted},
                           key=lambda y: (abs(y - admitted), y))
            if code in ORIGINAL_13:
                text = f"In which year did {name} ratify the Constitution and join the Union?"
            else:
                text = f"In which year was {name} admitted to the Union?"
            add(qid, code, text, str(s.admitted), _pick(qid, [str(y) for y in years[:5]], [], [str(s.admitted)]))
        if s.order:
            qid = f"state-order-{code}"
            cands = [ordinal(s.order + d) for d in (1, -1, 2, -2, 3, -3) if 1 <= s.order + d <= 50]
            if code in ORIGINAL_13:
                text = f"In what order did {name} ratify the Constitution? (Delaware was 1st.)" if code != "DE" else \
                    "Delaware ratified the Constitution in what order among the states?"
            else:
                text = f"{name} was which state in order of admission to the Union?"
            add(qid, code, text, ordinal(s.order), _pick(qid, cands, [], [ordinal(s.order)]),
                accept=(str(s.order),))
        if s.largest_city and s.largest_city != s.capital:
            qid = f"state-largest-{code}"
            cities = [x for x in (BY_CODE[c].largest_city for c in near[:6]) if x]
            assert s.capital is not None  # only D.C. has none, and it has no largest city listed
            wrong = [s.capital] + list(_pick(qid, cities, [x for x in largest_names], [s.largest_city, s.capital], 2))
            accept = ("New York", "NYC") if s.largest_city == "New York City" else ()
            add(qid, code, f"What is the largest city in {name}?", s.largest_city, tuple(wrong), accept=accept)
            if s.largest_city not in dup_largest and name.split()[0].casefold() not in s.largest_city.casefold():
                qid = f"state-largest-of-{code}"
                add(qid, code, f"{s.largest_city} is the largest city of which state?", name,
                    _pick(qid, [_name(c) for c in near[:6]], [_name(c) for c in _STATE_ONLY], [name]))
        # neighbours
        nbrs = sorted(c for c in _borders(code) if c != "DC")
        far = [c for c in near if not _may_seem_to_border(code, c)]
        for i, ans in enumerate(_two_neighbours(code, nbrs)):
            qid = f"state-border-{code}-{i + 1}"
            add(qid, code, f"Which of these states borders {name}?", _name(ans),
                _pick(qid, [_name(c) for c in far[:8]], [_name(c) for c in far], []), free_text=False)
        if len(nbrs) >= 3 and far:
            qid = f"state-not-border-{code}"
            ans = _rng(qid).choice(far[:6])
            add(qid, code, f"Which of these states does NOT border {name}?", _name(ans),
                _pick(qid, [_name(c) for c in nbrs], [], []), free_text=False)
        qid = f"state-border-count-{code}"
        n, *also = border_counts(code)
        add(qid, code, f"How many states share a land border with {name}?", str(n),
            _near_numbers(qid, n, lo=0, also_right=tuple(also)), accept=tuple(str(c) for c in also))
    for (suffix, code, text, answer, wrong, accept, free_text) in STATE_EXTRAS:
        add(f"state-{suffix}", code, text, answer, tuple(wrong), free_text=free_text, accept=tuple(accept))
    return out


def _two_neighbours(code: str, nbrs: list[str]) -> list[str]:
    """Up to two of the neighbours, in an order fixed by the code, for "Which of these borders X?"."""
    picks = list(nbrs)
    _rng(f"state-border-order-{code}").shuffle(picks)
    return picks[:2]


def border_counts(code: str) -> tuple[int, ...]:
    """Defensible answers to "How many states share a land border with X?": the count of
    borders of positive length first, and for the Four Corners states also that count plus
    the state touching only at the corner point (Colorado 6 or 7, Arizona 4 or 5, Utah 5 or 6,
    New Mexico 4 or 5)."""
    n = len([c for c in _borders(code) if c != "DC"])
    corner = sum(code in pair for pair in FOUR_CORNERS)
    return (n, n + 1) if corner else (n,)


# ---------------------------------------------------------------- General questions

def _fact_questions(facts: tuple[Fact, ...], category: str) -> list[Question]:
    return [Question(id=f.id, category=category, text=f.text, answer=f.answer, wrong=tuple(f.wrong),
                     free_text=f.free_text, accept=tuple(f.accept)) for f in facts]


def _general_questions() -> list[Question]:
    out: list[Question] = []
    by_number = {p.number: p for p in PRESIDENTS}
    first_number: dict[str, int] = {}
    for p in PRESIDENTS:
        first_number.setdefault(p.name, p.number)

    def add(qid: str, text: str, answer: str, wrong: tuple[str, ...], free_text: bool = True, accept: tuple[str,
                                                                                                            ...] = ()):
        out.append(Question(id=qid, category="general", text=text, answer=answer, wrong=wrong,
                            free_text=free_text, accept=accept))

    for p in PRESIDENTS:
        qid = f"pres-number-{p.number}"
        near = [by_number[p.number + d].name for d in (1, -1, 2, -2, 3, -3, 4, -4) if p.number + d in by_number]
        add(qid, f"Who was the {ordinal(p.number)} president of the United States?", p.name,
            _pick(qid, near, [], [p.name]), accept=_person_accept(p.name))
    seen: set[str] = set()
    repeat = {p.name for p in PRESIDENTS if sum(q.name == p.name for q in PRESIDENTS) > 1}
    for p in PRESIDENTS:
        if p.name in seen:
            continue
        seen.add(p.name)
        slug = _slug(p.name)
        if p.name not in repeat:
            qid = f"pres-ordinal-{slug}"
            cands = [ordinal(p.number + d) for d in (1, -1, 2, -2, 3, -3) if 1 <= p.number + d <= len(PRESIDENTS)]
            add(qid, f"{p.name} was which number president?", ordinal(p.number),
                _pick(qid, cands, [], [ordinal(p.number)]), accept=(str(p.number),))
        qid = f"pres-year-{slug}"
        own_years = {str(q.took_office) for q in PRESIDENTS if q.name == p.name}
        years = sorted({q.took_office for q in PRESIDENTS}, key=lambda y: (abs(y - p.took_office), y))
        word = "first become" if p.name in repeat else "become"
        add(qid, f"In which year did {p.name} {word} president?", str(p.took_office),
            _pick(qid, [str(y) for y in years[:6]], [], own_years))
        if p.party and p.party != "No party":
            qid = f"pres-party-{slug}"
            if p.took_office < 1854:
                pool = ["Federalist", "Democratic-Republican", "Democratic", "Whig"]
            else:
                pool = ["Republican", "Democratic", "Whig", "Federalist"]
            excl = [p.party]
            if p.party == "Democratic-Republican":
                excl.append("Republican")
            if p.name == "Abraham Lincoln":
                excl.append("Whig")
            accept = {"Democratic": ("Democrat",), "Democratic-Republican": ("Jeffersonian Republican",),
                      "Republican": ("GOP",)}.get(p.party, ())
            add(qid, f"Which party did {p.name} belong to while president?", p.party,
                _pick(qid, pool, ["Federalist", "Whig", "Democratic", "Republican", "Democratic-Republican"], excl),
                accept=accept)
        if p.name in BIRTH_STATE and p.name not in _BORN_ASKED_AS_STATE:
            qid = f"pres-born-{slug}"
            code = BIRTH_STATE[p.name]
            near = [c for c in _states_near(code, 2) if c != "DC"]
            add(qid, f"In which state was {p.name} born?", _name(code),
                _pick(qid, [_name(c) for c in near[:6]], [_name(c) for c in _STATE_ONLY], [_name(code)]))
    out += _fact_questions(GENERAL_FACTS, "general")
    return out


# Presidents whose birth state is already asked in a State question.
_BORN_ASKED_AS_STATE = {"Abraham Lincoln", "Ronald Reagan", "Jimmy Carter", "Bill Clinton", "Herbert Hoover",
                        "Gerald Ford", "George W. Bush", "Harry S. Truman", "Grover Cleveland", "Barack Obama"}


# ---------------------------------------------------------------- Government questions

def _government_questions() -> list[Question]:
    out: list[Question] = []
    by_number = {p.number: p for p in PRESIDENTS}

    def add(qid: str, text: str, answer: str, wrong: tuple[str, ...], free_text: bool = True, accept: tuple[str,
                                                                                                            ...] = ()):
        out.append(Question(id=qid, category="government", text=text, answer=answer, wrong=wrong,
                            free_text=free_text, accept=accept))

    vps_of: dict[int, list[str]] = {}
    for v in VICE_PRESIDENTS:
        for n in v.presidents:
            vps_of.setdefault(n, []).append(v.name)
    for v in VICE_PRESIDENTS:
        names = {by_number[n].name for n in v.presidents}
        if len(names) != 1:
            continue
        pres = names.pop()
        n0 = v.presidents[0]
        qid = f"vp-under-{_slug(v.name)}"
        near = [by_number[n0 + d].name for d in (1, -1, 2, -2, 3, -3, 4, -4) if n0 + d in by_number]
        add(qid, f"{v.name} served as vice president under which president?", pres,
            _pick(qid, near, [], [pres, v.name]), accept=_person_accept(pres))
    # "Who was X's vice president?" where the presidency had exactly one VP
    seen: set[str] = set()
    by_name: dict[str, list[int]] = {}
    for p in PRESIDENTS:
        by_name.setdefault(p.name, []).append(p.number)
    vp_numbers = {v.name: v.number for v in VICE_PRESIDENTS}
    for p in PRESIDENTS:
        if p.name in seen:
            continue
        seen.add(p.name)
        vps = sorted({name for n in by_name[p.name] for name in vps_of.get(n, [])})
        if len(vps) != 1:
            continue
        vp = vps[0]
        qid = f"vp-of-{_slug(p.name)}"
        k = vp_numbers[vp]
        near = [v.name for v in VICE_PRESIDENTS if 0 < abs(v.number - k) <= 4]
        add(qid, f"Who was {p.name}'s vice president?", vp, _pick(qid, near, [], [vp, p.name]),
            accept=_person_accept(vp))
    for a in AMENDMENTS:
        ans = f"{ordinal(a.number)} Amendment"
        qid = f"amend-which-{a.number}"
        cands = [f"{ordinal(a.number + d)} Amendment" for d in (1, -1, 2, -2, 3, -3, 4, -4, 5,
                                                                -5) if 1 <= a.number + d <= 27]
        add(qid, a.question, ans, _pick(qid, cands, [], [ans]), accept=(ordinal(a.number), str(a.number)))
        qid = f"amend-what-{a.number}"
        others = [b.subject for b in AMENDMENTS if b.number != a.number and not (
            {a.number, b.number} <= {18, 21})]
        add(qid, f"What does the {ordinal(a.number)} Amendment do?", a.subject,
            _pick(qid, others, [], [a.subject]), free_text=False)
        if a.number >= 11:
            qid = f"amend-year-{a.number}"
            subject = a.subject[0].lower() + a.subject[1:]
            add(qid, f"In which year was the {ordinal(a.number)} Amendment ({subject}) ratified?",
                str(a.ratified), _near_numbers(qid, a.ratified, spread=(1, 2, 3, 5, 7, 10)))
    for n, desc in ARTICLES:
        ans = f"Article {ROMAN[n]}"
        qid = f"article-which-{n}"
        cands = [f"Article {ROMAN[m]}" for m in ROMAN if m != n]
        add(qid, f"Which article of the Constitution deals with {desc[0].lower() + desc[1:]}?", ans,
            _pick(qid, cands, [], [ans]), accept=(f"Article {n}", str(n)))
        qid = f"article-what-{n}"
        add(qid, f"What does Article {ROMAN[n]} of the Constitution deal with?", desc,
            _pick(qid, [d for m, d in ARTICLES if m != n], [], [desc]), free_text=False)
    # "Which of these has the most electoral votes?" - four states with distinct counts
    codes = [c for c in CODES]
    for i in range(30):
        qid = f"ev-most-{i + 1}"
        rng = _rng(qid)
        while True:
            pick = rng.sample(codes, 4)
            evs = [BY_CODE[c].ev for c in pick]
            if len(set(evs)) == 4:
                break
        best = max(pick, key=lambda c: BY_CODE[c].ev)
        shown = [("Washington, D.C." if c == "DC" else _name(c)) for c in pick]
        bname = "Washington, D.C." if best == "DC" else _name(best)
        add(qid, "Which of these has the most electoral votes in 2024?", bname,
            tuple(n for n in shown if n != bname), free_text=False)
    out += _fact_questions(GOVERNMENT_FACTS, "government")
    out += _dc_questions()
    return out


def _dc_questions() -> list[Question]:
    """The facts a State question would ask about D.C., asked as Government questions (see
    GOVERNMENT_FACTS for why); its hand-written facts are in GOVERNMENT_FACTS."""
    out: list[Question] = []

    def add(qid: str, text: str, answer: str, wrong: tuple[str, ...], free_text: bool = True):
        out.append(Question(id=qid, category="government", text=text, answer=answer, wrong=wrong,
                            free_text=free_text))

    add("dc-postal", "What is the two-letter postal abbreviation for the District of Columbia?", "DC",
        _pick("dc-postal", ["DE", "MA", "NJ", "MD", "VA"], [], ["DC"]))
    ev = BY_CODE["DC"].ev
    add("dc-ev", "How many electoral votes does the District of Columbia have in the 2024 and 2028 elections?",
        str(ev), _near_numbers("dc-ev", ev, lo=1))
    nbrs = sorted(_borders("DC"))
    far = ["Delaware", "Pennsylvania", "West Virginia", "New Jersey", "North Carolina"]
    for i, ans in enumerate(_two_neighbours("DC", nbrs)):
        qid = f"dc-border-{i + 1}"
        add(qid, "Which of these states borders Washington, D.C.?", _name(ans), _pick(qid, far, [], []),
            free_text=False)
    add("dc-border-count", "How many states share a land border with Washington, D.C.?", str(len(nbrs)),
        _near_numbers("dc-border-count", len(nbrs), lo=0))
    return out


# ---------------------------------------------------------------- the bank

@lru_cache(maxsize=1)
def bank() -> tuple[Question, ...]:
    """All built-in questions, in a fixed order."""
    return tuple(_with_usual_forms(q) for q in _state_questions() + _general_questions() + _government_questions())


_CODE_OF_NAME = {s.name: s.code for s in STATES if s.code != "DC"}


def _with_usual_forms(q: Question) -> Question:
    """A state's postal code is also accepted when the answer is that state ("TX" for Texas), and
    a person's usual other names wherever the answer is that person ("George Bush" for George
    H. W. Bush in every question, not only in the generated ones)."""
    usual = [_CODE_OF_NAME[q.answer]] if q.answer in _CODE_OF_NAME else list(NAME_ACCEPT.get(q.answer, ()))
    extra = tuple(a for a in usual if a not in q.accept and a not in q.wrong)
    if not extra:
        return q
    return q.model_copy(update={"accept": (*q.accept, *extra)})


@lru_cache(maxsize=8)
def by_category(cat: str) -> tuple[Question, ...]:
    return tuple(q for q in bank() if q.category == cat)


@lru_cache(maxsize=64)
def about_state(code: str) -> tuple[Question, ...]:
    return tuple(q for q in bank() if q.category == "state" and q.state == code)


@lru_cache(maxsize=1)
def by_id() -> dict[str, Question]:
    return {q.id: q for q in bank()}
