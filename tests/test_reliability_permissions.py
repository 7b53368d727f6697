"""Permissions are enforced by the bot, not by what Discord happens to show:
only players act, only the host or Manage Channels cancels, admin-only
commands need Manage Server."""
from __future__ import annotations

from bot.messages import Ctx, User
from bot.registry import commands
from bot.service import GameService
from bot.store import Store
from testkit.fakediscord.driver import latest
from testkit.fakediscord.figures import record_fake

MANAGE_CHANNELS, MANAGE_GUILD = 1 << 4, 1 << 5


async def test_only_players_act_and_only_host_or_moderator_cancels(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    store = harness.service.store
    ch = fake.general
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    mod = fake.user("mod", perms=MANAGE_CHANNELS)
    await alice.slash("/politics new game:primary-general seed:2", channel=ch)
    await bob.click(latest(fake.public(ch), "Join"), "Join")
    inter = await bob.click(latest(fake.public(ch), "Start (host)"), "Start (host)")
    assert "Only the host" in inter.text()
    await alice.slash("/politics start", channel=ch)
    before = await store.get(ch)
    choices = (await alice.autocomplete("/politics do action:", "action", channel=ch)
               or await bob.autocomplete("/politics do action:", "action", channel=ch))
    assert choices
    assert await carol.autocomplete("/politics do action:", "action", channel=ch) == []  # nothing for a non-player
    inter = await carol.slash_raw("do", {"action": choices[0]["value"]}, channel=ch)
    assert "not a player" in inter.text()
    inter = await carol.slash("/politics cancel", channel=ch)
    assert "Only the host or someone with Manage Channels" in inter.text()
    inter = await bob.slash("/politics cancel", channel=ch)
    assert "Only the host" in inter.text()
    after = await store.get(ch)
    assert (after.version, after.record) == (before.version, before.record)
    # a moderator (Manage Channels, sent by Discord in member.permissions) may cancel
    await mod.slash("/politics cancel", channel=ch)
    assert await store.get(ch) is None
    assert any("cancelled by **mod**" in m.content for m in fake.channel_messages(ch))
    # the host may cancel their own lobby
    await alice.slash("/politics new game:primary-general", channel=ch)
    await alice.slash("/politics cancel", channel=ch)
    assert await store.get(ch) is None
    record_fake("permissions (Discord)", fake)


async def test_admin_commands_need_manage_server(tmp_path):
    svc = GameService(await Store.open(str(tmp_path / "p.db")), render=False)
    admin_specs = [s for s in commands().values() if s.admin]
    user, admin = User("u1", "user"), User("u2", "admin", manage_server=True)
    for spec in admin_specs:
        opts = {o.name: ("q.csv", b"question,answer\n") if o.kind == "attachment" else "x"
                for o in spec.options if o.required}
        out = await svc.handle(Ctx(user, "1", "9"), spec.name, opts)
        assert "Only server admins" in out[0].text, spec.name
        out = await svc.handle(Ctx(admin, "1", "9"), spec.name, opts)
        assert "Only server admins" not in out[0].text
    # Every admin command is declared by a game's server data, except clearing the server's records.
    kinds = {s.group for s in admin_specs if s.group}
    from engines import all_games
    assert kinds == {k for g in all_games().values() for k in g.server_data_kinds}
    assert {s.name for s in admin_specs if not s.group} == {"stats-reset"}
    await svc.store.close()


async def test_admin_commands_need_manage_server_via_discord(harness):
    fake = harness.fake
    await harness.start_bot(render=False)
    user = fake.user("user")
    admin = fake.user("admin", perms=MANAGE_GUILD)
    for spec in [s for s in commands().values() if s.admin]:
        files = {o.name: ("q.csv", b"question,answer\nWho?,Me\n") for o in spec.options if o.kind == "attachment"}
        opts = {o.name: "x" for o in spec.options if o.required and o.kind != "attachment"}
        inter = await user.slash_raw(spec.name, opts, files=files)
        assert "Only server admins" in inter.text(), (spec.name, inter.text())
        inter = await admin.slash_raw(spec.name, opts, files=files)
        assert "Only server admins" not in inter.text() and inter.latency is not None
    # whatever the commands, a plain member is never treated as an admin
    inter = await user.slash("/politics help")
    assert inter.latency is not None
