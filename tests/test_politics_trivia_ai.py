"""Politics: The Game (trivia) AI: its moves are always accepted, its accuracy
follows the ai_accuracy setting, it makes and judges offers sensibly, and it
beats random play."""
from __future__ import annotations

import pytest

from bot.simulate import play_one, simulate
from engines import SYSTEM, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia import pile, runoff
from engines.politics_trivia import ai
from engines.politics_trivia import game as g
from engines.politics_trivia.game import DC, EV, GERRY, Deal, WildState, WILD
from engines.politics_trivia import forecast
from engines.politics_trivia.evaluation import WEIGHTS
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
        q = GAME.view(s, 0)["question"]
        rights += ai.choice_answer(q["text"], q["choices"], q["serial"], 0, 65, lambda: 0.0) - 1 == s.q.correct
        total += 1
    assert 0.45 <= rights / total <= 0.85


def test_ai_runoff_answers_follow_accuracy():
    for acc, want in ((100, True), (0, False)):
        s = fresh(2, ai_accuracy=acc)
        s.players[1].pv = 50
        for c in ("CA", "TX", "FL", "NY", "IL", "PA", "OH", "GA", "NC", "MI", "NJ"):
            s.chips[c] = 0
        s.chips["VA"] = 0  # 54+40+30+28+19+19+17+16+16+15+14+13 = 281
        assert runoff.check_270(s, [])
        q = pile.question(s, s.h2h.qids[0])
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


# ---------------------------------------------------------------- issue 15: a pure function of its view

def _midgame_states(players=4, seeds=range(4), every=37):
    """States met in all-AI games, sampled every `every` moves, with the seat to act."""
    for seed in seeds:
        s = fresh(players, seed=seed)
        rng = Rng(seed)
        for k in range(2000):
            if s.phase == "over":
                break
            acting = [x for x in GAME.to_act(s) if x >= 0]
            if not acting:
                GAME.apply_in_place(s, SYSTEM, g.Timeout())
                continue
            if k % every == 0:
                yield s, acting[0]
            GAME.apply_in_place(s, acting[0], GAME.ai_action(s, acting[0], rng))


def test_ai_move_depends_only_on_its_seats_view():
    """Scramble everything the seat may not see (the others' cards, the decks, the RNG, which choice
    is right, the other runoff answer): the same view and the same rng give the same move."""
    import random
    checked = 0
    for s, seat in _midgame_states():
        want = GAME.ai_action(s, seat, Rng(7))
        t = GAME.clone(s)
        shuffle = random.Random(checked).shuffle
        for other, p in enumerate(t.players):
            if other != seat:
                p.hand = sorted(p.hand + p.dealt)[::-1][:len(p.hand)] if p.hand else []
        shuffle(t.gdeck)
        shuffle(t.wdeck)
        t.rng = (t.rng * 31 + 17) % (1 << 63) or 1
        if t.h2h is not None and seat in t.h2h.seats:
            i = 1 - t.h2h.seats.index(seat)
            if t.h2h.answers[i] is not None:
                t.h2h.answers[i] = "something else"
        assert GAME.view(t, seat) == GAME.view(s, seat)
        assert GAME.ai_action(t, seat, Rng(7)) == want
        assert ai.decide(GAME.view(s, seat), GAME.legal_actions(s, seat), Rng(7)) == want
        checked += 1
    assert checked > 40


def test_ai_module_reads_the_public_contract_only():
    import ast
    import inspect
    tree = ast.parse(inspect.getsource(ai))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "game" not in imported and "models" not in imported  # no import cycle, no state models
    own = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
    own |= {t.attr for node in ast.walk(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))  # its own fields
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    privates = {a.attr for a in ast.walk(tree) if isinstance(a, ast.Attribute) and a.attr.startswith("_")
                and not a.attr.startswith("__")}
    assert privates <= own, privates - own  # its own helpers only, never the game's private names


def test_a_turns_start_weighs_rolls_and_flights_as_their_plain_definition_says():
    """The turn's start (roll, or fly for a better roll) remembers every state's value and skips the
    flights when even the best state on the map could not pay for one: the same decision as weighing
    every flight's roll from scratch, in positions from play and in made-up ones where the seat's
    corner of the map is taken (where flights pay)."""
    import random

    def plain_roll_value(reading, start):
        return sum(odds * max(reading.place(c) for c in g.REACH[start][n])
                   for n, odds in ai.ROLL_ODDS.items() if g.REACH[start][n])

    def positions():
        for players in (2, 8):  # from AI play
            s = GAME.setup([Seat(name=f"p{i}", bot=True) for i in range(players)], GAME.options({}), 300)
            for moves in range(600):
                if GAME.result(s).finished:
                    break
                acting = [x for x in GAME.to_act(s) if x != SYSTEM]
                if not acting:
                    t = GAME.timer(s)
                    GAME.apply_in_place(s, t.seat, GAME.parse_action(t.action_text))
                    continue
                seat = acting[0]
                yield s, seat
                GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, GAME.ai_rng(s, seat, moves)))
        pick = random.Random(5)
        for i in range(300):  # made up: every chip near the seat held by rivals, half the rest too
            n = pick.choice([2, 3, 4])
            s = fresh(n=n, seed=i)
            at = pick.choice([c for c in sorted(s.chips) if c != DC])
            near = set().union(*g.LAYERS[at][:pick.randrange(2, 9) + 1])
            for c in sorted(s.chips):
                s.chips[c] = pick.randrange(1, n) if c in near or pick.random() < 0.5 else None
            s.players[0].at, s.players[0].cash, s.players[0].hand = at, pick.randrange(0, 30), []
            s.phase, s.turn = "start", 0
            yield s, 0

    decisions = {"roll": 0, "fly": 0}
    for s, seat in positions():
        view, legal = GAME.view(s, seat), GAME.legal_actions(s, seat)
        at = view["players"][seat]["at"]
        if view["step"] != "start" or view["turn"] != seat or at == DC:
            continue
        fast, plain = ai.Reading(view), ai.Reading(view)
        assert fast.roll_value(at) == plain_roll_value(plain, at)
        plain.roll_value = lambda start, r=plain: plain_roll_value(r, start)  # type: ignore[method-assign]
        plain.best_place = lambda: float("inf")  # type: ignore[method-assign]  # never skip the flights
        chosen = ai._start(fast, legal)
        assert chosen == ai._start(plain, legal)
        decisions["fly" if chosen.verb == "fly" else "roll"] += 1
    assert decisions["roll"] > 100 and decisions["fly"] > 5, decisions


def _view_with(s, seat=0):
    return GAME.view(s, seat), GAME.legal_actions(s, seat)


def test_ai_goes_for_a_small_free_chip_when_it_is_the_best_move():
    s = fresh()
    s.players[0].at, s.dice, s.phase, s.turn = "NY", [1, 1], "move", 0
    for c in ("CA", "TX", "FL", "NY", "OH", "GA"):
        s.chips[c] = 0  # 185 EV: the leader, racing for 270
    for c in s.chips:
        if s.chips[c] is None and c != "VT":
            s.chips[c] = 1 + (EV[c] % 2)  # Vermont (3 EV) is the only free chip
    reach = GAME.legal_actions(s, 0)
    assert g.Move(state="VT") in reach
    assert GAME.ai_action(s, 0, Rng(1)) == g.Move(state="VT")


def test_ai_pays_the_premium_for_the_chip_that_makes_270_and_the_holder_sells_it():
    s = fresh(2)
    for c in ("CA", "TX", "FL", "NY", "PA", "IL", "OH", "GA", "NC", "MI", "NJ"):
        s.chips[c] = 0  # 259 EV
    s.chips["VA"] = 1
    s.players[0].cash, s.players[0].hand = 60, []
    s.phase, s.turn, s.players[0].at, s.dice = "choose", 0, "VA", [1, 2]
    offer = GAME.ai_action(s, 0, Rng(1))
    view = GAME.view(s, 0)
    price = ai.asking_price(view, 1, 0, "VA")
    assert isinstance(offer, g.Offer) and offer.cash == price > EV["VA"]  # dearer than $1M a vote
    GAME.apply_in_place(s, 0, offer)
    assert GAME.ai_action(s, 1, Rng(1)) == g.DealAnswer(accept=True)  # it sells, at that price
    s.deal = Deal(buyer=0, holder=1, state="VA", cash=price - 1)
    assert GAME.ai_action(s, 1, Rng(1)) == g.DealAnswer(accept=False)


def test_trailers_sell_cheap_and_racers_sell_dear():
    view = GAME.view(_four_seat_race(), 0)  # seat 1, 116 EV to the leader's 223: a racer no more
    assert ai.is_racer(view, 0) and not ai.is_racer(view, 1)
    assert ai.asking_price(view, 1, 0, "NC") < EV["NC"] * 1.5  # a trailer: cheap even near 270
    assert ai.asking_price(view, 0, 1, "CA") > EV["CA"]  # the leader charges full price and more


def test_ai_plays_a_gerrymander_card_that_brings_it_votes():
    s = fresh()
    s.phase, s.turn = "start", 0
    s.players[0].hand = [9]  # Peach Cobbler: SC chip + $5M for GA chip + 5M PV
    s.chips["SC"] = 0
    s.chips["GA"] = 1
    s.players[0].cash = 20
    card = GERRY[9]
    assert card.need_chips == ("SC",) and card.reward_chips == ("GA",)
    assert GAME.ai_action(s, 0, Rng(1)) == g.Play(card=9)


# ---------------------------------------------------------------- the search's evaluation (Game.ai_evaluate)

def test_evaluation_is_a_chance_that_the_two_seats_share():
    """At two players the evaluation is a logistic of leads, so the seats' chances add up to one,
    and each stays within [0, 1]."""
    for seed in range(3):
        s = fresh(n=2, seed=seed)
        for code, holder in (("TX", 0), ("OH", 1), ("FL", 0)):
            s.chips[code] = holder
        s.players[1].pv, s.players[0].cash = 20, 25
        mine, theirs = GAME.ai_evaluate(s, 0), GAME.ai_evaluate(s, 1)
        assert mine is not None and theirs is not None
        assert 0.0 < mine < 1.0 and mine + theirs == pytest.approx(1.0)


def _even_table(n=8):
    """A table of `n` candidates after setup, all alike (the same state, money, votes, no cards or
    chips), seat 0 to move."""
    s = GAME.setup([Seat(name=f"p{i}", bot=True) for i in range(n)], GAME.options({}), 3)
    rng = Rng(3)
    while s.phase == "homes":
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, GAME.ai_action(s, seat, rng))
    s.turn = 0
    for p in s.players:
        p.at, p.pv, p.cash, p.hand = "OH", 5, 10, []
    s.chips = dict.fromkeys(s.chips)
    return s


def test_a_hints_chance_is_a_share_of_the_table():
    """What a hint reports (`Game.ai_chance`) is each candidate's share of the table: eight equal
    candidates get shares that add up to one, the mover's a little above 1/8. The search's own
    judgement (`ai_evaluate`), by which it ranks its moves, weighs a seat against its best rival alone
    and gives each of them about half: a hint said "about 47 %" in round one of an eight-player game."""
    s = _even_table()
    chances = [GAME.ai_chance(s, seat) for seat in range(8)]
    assert sum(chances) == pytest.approx(1.0)
    assert chances[1:] == [pytest.approx(chances[1])] * 7 and chances[1] < 1 / 8 < chances[0] < 0.2
    assert all(0.45 < GAME.ai_evaluate(s, seat) < 0.55 for seat in range(8))
    s.players[5].out = True  # an eliminated candidate has no share, and the others share its part
    assert GAME.ai_chance(s, 5) == 0.0
    assert sum(GAME.ai_chance(s, seat) for seat in range(8)) == pytest.approx(1.0)


def test_at_two_players_a_hints_chance_is_the_searchs_judgement():
    """At two candidates a share of the table is the logistic of the seat's leads the search judges by."""
    for seed in range(3):
        s = fresh(n=2, seed=seed)
        s.chips["TX"], s.players[1].pv, s.players[0].cash = 0, 20 + seed, 25
        for seat in (0, 1):
            assert GAME.ai_chance(s, seat) == pytest.approx(GAME.ai_evaluate(s, seat), abs=1e-12)


def test_a_hint_at_eight_players_reports_a_share_and_suggests_hards_move():
    from engines.search import choose, suggest
    s = _even_table()
    action, chance = suggest(GAME, s, 0, Rng(4), iterations=16)
    assert action == choose(GAME, s, 0, "hard", Rng(4), iterations=16)
    assert chance is not None and 0.02 < chance < 0.3  # about 1/8, not about half


def test_evaluation_in_setup_gives_every_candidate_an_even_chance():
    """A seat that has not chosen its home yet is not behind the one that has: the hint at setup
    said "about 24%" for it (its missing position read as a poor one)."""
    for n in (2, 3):
        s = GAME.setup([Seat(name=f"p{i}") for i in range(n)], GAME.options({}), 7)
        first = s.home_order[0]
        GAME.apply_in_place(s, first, g.Discard(card=s.players[first].dealt[0]))
        GAME.apply_in_place(s, first, g.Home(state="CA"))
        assert s.phase == "homes"
        assert [GAME.ai_evaluate(s, seat) for seat in range(n)] == [pytest.approx(1 / n)] * n
    s = fresh(n=2, seed=7)  # once the turns start, positions count again
    assert GAME.ai_evaluate(s, 0) != pytest.approx(0.5)


def test_evaluation_rises_with_electoral_votes_popular_votes_and_cash():
    s = fresh(n=2, seed=4)
    base = GAME.ai_evaluate(s, 0)
    richer = GAME.clone(s)
    richer.chips["CA"] = 0
    assert GAME.ai_evaluate(richer, 0) > base + 0.1  # 54 electoral votes
    assert GAME.ai_evaluate(richer, 1) < GAME.ai_evaluate(s, 1)
    more_pv = GAME.clone(s)
    more_pv.players[0].pv += 30
    more_cash = GAME.clone(s)
    more_cash.players[0].cash += 20
    assert GAME.ai_evaluate(more_pv, 0) > base and GAME.ai_evaluate(more_cash, 0) > base


def test_evaluation_reads_only_the_seats_view():
    """Another determinization of the same position (the rival's cards, the piles, the random
    stream drawn again) gets the same value: the evaluation reads nothing the seat has not seen."""
    s = fresh(n=2, seed=6)
    s.chips["NY"] = 1
    others = [GAME.determinize(s, 0, Rng(k)) for k in range(4)]
    assert any(o.players[1].hand != s.players[1].hand for o in others)  # the rival's cards do change
    for other in others:
        assert GAME.ai_evaluate(other, 0) == GAME.ai_evaluate(s, 0)
        assert GAME.ai_chance(other, 0) == GAME.ai_chance(s, 0)  # and what a hint reports


def test_evaluation_in_a_runoff_follows_the_score():
    s = fresh(n=2, seed=2)
    s.phase = "h2h"
    s.h2h = g.H2H(kind="runoff", seats=[0, 1], qids=["x"] * 10, scores=[3, 1])
    assert GAME.ai_evaluate(s, 0) > 0.7 > 0.3 > GAME.ai_evaluate(s, 1)


def _fit_tool():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "tools" / "fit_trivia_evaluation.py"
    spec = importlib.util.spec_from_file_location("fit_trivia_evaluation", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_fit_tool_recovers_known_weights():
    """tools/fit_trivia_evaluation.py, which made WEIGHTS and forecast.WEIGHTS_MANY: on tables of two to five
    candidates whose winner is drawn from a known multinomial logit it finds that logit's weights
    again, and scores them better than weights that are off."""
    tool = _fit_tool()
    truth = [2.0, -0.5, 0.8]
    rng = Rng(5)
    data = []
    for k in range(4000):
        rows = [[rng.random() * 2 - 1 for _ in truth] for _ in range(2 + k % 4)]
        odds, draw = forecast.shares(rows, truth), rng.random()
        winner = next((i for i in range(len(rows)) if draw < sum(odds[:i + 1])), len(rows) - 1)
        data.append((rows, [1.0 if i == winner else 0.0 for i in range(len(rows))]))
    fitted = tool.fit(data)
    assert fitted == pytest.approx(truth, abs=0.25)
    assert tool.score(fitted, data)[0] < tool.score([1.0, 0.0, 0.0], data)[0]


@pytest.mark.parametrize("players,candidates", [("2", {2}), ("3-8", {3, 4, 5, 6, 7, 8})])
def test_the_fit_tool_samples_a_seats_own_turn_starts(capsys, players, candidates):
    """The samples are taken where the search judges a playout: every one is a seat's own turn start
    (exactly one candidate has the move feature), with every candidate's six features, labelled by who
    won; the two-player weights see only boards of two, the others only boards of three or more."""
    tool = _fit_tool()
    low, high = tool._range(players)
    data = tool.samples(range(20000, 20000 + (high - low + 1)), (low, high))
    assert data and {len(rows) for rows, _ in data} <= candidates
    assert len({len(rows) for rows, _ in data}) == len(candidates)  # every table size in the range played
    assert all(len(row) == len(WEIGHTS) for rows, _ in data for row in rows)
    assert all(sum(row[4] for row in rows) == 1.0 for rows, _ in data)
    assert all(sum(y) == pytest.approx(1.0) for _, y in data) and {v for _, y in data for v in y} > {0.0}
    seeds = f"20000-{20000 + high - low}"
    tool.main(["--players", players, "--train", seeds, "--held", "10000"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"samples: {len(data):,} to fit (seeds {seeds})")
    today = "WEIGHTS" if players == "2" else "WEIGHTS_MANY"
    assert out[1].startswith("fitted ") and out[2].startswith(f"today's {today} ") and "log-loss" in out[2]
    assert out[3].startswith("equal shares") and "no favourite" in out[3]
    rest = out[4:]  # at three or more: WEIGHTS as a share, then the held-out boards by candidates in
    assert (not rest) if players == "2" else rest[0].startswith("WEIGHTS as a share") and "log-loss" in rest[0]
    assert all("candidates in:" in line and "WEIGHTS" in line for line in rest[1:]) and (rest[1:] or players == "2")


def test_hards_playouts_are_judged_where_the_seats_own_turn_starts():
    """A seat acts inside a rival's turn too (help on its question, a Wildcard vote, a deal). The
    paired search judges a playout only at the start of the seat's own turn, or at the end, so no
    sibling move is judged before the rival's question is answered while another is judged after."""
    from engines.search.policy import rollout_settings
    from tests.search_helpers import playout_end, policy_game
    settings = rollout_settings(GAME)
    ends, inside_a_rivals_turn = [], 0
    for seed in range(6):
        for s, who, moves in policy_game(GAME, 2, seed, 400, settings):
            if s.phase not in ("homes", "start", "move", "choose") and s.turn != who:
                inside_a_rivals_turn += 1
            if s.phase in ("start", "move") and s.turn == who and moves % 5 == 0:
                world = playout_end(GAME, s, who, seed * 1000 + moves, settings)
                ends.append("end" if GAME.result(world).finished else (world.phase, world.turn == who))
    assert inside_a_rivals_turn > 0  # seats do act inside each other's turns in these games
    assert len(ends) > 50 and set(ends) <= {("start", True), "end"}
    s = fresh(n=2)
    assert s.phase == "start" and GAME.ai_stops_here(s, 0) and not GAME.ai_stops_here(s, 1)
    s.phase = "move"
    assert not GAME.ai_stops_here(s, 0)


def _four_seat_race():
    """Seat 0 leads with 223 electoral votes; seat 1 holds 116 (52 % of that), every other chip is seat 2's."""
    s = fresh(4)
    for c in ("CA", "TX", "FL", "NY", "PA", "IL", "OH", "GA"):
        s.chips[c] = 0
    for c in ("NC", "MI", "NJ", "VA", "WA", "AZ", "MA", "TN", "IN"):
        s.chips[c] = 1
    for c in s.chips:
        if s.chips[c] is None:
            s.chips[c] = 2
    return s


def test_hards_racer_rule_keeps_a_seat_racing_down_to_half_the_leaders_votes():
    view = GAME.view(_four_seat_race(), 1)
    hard = ai.HARD_RACE_MARGIN
    assert not ai.is_racer(view, 1) and ai.is_racer(view, 1, hard)  # 52 % of the leader's votes
    assert not ai.Reading(view).racer and ai.Reading(view, hard).racer
    # still racing, seat 1 sells to the leader only dear, where as a trailer it sells cheap
    assert ai.asking_price(view, 1, 0, "NC", hard) > EV["NC"] * 1.5 > ai.asking_price(view, 1, 0, "NC")


def _play_with(policies, seed, on_decision=None):
    """A trivia game with seat i moved by policies[i](view, legal, rng) (answers by the game, as every
    level answers); on_decision(view, legal, moves) is called before every move of a seat with a choice.
    The winners."""
    players = len(policies)
    s = GAME.setup([Seat(name=f"p{i}", bot=True) for i in range(players)], GAME.options({}), seed)
    moves = 0
    while not GAME.result(s).finished:
        acting = [x for x in GAME.to_act(s) if x != SYSTEM]
        if not acting or not GAME.legal_actions(s, acting[0]):
            t = GAME.timer(s)
            who = t.seat if not acting or t.seat != acting[0] else SYSTEM
            GAME.apply_in_place(s, who, GAME.parse_action(t.action_text))
            continue
        seat = acting[0]
        rng = GAME.ai_rng(s, seat, moves)
        action = GAME.ai_fixed_action(s, seat, rng)
        if action is None:
            view, legal = GAME.view(s, seat), GAME.legal_actions(s, seat)
            if on_decision is not None and len(legal) > 1:
                on_decision(view, legal, moves)
            action = policies[seat](view, legal, rng)
        GAME.apply_in_place(s, seat, action)
        moves += 1
    return GAME.result(s).winners


def _hards_first(view, legal, rng):
    """The move hard's search starts from (its shortlist's first; its only move outside a shortlist)."""
    listed = ai.candidates(view, legal, rng)
    return listed[0] if listed else ai.decide(view, legal, rng)


@pytest.mark.parametrize("players", [2, 8])
def test_hards_shortlist_is_led_by_its_racer_rule_which_parts_from_normal_only_at_a_large_table(players):
    parted = []

    def check(view, legal, moves):
        first = _hards_first(view, legal, Rng(moves))
        assert first == ai.decide(view, legal, Rng(moves), ai.HARD_RACE_MARGIN)
        if first != ai.decide(view, legal, Rng(moves)):
            parted.append(view["step"])

    _play_with([ai.decide] * players, 11, check)
    if players == 2:
        assert parted == []  # head to head every seat races: hard's two-player game is unchanged
    else:
        assert len(parted) >= 3, parted


def test_hards_first_move_wins_well_over_its_share_among_seven_normal_seats():
    # One seat (rotating) plays the move hard's search starts from, seven play normal. Its racer rule
    # alone won 35.6 % of 1,500 such games (seeds 600000+); normal's own move in that seat wins about
    # its fair share, 12.5 %. The issue asks hard for 1.5 times that share.
    def share(first, games, seed):
        won = 0.0
        for i in range(games):
            seat = i % 8
            policies = [ai.decide] * 8
            policies[seat] = first
            winners = _play_with(policies, seed + i)
            won += (seat in winners) / max(1, len(winners))
        return won / games

    hard, normal = share(_hards_first, 96, 610_000), share(ai.decide, 96, 610_000)  # 33.3 % and 15.6 %
    assert hard >= 1.5 / 8
    assert hard >= normal + 0.1  # the rule, not the seats or the seeds
