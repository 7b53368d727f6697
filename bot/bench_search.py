"""`politics-bot bench --search`: how fast `hard` searches (issue #27's states per second).

Each game's search runs from the same positions every time (its normal AI plays the first moves of
a 2-player game from fixed seeds) at a fixed number of iterations, the budget its strength runs in
docs/games/*.md use, so only the machine's speed changes between runs. Like every bench figure it
is read against a floor timed in the same run: the reference workload of bench.py (shuffles of a
56-card deck with the engines' own RNG), so a busy machine slows both.

Where a game's `hard` plays normal's move (`Settings.search` off in engines/search/policy.py: no
search has beaten normal's play there yet; today every game's hard searches), its row times the
search that would run were it on, and says so.
"""
from __future__ import annotations

import time
from dataclasses import replace

from engines import Game, Seat, get_game
from engines.rng import Rng
from engines.search.ismcts import ismcts
from engines.search.levels import SearchBudget
from engines.search.policy import rollout_settings

from .bench import reference_speed

# The iterations a move of the strength runs (docs/games/*.md, "AI levels"): a move's search at
# these is about what the default 1,000 ms budget buys on a quiet core.
ITERATIONS = {"primary-general": 100, "us-president": 25, "politics-1952": 160, "race-white-house": 100,
              "politics-trivia": 360}
SEEDS = (1, 2, 3)
OPENING_MOVES = 10  # the normal AI's moves before a position is searched


def positions(game: Game, seeds: tuple[int, ...] = SEEDS, moves: int = OPENING_MOVES) -> list[tuple[object, int]]:
    """(state, seat) after `moves` of the normal AI from each seed, at the first move from there
    with more than one legal choice (what a search weighs)."""
    out: list[tuple[object, int]] = []
    for seed in seeds:
        state = game.setup([Seat(name=f"P{i + 1}", bot=True) for i in range(2)], game.options({}), seed)
        played = 0
        while not game.result(state).finished:
            acting = [s for s in game.to_act(state) if s >= 0]
            if not acting or not game.legal_actions(state, acting[0]):
                timer = game.timer(state)
                if timer is None:
                    break
                game.apply_in_place(state, timer.seat, game.parse_action(timer.action_text))
                continue
            seat = acting[0]
            if played >= moves and len(game.legal_actions(state, seat)) > 1 \
                    and game.ai_fixed_action(state, seat, game.ai_rng(state, seat, played)) is None:
                out.append((state, seat))
                break
            game.apply_in_place(state, seat, game.ai_action(state, seat, game.ai_rng(state, seat, played)))
            played += 1
    return out


def bench_search(game_id: str, repeats: int = 3) -> dict:
    """One game's search speed: iterations, states (moves applied in the tree and the playouts)
    and state copies per second, each search the fastest of `repeats` (as timeit does: other jobs
    only ever slow a run down), and states per 1,000 reference shuffles."""
    game = get_game(game_id)
    settings = replace(rollout_settings(game), search=True)
    iterations = ITERATIONS.get(game_id, 100)
    reference = max(reference_speed() for _ in range(repeats))
    found = positions(game)
    total_iterations = total_states = 0
    seconds = 0.0
    for i, (state, seat) in enumerate(found):
        legal = game.legal_actions(state, seat)
        best = None
        for _ in range(repeats):
            start = time.perf_counter()
            result = ismcts(game, state, seat, legal, Rng(1000 + i), SearchBudget(iterations=iterations), settings)
            took = time.perf_counter() - start
            if best is None or took < best[0]:
                best = (took, result.iterations, result.states)
        assert best is not None
        seconds += best[0]
        total_iterations += best[1]
        total_states += best[2]
    copies = 200
    clone_seconds = min(_time_clones(game, found[0][0], copies) for _ in range(repeats)) if found else 0.0
    states_per_second = total_states / seconds if seconds else 0.0
    return {
        "positions": len(found), "iterations_a_move": iterations,
        "iterations_per_second": round(total_iterations / seconds, 1) if seconds else 0.0,
        "states_per_second": round(states_per_second),
        "clones_per_second": round(copies / clone_seconds) if clone_seconds else 0,
        "move_ms": round(1000 * seconds / len(found), 1) if found else 0.0,
        "reference_shuffles_per_second": round(reference),
        "states_per_1000_shuffles": round(1000 * states_per_second / reference, 1),
        "searches_now": rollout_settings(game).search,
    }


def _time_clones(game: Game, state: object, copies: int) -> float:
    start = time.perf_counter()
    for _ in range(copies):
        game.clone(state)
    return time.perf_counter() - start


def run_search_bench(games: list[str] | None = None, quick: bool = False) -> dict:
    return {game_id: bench_search(game_id, 1 if quick else 3) for game_id in games or sorted(ITERATIONS)}


def markdown_search(results: dict) -> str:
    """The figures as the table in docs/performance.md ("States searched per second")."""
    lines = ["| game | iterations a move | a move (ms) | iterations/s | states/s | clones/s "
             "| states per 1,000 reference shuffles |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for game_id, r in results.items():
        name = game_id if r["searches_now"] else f"{game_id} (hard plays normal's move; the search if it were on)"
        lines.append(f"| {name} | {r['iterations_a_move']} | {r['move_ms']:,} | {r['iterations_per_second']:,} "
                     f"| {r['states_per_second']:,} | {r['clones_per_second']:,} | {r['states_per_1000_shuffles']:,} |")
    return "\n".join(lines) + "\n"
