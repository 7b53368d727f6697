"""Politics: The Game (trivia) through the bot layer (bot.service.GameService):
engine clocks fire on tick, free-text answers go through a text box (modal),
charades guesses typed in the channel are recognised, admins upload/list/remove
custom questions, used questions are remembered per server, and no secret
reaches the channel."""
from __future__ import annotations

import json

from bot.messages import Button, spell_countdowns
from bot.text import readable
from bot.transcript import FakeClock
from engines.politics_trivia import GAME
from engines.politics_trivia import pile
from engines.politics_trivia import questions, uploads
from engines.politics_trivia.game import WILD, WildState
from engines.rng import Rng
from tests.helpers import CH, GUILD, ctx, service_on, texts, user, where

alice, bob = user("alice"), user("bob")
admin = user("admin", manage_server=True)


async def new_game(svc, *players, settings="", seed=3, bots=0, channel=CH):
    opts = {"game": "politics-trivia", "seed": seed}
    if settings:
        opts["settings"] = settings
    if bots:
        opts["bots"] = bots
    await svc.handle(ctx(players[0], channel), "new", opts)
    for p in players[1:]:
        await svc.handle(ctx(p, channel), "join", {})
    return await svc.handle(ctx(players[0], channel), "start", {})


async def state_of(svc, channel=CH):
    loaded = await svc.load(channel)
    return loaded.state


async def put_state(svc, state, channel=CH):
    loaded = await svc.load(channel)
    loaded.record.state = GAME.to_json(state)
    await svc.rows.save(None, channel, loaded, loaded.record, recompute=True)


async def do(svc, who, action, channel=CH):
    return await svc.handle(ctx(who, channel), "do", {"action": action})


async def through_setup(svc, players, channel=CH):
    """Everyone returns a Gerrymander card and picks a home, in roll order."""
    s = await state_of(svc, channel)
    for seat, p in enumerate(players):
        await do(svc, p, f"discard {s.players[seat].dealt[0]}", channel)
    homes = ["TX", "NY", "CA", "FL"]
    for seat in list(s.home_order):
        await do(svc, players[seat], f"home {homes[seat]}", channel)
    s = await state_of(svc, channel)
    assert s.phase == "start"
    return s


def buttons(out):
    return [b for m in out for row in m.rows for b in row if isinstance(b, Button)]


async def test_the_question_clock_fires_on_tick_and_counts_as_wrong(database):
    clock = FakeClock()
    svc = await service_on(database, clock=clock)
    await new_game(svc, alice, bob)
    players = [alice, bob]
    s = await through_setup(svc, players)
    me = players[s.turn]
    s.phase, s.players[s.turn].at, s.dice = "choose", "OH", [1, 2]
    await put_state(svc, s)
    out = await do(svc, me, "ask general")
    channel = readable("\n".join(texts(out, "channel")))  # as Discord shows it
    assert "120 seconds" in channel and "\n1. " in channel
    loaded = await svc.load(CH)
    assert loaded.record.timer.action == "timeout"
    due = loaded.record.timer.due
    assert due == clock.now + 120
    # a live countdown on Discord (relative timestamp); other front ends spell it out
    assert f"<t:{int(due)}:R>" in channel
    assert spell_countdowns(f"<t:{int(due)}:R>", clock.now) == "in 120 s"
    assert spell_countdowns(f"<t:{int(due)}:R>", due + 5) == "now"
    assert await svc.tick(clock.now + 60) == []
    out = await svc.tick(due + 1)
    assert any("Time is up" in t for t in texts(out, "channel"))
    s = await state_of(svc)
    assert s.phase == "start" and s.q is None
    await svc.store.close()


async def test_runoff_style_answers_through_the_text_box_stay_secret(database):
    clock = FakeClock()
    svc = await service_on(database, clock=clock)
    await new_game(svc, alice, bob, settings="max_rounds=1")
    players = [alice, bob]
    s = await through_setup(svc, players)
    first = players[s.turn]
    await do(svc, first, "fly HI")
    s = await state_of(svc)
    out = await do(svc, players[s.turn], "fly AK")
    assert any("Speed play" in t for t in texts(out, "channel"))
    s = await state_of(svc)
    assert s.phase == "h2h"
    q = pile.question(s, s.h2h.qids[0])
    # alice opens her controls: a "Type your answer" button opens a text box
    panel = await svc.handle(ctx(alice), "hand", {})
    box = next(b for b in buttons(panel) if b.label.startswith("Type your answer"))
    opened = await svc.component(ctx(alice), box.custom_id)
    assert opened[0].to == "modal"
    out = await svc.modal_submit(ctx(alice), opened[0].modal.custom_id, q.answer)
    channel = "\n".join(texts(out, "channel"))
    assert "alice has handed in an answer" in channel
    if q.answer.lower() not in q.text.lower():
        assert q.answer.lower() not in channel.lower()
    mine = "\n".join(m.text for m in out if m.to in ("ephemeral", "dm") and m.user_id == alice.id)
    assert q.answer in mine
    # bob's view of the table does not show alice's answer; his hand does not either
    theirs = await svc.handle(ctx(bob), "hand", {})
    assert q.answer not in theirs[0].text or q.answer.lower() in q.text.lower()
    acted = (await svc.load(CH)).record.acted[1]
    out = await svc.modal_submit(ctx(bob), f"pm:{await where(svc)}:{acted}:guess", "no idea")
    channel = readable("\n".join(texts(out, "channel")))
    assert f"The answer: {q.answer}" in channel and "✅" in channel
    await svc.store.close()


async def test_charades_guesses_typed_in_the_channel_are_recognised(database):
    svc = await service_on(database)
    carol = user("carol")
    await new_game(svc, alice, bob, carol)
    players = [alice, bob, carol]
    s = await through_setup(svc, players)
    card = next(w for w in WILD.values() if w.kind == "charades")
    performer = s.turn
    s.phase, s.dice = "wildcard", [2, 2]
    s.wild = WildState(card=card.id, performer=performer)
    await put_state(svc, s)
    # the secret is in the performer's private panel (it works with closed DMs), nowhere public
    hand = await svc.handle(ctx(players[performer]), "hand", {})
    assert card.secret in hand[0].text and hand[0].to == "ephemeral"
    out = await do(svc, players[performer], "perform")
    assert all(card.secret.lower() not in t.lower() for t in texts(out, "channel"))
    guesser = players[(performer + 1) % 3]
    assert await svc.chat(ctx(guesser), "is it a cat?") == []  # ordinary chat: no reply
    assert await svc.chat(ctx(players[performer]), card.secret) == []  # the performer cannot guess
    out = await svc.chat(ctx(guesser), card.secret.lower())
    channel = "\n".join(texts(out, "channel"))
    assert "guesses it" in channel and "10M Popular Votes" in channel
    s = await state_of(svc)
    assert s.players[performer].pv == 10 and s.players[(performer + 1) % 3].pv == 10
    await svc.store.close()


async def test_judges_vote_with_buttons_and_the_clock_counts_votes(database):
    clock = FakeClock()
    svc = await service_on(database, clock=clock)
    carol = user("carol")
    await new_game(svc, alice, bob, carol)
    players = [alice, bob, carol]
    s = await through_setup(svc, players)
    card = next(w for w in WILD.values() if w.kind == "physical")
    performer = s.turn
    s.phase, s.dice = "wildcard", [2, 2]
    s.wild = WildState(card=card.id, performer=performer)
    await put_state(svc, s)
    out = await do(svc, players[performer], "perform")
    judge = (performer + 1) % 3
    # the vote opens a new board that pings the judges (their turn notice: no DM unless dm_turns) ...
    board = [m for m in out if m.to == "channel" and players[judge].id in m.ping]
    assert board and f"<@{players[judge].id}>" in board[-1].text
    # ... and their controls hold two buttons that say what they vote on ("✅ done" / "❌ not done")
    panel = await svc.handle(ctx(players[judge]), "hand", {})
    judged = [b for b in buttons(panel) if b.custom_id.endswith(("judge yes", "judge no"))]
    assert sorted(b.label for b in judged) == ["✅ done", "❌ not done"]
    await do(svc, players[judge], "judge yes")
    out = await svc.tick(clock.now + card.seconds + 1)
    assert any("1 yes, 0 no" in t for t in texts(out, "channel"))
    s = await state_of(svc)
    assert s.players[performer].pv == 10
    await svc.store.close()


def _upload(rows):
    return ("club.json", json.dumps(rows).encode())


async def test_admins_upload_list_and_remove_custom_questions(database):
    svc = await service_on(database)
    good = [{"category": "general", "question": "What is our club's mascot?", "answer": "Otter",
             "wrong": ["Beaver", "Heron"]},
            {"category": "state", "state": "OH", "question": "Where is our Ohio chapter?", "answer": "Dayton",
             "wrong": ["Akron"]}]
    out = await svc.handle(ctx(alice), "questions upload", {"file": _upload(good)})
    assert "Only server admins" in out[0].text
    bad = good + [{"category": "sports", "question": "Who?", "answer": "Me", "wrong": ["You"]}]
    out = await svc.handle(ctx(admin), "questions upload", {"file": _upload(bad)})
    assert "Row 3" in out[0].text and "category" in out[0].text
    assert (await svc.store.server_data(GUILD, "politics-trivia")).get("questions") in (None, [])
    out = await svc.handle(ctx(admin), "questions upload", {"file": _upload(good)})
    assert "Added 2" in out[0].text and out[0].to == "ephemeral"
    listing = (await svc.handle(ctx(admin), "questions list", {}))[0].text
    ids = [uploads.custom_id(r) for r in (await svc.store.server_data(GUILD, "politics-trivia"))["questions"]]
    assert all(i in listing for i in ids)
    out = await svc.handle(ctx(admin), "questions remove", {"id": ids[0]})
    assert "Removed" in out[0].text
    left = (await svc.store.server_data(GUILD, "politics-trivia"))["questions"]
    assert [uploads.custom_id(r) for r in left] == [ids[1]]
    # the remaining custom State question joins Ohio's pile in a new game
    data = await svc.store.server_data(GUILD, "politics-trivia")
    data["used"] = [q.id for q in questions.about_state("OH")]
    await svc.store.set_server_data(GUILD, "politics-trivia", data)
    await new_game(svc, alice, bob)
    s = await through_setup(svc, [alice, bob])
    me = [alice, bob][s.turn]
    s.phase, s.players[s.turn].at, s.dice = "choose", "OH", [1, 2]
    await put_state(svc, s)
    out = await do(svc, me, "ask state")
    assert any("Where is our Ohio chapter?" in t for t in texts(out, "channel"))
    await svc.store.close()


async def test_used_questions_are_remembered_per_server_across_games(database):
    svc = await service_on(database)
    await new_game(svc, alice, bob)
    s = await through_setup(svc, [alice, bob])
    me = [alice, bob][s.turn]
    s.phase, s.players[s.turn].at, s.dice = "choose", "OH", [1, 2]
    await put_state(svc, s)
    await do(svc, me, "ask general")
    first = (await state_of(svc)).q.qid
    used = (await svc.store.server_data(GUILD, "politics-trivia"))["used"]
    assert first in used
    await svc.handle(ctx(alice), "cancel", {})
    await new_game(svc, alice, bob, seed=3)  # the same seed: without the memory it would draw the same
    s = await through_setup(svc, [alice, bob])
    assert first in s.used
    me = [alice, bob][s.turn]
    s.phase, s.players[s.turn].at, s.dice = "choose", "OH", [1, 2]
    await put_state(svc, s)
    await do(svc, me, "ask general")
    assert (await state_of(svc)).q.qid != first
    await svc.store.close()


async def test_ai_seats_play_a_whole_game_inline_and_the_clock_covers_the_human(database):
    """alice (human) plays her seat with the AI's choices, answering blank in speed
    play; whenever the game waits on nobody, the engine clock is fired by tick."""
    clock = FakeClock()
    svc = await service_on(database, inline_ai=True, ai_delay=0, clock=clock)
    out = await new_game(svc, alice, settings="max_rounds=2", bots=2)
    for step in range(400):
        s = await state_of(svc)
        if s.phase == "over":
            break
        if 0 in GAME.to_act(s):
            action = "pass" if s.phase == "h2h" else GAME.ai_action(s, 0, Rng(step)).text()
            out += await do(svc, alice, action)
        else:
            clock.now += 3600
            out += await svc.tick()
    s = await state_of(svc)
    assert s.phase == "over" and GAME.result(s).winners
    assert (await svc.load(CH)).record.status == "finished"
    assert any("Game over" in t for t in texts(out, "channel"))
    await svc.store.close()
