"""AI levels and the search (issue #27): determinize keeps what a seat has seen and redraws the
rest; `hard` reads other seats only through it, returns legal moves, replays with an iteration
budget, and answers trivia questions exactly as `normal` does."""
from __future__ import annotations

import json

import pytest

from engines import Seat, all_games, get_game
from engines.rng import Rng
from engines.search import LEVELS, choose

GAMES = sorted(all_games())
ITERATIONS = 12


def _positions(game_id: str, players: int = 2, seeds=range(4), moves: int = 12):
    """Mid-game states (random legal moves from a fresh deal) and a seat that must move there; in
    U.S. President the other seat has picked first, so its pick is a secret on the table."""
    game = get_game(game_id)
    out = []
    for seed in seeds:
        state = game.setup([Seat(name=f"P{i + 1}", bot=True) for i in range(players)], game.options({}), seed)
        r = Rng(seed + 100)
        for _ in range(moves + seed):
            if game.result(state).finished:
                break
            acting = [s for s in game.to_act(state) if s >= 0]
            legal = game.legal_actions(state, acting[0]) if acting else []
            if not legal:
                break
            game.apply_in_place(state, acting[0], legal[r.below(len(legal))])
        acting = [s for s in game.to_act(state) if s >= 0]
        if not acting or game.result(state).finished:
            continue
        seat = acting[0]
        if game_id == "us-president" and len(acting) > 1:
            other = acting[1]
            game.apply_in_place(state, other, game.legal_actions(state, other)[seed])
        if game.legal_actions(state, seat):
            out.append((state, seat))
    assert out, f"{game_id}: no position to test"
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_keeps_the_seats_view_and_redraws_the_rest(game_id):
    game = get_game(game_id)
    for state, seat in _positions(game_id):
        before = game.dump(state)
        world = game.determinize(state, seat, Rng(7))
        assert game.dump(state) == before  # the real state is untouched
        assert game.view(world, seat) == game.view(state, seat)
        assert world.rng != state.rng  # the random stream is a secret too: always replaced
        assert game.load(json.loads(game.dump(world))) == world  # a determinization is a valid state
        # Built from the seat's view alone: determinizing a determinization (same seat, same
        # stream) gives the very same state, whatever the real hidden cards were.
        again = game.determinize(world, seat, Rng(7))
        assert game.dump(again) == game.dump(game.determinize(state, seat, Rng(7)))


def test_determinize_redraws_hidden_cards():
    """It does redraw: rivals' hands, a rival's pending pick (else the checks above pass trivially)."""
    pg = get_game("primary-general")
    state, seat = _positions("primary-general")[0]
    hands = {tuple(pg.determinize(state, seat, Rng(k)).hands[1 - seat]) for k in range(20)}
    assert len(hands) > 5 and all(len(h) == len(state.hands[1 - seat]) for h in hands)
    assert all(tuple(pg.determinize(state, seat, Rng(k)).hands[seat]) == tuple(state.hands[seat]) for k in range(5))
    usp = get_game("us-president")
    state, seat = _positions("us-president")[0]
    other = 1 - seat
    assert state.picks[other] is not None and state.picks[seat] is None
    picks = {tuple(usp.determinize(state, seat, Rng(k)).picks[other]) for k in range(30)}
    assert len(picks) > 1


@pytest.mark.parametrize("game_id", GAMES)
def test_hard_sees_only_what_its_seat_has_seen(game_id):
    """Two states that differ only in what the searching seat cannot see (another determinization
    of the same position: rivals' hands and picks, pile order, the random stream) give the same
    `hard` move for the same seed and iteration budget."""
    game = get_game(game_id)
    for state, seat in _positions(game_id)[:2]:
        other = game.determinize(state, seat, Rng(99))
        assert game.dump(other) != game.dump(state)
        a = choose(game, state, seat, "hard", Rng(5), iterations=ITERATIONS)
        b = choose(game, other, seat, "hard", Rng(5), iterations=ITERATIONS)
        assert a == b
        assert a in game.legal_actions(state, seat)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_moves_legally(game_id, level):
    game = get_game(game_id)
    for state, seat in _positions(game_id, seeds=range(2)):
        action = choose(game, state, seat, level, Rng(3), iterations=6)
        assert action in game.legal_actions(state, seat)


def test_normal_is_the_games_own_ai():
    game = get_game("primary-general")
    for state, seat in _positions("primary-general"):
        assert choose(game, state, seat, "normal", Rng(4)) == game.ai_action(state, seat, Rng(4))


def test_a_time_budget_needs_a_clock():
    game = get_game("primary-general")
    state, seat = _positions("primary-general")[0]
    with pytest.raises(ValueError, match="clock"):
        choose(game, state, seat, "hard", Rng(1))
    ticks = iter(range(10_000))
    assert choose(game, state, seat, "hard", Rng(1), budget_ms=3000,
                  clock=lambda: float(next(ticks))) in game.legal_actions(state, seat)


def test_a_time_budget_stops_before_the_iteration_that_would_overrun_it():
    """A move's time stays within its budget: the search stops when the next iteration would likely
    end past the deadline (twice the mean so far, since iterations vary), not once
    the deadline has passed; the budget counts from when the move began."""
    from engines.search.budget import SearchBudget, Stopwatch
    now = [0.0]
    watch = Stopwatch(SearchBudget(budget_ms=1000, clock=lambda: now[0]))
    done = 0
    while not watch.out_of_time(done):
        now[0] += 0.3
        done += 1
    assert done == 2 and now[0] <= 1.0  # a third, guessed at 0.6 s, would have ended at 1.2 s
    assert not Stopwatch(SearchBudget(iterations=5)).out_of_time(100)  # no time budget: never
    now[0] = 10.0
    began_earlier = Stopwatch(SearchBudget(budget_ms=1000, clock=lambda: now[0], started=9.5))
    assert began_earlier.deadline == 10.5  # half the budget went before the search began
    # a whole search, on a clock that moves a millisecond for every move a playout applies
    from engines.search.ismcts import ismcts
    from engines.search.policy import rollout_settings
    game = get_game("us-president")
    ticks = [0]

    class Timed(type(game)):  # type: ignore[misc]
        def apply_in_place(self, st, sn, action):
            ticks[0] += 1
            return super().apply_in_place(st, sn, action)

    state, seat = _positions("us-president")[0]
    budget = SearchBudget(budget_ms=200, clock=lambda: ticks[0] / 1000.0)
    found = ismcts(Timed(), state, seat, game.legal_actions(state, seat), Rng(2), budget, rollout_settings(game))
    assert found.iterations > 1 and found.seconds <= 0.2


def test_trivia_hard_answers_exactly_as_normal():
    """Answering is knowledge: whenever a seat answers (asker, helper, head-to-head), `hard` and
    `easy` give the `normal` answer for the same stream, so all three are right equally often."""
    game = get_game("politics-trivia")
    answered = 0
    for seed in range(6):
        state = game.setup([Seat(name="A", bot=True), Seat(name="B", bot=True)], game.options({}), seed)
        moves = 0
        while not game.result(state).finished and moves < 400 and answered < 12:
            acting = [s for s in game.to_act(state) if s >= 0]
            if not acting or not game.legal_actions(state, acting[0]):
                timer = game.timer(state)
                game.apply_in_place(state, timer.seat, game.parse_action(timer.action_text))
                moves += 1
                continue
            seat = acting[0]
            rng = game.ai_rng(state, seat, moves)
            normal = game.ai_action(state, seat, rng)
            q = state.q
            if state.phase in ("question", "h2h") and (state.phase == "h2h" or seat == q.asker):
                answered += 1
                for level in ("hard", "easy"):
                    assert choose(game, state, seat, level, game.ai_rng(state, seat, moves), iterations=4) == normal
            game.apply_in_place(state, seat, normal)
            moves += 1
        if answered >= 12:
            break
    assert answered >= 12


def test_simulate_levels_reports_wins_per_level_with_an_interval():
    from bot.simulate import simulate_levels
    report = simulate_levels("primary-general", ["hard", "random"], 4, seed=2, iterations=4)
    assert report["games"] == 4 and report["errors"] == 0
    hard, rnd = report["by_level"]["hard"], report["by_level"]["random"]
    assert hard["seat_games"] == rnd["seat_games"] == 4
    assert hard["wins"] + rnd["wins"] == 4
    for level in (hard, rnd):
        lo, hi = level["interval95"]
        assert lo <= level["win_rate"] <= hi and hi - lo > 0.3  # four games: a wide interval
        assert level["moves"] > 0 and level["move_ms_p50"] <= level["move_ms_p99"]
    # seats rotate game by game: each level sat in each seat twice
    again = simulate_levels("primary-general", ["hard", "random"], 4, seed=2, iterations=4)
    assert again["by_level"]["hard"]["wins"] == hard["wins"]  # iterations: replayable


def test_simulate_levels_on_the_command_line():
    from tests.test_cli import cli
    proc = cli("simulate", "us-president", "--levels", "normal,easy,random", "-n", "3", "--seed", "1")
    report = json.loads(proc.stdout)
    assert report["levels"] == ["normal", "easy", "random"] and report["games"] == 3
    bad = cli("simulate", "us-president", "--levels", "normal,genius", "-n", "1")
    assert bad.returncode != 0 and "'genius' is not an AI level" in bad.stderr + bad.stdout


def test_simulate_levels_with_a_control_replays_each_game_with_the_first_level_swapped():
    """`--control`: the control games are the games of the swapped levels, seed for seed; a level
    against itself differs by nothing; an adjusted rate only over whole rotations of a control
    playing itself."""
    from bot.simulate import simulate_levels
    report = simulate_levels("us-president", ["easy", "random"], 6, seed=4, control="normal")
    alone = simulate_levels("us-president", ["normal", "random"], 6, seed=4)
    control = report["control"]
    assert control["level"] == "normal" and control["games"] == 6
    assert control["wins"] == alone["by_level"]["normal"]["wins"]
    assert control["win_rate"] == round(alone["by_level"]["normal"]["wins"] / 6, 3)
    gain = (report["by_level"]["easy"]["wins"] - control["wins"]) / 6
    assert control["difference"] == round(gain, 3)
    lo, hi = control["difference95"]
    assert lo <= control["difference"] <= hi
    assert "adjusted" not in control  # the control game is normal against random: no known share

    same = simulate_levels("us-president", ["easy", "normal"], 8, seed=4, control="easy")["control"]
    assert same["difference"] == 0.0 and same["difference95"] == [0.0, 0.0]  # the same games again

    paired = simulate_levels("us-president", ["easy", "normal"], 40, seed=3, control="normal")["control"]
    lo, hi = paired["adjusted"]["interval95"]
    assert lo < paired["adjusted"]["win_rate"] < hi
    # over a part rotation the control's share is not known to be fair: no adjusted rate
    odd = simulate_levels("us-president", ["easy", "normal"], 5, seed=3, control="normal")["control"]
    assert "adjusted" not in odd and odd["games"] == 5


def test_the_adjusted_rate_takes_out_the_luck_the_level_shared_with_its_control():
    from bot.simulate import Paired
    luck = [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0]  # the control's results: fair on the whole
    echoed = Paired("normal", ["hard", "normal"])
    for y in luck:
        echoed.add(y, y)  # a level that won exactly the control's games is worth the fair share
    adjusted = echoed.report(0.5, balanced=True)["adjusted"]
    assert adjusted == {"win_rate": 0.5, "interval95": [0.5, 0.5], "beta": 1.0}
    lucky = Paired("normal", ["hard", "normal"])
    for x, y in zip([1.0] * 8, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0]):
        lucky.add(x, y)  # won every game, but the seeds favoured its seat: the control won 7 of 8
    report = lucky.report(0.5, balanced=True)
    assert report["adjusted"]["win_rate"] == 1.0  # no shared luck to take out: x never moved with y
    shared = Paired("normal", ["hard", "normal"])
    for x, y in zip([1, 1, 1, 0, 1, 1, 0, 1], [1, 1, 1, 0, 1, 0, 0, 1]):
        shared.add(float(x), float(y))  # 6 of 8, the control 5 of 8 in the same games
    adjusted = shared.report(0.5, balanced=True)["adjusted"]
    assert adjusted["win_rate"] < 0.75 and adjusted["beta"] > 0  # part of its 6 was the seats' luck
    assert "adjusted" not in shared.report(0.5, balanced=False)
    rivals_differ = Paired("normal", ["hard", "easy"])  # its control game is normal against easy
    for x, y in zip([1, 1, 1, 0, 1, 1, 0, 1], [1, 1, 1, 0, 1, 0, 0, 1]):
        rivals_differ.add(float(x), float(y))
    assert "adjusted" not in rivals_differ.report(0.5, balanced=True)
    assert rivals_differ.report(0.5, balanced=True)["difference"] == 0.125


def test_a_control_counts_every_seat_of_the_first_level():
    from bot.simulate import play_levels, simulate_levels
    levels, n = ["easy", "easy", "normal"], 6
    control = simulate_levels("us-president", levels, n, seed=8, control="normal")["control"]
    expected = 0.0
    for i in range(n):  # the same games with every seat at normal; count what the easy seats' places won
        order = levels[i % 3:] + levels[:i % 3]
        winners = get_game("us-president").result(play_levels(get_game("us-president"), ["normal"] * 3, 8 + i)).winners
        expected += sum(1.0 for w in winners if order[w] == "easy") / len(winners)
    assert control["wins"] == round(expected, 2) and control["win_rate"] == round(expected / (2 * n), 3)
    assert "adjusted" in control  # normal against itself over whole rotations: its share is known


def test_simulate_control_on_the_command_line():
    from tests.test_cli import cli
    proc = cli("simulate", "us-president", "--levels", "easy,normal", "--control", "normal", "-n", "2")
    assert json.loads(proc.stdout)["control"]["games"] == 2
    bad = cli("simulate", "us-president", "--levels", "easy,normal", "--control", "genius", "-n", "1")
    assert bad.returncode != 0 and "'genius' is not an AI level" in bad.stderr + bad.stdout
    alone = cli("simulate", "us-president", "--control", "normal", "-n", "1")
    assert alone.returncode != 0 and "--control goes with --levels" in alone.stderr + alone.stdout


def test_a_hint_is_hards_move_with_its_chance_to_win():
    from engines.search import suggest
    game = get_game("primary-general")
    for state, seat in _positions("primary-general")[:2]:
        action, chance = suggest(game, state, seat, Rng(5), iterations=ITERATIONS)
        assert action == choose(game, state, seat, "hard", Rng(5), iterations=ITERATIONS)
        assert chance is not None and 0.0 <= chance <= 1.0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_searchs_candidates_are_legal_and_lead_with_the_heuristics_move(game_id):
    """`hard` widens through `candidates` in order, so the heuristic is its prior: the list is
    legal, has no repeats, and starts with the move `normal` makes from the same stream."""
    from engines.search.ismcts import candidates
    game = get_game(game_id)
    checked = 0
    for state, seat in _positions(game_id, seeds=range(6), moves=20):
        listed = candidates(game, state, seat, Rng(8))
        legal = game.legal_actions(state, seat)
        assert listed and all(a in legal for a in listed) and len(set(listed)) == len(listed)
        assert listed[0] == game.ai_action(state, seat, Rng(8))
        checked += 1
    assert checked


@pytest.mark.parametrize("game_id", ["politics-1952", "race-white-house", "politics-trivia"])
def test_a_games_shortlist_leaves_out_moves_no_player_weighs_apart(game_id):
    """Where the legal moves are many (a county in each state of a group split every way, a block
    of votes at a time, a flight to anywhere), the game's `ai_candidates` lists fewer."""
    game = get_game(game_id)
    shorter = 0
    for seed in range(3):
        state = game.setup([Seat(name="A", bot=True), Seat(name="B", bot=True)], game.options({}), seed)
        moves = 0
        while not game.result(state).finished and moves < 300 and not shorter:
            acting = [s for s in game.to_act(state) if s >= 0]
            if not acting or not game.legal_actions(state, acting[0]):
                timer = game.timer(state)
                game.apply_in_place(state, timer.seat, game.parse_action(timer.action_text))
                continue
            seat = acting[0]
            listed = game.ai_candidates(state, seat, Rng(moves))
            if listed is not None and len(listed) < len(game.legal_actions(state, seat)) > 8:
                shorter += 1
            game.apply_in_place(state, seat, game.ai_action(state, seat, game.ai_rng(state, seat, moves)))
            moves += 1
    assert shorter


class _FakeGame:
    """What the search asks of every game and these fakes answer alike: a seeded AI stream, no
    fixed answers, no clock, and a playout may stop wherever the seat is to move."""

    def ai_rng(self, state, seat, moves=0):
        return Rng(seat + moves)

    def ai_fixed_action(self, state, seat, rng):
        return None

    def timer(self, state):
        return None

    def ai_stops_here(self, state, seat):
        return True


class _Luck(_FakeGame):
    """A game of pure luck plus a small edge, for the paired search: seat 0 picks `plain` or `edge`
    (worth 0.05 more), then seat 1 throws a die from the state's stream that moves the value by
    up to 5/6. Only common random numbers see the edge in a few rounds."""
    id = "luck"

    class State:
        def __init__(self, rng: int, picked: str | None = None, luck: float | None = None):
            self.rng, self.picked, self.luck = rng, picked, luck

    def to_act(self, state):
        return [0] if state.picked is None else [1] if state.luck is None else []

    def legal_actions(self, state, seat):
        return [_PLAIN, _EDGE] if seat == 0 and state.picked is None else [_THROW] if seat == 1 else []

    def apply_in_place(self, state, seat, action):
        if action.verb == "pick":
            state.picked = action.which
        else:
            r = Rng(state.rng)
            state.luck = r.die() / 6
            state.rng = r.state
        return []

    def result(self, state):
        from engines.core import Result
        return Result(finished=False)

    def ai_evaluate(self, state, seat):
        return (state.luck or 0.0) * 0.9 + (0.05 if state.picked == "edge" else 0.0)

    def determinize(self, state, seat, rng):
        return _Luck.State(rng.next64(), state.picked, state.luck)

    def ai_candidates(self, state, seat, rng):
        return [_PLAIN, _EDGE] if seat == 0 and state.picked is None else None

    def ai_action(self, state, seat, rng):
        return self.legal_actions(state, seat)[0]


def _luck_actions():
    from typing import ClassVar

    from engines.core import Action

    class Pick(Action):
        verb: ClassVar[str] = "pick"
        which: str

    class Throw(Action):
        verb: ClassVar[str] = "throw"

    return Pick(which="plain"), Pick(which="edge"), Throw()


_PLAIN, _EDGE, _THROW = _luck_actions()


def test_a_hint_reports_the_games_chance_to_win_and_ranks_by_its_judgement():
    """`Game.ai_chance` is the chance a hint shows a player, where a game's `ai_evaluate` ranks
    boards but is no chance to win (politics-trivia at a large table): the paired search reports its
    mean for the move it picks, and still picks by `ai_evaluate`, so the hint's move is hard's."""
    from engines.search.ismcts import paired_search
    from engines.search.levels import SearchBudget
    from engines.search.policy import Settings
    game, settings = _Luck(), Settings(paired=True, epsilon=0.0, horizon=1, margin=2.0)
    game.ai_chance = lambda state, seat: 0.125 + (0.05 if state.picked == "edge" else 0.0)  # type: ignore[attr-defined]
    state = _Luck.State(rng=1)
    ranked = paired_search(game, state, 0, [_PLAIN, _EDGE], Rng(3), SearchBudget(iterations=8), settings)
    shown = paired_search(game, state, 0, [_PLAIN, _EDGE], Rng(3), SearchBudget(iterations=8), settings, report=True)
    assert shown.action == ranked.action == _EDGE
    assert shown.win_chance == pytest.approx(0.175) and ranked.win_chance > 0.3


def test_the_paired_search_sees_a_small_edge_through_loud_dice():
    """Settings.paired: both moves meet the same throw in every round, so the edge shows at once
    and is taken; equal moves keep the heuristic's (the first); and with the dice drawn apart for
    each move (what the tree does) the same few rounds could not tell the edge from the luck."""
    from engines.search.ismcts import paired_search
    from engines.search.levels import SearchBudget
    from engines.search.policy import Settings
    game, settings = _Luck(), Settings(paired=True, epsilon=0.0, horizon=1, margin=2.0)
    state = _Luck.State(rng=1)
    found = paired_search(game, state, 0, [_PLAIN, _EDGE], Rng(3), SearchBudget(iterations=8), settings)
    assert found.action == _EDGE and found.iterations == 8
    calm = _Luck()
    calm.ai_evaluate = lambda state, seat: (state.luck or 0.0) * 0.9  # type: ignore[method-assign]
    kept = paired_search(calm, state, 0, [_PLAIN, _EDGE], Rng(3), SearchBudget(iterations=8), settings)
    assert kept.action == _PLAIN
    # the same four rounds with a fresh world for each move: the luck swamps the edge
    r, plain, edge = Rng(3), [], []
    for _ in range(4):
        for move, out in ((_PLAIN, plain), (_EDGE, edge)):
            w = game.determinize(state, 0, Rng(r.next64()))
            game.apply_in_place(w, 0, move)
            game.apply_in_place(w, 1, _THROW)
            out.append(game.ai_evaluate(w, 0))
    spread = max(abs(e - p) for p, e in zip(plain, edge))
    assert spread > 0.1  # unpaired differences are mostly luck, not the 0.05 edge


class _Turns(_FakeGame):
    """Whose move it is follows a script; `ai_evaluate` reads how far the script got. Seat 0 also
    acts once inside seat 1's turn (helping on its question), where the game may not want a
    search to stop and judge the board."""
    id = "turns"
    SCRIPT = [0, 0, 1, 0, 1, 0, 1, 0]  # 0's turn, 1's turn with 0's help inside it, 0's turn, ...
    TURN_STARTS = {0: {0, 5, 7}, 1: {2, 6}}  # where each seat's own turns begin

    class State:
        def __init__(self, at: int = 0):
            self.at = at

    def __init__(self, stops_anywhere: bool):
        self.stops_anywhere = stops_anywhere

    def to_act(self, state):
        return [self.SCRIPT[state.at]] if state.at < len(self.SCRIPT) else []

    def legal_actions(self, state, seat):
        return [_THROW] if self.to_act(state) == [seat] else []

    def apply_in_place(self, state, seat, action):
        state.at += 1
        return []

    def result(self, state):
        from engines.core import Result
        return Result(finished=state.at >= len(self.SCRIPT))

    def ai_evaluate(self, state, seat):
        return state.at / 10

    def ai_stops_here(self, state, seat):
        return self.stops_anywhere or state.at in self.TURN_STARTS[seat]

    def ai_action(self, state, seat, rng):
        return _THROW


def test_a_paired_playout_stops_only_where_the_game_lets_it_judge_the_board():
    """The paired search plays on until its seat is to move again after a rival's turn. A move of
    the seat's inside that turn (help on the rival's question) is not that point where the game says
    so (`Game.ai_stops_here`): the playout plays through it to the start of the seat's next turn."""
    from engines.search.paired import until_my_turn
    from engines.search.policy import Settings
    settings = Settings(paired=True, epsilon=0.0, horizon=1)
    for stops_anywhere, stop in ((True, 3), (False, 5)):
        world = _Turns.State(at=1)  # seat 0 has made the searched move; its turn goes on
        reward, played = until_my_turn(_Turns(stops_anywhere), world, 0, Rng(1), settings)
        assert (world.at, reward, played) == (stop, stop / 10, stop - 1)
    # two spells of rivals' turns: the next turn start after that, with the help inside passed by again
    world = _Turns.State(at=1)
    until_my_turn(_Turns(False), world, 0, Rng(1), Settings(paired=True, epsilon=0.0, horizon=2))
    assert world.at == 7


def test_at_horizon_0_a_paired_playout_stops_where_the_first_rivals_own_turn_starts():
    """At a large table (`Settings.large_table`) the paired search judges the board once the searched
    move's own turn is over, where the next rival's turn starts, instead of after every rival has
    moved: the playout does not stop at a rival's move that is not the start of its turn."""
    from engines.search.paired import until_my_turn
    from engines.search.policy import Settings
    settings = Settings(paired=True, epsilon=0.0, horizon=1, large_table=8)
    assert [settings.horizon_at(n) for n in (2, 7, 8)] == [1, 1, 0]
    assert Settings(horizon=2).horizon_at(8) == 2  # large_table 0: never shortened
    world = _Turns.State(at=1)  # seat 0 has made the searched move; its turn goes on
    reward, played = until_my_turn(_Turns(False), world, 0, Rng(1), settings, horizon=0)
    assert (world.at, reward, played) == (2, 0.2, 1)
    # seat 0 helps inside seat 1's turn: seat 1 moving on at 4 is not a turn start, seat 0's own at 5 is
    world = _Turns.State(at=3)
    until_my_turn(_Turns(False), world, 0, Rng(1), settings, horizon=0)
    assert world.at == 5


def test_head_to_head_a_paired_playout_can_look_further():
    """`Settings.two_seat_horizon` sets the horizon at a table of two alone; politics-trivia's playouts
    run through two of the rival's turns head to head (measured: +4.7 points over one on 1,036 seeds) and
    through one round of rivals at three to eight seats (at eight, two rounds won 7 of 64 where one won 8)."""
    from engines import Seat, get_game
    from engines.search.policy import Settings, rollout_settings
    settings = Settings(paired=True, horizon=1, two_seat_horizon=2, large_table=8)
    assert [settings.horizon_at(n) for n in (2, 3, 7, 8)] == [2, 1, 1, 0]
    assert Settings(horizon=3).horizon_at(2) == 3  # two_seat_horizon 0: the horizon
    game = get_game("politics-trivia")
    trivia = rollout_settings(game)
    for seats, horizon in ((2, 2), (3, 1), (8, 1)):
        state = game.setup([Seat(name=f"P{i}", bot=True) for i in range(seats)], game.options({}), 5)
        assert trivia.horizon_of(game, state) == horizon


def _root_worlds(common: bool) -> dict[str, list[int]]:
    """The worlds (determinization seeds) each root move of a race-white-house search played in, in
    visit order, with Settings.common_worlds on or off."""
    from dataclasses import replace

    from engines.search.ismcts import candidates, ismcts
    from engines.search.levels import SearchBudget
    from engines.search.policy import rollout_settings
    game = get_game("race-white-house")
    state, seat = None, None
    for s, who in _positions("race-white-house", seeds=range(12), moves=30):
        if len(candidates(game, s, who, Rng(1))) >= 3:
            state, seat = s, who
            break
    assert state is not None, "no position with three moves to weigh"
    log: list[tuple[str, object]] = []

    class Recording(type(game)):  # type: ignore[misc]
        def determinize(self, st, sn, rng):
            log.append(("world", rng.state))
            return super().determinize(st, sn, rng)

        def apply_in_place(self, st, sn, action):
            log.append(("move", action.text()))
            return super().apply_in_place(st, sn, action)

    settings = replace(rollout_settings(game), common_worlds=common)
    ismcts(Recording(), state, seat, game.legal_actions(state, seat), Rng(5), SearchBudget(iterations=40), settings)
    by_move: dict[str, list[int]] = {}
    for i, (kind, what) in enumerate(log):
        if kind == "world":
            by_move.setdefault(str(log[i + 1][1]), []).append(int(what))  # the root move comes right after
    assert len(by_move) >= 2
    return by_move


def test_common_worlds_compare_root_moves_on_the_same_draws():
    """With Settings.common_worlds the k-th visit of every root move plays in the same world, so
    siblings are compared on the same dice; without it every iteration draws its own."""
    def shared_prefix(by_move: dict[str, list[int]]) -> bool:
        lists = list(by_move.values())
        return all(a[:min(len(a), len(b))] == b[:min(len(a), len(b))] for a in lists for b in lists)

    assert shared_prefix(_root_worlds(common=True))
    assert not shared_prefix(_root_worlds(common=False))


def test_common_worlds_is_off_by_default_for_other_games():
    from engines.search.policy import SETTINGS, Settings
    assert Settings().common_worlds is False
    assert [g for g, s in SETTINGS.items() if s.common_worlds] in ([], ["race-white-house"])


class _Ended:
    """A finished game whose `winners` won, its seats grouped into `sides` (Game.teams)."""

    def __init__(self, winners: list[int], sides: list[list[int]]):
        self.winners, self.sides = winners, sides

    def result(self, state):
        from engines.core import Result
        return Result(finished=True, winners=self.winners)

    def teams(self, state):
        return self.sides


def test_a_playouts_win_is_whole_for_team_mates_and_shared_only_with_rival_winners():
    """A team's win is worth 1 to each of its seats, as `Game.ai_evaluate` scores a board still in
    play; a tie between rivals splits it."""
    from engines.search.policy import value
    party_won = _Ended([0, 3], [[0, 3], [1, 2]])
    assert [value(party_won, None, s) for s in range(4)] == [1.0, 0.0, 0.0, 1.0]
    tie = _Ended([0, 2], [[0], [1], [2]])
    assert [value(tie, None, s) for s in range(3)] == [0.5, 0.0, 0.5]


def test_a_four_player_race_won_is_a_whole_win_to_both_running_mates():
    from bot.simulate import play_levels
    from engines.search.policy import value
    game = get_game("race-white-house")
    state = play_levels(game, ["normal"] * 4, seed=3)
    winners = game.result(state).winners
    assert len(winners) == 2 and sorted(winners) in [sorted(t) for t in game.teams(state)]
    assert [value(game, state, s) for s in range(4)] == [1.0 if s in winners else 0.0 for s in range(4)]


def test_the_paired_tally_leaves_the_first_move_only_for_a_gain_clear_of_its_error():
    """PairedTally.choice: a gain is measured against the first move in the same worlds; the largest
    gain whose mean is `margin` standard errors above zero wins, else the first is kept."""
    from engines.search.paired import PairedTally
    tally = PairedTally(moves=3)
    for first, steady, wild in ((0.5, 0.52, 0.9), (0.4, 0.42, 0.1), (0.6, 0.62, 0.95), (0.5, 0.52, 0.3)):
        tally.add([first, steady, wild])
    assert tally.rounds == 4
    assert tally.gain(1) == pytest.approx(0.02) and tally.error(1) == pytest.approx(0.0)
    assert tally.gain(2) == pytest.approx(0.0625) and tally.error(2) > 0.1
    assert tally.choice(margin=2.0) == 1        # the steady small gain, not the larger loud one
    assert tally.choice(margin=0.0) == 2        # with no margin, the largest mean
    one = PairedTally(moves=2)
    one.add([0.1, 0.9])
    assert one.error(1) == float("inf") and one.choice(margin=0.0) == 0  # one round proves nothing


def _screen_tool():
    """tools/screen_search.py, loaded as a module (tools/ is not a package)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "tools" / "screen_search.py"
    spec = importlib.util.spec_from_file_location("screen_search", path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_search_screen_tool_scores_margins_against_a_kept_reference(tmp_path, capsys):
    """tools/screen_search.py: a reference per decision, kept in its cache and read back (not searched
    again), and one line per margin, the second paired with the first."""
    tool = _screen_tool()
    cache = tmp_path / "ref.json"
    argv = ["politics-1952", "--seeds", "300-300", "--every", "40", "--reference", "6", "--budget", "16",
            "--margins", "2,0", "--reps", "1", "--cache", str(cache)]
    tool.main(argv)
    first = capsys.readouterr()
    kept = json.loads(cache.read_text())
    assert kept["key"]["reference"] == 6 and kept["decisions"]
    assert all(len(d["moves"]) == len(d["gains"]) > 1 and d["gains"][0] == 0.0 for d in kept["decisions"])
    assert "reference 1/" in first.err
    lines = first.out.strip().splitlines()
    assert lines[0].startswith(f"politics-1952: {len(kept['decisions'])} decisions")
    assert lines[1].startswith("margin 2, 16 playouts: gains") and "against the first" not in lines[1]
    assert lines[2].startswith("margin 0, 16 playouts: gains") and "against the first margin" in lines[2]
    tool.main(argv)
    again = capsys.readouterr()
    assert "reference" not in again.err and again.out == first.out  # read back, and the same figures
    with pytest.raises(SystemExit):
        tool.main(["us-president"])  # not a paired game: one sentence from argparse
    assert "not searched by the paired search" in capsys.readouterr().err


def test_the_search_screen_tool_tries_other_horizons_against_a_longer_reference(tmp_path, capsys):
    """--reference-horizon makes the yardstick play on further (kept under its own key, so a cache of
    the search's own horizon is not read for it); each --try is one more setting, paired with the first."""
    tool = _screen_tool()
    cache = tmp_path / "ref.json"
    common = ["politics-1952", "--seeds", "300-300", "--every", "40", "--reference", "6", "--budget", "16",
              "--margins", "2", "--reps", "1", "--cache", str(cache)]
    tool.main(common)
    own = json.loads(cache.read_text())
    capsys.readouterr()
    tool.main(common + ["--reference-horizon", "3", "--try", "horizon=2 budget=8", "--try", "margin=0"])
    out = capsys.readouterr()
    longer = json.loads(cache.read_text())
    assert "reference 1/" in out.err  # not the search's own horizon's reference, read back
    assert longer["key"]["reference_horizon"] == 3 and "reference_horizon" not in own["key"]
    assert [d["moves"] for d in longer["decisions"]] == [d["moves"] for d in own["decisions"]]
    assert [d["gains"] for d in longer["decisions"]] != [d["gains"] for d in own["decisions"]]
    lines = out.out.strip().splitlines()
    assert lines[1].startswith("margin 2, 16 playouts: gains")
    assert lines[2].startswith("horizon=2 budget=8: margin 2, horizon 2, 8 playouts: gains")
    assert lines[3].startswith("margin=0: margin 0, horizon 1, 16 playouts: gains")
    assert all("against the first margin" in line for line in lines[2:])
    one = ["politics-1952", "--players", "6", "--seeds", "300-300", "--every", "200", "--reference", "2",
           "--budget", "8", "--margins", "2", "--reps", "1", "--try", "margin=1", "--try", "horizon=1"]
    tool.main(one)  # one search of one decision: a difference, and no standard error to divide out
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("politics-1952: 1 decisions")
    assert "margin 1, horizon 0, 8 playouts" in lines[2]  # six seats judge at the next rival's throw
    assert "horizon 1, 8 playouts" in lines[3] and "standard error" not in lines[3]
    for bad in ("depth=2", "horizon=two", "horizon"):
        with pytest.raises(SystemExit):
            tool.main(common + ["--try", bad])
        assert "--try" in capsys.readouterr().err
