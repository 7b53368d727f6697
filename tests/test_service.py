"""GameService: the one path every front end takes."""
from __future__ import annotations

import asyncio

import pytest

from bot.messages import Button, Select
from bot.service import GameService
from bot.service.common import ChannelLocks
from bot.store import RowTimer
from bot.transcript import FakeClock
from engines import SYSTEM
from engines.primary_general.cards import BY_SLUG
from tests.helpers import CH, ctx, service_on, texts, user, where

alice, bob, carol = user("alice"), user("bob"), user("carol")


async def lobby(svc, *players, **opts):
    await svc.handle(ctx(players[0]), "new", {"game": "primary-general", "seed": 3, **opts})
    for p in players[1:]:
        await svc.handle(ctx(p), "join", {})


async def test_lobby_flow_and_one_game_per_channel(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general"})
    assert out[0].to == "channel" and "opened a lobby" in out[0].text
    assert [b.label for b in out[0].rows[0]] == ["Join", "Start (host)"]
    out = await svc.handle(ctx(bob), "new", {"game": "primary-general"})
    assert out[0].to == "ephemeral" and "already has a game" in out[0].text
    out = await svc.handle(ctx(bob), "start", {})
    assert "Only the host" in out[0].text
    out = await svc.handle(ctx(alice), "start", {})
    assert "needs at least 2" in out[0].text
    await svc.handle(ctx(bob), "join", {})
    out = await svc.handle(ctx(bob), "join", {})
    assert "already in this lobby" in out[0].text
    out = await svc.handle(ctx(alice), "start", {})
    assert out[0].to == "channel" and "begins" in out[0].text
    out = await svc.handle(ctx(carol), "join", {})
    assert "already started" in out[0].text
    await svc.store.close()


async def test_channel_never_sees_a_hand(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await lobby(svc, alice, bob)
    out = await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    state = loaded.game.load(loaded.record.state)
    for msg in out:
        if msg.to == "channel":
            assert "Your hand" not in msg.text
    dms = {m.user_id: m.text for m in out if m.to == "dm"}
    for seat, who in enumerate([alice, bob]):
        names = {BY_SLUG[s].name for s in state.hands[seat]}
        assert all(n in dms[who.id] for n in names)
    await svc.store.close()


async def test_errors_are_one_sentence_and_change_nothing(database):
    svc = await service_on(database)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    before = (await svc.store.get(CH)).record
    loaded = await svc.load(CH)
    state = loaded.game.load(loaded.record.state)
    turn = loaded.game.to_act(state)[0]
    waiting, other = ([alice, bob][turn], [alice, bob][1 - turn])
    cases = [
        (ctx(other), "do", {"action": "play gaffe alice"}, "not your turn"),
        (ctx(carol), "do", {"action": "play gaffe alice"}, "not a player"),
        (ctx(waiting), "do", {"action": "play unicorn alice"}, "no card called"),
        (ctx(waiting), "do", {"action": "dance"}, "not a move"),
        (ctx(waiting), "do", {"action": "x" * 5000}, "too long"),
        (ctx(waiting), "do", {}, "needs 'action'"),
        (ctx(waiting), "new", {"game": "chess"}, "not a choice"),
        (ctx(waiting), "new", {"game": "primary-general", "bots": 99}, "between 0 and 7"),
        (ctx(waiting), "new", {"game": "primary-general", "seed": "abc"}, "whole number"),
        (ctx(waiting), "status", {"bogus": 1}, "has no option"),
        (ctx(waiting), "nonsense", {}, "no command"),
    ]
    for c, name, opts, expect in cases:
        out = await svc.handle(c, name, opts)
        assert len(out) == 1 and out[0].to == "ephemeral", (name, opts)
        assert expect in out[0].text, (expect, out[0].text)
        assert "Traceback" not in out[0].text
    assert (await svc.store.get(CH)).record == before
    await svc.store.close()


async def test_stale_and_foreign_buttons(database):
    svc = await service_on(database)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    here = await where(svc)
    out = await svc.component(ctx(carol), f"pb:{here}:0:play")
    assert "belong to another player" in out[0].text
    out = await svc.component(ctx(alice), "zz:1:2")
    assert "not one of mine" in out[0].text
    out = await svc.component(ctx(alice), f"pb:{here}:7:play")
    assert "Too late" in out[0].text
    await svc.store.close()


async def test_controls_walk_the_action_words(database):
    svc = await service_on(database)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    game = loaded.game
    state = game.load(loaded.record.state)
    seat = game.to_act(state)[0]
    who = [alice, bob][seat]
    panel = (await svc.handle(ctx(who), "hand", {}))[0]
    first = panel.rows[0][0]
    # The only verb ("play") is skipped; the first step is the cards.
    if isinstance(first, Select):
        step = await svc.component(ctx(who), first.custom_id, [first.options[0][1]])
    else:
        step = await svc.component(ctx(who), first.custom_id)
    assert step[0].to == "edit"
    target = step[0].rows[0][0]
    assert isinstance(target, Button) and target.custom_id.startswith(f"pb:{await where(svc)}:0:play ")
    assert any(b.label == "← Back" for b in step[0].rows[-1])
    done = await svc.component(ctx(who), target.custom_id)
    assert any(m.to == "channel" and "plays" in m.text for m in done)
    assert sum((await svc.load(CH)).record.acted) == 1
    for row in panel.rows:
        for item in row:
            assert len(item.custom_id) <= 100
    await svc.store.close()


async def test_ai_seats_play_inline_to_the_end(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 3, "seed": 8})
    await svc.handle(ctx(alice), "start", {})
    for _ in range(40):
        loaded = await svc.load(CH)
        if loaded.record.status == "finished":
            break
        state = loaded.game.load(loaded.record.state)
        move = loaded.game.legal_actions(state, 0)[0].text()
        await svc.handle(ctx(alice), "do", {"action": move})
    loaded = await svc.load(CH)
    assert loaded.record.status == "finished"
    out = await svc.handle(ctx(alice), "do", {"action": "play gaffe alice"})
    assert "over" in out[0].text
    await svc.store.close()


async def test_ai_waits_its_delay_then_moves_on_tick(database):
    clock = FakeClock()
    svc = await service_on(database, ai_delay=2.0, clock=clock)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1, "seed": 1})
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    state = loaded.game.load(loaded.record.state)
    if loaded.game.to_act(state) == [0]:
        await svc.handle(ctx(alice), "do", {"action": loaded.game.legal_actions(state, 0)[0].text()})
    assert await svc.tick(clock.now + 1) == []
    out = await svc.tick(clock.now + 2.5)
    assert any(m.to == "channel" and "AI-Lincoln plays" in m.text for m in out)
    await svc.store.close()


async def test_turn_timeout_reminds_then_plays_for_the_player(database):
    clock = FakeClock()
    svc = await service_on(database, clock=clock)
    await lobby(svc, alice, bob, settings="timeout=2")
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    assert loaded.record.bot_settings.timeout == 2.0
    out = await svc.tick(clock.now + 61)
    assert len(out) == 1 and "waiting for you" in out[0].text and out[0].to == "channel"
    assert "about 1 minute left" in out[0].text  # not "1 minute(s)"
    assert await svc.tick(clock.now + 62) == []  # one reminder only
    out = await svc.tick(clock.now + 121)
    assert "ran out of time" in out[0].text
    assert sum((await svc.load(CH)).record.acted) == 1
    await svc.store.close()


async def test_closed_dms_fall_back_without_secrets(database):
    svc = await service_on(database)
    out = await svc.dm_failed(CH, alice.id)
    assert len(out) == 1 and out[0].to == "channel"
    assert "DMs are closed" in out[0].text and out[0].rows[0][0].custom_id == f"pg:{CH}:turn"
    await svc.store.close()


async def test_leaving_mid_game_hands_the_seat_to_the_ai(database):
    svc = await service_on(database, inline_ai=True, ai_delay=0)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    out = await svc.handle(ctx(bob), "leave", {})
    assert any("an AI plays their seat" in t for t in texts(out))
    loaded = await svc.load(CH)
    assert loaded.record.players[1].ai is True
    # The hand-over is a move in the log (the bot's, as SYSTEM), so the engine knows the seat is an
    # AI's and a replay of the log makes the same change and reaches the same state.
    record, game = loaded.record, loaded.game
    assert [list(m) for m in record.log].count([SYSTEM, "handover 1"]) == 1
    assert loaded.state.seats[1].bot and not loaded.state.seats[0].bot
    replayed = game.load(record.opening)
    for seat, text in record.log:
        game.apply_in_place(replayed, seat, game.parse_action(text))
    assert game.dump(replayed) == record.state
    out = await svc.handle(ctx(bob), "leave", {})
    assert "not in this game" in out[0].text
    await svc.store.close()


async def test_settings_are_validated_and_host_only(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general", "settings": "adhd_scope=everything"})
    assert "not valid" in out[0].text
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general", "settings": "carry_scores=no"})
    assert "carry_scores=off" in out[0].text  # shown as the docs write a switch
    await svc.handle(ctx(bob), "join", {})
    out = await svc.handle(ctx(bob), "settings", {"settings": "adhd_scope=game"})
    assert "Only the host" in out[0].text
    out = await svc.handle(ctx(alice), "settings", {})
    assert "carry_scores" in out[0].text and "timeout" in out[0].text
    out = await svc.handle(ctx(alice), "settings", {"settings": "timeout=-3"})
    assert "between 0 and 1440" in out[0].text
    await svc.store.close()


async def test_autocomplete_offers_only_legal_moves(database):
    svc = await service_on(database)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    state = loaded.game.load(loaded.record.state)
    seat = loaded.game.to_act(state)[0]
    who, other = [alice, bob][seat], [alice, bob][1 - seat]
    legal = {a.text() for a in loaded.game.legal_actions(state, seat)}
    found = await svc.autocomplete(ctx(who), "do", "action", "")
    assert found and len(found) <= 25 and all(v in legal for _, v in found)
    assert await svc.autocomplete(ctx(other), "do", "action", "") == []
    assert await svc.autocomplete(ctx(carol), "do", "action", "") == []
    await svc.store.close()


async def test_help_and_rules(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "help", {})
    assert "/politics new" in out[0].text and "primary-general" in out[0].text
    out = await svc.handle(ctx(alice), "rules", {"game": "primary-general"})
    assert "Voter ADHD" in out[0].text
    await svc.store.close()


async def test_a_failing_scheduled_move_backs_off_instead_of_spinning(database):
    clock = FakeClock()
    svc = await service_on(database, clock=clock, ai_delay=1.0)
    await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1, "seed": 1})
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    loaded.record.timer = RowTimer(key="k", due=clock.now - 1, seat=-1, action="nonsense move")
    await svc.rows.save(None, CH, loaded, loaded.record)
    assert await svc.tick(clock.now) == []
    assert await svc.store.due(clock.now + 30) == []  # postponed a minute
    assert await svc.store.due(clock.now + 61) == [CH]
    await svc.store.close()


async def test_games_are_not_opened_in_direct_messages(database):
    from bot.messages import Ctx
    svc = await service_on(database)
    out = await svc.handle(Ctx(alice, "dm-1", None), "new", {"game": "primary-general"})
    assert "server channels" in out[0].text
    await svc.store.close()


async def test_controls_carry_the_game_and_rows_from_before_refs_still_play(database):
    svc = await service_on(database)
    await lobby(svc, alice, bob)
    await svc.handle(ctx(alice), "start", {})
    loaded = await svc.load(CH)
    ref = loaded.record.game_ref
    assert len(ref) == 6 and ref.isalnum() and await where(svc) == f"{CH}.{ref}"
    items = [item for who in (alice, bob) for row in (await svc.handle(ctx(who), "hand", {}))[0].rows for item in row]
    assert items and all(f":{CH}.{ref}:" in f":{item.custom_id[3:]}" for item in items)
    # another game's control (or one without a ref) is refused in one line and changes nothing
    for cid in (f"pg:{CH}.zzzzzz:turn", f"pg:{CH}:turn", f"pb:{CH}.zzzzzz:0:play"):
        out = await svc.component(ctx(alice), cid)
        assert [m.text for m in out] == ["That button belongs to an earlier game in this channel."]
    assert (await svc.load(CH)).version == loaded.version
    # a row written before refs: no migration, its ref-less controls keep working
    del loaded.record.game_ref
    await svc.rows.save(None, CH, loaded, loaded.record)
    out = await svc.component(ctx(alice), f"pg:{CH}:turn")
    assert out[0].to == "ephemeral" and "earlier game" not in out[0].text
    assert all(f":{CH}:" in f":{item.custom_id[3:]}" for row in out[0].rows for item in row)
    await svc.store.close()


async def test_channel_locks_exclude_while_held_and_are_dropped_when_idle(tmp_path):
    locks = ChannelLocks()
    order: list[str] = []
    first_in, release = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with locks.hold("a"):
            first_in.set()
            order.append("first in")
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold("a"):
            order.append("second in")

    holder = asyncio.create_task(first())
    await first_in.wait()
    waiter, given_up = asyncio.create_task(second()), asyncio.create_task(second())
    await asyncio.sleep(0)
    given_up.cancel()  # a waiter that gives up (a cancelled request) leaves nothing behind
    await asyncio.sleep(0)
    assert order == ["first in"] and len(locks) == 1
    release.set()
    await asyncio.gather(holder, waiter)
    assert order == ["first in", "first out", "second in"]
    assert len(locks) == 0

    # the service's own: none is kept for channels nobody is using
    svc = await service_on(str(tmp_path / "s.db"))
    for channel in ("501", "502", "503"):
        await svc.handle(ctx(alice, channel), "new", {"game": "primary-general"})
        await svc.handle(ctx(bob, channel), "join", {})
    assert len(svc.locks) == 0
    await svc.store.close()


async def test_every_command_has_one_handler_and_a_command_without_one_stops_the_service(database, monkeypatch):
    import bot.service
    from bot.registry import CommandSpec, commands
    svc = await service_on(database)
    assert set(svc.handlers) == set(commands())
    assert svc.handlers["do"] == svc.play.do and svc.handlers["new"] == svc.lobby.new
    with_new = {**commands(), "shout": CommandSpec("shout", "A command nobody handles")}
    monkeypatch.setattr(bot.service, "commands", lambda: with_new)
    with pytest.raises(RuntimeError, match="shout"):
        GameService(svc.store)
    await svc.store.close()
