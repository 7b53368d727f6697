"""U.S. President: property tests (hypothesis) and figures (speed, AI strength)."""
from __future__ import annotations


from hypothesis import given, settings, strategies as st

from engines.core import RuleError, Seat
from engines.rng import Rng
from engines.us_president import GAME
from engines.us_president.states import CODES, POINTS, SIZES


def setup(n, seed, deal="equal", tie="aside"):
    seats = [Seat(name=f"P{i}") for i in range(n)]
    return GAME.setup(seats, GAME.options({"deal": deal, "tie_above_holder": tie}), seed)


def play(state, rng, ai_seats=(), stop_after=None):
    """Random (or AI) play; returns the number of actions."""
    actions = 0
    while GAME.to_act(state):
        if stop_after is not None and actions >= stop_after:
            break
        acting = GAME.to_act(state)
        seat = acting[rng.below(len(acting))]
        if seat in ai_seats:
            action = GAME.ai_action(state, seat, rng)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.below(len(legal))]
        GAME.apply_in_place(state, seat, action)
        actions += 1
    return actions


def check_invariants(state):
    n = len(state.seats)
    for s in range(n):
        for i, size in enumerate(SIZES):
            placed = sum(state.board[c][s].count(POINTS[size]) for c in CODES)
            assert placed + state.supply[s][i] == 4
        assert all(len(state.board[c][s]) <= 3 for c in CODES)
        assert sum(len(state.board[c][s]) for c in CODES) == len(state.reveals)
    assert len(state.reveals) == (12 if state.phase == "over" else state.round - 1)


games = st.tuples(st.integers(2, 6), st.integers(0, 2**32), st.sampled_from(["equal", "one"]),
                  st.sampled_from(["aside", "keep"]))


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_play_always_ends_with_everything_placed(g):
    n, seed, deal, tie = g
    state = setup(n, seed, deal, tie)
    actions = play(state, Rng(seed))
    assert actions == 12 * n
    res = GAME.result(state)
    assert res.finished and len(res.winners) <= 1
    assert state.supply == [[0, 0, 0]] * n
    if res.winners:
        w = res.winners[0]
        last = state.recount[-1]["electors"][w] if state.recount else state.count[w]
        assert last >= 73
    else:
        assert state.recount and state.recount[-1]["active"] == []
    # every recount step removes someone
    sizes = [len(s["active"]) for s in state.recount]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 60))
def test_json_round_trip_and_conservation_mid_game(g, cut):
    n, seed, deal, tie = g
    state = setup(n, seed, deal, tie)
    play(state, Rng(seed + 1), stop_after=cut)
    check_invariants(state)
    again = GAME.load(GAME.dump(state))
    assert again == state and GAME.dump(again) == GAME.dump(state)
    assert GAME.view(again, None) == GAME.view(state, None)


@settings(max_examples=80, deadline=None)
@given(games, st.integers(0, 60), st.sampled_from(CODES), st.sampled_from(SIZES + ("huge",)), st.integers(0, 5))
def test_an_illegal_action_leaves_the_state_unchanged(g, cut, code, size, seat):
    n, seed, deal, tie = g
    seat %= n
    state = setup(n, seed, deal, tie)
    play(state, Rng(seed + 2), stop_after=cut)
    before = GAME.dump(state)
    try:
        action = GAME.parse_action(f"pick {code} {size}")
    except RuleError:
        return
    legal = GAME.legal_actions(state, seat)
    try:
        GAME.apply_in_place(state, seat, action)
    except RuleError:
        assert GAME.dump(state) == before
        assert action not in legal or state.phase == "over" or seat not in range(n)
    else:
        assert action in legal


@settings(max_examples=100, deadline=None)
@given(games, st.integers(0, 60), st.data())
def test_a_pick_is_invisible_to_others_before_the_reveal(g, cut, data):
    """Non-interference: two worlds that differ only in one seat's pending pick
    look identical to the public, every other seat, and the public events."""
    n, seed, deal, tie = g
    state = setup(n, seed, deal, tie)
    play(state, Rng(seed + 3), stop_after=cut)
    if state.phase != "play":
        return
    waiting = GAME.to_act(state)
    if len(waiting) < 2:
        return  # the next pick would reveal the round anyway
    seat = data.draw(st.sampled_from(waiting))
    legal = GAME.legal_actions(state, seat)
    a = data.draw(st.sampled_from(legal))
    b = data.draw(st.sampled_from(legal))
    worlds = []
    for action in (a, b):
        s = GAME.clone(state)
        events = GAME.apply_in_place(s, seat, action)
        worlds.append((s, events))
    (sa, ea), (sb, eb) = worlds
    assert [e.text for e in ea if e.to is None] == [e.text for e in eb if e.to is None]
    assert all(e.to == [seat] for e in ea + eb if e.to is not None)
    assert GAME.view(sa, None) == GAME.view(sb, None)
    assert GAME.status_text(sa) == GAME.status_text(sb)
    for other in range(n):
        if other != seat:
            assert GAME.view(sa, other) == GAME.view(sb, other)
            assert GAME.private_text(sa, other) == GAME.private_text(sb, other)
    # a change of mind by another seat is just as invisible
    if a != b:
        events = GAME.apply_in_place(sa, seat, b)
        assert GAME.view(sa, None) == GAME.view(sb, None)
        assert all(a.state not in e.text.split() for e in events if e.to is None)




def test_ai_clearly_beats_random_seats():
    games, players = 200, 4
    ai_wins = rnd_wins = 0
    for i in range(games):
        ai = i % players
        state = setup(players, 50_000 + i)
        play(state, Rng(i), ai_seats=(ai,))
        w = GAME.result(state).winners
        if w and w[0] == ai:
            ai_wins += 1
        elif w:
            rnd_wins += 1
    ai_rate, rnd_rate = ai_wins / games, rnd_wins / games / (players - 1)
    print(f"AI win rate {ai_rate:.2f}, random seat {rnd_rate:.2f}")
    assert ai_rate > 0.4 and ai_rate > 4 * rnd_rate


@settings(max_examples=40, deadline=None)
@given(games, st.lists(st.integers(0, 10**6), min_size=1, max_size=120))
def test_changes_of_mind_only_the_last_pick_counts(g, choices):
    """Any player may pick again while the round is open; the reveal places
    exactly each player's last pick, and nothing else changes before it."""
    n, seed, deal, tie = g
    state = setup(n, seed, deal, tie)
    last: dict[int, list[str]] = {}
    for c in choices:
        if state.phase != "play":
            break
        seat = c % n
        legal = GAME.legal_actions(state, seat)
        action = legal[(c // n) % len(legal)]
        board_before = {k: [list(p) for p in v] for k, v in state.board.items()}
        round_before = state.round
        GAME.apply_in_place(state, seat, action)
        last[seat] = [action.state, action.size]
        if state.round == round_before and state.phase == "play":
            assert state.board == board_before  # nothing placed while someone is thinking
            assert state.picks[seat] == last[seat]
        else:
            assert state.reveals[-1] == [last[s] for s in range(n)]
            for s in range(n):
                code, size = last[s]
                assert state.board[code][s][-1] == POINTS[size]
            last = {}
        check_invariants(state)


def test_ai_seats_are_not_easily_exploited_by_skipping_florida():
    """AI seats that all crowd into Florida hand every other state to a player
    who stays out of it. The AI expects rivals who matched it somewhere to
    keep adding there, so a player who never contests Florida wins no more
    than a fair share against three AI seats."""
    from engines.us_president.states import POINTS as PTS
    games, players, wins = 80, 4, 0
    for i in range(games):
        state = setup(players, 11_000 + i)
        rng = Rng(i)
        skipper = i % players
        while GAME.to_act(state):
            acting = GAME.to_act(state)
            s = acting[rng.below(len(acting))]
            if s == skipper:
                legal = [a for a in GAME.legal_actions(state, s) if a.state != "FL"] or GAME.legal_actions(state, s)
                scores = [GAME._ai_gain(state, s, a.state, PTS[a.size]) for a in legal]
                action = legal[scores.index(max(scores))]
            else:
                action = GAME.ai_action(state, s, rng)
            GAME.apply_in_place(state, s, action)
        w = GAME.result(state).winners
        wins += bool(w and w[0] == skipper)
    assert wins / games < 0.45
