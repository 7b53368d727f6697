"""`python -m bot.message_counts [GAME ...] [--seed N] [--json]`: what one game says in its channel.

Plays each game to its end through the transcript runner (the slash-command path Discord takes,
boards drawn as Discord gets them) twice: with two human players, and with every seat an AI. The
humans' moves are the game's normal AI's choices, typed with `/politics do`, so a run is the same
every time. It counts what the channel would show (new messages and edits of the turn's board
apart), the images sent (an edit uploads the pictures that changed; Discord keeps the others), and DMs.
The figures in docs/games/*.md come from `python -m bot.message_counts --seed 1`.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import asdict, dataclass

from engines import all_games, get_game

from .ai_worker import ai_move
from .transcript import TranscriptRunner

MAX_STEPS = 5000


@dataclass
class Counts:
    game: str
    players: str  # "two humans" | "all AI"
    moves: int = 0
    turns: int = 0  # human turns begun (a new board with a ping); all-AI games have none
    channel_posts: int = 0  # new channel messages (boards, notices)
    board_edits: int = 0  # the turn's board edited in place
    images: int = 0  # images sent with channel posts and edits
    dms: int = 0
    finished: bool = False


def _tally(counts: Counts, lines: list[dict]) -> None:
    for line in lines:
        to = line.get("to", "")
        if to == "channel":
            if line.get("edit"):
                counts.board_edits += 1
            else:
                counts.channel_posts += 1
                counts.turns += "— your turn." in line.get("text", "")
            counts.images += len(line.get("images", []))
        elif to.startswith("dm:"):
            counts.dms += 1


async def play(game_id: str, players: str, seed: int) -> Counts:
    """One game to its end (or MAX_STEPS moves)."""
    game = get_game(game_id)
    runner = await TranscriptRunner.create(":memory:", render=True)
    counts = Counts(game_id, players)
    try:
        if players == "all AI":
            bots = game.max_players - 1
            await runner.run_line(f"host: /politics new game:{game_id} seed:{seed} bots:{bots}")
            # The host's seat becomes an AI seat too, before the start: nobody is human.
            row = await runner.service.store.get(runner.channel)
            assert row is not None
            row.record.players[0].ai = True
            await runner.service.store.commit(runner.channel, row.version, row.status, row.record, None)
            runner.service.rows.forget(runner.channel)
            _tally(counts, await runner.run_line("host: /politics start"))
        else:
            await runner.run_line(f"alice: /politics new game:{game_id} seed:{seed}")
            await runner.run_line("bob: /politics join")
            _tally(counts, await runner.run_line("alice: /politics start"))
        for _ in range(MAX_STEPS):
            loaded = await runner.service.load(runner.channel)
            if loaded is None or loaded.record.status != "playing":
                break
            record, state = loaded.record, loaded.state
            humans = [s for s in loaded.game.to_act(state) if s >= 0 and not record.players[s].ai]
            if humans:
                seat = humans[0]
                move = ai_move(loaded.game, state, seat, sum(record.acted), record.bot_settings).text()
                _tally(counts, await runner.run_line(f"{record.players[seat].name}: /politics do action:{move}"))
            else:  # an engine's clock (or an AI seat's delay) is all the game waits for
                due = record.timer.due if record.timer else runner.clock.now + 1
                _tally(counts, await runner.run_line(f"@wait {max(1.0, due - runner.clock.now + 0.5)}"))
        loaded = await runner.service.load(runner.channel)
        if loaded is not None:
            counts.moves = len(loaded.record.log)
            counts.finished = loaded.record.status == "finished"
    finally:
        await runner.close()
    return counts


def table(rows: list[Counts]) -> str:
    out = ["| game | players | moves | human turns | channel posts | board edits | images | DMs |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for c in rows:
        out.append(f"| {c.game} | {c.players} | {c.moves}{'' if c.finished else ' (unfinished)'} | {c.turns} "
                   f"| {c.channel_posts} | {c.board_edits} | {c.images} | {c.dms} |")
    return "\n".join(out)


async def _main(games: list[str], seed: int) -> list[Counts]:
    rows = []
    for game_id in games:
        for players in ("two humans", "all AI"):
            rows.append(await play(game_id, players, seed))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.message_counts", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object a game and mode")
    args = parser.parse_args(argv)
    known = list(all_games())
    games = args.games or known
    unknown = [g for g in games if g not in known]
    if unknown:
        print(f"No game '{unknown[0]}'; the games are {', '.join(known)}.", file=sys.stderr)
        return 2
    rows = asyncio.run(_main(games, args.seed))
    print("\n".join(json.dumps(asdict(r)) for r in rows) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
