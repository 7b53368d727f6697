"""Every game in engines/, played to the end through a fake Discord by the
bot's real discord.py client: humans click the controls the bot sends."""
from __future__ import annotations

import pytest

from engines import all_games, get_game
from render import get_renderer
from testkit.fakediscord.driver import check_min_players, leaks, play
from testkit.fakediscord.figures import record_fake

GAMES = sorted(all_games())


@pytest.mark.parametrize("game_id", GAMES)
async def test_full_game_through_discord(harness, game_id):
    fake = harness.fake
    await harness.start_bot()
    n_humans, bots = check_min_players(game_id)
    humans = [fake.user(n) for n in ["alice", "bob", "carol"][:n_humans]]
    run = await play(fake, harness.service, game_id, humans, bots=bots, seed=11)
    assert not run.errors, run.errors
    assert run.finished, f"{game_id} did not finish"
    assert run.human_actions > 0
    channel = fake.channel_messages(run.channel)
    # the board image is attached as a PNG
    images = [f for m in channel for f in m.files]
    if get_renderer(game_id) is not None:
        assert images, f"{game_id} has a renderer but no image reached the channel"
    assert all(data[:8] == b"\x89PNG\r\n\x1a\n" for _, data in images)
    # and described: every image's alt text (the attachment description) names the game
    title = get_game(game_id).title.split(" (")[0].split(":")[0]
    for m in channel:
        assert len(m.descriptions) == len(m.files)
        assert all(0 < len(d) <= 1024 and title in d for d in m.descriptions), (title, m.descriptions)
    # every interaction answered (how fast goes to docs/reliability.md); slash commands deferred then followed up
    assert not fake.unanswered()
    # Discord never had to refuse anything: no 4xx (no 40060 double acknowledgement, no bad form body)
    assert not [r for r in fake.requests if 400 <= r[3] < 500], [r for r in fake.requests if r[3] >= 400][:5]
    for inter in fake.interactions.values():
        if inter.type == 2:
            assert inter.callback_type == 5  # deferred first
    # DMs only to their owners, and no private line where someone else can see it
    for h in humans:
        for m in h.dms():
            assert fake.dm_channels[m.channel_id] == h.id
    assert not await leaks(run)
    # the leak check above must have had something to look for (unless the game hides nothing:
    # then its DMs are turn prompts, never secrets, and its boards offer no "My hand")
    private_info = get_game(game_id).private_info
    if not private_info:
        assert not any(run.secrets.values()), f"{game_id} has private texts: it has private_info"
    else:
        assert any(run.secrets.values()) or not any(h.dms() for h in humans)
    boards = [m for m in channel if "Open my controls" in m.labels()]
    assert boards and all(("My hand" in m.labels()) == private_info for m in boards)
    # stale controls after the end: one sentence or an empty panel, and the stored game doesn't change
    row = await harness.service.store.get(run.channel)
    old_board = next(m for m in reversed(channel) if "Open my controls" in m.labels())
    inter = await humans[0].click(old_board, "Open my controls")
    assert "over" in inter.text() and not inter.last_reply().components
    old_dm = next((m for m in humans[0].dms() if m.buttons()), None)
    if old_dm is not None:
        inter = await humans[0].click(old_dm, custom_id=old_dm.buttons()[0]["custom_id"])
        assert "over" in (inter.text() + old_dm.content) and "Something went wrong" not in inter.text()
    after = await harness.service.store.get(run.channel)
    assert (after.version, after.record) == (row.version, row.record)
    record_fake(f"full game: {game_id}", fake, games=1, human_actions=run.human_actions,
                images=len(images), dms=sum(len(h.dms()) for h in humans), actions_lost=0,
                secret_tokens=sum(len(v) for v in run.secrets.values()))
