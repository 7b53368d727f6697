"""Primary/General property tests: random legal play under every setting ends,
keeps all 56 cards, keeps hands secret, and round-trips through JSON."""
from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from engines import RuleError, Seat
from engines.primary_general import GAME
from engines.primary_general.cards import CARDS
from engines.rng import Rng

NAMES = ["alice", "bob", "carol", "dave"]
CARD_NAMES = [c.name for c in CARDS]


@st.composite
def games(draw):
    party = draw(st.booleans())
    n = 4 if party else draw(st.integers(2, 4))
    opts = {
        "carry_scores": draw(st.booleans()),
        "adhd_scope": draw(st.sampled_from(["phase", "game"])),
        "party_match": party,
        "candidates": draw(st.sampled_from(["top-two", "per-party"])),
        "match_games": draw(st.integers(1, 2)),
    }
    seed = draw(st.integers(0, 2**40))
    return n, opts, seed


def start(n, opts, seed):
    return GAME.setup([Seat(name=NAMES[i]) for i in range(n)], GAME.options(opts), seed)


def card_count(s) -> int:
    return len(s.deck) + sum(map(len, s.hands)) + len(s.in_play) + len(s.discard)


def check_secrets(s, rng: Rng) -> None:
    n = len(s.seats)
    public = GAME.view(s, None)
    assert "hand" not in public and "you" not in public
    text = json.dumps(public)
    status = GAME.status_text(s)
    assert not any(name in status for name in CARD_NAMES)
    views = [GAME.view(s, y) for y in range(n)]
    for y, v in enumerate(views):
        assert [h["card"] for h in v["hand"]] == s.hands[y] and v["you"] == y
        rest = {k: val for k, val in v.items() if k not in ("hand", "you")}
        assert rest == public
    # Re-deal every hidden card (deck and the other hands) at random: neither the
    # public view nor seat y's view may change, so none of it can leak.
    for y in [None, *range(n)]:
        hidden = list(s.deck) + [c for i in range(n) if i != y for c in s.hands[i]]
        rng.shuffle(hidden)
        other = GAME.clone(s)
        pos = 0
        for i in range(n):
            if i != y:
                k = len(s.hands[i])
                other.hands[i] = sorted(hidden[pos:pos + k])
                pos += k
        other.deck = hidden[pos:]
        assert GAME.view(other, y) == GAME.view(s, y)
        assert json.dumps(GAME.view(other, None)) == text
        assert GAME.status_text(other) == status


def check_events(events, played: str, removed: str | None) -> None:
    allowed = {played} | ({removed} if removed else set())
    for e in events:
        assert e.to is None  # this game has no private events: hands are read with private_text
        mentioned = {name for name in CARD_NAMES if name in e.text}
        assert mentioned <= allowed, (e.text, allowed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), picks=st.randoms(use_true_random=False))
def test_random_legal_play_ends_conserves_cards_and_keeps_secrets(game, picks):
    n, opts, seed = game
    s = start(n, opts, seed)
    rng = Rng(seed + 1)
    steps = 0
    check_every = picks.randint(3, 9)
    while not GAME.result(s).finished:
        assert card_count(s) == 56
        seat = GAME.to_act(s)[0]
        for other in range(n):
            if other != seat:
                assert GAME.legal_actions(s, other) == []
        legal = GAME.legal_actions(s, seat)
        assert legal and len({a.card for a in legal}) <= 7 and len(legal) <= 7 * 4 + 56
        if steps % check_every == 0:
            check_secrets(s, rng)
        action = picks.choice(legal)
        removed = None
        if action.card == "voter-adhd" and action.target != "none":
            cid = int(action.target[1:])
            removed = next(CARDS_BY[c.card] for c in s.in_play if c.id == cid)
        events = GAME.apply_in_place(s, seat, action)
        check_events(events, CARDS_BY[action.card], removed)
        steps += 1
        assert steps <= 56 * opts["match_games"] if opts["party_match"] else steps <= 14 * n
    assert card_count(s) == 56 and GAME.to_act(s) == []
    assert steps == 14 * n * (opts["match_games"] if opts["party_match"] else 1)
    r = GAME.result(s)
    assert r.finished and r.winners and len(r.scores) == n
    check_secrets(s, rng)


CARDS_BY = {c.slug: c.name for c in CARDS}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), picks=st.randoms(use_true_random=False), stop=st.integers(0, 120))
def test_json_round_trip_at_any_point_and_play_continues_identically(game, picks, stop):
    n, opts, seed = game
    s = start(n, opts, seed)
    for _ in range(stop):
        if GAME.result(s).finished:
            break
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, picks.choice(GAME.legal_actions(s, seat)))
    dumped = GAME.dump(s)
    loaded = GAME.load(dumped)
    assert GAME.dump(loaded) == dumped and loaded == s
    assert GAME.dump(GAME.load(json.loads(dumped))) == dumped
    # The copy plays on exactly like the original.
    order = picks.randint(0, 10**6)
    for state in (s, loaded):
        r = Rng(order)
        while not GAME.result(state).finished:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            GAME.apply_in_place(state, seat, legal[r.below(len(legal))])
    assert GAME.dump(s) == GAME.dump(loaded)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=games(), picks=st.randoms(use_true_random=False), stop=st.integers(0, 55))
def test_illegal_actions_leave_the_state_unchanged(game, picks, stop):
    n, opts, seed = game
    s = start(n, opts, seed)
    for _ in range(stop):
        if GAME.result(s).finished:
            break
        seat = GAME.to_act(s)[0]
        GAME.apply_in_place(s, seat, picks.choice(GAME.legal_actions(s, seat)))
    if GAME.result(s).finished:
        before = GAME.dump(s)
        for seat in range(n):
            try:
                GAME.apply_in_place(s, seat, GAME.parse_action("play tack-center alice"))
            except RuleError as exc:
                assert str(exc) == "This game is over."
            else:
                raise AssertionError("a move was accepted after the end")
        assert GAME.dump(s) == before
        return
    seat = GAME.to_act(s)[0]
    legal_texts = {a.text() for a in GAME.legal_actions(s, seat)}
    wrong_seat = (seat + 1) % n
    tries = [(wrong_seat, a.text()) for a in GAME.legal_actions(s, seat)[:3]]
    absent = [c.slug for c in CARDS if c.slug not in s.hands[seat]]
    tries += [(seat, f"play {slug} alice") for slug in absent[:3]]
    tries += [(seat, "play voter-adhd c999"), (seat, "play tack-center nobody"), (seat, "play xyzzy alice")]
    before = GAME.dump(s)
    for who, text in tries:
        if who == seat and text in legal_texts:
            continue
        try:
            action = GAME.parse_action(text)
            GAME.apply_in_place(s, who, action)
        except RuleError as exc:
            msg = str(exc)
            assert msg and msg[0].isupper() and msg.endswith(".") and "\n" not in msg
        else:
            raise AssertionError(f"{text!r} by seat {who} was accepted")
        assert GAME.dump(s) == before


def test_every_legal_action_is_accepted():
    """legal_actions is exact: each listed move applies without error."""
    for seed in range(8):
        s = start(3, {"adhd_scope": "game"}, seed)
        r = Rng(seed)
        while not GAME.result(s).finished:
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            for a in legal:
                GAME.apply(s, seat, GAME.parse_action(a.text()))
            GAME.apply_in_place(s, seat, legal[r.below(len(legal))])
