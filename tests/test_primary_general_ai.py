"""Primary/General AI: legal, deterministic, and clearly better than random.

Measured (see docs/games/primary-general.md): one AI seat against three random
seats wins about 87% of 4-player games (random = 25%)."""
from __future__ import annotations

from engines import Seat
from engines.primary_general import GAME
from engines.rng import Rng


def play(n: int, seed: int, ai_seat: int, opts: dict | None = None) -> list[int]:
    s = GAME.setup([Seat(name=f"P{i + 1}") for i in range(n)], GAME.options(opts or {}), seed)
    rng = Rng(seed ^ 0xA1)
    while not GAME.result(s).finished:
        seat = GAME.to_act(s)[0]
        if seat == ai_seat:
            action = GAME.ai_action(s, seat, rng)
            assert action in GAME.legal_actions(s, seat)
        else:
            legal = GAME.legal_actions(s, seat)
            action = legal[rng.below(len(legal))]
        GAME.apply_in_place(s, seat, action)
    return GAME.result(s).winners


def win_rate(n: int, games: int, opts: dict | None = None) -> float:
    wins = 0
    for g in range(games):
        ai = g % n  # the AI sits at every seat in turn
        wins += ai in play(n, 1000 + g, ai, opts)
    return wins / games


def test_ai_beats_three_random_players_in_1000_games():
    rate = win_rate(4, 1000)
    # Random would win 25%; measured 0.87. Demand far more than chance.
    assert rate > 0.25 + 0.35, rate


def test_ai_beats_random_with_two_and_three_players():
    assert win_rate(2, 200) > 0.5 + 0.3
    assert win_rate(3, 200) > 1 / 3 + 0.3


def test_ai_wins_party_match_points_more_often_than_chance():
    wins = 0
    for g in range(100):
        wins += (g % 4) in play(4, 5000 + g, g % 4, {"party_match": True, "match_games": 2})
    assert wins / 100 > 0.4


def test_ai_does_not_consume_or_change_the_game_state():
    s = GAME.setup([Seat(name=n) for n in "abc"], GAME.options({"adhd_scope": "game"}), 9)
    for _ in range(10):
        seat = GAME.to_act(s)[0]
        before = GAME.dump(s)
        a1 = GAME.ai_action(s, seat, Rng(4))
        assert GAME.dump(s) == before and a1 == GAME.ai_action(s, seat, Rng(4))
        GAME.apply_in_place(s, seat, a1)


def test_ai_removes_the_leaders_best_card_in_the_general():
    s = GAME.setup([Seat(name=n) for n in "ab"], GAME.options({}), 3)
    s.phase, s.candidates = "general", [0, 1]
    s.hands = [["voter-adhd", "gaffe"], ["gaffe"]]
    s.turn = 0
    s.electability, s.affiliation = [0, 6], [0, -5]
    from engines.primary_general.game import InPlay
    s.in_play = [InPlay(id=4, card="steal-their-position", target=1, by=1, phase="general"),
                 InPlay(id=5, card="gaffe", target=0, by=1, phase="general")]
    s.electability[0], s.affiliation[0] = -3, -3
    # Removing bob's +6E/-5A (his E−A 11 -> 0) beats undoing my own Gaffe (0 net in the General).
    assert GAME.ai_action(s, 0, Rng(1)).text() == "play voter-adhd c4"
