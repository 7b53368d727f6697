"""bot.delivery without Discord: lanes keep order, a board waits for a free render worker and
everything that queued meanwhile is merged into it, and each board is drawn against the view
its channel last showed."""
from __future__ import annotations

import asyncio

from bot.delivery import Delivery
from bot.messages import Outgoing


class OneWorker:
    """A render pool with one worker whose renders wait for the test."""

    def __init__(self) -> None:
        self.slots = asyncio.Semaphore(1)
        self.gate = asyncio.Event()
        self.calls: list[tuple[str, int, int | None]] = []

    async def render(self, game_id, view, previous):
        self.calls.append((view["ch"], view["n"], previous["n"] if previous else None))
        await self.gate.wait()
        return [(f"{view['ch']}{view['n']}.png", b"png")]


def board(ch: str, n: int, full: bool = False) -> Outgoing:
    return Outgoing(to="channel", channel_id=ch, text=f"move {n}", view={"ch": ch, "n": n}, game_id="g",
                    full_image=full, rows=[[]] if n % 2 else [])


async def test_boards_wait_for_a_worker_and_merge_into_the_newest():
    pool = OneWorker()
    posted = []

    async def post(item, images):
        posted.append((item.msg.channel_id, item.msg.text, [name for name, _ in images]))

    delivery = Delivery(post, pool)
    delivery.put("A", board("A", 1))
    while not pool.calls:
        await asyncio.sleep(0)  # A1 is being drawn: it holds the only worker
    delivery.put("B", board("B", 1))
    delivery.put("B", board("B", 2))
    delivery.put("A", board("A", 2))
    delivery.put("A", Outgoing(to="channel", channel_id="A", text="a notice"))
    delivery.put("A", board("A", 3))
    delivery.put("A", board("A", 4))
    assert delivery.backlog == 7
    pool.gate.set()
    await delivery.drain()
    # B waited for the worker, then drew only its newest board; A drew 2 (before the notice,
    # which keeps its place) and 4, each against the view drawn before it in that channel.
    assert pool.calls == [("A", 1, None), ("B", 2, None), ("A", 2, 1), ("A", 4, 2)]
    assert [p for p in posted if p[0] == "A"] == [
        ("A", "move 1", ["A1.png"]), ("A", "move 2", ["A2.png"]), ("A", "a notice", []),
        ("A", "move 3\nmove 4", ["A4.png"])]
    assert [p for p in posted if p[0] == "B"] == [("B", "move 1\nmove 2", ["B2.png"])]
    assert delivery.backlog == 0
    assert delivery.stats.boards == 6 and delivery.stats.renders == 4


async def test_a_new_game_or_status_draws_every_image():
    pool = OneWorker()
    pool.gate.set()
    delivery = Delivery(lambda item, images: asyncio.sleep(0), pool)
    delivery.put("A", board("A", 1))
    await delivery.drain()
    delivery.put("A", board("A", 2, full=True))
    await delivery.drain()
    assert pool.calls == [("A", 1, None), ("A", 2, None)]


def test_boards_of_different_turns_stay_separate_messages():
    """A turn's board is one message that later moves of the turn edit: merged with the next
    turn's post, the older turn's lines would live in a message remembered as the newer turn's,
    and that turn's next edit (its own lines only) would wipe them out of the channel."""
    from bot.delivery import Pending, coalesce

    def turn(n: int, text: str, edit: bool = False) -> Pending:
        msg = board("c", n)
        msg.text, msg.board_key, msg.edit = text, f"g.{n}", edit
        return Pending(msg)

    queued = [turn(1, "alice plays A"), turn(1, "alice plays A\nbob's AI plays B", edit=False),
              turn(2, "bob plays C"), turn(2, "bob plays C\nalice plays D", edit=True)]
    out = coalesce(queued)
    assert [(p.msg.board_key, p.msg.text) for p in out] == [
        ("g.1", "alice plays A\nbob's AI plays B"), ("g.2", "bob plays C\nalice plays D")]
