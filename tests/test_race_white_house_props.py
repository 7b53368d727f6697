"""Race for the White House property tests over random legal play (both declare settings, both sheet
scales, 2–4 players):
a filled block never changes (only `undo` takes back the current placement's own votes); a closed state
takes no votes; money never goes below zero and spending adds up; electoral votes match the won states;
every listed action is accepted; JSON round-trips; games end."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engines import RuleError, Seat
from engines.race_white_house import GAME
from engines.race_white_house.data import CODES, EV, FUNDS, SHEET_OF
from engines.race_white_house.menus import PLACEMENT_MENUS
from engines.race_white_house.models import OFF
from engines.race_white_house.rules import party_ev, sheet_scale
from engines.rng import Rng
from tests.helpers import play_on_keeping_an_early_view

MAX_ACTIONS = 6_000


@st.composite
def games(draw):
    n = draw(st.integers(2, 4))
    opts = {"declare": draw(st.sampled_from(["auto", "manual"])), "max_rounds": draw(st.integers(5, 60)),
            "blocks": draw(st.sampled_from(["short", "rulebook"]))}
    return n, opts, draw(st.integers(0, 2**40)), draw(st.integers(0, 2**20)), draw(st.booleans())


def turns(params):
    """Set up a game from drawn parameters and yield (state, seat to act, rng) until it ends;
    the caller makes the move."""
    n, opts, seed, pick, _use_ai = params
    s = GAME.setup([Seat(name=f"p{i}") for i in range(n)], GAME.options(opts), seed)
    rng = Rng(pick)
    for _ in range(MAX_ACTIONS):
        if GAME.result(s).finished:
            return
        yield s, GAME.to_act(s)[0], rng
    raise AssertionError(f"no end after {MAX_ACTIONS} moves")


def snapshot(s):
    return {c: list(s.fill[c]) for c in CODES}, dict(s.owner)


def check_invariants(s):
    caps, to_win = sheet_scale(s)
    for party in ("D", "R"):
        assert 0 <= s.funds[party] <= FUNDS
        spent = sum(s.spent[i] for i, p in enumerate(s.pawns) if p.party == party)
        assert spent + s.funds[party] == FUNDS
    for code in CODES:
        f = s.fill[code]
        for party in ("D", "R"):
            o = OFF[party]
            assert all(0 <= f[o + k] <= caps[code][k] for k in range(5))
            assert sum(f[o:o + 5]) <= to_win[code]
            if sum(f[o:o + 5]) == to_win[code]:
                assert s.owner[code] == party
        if s.owner[code]:
            assert sum(f[OFF[s.owner[code]]:OFF[s.owner[code]] + 5]) == to_win[code]
    undeclared = {c for c, _p in s.undeclared}
    for party in ("D", "R"):
        assert all(s.owner[c] == party for c in s.won[party])
        assert party_ev(s, party) == sum(EV[c] for c in s.won[party])
    assert {c for c in CODES if s.owner[c]} == set(s.won["D"]) | set(s.won["R"]) | undeclared


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_play_keeps_the_tally_sheets_honest(params):
    n, _opts, _seed, _pick, use_ai = params
    s = None
    for s, seat, rng in turns(params):
        legal = GAME.legal_actions(s, seat)
        assert legal
        action = GAME.ai_action(s, seat, rng) if use_ai and rng.below(2) else legal[rng.below(len(legal))]
        fill0, owner0 = snapshot(s)
        step = s.steps[0] if s.steps else None
        own = {}
        if step is not None and step.kind == "place":
            for entry in step.placed:
                own[(entry[0], OFF[s.pawns[step.pawn].party] + entry[1])] = \
                    own.get((entry[0], OFF[s.pawns[step.pawn].party] + entry[1]), 0) + entry[2]
        GAME.apply_in_place(s, seat, action)
        fill1, owner1 = snapshot(s)
        for code in CODES:
            for i in range(10):
                if fill1[code][i] < fill0[code][i]:
                    # only undo lowers a block, and only by this placement's own votes
                    assert action.verb == "undo", (action.text(), code, i)
                    assert fill0[code][i] - fill1[code][i] <= own.get((code, i), 0)
            if owner0[code] and action.verb != "undo":
                assert fill1[code] == fill0[code], (action.text(), code)  # a closed state takes no votes
                assert owner1[code] == owner0[code]
        if s.pawns and n == 4 and action.verb == "place":
            assert SHEET_OF[action.state] == s.pawns[next(i for i, p in enumerate(s.pawns) if p.seat == seat)].sheet
        check_invariants(s)
    assert GAME.result(s).finished
    dumped = GAME.dump(s)
    assert GAME.dump(GAME.load(json.loads(dumped))) == dumped


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_every_listed_action_is_accepted_and_refusals_change_nothing(params):
    n, opts, seed, pick, _ai = params
    s = GAME.setup([Seat(name=f"p{i}") for i in range(n)], GAME.options(opts), seed)
    rng = Rng(pick)
    for _ in range(150):
        if GAME.result(s).finished:
            break
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        for action in rng.sample(legal, min(4, len(legal))):
            new, _events = GAME.apply(s, seat, action)  # the pure form: s is untouched
            assert GAME.parse_action(action.text()) == action
        before = GAME.dump(s)
        others = [x for x in range(n) if x != seat and x not in GAME.to_act(s)]
        for bad in ("place ZZ UNION 1", "place TX NOTHING 2", "buy 3", "take nothing", "advance FARM",
                    "declare XX", "home QQ", "rally BAD"):
            try:
                GAME.apply_in_place(s, seat, GAME.parse_action(bad))
            except RuleError as exc:
                assert "\n" not in str(exc)
            assert GAME.dump(s) == before
        for other in others:
            try:
                GAME.apply_in_place(s, other, legal[0])
                raise AssertionError("a seat out of turn moved")
            except RuleError:
                pass
            assert GAME.dump(s) == before
        GAME.apply_in_place(s, seat, legal[rng.below(len(legal))])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_cached_placement_menus_equal_a_fresh_build(params):
    # legal_actions keeps each placement's per-state levels between moves and rebuilds only the
    # states a move changed; whatever the moves (undo, rest, closing a state, the AI), the list
    # must be exactly what a build from nothing gives.
    use_ai = params[4]
    for s, seat, rng in turns(params):
        cached = [a.text() for a in GAME.legal_actions(s, seat)]
        kept = dict(PLACEMENT_MENUS)
        PLACEMENT_MENUS.clear()
        fresh = GAME.legal_actions(s, seat)
        PLACEMENT_MENUS.clear()
        PLACEMENT_MENUS.update(kept)
        assert cached == [a.text() for a in fresh]
        action = GAME.ai_action(s, seat, rng) if use_ai and rng.below(3) == 0 else fresh[rng.below(len(fresh))]
        GAME.apply_in_place(s, seat, action)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**20), st.integers(20, 200))
def test_a_view_shares_unchanged_states_and_still_tells_the_truth(seed, steps):
    """Views share the tally of a state no move changed (engines/race_white_house/views.py): an
    earlier view stays as it was when later moves fill other blocks, and a fresh view equals one
    built without the sharing."""
    from engines.race_white_house import views

    state = GAME.setup([Seat(name="A"), Seat(name="B")], GAME.options({}), seed)
    early, now = play_on_keeping_an_early_view(GAME, state, steps, Rng(seed))
    views._state_view.cache_clear()
    assert GAME.view(state, None) == now
    assert any(now["states"][c] is not early["states"][c] for c in CODES) or steps == 0
