"""Play whole games through the fake Discord the way people do: lobby buttons,
"Open my controls", the DM controls, select menus, text forms and
`/politics do` with an autocompleted legal move."""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from engines import get_game

from testkit.leakcheck import LeakWatch

from .client import UserHandle
from .server import FakeDiscord
from .stored import Sent

BACK = "← Back"
NON_MOVES = {BACK, "My hand", "Open my controls"}


@dataclass
class GameRun:
    game_id: str
    channel: str
    finished: bool = False
    human_actions: int = 0
    interactions: int = 0
    errors: list[str] = field(default_factory=list)
    watch: LeakWatch | None = None  # every secret token of every seat against what others received

    @property
    def secrets(self) -> dict[str, set[str]]:
        """user id -> every token that was ever secret to that player."""
        return self.watch.secrets if self.watch else {}


def latest(messages: list[Sent], label: str) -> Sent | None:
    for m in reversed(messages):
        if label in m.labels():
            return m
    return None


async def lobby_of_two(fake: FakeDiscord, game: str = "primary-general", seed: int = 5,
                       channel: str | None = None, settings: str = "") -> tuple[str, UserHandle, UserHandle]:
    """alice opens `game` in `channel` (the server's general channel by default) with `settings`
    (the lobby's `settings:` option) and bob joins: (channel, alice, bob), not started yet."""
    ch = channel or fake.general
    alice, bob = fake.user("alice"), fake.user("bob")
    await alice.slash(f"/politics new game:{game} seed:{seed}" + (f" settings:{settings}" if settings else ""),
                      channel=ch)
    lobby = latest(fake.public(ch), "Join")
    assert lobby is not None, "no lobby with a Join button was posted"
    await bob.click(lobby, "Join")
    return ch, alice, bob


def game_over(fake: FakeDiscord, channel: str) -> bool:
    return any("Game over" in m.content for m in fake.channel_messages(channel))


async def navigate(user: UserHandle, panel: Sent, rng: random.Random, run: GameRun, answers: list[str]) -> bool:
    """Click through a private panel until a move is applied. True if one was."""
    for _ in range(12):
        buttons = [b for b in panel.buttons() if b.get("label") not in NON_MOVES]
        # a button (its payload), or a select menu's option (the menu's index, the option's value)
        choices: list[dict | tuple[int, str]] = list(buttons)
        for index, sel in enumerate(panel.selects()):
            choices += [(index, o["value"]) for o in sel.get("options", [])]
        if not choices:
            return False
        what = rng.choice(choices)
        before_edits = panel.edits
        if isinstance(what, dict):
            cid = what["custom_id"]
            inter = await user.click(panel, custom_id=cid)
            run.interactions += 1
            if cid.startswith("pt:"):
                if not inter.modal:
                    return False
                inter = await user.submit_modal(inter, rng.choice(answers))
                run.interactions += 1
                return "✓ Done" in inter.text()
        else:
            index, value = what
            inter = await user.select(panel, [value], index=index)
            run.interactions += 1
        text = inter.text()
        if "✓ Done" in text or "✓ Done" in panel.content and panel.edits > before_edits:
            return True
        if panel.edits > before_edits:
            continue  # the panel was updated in place (DM or ephemeral origin)
        reply = inter.last_reply()
        if reply is None or not (reply.buttons() or reply.selects()):
            return False
        panel = reply
    return False


async def take_turn(fake: FakeDiscord, user: UserHandle, channel: str, mode: str, rng: random.Random,
                    run: GameRun, answers: list[str]) -> bool:
    if mode == "do":
        choices = await user.autocomplete("/politics do action:", "action", channel=channel)
        run.interactions += 1
        if not choices:
            return False
        pick = rng.choice(choices)["value"]
        inter = await user.slash_raw("do", {"action": pick}, channel=channel)
        run.interactions += 1
        return "✓ Done" in inter.text()
    if mode == "dm":
        for m in reversed(user.dms()):
            if m.buttons() or m.selects():
                if await navigate(user, m, rng, run, answers):
                    return True
                break
    board = latest(fake.public(channel), "Open my controls")
    if board is None:
        return False
    inter = await user.click(board, "Open my controls")
    run.interactions += 1
    panel = inter.last_reply()
    if panel is None:
        return False
    return await navigate(user, panel, rng, run, answers)


async def play(fake: FakeDiscord, service, game_id: str, humans: list[UserHandle], *, bots: int, seed: int,
               channel: str | None = None, max_rounds: int = 400, modes=("controls", "dm", "do")) -> GameRun:
    channel = channel or fake.add_channel(f"{game_id}-{seed}")
    watch = LeakWatch(fake, service, channel)
    run = GameRun(game_id, channel, watch=watch)
    rng = random.Random(seed)
    answers = ["yes", "Lincoln", "1860", "Florida", "a"]
    host = humans[0]
    await host.slash(f"/politics new game:{game_id} seed:{seed} bots:{bots}", channel=channel)
    run.interactions += 1
    for h in humans[1:]:
        lobby = latest(fake.public(channel), "Join")
        assert lobby is not None, "the channel shows no lobby with a Join button"
        await h.click(lobby, "Join")
        run.interactions += 1
    lobby = latest(fake.public(channel), "Start (host)")
    assert lobby is not None, "the channel shows no lobby with a Start button"
    await host.click(lobby, "Start (host)")
    run.interactions += 1
    idle_rounds = 0
    for round_no in range(max_rounds):
        if game_over(fake, channel):
            run.finished = True
            break
        await wait_for_the_clock(service, channel)
        moved = False
        for h in humans:
            if game_over(fake, channel):
                break
            await watch.observe()
            mode = modes[(round_no + humans.index(h)) % len(modes)]
            if await take_turn(fake, h, channel, mode, rng, run, answers):
                run.human_actions += 1
                moved = True
        idle_rounds = 0 if moved else idle_rounds + 1
        if idle_rounds >= 4:
            run.errors.append(f"no human could move for 4 rounds (round {round_no})")
            break
    await watch.observe()
    run.finished = game_over(fake, channel)
    return run


async def wait_for_the_clock(service, channel: str, longest: float = 45.0) -> None:
    """While the game waits for nobody but its clock (an AI seat's charade: guesses are open to
    everyone, but a random guess never names the secret), let the clock run, as a table would,
    instead of spending the rounds on guesses."""
    loaded = await service.load(channel)
    if loaded is None or loaded.record.status != "playing" or loaded.record.timer is None:
        return
    if loaded.game.to_act(loaded.state):
        return
    await asyncio.sleep(min(longest, max(0.0, loaded.record.timer.due - service.clock()) + 1.5))


async def leaks(run: GameRun) -> list[str]:
    """Every secret token of every seat found where the channel or another player saw it
    (testkit/leakcheck.py), up to what the bot has sent by now."""
    if run.watch is None:
        raise ValueError("this run kept no leak watch")
    await run.watch.observe()
    return run.watch.found


def check_min_players(game_id: str) -> tuple[int, int]:
    game = get_game(game_id)
    humans = min(2, game.max_players)
    bots = 1 if humans < game.max_players else 0
    return humans, bots
