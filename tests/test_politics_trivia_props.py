"""Politics: The Game (trivia) property tests: random legal play (with the
clock firing whenever nobody acts) always ends; money, votes, chips and cards
stay consistent; secrets (the right choice, a performer's word, a runoff
answer before both are in) never reach a public view, status or event; JSON
round-trips; illegal moves change nothing."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engines import SYSTEM, RuleError, Seat
from engines.politics_trivia import GAME
from engines.politics_trivia import game as g
from engines.politics_trivia.game import CODES, DC, EV, GERRY, STATES, WILD, chips_of
from engines.rng import Rng

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "gina", "hal"]
MAX_ACTIONS = 30_000


@st.composite
def games(draw):
    n = draw(st.integers(2, 8))
    opts = {"max_rounds": draw(st.integers(1, 12)), "gerrymander": draw(st.booleans()),
            "wildcards": draw(st.booleans()), "ai_accuracy": draw(st.integers(0, 100)),
            "max_tiebreaks": draw(st.integers(0, 3)), "turn_seconds": draw(st.sampled_from([0, 300]))}
    return n, opts, draw(st.integers(0, 2**40)), draw(st.integers(0, 2**20)), draw(st.floats(0, 1))


def check_invariants(s):
    n = len(s.seats)
    for p in s.players:
        assert p.cash >= 0 and p.pv >= 0 and p.debt >= 0 and p.skip >= 0
        assert 0 <= p.dc_turns <= 4
    for o in s.chips.values():
        assert o is None or (0 <= o < n and not s.players[o].out)
    assert set(s.chips) == set(CODES)
    if s.phase != "homes":
        homes = [p.home for p in s.players]
        assert len(set(homes)) == n and all(h in STATES for h in homes)
        assert all(p.at in CODES for p in s.players)
    if s.options.gerrymander:
        cards = list(s.gdeck)
        for p in s.players:
            cards += p.hand + p.dealt + p.played
            assert len(p.hand) <= 2 or p.dealt == []
        assert sorted(cards) == sorted(GERRY)
    else:
        assert all(not p.hand and not p.dealt for p in s.players)
    if s.phase in ("h2h", "review"):
        assert s.h2h is not None and len(s.h2h.seats) == 2
        assert all(not s.players[x].out for x in s.h2h.seats)


def secrets_of(s) -> list[str]:
    """Strings no public output may contain right now."""
    out = []
    w = s.wild
    if w is not None and WILD[w.card].secret:
        out.append(WILD[w.card].secret.lower())
    h = s.h2h
    if s.phase == "h2h" and h is not None:
        # words the board shows anyway (the question, a played card's text) are no answer's secret
        blank = s.model_copy(deep=True)
        blank.h2h.answers = [None, None]
        shown = (json.dumps(GAME.view(blank, None)) + GAME.status_text(blank)).lower()
        for a in h.answers:
            if a and len(a) > 3 and a.lower() not in shown:
                out.append(a.lower())
    return out


def check_public(s, events, secrets_before):
    view = GAME.view(s, None)
    # log and headline repeat public events, which are checked below (only while a secret is still one:
    # an earlier reveal may rightly show the same words)
    blob = json.dumps({k: v for k, v in view.items() if k not in ("log", "headline")}).lower()
    assert "hand" not in view and "secret" not in view and "hint" not in view and "my_answer" not in view
    assert '"correct"' not in blob
    for player in view["players"]:  # the view lists every chip once, each under its holder, in map order
        assert player["chips"] == chips_of(s, player["seat"]) and player["ev"] == sum(EV[c] for c in player["chips"])
    status = GAME.status_text(s).lower()
    for secret in secrets_of(s):
        assert secret not in blob and secret not in status
    still_secret = [x for x in secrets_before if x in secrets_of(s)]
    for e in events:
        if e.to is None:
            for secret in still_secret:
                assert secret not in e.text.lower()
    for seat in range(len(s.seats)):
        other = GAME.view(s, seat)
        if s.wild is not None and s.wild.performer != seat:
            assert "secret" not in other


@given(games())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_play_keeps_every_invariant_and_every_secret(case):
    n, opts, seed, play_seed, ai_share = case
    s = GAME.setup([Seat(name=NAMES[i]) for i in range(n)], GAME.options(opts), seed)
    rng = Rng(play_seed)
    actions = 0
    while not GAME.result(s).finished:
        assert actions < MAX_ACTIONS, "the game did not end"
        check_invariants(s)
        acting = [x for x in GAME.to_act(s) if x >= 0]
        before = secrets_of(s)
        if not acting:
            assert GAME.timer(s) is not None, f"nobody acts and no clock runs in {s.phase}"
            events = GAME.apply_in_place(s, SYSTEM, g.Timeout())
        else:
            seat = acting[rng.below(len(acting))]
            if rng.random() < ai_share:
                action = GAME.ai_action(s, seat, rng)
            else:
                legal = GAME.legal_actions(s, seat)
                if not legal:
                    assert s.phase == "h2h", f"seat {seat} must act in {s.phase} but has no legal action"
                    action = g.PassAnswer() if rng.random() < 0.5 else g.Guess(answer=f"my guess number {actions}")
                else:
                    action = legal[rng.below(len(legal))]
            events = GAME.apply_in_place(s, seat, action)
        for e in events:
            assert e.text and (e.to is None or all(0 <= t < n for t in e.to))
        check_public(s, events, before)
        actions += 1
        if actions % 97 == 0:
            dumped = GAME.dump(s)
            assert GAME.dump(GAME.load(dumped)) == dumped
    check_invariants(s)
    r = GAME.result(s)
    assert len(r.winners) == 1 and r.summary


@given(st.integers(0, 2**32), st.integers(0, 2**16))
@settings(max_examples=15, deadline=None)
def test_illegal_and_foreign_moves_change_nothing(seed, play_seed):
    s = GAME.setup([Seat(name=x) for x in NAMES[:3]], GAME.options({"max_rounds": 3}), seed)
    rng = Rng(play_seed)
    garbage = ["move ZZ", "fly XX", "answer 9", "offer -1", "deal maybe", "home DC", "play 999", "hire nobody",
               "overrule zed", "guess", "ask sports", "suggest 0", "judge perhaps", "stay", "claim", "timeout"]
    for _ in range(150):
        if GAME.result(s).finished:
            break
        before = GAME.dump(s)
        for text in garbage:
            try:
                action = GAME.parse_action(text)
            except RuleError as exc:
                assert "\n" not in str(exc)
                continue
            for seat in range(3):
                try:
                    GAME.apply(s, seat, action)
                except RuleError as exc:
                    assert str(exc) and "\n" not in str(exc)
                assert GAME.dump(s) == before
        acting = [x for x in GAME.to_act(s) if x >= 0]
        if not acting:
            GAME.apply_in_place(s, SYSTEM, g.Timeout())
            continue
        seat = rng.choice(acting)
        if not GAME.legal_actions(s, seat):
            GAME.apply_in_place(s, seat, g.PassAnswer())
            continue
        # every listed legal move of another seat is refused for a seat that may not act
        for other in range(3):
            if not GAME.may_act(s, other):
                for a in GAME.legal_actions(s, seat)[:5]:
                    try:
                        GAME.apply(s, other, a)
                        raise AssertionError(f"{other} applied {a.text()} for {seat}")
                    except RuleError:
                        pass
        GAME.apply_in_place(s, seat, rng.choice(GAME.legal_actions(s, seat)))


def test_private_texts_name_their_owner_and_hold_only_their_secrets():
    s = GAME.setup([Seat(name=x) for x in NAMES[:3]], GAME.options({}), 7)
    for seat in range(3):
        text = GAME.private_text(s, seat)
        assert NAMES[seat] in text
        for other in range(3):
            if other != seat:
                for c in s.players[other].dealt:
                    if c not in s.players[seat].dealt:
                        assert f"`{c}`" not in text
    assert chips_of(s, 0) == [] and DC in s.chips


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 8), seed=st.integers(0, 2**32), ai=st.booleans())
def test_games_without_a_round_limit_end(n, seed, ai):
    """max_rounds=0: the stall rule (speed play once nobody has set a new high of electoral votes for
    stall_rounds rounds) ends every game, whether AI seats race for 270 or random seats wander."""
    from bot.simulate import play_one
    state, actions = play_one(GAME, n, seed, set(range(n)) if ai else set(), {"max_rounds": 0},
                              max_actions=MAX_ACTIONS * 4)
    assert GAME.result(state).finished and GAME.result(state).ending in GAME.endings
    # the bound the rule gives: the high only rises (at most 270 times) and each rise buys stall_rounds rounds
    assert state.turns <= (state.record_ev + 1) * state.options.stall_rounds * n + n
