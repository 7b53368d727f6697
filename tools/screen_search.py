"""How much of what the paired search's own yardstick offers does a setting of it take? A screen by
decisions, not games, for the games searched by `Settings.paired` (politics-trivia, politics-1952).

    python tools/screen_search.py politics-trivia --margins 2,1,0.5 --budget 384
    python tools/screen_search.py politics-1952 --margins 2,1 --budget 160 --seeds 300-302 --every 6 --reference 512
    python tools/screen_search.py politics-1952 --margins 2 --budget 160 --seeds 300-308 --every 6 \
        --reference 256 --reference-horizon 4 --try "horizon=2" --try "horizon=1 budget=640"

Why: a setting of hard (its margin, its budget) moves its win rate against normal by a point or two,
and a point takes thousands of games to see. A decision can be judged far more cheaply:
1. Decisions are taken from normal-against-normal games (`--seeds`, every `--every`-th decision where
   the searching seat has at least two shortlisted moves and is not answering a question).
2. For each, a reference search weighs every shortlisted move over `--reference` rounds of common
   worlds (engines/search/paired.py `weigh`): each move's mean gain over the heuristic's move, at the
   search's own horizon and evaluation. Kept in `--cache` (JSON), as it takes most of the time.
3. Each setting then searches each decision `--reps` times from other seeds, at `--budget` playouts,
   and is scored by the reference's gain of the move it picked (0 for the heuristic's move).
   `--try "horizon=2 budget=80"` adds a setting with another horizon, budget or margin.
The mean over decisions is the gain a setting takes, set beside the reference's best (an upper bound,
and biased up: it is the largest of several noisy means). A difference between two settings is paired
decision by decision, with its standard error. What it cannot see: whether the search's yardstick (its
horizon, where a playout may stop (`Game.ai_stops_here`) and `Game.ai_evaluate`) is right; only games
show that. A reference that plays on further than the settings do (`--reference-horizon`) is a
longer yardstick, and one that favours no setting's own horizon.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import replace

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engines import get_game  # noqa: E402
from engines.core import SYSTEM, Game, Seat  # noqa: E402
from engines.rng import Rng  # noqa: E402
from engines.search.budget import SearchBudget  # noqa: E402
from engines.search.ismcts import candidates  # noqa: E402
from engines.search.paired import weigh  # noqa: E402
from engines.search.policy import Settings, rollout_settings  # noqa: E402


def decisions(game: Game, seeds: range, every: int, players: int, shortlist: int) -> list[tuple]:
    """(state, seat, shortlisted moves) at every `every`-th searchable decision of normal-vs-normal games."""
    out = []
    for seed in seeds:
        seats = [Seat(name=f"P{i + 1}", bot=True) for i in range(players)]
        state = game.setup(seats, game.options({}), seed)
        moves = searchable = 0
        while not game.result(state).finished:
            acting = [s for s in game.to_act(state) if s >= 0]
            if not acting or not game.legal_actions(state, acting[0]):
                timer = game.timer(state)
                assert timer is not None, "nobody can act and no timer runs"
                who = timer.seat if not acting or timer.seat != acting[0] else SYSTEM
                game.apply_in_place(state, who, game.parse_action(timer.action_text))
                moves += 1
                continue
            seat = acting[0]
            legal = game.legal_actions(state, seat)
            if len(legal) > 1 and game.ai_fixed_action(state, seat, game.ai_rng(state, seat, moves)) is None:
                options = candidates(game, state, seat, Rng(moves), legal)[:shortlist or None]
                if len(options) > 1:
                    searchable += 1
                    if searchable % every == 0:
                        out.append((game.clone(state), seat, options))
            game.apply_in_place(state, seat, game.ai_action(state, seat, game.ai_rng(state, seat, moves)))
            moves += 1
    return out


def reference(game: Game, found: list[tuple], rounds: int, settings: Settings, cache: str | None,
              key: dict) -> list[list[float]]:
    """Each decision's moves' mean gains over the heuristic's, over `rounds` common worlds."""
    if cache and os.path.exists(cache):
        with open(cache) as f:
            kept = json.load(f)
        if kept.get("key") == key and [d["moves"] for d in kept["decisions"]] == \
                [[a.text() for a in opts] for _, _, opts in found]:
            return [d["gains"] for d in kept["decisions"]]
    gains = []
    for j, (state, seat, options) in enumerate(found):
        tally = weigh(game, state, seat, options, Rng(10**9 + j),
                      SearchBudget(iterations=rounds * len(options)), settings)
        gains.append([tally.gain(i) for i in range(len(options))])
        print(f"reference {j + 1}/{len(found)}", file=sys.stderr, flush=True)
    if cache:
        with open(cache, "w") as f:
            json.dump({"key": key, "decisions": [{"moves": [a.text() for a in opts], "gains": g}
                                                 for (_, _, opts), g in zip(found, gains)]}, f)
    return gains


def screen(game: Game, found: list[tuple], gains: list[list[float]], settings: Settings, budget: int,
           reps: int) -> tuple[list[float], int]:
    """The reference gain of the move the setting picks, per decision and rep; how often it left the first."""
    taken, left = [], 0
    for j, ((state, seat, options), g) in enumerate(zip(found, gains)):
        for r in range(reps):
            tally = weigh(game, state, seat, options, Rng(7919 * j + r), SearchBudget(iterations=budget), settings)
            pick = tally.choice(settings.margin)
            taken.append(g[pick])
            left += pick != 0
    return taken, left


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seeds", default="300-305", help="first-last game seed of the normal games (default 300-305)")
    ap.add_argument("--every", type=int, default=4, help="take every N-th searchable decision (default 4)")
    ap.add_argument("--reference", type=int, default=1024, help="rounds of the reference search (default 1024)")
    ap.add_argument("--budget", type=int, default=384, help="playouts a move for the settings screened")
    ap.add_argument("--margins", default="2,1", help="margins to screen, comma-separated (default 2,1)")
    ap.add_argument("--reps", type=int, default=3, help="searches per decision and setting (default 3)")
    ap.add_argument("--cache", help="a JSON file that keeps the reference between runs")
    ap.add_argument("--reference-horizon", type=int,
                    help="the reference plays on through this many spells of rivals' turns (default: the search's)")
    ap.add_argument("--try", dest="tries", action="append", default=[], metavar='"KEY=VALUE …"',
                    help='one more setting after the margins, e.g. "horizon=2 budget=80" (horizon, budget, '
                         'margin; the rest as the first margin); repeatable')
    args = ap.parse_args(argv)
    game = get_game(args.game)
    base = rollout_settings(game)
    if not base.paired:
        ap.error(f"{args.game} is not searched by the paired search (Settings.paired)")
    margins = [float(x) for x in args.margins.split(",")]
    runs = [(f"margin {m:g}, {args.budget} playouts", replace(base, margin=m), args.budget) for m in margins]
    for text in args.tries:
        try:
            tried = {k: float(v) for k, v in (pair.split("=") for pair in text.split())}
        except ValueError:
            ap.error(f'--try takes KEY=VALUE pairs, e.g. "horizon=2 budget=80", not {text!r}')
        if not tried or set(tried) - {"horizon", "budget", "margin"}:
            ap.error(f"--try sets horizon, budget or margin, not {text!r}")
        settings = replace(base, margin=tried.get("margin", margins[0]))
        if "horizon" in tried:
            settings = at_horizon(settings, int(tried["horizon"]))
        budget = int(tried.get("budget", args.budget))
        horizon = settings.horizon_at(args.players)
        runs.append((f"{text}: margin {settings.margin:g}, horizon {horizon}, {budget} playouts",
                     settings, budget))
    lo, hi = (int(x) for x in args.seeds.split("-"))
    found = decisions(game, range(lo, hi + 1), args.every, args.players, base.shortlist)
    key = {"game": args.game, "players": args.players, "seeds": args.seeds, "every": args.every,
           "reference": args.reference}
    yardstick = base
    if args.reference_horizon is not None:
        key["reference_horizon"] = args.reference_horizon
        yardstick = at_horizon(base, args.reference_horizon)
    gains = reference(game, found, args.reference, yardstick, args.cache, key)
    best = sum(max(g) for g in gains) / len(gains)
    print(f"{args.game}: {len(found)} decisions; the reference's best move gains {best:.5f} a decision "
          f"over the heuristic's (an upper bound, biased up)")
    first: list[float] | None = None
    for label, settings, budget in runs:
        taken, left = screen(game, found, gains, settings, budget, args.reps)
        mean = sum(taken) / len(taken)
        share = f" ({100 * mean / best:.0f} % of the best)" if best > 0 else ""
        line = f"{label}: gains {mean:.5f} a decision{share}; left the heuristic's move in {left} of {len(taken)}"
        if first is None:
            first = taken
        else:
            d = [b - a for a, b in zip(first, taken)]
            m = sum(d) / len(d)
            line += f"; against the first margin {m:+.5f}"
            if len(d) > 1:  # one search of one decision has no spread
                se = math.sqrt(max(0.0, sum(x * x for x in d) / len(d) - m * m) / (len(d) - 1))
                line += f" (standard error {se:.5f})"
        print(line, flush=True)


def at_horizon(settings: Settings, horizon: int) -> Settings:
    """`settings` with playouts that stop after `horizon` spells of rivals' turns at every table size."""
    return replace(settings, horizon=horizon, two_seat_horizon=0, large_table=0)


if __name__ == "__main__":
    main()
