"""Hidden information nobody can compute: the issue's attack, played against the old seeding
and the new. The attacker knows the time the lobby was opened (Discord shows it to the second)
and what their own seat sees after the deal, and searches seeds for a game that deals the same;
a match would give every other hand and the whole deck order."""
from __future__ import annotations

import random

import pytest

from bot.transcript import FakeClock
from engines import Seat, all_games
from engines.rng import Rng
from testkit.fakediscord.figures import record
from tests.helpers import CH, ctx, service_on, user

alice, bob = user("alice"), user("bob")
OPENED = 1_764_000_000.123  # when the lobby was opened, as the attacker reads it
WINDOW_MS = 250  # the issue searched ±3 s; a quarter of a second each side keeps the test quick
SAMPLE = 1500  # seeds drawn from the whole old 31-bit space


def old_seed(clock: float) -> int:
    return int(clock * 1000) % (2**31)  # the scheme before issue 20: the clock in milliseconds


def candidates(opened: float) -> list[int]:
    around = [old_seed(opened) + d for d in range(-WINDOW_MS, WINDOW_MS + 1)]
    return around + random.Random(20).sample(range(2**31), SAMPLE)


def what_seat_0_sees(game, seed: int, players: int) -> object:
    seats = [Seat(name=f"p{i}") for i in range(players)]
    state = game.setup(seats, game.options({}), seed)
    return game.view(state, 0)


async def opened_game(database, game_id: str):
    game = all_games()[game_id]
    svc = await service_on(database, clock=FakeClock(OPENED))
    await svc.handle(ctx(alice), "new", {"game": game_id})  # no seed: the bot picks one
    for i in range(1, game.min_players):
        await svc.handle(ctx(user(f"p{i}")), "join", {})
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    await svc.store.close()
    return game, loaded


def search(game, seen, players: int, opened: float) -> list[int]:
    return [s for s in candidates(opened) if what_seat_0_sees(game, s, players) == seen]


# every game whose seats keep secrets (Game.private_info): what the seed deals is what the attack is after
SECRET_KEEPERS = [game_id for game_id, game in all_games().items() if game.private_info]


@pytest.mark.parametrize("game_id", SECRET_KEEPERS)
async def test_the_old_seeds_could_be_found_and_the_new_ones_cannot(database, game_id):
    game, loaded = await opened_game(database, game_id)
    players = len(loaded.record.players)
    # The old scheme, for contrast: the same search narrows the game down to its seed (or to a
    # couple, as the issue found for us-president), hence to every secret.
    old = old_seed(OPENED)
    found = search(game, what_seat_0_sees(game, old, players), players, OPENED)
    assert old in found and len(found) <= 3
    # The new one: the seed is 64 secret bits, outside anything the clock or a 31-bit scan reaches ...
    seed = loaded.record.seed
    assert not loaded.record.seed_public
    assert seed >= 2**31 and abs(seed - old) > WINDOW_MS
    # ... and the search over that space finds no game that deals what alice sees.
    found_new = search(game, game.view(loaded.state, 0), players, OPENED)
    assert found_new == []
    record(f"seed search: {game_id}", seeds_searched=2 * len(candidates(OPENED)), old_seeds_found=int(old in found),
           new_seeds_found=len(found_new))


async def test_ai_randomness_comes_from_the_secret_stream_not_public_counters(database):
    game, loaded = await opened_game(database, "us-president")
    state = loaded.state
    moves = sum(loaded.record.acted)
    old = Rng((loaded.record.seed * 1_000_003 + moves * 7919 + 1) & ((1 << 64) - 1))  # the old AI seeding
    mine = game.ai_rng(state, 1, moves)
    assert [mine.next64() for _ in range(4)] != [old.next64() for _ in range(4)]
    # Two games a player can't tell apart (same public counters, same view) but different secret
    # streams give the AI different randomness: it can't be predicted from the counters.
    twin = state.model_copy(deep=True)
    twin.rng ^= 1
    a, b = game.ai_rng(state, 1, moves), game.ai_rng(twin, 1, moves)
    assert [a.next64() for _ in range(4)] != [b.next64() for _ in range(4)]
    # Drawing for the AI leaves the game's own stream where it was: replays stay deterministic.
    before = state.rng
    game.ai_action(state, 1, game.ai_rng(state, 1, moves))
    assert state.rng == before


async def test_a_hosts_seed_is_public_to_everyone(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general", "seed": 42})
    assert "Seed 42 was chosen by the host" in out[0].text and out[0].to == "channel"
    await svc.handle(ctx(bob), "join", {})
    out = await svc.handle(ctx(alice), "start", {})
    board = [m for m in out if m.to == "channel"][0]
    assert "Seed 42 was chosen by the host" in board.text
    await svc.store.close()
