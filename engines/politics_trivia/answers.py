"""Forgiving free-text answer matching.

`matches(given, question)` accepts what a fair quizmaster would accept:
case, accents, punctuation, leading articles, "St."/"Saint", "&"/"and",
numbers written as words ("twenty-seven", "nineteenth", "nineteen sixty-one"),
the alternatives listed in `Question.accept`, and small typos (Damerau-Levenshtein
distance 1 for answers of 4-7 characters, 2 from 8 characters; none for shorter
answers and never inside numbers). A typo is only forgiven when the text is
strictly closer to the answer than to every wrong choice, and never when the text
is itself another known answer ("Kansas" is not a typo of "Arkansas").

Besides spelling, three kinds of equivalent wording count (`_says`), each
refused when it fits a wrong choice as well:
- a number answer with words of the question around it ("27 amendments",
  "13 stripes"), and Roman numerals where the question is about amendments or
  articles ("XIX", "Amendment XIX");
- a sum of money or a large number written any way ("fifteen million",
  "$15,000,000", "15 million dollars", "$15M", "400k");
- a name with its initials written out or run together ("Franklin Delano
  Roosevelt", "GW Bush", "George HW Bush"): every part of the name must be there,
  so "George Bush" is not George W. Bush.
"""
from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from .questions import Question, bank

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_ORD_UNITS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
    "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17,
    "eighteenth": 18, "nineteenth": 19,
}
_ORD_TENS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60,
             "seventieth": 70, "eightieth": 80, "ninetieth": 90}
_MULT = {"hundred": 100, "thousand": 1000, "million": 1_000_000,
         "hundredth": 100, "thousandth": 1000, "millionth": 1_000_000}
_SMALL = {**_UNITS, **_ORD_UNITS}
_TENS_ALL = {**_TENS, **_ORD_TENS}
_NUMBER_WORDS = set(_SMALL) | set(_TENS_ALL) | set(_MULT)

_SYNONYMS = {"saint": "st", "mount": "mt", "fort": "ft", "vs": "v", "versus": "v", "usa": "us"}
_ARTICLES = {"the", "a", "an"}
# Trailing words that may be left off an answer ("Sunshine" for "Sunshine State").
_OPTIONAL_TAIL = ("amendment", "state", "river", "party", "national park")

_ORDINAL_DIGITS = re.compile(r"^(\d+)(st|nd|rd|th)$")
_NUMBERED = re.compile(r"^(\d+) (amendment|article)$")


def _atoms(run: list[str]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    i = 0
    while i < len(run):
        w = run[i]
        if w in _TENS_ALL:
            v = _TENS_ALL[w]
            nxt = run[i + 1] if i + 1 < len(run) else None
            if w in _TENS and nxt is not None and nxt in _SMALL and 1 <= _SMALL[nxt] <= 9:
                out.append(("n", v + _SMALL[nxt]))
                i += 2
                continue
            out.append(("n", v))
        elif w in _SMALL:
            out.append(("n", _SMALL[w]))
        else:
            out.append(("m", _MULT[w]))
        i += 1
    return out


def _evaluate(atoms: list[tuple[str, int]]) -> list[int]:
    """Turn atoms into one or more numbers: standard English cardinals plus
    year-style pairs ("nineteen sixty-one" -> 1961)."""
    numbers: list[int] = []
    total, group, prev, started, year_done = 0, 0, None, False, False
    for kind, v in atoms:
        if kind == "n":
            if prev == "n":
                if total == 0 and 10 <= group <= 99 and v <= 99 and not year_done:
                    group = group * 100 + v
                    year_done = True
                    continue
                numbers.append(total + group)
                total, group, year_done = 0, 0, False
            group += v
        elif v == 100:
            group = (group or 1) * 100
            year_done = True
        else:
            total += (group or 1) * v
            group = 0
            year_done = True
        started = True
        prev = kind
    if started:
        numbers.append(total + group)
    return numbers


def _numbers_to_digits(tokens: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t in _NUMBER_WORDS and not (t in _MULT and (i == 0 or tokens[i - 1] not in _NUMBER_WORDS)):
            run = [t]
            j = i + 1
            while j < len(tokens):
                if tokens[j] in _NUMBER_WORDS:
                    run.append(tokens[j])
                    j += 1
                elif (tokens[j] == "and" and j + 1 < len(tokens) and tokens[j + 1] in _NUMBER_WORDS
                      and run[-1] in _MULT):
                    j += 1
                else:
                    break
            out.extend(str(n) for n in _evaluate(_atoms(run)))
            i = j
            continue
        m = _ORDINAL_DIGITS.match(t)
        out.append(m.group(1) if m else t)
        i += 1
    return out


def numbers_in_words(text: str) -> int | None:
    """The number that `text` spells out ("twenty-seven" -> 27, "nineteenth" -> 19,
    "1,000" -> 1000), or None if it is not exactly one number."""
    toks = normalise(text).split()
    if len(toks) == 1 and toks[0].isdigit():
        return int(toks[0])
    return None


@lru_cache(maxsize=65536)
def normalise(text: str, synonyms: bool = True) -> str:
    """Lower-case, accent-free, punctuation-free form with numbers as digits
    and "saint" -> "st", "mount" -> "mt", "versus" -> "v" ... With synonyms=False the
    words are left as typed (no synonyms, no number words, articles kept): the spelling
    that typos are also measured on."""
    s = unicodedata.normalize("NFKD", str(text))
    s = "".join(c for c in s if not unicodedata.combining(c)).casefold()
    s = s.replace("&", " and ")
    s = re.sub(r"['\u2019\u2018`\u02bc]", "", s)               # apostrophes vanish: L'Enfant -> lenfant
    s = re.sub(r"(?<=\d),(?=\d{3})", "", s)                    # 10,000 -> 10000
    s = re.sub(r"(?<!\d)\.|\.(?!\d)", "", s)                   # U.S. -> us, but 7.2 stays
    s = re.sub(r"[^\w.]+", " ", s).replace("_", " ")
    tokens = s.split()
    if synonyms:
        tokens = _numbers_to_digits([_SYNONYMS.get(t, t) for t in tokens])
    while synonyms and len(tokens) > 1 and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    return " ".join(tokens)


def _forms(text: str, synonyms: bool = True) -> set[str]:
    base = normalise(text, synonyms)
    out = {base} if base else set()
    for tail in _OPTIONAL_TAIL:
        if base.endswith(" " + tail) and len(base) > len(tail) + 2:
            out.add(base[: -len(tail) - 1])
    m = _NUMBERED.match(base)
    if m:                                   # "19 amendment" is also "amendment 19"
        out.add(f"{m.group(2)} {m.group(1)}")
    return out


def _loose(texts) -> set[str]:
    """Forms with and without synonyms, for measuring typos ("ount" is one letter from "mount")."""
    out: set[str] = set()
    for t in texts:
        out |= _forms(t) | _forms(t, False)
    return out


# ---------------------------------------------------------------- equivalent wording

_ROMAN = re.compile(r"^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_ROMAN_VALUE = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_SCALE = {"thousand": 1000, "k": 1000, "million": 1_000_000, "m": 1_000_000, "mn": 1_000_000,
          "mil": 1_000_000, "billion": 1_000_000_000, "bn": 1_000_000_000, "b": 1_000_000_000}
_MONEY_WORDS = {"dollar", "dollars", "usd", "bucks"}
_NEVER_FILLER = {"not", "no", "never", "nor", "without", "except"}
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_SCALED = re.compile(r"^(\d+(?:\.\d+)?)(k|m|mn|bn|b)$")


def _roman(token: str) -> int | None:
    if not token or not _ROMAN.match(token):
        return None
    total = 0
    for a, b in zip(token, token[1:] + " "):
        v = _ROMAN_VALUE[a]
        total += -v if b != " " and _ROMAN_VALUE[b] > v else v
    return total


@lru_cache(maxsize=65536)
def _amount(form: str) -> Fraction | None:
    """The value of a normalised number with an optional scale ("15 million", "15m", "400k",
    "15000000", "7.2 million"), or None if the form is not just that."""
    tokens = form.split()
    scale = 1
    if len(tokens) == 2 and tokens[1] in _SCALE:
        scale = _SCALE[tokens[1]]
        tokens = tokens[:1]
    if len(tokens) != 1:
        return None
    m = _SCALED.match(tokens[0])
    if m and scale == 1:
        return Fraction(m.group(1)) * _SCALE[m.group(2)]
    if _NUMBER.match(tokens[0]):
        return Fraction(tokens[0]) * scale
    return None


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _variants(g: str, roman: bool) -> set[str]:
    """The given form, and with Roman numerals as digits when the question is about amendments."""
    out = {g}
    if roman:
        out.add(" ".join(str(_roman(t) or t) for t in g.split()))
    return out


def _core(form: str, fillers: frozenset[str], money: bool) -> str:
    """A form around a number without the question's own words (and "dollars" for money):
    "27 amendments" -> "27" for "How many amendments ...?". Forms without a digit stay as they are."""
    if not any(c.isdigit() for c in form):
        return form
    kept = [t for t in form.split() if t[0].isdigit() or not (_stem(t) in fillers or (money and t in _MONEY_WORDS))]
    return " ".join(kept) if kept else form


def _spelled_out(given: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """True if `given` is the name `name` with initials spelled out, shortened or run together:
    "franklin delano roosevelt" / "franklin d roosevelt", "gw bush" / "george w bush",
    "george hw bush" / "george h w bush". The last name must be there in full and every part
    of the name must be covered."""
    last = len(name) - 1
    if len(given) < 2 or len(name) < 2 or given[-1] != name[-1]:
        return False

    def walk(i: int, j: int) -> bool:
        if i == len(given) or j == len(name):
            return i == len(given) and j == len(name)
        g, a = given[i], name[j]
        if g == a:
            return walk(i + 1, j + 1)
        if j == last or not g.isalpha():
            return False
        if len(a) == 1 and len(g) > 1 and g[0] == a and walk(i + 1, j + 1):     # "delano" for "d"
            return True
        if len(g) == 1 and len(a) > 1 and g == a[0] and walk(i + 1, j + 1):     # "j" for "john"
            return True
        k = len(g)                                                               # "gw" for "george w"
        return 1 < k and j + k <= last and g == "".join(t[0] for t in name[j:j + k]) and walk(i + 1, j + k)

    return walk(0, 0)


class _Side(NamedTuple):
    """The right (or the wrong) answers of a question, in the shapes the matcher compares."""
    forms: frozenset[str]
    amounts: frozenset[Fraction]
    names: tuple[tuple[str, ...], ...]      # the forms of two or more words, all letters

    @classmethod
    def of(cls, forms: set[str]) -> _Side:
        amounts = frozenset(a for a in map(_amount, forms) if a is not None)
        names = tuple(tuple(f.split()) for f in sorted(forms) if " " in f and f.replace(" ", "").isalpha())
        return cls(frozenset(forms), amounts, names)


class _Profile(NamedTuple):
    good: _Side
    bad: _Side
    good_loose: frozenset[str]   # spellings typos are measured against
    bad_loose: frozenset[str]
    fillers: frozenset[str]      # stems of the question's own words, which a number answer may carry
    money: bool                  # the answer is a sum of money ("dollars" may follow it)
    roman: bool                  # about amendments or articles: Roman numerals count as numbers


@lru_cache(maxsize=8192)
def _profile(q: Question) -> _Profile:
    good: set[str] = set()
    for text in (q.answer, *q.accept):
        good |= _forms(text)
    bad: set[str] = set()
    for text in q.wrong:
        bad |= _forms(text)
    bad -= good
    words = normalise(q.text, False).split() + normalise(q.text).split()    # "mount" and "mt"
    fillers = frozenset(_stem(w) for w in words if w.isalpha()) - _NEVER_FILLER
    raw = " ".join((q.answer, *q.accept)).casefold()
    about = f"{q.text} {q.answer}".casefold()
    return _Profile(_Side.of(good), _Side.of(bad), frozenset(_loose((q.answer, *q.accept))),
                    frozenset(_loose(q.wrong) - good), fillers, "$" in raw or "dollar" in raw,
                    "amendment" in about or "article" in about)


def _says(variants: set[str], side: _Side, p: _Profile, known: bool) -> bool:
    """True if one of the given variants says one of `side`'s answers in other words: a number
    with the question's own words around it, the same amount of money, or the same name with
    its initials written another way. A text that is itself a known answer keeps its words."""
    cores = variants if known else {_core(v, p.fillers, p.money) for v in variants}
    if cores & side.forms:
        return True
    if side.amounts and any(_amount(c) in side.amounts for c in cores):
        return True
    return any(_spelled_out(tuple(v.split()), n) for v in variants for n in side.names)


def _digits(s: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\d+(?:\.\d+)?", s))


def osa_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal-string-alignment (restricted Damerau-Levenshtein) distance, capped at limit+1."""
    if a == b:
        return 0
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        best = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
            best = min(best, v)
        if best > limit:
            return limit + 1
        prev2, prev = prev, cur
    return min(prev[len(b)], limit + 1)


def allowed_typos(form: str) -> int:
    n = len(form.replace(" ", ""))
    if n < 4:
        return 0
    return 1 if n < 8 else 2


@lru_cache(maxsize=1)
def _lexicon() -> frozenset[str]:
    """Every answer, accepted form and wrong choice of the built-in bank, normalised."""
    words: set[str] = set()
    for q in bank():
        for text in (q.answer, *q.accept, *q.wrong):
            words |= _forms(text)
    return frozenset(words)


@lru_cache(maxsize=1)
def _names_by_last_word() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Every known answer of the bank that is two or more words of letters, keyed by its last word."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for form in sorted(_lexicon()):
        if " " in form and form.replace(" ", "").isalpha():
            words = tuple(form.split())
            out.setdefault(words[-1], []).append(words)
    return {k: tuple(v) for k, v in out.items()}


def _names_another(given: str, good: frozenset[str]) -> bool:
    """True if `given` is another known name written with initials ("John Q. Adams" for John
    Quincy Adams), so it is never taken as a typo of this answer."""
    words = tuple(given.split())
    return bool(words) and any(" ".join(n) not in good and _spelled_out(words, n)
                               for n in _names_by_last_word().get(words[-1], ()))


def answer_forms(q: Question) -> set[str]:
    return set(_profile(q).good.forms)


def wrong_forms(q: Question) -> set[str]:
    return set(_profile(q).bad.forms)


def matches(given: str, q: Question) -> bool:
    """True if the free-text `given` should count as the answer to `q`."""
    g = normalise(given or "")
    if not g:
        return False
    p = _profile(q)
    variants = _variants(g, p.roman)
    if variants & p.good.forms:
        return True
    if variants & p.bad.forms:
        return False
    known = g in _lexicon()
    if _says(variants, p.good, p, known) and not _says(variants, p.bad, p, known):
        return True
    if known or _names_another(g, p.good.forms):
        return False
    given_forms = {g, normalise(given, False)}
    best = None
    for f in p.good_loose:
        limit = allowed_typos(f)
        if limit == 0:
            continue
        for gg in given_forms:
            if _digits(f) != _digits(gg):
                continue
            d = osa_distance(gg, f, limit)
            if d <= limit and (best is None or d < best):
                best = d
    if best is None:
        return False
    return all(osa_distance(gg, w, best) > best for gg in given_forms for w in p.bad_loose)
