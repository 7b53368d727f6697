"""Politics (1952) property tests: random legal play always ends; pins never pass
a state's capital and the line lists agree with the pins; a state won outright
gets no further play; JSON round-trips; illegal moves change nothing; no Speech
Card in a hand leaks to anyone else."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engines import RuleError, Seat
from engines.politics_1952 import GAME
from engines.politics_1952.cards import BY_SLUG, SLUGS
from engines.politics_1952.model import Capture, End, Roll, Speech, Throw
from engines.politics_1952.rules import line_pins
from engines.politics_1952.states import CODES, LINES
from engines.rng import Rng
from tests.helpers import play_on_keeping_an_early_view

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
MAX_ACTIONS = 20_000


@st.composite
def games(draw):
    n = draw(st.integers(2, 6))
    opts = {"speech_cards": draw(st.integers(0, 3)),
            "elimination_ties": draw(st.sampled_from(["counties", "throw"]))}
    return n, opts, draw(st.integers(0, 2**40)), draw(st.integers(0, 2**20))


def check_board(s):
    n = len(s.seats)
    for code in CODES:
        cap = s.capital[code]
        lines = line_pins(s, code)
        assert len(lines) == LINES[code]
        seen = []
        for k, line in enumerate(lines):
            for seat in line:
                assert s.pos[code][seat] == k + 1
                seen.append(seat)
            stamps = [s.arrived[code][seat] for seat in line]
            assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)  # one order, north to south
        assert len(seen) == len(set(seen))
        assert sum(p == LINES[code] + 1 for p in s.pos[code]) == (cap is not None)
        for seat in range(n):
            p = s.pos[code][seat]
            assert 0 <= p <= LINES[code] + 1  # never past the capital
            if p == LINES[code] + 1:
                assert cap == seat
            elif p:
                assert seat in seen
            if seat not in s.active:
                assert p == 0


def check_secrets(s, rng):
    n = len(s.seats)
    public = GAME.view(s, None)
    assert "hand" not in public and "you" not in public
    for y in range(n):
        v = GAME.view(s, y)
        assert [h["card"] for h in v["hand"]] == s.hands[y]
        assert {k: x for k, x in v.items() if k not in ("hand", "you")} == public
    # shuffle every card in other hands (and the undealt ones): nothing anyone else sees may change
    held = {c for h in s.hands for c in h}
    played = {c for p in s.played for c in p}
    for y in [None, *range(n)]:
        hidden = [c for c in SLUGS if c not in played and (y is None or c not in s.hands[y])]
        rng.shuffle(hidden)
        other = GAME.clone(s)
        pos = 0
        for i in range(n):
            if i == y:
                continue
            k = len(other.hands[i])
            other.hands[i] = hidden[pos:pos + k]
            pos += k
        assert GAME.view(other, y) == GAME.view(s, y)
        assert GAME.status_text(other) == GAME.status_text(s)
    text = json.dumps(public) + GAME.status_text(s)
    for c in held:
        assert BY_SLUG[c].title not in text


def illegal_candidates(s, seat):
    out = [Throw(), Roll(), End()] + [Speech(card=c) for c in SLUGS]
    out += [Capture(state=c, n=k) for c in CODES for k in (1, 3, 9)]
    return out


def random_game(n, opts, seed, pick_seed, ai_share=0.3, check_every=25):
    s = GAME.setup([Seat(name=NAMES[i]) for i in range(n)], GAME.options(opts), seed)
    rng = Rng(pick_seed)
    steps = 0
    while not GAME.result(s).finished:
        assert steps < MAX_ACTIONS, "the game must end"
        acting = GAME.to_act(s)
        assert acting
        seat = acting[rng.below(len(acting))]
        legal = GAME.legal_actions(s, seat)
        assert legal, "whoever is to act has a legal move"
        if steps % check_every == 0:
            check_board(s)
            assert GAME.load(json.loads(GAME.dump(s))) == s
            assert GAME.load(GAME.dump(s)).model_dump() == s.model_dump()
            # an action not in legal_actions is refused and changes nothing
            legal_texts = {a.text() for a in legal}
            pool = [a for a in illegal_candidates(s, seat) if a.text() not in legal_texts]
            before = GAME.dump(s)
            for a in [pool[rng.below(len(pool))] for _ in range(6)]:
                try:
                    GAME.apply_in_place(s, seat, a)
                except RuleError:
                    pass
                else:
                    raise AssertionError(f"{a.text()} was not legal but was applied")
                assert GAME.dump(s) == before
            # a seat that is not to act is refused too
            others = [x for x in range(n) if x not in acting]
            if others:
                try:
                    GAME.apply_in_place(s, others[0], legal[0])
                except RuleError:
                    pass
                else:
                    raise AssertionError("a seat out of turn moved")
                assert GAME.dump(s) == before
            check_secrets(s, rng)
        won = {c: (s.capital[c], list(s.pos[c])) for c in CODES if s.capital[c] is not None}
        active_before = list(s.active)
        tabs = len(s.tabulations)
        action = GAME.ai_action(s, seat, rng) if rng.random() < ai_share else legal[rng.below(len(legal))]
        assert action.text() in {a.text() for a in legal}
        GAME.apply_in_place(s, seat, action)
        if len(s.tabulations) == tabs:
            # a state won outright receives no further play (until its holder is eliminated)
            for c, (cap, pos) in won.items():
                assert s.capital[c] == cap and s.pos[c] == pos
        else:
            assert s.dice[1] == s.dice[2]  # a count only on doubles ...
            for c, (cap, pos) in won.items():
                if cap in s.active:
                    assert s.pos[c] == [p if i in s.active else 0 for i, p in enumerate(pos)]
            assert len(s.active) <= max(2, len(active_before))
        steps += 1
    check_board(s)
    res = GAME.result(s)
    assert res.finished and len(res.winners) == 1 and res.scores[res.winners[0]] >= 266
    assert len(s.tabulations) >= 1 and s.tabulations[-1]["winner"] == res.winners[0]
    # every tabulation came with the board closed and left at most two players after the first
    for t in s.tabulations[:-1]:
        assert t["eliminated"]
    return s


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_play_ends_and_keeps_every_invariant(game):
    n, opts, seed, pick = game
    random_game(n, opts, seed, pick)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_pure_random_play_ends(game):
    n, opts, seed, pick = game
    random_game(n, opts, seed, pick, ai_share=0.0, check_every=10_000)


def test_tabulation_happens_only_on_doubles_with_the_board_closed():
    for seed in range(30):
        s = GAME.setup([Seat(name=NAMES[i]) for i in range(3)], GAME.options({}), seed)
        rng = Rng(seed)
        while not GAME.result(s).finished:
            seat = GAME.to_act(s)[0]
            closed = 0 not in map(max, s.pos.values())
            tabs = len(s.tabulations)
            action = GAME.ai_action(s, seat, rng)
            GAME.apply_in_place(s, seat, action)
            if len(s.tabulations) > tabs:
                assert isinstance(action, Roll) and closed and s.dice[1] == s.dice[2]
            elif isinstance(action, Roll) and s.dice[1] == s.dice[2]:
                assert not closed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**20), st.integers(10, 300))
def test_a_view_shares_unchanged_states_and_still_tells_the_truth(seed, steps):
    """Views share the entry of a state no move changed (engines/politics_1952/game.py): an earlier
    view stays as it was, and a view's pins and holders are the rules' own (line_pins, controller)."""
    from engines.politics_1952.rules import controller

    state = GAME.setup([Seat(name="A"), Seat(name="B"), Seat(name="C")], GAME.options({}), seed)
    _early, now = play_on_keeping_an_early_view(GAME, state, steps, Rng(seed))
    for entry in now["states"]:
        code = entry["code"]
        assert entry["pins"] == line_pins(state, code) and entry["controller"] == controller(state, code)
        assert entry["capital"] == state.capital[code]
    for seat, player in enumerate(now["players"]):
        assert player["states"] == sum(1 for c in CODES if controller(state, c) == seat)
