"""Forgiving free-text answer matching."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from engines.politics_trivia import questions as Q
from engines.politics_trivia.answers import matches, normalise, numbers_in_words, osa_distance
from engines.politics_trivia.questions import Question

BANK = Q.bank()
BY_ID = {q.id: q for q in BANK}


def q(answer, wrong=("Decoy one", "Decoy two"), accept=()):
    return Question(id="t", category="general", text="?", answer=answer, wrong=tuple(wrong), accept=tuple(accept))


@pytest.mark.parametrize("text, expected", [
    ("Twenty-Seven", "27"),
    ("twenty seven", "27"),
    ("27", "27"),
    ("the 19th Amendment", "19 amendment"),
    ("Nineteenth Amendment", "19 amendment"),
    ("nineteen sixty-one", "1961"),
    ("two thousand twenty-four", "2024"),
    ("twenty twenty-four", "2024"),
    ("four hundred and thirty-five", "435"),
    ("five hundred thirty eight", "538"),
    ("St. Paul", "st paul"),
    ("Saint Paul", "st paul"),
    ("Mount Whitney", "mt whitney"),
    ("U.S. Capitol", "us capitol"),
    ("Washington, D.C.", "washington dc"),
    ("Land of 10,000 Lakes", "land of 10000 lakes"),
    ("L'Enfant", "lenfant"),
    ("Frédéric Bartholdi", "frederic bartholdi"),
    ("Marbury vs. Madison", "marbury v madison"),
    ("An Elephant", "elephant"),
    ("  THE   Senate!! ", "senate"),
    ("Lewis & Clark", "lewis and clark"),
    ("$7.2 million", "7.2 million"),
    ("1st", "1"),
    ("the", "the"),
])
def test_normalise(text, expected):
    assert normalise(text) == expected


@pytest.mark.parametrize("text, value", [
    ("twenty-seven", 27), ("Twenty Seven", 27), ("27", 27), ("nineteenth", 19), ("19th", 19),
    ("one hundred", 100), ("three", 3), ("1,000", 1000), ("seventeen seventy-six", 1776),
    ("not a number", None), ("two words three", None),
])
def test_numbers_in_words(text, value):
    assert numbers_in_words(text) == value


@pytest.mark.parametrize("a, b, d", [
    ("ohio", "ohio", 0), ("ohio", "ohoi", 1), ("iowa", "ohio", 4), ("kansas", "arkansas", 2),
    ("tallahassee", "talahasee", 2), ("", "abc", 3),
])
def test_osa_distance(a, b, d):
    assert osa_distance(a, b, limit=5) == d


@pytest.mark.parametrize("qid, given, ok", [
    # case, punctuation, articles
    ("state-capital-TX", "austin", True),
    ("state-capital-TX", "AUSTIN!", True),
    ("state-capital-TX", "  Austin. ", True),
    ("state-capital-MN", "St. Paul", True),
    ("state-capital-MN", "saint paul", True),
    ("state-capital-MN", "Minneapolis", False),
    ("state-capital-UT", "Salt Lake", True),
    ("gov-senate-presides", "the vice president", True),
    ("gov-senate-presides", "Vice-President", True),
    # numbers as words
    ("amend-which-27", "twenty-seventh", True),
    ("amend-which-27", "twenty seventh amendment", True),
    ("amend-which-27", "27", True),
    ("amend-which-27", "the 27th", True),
    ("amend-which-27", "26th", False),
    ("gov-amendments-count", "twenty-seven", True),
    ("gov-amendments-count", "twenty seven", True),
    ("gov-amendments-count", "26", False),
    ("gov-house-total", "four hundred thirty-five", True),
    ("amend-year-19", "nineteen twenty", True),
    ("amend-year-19", "1921", False),
    ("state-order-AZ", "48", True),
    ("state-order-AZ", "forty-eighth", True),
    ("state-order-AZ", "47th", False),
    # people: last name alone when unambiguous
    ("pres-number-16", "Lincoln", True),
    ("pres-number-16", "abe lincoln", False),
    ("pres-number-35", "JFK", True),
    ("pres-number-35", "Kennedy", True),
    ("pres-number-2", "Adams", False),                  # John or John Quincy?
    ("pres-number-36", "Johnson", False),               # Andrew or Lyndon?
    ("pres-number-36", "LBJ", True),
    ("pres-number-41", "Bush", False),
    ("pres-number-41", "George H.W. Bush", True),
    ("pres-number-32", "FDR", True),
    ("pres-number-8", "Van Buren", True),
    ("pres-number-8", "Buren", False),
    # a state's postal code for a state answer
    ("state-capital-of-TX", "TX", True),
    ("state-capital-of-TX", "tx.", True),
    ("state-capital-of-TX", "OK", False),
    # typos: short answers allow one, longer two
    ("state-capital-FL", "Talahassee", True),
    ("state-capital-FL", "Tallahasee", True),
    ("state-capital-FL", "Talahasee", True),
    ("state-capital-NY", "Albny", True),
    ("state-capital-NY", "Albnyy", False),
    ("pres-number-16", "Abraham Lincon", True),
    ("state-capital-ME", "Agusta", True),
    # another known answer is never a typo of this one
    ("state-year-AR", "1836", True),
    ("ak-not-here", "", False),
])
def test_table(qid, given, ok):
    if qid not in BY_ID:
        assert not ok
        return
    assert matches(given, BY_ID[qid]) is ok


def test_iowa_and_ohio_never_match_each_other():
    iowa = q("Iowa", ("Ohio", "Idaho", "Utah"))
    ohio = q("Ohio", ("Iowa", "Idaho", "Utah"))
    assert matches("iowa", iowa) and not matches("Ohio", iowa)
    assert matches("OHIO", ohio) and not matches("Iowa", ohio)
    assert not matches("Iowa", q("Ohio", ("Texas",)))       # not a choice, still a different state


def test_another_known_answer_is_not_a_typo():
    arkansas = q("Arkansas", ("Texas", "Oklahoma", "Missouri"))
    assert matches("Arkensas", arkansas)
    assert not matches("Kansas", arkansas)          # distance 2, but Kansas is its own answer
    maine = q("Maine", ("Vermont", "Ohio"))
    assert matches("Main", maine)


def test_typo_must_be_closer_to_the_answer_than_to_any_wrong_choice():
    qq = q("Austin", ("Dustin", "Boston"))
    assert matches("Austin", qq)
    assert not matches("Bustin", qq)   # one step from Austin, but just as close to Dustin


def test_numbers_are_never_fuzzy():
    qq = q("1812", ("1814", "1821"))
    assert not matches("1813", qq)
    assert not matches("1821", qq)
    assert matches("eighteen twelve", qq)
    assert not matches("28", q("27", ("26",)))


def test_short_answers_must_be_exact():
    assert not matches("DE", q("DC", ("DE", "MD")))
    assert not matches("DX", q("DC", ("DE", "MD")))
    assert matches("dc", q("DC", ("DE", "MD")))
    assert matches("D.C.", q("DC", ("DE", "MD")))


def test_empty_and_junk_never_match():
    qq = q("Austin", ("Dallas",))
    for junk in ("", "   ", "!!!", "the", None):
        assert not matches(junk, qq)


def test_optional_trailing_words():
    assert matches("Sunshine", q("Sunshine State", ("Peach State",)))
    assert matches("Potomac", BY_ID["dc-river"])
    assert matches("Progressive", BY_ID["gov-bull-moose"])


# ---------------------------------------------------------------- properties

QUESTIONS = st.sampled_from(BANK)


def _variants(draw, text: str) -> str:
    mode = draw(st.sampled_from(["upper", "lower", "title", "punct", "spaces", "article", "same"]))
    if mode == "upper":
        return text.upper()
    if mode == "lower":
        return text.lower()
    if mode == "title":
        return text.title()
    if mode == "punct":
        return draw(st.sampled_from(["", "\"", "'", "(", "*"])) + text + draw(st.sampled_from([".", "!", "?", "", "\""]))
    if mode == "spaces":
        return "  " + text.replace(" ", "   ") + " "
    if mode == "article":
        return "the " + text
    return text


@st.composite
def answer_variant(draw):
    qq = draw(QUESTIONS)
    return qq, _variants(draw, qq.answer)


@st.composite
def wrong_variant(draw):
    qq = draw(QUESTIONS)
    w = draw(st.sampled_from(qq.wrong))
    return qq, _variants(draw, w)


@settings(max_examples=400, deadline=None)
@given(answer_variant())
def test_answer_and_its_case_and_punctuation_variants_always_match(pair):
    qq, text = pair
    assert matches(text, qq)


@settings(max_examples=400, deadline=None)
@given(wrong_variant())
def test_a_different_choice_of_the_same_question_never_matches(pair):
    qq, text = pair
    assert not matches(text, qq)


@settings(max_examples=300, deadline=None)
@given(QUESTIONS, st.data())
def test_one_character_typo_in_a_long_answer_is_forgiven_unless_it_looks_like_a_wrong_choice(qq, data):
    ans = qq.answer
    skip = len(ans.split()[0]) if ans.split()[0].casefold() in ("the", "a", "an") else 0
    letters = [i for i, c in enumerate(ans) if c.isalpha() and i >= skip]   # not inside a dropped article
    if len(normalise(ans).replace(" ", "")) < 8 or not letters or any(c.isdigit() for c in ans):
        return
    i = data.draw(st.sampled_from(letters))
    typo = ans[:i] + ans[i + 1:]        # drop one letter
    if normalise(typo) in {normalise(w) for w in qq.wrong}:
        return
    from engines.politics_trivia.answers import _lexicon, wrong_forms
    if normalise(typo) in _lexicon():
        return
    closest_wrong = min((osa_distance(normalise(typo), w, 3) for w in wrong_forms(qq)), default=9)
    if closest_wrong <= 1:
        assert not matches(typo, qq)
    else:
        assert matches(typo, qq)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_normalise_is_idempotent_and_never_raises(text):
    once = normalise(text)
    assert normalise(once) == once
