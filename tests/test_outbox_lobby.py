"""Opening and cancelling a game are commits too: what the bot must say about them is stored in
the same transaction (the outbox) and handed back after a crash, once, with the same nonces."""
from __future__ import annotations

from tests.helpers import ctx, service_on, user

alice = user("alice")


async def crashed_and_restarted(path, svc):
    """A new process on the same file: the old one never reported anything delivered."""
    await svc.store.close()
    again = await service_on(path)
    again.outbox.enabled = True
    return again


async def test_the_lobby_message_survives_a_crash_and_is_delivered_once(database):
    path = database
    svc = await service_on(path)
    svc.outbox.enabled = True
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1})
    lobby = [m for m in out if m.to == "channel"]
    assert lobby and lobby[0].outbox_id is not None and lobby[0].nonce
    svc = await crashed_and_restarted(path, svc)
    pending = await svc.pending_outbox()
    assert len(pending) == 1
    entry_id, _reply, messages = pending[0]
    assert [m.text for m in messages] == [m.text for m in lobby]
    assert [m.nonce for m in messages] == [m.nonce for m in lobby]  # a resend Discord can recognise
    svc.delivered([entry_id])
    await svc.flush_delivered()
    assert await svc.pending_outbox() == []
    await svc.store.close()


async def test_the_cancel_notice_is_stored_with_the_delete(database):
    path = database
    svc = await service_on(path)
    svc.outbox.enabled = True
    opened = await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1})
    svc.delivered([m.outbox_id for m in opened])
    await svc.flush_delivered()  # the scheduler's tick does this when no commit comes by
    out = await svc.handle(ctx(alice), "cancel", {})
    assert "cancelled" in out[0].text and out[0].outbox_id is not None
    svc = await crashed_and_restarted(path, svc)
    pending = await svc.pending_outbox()
    assert [[m.text for m in msgs] for _, _, msgs in pending] == [[out[0].text]]
    assert await svc.store.get("500") is None  # the game is gone, and its notice is still owed
    await svc.store.close()


async def test_without_the_outbox_nothing_is_stored(database):
    svc = await service_on(database)
    out = await svc.handle(ctx(alice), "new", {"game": "primary-general", "bots": 1})
    assert out[0].outbox_id is None
    await svc.handle(ctx(alice), "cancel", {})
    assert await svc.pending_outbox() == []
    await svc.store.close()
