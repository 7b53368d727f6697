"""Politics: The Game (trivia): how the race ends. 270 with the most Popular Votes, the runoff
against the Popular Vote leader, overrules, speed play after the round limit, a wrap-up vote or a
stall, and how ties are broken. The rules of the race itself are in test_politics_trivia_rules.py."""
from __future__ import annotations

import json

import pytest

from engines import SYSTEM, RuleError
from engines.politics_trivia import GAME
from engines.politics_trivia import pile, runoff
from engines.politics_trivia import game as g
from engines.politics_trivia.game import CODES, DC, EV, ev_of

from tests.trivia_helpers import act, answer, ask, at_choose, fresh, public


# ---------------------------------------------------------------- winning

def _give(s, seat, total, exclude=()):
    """Give `seat` free chips worth exactly `total` EV."""
    free = [c for c in CODES if c not in exclude and c != DC and s.chips[c] is None]
    picked = g._minimal_chips(free, total)
    for c in picked:
        s.chips[c] = seat
    assert sum(EV[c] for c in picked) == total
    return total


def _runoff(n=3, **opts):
    """A game where seat 0 has just reached 270 while seat 1 leads the Popular Vote: a runoff between them."""
    s = fresh(n, **opts)
    _give(s, 0, 270)
    s.players[1].pv = 50
    runoff.check_270(s, [])
    return s


def test_270_with_the_most_popular_votes_wins():
    s = fresh()
    _give(s, 0, 267, exclude=("VT",))
    s.players[0].pv, s.players[1].pv = 30, 30  # a tie is not "more"
    at_choose(s, 0, "VT")
    ask(s, 0, "state")
    ev = answer(s, 0)
    assert ev_of(s, 0) >= 270
    assert GAME.result(s).finished and GAME.result(s).winners == [0] and "elected" in public(ev)


def test_270_without_the_most_popular_votes_is_a_runoff_against_the_pv_leader():
    s = fresh()
    _give(s, 0, 267, exclude=("VT",))
    s.players[1].pv, s.players[2].pv = 40, 50
    at_choose(s, 0, "VT")
    ask(s, 0, "state")
    ev = answer(s, 0)
    assert s.phase == "h2h" and s.h2h.kind == "runoff" and s.h2h.seats == [0, 2]
    assert len(s.h2h.qids) == 10
    cats = [pile.question(s, q).category for q in s.h2h.qids]
    assert cats.count("general") == 5 and cats.count("state") == 5
    assert "runoff" in public(ev)


def _h2h_answer_all(s, right_a, right_b):
    """Play the rest of the open head-to-head round: seat A right on its questions
    number < right_a, seat B on those < right_b (counted from the round's first)."""
    h = s.h2h
    a, b = h.seats
    start_round = h.round
    while s.phase == "h2h" and s.h2h is h and h.round == start_round:
        i = h.qn
        q = pile.question(s, h.qids[i])
        for seat, right in ((a, i < right_a), (b, i < right_b)):
            act(s, seat, f"guess {q.answer}" if right else "pass")
        while s.phase == "review":
            for r in list(GAME.to_act(s)):
                act(s, r, "ok")
        if h.qn == 0 or s.phase not in ("h2h", "review"):
            break


def test_runoff_answers_stay_secret_until_both_are_in_and_winner_takes_all():
    s = fresh()
    _give(s, 0, 270)
    s.players[2].pv = 50
    s.players[0].cash, s.players[2].cash = 20, 30
    events = []
    assert runoff.check_270(s, events)
    h = s.h2h
    q = pile.question(s, h.qids[0])
    ev = act(s, 0, f"guess {q.answer}")
    assert q.answer.lower() not in public(ev).lower() or q.answer.lower() in q.text.lower()
    assert q.answer not in json.dumps(GAME.view(s, None)) or q.answer in q.text
    assert GAME.view(s, 2).get("my_answer") is None and GAME.view(s, 0)["my_answer"] == q.answer
    with pytest.raises(RuleError, match="already"):
        act(s, 0, "guess again")
    with pytest.raises(RuleError):
        act(s, 0, "answer 1")
    act(s, 2, "pass")
    assert s.phase in ("review", "h2h")
    while s.phase == "review":
        for r in list(GAME.to_act(s)):
            act(s, r, "ok")
    assert h.scores == [1, 0]
    _h2h_answer_all(s, 5, 1)
    assert GAME.result(s).finished and s.winner == 0
    assert s.players[0].pv == 50 and s.players[0].cash == 50 and s.players[2].cash == 0
    assert ev_of(s, 2) == 0


def test_a_tied_runoff_is_replayed_and_finally_broken_by_electoral_votes():
    s = _runoff(2, max_tiebreaks=1)
    _h2h_answer_all(s, 3, 3)
    assert s.phase == "h2h" and s.h2h.round == 2
    _h2h_answer_all(s, 2, 2)
    assert GAME.result(s).finished and s.winner == 0


def test_no_help_in_a_runoff():
    s = _runoff()
    with pytest.raises(RuleError):
        act(s, 2, "help 0")
    with pytest.raises(RuleError):
        act(s, 0, "callhelp")


def test_overrule_by_majority_of_the_other_players():
    s = _runoff(4)
    h = s.h2h
    act(s, 0, "guess something quite wrong")
    act(s, 1, "pass")
    assert s.phase == "review" and set(h.reviewers) == {2, 3}
    assert h.verdicts == [False, False]
    with pytest.raises(RuleError):
        act(s, 2, "overrule bob")  # a blank answer cannot be right
    act(s, 2, "overrule alice")
    act(s, 3, "overrule alice")
    assert s.phase == "h2h" and h.scores == [1, 0]


def test_two_players_a_contestant_may_only_accept_the_others_answer():
    s = _runoff(2)
    h = s.h2h
    act(s, 0, "guess wrong one")
    act(s, 1, "guess wrong two")
    assert s.phase == "review" and set(h.reviewers) == {0, 1}
    with pytest.raises(RuleError, match="only accept"):
        act(s, 0, "overrule alice")
    act(s, 0, "overrule bob")
    act(s, 1, "ok")
    assert h.scores == [0, 1]


def test_speed_play_after_max_rounds_from_the_lowest_ev_up():
    s = fresh(3, max_rounds=1)
    s.chips["CA"] = 0
    s.chips["TX"] = 1
    s.chips["VT"] = 2
    s.turns = 3  # the last turn of round 1
    ev = act(s, 0, "fly HI")
    assert s.phase == "h2h" and s.h2h.kind == "speed"
    assert s.h2h.seats == [2, 1] and s.h2h.queue == [0]
    assert len(s.h2h.qids) == 5
    assert all(pile.question(s, q).category == "general" for q in s.h2h.qids)
    assert "Speed play" in public(ev)
    _h2h_answer_all(s, 1, 3)
    assert s.players[2].out and s.chips["VT"] == 1 and s.h2h.seats == [1, 0]
    _h2h_answer_all(s, 2, 4)
    assert GAME.result(s).finished and s.winner == 0 and ev_of(s, 0) == 54 + 40 + 3


def test_a_majority_wrapup_vote_starts_speed_play_after_the_turn():
    s = fresh(3)
    act(s, 1, "wrapup")
    with pytest.raises(RuleError):
        act(s, 1, "wrapup")
    assert not s.speed_due
    act(s, 2, "wrapup")
    assert s.speed_due and s.phase == "start"
    act(s, 0, "fly HI")
    assert s.phase == "h2h" and s.h2h.kind == "speed"


# ---------------------------------------------------------------- how a game ends (issue 15)

def _speed_to_the_end(s):
    """Finish the open speed play / runoff: the first contestant of every round answers right."""
    while s.phase in ("h2h", "review"):
        if s.phase == "review":
            GAME.apply_in_place(s, SYSTEM, g.Timeout())
            continue
        h = s.h2h
        q = pile.question(s, h.qids[h.qn])
        a, b = h.seats
        if h.answers[0] is None:
            GAME.apply_in_place(s, a, g.Guess(answer=q.answer))
        if s.phase == "h2h" and s.h2h.answers[1] is None:
            GAME.apply_in_place(s, b, g.PassAnswer())


def test_result_says_how_the_game_ended():
    s = fresh()
    _give(s, 0, 267, exclude=("VT",))
    at_choose(s, 0, "VT")
    ask(s, 0, "state")
    answer(s, 0)
    assert GAME.result(s).ending == "270"
    s = fresh()
    _give(s, 0, 267, exclude=("VT",))
    s.players[1].pv = 40
    at_choose(s, 0, "VT")
    ask(s, 0, "state")
    answer(s, 0)
    _speed_to_the_end(s)
    assert GAME.result(s).ending == "runoff"
    s = fresh(3)
    act(s, 1, "wrapup")
    act(s, 2, "wrapup")
    act(s, 0, "fly HI")
    _speed_to_the_end(s)
    assert GAME.result(s).ending == "speed"  # the wrap-up vote
    s = fresh(3, max_rounds=1)
    s.turns = 3
    act(s, 0, "fly HI")
    _speed_to_the_end(s)
    assert GAME.result(s).ending == "limit"  # the round limit
    assert set(GAME.endings) == {"270", "runoff", "speed", "limit"}


def test_a_stalled_race_goes_to_speed_play_even_without_a_round_limit():
    s = fresh(2, max_rounds=0, stall_rounds=2)
    s.chips["CA"] = 0
    for p in s.players:
        p.cash = 100
    for _ in range(4):  # CA's 54 EV set the high at the end of turn 1; turns 2-4 add nothing
        act(s, s.turn, "fly HI" if s.players[s.turn].at != "HI" else "fly AK")
        assert s.phase == "start"
    assert s.record_ev == 54 and s.record_turn == 1
    act(s, s.turn, "fly OH")
    assert s.phase == "h2h" and s.speed_reason == "stall"
    assert any("Nobody has set a new high of electoral votes for 2 rounds" in line for line in s.log)
    _speed_to_the_end(s)
    assert GAME.result(s).ending == "limit"


def test_a_new_high_of_electoral_votes_restarts_the_stall_count():
    s = fresh(2, max_rounds=0, stall_rounds=2)
    for k, code in enumerate(("CA", "TX", "FL", "NY", "PA", "IL")):
        s.chips[code] = 0  # a new high before every turn ends
        act(s, s.turn, "fly HI" if s.players[s.turn].at != "HI" else "fly AK")
        assert s.phase == "start", k
    assert s.speed_reason == ""


def test_stall_rounds_zero_turns_the_stall_rule_off():
    s = fresh(2, max_rounds=0, stall_rounds=0)
    for p in s.players:
        p.cash = 100
    for _ in range(20):
        act(s, s.turn, "fly HI" if s.players[s.turn].at != "HI" else "fly AK")
    assert s.phase == "start"


def test_speed_play_ties_are_broken_by_a_seeded_draw_not_the_seat_number():
    firsts = set()
    for seed in range(12):
        s = fresh(4, seed=seed, max_rounds=1)
        for p in s.players:
            p.pv = 0
        s.turns = 4
        act(s, 0, "fly HI")
        assert s.phase == "h2h"
        firsts.add(tuple(s.h2h.seats))
    assert len(firsts) > 1  # all tied on EV and Popular Votes: not always seats 0 and 1


def test_a_tie_still_standing_after_the_replays_is_drawn_not_given_to_the_lower_seat():
    winners = set()
    for seed in range(12):
        s = fresh(2, seed=seed, max_tiebreaks=0, max_rounds=1)
        s.turns = 2
        act(s, 0, "fly HI")
        s.players[0].cash = s.players[1].cash  # tied on everything the rule looks at
        while s.phase in ("h2h", "review"):  # nobody answers: 0 to 0
            GAME.apply_in_place(s, SYSTEM, g.Timeout())
        winners.add(s.winner)
    assert winners == {0, 1}
