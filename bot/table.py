"""The local table: the bot's commands typed in a terminal, you against AI seats.

It runs the transcript runner's path (registry -> GameService -> SQLite), so
what works here works on Discord. Private messages are shown only for you;
board images are saved to a folder and their paths printed.
"""
from __future__ import annotations

import os
import sys

from engines import all_games, get_game

from .messages import Button, Select, spell_countdowns
from .transcript import TranscriptRunner

ME = "you"

INTRO = """politics-bot local table: {title}. Type a number from the menu shown, a move as words
({moves}), or a full command (`/politics hand`, `/politics status`, `/politics rules`).
`help` lists commands; `quit` leaves (the game is saved in {db})."""


async def run_table(game_id: str | None, bots: int, seed: int | None, out_dir: str, db_path: str,
                    settings: str | None = None, stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    games = all_games()
    if game_id is None:
        say("Games: " + ", ".join(sorted(games)))
        say("Which game? ")
        line = stdin.readline()
        if not line:
            return 0
        game_id = line.strip() or sorted(games)[0]
    if game_id not in games:
        say(f"There is no game '{game_id}'. Games: {', '.join(sorted(games))}.")
        return 2
    game = get_game(game_id)
    bots = max(game.min_players - 1, min(bots, game.max_players - 1))
    os.makedirs(out_dir, exist_ok=True)
    runner = await TranscriptRunner.create(db_path, render=True, image_dir=out_dir)
    runner.user(ME)
    moves = ", ".join(f"`{game.usage(cls)}`" for cls in game.actions[:4])
    say(INTRO.format(title=game.title, moves=moves, db=db_path))
    menu: list[tuple[str, object]] = []

    async def send(line: str) -> None:
        nonlocal menu
        for entry in await runner.run_line(line):
            to = entry["to"]
            if to.startswith(("dm:", "ephemeral:")) and not to.endswith(":" + ME):
                continue  # other seats' private messages are not yours to see
            tag = {"channel": "#game"}.get(to, "(only you)" if to != "runner" else "!")
            say(f"\n{tag} {spell_countdowns(entry['text'], runner.clock.now)}")
            if entry.get("board"):
                say(entry["board"])
            for fname in entry.get("images", []):
                say(f"   image: {os.path.join(out_dir, f'{runner.image_count:04d}-{fname}')}")
        menu = []
        rows = runner.last_rows.get(ME, [])
        for row in rows:
            for item in row:
                if isinstance(item, Button):
                    menu.append((item.label, ("click", item.label)))
                elif isinstance(item, Select):
                    menu.extend((label, ("select", value)) for label, value in item.options)
        if menu:
            items = [f"[{i + 1}] {label}" for i, (label, _) in enumerate(menu)]
            if sum(len(x) + 2 for x in items) <= 100:
                say("   " + "  ".join(items))
            else:  # a long menu reads better as a list
                for item in items:
                    say("   " + item)

    loaded = await runner.service._load("100000000000000001")
    if loaded is None:
        opts = f" seed:{seed}" if seed is not None else ""
        if settings:
            opts += f' settings:"{settings}"'
        await send(f"{ME}: /politics new game:{game_id} bots:{bots}{opts}")
        await send(f"{ME}: /politics start")
    try:
        while True:
            final = await runner.final()
            if final["final"]["finished"]:
                say(f"\nGame over. Winners: {', '.join(final['final']['winners'])}.")
                return 0
            stdout.write("> ")
            stdout.flush()
            line = stdin.readline()
            if not line:
                return 0
            line = line.strip()
            if not line:
                continue
            if line in ("quit", "exit"):
                return 0
            if line == "help":
                await send(f"{ME}: /politics help")
            elif line.isdigit() and 1 <= int(line) <= len(menu):
                kind, value = menu[int(line) - 1][1]
                await send(f"{ME}: {kind} {value}")
            elif line.startswith("/politics"):
                await send(f"{ME}: {line}")
            elif line in ("hand", "status", "rules"):
                await send(f"{ME}: /politics {line}")
            else:
                await send(f"{ME}: /politics do action:{line}")
    finally:
        await runner.close()
