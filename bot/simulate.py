"""Headless AI-vs-AI (or random) games straight through the engine contract."""
from __future__ import annotations

import statistics
import time
from collections import Counter
from random import Random

from engines import Game, Seat, SYSTEM, get_game


def play_one(game: Game, players: int, seed: int, ai_seats: set[int], options: dict | None = None,
             max_actions: int = 200_000) -> tuple[object, int]:
    """Play one game; seats in ai_seats use ai_action, others pick uniformly at random. When AI seats
    play random ones (a strength test), a random seat moves as the game says is fair where a uniform
    pick would not be (Game.fair_random_action: a trivia seat answers as often right as an AI seat
    and never votes to wrap up); all-random games (what `bench` times) stay uniform throughout.
    Engine timers fire at once (nobody answers in time)."""
    seats = [Seat(name=f"P{i + 1}", bot=True) for i in range(players)]
    state = game.setup(seats, game.options(options or {}), seed)
    # The random seats' picks are the harness's, not the game's: they never enter a saved state,
    # so they come from the standard library's C generator (seeded, so a game replays) rather than
    # from the engines' pure-Python one, which cost up to a tenth of a random game. A pick is
    # int(random() * n), written out where it is used (a helper call per move was 2% of a game).
    random = Random(seed ^ 0x5EED).random
    actions = 0
    # bound once: this loop is what `bench` measures for every game
    result, to_act, legal_actions, apply = game.result, game.to_act, game.legal_actions, game.apply_in_place
    overridden = type(game).fair_random_action is not Game.fair_random_action
    fair = game.fair_random_action if ai_seats and overridden else None
    while not result(state).finished:
        if actions >= max_actions:
            raise RuntimeError(f"{game.id}: no end after {max_actions} actions (seed {seed})")
        acting = to_act(state)
        if SYSTEM in acting:
            acting = [s for s in acting if s >= 0]
        if not acting:
            timer = game.timer(state)
            if timer is None:
                raise RuntimeError(f"{game.id}: nobody can act and no timer runs (seed {seed})")
            apply(state, timer.seat, game.parse_action(timer.action_text))
            actions += 1
            continue
        seat = acting[0] if len(acting) == 1 else acting[int(random() * len(acting))]
        if seat in ai_seats:
            action = game.ai_action(state, seat, game.ai_rng(state, seat, actions))  # as the bot does
        elif fair is not None and (picked := fair(state, seat, random)) is not None:
            action = picked
        else:
            legal = legal_actions(state, seat)
            if not legal:
                timer = game.timer(state)
                if timer is None:
                    raise RuntimeError(f"{game.id}: seat {seat} must act but has no legal action (seed {seed})")
                apply(state, timer.seat if timer.seat != seat else SYSTEM, game.parse_action(timer.action_text))
                actions += 1
                continue
            action = legal[int(random() * len(legal))]
        apply(state, seat, action)
        actions += 1
    return state, actions


def simulate(game_id: str, n: int, players: int | None = None, seed: int = 0,
             ai_seats: set[int] | None = None, options: dict | None = None) -> dict:
    game = get_game(game_id)
    players = players or game.min_players
    ai_seats = ai_seats or set()
    wins: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    finished = errors = actions = 0
    rounds: list[int] = []  # the round a game ended in, for games whose state counts rounds
    first_error = None
    start = time.perf_counter()
    for i in range(n):
        try:
            state, count = play_one(game, players, seed + i, ai_seats, options)
        except Exception as exc:  # report, don't stop the batch
            errors += 1
            first_error = first_error or f"{type(exc).__name__}: {exc}"
            continue
        finished += 1
        actions += count
        ended_in = getattr(state, "round", None)
        if isinstance(ended_in, int):
            rounds.append(ended_in)
        result = game.result(state)
        endings[result.ending] += 1
        for w in result.winners:
            wins[str(w)] += 1
    seconds = time.perf_counter() - start
    out = {
        "game": game_id, "games": n, "players": players, "finished": finished, "errors": errors,
        "seconds": round(seconds, 4), "games_per_second": round(n / seconds, 2) if seconds else None,
        "actions": actions, "actions_per_second": round(actions / seconds, 1) if seconds else None,
        "winners": {str(s): wins.get(str(s), 0) for s in range(players)},
        "ai_seats": sorted(ai_seats),
    }
    if len(rounds) >= 2:
        deciles = statistics.quantiles(rounds, n=10, method="inclusive")
        out["rounds"] = {"median": statistics.median(rounds), "p10": deciles[0], "p90": deciles[-1],
                         "max": max(rounds)}
    if game.endings:  # how the finished games ended, e.g. politics-trivia's 270 / runoff / speed / limit
        out["endings"] = {kind: endings.get(kind, 0) for kind in game.endings}
    if first_error:
        out["first_error"] = first_error
    return out


# ---- levels against each other (issue #27) -------------------------------------------------

def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson interval of a win rate (a shared win counts its share)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_levels(game: Game, levels: list[str], seed: int, options: dict | None = None,
                iterations: int | None = None, budget_ms: float | None = None,
                times: dict[str, list[float]] | None = None, max_actions: int = 200_000):
    """One game with seat i played at levels[i] (engines.search.choose, as the bot would call it);
    each AI move's time is added to times[level]. Engine timers fire at once."""
    from engines.search import choose
    seats = [Seat(name=f"P{i + 1}", bot=True) for i in range(len(levels))]
    state = game.setup(seats, game.options(options or {}), seed)
    actions = 0
    while not game.result(state).finished:
        if actions >= max_actions:
            raise RuntimeError(f"{game.id}: no end after {max_actions} actions (seed {seed})")
        acting = [s for s in game.to_act(state) if s >= 0]
        if not acting or not game.legal_actions(state, acting[0]):
            timer = game.timer(state)
            if timer is None:
                raise RuntimeError(f"{game.id}: nobody can act and no timer runs (seed {seed})")
            who = timer.seat if not acting or timer.seat != acting[0] else SYSTEM
            game.apply_in_place(state, who, game.parse_action(timer.action_text))
            actions += 1
            continue
        seat = acting[0]
        level = levels[seat]
        start = time.perf_counter()
        action = choose(game, state, seat, level, game.ai_rng(state, seat, actions),
                        budget_ms=budget_ms, iterations=iterations, clock=time.perf_counter)
        if times is not None:
            times.setdefault(level, []).append(time.perf_counter() - start)
        game.apply_in_place(state, seat, action)
        actions += 1
    return state


def simulate_levels(game_id: str, levels: list[str], n: int, seed: int = 0, options: dict | None = None,
                    iterations: int | None = None, budget_ms: float | None = None,
                    control: str | None = None) -> dict:
    """`simulate GAME --levels a,b,…`: n games, one level per seat in seat order; game i rotates the
    seats by i (at two players the levels swap seats every other game, so neither keeps the first
    move). Wins per level with a 95 % interval; move times (ms) per level. With `control`, every game
    is played again with the first level's seats at `control` (`Paired`)."""
    game = get_game(game_id)
    k = len(levels)
    if not game.min_players <= k <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {k}.")
    wins: dict[str, float] = dict.fromkeys(levels, 0.0)
    seats_of: Counter[str] = Counter()
    by_seat: dict[int, float] = dict.fromkeys(range(k), 0.0)
    times: dict[str, list[float]] = {}
    errors, first_error = 0, None
    paired = Paired(control, levels) if control is not None else None
    start = time.perf_counter()
    for i in range(n):
        shift = i % k
        order = levels[shift:] + levels[:shift]
        try:
            state = play_levels(game, order, seed + i, options, iterations, budget_ms, times)
            if paired is not None:
                again = play_levels(game, paired.order(order), seed + i, options, iterations, budget_ms)
        except Exception as exc:  # report, don't stop the batch
            errors += 1
            first_error = first_error or f"{type(exc).__name__}: {exc}"
            continue
        result = game.result(state)
        for level in order:
            seats_of[level] += 1
        share = 1.0 / len(result.winners) if result.winners else 0.0
        for w in result.winners:
            wins[order[w]] += share
            by_seat[w] += share
        if paired is not None:
            paired.add(_share_of(result.winners, order, levels[0]),
                       _share_of(game.result(again).winners, order, levels[0]))
    games = n - errors
    report: dict = {"game": game_id, "levels": levels, "games": games, "errors": errors,
                    "iterations": iterations, "budget_ms": budget_ms,
                    "seconds": round(time.perf_counter() - start, 1), "by_level": {}}
    for level in dict.fromkeys(levels):
        seat_games = seats_of[level]
        lo, hi = wilson(wins[level], seat_games)
        ms = sorted(t * 1000 for t in times.get(level, []))
        report["by_level"][level] = {
            "seats": levels.count(level), "seat_games": seat_games, "wins": round(wins[level], 2),
            "win_rate": round(wins[level] / seat_games, 3) if seat_games else None,
            "interval95": [round(lo, 3), round(hi, 3)],
            "fair_share": round(levels.count(level) / k, 3),
            "move_ms_p50": round(ms[len(ms) // 2], 2) if ms else None,
            "move_ms_p99": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2) if ms else None,
            "moves": len(ms),
        }
    report["wins_by_seat"] = {str(s): round(by_seat[s], 2) for s in range(k)}
    if paired is not None:
        report["control"] = paired.report(1.0 / k, balanced=games % k == 0 and not errors)
    if first_error:
        report["first_error"] = first_error
    return report


def _share_of(winners: list[int], order: list[str], level: str) -> float:
    """What the seats played at `level` won of one game (a tie shares it)."""
    if not winners:
        return 0.0
    return sum(1.0 for w in winners if order[w] == level) / len(winners)


class Paired:
    """`simulate --levels a,b,… --control c`: each game is played twice from the same seed, once as
    asked and once with the first level's seats played at `c`. The same seed deals the same cards,
    questions and dice until the two games' moves part, so the difference between the first level's
    result and the control's in the same game measures the level with much of the luck taken out:
    a run's seeds can favour a seat by several points, and the control shows by how much.

    When every other seat plays at `c` too, the control game is `c` against itself, whose share over
    whole rotations of the seats is exactly the fair one; the `adjusted` win rate then subtracts the
    part of the control's luck that the level shared (a regression, or control-variate, estimate),
    with its own 95 % interval. It estimates the same win rate as the plain count, with a narrower
    interval when the two games' results go together."""

    def __init__(self, control: str, levels: list[str]):
        self.control = control
        self.first = levels[0]
        self.symmetric = all(level == control for level in levels[1:] if level != self.first)
        self.seats = levels.count(self.first)
        self.played: list[tuple[float, float]] = []  # a game's wins per seat: (the level's, the control's)

    def order(self, order: list[str]) -> list[str]:
        return [self.control if level == self.first else level for level in order]

    def add(self, level_share: float, control_share: float) -> None:
        self.played.append((level_share / self.seats, control_share / self.seats))

    def report(self, fair: float, balanced: bool) -> dict:
        """`fair`: a seat's fair share; `balanced`: every game played, over whole rotations."""
        n = len(self.played)
        xs = [x for x, _ in self.played]
        ys = [y for _, y in self.played]
        out: dict = {"level": self.control, "games": n, "wins": round(sum(ys) * self.seats, 2),
                     "win_rate": round(sum(ys) / n, 3) if n else None}
        if n < 2:
            return out
        diffs = [x - y for x, y in self.played]
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / n ** 0.5
        out["difference"] = round(mean, 3)
        out["difference95"] = [round(mean - half, 3), round(mean + half, 3)]
        var_y = statistics.variance(ys)
        if self.symmetric and balanced and var_y > 0:
            beta = statistics.covariance(xs, ys) / var_y
            residuals = [x - beta * (y - fair) for x, y in self.played]
            centre = statistics.fmean(residuals)
            half = 1.96 * statistics.stdev(residuals) / n ** 0.5
            out["adjusted"] = {"win_rate": round(centre, 3), "interval95": [round(centre - half, 3),
                                                                          round(centre + half, 3)],
                               "beta": round(beta, 3)}
        return out
