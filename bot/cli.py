"""The `politics-bot` command: run, play, replay, simulate, render, bench."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys

from .settings import Settings, SettingsError, load_dotenv


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="politics-bot", description="Election board games on Discord.")
    sub = parser.add_subparsers(dest="command")

    p_run = sub.add_parser("run", help="connect to Discord (DISCORD_TOKEN); without a token, open the local table")
    p_run.add_argument("--game", help="game for the local table fallback")

    p_play = sub.add_parser(
        "play", help="the local table: you against AI seats in this terminal",
        description="Starts a new game of GAME at the local table: you in seat 1, AI seats after you. Clocks run in "
                    "real time; type menu numbers or moves, help for more. The game is saved in --db as you play; "
                    "if an unfinished game is already saved there, the table asks whether to start anew (the old "
                    "game is archived) or continue it. --resume continues the saved game without asking. Board "
                    "images are written to --out, numbered on from any already there. quit, Ctrl-C or Ctrl-D "
                    "leave and say how to resume.")
    p_play.add_argument("game", nargs="?", help="the game to start (without it, the table asks)")
    p_play.add_argument("--resume", action="store_true", help="continue the unfinished game saved in --db")
    p_play.add_argument("--bots", type=int, default=1, help="AI seats (default 1; clamped to the game's seats)")
    p_play.add_argument("--seed", type=int, help="random seed, for a game you can replay")
    p_play.add_argument("--settings", help='game settings as key=value, e.g. "deal=one timeout=5"')
    p_play.add_argument("--out", default="out/table", help="folder for the board images (default out/table)")
    p_play.add_argument("--db", default=None, help="SQLite file the game is saved in (default: table.db in --out)")

    p_replay = sub.add_parser("replay", help="run a transcript, or replay a downloaded game file, as JSON Lines")
    p_replay.add_argument("file", help="a transcript (.txt) or a game file from /politics history (.json)")
    p_replay.add_argument("--images", help="also write the images to this folder")
    p_replay.add_argument("--no-images", action="store_true", help="skip rendering (faster)")

    p_sim = sub.add_parser("simulate", help="AI-vs-AI games, headless; prints one JSON object")
    p_sim.add_argument("game")
    p_sim.add_argument("-n", type=int, default=100)
    p_sim.add_argument("--players", type=int)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument("--ai-seats", default="all",
                       help="comma-separated seats played by the AI ('all', 'none', '0,2'); others move at random")
    p_sim.add_argument("--settings", default="", help='game settings, e.g. "max_rounds=0 stall_rounds=20"')

    p_render = sub.add_parser("render", help="play random legal actions and write the board image(s)")
    p_render.add_argument("game")
    p_render.add_argument("--seed", type=int, default=1)
    p_render.add_argument("--actions", type=int, default=20)
    p_render.add_argument("--players", type=int)
    p_render.add_argument("--out", default="out/render")

    p_bench = sub.add_parser("bench", help="benchmarks, as ratios against floors measured in the same run")
    p_bench.add_argument("--game", action="append", help="only these games")
    p_bench.add_argument("--quick", action="store_true")
    p_bench.add_argument("--markdown", action="store_true", help="print the docs/performance.md table instead of JSON")
    p_bench.add_argument("--write", metavar="FILE",
                         help="also put the table into FILE between its bench markers (docs/performance.md)")
    p_bench.add_argument("--live", action="store_true",
                         help="the bot process against a fake Discord on loopback, for 100 and 1,000 channels")
    p_bench.add_argument("--channels", type=int, action="append", help="--live: only these channel counts")
    p_bench.add_argument("--bot-tree", metavar="DIR",
                         help="--live: run the bot from this checkout (e.g. an older commit)")
    p_bench.add_argument("--soak", type=int, metavar="MOVES",
                         help="--live: one steady step of this many moves instead of the ladder of rates "
                              "(memory over time)")
    p_bench.add_argument("--rate", type=float, default=60.0, help="--soak: moves offered per second (default 60)")
    p_bench.add_argument("--scale", action="store_true",
                         help="SQLite vs PostgreSQL, stored bytes per game, 1 vs 2 bot processes (docs/scaling.md)")
    p_bench.add_argument("--database-url", metavar="URL",
                         help="--scale: this PostgreSQL database (default: a throwaway server started for the run)")

    args = parser.parse_args(argv)
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command in (None, "run"):
            return _run(getattr(args, "game", None))
        if args.command == "play":
            return _play(args)
        if args.command == "replay":
            return _replay(args)
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "render":
            return _render(args)
        if args.command == "bench" and args.scale:
            from .bench_scale import markdown_scale, run_scale
            scale = run_scale(args.quick, args.database_url)
            print(markdown_scale(scale) if args.markdown else json.dumps(scale, indent=2))
            if args.write:
                _write_between(args.write, "<!-- scale:start -->", "<!-- scale:end -->", markdown_scale(scale))
            return 0
        if args.command == "bench" and args.live:
            from .bench_live import markdown_live, run_live
            if args.soak is not None and (args.soak < 1 or args.rate <= 0):
                raise ValueError("--soak takes a number of moves above 0 and --rate a rate above 0.")
            live = run_live(args.channels, args.quick, args.bot_tree,
                            soak=(args.rate, args.soak) if args.soak else None)
            print(markdown_live(live, os.path.basename(live["tree"])) if args.markdown else json.dumps(live, indent=2))
            return 0
        if args.command == "bench":
            from .bench import markdown, run_bench
            results = run_bench(args.game, args.quick)
            print(markdown(results) if args.markdown else json.dumps(results, indent=2))
            if args.write:
                _write_between(args.write, "<!-- bench:start -->", "<!-- bench:end -->", markdown(results))
            return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # one clear line, never a traceback
        logging.getLogger("politics").debug("fatal", exc_info=True)
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 1
    return 0


def _write_between(path: str, start: str, end: str, body: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    head, sep, rest = text.partition(start)
    if not sep:
        raise ValueError(f"{path} has no {start} marker")
    _, _, tail = rest.partition(end)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{head}{start}\n{body}{end}{tail}")


def _run(game: str | None) -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except SettingsError as exc:  # a bad setting: its sentence, and the exit code of a usage error
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        if not sys.stdin.isatty():
            print("No DISCORD_TOKEN is set, and there is no terminal for the local table: "
                  "set DISCORD_TOKEN (see .env.example) to connect to Discord.")
            return 0
        print("No DISCORD_TOKEN is set: opening the local table against AI seats instead "
              "(set DISCORD_TOKEN in .env to connect to Discord).")
        return _play(argparse.Namespace(game=game, bots=1, seed=None, settings=None, out="out/table", db=None,
                                        resume=False))
    from .discord_app import run_discord
    return run_discord(settings)


def _play(args) -> int:
    from engines import RuleError, all_games, get_game

    from .registry import InputError
    from .service import check_settings
    from .table import resume_hint, run_table
    if args.game is not None and args.game not in all_games():
        print(f"politics-bot: there is no game '{args.game}'; games: {', '.join(sorted(all_games()))}.",
              file=sys.stderr)
        return 2
    if args.settings and args.game is not None:
        try:
            check_settings(get_game(args.game), args.settings)
        except (InputError, RuleError) as exc:
            print(f"politics-bot: {exc}", file=sys.stderr)
            return 2
    db = args.db or os.path.join(args.out, "table.db")
    try:
        return asyncio.run(run_table(args.game, args.bots, args.seed, args.out, db, args.settings,
                                     resume=args.resume))
    except KeyboardInterrupt:
        print(f"\nStopped. The game is saved in {db}. To continue it: {resume_hint(args.out, db)}", flush=True)
        return 130


def _replay(args) -> int:
    from .transcript import dumps, run_transcript
    if not os.path.exists(args.file):
        print(f"politics-bot: no such transcript: {args.file}", file=sys.stderr)
        return 2
    game_file = _game_file(args.file)
    if game_file is not None:
        return _replay_game(game_file, args)
    for entry in asyncio.run(run_transcript(args.file, render=not args.no_images, image_dir=args.images)):
        print(dumps(entry))
    return 0


def _game_file(path: str) -> dict | None:
    """The parsed game file if `path` is one (a JSON object naming our format), else None."""
    from .records import FILE_FORMAT
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (ValueError, UnicodeDecodeError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FILE_FORMAT else None


def _replay_game(data: dict, args) -> int:
    """Every move of a downloaded game, one JSON line each (with its public events), then the
    final line of a transcript plus whether the replay reached the recorded final state."""
    from engines import SYSTEM
    from render import get_renderer
    from .records import ReplayError, opening, steps
    from .transcript import dumps
    try:
        game, state = opening(data)
        names = [str(p.get("name", "?")) for p in data.get("players", [])]
        for n, seat, text, events in steps(game, state, data["log"]):
            who = "clock" if seat == SYSTEM else names[seat] if 0 <= seat < len(names) else f"seat {seat}"
            print(dumps({"move": n, "seat": who, "action": text, "events": [e.text for e in events if e.to is None]}))
    except ReplayError as exc:
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 1
    result = game.result(state)
    same = game.dump(state) == data.get("final")
    if args.images and not args.no_images:
        renderer = get_renderer(game.id)
        if renderer is not None:
            os.makedirs(args.images, exist_ok=True)
            for name, png in renderer(game.view(state, None)):
                with open(os.path.join(args.images, name), "wb") as fh:
                    fh.write(png)
    print(dumps({"final": {"game": game.id, "finished": result.finished,
                           "winners": [names[w] if w < len(names) else str(w) for w in result.winners],
                           "scores": result.scores, "state": game.view(state, None), "same_as_recorded": same}}))
    if not same:
        print("politics-bot: the replay did not reach the recorded final state.", file=sys.stderr)
        return 1
    return 0


def _simulate(args) -> int:
    from engines import get_game
    from .service import parse_settings
    from .simulate import simulate
    game = get_game(args.game)
    players = args.players or game.min_players
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players} to {game.max_players} players, not {players}.")
    if args.ai_seats == "all":
        ai = set(range(players))
    elif args.ai_seats in ("none", ""):
        ai = set()
    else:
        try:
            ai = {int(x) for x in args.ai_seats.split(",")}
        except ValueError:
            raise ValueError(
                f"--ai-seats takes all, none or seat numbers like 0,2 (got '{args.ai_seats[:30]}').") from None
        if not ai <= set(range(players)):
            raise ValueError(f"--ai-seats names a seat that a {players}-player game does not have.")
    settings = parse_settings(args.settings)
    game.options(settings)  # a bad setting stops here with one sentence, before any game is played
    print(json.dumps(simulate(args.game, args.n, players, args.seed, ai, settings)))
    return 0


def _render(args) -> int:
    from engines import Seat, get_game
    from engines.rng import Rng
    from render import get_renderer
    game = get_game(args.game)
    renderer = get_renderer(game.id)
    if renderer is None:
        print(f"politics-bot: {game.id} has no renderer yet", file=sys.stderr)
        return 2
    players = args.players or game.min_players
    state = game.setup([Seat(name=f"Player {i + 1}") for i in range(players)], game.options({}), args.seed)
    rng = Rng(args.seed)
    for _ in range(args.actions):
        if game.result(state).finished:
            break
        acting = [s for s in game.to_act(state) if s >= 0]
        if not acting:
            break
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        game.apply_in_place(state, seat, rng.choice(legal))
    os.makedirs(args.out, exist_ok=True)
    for name, data in renderer(game.view(state, None)):
        path = os.path.join(args.out, name)
        with open(path, "wb") as fh:
            fh.write(data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
