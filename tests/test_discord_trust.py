"""Trust on the wire (issue 20): nobody is pinged but the users a message means, text
a user wrote arrives as text (no mention, no masked link, no formatting), and a
control of an earlier game in the channel acts on nothing."""
from __future__ import annotations

import re

from testkit.fakediscord.driver import latest
from testkit.fakediscord.figures import record_fake
from testkit.fakediscord.markup import live_markup, shows

EVIL = "@everyone @here <@&123> <@456> **x** [x](https://e.x)"
EVIL_WORD = "@everyone<@&123><@456>[x](https://e.x)**x**"  # one word: errors repeat its first 40 characters
# The messages that mean to ping: each names its user as <@id>.
MEANT = ("can't send you direct messages", "the game is waiting for you", "— your turn.")
TURN = "— your turn."  # the board's turn notice: it pings exactly the seats whose turn began


def meant_ids(content: str) -> set[str]:
    """The users a message means to ping: those named on a line that says why (MEANT)."""
    return {u for line in content.split("\n") if any(k in line for k in MEANT)
            for u in re.findall(r"<@(\d+)>", line)}


def turn_pings(fake) -> set[str]:
    return {f"user:{u}" for m in fake.sent for content, _ in m.versions for line in (content or "").split("\n")
            if TURN in line for u in re.findall(r"<@(\d+)>", line)}


def check_pings(fake, scenario: str) -> set[str]:
    """Every message the bot sent, in every version (post, edits): allowed_mentions said
    explicitly, nobody pinged but a user the message means, nothing live in the text."""
    pinged: set[str] = set()
    assert fake.sent
    for m in fake.sent:
        for content, allowed in m.versions:
            if content:
                assert allowed is not None and allowed.get("parse") == [], (m.kind, content[:80], allowed)
        meant = set().union(*(meant_ids(content or "") for content, _ in m.versions), meant_ids(m.content))
        assert m.pings() <= {f"user:{u}" for u in meant}, (m.kind, m.content[:120], m.pings())
        assert not live_markup(m.content, meant), (m.kind, m.content[:120])
        assert "**x**" not in m.content
        pinged |= m.pings()
    record_fake(scenario, fake, messages_checked=len(fake.sent), unintended_pings=0)
    return pinged


def echoed_inert(content: str) -> bool:
    """The user's text is there to read, word for word, and none of it is live."""
    seen = shows(content)
    return "<@&123>" in seen and "<@456>" in seen and "[x](https://e.x)" in seen and "@everyone" in seen \
        and not live_markup(content, meant_ids(content))


async def test_lobby_turns_closed_dms_and_error_echo_ping_only_who_they_mean(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    alice, bob = fake.user("alice"), fake.user("bob", dm_closed=True)
    lookalike = fake.user("alice\u200b")  # looked exactly like alice
    await alice.slash("/politics new game:primary-general seed:5", channel=ch)
    await bob.click(latest(fake.public(ch), "Join"), "Join")
    await lookalike.slash("/politics join", channel=ch)
    lobby = latest(fake.public(ch), "Start (host)")
    assert "alice, bob, alice3." in lobby.content  # no invisible character: a name of its own
    await alice.click(lobby, "Start (host)")
    assert alice.dms() and lookalike.dms()  # turn prompts come by DM (a DM notifies by itself)
    notice = next(m for m in fake.public(ch) if "can't send you direct messages" in m.content)
    assert notice.pings() == {f"user:{bob.id}"}
    inter = await alice.slash_raw("do", {"action": EVIL_WORD}, channel=ch)
    assert "is not a move" in inter.text() and echoed_inert(inter.text())
    pinged = check_pings(fake, "pings: lobby, turn DMs, closed DMs, error echo")
    assert pinged - turn_pings(fake) == {f"user:{bob.id}"}  # beside the board's turn notices


async def test_the_reminder_pings_the_waiting_player_only(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    alice = fake.user("alice")
    await alice.slash("/politics new game:primary-general seed:5 bots:1 settings:timeout=0.02", channel=ch)
    await alice.slash("/politics start", channel=ch)
    reminder = await fake.wait_for(
        lambda: next((m for m in fake.channel_messages(ch) if "waiting for you" in m.content), None), timeout=15)
    assert reminder.pings() == {f"user:{alice.id}"}
    await fake.settle()
    assert check_pings(fake, "pings: timeout reminder") == {f"user:{alice.id}"}


async def test_a_typed_trivia_answer_is_echoed_as_text(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    players = [fake.user("alice"), fake.user("bob")]
    await players[0].slash("/politics new game:politics-trivia seed:3 settings:max_rounds=1", channel=ch)
    await players[1].click(latest(fake.public(ch), "Join"), "Join")
    await players[0].slash("/politics start", channel=ch)

    async def state():
        return (await harness.service.load(ch)).state

    s = await state()
    for seat, p in enumerate(players):  # everyone returns a Gerrymander card, then picks a home
        await p.slash_raw("do", {"action": f"discard {s.players[seat].dealt[0]}"}, channel=ch)
    for seat in list((await state()).home_order):
        await players[seat].slash_raw("do", {"action": f"home {['TX', 'NY'][seat]}"}, channel=ch)
    await players[(await state()).turn].slash_raw("do", {"action": "fly HI"}, channel=ch)
    await players[(await state()).turn].slash_raw("do", {"action": "fly AK"}, channel=ch)
    assert (await state()).phase == "h2h"  # speed play: answers are typed
    for p in players:
        await p.slash_raw("do", {"action": f"guess {EVIL}"}, channel=ch)
    echo = [m for m in fake.public(ch) if "<@456>" in shows(m.content)]
    assert echo and all(echoed_inert(m.content) for m in echo)
    assert check_pings(fake, "pings: typed trivia answers") == turn_pings(fake)  # the turn notices alone


async def test_an_uploaded_question_is_listed_as_text(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    admin = fake.user("admin", perms=32)
    csv = f"category,text,answer,wrong1,wrong2,wrong3\ngeneral,{EVIL}?,4,3,5,22\n"
    inter = await admin.slash("/politics questions upload", channel=ch, files={"file": ("q.csv", csv.encode())})
    assert "Added 1" in inter.text()
    await admin.slash("/politics questions list", channel=ch)
    assert check_pings(fake, "pings: question upload") == set()


async def test_a_dm_menu_of_an_earlier_game_is_refused_in_the_next_one(harness):
    """The issue's scenario: keep a DM menu of game 1, cancel, start game 2 in the
    same channel, use the old menu: refused in one line, nothing applied."""
    fake = harness.fake
    await harness.start_bot(render=False)
    ch = fake.general
    alice, bob = fake.user("alice"), fake.user("bob")

    async def two_player_game():
        await alice.slash("/politics new game:primary-general seed:5", channel=ch)
        await bob.click(latest(fake.public(ch), "Join"), "Join")
        await alice.slash("/politics start", channel=ch)

    await two_player_game()
    old = {u.id: next((m for m in reversed(u.dms()) if m.buttons() or m.selects()), None) for u in (alice, bob)}
    who = next(u for u in (alice, bob) if old[u.id] is not None)
    old_board = latest(fake.public(ch), "Open my controls")
    await alice.slash("/politics cancel", channel=ch)
    await two_player_game()
    store = harness.service.store
    before = await store.get(ch)
    menu = old[who.id]
    comp = (menu.buttons() or menu.selects())[0]
    if comp.get("type") == 3:
        inter = await who.select(menu, [comp["options"][0]["value"]])
    else:
        inter = await who.click(menu, custom_id=comp["custom_id"])
    assert inter.text() == "That button belongs to an earlier game in this channel."
    inter = await who.click(old_board, "Open my controls")
    assert inter.text() == "That button belongs to an earlier game in this channel."
    after = await store.get(ch)
    assert (after.version, after.record) == (before.version, before.record)
    # the new game's own controls carry the new game's id and still work
    board = latest(fake.public(ch), "Open my controls")
    assert board.buttons()[0]["custom_id"] != old_board.buttons()[0]["custom_id"]
    assert "earlier game" not in (await who.click(board, "Open my controls")).text()
    record_fake("controls of an earlier game", fake, bad_inputs=2)
