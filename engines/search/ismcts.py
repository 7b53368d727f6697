"""`hard`: single-observer information-set MCTS (Cowling, Powley and Whitehouse's SO-ISMCTS).

One tree of the searching seat's own decisions. Every iteration draws a state from what the seat
has seen (`Game.determinize`: other seats' hands, pending picks and the random stream redrawn),
walks the tree choosing among the moves legal in *that* state by UCB with availability counts,
adds one node, and plays the rest out with the game's heuristic (policy.py). Other seats move by
the heuristic inside the tree too: their moves are part of the world the seat cannot choose, so a
node stands for the sequence of the seat's own moves (an open-loop tree), and no node ever knows
more than the seat would. The move played is the root's most visited.

The moves of a node come in the heuristic's order (`Game.ai_candidates`: the game's shortlist,
else every legal move with the heuristic's own first) and a node widens through them as its
visits grow (`Settings.widen`); the list's first (the heuristic's own move, or one the game
measured better) starts with a few visits worth its first result (`Settings.prior_visits`): with a
small budget the search keeps it unless another proves better.

With `Settings.common_worlds` the root's moves are compared on common random numbers: the root
move is chosen first, and its k-th visit plays in the k-th of one list of worlds (the same
determinization, dice and playout stream for every sibling), so where dice are loud two moves'
means differ by the moves more than by the luck of their draws.

A game whose dice or answers drown a tree's estimates (`Settings.paired`: politics-1952,
politics-trivia) is searched flat instead, with common random numbers (`paired_search`, paired.py):
every shortlisted move meets the same worlds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core import Action, Game
from ..rng import Rng
from .budget import Stopwatch
from .paired import weigh
from .policy import Settings, mover, playout, policy_action, reported, run_timer, value


@dataclass(slots=True)
class Node:
    visits: float = 0.0
    total: float = 0.0
    available: float = 0.0  # iterations in which this move was legal when its parent was reached
    boost: float = 0.0      # the candidate list's first: its first result counts this many times more
    children: dict[Action, Node] = field(default_factory=dict)


@dataclass
class SearchResult:
    action: Action
    iterations: int
    states: int  # states stepped (moves applied in tree and playouts) — the speed figure
    win_chance: float  # the chosen move's mean value
    seconds: float
    visits: dict[str, float] = field(default_factory=dict)


def ismcts(game: Game, state, seat: int, legal: list[Action], rng: Rng, budget, settings: Settings,
           report: bool = False) -> SearchResult:
    """`hard`'s search. With `report` (a hint) its win_chance is what a player is shown
    (`policy.reported`); a tree's playouts run to the end, where the two are the same."""
    if settings.paired and settings.search:  # a game whose dice drown a tree's estimates (policy.Settings)
        return paired_search(game, state, seat, legal, rng, budget, settings, report)
    watch = Stopwatch(budget)
    cap = budget.iterations
    moves0 = _moves_made(game, state)
    root = Node()
    root_options = candidates(game, state, seat, Rng(rng.next64()), legal)
    if len(root_options) == 1 or not settings.search:  # one move to weigh, or a game whose search is off
        return SearchResult(action=root_options[0], iterations=0, states=0, win_chance=value(game, state, seat),
                            seconds=0.0)
    iterations = steps = 0
    worlds: list[tuple[int, int]] = []  # common_worlds: the k-th visit of every root move plays in worlds[k]
    turns: dict[Action, int] = {}
    while True:
        if cap is not None and iterations >= cap:
            break
        if watch.out_of_time(iterations):
            break
        chosen: tuple[Action, Node] | None = None
        if settings.common_worlds:
            chosen = _select(root, root_options, settings)
            k = turns.get(chosen[0], 0)
            turns[chosen[0]] = k + 1
            while len(worlds) <= k:
                worlds.append((rng.next64(), rng.next64()))
            world = game.determinize(state, seat, Rng(worlds[k][0]))
            prng = Rng(worlds[k][1])
        else:
            world = game.determinize(state, seat, Rng(rng.next64()))
            prng = Rng(rng.next64())
        path: list[Node] = [root]
        node: Node | None = root
        moves = moves0
        reward: float | None = None
        while node is not None:
            if game.result(world).finished:
                reward = value(game, world, seat)
                break
            who = mover(game, world, seat)
            if who is None:
                if not run_timer(game, world):
                    reward = value(game, world, seat)
                    break
                moves += 1
                steps += 1
                continue
            if who != seat or game.ai_fixed_action(world, seat, game.ai_rng(world, seat, moves)) is not None:
                action = policy_action(game, world, who, moves, prng, settings)
                if action is None:
                    if not run_timer(game, world, stuck=who):
                        reward = value(game, world, seat)
                        break
                else:
                    game.apply_in_place(world, who, action)
                moves += 1
                steps += 1
                continue
            if chosen is not None and node is root:
                action, node = chosen  # common_worlds: picked before its world was drawn
            else:
                options = root_options if node is root else candidates(game, world, seat, prng)
                if not options:
                    if not run_timer(game, world, stuck=seat):
                        reward = value(game, world, seat)
                        break
                    moves += 1
                    steps += 1
                    continue
                action, node = _select(node, options, settings)
            path.append(node)
            game.apply_in_place(world, seat, action)
            moves += 1
            steps += 1
            if node.visits == 0:
                break  # a new node: play out from here
        if reward is None:
            reward, played = playout(game, world, seat, moves, prng, settings)
            steps += played
        for n in path:
            n.visits += 1 + n.boost
            n.total += (1 + n.boost) * reward
            n.boost = 0.0
        iterations += 1
    best = max(root_options, key=lambda a: (_visits(root, a), _mean(root, a)))
    return SearchResult(action=best, iterations=iterations, states=steps, win_chance=_mean(root, best),
                        seconds=watch.seconds(), visits={a.text(): c.visits for a, c in root.children.items()})


def paired_search(game: Game, state, seat: int, legal: list[Action], rng: Rng, budget,
                  settings: Settings, report: bool = False) -> SearchResult:
    """`hard` where the dice are loud (`Settings.paired`): the heuristic's shortlist weighed in
    common worlds (paired.py), its first kept unless another's gain is `settings.margin` standard
    errors clear."""
    options = candidates(game, state, seat, Rng(rng.next64()), legal)
    if settings.shortlist:
        options = options[:settings.shortlist]
    judged = reported if report else value
    if len(options) == 1:
        return SearchResult(action=options[0], iterations=0, states=0, win_chance=judged(game, state, seat),
                            seconds=0.0)
    tally = weigh(game, state, seat, options, rng, budget, settings, report)
    best = tally.choice(settings.margin)
    return SearchResult(action=options[best], iterations=tally.playouts, states=tally.states,
                        win_chance=(tally.chances if report else tally.totals)[best] / tally.rounds,
                        seconds=tally.seconds,
                        visits={a.text(): float(tally.rounds) for a in options})


def candidates(game: Game, state, seat: int, rng: Rng, legal: list[Action] | None = None) -> list[Action]:
    """The moves to weigh, best first by the heuristic (`Game.ai_candidates`, else every legal
    move with `ai_action`'s first)."""
    listed = game.ai_candidates(state, seat, rng)
    if listed:
        return listed
    if legal is None:
        legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal
    first = game.ai_action(state, seat, rng)
    return [first] + [a for a in legal if a != first]


def _select(node: Node, options: list[Action], settings: Settings) -> tuple[Action, Node]:
    """UCB among the children legal here, after widening: a node may have 1 + widen * visits**0.5
    children (all, with widen 0), added in the heuristic's order, so a small budget weighs the
    heuristic's few best moves well rather than every move once."""
    children = node.children
    for a in options:
        child = children.get(a)
        if child is not None:
            child.available += 1
    allowed = len(options)
    if settings.widen:
        allowed = max(1, int(1 + settings.widen * math.sqrt(node.visits)))
    tried = [a for a in options if a in children]
    if len(tried) < allowed:
        pick = next((a for a in options if a not in children), None)
        if pick is not None:
            first = not children and pick == options[0]
            child = Node(available=1.0, boost=settings.prior_visits if first else 0.0)
            children[pick] = child
            return pick, child
    c = settings.exploration
    best_a, best_score = tried[0], -1.0
    for a in tried:
        ch = children[a]
        score = ch.total / ch.visits + c * math.sqrt(math.log(max(ch.available, 1.0)) / ch.visits)
        if score > best_score:
            best_a, best_score = a, score
    return best_a, children[best_a]


def _visits(root: Node, a: Action) -> float:
    ch = root.children.get(a)
    return ch.visits if ch is not None else 0.0


def _mean(root: Node, a: Action) -> float:
    ch = root.children.get(a)
    return ch.total / ch.visits if ch is not None and ch.visits else 0.0


def _moves_made(game: Game, state) -> int:
    """A count for the AI streams of the playouts; any number works (the stream is redrawn)."""
    return 1_000_000
