"""The live path through the fake Discord: every interaction is acknowledged before any other
work, the player's reply goes out before the board, a channel has one render in flight and
later boards are merged into it, only changed images are sent, work beyond capacity is answered
"busy", and DM channel ids are reused across a restart. No test here times anything: order is
read from what the fake received, and a render is held open with an event, not a sleep."""
from __future__ import annotations

import json
import threading

import pytest

import bot.render_pool as render_pool
from bot.discord_app import BUSY
from bot.render_pool import render_board

PG = "primary-general"


class HeldRenders:
    """A renderer that waits until released, counting the renders in flight per player name."""

    def __init__(self, real, names: list[str]) -> None:
        self.real = real
        self.names = names
        self.gate = threading.Event()
        self.lock = threading.Lock()
        self.in_flight = {n: 0 for n in names}
        self.most = {n: 0 for n in names}
        self.started = {n: 0 for n in names}

    def __call__(self, view, previous=None):
        text = json.dumps(view)
        name = next(n for n in self.names if n in text)
        with self.lock:
            self.in_flight[name] += 1
            self.started[name] += 1
            self.most[name] = max(self.most[name], self.in_flight[name])
        try:
            assert self.gate.wait(30), "the test never released the render"
            return self.real(view, previous)
        finally:
            with self.lock:
                self.in_flight[name] -= 1


@pytest.fixture
def held(monkeypatch):
    made = []

    def install(names):
        real = render_pool.get_renderer(PG)
        renders = HeldRenders(real, names)
        monkeypatch.setattr(render_pool, "get_renderer", lambda game_id: renders)
        made.append(renders)
        return renders
    yield install
    for renders in made:
        renders.gate.set()


async def _game(fake, user, channel: str, seed: int, settings: str = ""):
    await user.slash(f"/politics new game:{PG} seed:{seed} bots:1" + (f" settings:{settings}" if settings else ""),
                     channel=channel)
    await user.slash("/politics start", channel=channel)


async def _solo(harness, seed: int, settings: str = ""):
    """The bot started, and alice playing primary-general against an AI seat in a channel of her own."""
    await harness.start_bot()
    alice = harness.fake.user("alice")
    ch = harness.fake.add_channel("a")
    await _game(harness.fake, alice, ch, seed, settings)
    return alice, ch, harness.runner.client


async def _pair(fake, game: str, seed: int, name: str, settings: str = ""):
    """alice opens `game`, bob joins from the lobby's button, alice starts it."""
    alice, bob = fake.user("alice"), fake.user("bob")
    ch = fake.add_channel(name)
    await alice.slash(f"/politics new game:{game} seed:{seed}" + (f" settings:{settings}" if settings else ""),
                      channel=ch)
    lobby = next(m for m in reversed(fake.channel_messages(ch)) if "Join" in m.labels())
    await bob.click(lobby, "Join")
    await alice.slash("/politics start", channel=ch)
    return alice, bob, ch


async def _move(harness, user, channel: str):
    """`/politics do` with the user's first legal move (read from the service: an autocomplete
    would wait for the bot to go quiet, and a held render keeps it busy)."""
    loaded = await harness.service.load(channel)
    seat = next(i for i, p in enumerate(loaded.record.players) if p.id == user.id)
    action = loaded.game.legal_actions(loaded.state, seat)[0].text()
    return await user.slash_raw("do", {"action": action}, channel=channel, settle=False)


async def test_a_slow_render_delays_neither_the_ack_nor_the_reply_nor_other_channels(harness, held):
    fake = harness.fake
    await harness.start_bot()
    alice, carol = fake.user("alice"), fake.user("carol")
    ch_a, ch_c = fake.add_channel("a"), fake.add_channel("c")
    await _game(fake, alice, ch_a, 3)
    await _game(fake, carol, ch_c, 4)
    renders = held(["alice", "carol"])
    boards_a = len(fake.channel_messages(ch_a))
    move = await _move(harness, alice, ch_a)
    # The render of alice's board is held open: her move is still acknowledged and answered.
    await fake.wait_for(lambda: "✓ Done" in move.text())
    assert move.first_callback_at is not None and move.callback_type == 5
    await fake.wait_for(lambda: renders.in_flight["alice"] == 1)
    assert len(fake.channel_messages(ch_a)) == boards_a  # no board yet: it waits for its image
    # Another channel is not held up by it: carol is answered while alice's render still waits.
    other = await _move(harness, carol, ch_c)
    await fake.wait_for(lambda: "✓ Done" in other.text())
    assert renders.in_flight["alice"] == 1
    renders.gate.set()
    await fake.settle()
    # The reply came before the board, in the order the fake received them.
    done = next(m for m in move.replies if "✓ Done" in m.content)
    board = fake.channel_messages(ch_a)[boards_a:]
    assert board and board[0].files
    assert fake.sent.index(done) < fake.sent.index(board[0])
    assert move.first_callback_at <= done.t <= board[0].t


async def test_one_render_in_flight_per_channel_and_later_boards_merged(harness, held):
    fake = harness.fake
    alice, ch, client = await _solo(harness, 5)
    renders = held(["alice"])
    before = len(fake.channel_messages(ch))
    said_before = "\n".join(p.content for p in fake.channel_messages(ch))
    boards_before, renders_before = client.delivery.stats.boards, client.delivery.stats.renders
    moves = []
    for _ in range(3):  # three moves (each with the AI's answer) while the first board's render waits
        moves.append(await _move(harness, alice, ch))
        await fake.wait_for(lambda: "✓ Done" in moves[-1].text())
        await fake.wait_for(lambda: renders.started["alice"] == 1)
    renders.gate.set()
    await fake.settle()
    assert renders.most["alice"] == 1
    boards = client.delivery.stats.boards - boards_before
    drawn = client.delivery.stats.renders - renders_before
    # six boards (each move's edit of the turn's board, each AI answer's new turn); those of one turn
    # queued behind the held render are merged, boards of different turns never (each turn is its own
    # message, which that turn's later edits replace)
    assert boards == 6 and drawn < boards
    posts = fake.channel_messages(ch)[before:]
    # each board is a new post (the AI's move starts alice's turn again) or an edit of the turn's board
    assert 1 <= len(posts) <= 3 and all(p.files for p in posts)
    # Nothing said is lost: every move and every AI answer is in the channel as it reads now, in order.
    said = "\n".join(p.content for p in fake.channel_messages(ch))
    assert said.count("alice plays") - said_before.count("alice plays") == 3
    assert said.count("AI-Lincoln plays") - said_before.count("AI-Lincoln plays") == 3
    # The last image is the newest state's.
    assert posts[-1].files == render_board(PG, await _public_view(harness, ch), None)


async def _public_view(harness, channel: str) -> dict:
    loaded = await harness.service.load(channel)
    return loaded.game.view(loaded.state, None)


async def test_only_the_images_that_changed_are_sent(harness):
    fake = harness.fake
    await harness.start_bot()
    alice, bob, ch = await _pair(fake, "race-white-house", 2, "race")
    start = [m for m in fake.channel_messages(ch) if m.files]
    assert len(start) == 1 and len(start[0].files) == 4  # the map, a sheet per party, the board
    sent: list[str] = []
    kept: list[str] = []
    for _ in range(2):  # a home state (touches everything), then a placement (touches one sheet)
        shown = await _public_view(harness, ch)
        before = len(fake.channel_messages(ch))
        board = fake.channel_messages(ch)[-1]
        edits, names_before, files_before = board.edits, board.filenames(), len(fake.uploaded)
        await _move(harness, alice, ch)
        await fake.settle()
        now = await _public_view(harness, ch)
        expected = [name for name, _ in render_board("race-white-house", now, shown)]
        sent = [name for m in fake.channel_messages(ch)[before:] for name in m.filenames()]
        if fake.channel_messages(ch)[before:]:
            assert sent == expected  # the turn passed: a new board, with only the images that changed
        else:
            # within the turn: the turn's board edited in place. The edit uploads only the images
            # that changed and keeps the others by attachment id, so the message still carries all
            # four, in their order, and each changed one is the newest drawing.
            assert board.edits > edits and expected
            uploaded = fake.uploaded[files_before:]
            assert uploaded == expected
            assert board.filenames() == names_before
            drawn = dict(render_board("race-white-house", now, None))
            assert all(data == drawn[name] for name, data in board.files if name in expected)
            kept += [name for name in board.filenames() if name not in expected]
            sent = expected
    assert sent == ["race-white-house-sheet-1.png"]
    assert kept  # the placement's edit kept three images by id instead of drawing and sending them again


async def test_work_beyond_capacity_is_answered_busy_and_changes_nothing(harness):
    fake = harness.fake
    alice, ch, client = await _solo(harness, 6)
    acted = (await harness.service.store.get(ch)).record.acted[0]
    client.max_waiting = 0  # as if MAX_WAITING interactions were already waiting for a turn
    move = await _move(harness, alice, ch)
    await fake.settle()
    board = next(m for m in reversed(fake.channel_messages(ch)) if "Open my controls" in m.labels())
    click = await alice.click(board, "Open my controls")
    for inter in (move, click):
        assert inter.callback_type == 4 and inter.text() == BUSY  # the first answer says so
        assert all(m.visible_to == alice.id for m in inter.replies)
    assert (await harness.service.store.get(ch)).record.acted[0] == acted
    assert client.shed >= 2
    client.max_waiting = 10
    again = await _move(harness, alice, ch)
    await fake.settle()
    assert "✓ Done" in again.text()


async def test_dm_channel_ids_are_reused_across_a_restart(harness):
    fake = harness.fake
    await harness.start_bot()
    alice, bob, ch = await _pair(fake, PG, 8, "a", "dm-turns=on")  # turn notices by DM, as the test needs

    def opened() -> int:
        return sum(1 for r in fake.requests if r[1] == "POST" and r[2].endswith("/users/@me/channels"))

    assert opened() == 2 and alice.dms() and bob.dms()  # one DM channel per player, once
    await harness.stop_bot()
    await harness.start_bot()
    dms_before = len(alice.dms()) + len(bob.dms())
    for _ in range(4):
        loaded = await harness.service.load(ch)
        seat = loaded.game.to_act(loaded.state)[0]
        mover = alice if seat == 0 else bob
        await _move(harness, mover, ch)
        await fake.settle()
    assert len(alice.dms()) + len(bob.dms()) > dms_before  # turn prompts went out
    assert opened() == 2  # through the stored ids: no new DM channel after the restart
    # A stored channel that no longer exists is replaced once, not retried.
    gone = next(c for c, owner in fake.dm_channels.items() if owner == alice.id)
    del fake.dm_channels[gone]
    loaded = await harness.service.load(ch)
    seat = loaded.game.to_act(loaded.state)[0]
    await _move(harness, alice if seat == 0 else bob, ch)
    await fake.settle()
    if seat == 1:  # it was bob's move: alice's turn prompt goes through a new channel
        assert opened() == 3 and alice.dms()[-1].channel_id != gone


async def test_a_dm_panel_click_edits_that_panel_in_place(harness):
    fake = harness.fake
    alice, ch, _client = await _solo(harness, 9, "dm-turns=on")  # her turn's panel comes by DM
    panel = next(m for m in reversed(alice.dms()) if m.buttons() or m.selects())
    seen = len(fake.requests)
    if panel.selects():
        await alice.select(panel, [panel.selects()[0]["options"][0]["value"]])
    else:
        await alice.click(panel, custom_id=panel.buttons()[0]["custom_id"])
    await fake.settle()
    assert panel.edits >= 1
    # the panel was edited through the interaction: no new message and no edit request in the DM
    # channel (those count against the global rate limit)
    assert not [r for r in fake.requests[seen:] if f"/channels/{panel.channel_id}/" in r[2]]
