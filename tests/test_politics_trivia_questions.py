"""The built-in trivia bank: size, shape, determinism and spot-checked facts."""
from __future__ import annotations

import csv
import hashlib
import pathlib
from collections import Counter

import pytest
from pydantic import ValidationError

from engines.politics_trivia import questions as Q
from engines.politics_trivia.answers import answer_forms, matches, normalise
from engines.politics_trivia.facts_states import BY_CODE, CODES, EV_2024, NEAR_BORDERS, STATES
from engines.politics_trivia.usmap import LAND_BORDERS, STATE_NAMES

BANK = Q.bank()
BY_ID = {q.id: q for q in BANK}
NAME_TO_CODE = {v: k for k, v in STATE_NAMES.items()} | {"Washington, D.C.": "DC"}
CSV = pathlib.Path(__file__).parent / "data" / "electoral_votes.csv"


def test_bank_size_and_category_counts():
    counts = Counter(q.category for q in BANK)
    assert len(BANK) >= 1000
    assert counts["state"] >= 51 * 8
    assert counts["general"] >= 250
    assert counts["government"] >= 250
    assert set(counts) == {"state", "general", "government"}


@pytest.mark.parametrize("code", sorted(set(STATE_NAMES) - {"DC"}))
def test_at_least_eight_questions_about_each_state(code):
    qs = Q.about_state(code)
    assert len(qs) >= 8
    assert all(q.category == "state" and q.state == code for q in qs)
    # enough of them work without choices, for runoffs
    assert sum(q.free_text for q in qs) >= 5


def test_dc_facts_are_government_questions_because_nobody_answers_a_question_in_dc():
    # The rulebook ends the turn on landing in D.C. and D.C. is never a home, so a State
    # question about D.C. could never be asked; D.C.'s chip is won with a Government answer.
    assert Q.about_state("DC") == ()
    assert not [q.id for q in BANK if q.category == "state" and q.state == "DC"]
    dc = [q for q in Q.by_category("government") if q.id.startswith("dc-")]
    assert len(dc) == 13 and sum(q.free_text for q in dc) >= 10
    assert {q.id for q in dc} >= {"dc-postal", "dc-ev", "dc-border-1", "dc-border-2", "dc-border-count",
                                   "dc-river", "dc-planner", "dc-house-votes"}
    assert BY_ID["dc-ev"].answer == str(EV_2024["DC"])
    assert {BY_ID["dc-border-1"].answer, BY_ID["dc-border-2"].answer} == {"Maryland", "Virginia"}
    assert BY_ID["dc-border-count"].answer == "2"
    # the 23rd Amendment was asked twice (once as a D.C. State question): only amend-which-23 remains
    assert sum("electoral votes" in q.text and ("D.C." in q.text or "District" in q.text)
               and q.answer == "23rd Amendment" for q in BANK) == 1


@pytest.mark.parametrize("code, counts", [("CO", (6, 7)), ("AZ", (4, 5)), ("UT", (5, 6)), ("NM", (4, 5))])
def test_four_corners_border_counts_accept_both_and_never_offer_the_other_as_wrong(code, counts):
    q = BY_ID[f"state-border-count-{code}"]
    assert Q.border_counts(code) == counts
    assert q.answer == str(counts[0])
    assert not set(q.wrong) & {str(c) for c in counts}
    for c in counts:
        assert matches(str(c), q)
    assert not matches(str(counts[0] - 1), q) and not matches(str(counts[1] + 1), q)


def test_border_counts_elsewhere_have_one_answer():
    for code in set(STATE_NAMES) - {"CO", "AZ", "UT", "NM", "DC"}:
        assert len(Q.border_counts(code)) == 1, code
        assert not BY_ID[f"state-border-count-{code}"].accept


def test_the_doc_states_the_bank_as_it_is():
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "games" / "politics-trivia.md").read_text()
    counts = Counter(q.category for q in BANK)
    piles = [len(Q.about_state(c)) for c in STATE_NAMES if c != "DC"]
    assert f"**{len(BANK):,} questions** ({counts['state']} State, {counts['general']} General, " \
           f"{counts['government']} Government)" in doc
    assert f"**State** ({counts['state']}; {min(piles)}–{max(piles)} per state)" in doc
    assert f"{sum(not q.free_text for q in BANK)} questions are multiple\nchoice only" in doc


def test_by_category_partitions_the_bank():
    parts = [Q.by_category(c) for c in Q.CATEGORIES]
    assert sum(len(p) for p in parts) == len(BANK)
    assert all(q.category == c for c, p in zip(Q.CATEGORIES, parts) for q in p)


def test_ids_unique_and_bank_deterministic():
    ids = [q.id for q in BANK]
    assert len(ids) == len(set(ids))
    # rebuilding from scratch gives the identical bank (ids, order, choices)
    made = Q._state_questions() + Q._general_questions() + Q._government_questions()
    rebuilt = tuple(Q._with_usual_forms(q) for q in made)
    assert rebuilt == BANK
    digest = hashlib.sha256("\n".join(f"{q.id}|{q.answer}|{'|'.join(q.wrong)}" for q in BANK).encode()).hexdigest()
    digest2 = hashlib.sha256("\n".join(f"{q.id}|{q.answer}|{'|'.join(q.wrong)}" for q in rebuilt).encode()).hexdigest()
    assert digest == digest2


def test_some_ids_are_stable_names():
    for qid in ("state-capital-TX", "state-ev-CA", "pres-number-16", "amend-which-19", "gov-senate-term",
                "state-border-count-TN", "vp-of-barack-obama"):
        assert qid in BY_ID


def test_shape_of_every_question():
    for q in BANK:
        assert q.text.strip() and len(q.text) <= 300, q.id
        assert q.answer.strip() and len(q.answer) <= 80, q.id
        assert 1 <= len(q.wrong) <= 3, q.id
        assert all(w.strip() and len(w) <= 80 for w in q.wrong), q.id
        choices = [q.answer, *q.wrong]
        assert q.answer not in q.wrong, q.id
        # distinct even after normalising (so a typed choice can never be ambiguous)
        assert len({normalise(c) for c in choices}) == len(choices), q.id
        assert not (answer_forms(q) & {normalise(w) for w in q.wrong}), q.id
        assert all(normalise(a) for a in q.accept), q.id
        if q.category == "state":
            assert q.state in STATE_NAMES, q.id
        elif q.state is not None:
            assert q.state in STATE_NAMES, q.id


def test_every_answer_matches_itself_and_no_wrong_choice_matches():
    for q in BANK:
        assert matches(q.answer, q), q.id
        for a in q.accept:
            assert matches(a, q), (q.id, a)
        for w in q.wrong:
            assert not matches(w, q), (q.id, w)


def test_electoral_votes_copied_from_the_shared_csv():
    with CSV.open() as fh:  # the repository's copy (tests/data): present on every clone
        rows = {r["code"]: int(r["ev_2024"]) for r in csv.DictReader(fh)}
    assert rows == EV_2024
    assert sum(EV_2024.values()) == 538
    for code, ev in EV_2024.items():
        q = BY_ID["dc-ev" if code == "DC" else f"state-ev-{code}"]
        assert q.answer == str(ev)
        assert str(ev) not in q.wrong


def test_house_seats_are_ev_minus_two_and_sum_to_435():
    total = 0
    for s in STATES:
        if s.code == "DC":
            continue
        q = BY_ID[f"state-house-{s.code}"]
        assert int(q.answer) == s.ev - 2
        total += int(q.answer)
    assert total == 435


def test_neighbour_questions_agree_with_the_map():
    seen = 0
    for q in BANK:
        if q.id.startswith("state-border-count-"):
            code = q.state
            assert int(q.answer) == len([c for c in LAND_BORDERS[code] if c != "DC"])
        elif q.id.startswith("state-border-"):
            code = q.state
            assert not q.free_text
            assert NAME_TO_CODE[q.answer] in LAND_BORDERS[code]
            for w in q.wrong:
                wc = NAME_TO_CODE[w]
                assert wc not in LAND_BORDERS[code] and wc != code, (q.id, w)
                assert frozenset((code, wc)) not in NEAR_BORDERS, (q.id, w)
            seen += 1
        elif q.id.startswith("state-not-border-"):
            code = q.state
            assert not q.free_text
            ans = NAME_TO_CODE[q.answer]
            assert ans not in LAND_BORDERS[code] and frozenset((code, ans)) not in NEAR_BORDERS
            assert all(NAME_TO_CODE[w] in LAND_BORDERS[code] for w in q.wrong)
    assert seen >= 90


def test_four_corners_and_water_neighbours_are_never_wrong_choices():
    az = [q for q in Q.about_state("AZ") if q.id.startswith("state-border-") and "count" not in q.id]
    assert az and all("Colorado" not in q.wrong for q in az)
    mi = [q for q in Q.about_state("MI") if q.id.startswith("state-border-") and "count" not in q.id]
    assert mi and all("Minnesota" not in q.wrong and "Illinois" not in q.wrong for q in mi)


def test_capital_questions_match_the_fact_table_and_use_other_cities_as_wrong_choices():
    capitals = {s.capital for s in STATES if s.capital}
    for s in STATES:
        if not s.capital:
            continue
        q = BY_ID[f"state-capital-{s.code}"]
        assert q.answer == s.capital
        for w in q.wrong:
            assert w in capitals or w == s.largest_city


@pytest.mark.parametrize("qid, answer", [
    ("state-capital-TX", "Austin"),
    ("state-capital-KY", "Frankfort"),
    ("state-capital-MN", "Saint Paul"),
    ("state-largest-FL", "Jacksonville"),
    ("state-largest-NC", "Charlotte"),
    ("state-largest-WI", "Milwaukee"),
    ("state-largest-KY", "Louisville"),
    ("state-ev-TX", "40"),
    ("state-ev-CA", "54"),
    ("dc-ev", "3"),
    ("state-year-HI", "1959"),
    ("state-order-DE", "1st"),
    ("state-order-AZ", "48th"),
    ("state-border-count-TN", "8"),
    ("state-border-count-ME", "1"),
    ("state-postal-MO", "MO"),
    ("state-nickname-TN", "Tennessee"),
    ("pres-number-1", "George Washington"),
    ("pres-number-16", "Abraham Lincoln"),
    ("pres-number-22", "Grover Cleveland"),
    ("pres-number-24", "Grover Cleveland"),
    ("pres-number-44", "Barack Obama"),
    ("pres-number-47", "Donald Trump"),
    ("pres-year-john-f-kennedy", "1961"),
    ("vp-of-jimmy-carter", "Walter Mondale"),
    ("vp-under-aaron-burr", "Thomas Jefferson"),
    ("amend-which-19", "19th Amendment"),
    ("amend-which-13", "13th Amendment"),
    ("amend-year-26", "1971"),
    ("gov-senate-term", "6"),
    ("gov-ev-win", "270"),
    ("gov-house-total", "435"),
    ("gov-justices", "9"),
    ("article-which-3", "Article III"),
])
def test_spot_checked_facts(qid, answer):
    assert BY_ID[qid].answer == answer


def test_no_largest_city_question_where_the_fact_is_disputed_or_ambiguous():
    assert "state-largest-AL" not in BY_ID          # Huntsville vs Birmingham: left out
    assert "state-largest-of-SC" not in BY_ID        # Charleston is also West Virginia's largest city
    assert "state-largest-of-WV" not in BY_ID
    assert "state-largest-of-OR" not in BY_ID        # Portland (Oregon and Maine)
    assert "state-order-ND" not in BY_ID and "state-order-SD" not in BY_ID


def test_questions_that_need_choices_are_marked():
    for q in BANK:
        t = q.text.casefold()
        if "which of these" in t or "of the following" in t:
            assert not q.free_text, q.id


def test_generated_wrong_choices_never_name_a_second_right_answer():
    # "Which state is nicknamed X?": no wrong choice carries that nickname
    nick = {s.name: {s.nickname, *s.also_nicknamed} for s in STATES if s.nickname}
    for s in STATES:
        if not s.nickname:
            continue
        q = BY_ID[f"state-nickname-of-{s.code}"]
        assert not ({q.answer, *q.wrong} - {q.answer}) & nick[s.name]
    # "Who was the Nth president?": no wrong choice is the same person
    for q in BANK:
        if q.id.startswith("pres-number-"):
            assert q.answer not in q.wrong


def test_bank_is_cached_and_questions_are_frozen():
    assert Q.bank() is BANK
    with pytest.raises(ValidationError):  # frozen
        BANK[0].answer = "x"


def test_free_text_questions_exist_in_every_category_for_runoffs():
    for cat in Q.CATEGORIES:
        assert sum(q.free_text for q in Q.by_category(cat)) >= 200


def test_every_state_code_in_the_tables():
    assert set(CODES) == set(STATE_NAMES) == set(BY_CODE)


def test_a_used_up_state_pile_starts_over_alone_as_the_doc_says():
    """A State question must be about the state you stand in, so when its 13-20 questions are used
    up only that pile starts over; every other pile keeps its memory (docs: "No repeats")."""
    from engines import Seat
    from engines.politics_trivia import GAME
    wy = [q.id for q in Q.about_state("WY")]
    oh = [q.id for q in Q.about_state("OH")][:5]
    general = [q.id for q in Q.by_category("general")][:50]
    s = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 3, server={"used": wy + oh + general})
    s.phase, s.turn, s.players[0].at = "choose", 0, "WY"
    GAME.apply_in_place(s, 0, GAME.parse_action("ask state"))
    assert s.q.qid in wy                               # a repeat, but about Wyoming
    used = set(GAME.server_updates(s)["used"])
    assert used >= set(oh) | set(general)              # the other piles remember
    assert used & set(wy) == {s.q.qid}                 # Wyoming's pile started over
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "games" / "politics-trivia.md").read_text()
    assert "until its pile is used up; then that\npile alone starts over" in doc


def test_a_pile_that_starts_over_never_repeats_the_question_just_asked():
    from engines import Seat
    from engines.politics_trivia import GAME
    wy = [q.id for q in Q.about_state("WY")]
    for seed in range(40):  # the last one asked is the pile's last id; any seed may draw it again
        last = wy[seed % len(wy)]
        used = [x for x in wy if x != last] + [last]
        s = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), seed, server={"used": used})
        s.phase, s.turn, s.players[0].at = "choose", 0, "WY"
        GAME.apply_in_place(s, 0, GAME.parse_action("ask state"))
        assert s.q.qid in wy and s.q.qid != last
