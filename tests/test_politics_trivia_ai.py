"""Politics: The Game (trivia) AI: its moves are always accepted, its accuracy
follows the ai_accuracy setting, it makes and judges offers sensibly, and it
beats random play."""
from __future__ import annotations

import pytest

from bot.simulate import play_one, simulate
from engines import SYSTEM, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia import ai
from engines.politics_trivia import game as g
from engines.politics_trivia.game import DC, EV, H2H, Deal, WildState, WILD
from engines.rng import Rng

NAMES = ["alice", "bob", "carol", "dave"]


def fresh(n=3, seed=1, **opts):
    s = GAME.setup([Seat(name=NAMES[i], bot=True) for i in range(n)], GAME.options(opts), seed)
    rng = Rng(seed)
    while s.phase == "homes":
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, rng))
    s.turn = 0
    return s


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_ai_only_games_end_and_every_ai_move_is_accepted(players):
    for seed in range(3):
        state, actions = play_one(GAME, players, seed, ai_seats=set(range(players)))
        assert GAME.result(state).finished and actions > 0


def test_ai_beats_random_seats_that_know_as_much():
    # the random seats answer as often right as the AI (Game.fair_random_action) and never wrap up;
    # a fair share of the wins is 1/2 and 1/4
    out = simulate("politics-trivia", 40, players=2, seed=100, ai_seats={0})
    assert out["errors"] == 0 and out["winners"]["0"] >= 34
    out = simulate("politics-trivia", 40, players=4, seed=200, ai_seats={0})
    assert out["errors"] == 0 and out["winners"]["0"] >= 16


@pytest.mark.parametrize("accuracy,expect_right", [(100, True), (0, False)])
def test_accuracy_setting_decides_multiple_choice_answers(accuracy, expect_right):
    rights = 0
    for seed in range(12):
        s = fresh(seed=seed, ai_accuracy=accuracy)
        s.phase, s.players[0].at = "choose", "OH"
        GAME.apply_in_place(s, 0, g.Ask(category="general"))
        a = GAME.ai_action(s, 0, Rng(seed))
        while not isinstance(a, g.Answer):  # a call for help first, perhaps
            GAME.apply_in_place(s, 0, a)
            for r in list(s.q.responders):
                GAME.apply_in_place(s, r, g.NoHelp())
            a = GAME.ai_action(s, 0, Rng(seed))
        rights += a.choice - 1 == s.q.correct
    assert rights == (12 if expect_right else 0)


def test_default_accuracy_is_realistic():
    rights = total = 0
    for seed in range(60):
        s = fresh(seed=seed)
        s.phase, s.players[0].at = "choose", "OH"
        GAME.apply_in_place(s, 0, g.Ask(category="general"))
        # what the AI knows does not depend on the rng it is handed
        rights += ai.choice_answer(GAME.view(s, 0)["question"], 0, 65, lambda: 0.0) - 1 == s.q.correct
        total += 1
    assert 0.45 <= rights / total <= 0.85


def test_ai_runoff_answers_follow_accuracy():
    for acc, want in ((100, True), (0, False)):
        s = fresh(2, ai_accuracy=acc)
        s.players[1].pv = 50
        for c in ("CA", "TX", "FL", "NY", "IL", "PA", "OH", "GA", "NC", "MI", "NJ"):
            s.chips[c] = 0
        s.chips["VA"] = 0  # 54+40+30+28+19+19+17+16+16+15+14+13 = 281
        assert GAME._check_270(s, [])
        q = GAME._question(s, s.h2h.qids[0])
        a = GAME.ai_action(s, 0, Rng(1))
        if want:
            assert isinstance(a, g.Guess) and a.answer == q.answer
        else:
            assert isinstance(a, g.PassAnswer) or a.answer != q.answer


def test_ai_claims_free_chips_offers_for_held_ones_and_claims_dc():
    s = fresh()
    s.players[0].hand = []
    s.phase, s.players[0].at = "choose", "OH"
    assert GAME.ai_action(s, 0, Rng(1)) == g.Ask(category="state")
    s.chips["OH"] = 1
    s.players[0].cash = 40
    a = GAME.ai_action(s, 0, Rng(1))
    assert isinstance(a, g.Offer) and a.cash >= EV["OH"]
    s.phase = "claim"
    assert GAME.ai_action(s, 0, Rng(1)) == g.Claim()


def test_ai_holder_accepts_fair_offers_and_refuses_lowballs():
    s = fresh()
    s.chips["OH"] = 1
    s.phase = "deal"
    s.deal = Deal(buyer=0, holder=1, state="OH", cash=2)
    assert GAME.ai_action(s, 1, Rng(1)) == g.DealAnswer(accept=False)
    s.deal = Deal(buyer=0, holder=1, state="OH", cash=40)
    assert GAME.ai_action(s, 1, Rng(1)) == g.DealAnswer(accept=True)


def test_ai_goes_to_dc_when_broke_and_stays_while_in_debt():
    s = fresh()
    s.players[0].at, s.players[0].cash = "VA", 0
    for c in s.chips:
        s.chips[c] = None if c == DC else 1  # nothing free to claim in reach
    s.phase, s.dice = "move", [1, 2]
    assert GAME.ai_action(s, 0, Rng(1)) == g.Move(state=DC)
    s.players[0].at, s.players[0].debt, s.players[0].dc_turns = DC, 5, 1
    s.phase = "start"
    assert GAME.ai_action(s, 0, Rng(1)) == g.Stay()


def test_ai_performs_judges_and_never_blocks_a_wildcard():
    s = fresh()
    cid = next(w.id for w in WILD.values() if w.kind == "direct")
    s.phase, s.wild = "wildcard", WildState(card=cid, performer=0)
    a = GAME.ai_action(s, 0, Rng(1))
    assert isinstance(a, g.Perform) and a.actor
    GAME.apply_in_place(s, 0, a)
    assert GAME.to_act(s) == []  # guesses come from the channel; the clock ends it
    cid = next(w.id for w in WILD.values() if w.kind == "physical")
    s.wild = WildState(card=cid, performer=0, stage="performing")
    assert GAME.ai_action(s, 1, Rng(1)) in (g.Judge(success=True), g.Judge(success=False))


def test_ai_helps_only_when_it_knows_and_follows_a_hint():
    s = fresh(ai_accuracy=100)
    s.phase, s.players[0].at = "choose", "OH"
    GAME.apply_in_place(s, 0, g.Ask(category="general"))
    GAME.apply_in_place(s, 0, g.CallHelp())
    assert GAME.ai_action(s, 1, Rng(1)) == g.Help(price=1, unit="cash")
    GAME.apply_in_place(s, 1, g.Help(price=1, unit="cash"))
    s.options = s.options.model_copy(update={"ai_accuracy": 0})
    assert GAME.ai_action(s, 2, Rng(1)) == g.NoHelp()
    GAME.apply_in_place(s, 2, g.NoHelp())
    hire = GAME.ai_action(s, 0, Rng(1))
    assert isinstance(hire, g.Hire)
    GAME.apply_in_place(s, 0, hire)
    GAME.apply_in_place(s, 1, g.Suggest(choice=s.q.correct + 1))
    assert GAME.ai_action(s, 0, Rng(1)) == g.Answer(choice=s.q.correct + 1)
