"""Politics: The Game (trivia) rules of the race: the board and movement, flying, D.C.,
question rewards, chip offers, help, shortfalls, Gerrymander cards, Wildcards, no repeated
questions, custom uploads and the clocks. How the race ends (270, the runoff, speed play, the
stall rule, ties) is in test_politics_trivia_winning.py."""
from __future__ import annotations

import csv
import json

import pytest

from engines import SYSTEM, RuleError, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia import flow, wildcards
from engines.politics_trivia import cards, questions, uploads
from engines.politics_trivia.board import GUESSING
from engines.politics_trivia import game as g
from engines.politics_trivia.game import (ADJ, DC, EV, GERRY, LAYERS, REACH, WILD, H2H, WildState,
                                          ev_of)
from engines.rng import Rng

from tests.trivia_helpers import NAMES, act, answer, ask, at_choose, fresh, public, rng_for


# ---------------------------------------------------------------- board

def test_electoral_votes_are_todays_and_total_538():
    with open(f"{__file__.rpartition('/')[0]}/data/electoral_votes.csv") as fh:
        rows = {r["code"]: int(r["ev_2024"]) for r in csv.DictReader(fh)}
    assert EV == rows
    assert sum(EV.values()) == 538 and len(EV) == 51


def test_movement_graph_is_the_census_borders_plus_two_sea_lanes():
    assert set(ADJ["AK"]) == {"WA"} and set(ADJ["HI"]) == {"CA"}
    assert "AK" in ADJ["WA"] and "HI" in ADJ["CA"]
    assert set(ADJ["DC"]) == {"MD", "VA"}
    for c, ns in ADJ.items():
        assert c not in ns
        for n in ns:
            assert c in ADJ[n]


def test_steps_may_double_back_but_never_end_where_the_turn_began():
    # a walk of exactly k border crossings: Maine's only neighbour is New Hampshire
    assert REACH["ME"][1] == ("NH",)
    assert "NH" in REACH["ME"][3]  # ME-NH-ME-NH: passing back through the start is allowed
    assert all("ME" not in REACH["ME"][k] for k in range(13))
    # layers are exactly the states one border away from the previous layer
    for k in range(1, 13):
        assert LAYERS["TX"][k] == frozenset(n for c in LAYERS["TX"][k - 1] for n in ADJ[c])


# ---------------------------------------------------------------- setup

def test_homes_in_roll_order_never_dc_one_per_state_and_lowest_roll_starts():
    s = GAME.setup([Seat(name=n) for n in NAMES[:4]], GAME.options({}), 5)
    rolls = [p.roll for p in s.players]
    assert [rolls[x] for x in s.home_order] == sorted(rolls, reverse=True)
    assert s.first == s.home_order[-1]
    first, second = s.home_order[0], s.home_order[1]
    with pytest.raises(RuleError, match="order of the opening roll"):
        GAME.apply_in_place(s, second, g.Home(state="TX"))
    with pytest.raises(RuleError, match="D.C. cannot"):
        GAME.apply_in_place(s, first, g.Home(state="DC"))
    GAME.apply_in_place(s, first, g.Home(state="TX"))
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="already"):
        GAME.apply_in_place(s, second, g.Home(state="texas"))
    assert GAME.dump(s) == before
    assert all(len(p.dealt) == 3 for p in s.players)
    for i, p in enumerate(s.players):
        GAME.apply_in_place(s, i, g.Discard(card=p.dealt[2]))
        assert len(s.players[i].hand) == 2 and not s.players[i].dealt
    for seat in s.home_order[1:]:
        GAME.apply_in_place(s, seat, g.Home(state=["NY", "CA", "FL", "OH"][seat]))
    assert s.phase == "start" and s.turn == s.first
    # counter-clockwise: down the seat list
    act(s, s.first, "fly AK" if s.players[s.first].at != "AK" else "fly HI")
    assert s.turn == (s.first - 1) % 4


# ---------------------------------------------------------------- movement and flying

def test_move_exactly_the_roll_in_any_direction_but_not_back_home():
    s = fresh()
    s.players[0].at = "MO"
    s.rng = rng_for(1, 1)  # doubles: but no wildcards in this game? use 1+2 instead
    s.rng = rng_for(1, 2)
    act(s, 0, "roll")
    assert s.phase == "move" and s.dice == [1, 2]
    legal = {a.state for a in GAME.legal_actions(s, 0) if isinstance(a, g.Move)}
    assert legal == set(REACH["MO"][3]) and "MO" not in legal
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="exactly 3 steps"):
        act(s, 0, "move ME")
    with pytest.raises(RuleError, match="where you started"):
        act(s, 0, "move MO")
    assert GAME.dump(s) == before
    act(s, 0, "move TX")  # MO-OK-TX is 2; MO-AR-LA-TX is 3
    assert s.players[0].at == "TX" and s.phase == "choose"
    assert len(s.path) == 4 and s.path[0] == "MO" and s.path[-1] == "TX"
    assert all(b in ADJ[a] for a, b in zip(s.path, s.path[1:]))


def test_alaska_and_hawaii_are_reached_by_sea():
    assert "AK" in LAYERS["OR"][2] and "HI" in LAYERS["NV"][2]
    assert "AK" not in LAYERS["CA"][1]


def test_flying_costs_2m_and_ends_the_turn():
    s = fresh()
    act(s, 0, "fly HI")
    assert s.players[0].at == "HI" and s.players[0].cash == 8 and s.turn != 0
    s2 = fresh()
    s2.players[0].cash = 1
    assert not any(isinstance(a, g.Fly) for a in GAME.legal_actions(s2, 0))
    with pytest.raises(RuleError, match="costs \\$2M"):
        act(s2, 0, "fly HI")
    with pytest.raises(RuleError, match="already in Texas"):
        s2.players[0].cash = 5
        act(s2, 0, "fly TX")


# ---------------------------------------------------------------- D.C.

def test_landing_in_dc_pays_10m_and_ends_the_turn_then_stay_up_to_four():
    s = fresh()
    s.players[0].at = "VA"
    s.rng = rng_for(1, 2)
    act(s, 0, "roll")
    assert "DC" in REACH["VA"][3]
    ev = act(s, 0, "move DC")
    p = s.players[0]
    assert p.at == DC and p.cash == 20 and p.dc_turns == 1 and s.turn != 0
    assert "D.C." in public(ev)
    for k in (2, 3, 4):
        s.turn, s.phase = 0, "start"
        assert g.Stay() in GAME.legal_actions(s, 0)
        act(s, 0, "stay")
        assert p.dc_turns == k
    assert p.cash == 50
    s.turn, s.phase = 0, "start"
    assert g.Stay() not in GAME.legal_actions(s, 0)
    with pytest.raises(RuleError, match="at most 4"):
        act(s, 0, "stay")


def test_debts_are_paid_before_leaving_dc_and_written_off_after_four_turns():
    s = fresh()
    p = s.players[0]
    p.cash, p.debt = 0, 25
    p.at = "TX"
    line = flow.go_dc(s, 0)
    assert p.at == DC and p.cash == 0 and p.debt == 15 and "debt" in line
    s.turn, s.phase = 0, "start"
    assert GAME.legal_actions(s, 0)[0] == g.Stay()
    with pytest.raises(RuleError, match="debts are paid"):
        act(s, 0, "roll")
    act(s, 0, "stay")
    assert p.debt == 5 and p.cash == 0
    p.debt = 100
    p.dc_turns = 4
    events = []
    flow.begin_turn(s, 0, events)
    assert p.debt == 0 and "writes off" in public(events)
    assert g.Roll() in GAME.legal_actions(s, 0)


# ---------------------------------------------------------------- rewards

def test_state_question_claims_a_free_chip_else_popular_votes():
    s = fresh()
    at_choose(s, 0, "OH")
    q = ask(s, 0, "state")
    assert q.category == "state" and q.state == "OH"
    answer(s, 0)
    assert s.chips["OH"] == 0 and ev_of(s, 0) == 17
    at_choose(s, 0, "OH")
    ask(s, 0, "state")
    answer(s, 0)
    assert s.players[0].pv == s.options.state_pv


def test_general_gives_popular_votes_and_a_wrong_answer_gives_nothing():
    s = fresh()
    at_choose(s, 0, "OH")
    ask(s, 0, "general")
    answer(s, 0)
    assert s.players[0].pv == 10
    at_choose(s, 0, "OH")
    ask(s, 0, "general")
    answer(s, 0, right=False)
    assert s.players[0].pv == 10 and s.chips["OH"] is None


def test_government_costs_2m_pays_cash_and_the_first_right_answer_may_claim_dc():
    s = fresh()
    at_choose(s, 0, "OH")
    ask(s, 0, "government")
    assert s.players[0].cash == 8
    answer(s, 0)
    assert s.players[0].cash == 13 and s.phase == "claim"
    ev = act(s, 0, "claim")
    assert s.chips[DC] == 0 and "claims D.C." in public(ev) and s.turn != 0
    # the next right Government answer finds D.C. claimed: no claim step
    at_choose(s, 1, "NY")
    ask(s, 1, "government")
    answer(s, 1)
    assert s.phase != "claim" and s.chips[DC] == 0


def test_a_missed_dc_claim_passes_to_the_next_right_government_answer():
    s = fresh()
    at_choose(s, 0, "OH")
    ask(s, 0, "government")
    answer(s, 0)
    act(s, 0, "end")
    assert s.chips[DC] is None
    at_choose(s, 1, "NY")
    ask(s, 1, "government")
    answer(s, 1)
    act(s, 1, "claim")
    assert s.chips[DC] == 1


def test_government_needs_2m_and_the_clock_counts_as_wrong():
    s = fresh()
    at_choose(s, 0, "OH")
    s.players[0].cash = 1
    assert g.Ask(category="government") not in GAME.legal_actions(s, 0)
    with pytest.raises(RuleError, match="costs \\$2M"):
        act(s, 0, "ask government")
    ask(s, 0, "state")
    t = GAME.timer(s)
    assert t.seconds == 120 and t.seat == SYSTEM and t.action_text == "timeout"
    ev = GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert "Time is up" in public(ev) and s.chips["OH"] is None and s.turn != 0


def test_only_the_bot_clock_may_call_timeout():
    s = fresh()
    with pytest.raises(RuleError, match="clock"):
        act(s, 0, "timeout")


# ---------------------------------------------------------------- offers

def test_an_accepted_offer_and_a_right_answer_move_the_chip_and_the_payment():
    s = fresh()
    s.chips["OH"] = 1
    s.chips["RI"] = 0
    s.players[0].pv = 20
    at_choose(s, 0, "OH")
    before = GAME.dump(s)
    with pytest.raises(RuleError, match="No IOUs"):
        act(s, 0, "offer 50 0 -")
    with pytest.raises(RuleError, match="No IOUs"):
        act(s, 0, "offer 0 0 CA")
    assert GAME.dump(s) == before
    act(s, 0, "offer 3 5 RI")
    assert s.phase == "deal" and GAME.to_act(s) == [1]
    assert GAME.timer(s).seconds == s.options.offer_seconds
    act(s, 1, "deal yes")
    assert s.phase == "choose" and s.deal.accepted
    ask(s, 0, "general")
    ev = answer(s, 0)
    assert s.chips["OH"] == 0 and s.chips["RI"] == 1
    assert s.players[0].cash == 7 and s.players[1].cash == 13
    assert s.players[0].pv == 15 and s.players[1].pv == 5
    assert "takes the Ohio chip" in public(ev)


def test_an_accepted_offer_with_a_wrong_answer_costs_nothing():
    s = fresh()
    s.chips["OH"] = 1
    at_choose(s, 0, "OH")
    act(s, 0, "offer 5")
    act(s, 1, "deal yes")
    ask(s, 0, "state")
    answer(s, 0, right=False)
    assert s.chips["OH"] == 1 and s.players[0].cash == 10 and s.players[1].cash == 10


def test_a_declined_offer_leaves_a_question_and_only_one_offer_a_turn():
    s = fresh()
    s.chips["OH"] = 1
    at_choose(s, 0, "OH")
    act(s, 0, "offer 2")
    act(s, 1, "deal no")
    assert s.phase == "choose" and s.deal is None
    assert not any(isinstance(a, g.Offer) for a in GAME.legal_actions(s, 0))
    with pytest.raises(RuleError, match="one offer a turn"):
        act(s, 0, "offer 3")
    ask(s, 0, "state")
    answer(s, 0)
    assert s.chips["OH"] == 1 and s.players[0].pv == s.options.state_pv


def test_an_unanswered_offer_is_declined_by_the_clock():
    s = fresh()
    s.chips["OH"] = 2
    at_choose(s, 0, "OH")
    act(s, 0, "offer 2")
    ev = GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert "declined" in public(ev) and s.phase == "choose" and s.deal is None


def test_a_turn_move_from_a_seat_asked_something_else_says_what_it_can_do_not_whom_the_game_waits_for():
    s = fresh()
    s.chips["OH"] = 1
    at_choose(s, 0, "OH")
    act(s, 0, "offer 2")
    for text in ("roll", "end", "offer 1"):  # the holder is the one the game waits for: no "waiting for bob"
        with pytest.raises(RuleError, match=r"^It is alice's turn, not yours; what you can do now: `deal yes` or "
                                            r"`deal no`\.$"):
            act(s, 1, text)
    with pytest.raises(RuleError, match="It is not your turn: waiting for bob"):  # carol is asked nothing
        act(s, 2, "roll")
    act(s, 1, "deal no")
    ask(s, 0, "state")  # a multiple-choice question: the others may offer help for a price
    with pytest.raises(RuleError, match=r"It is alice's turn, not yours; what you can do now: `help <price> <unit>`\."):
        act(s, 2, "roll")
    s = fresh()
    _wild(s, sorted(GUESSING)[0])  # alice performs; the others guess in words
    with pytest.raises(RuleError, match=r"It is alice.s turn, not yours; what you can do now: guess with `guess"):
        act(s, 2, "roll")


# ---------------------------------------------------------------- help

def test_help_is_offered_hired_paid_up_front_and_the_hint_is_private():
    s = fresh()
    at_choose(s, 0, "OH")
    q = ask(s, 0, "general")
    act(s, 0, "callhelp")
    assert set(GAME.to_act(s)) == {0, 1, 2}
    act(s, 2, "nohelp")
    act(s, 1, "help 3 cash")
    assert GAME.to_act(s) == [0]
    with pytest.raises(RuleError):
        act(s, 1, "help 1 cash")  # one offer per question
    act(s, 0, "hire bob")
    assert s.players[0].cash == 7 and s.players[1].cash == 13 and q.helper == 1
    assert GAME.to_act(s) == [0, 1]
    ev = act(s, 1, f"suggest {q.correct + 1}")
    hint = [e for e in ev if e.to is not None]
    assert hint and set(hint[0].to) == {0, 1} and q.choices[q.correct] in hint[0].text
    assert q.choices[q.correct] not in public(ev)
    assert GAME.view(s, 0)["hint"] == q.correct + 1
    assert "hint" not in GAME.view(s, None) and "hint" not in GAME.view(s, 2)
    assert "suggests" in GAME.private_text(s, 0) and "suggests" not in GAME.private_text(s, 2)
    answer(s, 0)
    assert s.players[0].pv == 10


def test_help_can_be_declined_and_the_price_must_be_payable():
    s = fresh()
    at_choose(s, 0, "OH")
    ask(s, 0, "general")
    act(s, 2, "help 0")  # unasked, free
    act(s, 1, "help 20 pv")
    assert not any(isinstance(a, g.Hire) and a.helper == "bob" for a in GAME.legal_actions(s, 0))
    with pytest.raises(RuleError, match="up front"):
        act(s, 0, "hire bob")
    act(s, 0, "decline bob")
    act(s, 0, "hire carol")
    assert s.q.helper == 2 and s.players[0].cash == 10


# ---------------------------------------------------------------- shortfalls

def test_giving_back_ev_takes_the_smallest_total_at_least_the_number():
    s = fresh()
    for c in ("CA", "TX", "NJ", "VT", "DE"):  # 54, 40, 14, 3, 3
        s.chips[c] = 0
    line = wildcards.lose_ev(s, 0, 12, "alice must give back 12 EV")
    assert sorted(c for c in ("CA", "TX", "NJ", "VT", "DE") if s.chips[c] is None) == ["NJ"]
    assert "NJ" in line and s.players[0].cash == 10
    line = wildcards.lose_ev(s, 0, 5, "x")
    assert s.chips["VT"] is None and s.chips["DE"] is None and s.chips["CA"] == 0


def test_too_few_ev_costs_1m_each_and_too_little_cash_sends_to_dc():
    s = fresh()
    s.chips["VT"] = 0  # 3 EV
    wildcards.lose_ev(s, 0, 12, "x")
    assert s.chips["VT"] is None and s.players[0].cash == 1 and s.players[0].at == "TX"
    s.chips["DE"] = 0
    s.players[0].cash = 2
    line = wildcards.lose_ev(s, 0, 12, "x")
    p = s.players[0]
    # 3 EV given, 9 missing: $2M paid, $7M owed, to D.C. where $10M arrives and pays the debt
    assert p.at == DC and p.debt == 0 and p.cash == 3 and "D.C." in line


def test_popular_vote_shortfall_is_bought_at_1m_per_million():
    s = fresh()
    s.players[0].pv = 3
    wildcards.lose_pv(s, 0, 5, "x")
    assert s.players[0].pv == 0 and s.players[0].cash == 8
    s.players[0].pv = 9
    wildcards.lose_pv(s, 0, 5, "x")
    assert s.players[0].pv == 4 and s.players[0].cash == 8


# ---------------------------------------------------------------- Gerrymander cards

def _card_with_chips():
    return next(c for c in GERRY.values() if c.need_chips and c.reward_chips)


def test_a_gerrymander_card_turns_in_its_needs_and_takes_its_reward():
    s = fresh()
    card = _card_with_chips()
    p = s.players[0]
    p.hand = [card.id] + [c for c in p.hand if c != card.id][:1]
    s.gdeck = [x for x in s.gdeck if x not in p.hand]
    with pytest.raises(RuleError, match="needs"):
        act(s, 0, f"play {card.id}")
    for c in card.need_chips:
        s.chips[c] = 0
    for c in card.reward_chips:
        if c not in card.need_chips:
            s.chips[c] = 1  # held by someone else: forfeited to the player
    p.cash, p.pv = 100, 100
    top = s.gdeck[0]
    act(s, 0, f"play {card.id}")
    for c in card.reward_chips:
        assert s.chips[c] == 0
    for c in card.need_chips:
        if c not in card.reward_chips:
            assert s.chips[c] is None
    assert p.cash == 100 - card.need_cash + card.reward_cash
    assert p.pv == 100 - card.need_pv + card.reward_pv
    assert card.id in p.played and len(p.hand) == 2 and top in p.hand


def test_gerrymander_cards_only_on_your_turn_and_never_in_a_runoff():
    s = fresh()
    cid = s.players[1].hand[0]
    with pytest.raises(RuleError, match="not your turn"):
        act(s, 1, f"play {cid}")
    s.phase = "h2h"
    s.h2h = H2H(kind="runoff", seats=[0, 1], qids=["x"])
    with pytest.raises(RuleError, match="runoff"):
        act(s, 1, f"play {cid}")


def test_a_turn_move_before_the_first_turn_or_after_the_last_says_what_the_game_waits_for():
    s = GAME.setup([Seat(name=NAMES[i]) for i in range(2)], GAME.options({}), 7)
    first = s.home_order[0]
    s.turn = first  # whatever seat number the turn holds in setup, it is nobody's turn yet
    for text in ("roll", "fly TX", "end", "move TX", "ask general"):
        with pytest.raises(RuleError, match=r"Setup comes first: return one of your three opening .*`discard <id>`"):
            act(s, first, text)
    for i, p in enumerate(s.players):
        GAME.apply_in_place(s, i, g.Discard(card=p.dealt[0]))
    with pytest.raises(RuleError, match=r"Setup comes first: choose your home state \(`home <state>`\)"):
        act(s, first, "roll")
    other = s.home_order[1]
    with pytest.raises(RuleError, match=f"It is not your turn: waiting for {NAMES[first]}"):  # setup owes it nothing
        act(s, other, "roll")

    s = fresh(n=3)
    s.phase = "h2h"
    s.h2h = H2H(kind="runoff", seats=[0, 1], qids=["x"])
    s.turn = 0
    with pytest.raises(RuleError, match=r"The turns are over: the runoff is on. Answer the question \(`guess"):
        act(s, 0, "roll")
    s.phase, s.h2h.kind = "review", "speed"
    s.h2h.reviewers = [2]
    with pytest.raises(RuleError, match=r"The turns are over: speed play is on. Review the verdicts \(`ok`"):
        act(s, 2, "end")


# ---------------------------------------------------------------- Wildcards

def _wild(s, kind, seat=0, stage="performing", actor=None):
    cid = next(w.id for w in WILD.values() if w.kind == kind)
    s.turn = seat
    s.phase = "wildcard"
    s.dice = [2, 2]
    s.wild = WildState(card=cid, performer=seat, stage=stage, actor=actor)
    return WILD[cid]


def test_doubles_draw_a_wildcard_before_moving():
    s = fresh()
    s.rng = rng_for(3, 3)
    ev = act(s, 0, "roll")
    assert "Wildcard" in public(ev)
    assert s.phase in ("wildcard", "move", "choose", "start") or s.phase in ("h2h",)
    if s.phase == "wildcard":
        card = WILD[s.wild.card]
        if card.secret:
            assert card.secret not in public(ev)
            assert any(card.secret in e.text and e.to == [0] for e in ev)


def test_charades_right_guess_pays_both_and_is_recognised_in_chat():
    s = fresh()
    card = _wild(s, "charades")
    assert GAME.chat_action(s, 1, "no idea") is None
    assert GAME.chat_action(s, 0, card.secret) is None  # the performer cannot guess
    action = GAME.chat_action(s, 1, card.secret.upper())
    assert isinstance(action, g.Guess)
    GAME.apply_in_place(s, 1, action)
    assert s.players[0].pv == 10 and s.players[1].pv == 10 and s.phase == "move"


def test_charades_nobody_guesses_costs_5m_popular_votes():
    s = fresh()
    _wild(s, "charades")
    s.players[0].pv = 7
    GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert s.players[0].pv == 2 and s.phase == "move"


def test_drawing_failure_pays_each_other_candidate_1m():
    s = fresh(4)
    _wild(s, "drawing")
    GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert [p.cash for p in s.players] == [7, 11, 11, 11]


def test_drawing_success_pays_5m_to_artist_and_guesser():
    s = fresh()
    card = _wild(s, "drawing")
    act(s, 2, f"guess {card.secret}")
    assert s.players[0].cash == 15 and s.players[2].cash == 15 and s.players[1].cash == 10


def test_physical_challenge_is_judged_by_majority():
    s = fresh(4)
    _wild(s, "physical")
    assert set(GAME.to_act(s)) == {1, 2, 3}
    act(s, 1, "judge yes")
    act(s, 2, "judge yes")  # 2 of 3: decided
    assert s.players[0].pv == 10 and s.phase == "move"
    s2 = fresh(4)
    _wild(s2, "physical")
    s2.players[0].pv = 2
    act(s2, 1, "judge no")
    act(s2, 2, "judge no")
    assert s2.players[0].pv == 0 and s2.players[0].cash == 7


def test_sing_failure_gives_1m_to_each_other_and_success_5m():
    s = fresh(3)
    _wild(s, "sing")
    act(s, 1, "judge no")  # 1 of 2 judges says no: a majority for yes is impossible
    assert [p.cash for p in s.players] == [8, 11, 11]
    s = fresh(3)
    _wild(s, "sing")
    act(s, 1, "judge yes")
    act(s, 2, "judge yes")
    assert s.players[0].cash == 15


def test_direct_another_the_actor_who_guesses_gets_10m():
    s = fresh(3)
    card = _wild(s, "direct", stage="ready")
    act(s, 0, "perform bob")
    assert s.wild.actor == 1
    act(s, 1, f"guess {card.secret}")
    assert s.players[0].cash == 15 and s.players[1].cash == 20 and s.players[2].cash == 10


def test_direct_another_failure_costs_director_and_actor_2m():
    s = fresh(3)
    _wild(s, "direct", stage="ready")
    act(s, 0, "perform carol")
    GAME.apply_in_place(s, SYSTEM, g.Timeout())
    assert [p.cash for p in s.players] == [8, 10, 8]


def test_the_secret_never_reaches_public_view_status_or_events():
    s = fresh()
    card = _wild(s, "charades", stage="ready")
    ev = act(s, 0, "perform")
    for text in (json.dumps(GAME.view(s, None)), json.dumps(GAME.view(s, 1)), GAME.status_text(s), public(ev),
                 GAME.private_text(s, 1)):
        assert card.secret.lower() not in text.lower()
    assert card.secret in GAME.private_text(s, 0) and GAME.view(s, 0)["secret"] == card.secret


def test_campaign_events_apply_their_effects():
    s = fresh(3)
    s.players[0].cash = 1
    events = []
    card = type("C", (), {"effects": (cards.Effect(kind="cash", amount=-5),)})()
    wildcards.apply_effects(s, 0, card, events)
    assert s.players[0].at == DC and s.players[0].debt == 0 and s.players[0].cash == 6
    s = fresh(3)
    card = type("C", (), {"effects": (cards.Effect(kind="cash", amount=2, from_others=True),
                                      cards.Effect(kind="skip_turn", who="each_other"))})()
    wildcards.apply_effects(s, 0, card, [])
    assert [p.cash for p in s.players] == [14, 8, 8] and [p.skip for p in s.players] == [0, 1, 1]


# ---------------------------------------------------------------- questions

def test_no_question_repeats_until_its_pile_is_exhausted():
    s = fresh()
    seen = []
    for _ in range(30):
        at_choose(s, 0, "OH")
        ask(s, 0, "general")
        seen.append(s.q.qid)
        answer(s, 0, right=False)
    assert len(set(seen)) == len(seen)
    wyoming = [q.id for q in questions.about_state("WY")]
    got = []
    for _ in range(len(wyoming) + 1):
        at_choose(s, 0, "WY")
        ask(s, 0, "state")
        got.append(s.q.qid)
        answer(s, 0, right=False)
    assert sorted(got[:len(wyoming)]) == sorted(wyoming)  # every WY question once, then reuse
    assert got[-1] in wyoming


def test_used_questions_come_from_and_go_back_to_the_server():
    s = fresh()
    used = [q.id for q in questions.by_category("general")][:-1]
    s2 = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 2, server={"used": used})
    s2.phase, s2.turn = "choose", 0
    s2.players[0].at = "OH"
    act(s2, 0, "ask general")
    last = [q.id for q in questions.by_category("general")][-1]
    assert s2.q.qid == last
    upd = GAME.server_updates(s2)
    assert set(upd["used"]) >= set(used) | {last}
    answer(s2, 0)
    assert GAME.server_updates(s2) == {}  # nothing new drawn by that action
    assert GAME.server_updates(s) == {} or "used" in GAME.server_updates(s)


def test_questions_have_shuffled_choices_and_the_view_never_names_the_answer_index():
    s = fresh()
    positions = set()
    for _ in range(40):
        at_choose(s, 0, "OH")
        ask(s, 0, "general")
        positions.add(s.q.correct)
        v = GAME.view(s, None)
        assert "correct" not in json.dumps(v)
        assert v["question"]["choices"] == s.q.choices
        answer(s, 0, right=False)
    assert len(positions) >= 3


# ---------------------------------------------------------------- custom questions

def test_custom_upload_rejects_bad_rows_with_the_row_number():
    bad = b"category,question,answer,wrong1\ngeneral,What?,Yes,No\nsports,Who?,Me,You\n"
    with pytest.raises(RuleError, match="Row 3: the category"):  # rows are counted as lines, header = row 1
        GAME.server_import("questions", "q.csv", bad, {})
    with pytest.raises(RuleError):
        GAME.server_import("questions", "q.json", b"{not json", {})


def _good_upload():
    return json.dumps([
        {"category": "general", "question": "What colour is our club's flag?", "answer": "Purple",
         "wrong": ["Green", "Orange"]},
        {"category": "state", "state": "OH", "question": "Which Ohio town hosts our reunion?", "answer": "Dayton",
         "wrong": ["Toledo", "Akron", "Canton"]},
    ]).encode()


def test_custom_questions_are_stored_listed_removed_and_join_the_draw():
    data, report = GAME.server_import("questions", "club.json", _good_upload(), {"used": ["x"]})
    assert "Added 2" in report and data["used"] == ["x"]
    ids = [uploads.custom_id(r) for r in data["questions"]]
    assert len(set(ids)) == 2
    listing = GAME.server_list("questions", data)
    assert all(i in listing for i in ids) and "Dayton" not in listing
    # each line shows its question's text (rows store it as `text`)
    assert "Which Ohio town hosts our reunion?" in listing
    data2, report = GAME.server_import("questions", "club.json", _good_upload(), data)
    assert len(data2["questions"]) == 2 and "skipped" in report  # the same questions again are not stored twice
    # the custom State question joins Ohio's pile
    bank_oh = {q.id for q in questions.about_state("OH")}
    s = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 2,
                   server={"questions": data["questions"], "used": sorted(bank_oh)})
    s.phase, s.turn = "choose", 0
    s.players[0].at = "OH"
    act(s, 0, "ask state")
    assert s.q.qid == ids[1] and "Dayton" in s.q.choices
    answer(s, 0)
    assert s.chips["OH"] == 0
    new, report = GAME.server_remove("questions", ids[0], data)
    assert [uploads.custom_id(r) for r in new["questions"]] == [ids[1]]
    with pytest.raises(RuleError, match="no custom question"):
        GAME.server_remove("questions", "nope", new)
    empty, _ = GAME.server_remove("questions", "all", new)
    assert empty["questions"] == []


# ---------------------------------------------------------------- clocks

def test_every_wait_has_a_timer_with_a_fresh_key():
    s = GAME.setup([Seat(name="a"), Seat(name="b")], GAME.options({}), 3)
    keys = set()
    rng = Rng(4)
    for _ in range(400):
        if GAME.result(s).finished:
            break
        t = GAME.timer(s)
        assert t is not None and t.seconds > 0
        keys.add(t.key)
        acting = GAME.to_act(s)
        if not acting:
            GAME.apply_in_place(s, SYSTEM, g.Timeout())
            continue
        GAME.apply_in_place(s, acting[0], GAME.ai_action(s, acting[0], rng))
    assert len(keys) > 20


def test_turn_timer_can_be_switched_off_but_question_clocks_cannot():
    s = fresh(turn_seconds=0)
    assert GAME.timer(s) is None
    at_choose(s, 0, "OH")
    assert GAME.timer(s) is None
    ask(s, 0, "general")
    assert GAME.timer(s).seconds == 120


def test_a_refused_upload_lists_every_bad_row_up_to_a_cap():
    rows = [{"category": "sports", "question": f"Q{i}?", "answer": "a", "wrong": ["b"]} for i in range(14)]
    rows.insert(3, {"category": "state", "question": "Where?", "answer": "a", "wrong": ["b"]})
    with pytest.raises(RuleError) as exc:
        GAME.server_import("questions", "club.json", json.dumps(rows).encode(), {})
    lines = str(exc.value).split("\n")
    assert lines[0] == "Nothing was stored: 15 problems in the file."
    assert lines[1] == "• Row 1: the category must be state, general or government."
    assert "• Row 4: a State question must name its state (a postal code like TX in the state column)." in lines
    assert len([x for x in lines if x.startswith("• Row")]) == 10 and lines[-1] == "… and 5 more."


def test_claim_is_not_offered_once_dcs_chip_is_taken():
    s = fresh()
    s.phase, s.turn = "claim", 0
    assert g.Claim() in GAME.legal_actions(s, 0)
    s.chips[DC] = 1
    assert g.Claim() not in GAME.legal_actions(s, 0) and g.End() in GAME.legal_actions(s, 0)


def test_a_word_that_is_no_move_lists_the_moves_a_player_can_type_but_not_the_clocks():
    with pytest.raises(RuleError) as refused:
        GAME.parse_action("menu")
    listed = str(refused.value).split("moves are: ")[1].rstrip(".").split(", ")
    assert "roll" in listed and "guess" in listed and "timeout" not in listed
    assert GAME.parse_action("timeout") == g.Timeout()  # the clock's own move still parses
    s = fresh()
    with pytest.raises(RuleError, match="Only the bot's clock can call time"):
        act(s, 0, "timeout")
