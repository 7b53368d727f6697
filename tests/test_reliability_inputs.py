"""Bad input, everywhere: every slash command and option with wrong types,
out-of-range numbers, unknown games/cards, other people's and stale buttons,
huge strings, unicode and mentions. Each gets one clear sentence, never a
traceback, and the stored game does not change."""
from __future__ import annotations

import json

from bot.messages import Ctx, User
from bot.registry import commands
from bot.service import GameService
from bot.store import Store
from testkit.fakediscord.driver import latest
from testkit.fakediscord.figures import record, record_fake
from tests.helpers import where

CH, FINISHED, EMPTY, GUILD = "700", "701", "702", "900"
HUGE = "x" * 5000
UNI = "🗳️ ☃ 漢字 \u202e\u200b"

alice = User("u-alice", "alice")
bob = User("u-bob", "bob")
carol = User("u-carol", "carol")  # not a player
mod = User("u-mod", "mod", manage_channel=True)


def bad_inputs() -> list[tuple[User, str, str, dict]]:
    """(who, channel, command, options): each must be refused."""
    cases = [
        (alice, CH, "new", {"game": "no-such-game"}),
        (alice, CH, "new", {"game": ""}),
        (alice, CH, "new", {"game": "primary-general"}),  # the channel already has one
        (alice, EMPTY, "new", {"game": "primary-general", "seed": -1}),
        (alice, EMPTY, "new", {"game": "primary-general", "seed": "abc"}),
        (alice, EMPTY, "new", {"game": "primary-general", "seed": 2**60}),
        (alice, EMPTY, "new", {"game": "primary-general", "bots": 99}),
        (alice, EMPTY, "new", {"game": "primary-general", "bots": -1}),
        (alice, EMPTY, "new", {"game": "primary-general", "bots": 3.5}),
        (alice, EMPTY, "new", {"game": "primary-general", "bots": 7}),
        (alice, EMPTY, "new", {"game": "primary-general", "settings": "garbage"}),
        (alice, EMPTY, "new", {"game": "primary-general", "settings": "carry_scores=maybe"}),
        (alice, EMPTY, "new", {"game": "primary-general", "settings": "no_such_setting=1"}),
        (alice, EMPTY, "new", {"game": "primary-general", "settings": "timeout=-5"}),
        (alice, EMPTY, "new", {"game": "primary-general", "settings": HUGE}),
        (alice, EMPTY, "new", {"game": UNI}),
        (alice, EMPTY, "new", {"game": "primary-general", "colour": "red"}),
        (alice, EMPTY, "new", {}),
        (alice, EMPTY, "join", {}),
        (alice, EMPTY, "start", {}),
        (alice, EMPTY, "cancel", {}),
        (alice, EMPTY, "status", {}),
        (alice, EMPTY, "hand", {}),
        (alice, EMPTY, "do", {"action": "play x"}),
        (alice, CH, "join", {}),
        (carol, CH, "join", {}),  # already started
        (alice, CH, "start", {}),
        (carol, CH, "leave", {}),
        (carol, CH, "cancel", {}),
        (bob, CH, "cancel", {}),  # not the host, no Manage Channels
        (carol, CH, "hand", {}),
        (carol, CH, "do", {"action": "play sister-souljah carol"}),
        (alice, CH, "do", {}),
        (alice, CH, "do", {"action": ""}),
        (alice, CH, "do", {"action": "play"}),
        (alice, CH, "do", {"action": "play no-such-card alice"}),
        (alice, CH, "do", {"action": "fly-to-the-moon"}),
        (alice, CH, "do", {"action": HUGE}),
        (alice, CH, "do", {"action": UNI}),
        (alice, CH, "do", {"action": "play sister-souljah <@123456789012345678>"}),
        (alice, CH, "do", {"action": "play sister-souljah @everyone"}),
        (alice, CH, "do", {"action": "play sister-souljah ai-lincoln ai-lincoln ai-lincoln"}),
        (alice, CH, "do", {"action": 12345}),
        (alice, CH, "settings", {"settings": "carry_scores=no"}),  # not in the lobby
        (alice, CH, "rules", {"game": "no-such-game"}),
        (alice, CH, "rules", {"game": HUGE}),
        (alice, CH, "help", {"verbose": "yes"}),
        (alice, CH, "no-such-command", {}),
        (alice, FINISHED, "do", {"action": "play sister-souljah alice"}),
        (alice, FINISHED, "start", {}),
        (alice, FINISHED, "leave", {}),
    ]
    for spec in commands().values():
        if spec.admin:
            cases.append((alice, CH, spec.name, {}))  # not an admin (and missing options)
    return cases


async def rows(store: Store) -> str:
    out = []
    for table in ("games", "archive", "server_data"):
        async with store.db.execute(f"SELECT * FROM {table} ORDER BY 1") as cur:
            out.append(json.dumps([list(r) for r in await cur.fetchall()], default=str))
    return "\n".join(out)


async def make_tables(svc: GameService) -> None:
    await svc.handle(Ctx(alice, CH, GUILD), "new", {"game": "primary-general", "seed": 5})
    await svc.handle(Ctx(bob, CH, GUILD), "join", {})
    await svc.handle(Ctx(alice, CH, GUILD), "start", {})
    # a finished game in another channel
    await svc.handle(Ctx(alice, FINISHED, GUILD), "new", {"game": "primary-general", "seed": 6, "bots": 1})
    await svc.handle(Ctx(alice, FINISHED, GUILD), "start", {})
    for _ in range(200):
        loaded = await svc.load(FINISHED)
        if loaded.record.status == "finished":
            break
        state = loaded.game.load(loaded.record.state)
        action = loaded.game.legal_actions(state, 0)[0]
        await svc.handle(Ctx(alice, FINISHED, GUILD), "do", {"action": action.text()})
    assert (await svc.load(FINISHED)).record.status == "finished"


def one_sentence(text: str) -> bool:
    return bool(text) and "Traceback" not in text and "Error" not in text.split(":")[0] and len(text) < 400 \
        and text.count("\n") == 0


async def test_bad_inputs_via_the_service(tmp_path):
    svc = GameService(await Store.open(str(tmp_path / "r.db")), inline_ai=True, ai_delay=0, render=False)
    await make_tables(svc)
    tried = 0
    for who, channel, name, options in bad_inputs():
        before = await rows(svc.store)
        out = await svc.handle(Ctx(who, channel, GUILD), name, options)
        assert len(out) == 1 and out[0].to == "ephemeral", (name, options, [(m.to, m.text) for m in out])
        assert one_sentence(out[0].text), (name, options, out[0].text)
        assert await rows(svc.store) == before, (name, options)
        tried += 1
    # components: forged, stale, another channel's, a finished game's, not a player's
    loaded = await svc.load(CH)
    acted = loaded.record.acted[0]
    here, finished = await where(svc, CH), await where(svc, FINISHED)
    comps = [
        (carol, f"pg:{here}:turn", []), (carol, f"pg:{here}:hand", []), (carol, f"pg:{here}:join", []),
        (bob, f"pg:{here}:start", []), (alice, f"pg:{here}:nope", []),
        (alice, f"pb:{here}:{acted + 7}:play", []),  # stale
        (alice, f"pb:{here}:x:play", []), (alice, "pb::0:play", []), (alice, "zz:1:2:3", []), (alice, "", []),
        (alice, f"ps:{here}:{acted}:play", []),  # a select with no value
        (alice, f"ps:{here}:{acted}:play", ["no-such-card"]),
        (carol, f"pb:{here}:0:play sister-souljah carol !", []),
        (alice, f"pb:{finished}:0:play sister-souljah alice !", []),  # stale button of a finished game
        (alice, f"pg:{finished}:turn", []),
        (alice, f"pt:{here}:{acted}:answer", []),
        (alice, f"pb:{here}:{acted}:{HUGE}", []),
        (alice, f"pb:{here}:{acted}:{UNI}", []),
    ]
    for who, cid, values in comps:
        before = await rows(svc.store)
        out = await svc.component(Ctx(who, "0", GUILD), cid, values)
        assert len(out) == 1 and out[0].to in ("ephemeral", "edit"), (cid, [(m.to, m.text) for m in out])
        if cid == f"pg:{finished}:turn":
            assert "over" in out[0].text  # the panel says the game is over, and offers nothing
            assert not out[0].rows
        else:
            assert one_sentence(out[0].text), (cid, out[0].text)
        assert await rows(svc.store) == before, cid
        tried += 1
    for who, cid in [(alice, f"pm:{here}:{acted + 3}:answer"), (carol, f"pm:{here}:{acted}:answer"), (alice, "pm:x"),
                     (alice, f"pm:{finished}:0:answer")]:
        before = await rows(svc.store)
        out = await svc.modal_submit(Ctx(who, "0", GUILD), cid, HUGE)
        assert len(out) == 1 and one_sentence(out[0].text), (cid, out[0].text)
        assert await rows(svc.store) == before
        tried += 1
    # autocomplete never raises, whatever is typed
    for text in ["", HUGE, UNI, "<@1>", "play", "\x00"]:
        assert isinstance(await svc.autocomplete(Ctx(alice, CH, GUILD), "do", "action", text), list)
        tried += 1
    record("bad inputs (service)", bad_inputs=tried)
    await svc.store.close()


async def test_bad_inputs_via_discord(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    svc = harness.service
    ch = fake.general
    a, b, c = fake.user("alice"), fake.user("bob"), fake.user("carol")
    other = fake.add_channel("quiet")
    await a.slash("/politics new game:primary-general seed:5", channel=ch)
    await b.click(latest(fake.public(ch), "Join"), "Join")
    await a.slash("/politics start", channel=ch)
    lines = [
        (a, ch, "/politics new game:no-such-game"),
        (a, ch, "/politics new game:primary-general"),
        (a, other, "/politics new game:primary-general seed:abc"),  # a string where Discord sends an int
        (a, other, "/politics new game:primary-general seed:-1"),
        (a, other, "/politics new game:primary-general bots:99"),
        (a, other, "/politics new game:primary-general settings:garbage"),
        (a, other, f"/politics new game:primary-general settings:{HUGE}"),
        (a, other, f"/politics new game:{UNI}"),
        (a, other, "/politics start"), (a, other, "/politics hand"), (a, other, "/politics join"),
        (c, ch, "/politics join"), (c, ch, "/politics cancel"), (b, ch, "/politics cancel"),
        (c, ch, "/politics do action:play sister-souljah carol"), (c, ch, "/politics hand"),
        (a, ch, "/politics do action:play"), (a, ch, "/politics do action:play no-such-card alice"),
        (a, ch, f"/politics do action:{HUGE}"), (a, ch, f"/politics do action:{UNI}"),
        (a, ch, f"/politics do action:play sister-souljah <@{fake.BOT_ID}>"),
        (a, ch, "/politics do action:play sister-souljah <@999999999999999999>"),
        (a, ch, "/politics do action:play sister-souljah @everyone"),
        (a, ch, "/politics settings settings:carry_scores=no"),
        (a, ch, "/politics rules game:nope"),
    ]
    tried = 0
    for user, channel, line in lines:
        before = await rows(svc.store)
        inter = await user.slash(line, channel=channel)
        assert inter.latency is not None
        replies = [m for m in inter.replies if not m.deleted]
        assert len(replies) == 1 and replies[0].visible_to == user.id, (line, [m.content for m in replies])
        assert one_sentence(replies[0].content), (line, replies[0].content)
        assert await rows(svc.store) == before, line
        tried += 1
    # a non-player presses the public buttons; stale and forged components
    board = latest(fake.public(ch), "Open my controls")
    for label in ("Open my controls", "My hand"):
        before = await rows(svc.store)
        inter = await c.click(board, label)
        assert one_sentence(inter.text()) and "not a player" in inter.text()
        assert await rows(svc.store) == before
        tried += 1
    lobby = latest(fake.public(ch), "Join")
    for label in ("Join", "Start (host)"):
        before = await rows(svc.store)
        inter = await c.click(lobby, label)
        assert one_sentence(inter.text()), inter.text()
        assert await rows(svc.store) == before
        tried += 1
    # names that try to ping or format: joined, but nobody gets pinged
    await a.slash("/politics new game:primary-general", channel=other)
    for name in ("@everyone", "<@&123> **x** `y`", "@here 🗳️" + "z" * 40):
        await fake.user(name).slash("/politics join", channel=other)
        tried += 1
    lobby_text = "\n".join(m.content for m in fake.public(other))
    assert "@everyone" not in lobby_text and "@here" not in lobby_text and "<@&" not in lobby_text
    assert not any("Traceback" in m.content for m in fake.sent)
    record_fake("bad inputs (Discord)", fake, bad_inputs=tried)
