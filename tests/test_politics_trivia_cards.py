"""Gerrymander cards and Wildcards."""
from __future__ import annotations

from collections import Counter

import pytest

from engines.politics_trivia.cards import GERRYMANDERS, WILDCARDS, Effect, Gerrymander, Wildcard
from engines.politics_trivia.facts_states import EV_2024
from engines.politics_trivia.usmap import LAND_BORDERS, STATE_NAMES


def value(chips, cash, pv):
    """The rule book's own exchange rate for debts: 1 EV = $1M = 1M Popular Votes."""
    return sum(EV_2024[c] for c in chips) + cash + pv


def test_exactly_35_gerrymanders_with_ids_1_to_35():
    assert len(GERRYMANDERS) == 35
    assert [g.id for g in GERRYMANDERS] == list(range(1, 36))
    assert len({g.title for g in GERRYMANDERS}) == 35


@pytest.mark.parametrize("g", GERRYMANDERS, ids=lambda g: g.title)
def test_gerrymander_fields(g: Gerrymander):
    for c in g.need_chips + g.reward_chips:
        assert c in STATE_NAMES
    assert len(set(g.need_chips)) == len(g.need_chips)
    assert not set(g.need_chips) & set(g.reward_chips)
    assert min(g.need_cash, g.need_pv, g.reward_cash, g.reward_pv) >= 0
    assert g.need_chips or g.need_cash or g.need_pv, "something must be turned in"
    assert g.reward_chips or g.reward_cash or g.reward_pv, "something must be gained"
    # worth a bit more than it costs, never a windfall
    need, reward = value(g.need_chips, g.need_cash, g.need_pv), value(g.reward_chips, g.reward_cash, g.reward_pv)
    assert 1.15 <= reward / need <= 2.0, (need, reward)
    # reachable: at most four chips, at most $12M and 10M PV asked for
    assert len(g.need_chips) <= 4 and g.need_cash <= 12 and g.need_pv <= 10
    # the card text names every item
    for c in g.need_chips + g.reward_chips:
        assert c in g.text
    for amount in (g.need_cash, g.reward_cash):
        if amount:
            assert f"${amount}M" in g.text
    assert "\u2192" in g.text and len(g.text) <= 200


def test_rule_book_example_card_is_in_the_deck():
    ex = [g for g in GERRYMANDERS if g.need_chips == ("AL", "AR", "MS")]
    assert ex and ex[0].need_cash == 5 and ex[0].reward_chips == ("FL",) and ex[0].reward_pv == 20


def test_chip_trades_are_regional():
    """Every chip asked for is within three land steps of a chip the card gives (AR to FL in the rule book's
    example)."""
    def near(a, b, depth=3):
        frontier, seen = {a}, {a}
        for _ in range(depth):
            frontier = {n for c in frontier for n in LAND_BORDERS[c]} - seen
            seen |= frontier
        return b in seen
    for g in GERRYMANDERS:
        for c in g.need_chips:
            assert any(near(c, r) for r in g.reward_chips), (g.title, c)


def test_wildcard_counts_per_kind():
    counts = Counter(w.kind for w in WILDCARDS)
    for kind in ("charades", "drawing", "direct", "physical", "sing"):
        assert counts[kind] >= 10, kind
    assert counts["event"] >= 15
    assert len(WILDCARDS) >= 70
    assert len({w.id for w in WILDCARDS}) == len(WILDCARDS)


@pytest.mark.parametrize("w", WILDCARDS, ids=lambda w: w.id)
def test_wildcard_fields(w: Wildcard):
    assert w.text.strip() and len(w.text) <= 600
    if w.kind in ("charades", "drawing", "direct"):
        assert w.secret and len(w.secret) <= 60
        assert w.secret.casefold() not in w.text.casefold(), "the public text must not give the secret away"
        assert all(a.strip() for a in w.accept)
        assert w.seconds == 120
        assert not w.effects
    elif w.kind in ("physical", "sing"):
        assert w.secret is None and not w.effects
        assert 0 < w.seconds <= 120
    else:
        assert w.kind == "event"
        assert w.effects and w.secret is None


def test_secrets_are_unique_within_a_kind():
    for kind in ("charades", "drawing", "direct"):
        secrets = [w.secret.casefold() for w in WILDCARDS if w.kind == kind]
        assert len(secrets) == len(set(secrets))


def test_events_use_only_the_effect_vocabulary_sensibly():
    good = bad = 0
    for w in WILDCARDS:
        if w.kind != "event":
            continue
        for e in w.effects:
            assert isinstance(e, Effect)
            if e.kind in ("cash", "pv"):
                assert e.amount != 0 and abs(e.amount) <= 10
                if e.from_others:
                    assert e.amount > 0 and e.who == "you"
            elif e.kind == "ev_lose":
                assert e.amount < 0 and abs(e.amount) <= 10
            elif e.kind == "move_to":
                assert e.state in STATE_NAMES
            else:
                assert e.state is None
            if e.kind != "move_to":
                assert e.state is None
        effs = w.effects
        if any(e.kind in ("ev_lose", "go_dc", "skip_turn") or (e.amount < 0 and e.who == "you") for e in effs):
            bad += 1
        else:
            good += 1
    assert good >= 6 and bad >= 6   # a mix of good and bad news


def test_effect_round_trips_as_json():
    for w in WILDCARDS:
        assert Wildcard.model_validate_json(w.model_dump_json()) == w
    for g in GERRYMANDERS:
        assert Gerrymander.model_validate_json(g.model_dump_json()) == g


def test_sing_cards_use_public_domain_works_only():
    allowed = ("America the Beautiful", "Pledge of Allegiance", "Gettysburg Address", "Yankee Doodle",
               "Star-Spangled Banner", "Preamble", "Battle Hymn of the Republic", "My Country, 'Tis of Thee",
               "Take Me Out to the Ball Game", "Home on the Range", "Declaration of Independence",
               "You're a Grand Old Flag", "Paul Revere's Ride")
    for w in WILDCARDS:
        if w.kind == "sing":
            assert any(a in w.text for a in allowed), w.text


def test_no_card_hands_out_dc_which_only_a_right_government_answer_wins():
    # The rulebook: D.C.'s 3 EV go to a candidate who answers a Government question right.
    assert not [g.title for g in GERRYMANDERS if "DC" in g.reward_chips]
    # A card may still ask for the chip back (it returns to the board, up for grabs again).
    assert any("DC" in g.need_chips for g in GERRYMANDERS)


def test_the_doc_card_table_is_the_deck():
    import pathlib
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "games" / "politics-trivia.md").read_text()
    for g in GERRYMANDERS:
        assert f"| {g.id} | {g.title} | {g.need_text()} | {g.reward_text()} |" in doc, g.title
