"""Primary/General: every card, every scoring branch, the options and the party match.

States are rigged by editing hands/scores of a real setup(): the engine reads
nothing else, so the branches under test run exactly as in play.
"""
from __future__ import annotations

import dataclasses

import pytest

from engines import RuleError, Seat
from engines.primary_general import GAME
from engines.primary_general.cards import BY_SLUG, CARDS, DECK_SIZE
from engines.primary_general.game import HAND_SIZE, InPlay

NAMES = ["alice", "bob", "carol", "dave"]

# The rulebook's deck: name -> (count, Electability, Affiliation); None = Voter ADHD.
RULEBOOK = {
    "Tack Center": (8, 4, -3),
    "Toe the Line": (8, -3, 5),
    "Steal Their Position": (4, 6, -5),
    "Slam Your Fellows": (4, 3, -3),
    "Targeted by a Negative Ad": (4, -3, 0),
    "Sister Souljah Moment": (2, 7, -7),
    "Gaffe": (2, -3, -3),
    "True Blue": (2, 0, 5),
    "Civil Debate": (2, 0, 3),
    "Uncivil Debate": (2, -3, 0),
    "Strange Pronouncement": (2, 0, 2),
    "Party Endorsement": (2, 0, 5),
    "Newspaper Endorsement": (3, 3, 0),
    "Policy Proposal": (3, 0, 3),
    "Voter ADHD": (8, None, None),
}
EFFECT_CARDS = [c.slug for c in CARDS if not c.removes]


def new(n: int = 4, seed: int = 1, **opts):
    seats = [Seat(name=NAMES[i]) for i in range(n)]
    return GAME.setup(seats, GAME.options(opts), seed)


def play(state, seat: int, text: str):
    return GAME.apply_in_place(state, seat, GAME.parse_action(text))


def give(state, seat: int, *slugs: str) -> None:
    """Put cards in a hand (taken from the deck so the count stays 56)."""
    for slug in slugs:
        state.deck.remove(slug) if slug in state.deck else None
        state.hands[seat].append(slug)


def last_play(state, seat: int, cards: list[str], scores: dict[int, tuple[int, int]] | None = None):
    """Empty every hand, give `seat` the given cards and the turn, set scores."""
    n = len(state.seats)
    for i in range(n):
        state.deck.extend(state.hands[i])
        state.hands[i] = []
    state.hands[seat] = list(cards)
    state.turn = seat
    for i, (e, a) in (scores or {}).items():
        state.electability[i], state.affiliation[i] = e, a


def finish_primary(state, scores: dict[int, tuple[int, int]]):
    """End the Primary with exactly the given (E, A); the last card played is a
    Voter ADHD with nothing in play, so it changes nothing."""
    state.in_play = []
    last_play(state, state.turn, ["voter-adhd"], scores)
    return play(state, state.turn, "play voter-adhd none")


def finish_general(state, scores: dict[int, tuple[int, int]]):
    assert state.phase == "general"
    state.in_play = []
    last_play(state, state.turn, ["voter-adhd"], scores)
    return play(state, state.turn, "play voter-adhd none")


def total_cards(state) -> int:
    return len(state.deck) + sum(map(len, state.hands)) + len(state.in_play) + len(state.discard)


# ---- the deck ---------------------------------------------------------------

def test_deck_matches_the_rulebook_counts_and_effects():
    assert DECK_SIZE == 56 and len(CARDS) == 15
    by_name = {c.name: c for c in CARDS}
    assert set(by_name) == set(RULEBOOK)
    for name, (count, e, a) in RULEBOOK.items():
        card = by_name[name]
        assert card.count == count, name
        if e is None:
            assert card.removes
        else:
            assert not card.removes and (card.electability, card.affiliation) == (e, a), name


@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_deals_seven_each_from_one_shuffled_deck(n):
    s = new(n)
    assert all(len(h) == HAND_SIZE for h in s.hands)
    assert len(s.deck) == 56 - 7 * n and total_cards(s) == 56
    everything = sorted(s.deck + [c for h in s.hands for c in h])
    assert everything == sorted(c.slug for c in CARDS for _ in range(c.count))
    assert s.phase == "primary" and s.electability == [0] * n and s.affiliation == [0] * n


@pytest.mark.parametrize("n", [1, 5])
def test_player_count_outside_two_to_four_is_refused(n):
    with pytest.raises(RuleError, match="2 to 4"):
        GAME.setup([Seat(name=f"p{i}") for i in range(n)], GAME.options({}), 1)


# ---- every card, on self and on others --------------------------------------

@pytest.mark.parametrize("slug", EFFECT_CARDS)
def test_card_on_self(slug):
    s = new(3)
    last_play(s, 1, [slug, "gaffe"], {})
    events = play(s, 1, f"play {slug} bob")
    card = BY_SLUG[slug]
    assert (s.electability[1], s.affiliation[1]) == (card.electability, card.affiliation)
    assert s.electability[0] == s.electability[2] == 0 and s.affiliation[0] == s.affiliation[2] == 0
    assert dataclasses.asdict(s.in_play[-1]) == {"id": 1, "card": slug, "target": 1, "by": 1, "phase": "primary"}
    assert s.hands[1] == ["gaffe"]  # one copy left the hand
    assert "themself" in events[0].text and card.name in events[0].text


@pytest.mark.parametrize("slug", EFFECT_CARDS)
def test_card_on_another_player(slug):
    s = new(4)
    last_play(s, 0, [slug, "gaffe"], {2: (1, 1)})
    s.hands[1] = ["gaffe"]
    play(s, 0, f"play {slug} carol")
    card = BY_SLUG[slug]
    assert (s.electability[2], s.affiliation[2]) == (1 + card.electability, 1 + card.affiliation)
    assert (s.electability[0], s.affiliation[0]) == (0, 0)
    assert s.in_play[-1].target == 2 and s.in_play[-1].by == 0
    assert s.turn == 1  # play passes to the left


def test_seat_number_and_at_mention_work_as_targets():
    s = new(4)
    last_play(s, 0, ["tack-center", "tack-center", "gaffe"], {})
    play(s, 0, "play tack-center 4")
    assert s.electability[3] == 4
    s.turn = 0
    play(s, 0, "play tack-center @bob")
    assert s.electability[1] == 4


def test_cards_stack_and_each_gets_its_own_id():
    s = new(2)
    last_play(s, 0, ["tack-center", "tack-center", "true-blue", "gaffe"], {})
    for text in ["play tack-center alice", "play tack-center alice", "play true-blue alice"]:
        s.turn = 0
        play(s, 0, text)
    assert (s.electability[0], s.affiliation[0]) == (8, -1)
    assert [c.id for c in s.in_play] == [1, 2, 3]


# ---- Voter ADHD ----------------------------------------------------------------

def test_voter_adhd_removes_a_card_and_undoes_it():
    s = new(3)
    last_play(s, 0, ["sister-souljah", "gaffe"], {})
    s.hands[1] = ["voter-adhd", "gaffe"]
    play(s, 0, "play sister-souljah carol")
    assert (s.electability[2], s.affiliation[2]) == (7, -7)
    assert [a.text() for a in GAME.legal_actions(s, 1) if a.card == "voter-adhd"] == ["play voter-adhd c1"]
    events = play(s, 1, "play voter-adhd c1")
    assert (s.electability[2], s.affiliation[2]) == (0, 0)
    assert s.in_play == [] and s.discard == ["voter-adhd", "sister-souljah"]
    assert "Sister Souljah Moment" in events[0].text and "carol" in events[0].text


def test_voter_adhd_picks_one_card_among_several():
    s = new(2)
    last_play(s, 0, ["tack-center", "gaffe", "true-blue"], {})
    s.hands[1] = ["newspaper-endorsement", "voter-adhd", "gaffe"]
    play(s, 0, "play tack-center bob")          # c1: bob +4E -3A
    play(s, 1, "play newspaper-endorsement bob")  # c2: bob +3E
    play(s, 0, "play true-blue bob")             # c3: bob +5A
    assert (s.electability[1], s.affiliation[1]) == (7, 2)
    targets = sorted(a.target for a in GAME.legal_actions(s, 1) if a.card == "voter-adhd")
    assert targets == ["c1", "c2", "c3"]
    play(s, 1, "play voter-adhd c3")
    assert (s.electability[1], s.affiliation[1]) == (7, -3)
    assert [c.id for c in s.in_play] == [1, 2]


def test_voter_adhd_never_enters_play_and_cannot_remove_another_voter_adhd():
    s = new(2)
    last_play(s, 0, ["tack-center", "gaffe"], {})
    s.hands[1] = ["voter-adhd", "voter-adhd", "gaffe"]
    play(s, 0, "play tack-center alice")
    play(s, 1, "play voter-adhd c1")
    assert s.in_play == [] and "voter-adhd" in s.discard
    # Even a Voter ADHD somehow on the table is not a legal target.
    s.in_play = [InPlay(id=9, card="voter-adhd", target=0, by=0, phase="primary")]
    s.turn = 1
    assert [a.target for a in GAME.legal_actions(s, 1) if a.card == "voter-adhd"] == ["none"]
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="never removes another Voter ADHD"):
        play(s, 1, "play voter-adhd c9")
    assert GAME.dump(s) == before


def test_voter_adhd_with_nothing_in_play_fizzles():
    s = new(2)
    last_play(s, 0, ["voter-adhd", "gaffe"], {0: (2, 3)})
    s.hands[1] = ["gaffe"]
    assert [a.text() for a in GAME.legal_actions(s, 0) if a.card == "voter-adhd"] == ["play voter-adhd none"]
    events = play(s, 0, "play voter-adhd none")
    assert s.discard == ["voter-adhd"] and s.in_play == []
    assert (s.electability, s.affiliation) == ([2, 0], [3, 0])
    assert "nothing in play" in events[0].text and s.turn == 1


def test_voter_adhd_none_is_refused_while_a_card_is_in_play():
    s = new(2)
    last_play(s, 0, ["tack-center", "gaffe"], {})
    s.hands[1] = ["voter-adhd", "gaffe"]
    play(s, 0, "play tack-center bob")
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="must remove one"):
        play(s, 1, "play voter-adhd none")
    assert GAME.dump(s) == before


@pytest.mark.parametrize("bad", ["bob", "c", "3", "cx"])
def test_voter_adhd_target_must_look_like_a_card_id(bad):
    s = new(2)
    last_play(s, 0, ["tack-center", "gaffe"], {})
    s.hands[1] = ["voter-adhd", "gaffe"]
    play(s, 0, "play tack-center bob")
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="like c3"):
        play(s, 1, f"play voter-adhd {bad}")
    assert GAME.dump(s) == before


def _primary_card_then_general(**opts):
    s = new(2, **opts)
    last_play(s, 0, ["steal-their-position"], {})
    s.hands[1] = []
    play(s, 0, "play steal-their-position bob")  # c1 in the Primary; ends the Primary
    assert s.phase == "general"
    s.hands[s.turn].append("voter-adhd")
    return s


def test_adhd_scope_phase_cannot_reach_a_primary_card_in_the_general():
    s = _primary_card_then_general(adhd_scope="phase")
    assert s.in_play == [] and "steal-their-position" in s.discard
    assert [a.target for a in GAME.legal_actions(s, s.turn) if a.card == "voter-adhd"] == ["none"]
    before = GAME.dump(s)
    with pytest.raises(RuleError, match=r"^Voter ADHD only removes cards played this phase, and c1 was played "
                                        r"in the Primary \(setting adhd_scope=phase\)\.$"):
        play(s, s.turn, "play voter-adhd c1")
    assert GAME.dump(s) == before
    # a number never given out is still simply not in play
    with pytest.raises(RuleError, match="There is no card c2 in play"):
        play(s, s.turn, "play voter-adhd c2")


def test_adhd_scope_game_can_remove_a_primary_card_in_the_general():
    s = _primary_card_then_general(adhd_scope="game")
    assert [c.id for c in s.in_play] == [1] and s.in_play[0].phase == "primary"
    assert (s.electability[1], s.affiliation[1]) == (6, -5)
    assert "c1" in [a.target for a in GAME.legal_actions(s, s.turn) if a.card == "voter-adhd"]
    play(s, s.turn, "play voter-adhd c1")
    assert (s.electability[1], s.affiliation[1]) == (0, 0) and s.in_play == []


def test_adhd_scope_game_without_carried_scores_clears_the_table():
    # The Primary effects are gone, so there is nothing a later Voter ADHD could undo.
    s = _primary_card_then_general(adhd_scope="game", carry_scores=False)
    assert s.in_play == [] and s.electability == [0, 0]
    with pytest.raises(RuleError, match="c1 was played in the Primary and left the table .*carry_scores=off"):
        play(s, s.turn, "play voter-adhd c1")


# ---- turns and phases ---------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_starting_player_each_phase_and_turns_go_round(n):
    primary_starters, general_starters = set(), set()
    for seed in range(40):
        s = new(n, seed=seed)
        primary_starters.add(s.starter)
        assert s.turn == s.starter
        order = []
        while s.phase == "primary":
            order.append(s.turn)
            GAME.apply_in_place(s, s.turn, GAME.legal_actions(s, s.turn)[0])
        assert order == [(s0 + k) % n for s0 in [order[0]] for k in range(7 * n)]
        general_starters.add(s.starter)
        assert s.turn == s.starter and all(len(h) == 7 for h in s.hands)
    assert primary_starters == set(range(n)) and general_starters == set(range(n))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_full_game_is_fourteen_cards_each(n):
    s = new(n, seed=3)
    plays = 0
    while s.phase != "over":
        GAME.apply_in_place(s, s.turn, GAME.legal_actions(s, s.turn)[-1])
        plays += 1
    assert plays == 14 * n and not any(s.hands)
    assert len(s.deck) == 56 - 14 * n
    assert GAME.result(s).finished and GAME.to_act(s) == []


# ---- Primary scoring ------------------------------------------------------------------

def test_primary_top_two_by_electability_plus_affiliation():
    s = new(4)
    events = finish_primary(s, {0: (1, 1), 1: (-5, 12), 2: (9, -2), 3: (3, 3)})
    assert s.primary_totals == [2, 7, 7, 6]
    assert s.candidates == [1, 2]
    over = next(e.text for e in events if "Primary is over" in e.text)
    assert "Candidates: bob and carol" in over and "Spoilers: alice, dave" in over
    assert any("General begins" in e.text for e in events)
    v = GAME.view(s, None)
    assert [p["role"] for p in v["players"]] == ["spoiler", "candidate", "candidate", "spoiler"]


def test_primary_tie_for_second_goes_to_more_electability():
    s = new(3)
    finish_primary(s, {0: (10, 0), 1: (2, 4), 2: (4, 2)})
    assert s.candidates == [0, 2]


def test_primary_exact_tie_is_a_seeded_draw():
    winners = set()
    for seed in range(30):
        s = new(3, seed=seed)
        finish_primary(s, {0: (10, 0), 1: (3, 3), 2: (3, 3)})
        assert 0 in s.candidates
        winners.add(tuple(s.candidates))
        again = new(3, seed=seed)
        finish_primary(again, {0: (10, 0), 1: (3, 3), 2: (3, 3)})
        assert again.candidates == s.candidates  # same seed, same draw
    assert winners == {(0, 1), (0, 2)}


def test_two_players_are_both_candidates_whatever_the_totals():
    s = new(2)
    finish_primary(s, {0: (-9, -9), 1: (5, 5)})
    assert s.candidates == [0, 1] and s.phase == "general"


# ---- carry_scores -----------------------------------------------------------------------

def test_scores_carry_into_the_general_by_default():
    s = new(3)
    finish_primary(s, {0: (4, 1), 1: (2, 6), 2: (0, 0)})
    assert s.electability == [4, 2, 0] and s.affiliation == [1, 6, 0]
    assert all(len(h) == 7 for h in s.hands) and s.phase == "general"


def test_scores_reset_for_the_general_when_carry_scores_is_off():
    s = new(3, carry_scores=False)
    finish_primary(s, {0: (4, 1), 1: (2, 6), 2: (0, 0)})
    assert s.candidates == [0, 1]
    assert s.electability == [0, 0, 0] and s.affiliation == [0, 0, 0]


# ---- General scoring ---------------------------------------------------------------------

def general(n=4, cands=(0, 1), seed=1, **opts):
    s = new(n, seed=seed, **opts)
    s.phase = "general"
    s.candidates = list(cands)
    s.in_play = []
    return s


def test_highest_positive_candidate_wins():
    s = general(4)
    events = finish_general(s, {0: (6, 2), 1: (9, 1), 2: (20, 0), 3: (0, 0)})
    assert s.general_totals == [4, 8, 20, 0]
    assert s.winner == 1 and s.phase == "over"  # a Spoiler's 20 doesn't count
    assert GAME.result(s).winners == [1] and "bob is President" in events[-1].text


def test_the_only_positive_candidate_wins_even_with_less_electability():
    s = general(3)
    finish_general(s, {0: (1, 0), 1: (9, 10), 2: (30, 30)})
    assert s.winner == 0


def test_candidate_tie_goes_to_more_electability():
    s = general(4)
    finish_general(s, {0: (5, 2), 1: (7, 4), 2: (0, 0), 3: (0, 0)})
    assert s.general_totals[:2] == [3, 3] and s.winner == 1


def test_exact_candidate_tie_is_a_seeded_draw():
    winners = set()
    for seed in range(30):
        s = general(2, seed=seed)
        finish_general(s, {0: (5, 2), 1: (5, 2)})
        winners.add(s.winner)
    assert winners == {0, 1}


def test_no_positive_candidate_spoiler_with_highest_electability_wins():
    s = general(4, cands=(1, 3))
    events = finish_general(s, {0: (3, 0), 1: (2, 2), 2: (8, 20), 3: (-1, 5)})
    # Candidates 0 and -6: neither positive. Spoiler carol has E 8 (total -12) > alice's E 3.
    assert s.winner == 2 and "Spoiler" in s.winner_reason
    assert "carol is President" in events[-1].text


def test_zero_is_not_positive():
    s = general(3, cands=(0, 1))
    finish_general(s, {0: (4, 4), 1: (0, 0), 2: (1, 9)})
    assert s.winner == 2


def test_spoiler_tie_on_electability_goes_to_the_better_total():
    s = general(4, cands=(0, 1))
    finish_general(s, {0: (0, 1), 1: (0, 1), 2: (5, 3), 3: (5, 0)})
    assert s.winner == 3


def test_two_players_no_positive_candidate_higher_electability_wins():
    s = general(2)
    finish_general(s, {0: (3, 5), 1: (2, 9)})
    assert s.general_totals == [-2, -7] and s.winner == 0
    assert "Candidate with the highest Electability" in s.winner_reason
    s = general(2)
    finish_general(s, {0: (-4, 0), 1: (-1, 0)})
    assert s.winner == 1


def test_result_scores_are_the_general_totals():
    s = general(3)
    finish_general(s, {0: (5, 1), 1: (2, 1), 2: (0, 3)})
    r = GAME.result(s)
    assert r.finished and r.winners == [0] and r.scores == [4.0, 1.0, -3.0]
    assert "alice is President" in r.summary and GAME.status_text(s) == r.summary


# ---- the party match -------------------------------------------------------------------

def test_party_match_needs_four_players():
    with pytest.raises(RuleError, match="four players"):
        new(3, party_match=True)


def test_parties_alternate_by_seat():
    s = new(4, party_match=True)
    assert s.parties == [0, 1, 0, 1]
    v = GAME.view(s, None)
    assert [p["party"] for p in v["players"]] == ["Blue", "Red", "Blue", "Red"]
    assert [p["points"] for p in v["players"]] == [0, 0, 0, 0] and v["party_match"]


def test_per_party_candidates_are_the_best_of_each_party():
    s = new(4, party_match=True)
    finish_primary(s, {0: (9, 9), 1: (0, 0), 2: (8, 8), 3: (1, 0)})
    assert s.candidates == [0, 3]  # carol (16) loses to her partner; dave leads Red
    assert s.points == [1, 0, 0, 1]


def test_top_two_candidates_may_share_a_party():
    s = new(4, party_match=True, candidates="top-two")
    finish_primary(s, {0: (9, 9), 1: (0, 0), 2: (8, 8), 3: (1, 0)})
    assert s.candidates == [0, 2] and s.points == [1, 0, 1, 0]


def test_party_points_and_standings_and_next_game():
    s = new(4, party_match=True, match_games=2)
    finish_primary(s, {0: (9, 9), 1: (5, 0), 2: (0, 0), 3: (0, 0)})
    assert s.candidates == [0, 1]
    events = finish_general(s, {0: (3, 0), 1: (1, 0), 2: (0, 0), 3: (0, 0)})
    # alice: candidate 1 + President 2; carol: partner 1; bob: candidate 1; dave: 0.
    assert s.points == [3, 1, 1, 0]
    texts = [e.text for e in events]
    assert any(t.startswith("Standings after game 1 of 2") and "alice (Blue) 3" in t for t in texts)
    assert any("Game 2 begins" in t for t in texts)
    assert s.phase == "primary" and s.game_number == 2 and s.history[0]["winner"] == 0
    assert all(len(h) == 7 for h in s.hands) and len(s.deck) == 28 and s.in_play == [] and s.discard == []
    assert s.electability == [0] * 4 and s.candidates == []
    assert not GAME.result(s).finished and GAME.result(s).scores == [3.0, 1.0, 1.0, 0.0]
    # Game 2: a Spoiler becomes President.
    finish_primary(s, {0: (0, 0), 1: (0, 0), 2: (5, 0), 3: (6, 0)})
    assert s.candidates == [2, 3] and s.points == [3, 1, 2, 1]
    events = finish_general(s, {0: (0, 0), 1: (4, 0), 2: (0, 1), 3: (0, 2)})
    assert s.winner == 1 and s.points == [3, 3, 2, 2]  # bob +2, dave (partner) +1
    assert s.phase == "over" and any("Standings after game 2 of 2" in e.text for e in events)
    r = GAME.result(s)
    assert r.finished and r.winners == [0, 1] and r.scores == [3.0, 3.0, 2.0, 2.0]


def test_party_match_plays_match_games_games():
    s = new(4, seed=5, party_match=True, match_games=3)
    games_seen = set()
    while s.phase != "over":
        games_seen.add(s.game_number)
        GAME.apply_in_place(s, s.turn, GAME.legal_actions(s, s.turn)[0])
    assert games_seen == {1, 2, 3} and len(s.history) == 3
    # Every game awards 2 candidacies + 2 (President) + 1 (partner) = 5 points.
    assert sum(s.points) == 15
    best = max(s.points)
    assert GAME.result(s).winners == [i for i in range(4) if s.points[i] == best]


def test_match_games_setting_is_validated():
    with pytest.raises(RuleError, match="match_games"):
        GAME.options({"match_games": 0})
    with pytest.raises(RuleError, match="adhd_scope"):
        GAME.options({"adhd_scope": "forever"})


# ---- errors leave the state unchanged -------------------------------------------------

@pytest.mark.parametrize("text,seat,message", [
    ("play moonshot alice", "turn", "no card called 'moonshot'"),
    ("play {missing} alice", "turn", "You have no"),
    ("play {held} alice", "other", "not your turn: waiting for"),
    ("play {held} zed", "turn", "no player 'zed'"),
    ("play voter-adhd c99", "turn", "no card c99 in play"),
    ("play", "turn", "needs a card"),
    ("vote alice", "turn", "not a move in Primary/General"),
])
def test_errors_are_clear_and_change_nothing(text, seat, message):
    s = new(3, seed=2)
    s.hands[s.turn] = ["tack-center", "voter-adhd", "gaffe"]
    play(s, s.turn, "play tack-center alice")  # c1 in play, turn passes on
    s.hands[s.turn] = ["gaffe", "voter-adhd", "true-blue"]
    missing = next(c.slug for c in CARDS if c.slug not in s.hands[s.turn])
    text = text.format(missing=missing, held="gaffe")
    who = s.turn if seat == "turn" else (s.turn + 1) % 3
    before = GAME.dump(s)
    with pytest.raises(RuleError, match=message):
        GAME.apply(s, who, GAME.parse_action(text))
    with pytest.raises(RuleError, match=message):
        GAME.apply_in_place(s, who, GAME.parse_action(text))
    assert GAME.dump(s) == before


def test_no_move_after_the_game_is_over():
    s = general(2)
    finish_general(s, {0: (1, 0), 1: (0, 0)})
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="game is over"):
        play(s, 0, "play tack-center alice")
    assert GAME.dump(s) == before and GAME.legal_actions(s, 0) == []


def test_card_names_accept_unique_prefixes():
    s = new(2)
    last_play(s, 0, ["sister-souljah", "gaffe"], {})
    play(s, 0, "play sister bob")
    assert s.electability[1] == 7
    before = GAME.dump(s)
    with pytest.raises(RuleError) as refused:  # ambiguous: tack, toe, targeted, true
        GAME.apply_in_place(s, 0, GAME.parse_action("play t bob"))
    assert str(refused.value) == ("'t' could be Tack Center (tack-center), Toe the Line (toe-the-line), "
                                  "Targeted by a Negative Ad (negative-ad) or True Blue (true-blue): "
                                  "type more of the card's name.")
    assert GAME.dump(s) == before
    with pytest.raises(RuleError, match="could be Steal Their Position .* or Strange Pronouncement"):
        GAME.apply(s, 0, GAME.parse_action("play st bob"))
    with pytest.raises(RuleError, match="no card called 'moon'"):
        GAME.apply(s, 0, GAME.parse_action("play moon bob"))


# ---- the texts the bot shows -------------------------------------------------------------

def test_labels_status_and_private_text():
    s = new(2, seed=4)
    seat = s.turn
    s.hands[seat] = ["tack-center", "voter-adhd"]
    assert GAME.token_label(s, seat, ("play",), "tack-center") == "Tack Center (+4E -3A)"
    assert GAME.token_label(s, seat, ("play", "voter-adhd"), "none") == "Nothing in play: discard it"
    assert GAME.token_label(s, seat, ("play", "tack-center"), "bob") == "on bob"
    play(s, seat, "play tack-center bob")
    other = s.turn
    s.hands[other] = ["voter-adhd"]
    assert GAME.token_label(s, other, ("play", "voter-adhd"), "c1") == "Tack Center on bob"
    assert (GAME.describe_action(s, other, GAME.parse_action("play voter-adhd c1"))
            == "Voter ADHD (remove a card) Tack Center on bob")
    assert GAME.status_text(s) == f"Primary · {NAMES[other]} to play · deck 42"
    assert GAME.private_text(s, other) == ("**Your hand** (1):\n"
                                           "• Voter ADHD — Remove one card from play (its effect is undone)")
    assert "Tack Center" not in GAME.private_text(s, seat) or "tack-center" in s.hands[seat]


def test_rules_text_uses_the_real_command_syntax():
    assert "/politics do action:play" in GAME.rules_text


def test_settings_as_typed_in_discord():
    opts = GAME.options({"carry_scores": "off", "adhd_scope": "game", "party_match": "on",
                         "candidates": "top-two", "match_games": "2"})
    assert (opts.carry_scores, opts.adhd_scope, opts.party_match, opts.candidates, opts.match_games) == \
        (False, "game", True, "top-two", 2)
    defaults = GAME.options({})
    assert (defaults.carry_scores, defaults.adhd_scope, defaults.party_match, defaults.candidates,
            defaults.match_games) == (True, "phase", False, "per-party", 4)
