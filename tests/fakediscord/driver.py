"""Play whole games through the fake Discord the way people do: lobby buttons,
"Open my controls", the DM controls, select menus, text forms and
`/politics do` with an autocompleted legal move."""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from engines import get_game

from .client import UserHandle
from .server import FakeDiscord, Sent

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
    secrets: dict[str, set[str]] = field(default_factory=dict)  # user id -> private lines of that user


def latest(messages: list[Sent], label: str) -> Sent | None:
    for m in reversed(messages):
        if label in m.labels():
            return m
    return None


def game_over(fake: FakeDiscord, channel: str) -> bool:
    return any("Game over" in m.content for m in fake.channel_messages(channel))


async def navigate(user: UserHandle, panel: Sent, rng: random.Random, run: GameRun, answers: list[str]) -> bool:
    """Click through a private panel until a move is applied. True if one was."""
    for _ in range(12):
        buttons = [b for b in panel.buttons() if b.get("label") not in NON_MOVES]
        choices: list[tuple[str, object]] = [("button", b) for b in buttons]
        for index, sel in enumerate(panel.selects()):
            choices += [("select", (index, o["value"])) for o in sel.get("options", [])]
        if not choices:
            return False
        kind, what = rng.choice(choices)
        before_edits = panel.edits
        if kind == "button":
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


async def collect_secrets(service, channel: str, run: GameRun, humans: list[UserHandle]) -> None:
    """Each human's whole private text at this moment (their hand, their pick)."""
    loaded = await service._load(channel)
    if loaded is None or not loaded.record.get("state"):
        return
    game = loaded.game
    state = game.load(loaded.record["state"])
    seats = {p["id"]: i for i, p in enumerate(loaded.record["players"])}
    for h in humans:
        if h.id in seats:
            block = game.private_text(state, seats[h.id]).strip()
            if len(block) >= 20:
                run.secrets.setdefault(h.id, set()).add(block)


async def play(fake: FakeDiscord, service, game_id: str, humans: list[UserHandle], *, bots: int, seed: int,
               channel: str | None = None, max_rounds: int = 400, modes=("controls", "dm", "do")) -> GameRun:
    channel = channel or fake.add_channel(f"{game_id}-{seed}")
    run = GameRun(game_id, channel)
    rng = random.Random(seed)
    answers = ["yes", "Lincoln", "1860", "Florida", "a"]
    host = humans[0]
    await host.slash(f"/politics new game:{game_id} seed:{seed} bots:{bots}", channel=channel)
    run.interactions += 1
    for h in humans[1:]:
        lobby = latest(fake.public(channel), "Join")
        await h.click(lobby, "Join")
        run.interactions += 1
    lobby = latest(fake.public(channel), "Start (host)")
    await host.click(lobby, "Start (host)")
    run.interactions += 1
    idle_rounds = 0
    for round_no in range(max_rounds):
        if game_over(fake, channel):
            run.finished = True
            break
        moved = False
        for h in humans:
            if game_over(fake, channel):
                break
            await collect_secrets(service, channel, run, humans)
            mode = modes[(round_no + humans.index(h)) % len(modes)]
            if await take_turn(fake, h, channel, mode, rng, run, answers):
                run.human_actions += 1
                moved = True
        idle_rounds = 0 if moved else idle_rounds + 1
        if idle_rounds >= 4:
            run.errors.append(f"no human could move for 4 rounds (round {round_no})")
            break
    run.finished = game_over(fake, channel)
    return run


def leaks(fake: FakeDiscord, run: GameRun, humans: list[UserHandle]) -> list[str]:
    """A player's private text found anywhere the channel or another player can see."""
    found = []
    public = "\n".join(m.content for m in fake.public(run.channel))
    shared = {b for uid, blocks in run.secrets.items() for b in blocks
              if sum(b in other for other in run.secrets.values()) > 1}  # two identical hands: not a secret
    for uid, blocks in run.secrets.items():
        for block in blocks - shared:
            if block in public:
                found.append(f"channel shows {uid}'s {block[:60]!r}")
            for other in humans:
                if other.id == uid:
                    continue
                seen = "\n".join(m.content for m in fake.sent if m.visible_to == other.id)
                if block in seen:
                    found.append(f"{other.name} saw {uid}'s {block[:60]!r}")
    return found


def check_min_players(game_id: str) -> tuple[int, int]:
    game = get_game(game_id)
    humans = min(2, game.max_players)
    bots = 1 if humans < game.max_players else 0
    return humans, bots
