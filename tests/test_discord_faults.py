"""The Discord layer under failures Discord really sends: closed DMs, 429s,
5xx on an image, a dropped gateway, op 7 and a restart of the bot."""
from __future__ import annotations

import asyncio

from bot.service import GameService
from bot.text import plain
from testkit.fakediscord.driver import latest, leaks
from testkit.fakediscord.figures import record_fake
from testkit.leakcheck import LeakWatch

PG = "primary-general"


async def lobby_of_two(fake, channel, seed=5):
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash(f"/politics new game:{PG} seed:{seed}", channel=channel)
    await bob.click(latest(fake.public(channel), "Join"), "Join")
    await alice.slash("/politics start", channel=channel)
    return alice, bob


async def closed_dms_game(harness) -> LeakWatch:
    """alice and bob play; bob's DMs are closed. Watched for leaks from the first message."""
    fake = harness.fake
    await harness.start_bot()
    fake.user("bob", dm_closed=True)
    ch = fake.general
    watch = LeakWatch(fake, harness.service, ch)
    alice, bob = await lobby_of_two(fake, ch)
    await watch.observe()
    return watch


async def test_closed_dms_told_in_channel_and_controls_ephemeral(harness):
    watch = await closed_dms_game(harness)
    fake, ch = harness.fake, harness.fake.general
    alice, bob = fake.user("alice"), fake.user("bob")
    notices = [m for m in fake.public(ch) if "can't send you direct messages" in m.content]
    assert notices and f"<@{bob.id}>" in notices[0].content
    assert "Open my controls" in notices[0].labels()
    # never retried in a loop: one 403 per DM attempt, each one answered by a notice
    forbidden = [r for r in fake.requests if r[3] == 403]
    assert 1 <= len(forbidden) <= len(notices)
    # nothing secret in the channel
    loaded = await harness.service.load(ch)
    hand = loaded.game.private_text(loaded.game.load(loaded.record.state), 1)
    assert hand and plain(hand) not in "\n".join(m.content for m in fake.public(ch))
    assert watch.secrets[bob.id] and not watch.found, watch.found  # not even one card of it
    # the same controls, ephemerally
    inter = await bob.click(notices[-1], "Open my controls")
    panel = inter.last_reply()
    assert panel.ephemeral and panel.visible_to == bob.id
    assert plain(hand).splitlines()[0] in panel.content
    assert panel.buttons() or panel.selects() or "Nothing to do" in panel.content
    assert "← Back" not in panel.labels()  # the first real step: Back would lead straight here again
    assert alice.dms() and not bob.dms()
    # more turns: no further 403 collected and no spam of notices in the channel
    for _ in range(4):
        for user in (alice, bob):
            choices = await user.autocomplete("/politics do action:", "action", channel=ch)
            if choices:
                await user.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
            await watch.observe()
    assert not watch.found, watch.found
    assert len([r for r in fake.requests if r[3] == 403]) == len(forbidden) == 1
    assert len([m for m in fake.public(ch) if "can't send you direct messages" in m.content]) == 1
    record_fake("closed DMs", fake, dm_bounces=len(forbidden))


async def test_the_leak_check_finds_one_planted_hand_line(harness, monkeypatch):
    """The closed-DMs notice leaks one line of the hand (issue 20's "• Voter ADHD — …"):
    the check must see it, though the hand as a whole never reached the channel."""
    real = GameService.dm_failed

    async def leaky(self, channel_id, user_id, user_name=None):
        out = await real(self, channel_id, user_id, user_name)
        loaded = await self.load(channel_id)
        hand = loaded.game.private_text(loaded.state, loaded.record.seat_of(user_id))
        out[0].text += "\n" + plain(hand.splitlines()[1])  # one card, as the panel shows it
        return out

    monkeypatch.setattr(GameService, "dm_failed", leaky)
    watch = await closed_dms_game(harness)
    bob = harness.fake.user("bob")
    assert watch.found and all("the channel saw seat 1's" in f for f in watch.found), watch.found
    hand = "\n".join(m.content for m in harness.fake.seen_by("bob"))
    assert any(token in hand for token in watch.secrets[bob.id])


async def test_rate_limit_is_waited_out(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    fake.fail("POST", rf"/channels/{ch}/messages$", 429, times=2, retry_after=0.2)
    alice = fake.user("alice")
    inter = await alice.slash(f"/politics new game:{PG} seed:1 bots:1", channel=ch)
    assert inter.latency is not None
    assert any("opened a lobby" in m.content for m in fake.channel_messages(ch))
    assert len([f for f in fake.faults_injected if f.startswith("429")]) == 2
    record_fake("429 rate limits", fake)


async def test_server_error_on_image_retries_or_reports_without_losing_the_action(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash(f"/politics new game:{PG} seed:3 bots:1", channel=ch)
    # a 500 is retried by discord.py: the image still arrives
    fake.fail("POST", rf"/channels/{ch}/messages$", 500, times=1)
    await alice.slash("/politics start", channel=ch)
    board = [m for m in fake.channel_messages(ch) if "begins" in m.content]
    assert board and board[0].files and board[0].files[0][1][:4] == b"\x89PNG"
    # a 503 is raised at once: the bot says so in text, and the move stands
    before = (await harness.service.store.get(ch)).record.acted[0]
    choices = await alice.autocomplete("/politics do action:", "action", channel=ch)
    # the board goes out as the move's second follow-up (after the player's "✓ Done"); when the
    # token is refused it is posted to the channel instead, where the 503 hits
    fake.fail("POST", r"/webhooks/\d+/[^/]+$", 401, code=50027, times=1, skip=1)
    fake.fail("POST", rf"/channels/{ch}/messages$", 503, times=1)
    inter = await alice.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
    assert "✓ Done" in inter.text()
    assert (await harness.service.store.get(ch)).record.acted[0] == before + 1
    assert any("couldn't be sent" in m.content for m in fake.channel_messages(ch))
    record_fake("5xx on an image", fake, actions_lost=0)


async def test_dropped_gateway_resumes_and_delivers_the_click(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash(f"/politics new game:{PG} seed:4 bots:1", channel=ch)
    await fake.drop_gateway(4000)
    # the click happens while the socket is down: it waits for RESUME and is replayed
    inter = await alice.slash("/politics start", channel=ch, settle=False)
    await fake.wait_for(lambda: fake.resumes >= 1, timeout=10)
    await fake.settle()
    assert inter.latency is not None
    assert any("begins" in m.content for m in fake.channel_messages(ch))
    assert fake.identifies == 1  # resumed, not a new session
    assert fake.heartbeats >= 2  # one at each HELLO, each answered with op 11
    # op 7: Discord asks for a reconnect; the client resumes again
    await fake.send_reconnect()
    await fake.wait_for(lambda: fake.resumes >= 2, timeout=10)
    inter = await alice.slash("/politics status", channel=ch)
    assert inter.latency is not None and fake.identifies == 1
    record_fake("dropped gateway + op 7", fake)


async def test_restart_mid_game_keeps_everything(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    watch = LeakWatch(fake, harness.service, ch)  # from the first message on
    alice, bob = await lobby_of_two(fake, ch, seed=9)
    await watch.observe()
    # a couple of moves first
    for user in (alice, bob):
        choices = await user.autocomplete("/politics do action:", "action", channel=ch)
        if choices:
            await user.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
        await watch.observe()
    row_before = await harness.service.store.get(ch)
    old_board = latest(fake.public(ch), "Open my controls")
    old_dm = {u.name: next((m for m in reversed(u.dms()) if m.buttons() or m.selects()), None) for u in (alice, bob)}
    await harness.stop_bot()  # the process "dies": client closed, store closed
    await asyncio.sleep(0.05)
    await harness.start_bot()  # a NEW PoliticsBot and a new Store on the same SQLite file
    watch.service = harness.service
    assert fake.identifies == 2
    row_after = await harness.service.store.get(ch)
    assert (row_after.version, row_after.record) == (row_before.version, row_before.record)
    # the old buttons still work
    for user in (alice, bob):
        inter = await user.click(old_board, "Open my controls")
        panel = inter.last_reply()
        assert panel is not None and panel.visible_to == user.id
    waiting = next((u for u in (alice, bob) if old_dm[u.name] is not None), None)
    if waiting is not None:
        dm = old_dm[waiting.name]
        comp = (dm.buttons() or dm.selects())[0]
        if comp.get("type") == 3:
            inter = await waiting.select(dm, [comp["options"][0]["value"]])
        else:
            inter = await waiting.click(dm, custom_id=comp["custom_id"])
        assert inter.latency is not None and "Something went wrong" not in (inter.text() + dm.content)
    # and the game plays on to the end, nothing revealed
    import random

    from testkit.fakediscord.driver import GameRun, game_over, take_turn
    run = GameRun(PG, ch, watch=watch)
    rng = random.Random(1)
    for round_no in range(200):
        if game_over(fake, ch):
            break
        for i, user in enumerate((alice, bob)):
            await run.watch.observe()
            await take_turn(fake, user, ch, ("controls", "dm", "do")[(round_no + i) % 3], rng, run, ["a"])
    assert game_over(fake, ch)
    assert not await leaks(run)
    assert not fake.unanswered()
    record_fake("restart mid-game (new client + new Store)", fake, restarts=1, actions_lost=0)


async def test_unknown_interaction_and_forged_components_change_nothing(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash(f"/politics new game:{PG} seed:8 bots:1", channel=ch)
    await alice.slash("/politics start", channel=ch)
    store = harness.service.store
    before = await store.get(ch)
    # Discord says the interaction is unknown (answered too late): the command is not run
    fake.fail("POST", r"/interactions/\d+/[^/]+/callback$", 404, code=10062, times=2)
    choices = await alice.autocomplete("/politics do action:", "action", channel=ch)  # eats one 10062
    inter = await alice.slash_raw("do", {"action": "play x"}, channel=ch)
    after = await store.get(ch)
    assert (after.version, after.record) == (before.version, before.record)
    assert not any(m.content and "Traceback" in m.content for m in fake.sent)
    # forged component ids and a forged form: one sentence each, nothing changes
    forged = [f"pt:{ch}:0:answer", f"pb:{ch}:99:play", "pb:123:0:play", f"pb:{ch}:0:{'z' * 80}", f"pg:{ch}:zap"]
    old = fake.plant(ch, forged)
    for cid in forged:
        inter = await alice.click(old, custom_id=cid)
        assert inter.latency is not None, cid
        assert inter.text() and "\n" not in inter.text(), (cid, inter.text())
    form = {"custom_id": f"pm:{ch}:0:answer", "components": [
        {"type": 1, "components": [{"type": 4, "custom_id": "text", "value": "x" * 4000}]}]}
    inter = await fake.interact(alice.u, 5, form, channel_id=ch)
    await fake.settle()
    assert inter.latency is not None and inter.text() and "\n" not in inter.text()
    after = await store.get(ch)
    assert (after.version, after.record) == (before.version, before.record)
    # and the next real move works
    choices = await alice.autocomplete("/politics do action:", "action", channel=ch)
    inter = await alice.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
    assert "✓ Done" in inter.text()
    record_fake("10062 unknown interaction + forged ids", fake, bad_inputs=len(forged) + 1,
                refused_10062=len([f for f in fake.faults_injected if f.startswith("404")]))


async def test_ai_moves_arrive_from_the_scheduler(harness):
    """Production mode: AI seats move from the bot's 1-second scheduler, not inline."""
    fake = harness.fake
    await harness.start_bot(inline_ai=False, ai_delay=0.0, render=False)
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash(f"/politics new game:{PG} seed:12 bots:1", channel=ch)
    await alice.slash("/politics start", channel=ch)
    moves = 0
    for _ in range(3):
        choices = []
        for _wait in range(40):  # until the AI has moved and it is alice's turn again
            choices = await alice.autocomplete("/politics do action:", "action", channel=ch)
            if choices:
                break
            await asyncio.sleep(0.1)
        assert choices, "the AI never moved"
        inter = await alice.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
        assert "✓ Done" in inter.text()
        moves += 1
    ai_posts = [m for m in fake.channel_messages(ch) if "AI-Lincoln plays" in m.content]
    assert len(ai_posts) >= 2
    assert not fake.unanswered()
    record_fake("AI moves from the scheduler", fake, human_actions=moves, ai_moves=len(ai_posts))


async def test_missing_channel_permissions_are_reported_and_nothing_is_lost(harness):
    fake = harness.fake
    await harness.start_bot()
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash(f"/politics new game:{PG} seed:13 bots:1", channel=ch)
    # no Attach Files: the board still comes, as text with its buttons
    fake.fail("POST", rf"/channels/{ch}/messages$", 403, code=50013, times=1)
    await alice.slash("/politics start", channel=ch)
    board = [m for m in fake.channel_messages(ch) if "begins" in m.content]
    assert board and "not allowed to attach images" in board[0].content and "Open my controls" in board[0].labels()
    # no Send Messages at all (the board's follow-up refused too): the asker is told, privately,
    # and the move is kept
    before = (await harness.service.store.get(ch)).record.acted[0]
    choices = await alice.autocomplete("/politics do action:", "action", channel=ch)
    fake.fail("POST", rf"/channels/{ch}/messages$", 403, code=50013, times=50)
    fake.fail("POST", r"/webhooks/\d+/[^/]+$", 403, code=50013, times=1, skip=1)
    inter = await alice.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
    assert "not allowed to post in this channel" in inter.text()
    assert all(m.visible_to == alice.id for m in inter.replies)
    assert (await harness.service.store.get(ch)).record.acted[0] == before + 1
    record_fake("missing channel permissions (403/50013)", fake, actions_lost=0)


def test_closed_dm_memory_keeps_only_what_still_matters():
    from bot.discord_send import remember
    memory: dict = {}
    remember(memory, "ann", 0.0, keep=600)
    remember(memory, "bob", 100.0, keep=600)
    remember(memory, "ann", 200.0, keep=600)  # bounced again: her ten minutes start over
    assert list(memory) == ["bob", "ann"]
    remember(memory, "cy", 750.0, keep=600)  # bob's bounce is older than ten minutes: forgotten
    assert memory == {"ann": 200.0, "cy": 750.0}
    remember(memory, "dee", 10_000.0, keep=600)
    assert memory == {"dee": 10_000.0}
