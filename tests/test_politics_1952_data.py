"""Politics (1952) data: the 1952 electoral votes, county lines, groups and speech cards."""
from __future__ import annotations

import csv
import os

from engines.politics_1952.cards import BY_SLUG, CARDS
from engines.politics_1952.states import CODES, EV, GROUP, GROUPS, LINES, MAJORITY, NAMES, TOTAL_VOTES


def test_votes_match_the_shared_data_file():
    with open(os.path.join(os.path.dirname(__file__), "data", "electoral_votes.csv"), newline="") as fh:
        rows = {r["code"]: r for r in csv.DictReader(fh)}
    expected = {c: int(r["ev_1952"]) for c, r in rows.items() if r["ev_1952"]}
    assert len(expected) == 48 and "AK" not in expected and "HI" not in expected and "DC" not in expected
    assert EV == expected
    for code in CODES:
        assert NAMES[code] == rows[code]["name"]


def test_totals():
    assert len(CODES) == 48
    assert TOTAL_VOTES == sum(EV.values()) == 531
    assert MAJORITY == 266


def test_county_lines():
    assert {c for c in CODES if LINES[c] == 4} == {"DE", "NJ", "RI"}
    assert all(LINES[c] == 7 for c in CODES if c not in ("DE", "NJ", "RI"))


def test_groups_cover_every_state_once_and_are_balanced():
    assert sorted(c for g in GROUPS.values() for c in g) == sorted(CODES)
    assert set(GROUPS) == {1, 2, 3, 4, 5, 6}
    assert set(GROUPS[6]) == {"NY", "OH", "IL"}  # as the rulebook says
    sums = {g: sum(EV[c] for c in codes) for g, codes in GROUPS.items()}
    assert sums == {1: 79, 2: 86, 3: 89, 4: 92, 5: 88, 6: 97}
    assert max(sums.values()) - min(sums.values()) <= 18
    # outside group 6, a higher group never holds a state with fewer votes than a lower group
    for g in range(1, 5):
        assert max(EV[c] for c in GROUPS[g]) <= min(EV[c] for c in GROUPS[g + 1])
    assert all(GROUP[c] == g for g, codes in GROUPS.items() for c in codes)


def test_speech_cards():
    assert len(CARDS) == 18 and len(BY_SLUG) == 18
    named = set()
    for card in CARDS:
        codes = [c for c, _ in card.counties]
        assert len(codes) == len(set(codes)) >= 4, card.slug
        assert all(c in EV for c in codes), card.slug
        assert all(1 <= k <= LINES[c] for c, k in card.counties), card.slug
        assert 6 <= card.total <= 11, card.slug
        assert card.title and card.text and card.slug.isalpha() and card.slug.islower()
        named.update(codes)
    assert named == set(CODES)  # every state is on some card
