"""The contract every engine must keep, checked for every game that exists."""
from __future__ import annotations

import ast
import importlib
import json
import pathlib

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from engines import Options, RuleError, Seat, all_games
from engines.rng import Rng
from bot.simulate import play_one

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = ROOT / "engines"
BANNED = {"discord", "asyncio", "aiosqlite", "sqlite3", "socket", "aiohttp", "requests", "urllib", "subprocess",
          "threading", "time", "random", "os", "io", "pathlib", "shutil"}
GAMES = sorted(all_games())


def test_engines_are_pure_python_without_io():
    offenders = []
    for path in ENGINES.rglob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module.split(".")[0]]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("open", "input", "print"):
                offenders.append(f"{path.name}: calls {node.func.id}()")
            offenders += [f"{path.relative_to(ENGINES)} imports {n}" for n in names if n in BANNED]
    assert offenders == []


def test_rng_is_deterministic_and_uniform_enough():
    a, b = Rng(5), Rng(5)
    assert [a.below(10) for _ in range(50)] == [b.below(10) for _ in range(50)]
    counts = [0] * 6
    r = Rng(1)
    for _ in range(6000):
        counts[r.die() - 1] += 1
    assert all(800 < c < 1200 for c in counts)
    deck = list(range(20))
    Rng(3).shuffle(deck)
    assert sorted(deck) == list(range(20)) and deck != list(range(20))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_declares_itself(game_id):
    game = all_games()[game_id]
    assert game.id == game_id and game.title and game.summary and game.rules_text
    assert 1 <= game.min_players <= game.max_players <= 8
    assert game.actions, "a game needs at least one action type"
    verbs = [a.verb for a in game.actions]
    assert len(verbs) == len(set(verbs))
    # what it declares beside the engine exists: renderer, text board, the players' doc
    assert game.renderer_module and callable(getattr(importlib.import_module(game.renderer_module), "render", None))
    assert game.text_board_module and callable(getattr(importlib.import_module(game.text_board_module), "board", None))
    assert game.doc and (ROOT / game.doc).is_file()
    for key in game.short_settings:
        assert key in game.OptionsModel.model_fields, f"short_settings names no setting '{key}'"
    game.options(dict(game.short_settings))


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_refuses_a_table_of_the_wrong_size_and_takes_plain_options(game_id):
    game = all_games()[game_id]
    for n in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(RuleError, match=rf"takes {game.min_players} to {game.max_players} \w+, not {n}\.$"):
            game.setup([Seat(name=f"P{i}") for i in range(n)], game.options(), 1)
    # the base Options (no settings) become the game's own settings, at their defaults
    state = game.setup([Seat(name=f"P{i}") for i in range(game.min_players)], Options(), 1)
    assert state.options == game.options()


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), extra=st.integers(0, 6))
def test_random_play_ends_and_round_trips(game_id, seed, extra):
    game = all_games()[game_id]
    players = min(game.max_players, game.min_players + extra)
    state, actions = play_one(game, players, seed, ai_seats=set())
    assert game.result(state).finished and actions > 0
    dumped = game.dump(state)
    assert game.dump(game.load(dumped)) == dumped
    assert game.dump(game.load(json.loads(dumped))) == dumped


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_a_clone_is_an_equal_copy_that_moves_on_its_own(game_id, seed, steps):
    """Game.clone (every search iteration copies a state): equal to the state, the same when saved,
    and a move made in the copy leaves the original as it was."""
    game = all_games()[game_id]
    state = game.setup([Seat(name=f"P{i}", bot=False) for i in range(game.max_players)], Options(), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if not game.random_step(state, rng):
            break
    saved = game.dump(state)
    copy = game.clone(state)
    assert copy == state and copy is not state and game.dump(copy) == saved
    while game.random_step(copy, rng) and game.dump(copy) == saved:
        pass  # a timer-only state or a move that changes nothing saved: step on
    assert game.dump(state) == saved


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game(game_id):
    game = all_games()[game_id]
    a, _ = play_one(game, game.min_players, 11, ai_seats=set())
    b, _ = play_one(game, game.min_players, 11, ai_seats=set())
    assert game.dump(a) == game.dump(b)


@pytest.mark.parametrize("game_id", GAMES)
def test_illegal_actions_leave_the_state_untouched(game_id):
    game = all_games()[game_id]
    seats = [Seat(name=n) for n in ["ann", "bob", "cy", "dee", "eve", "fay"][: game.min_players]]
    state = game.setup(seats, game.options({}), 3)
    rng = Rng(9)
    for _step in range(60):
        if game.result(state).finished:
            break
        before = game.dump(state)
        waiting = [s for s in game.to_act(state) if s >= 0]
        idle = [s for s in range(len(seats)) if not game.may_act(state, s)]
        garbage = ["", "zzz", "play", "pick XX huge", "x " * 50, "💥 ☃", "move nowhere 99"]
        for text in garbage:
            try:
                action = game.parse_action(text)
            except RuleError:
                continue
            for seat in waiting + idle:
                try:
                    game.apply(state, seat, action)
                except RuleError as exc:
                    assert str(exc) and "\n" not in str(exc) and "Traceback" not in str(exc)
                assert game.dump(state) == before
        if idle and waiting:
            # A seat the game isn't waiting for is refused, whatever the move.
            legal = game.legal_actions(state, waiting[0])
            if legal:
                with pytest.raises(RuleError):
                    game.apply_in_place(state, idle[0], legal[0])
                assert game.dump(state) == before
        if not waiting:
            timer = game.timer(state)
            if timer is None:
                break
            game.apply_in_place(state, timer.seat, game.parse_action(timer.action_text))
            continue
        seat = rng.choice(waiting)
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        game.apply_in_place(state, seat, rng.choice(legal))


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_actions_parse_back_from_their_text(game_id):
    game = all_games()[game_id]
    seats = [Seat(name=n) for n in ["ann", "bob", "cy", "dee"][: game.min_players]]
    state = game.setup(seats, game.options({}), 4)
    for seat in game.to_act(state):
        if seat < 0:
            continue
        for action in game.legal_actions(state, seat)[:200]:
            assert game.parse_action(action.text()) == action
            assert len(action.text()) <= 90  # it must fit a custom_id with room for the channel


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 2**20))
@example("politics-trivia", 11)  # the performer of a judged Wildcard, at move 35
def test_a_seat_with_legal_moves_may_act(game_id, seed):
    """The bot asks `may_act` before it applies a seat's move: a seat offered a move that may_act
    refused would see it in its menu and be told it is not its turn (hypothesis found a trivia
    performer who could give a judged Wildcard up but was refused)."""
    from engines import SYSTEM

    game = all_games()[game_id]
    players = min(4, game.max_players)
    state = game.setup([Seat(name=f"P{i}") for i in range(players)], game.options({}), seed)
    rng = Rng(seed)
    for _step in range(400):
        if game.result(state).finished:
            break
        for seat in range(players):
            if game.legal_actions(state, seat):
                assert game.may_act(state, seat), (seat, [a.text() for a in game.legal_actions(state, seat)][:5])
        if not game.random_step(state, rng):
            timer = game.timer(state)
            if timer is None:
                break
            game.apply_in_place(state, timer.seat if timer.seat >= 0 else SYSTEM, game.parse_action(timer.action_text))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAMES), st.integers(0, 2**20), st.integers(0, 60))
def test_a_hand_over_makes_the_seat_an_ai_seat_for_good(game_id, seed, steps):
    """`handover N` (the bot's move, as SYSTEM, when a player leaves a game in play) sets the seat's
    `bot` and nothing else of the game: the same seats may move, the same moves are legal, and it
    survives a save. No player can make it, and it is never among anyone's legal moves."""
    from engines import SYSTEM, HandOver

    game = all_games()[game_id]
    players = game.min_players
    state = game.setup([Seat(name=f"P{i}") for i in range(players)], game.options({}), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if not game.random_step(state, rng):
            break
    if game.result(state).finished:
        with pytest.raises(RuleError, match="over"):
            game.apply_in_place(state, SYSTEM, HandOver(seat=0))
        return
    seat = seed % players
    before = [(game.to_act(state), [game.legal_actions(state, s) for s in range(players)])]
    text = game.dump(state)
    for mover in range(players):  # a player typing it is told what it is, and nothing changes
        with pytest.raises(RuleError, match="leave"):
            game.apply_in_place(state, mover, game.parse_action(f"handover {seat}"))
    assert game.dump(state) == text
    with pytest.raises(RuleError, match="no seat"):
        game.apply_in_place(state, SYSTEM, HandOver(seat=players))
    assert game.apply_in_place(state, SYSTEM, game.parse_action(f"handover {seat}")) == []
    assert [s.bot for s in state.seats] == [s == seat for s in range(players)]
    assert [(game.to_act(state), [game.legal_actions(state, s) for s in range(players)])] == before
    assert game.load(game.dump(state)).seats[seat].bot
    assert all(a.verb != "handover" for s in range(players) for a in game.legal_actions(state, s))
