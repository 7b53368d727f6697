"""Issue #28, item 2: at most a quarter of a global-limited request per move in steady play of
every game, with two humans and with AI seats, under the fake Discord that keeps Discord's limits.

A seat learns its turn from the ping on the board that the move's follow-up posts (exempt from the
global limit); a DM goes out only when that seat's private information changed; a turn's board is
edited in place through the interaction that posted it; an AI seat's move (scheduled, no
interaction of its own) rides the channel's newest living interaction. Issue #25: a 2-player
politics-1952 game posts at most one board message per turn, and an AI-only run of moves meets
no 429 on the channel's message routes.
"""
from __future__ import annotations

import random

import pytest

from bot.bench_live import limit_figures
from testkit.fakediscord.driver import GameRun, game_over, latest, take_turn

GAMES = ["primary-general", "us-president", "politics-1952", "race-white-house", "politics-trivia"]
BUDGET = 0.25  # global-limited requests per move
ROUNDS = 12  # rounds of steady play measured (each human tries a move a round)


async def _open(fake, game_id: str, humans, bots: int, seed: int, settings: str = "") -> str:
    channel = fake.add_channel(f"{game_id}-{bots}")
    host = humans[0]
    extra = f" settings:{settings}" if settings else ""
    await host.slash(f"/politics new game:{game_id} seed:{seed} bots:{bots}{extra}", channel=channel)
    for h in humans[1:]:
        await h.click(latest(fake.public(channel), "Join"), "Join")
    await host.click(latest(fake.public(channel), "Start (host)"), "Start (host)")
    return channel


async def _moves(harness, channel: str) -> int:
    loaded = await harness.service.load(channel)
    return len(loaded.record.log) if loaded is not None else 0


async def _steady_play(harness, game_id: str, bots: int, seed: int = 3) -> tuple[dict, int]:
    """Open and start a game, then measure ROUNDS rounds of play: (limit figures, moves made)."""
    fake = harness.fake
    humans = [fake.user(f"p{i}-{game_id}-{bots}") for i in range(2 - bots)]
    channel = await _open(fake, game_id, humans, bots, seed)
    await fake.settle()
    log_at, moves_at = len(fake.request_log), await _moves(harness, channel)
    run, rng = GameRun(game_id, channel), random.Random(seed)
    for _round in range(ROUNDS):
        for h in humans:
            if game_over(fake, channel):
                break
            await take_turn(fake, h, channel, "do", rng, run, ["yes", "Lincoln", "1860", "Florida", "a"])
    await fake.settle()
    moves = await _moves(harness, channel) - moves_at
    if game_over(fake, channel):
        moves = max(moves, 1)
    return limit_figures(fake, log_at, moves), moves


@pytest.mark.parametrize("bots", [0, 1], ids=["two-humans", "with-ai"])
@pytest.mark.parametrize("game_id", GAMES)
async def test_a_quarter_of_a_global_request_per_move(harness, game_id, bots):
    await harness.start_bot(render=False)  # images change no request count
    figures, moves = await _steady_play(harness, game_id, bots)
    assert moves >= 8, f"{game_id}: only {moves} moves were made"
    assert figures["global_429s"] == 0 and figures["route_429s"] == 0
    assert figures["requests_per_move"] <= BUDGET, (game_id, moves, figures["requests_per_move_by_kind"])


async def test_a_two_player_politics_1952_game_posts_one_board_a_turn(harness):
    """A turn here is a human's: it begins when a board pings them, and every later board of that
    turn (their placements, captures) edits it. So the channel gains at most one board a turn."""
    await harness.start_bot(render=False)
    fake = harness.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    channel = await _open(fake, "politics-1952", [alice, bob], 0, 5)
    await fake.settle()
    run, rng = GameRun("politics-1952", channel), random.Random(5)
    turns = 0
    boards_before = len([m for m in fake.public(channel) if "Open my controls" in m.labels()])
    for _round in range(15):
        for user in (alice, bob):
            loaded = await harness.service.load(channel)
            waiting = set(loaded.game.to_act(loaded.state))
            if await take_turn(fake, user, channel, "do", rng, run, ["a"]):
                after = await harness.service.load(channel)
                if set(after.game.to_act(after.state)) - waiting:
                    turns += 1  # the move handed the turn on
    await fake.settle()
    boards = [m for m in fake.public(channel) if "Open my controls" in m.labels() or "Game over" in m.content]
    assert turns >= 2
    assert len(boards) - boards_before <= turns
    assert any(m.edits for m in boards)  # moves within a turn edited that turn's board


async def test_an_ai_run_meets_no_429_on_the_channel(harness):
    """A human with three AI seats who lets the clock run out: the AI moves for every seat, one
    scheduled move after another, and the channel's message routes never answer 429."""
    await harness.start_bot(render=False, inline_ai=False, ai_delay=0.0)
    fake = harness.fake
    alice = fake.user("alice")
    channel = await _open(fake, "race-white-house", [alice], 3, 4, settings="timeout=0.01")
    log_at, moves_at = len(fake.request_log), await _moves(harness, channel)
    await fake.wait_for(lambda: len(fake.request_log) > log_at + 30, timeout=60)
    await fake.settle()
    moves = await _moves(harness, channel) - moves_at
    figures = limit_figures(fake, log_at, moves)
    assert moves >= 10
    assert not {route for route in figures["route_429s_by_route"] if "message" in route}
    assert figures["global_429s"] == 0
