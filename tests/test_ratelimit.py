"""bot/ratelimit.py: a request counts against Discord's global limit from when it leaves until a
second after its answer, so a slow request can't land in the same second as the next batch."""
import asyncio

import pytest

from bot.ratelimit import GlobalLimit


async def test_a_request_in_flight_keeps_its_place_however_long_it_takes():
    keeper = GlobalLimit(limit=2, per=0.01)
    first, second = await keeper.acquire(), await keeper.acquire()
    third = asyncio.ensure_future(keeper.acquire())
    await asyncio.sleep(0.2)  # twenty windows: counted from departures, the third would have left
    assert not third.done()
    keeper.answered(first)
    place = await asyncio.wait_for(third, 30)  # leaves a window after the first answer (a hang fails)
    keeper.answered(second)
    keeper.answered(place)


async def test_places_answered_a_window_ago_are_free_again():
    keeper = GlobalLimit(limit=3, per=0.05)
    for place in [await keeper.acquire() for _ in range(3)]:
        keeper.answered(place)
    await asyncio.sleep(0.1)
    for _ in range(3):  # each is taken without waiting for another answer
        await asyncio.wait_for(keeper.acquire(), 30)
    with pytest.raises(TimeoutError):  # and the fourth waits: three are in flight
        await asyncio.wait_for(keeper.acquire(), 0.2)
