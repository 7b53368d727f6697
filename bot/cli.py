"""The `politics-bot` command: run, play, replay, simulate, render, bench, backup, restore, prune."""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys

from .settings import Settings, SettingsError, load_dotenv


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose epilog lists the games, read from the game registry only when
    the help is shown (importing every engine costs a start that does not print help)."""

    def __init__(self, *args, games_epilog: str | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.games_epilog = games_epilog

    def format_help(self) -> str:
        if self.games_epilog is not None and self.epilog is None:
            if self.formatter_class is argparse.RawDescriptionHelpFormatter:  # a table, one game a line
                games = games_listing()
                width = max(len(game_id) for game_id, _ in games)
                self.epilog = "\n".join([self.games_epilog] + [f"  {g.ljust(width)}  {about}" for g, about in games])
            else:
                self.epilog = f"{self.games_epilog} {'; '.join(f'{g} ({about})' for g, about in games_listing())}."
        return super().format_help()


def games_listing() -> list[tuple[str, str]]:
    """Every game of the registry: its id (what GAME takes), with its title and player count."""
    from engines import all_games
    return [(g.id, f"{g.title}, {g.min_players}–{g.max_players} players")
            for g in sorted(all_games().values(), key=lambda g: g.id)]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="politics-bot", description="Election board games on Discord, or in this terminal against AI seats.",
        games_epilog="Games (the GAME of play, simulate and render):",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND",
                                title="commands (politics-bot COMMAND --help says more; no command: run)")

    p_run = sub.add_parser(
        "run", help="connect to Discord (DISCORD_TOKEN); without a token, open the local table",
        description="Connects to Discord with DISCORD_TOKEN (from the environment or .env; .env.example lists "
                    "every setting). Without a token it opens the local table in this terminal, you against one "
                    "AI seat; with no terminal either, it says so in one sentence and exits 0 (or, with "
                    "--wait-without-token, waits until stopped).",
        games_epilog="Games for --game:")
    p_run.add_argument("--game", metavar="GAME",
                       help="without a token: the game the local table starts (without it, the table asks)")
    p_run.add_argument("--out", default="out/table", metavar="DIR",
                       help="without a token: the local table's folder for board images and its saved game "
                            "(default out/table)")
    p_run.add_argument("--wait-without-token", action="store_true",
                       help="without a token and without a terminal: say so once, then wait until stopped "
                            "(SIGTERM or Ctrl-C, exit 0) instead of exiting at once; for a container whose restart "
                            "policy would start it again and again (the Docker image runs with it)")

    p_play = sub.add_parser(
        "play", help="the local table: you against AI seats in this terminal",
        description="Starts a new game of GAME at the local table: you in seat 1, AI seats after you. Clocks run in "
                    "real time; type menu numbers or moves, help for more. The game is saved in --db as you play; "
                    "if an unfinished game is already saved there, the table asks whether to start anew (the old "
                    "game is archived) or continue it. --resume continues the saved game without asking. Board "
                    "images are written to --out, numbered on from any already there. quit, Ctrl-C or Ctrl-D "
                    "leave and say how to resume.",
        games_epilog="Games:")
    p_play.add_argument("game", nargs="?", metavar="GAME", help="the game to start (without it, the table asks)")
    p_play.add_argument("--resume", action="store_true", help="continue the unfinished game saved in --db")
    p_play.add_argument("--bots", type=int, default=1, metavar="N",
                        help="AI seats (default 1; clamped to the game's seats)")
    p_play.add_argument("--seed", type=int, metavar="S", help="random seed, for a game you can replay")
    p_play.add_argument("--settings", metavar='"KEY=VALUE …"',
                        help='game settings as key=value, e.g. "deal=one timeout=5"')
    p_play.add_argument("--ai", choices=("easy", "normal", "hard"), default=None, metavar="LEVEL",
                        help="the AI seats' level: easy, normal (default) or hard (searches about a second a move)")
    p_play.add_argument("--out", default="out/table", metavar="DIR",
                        help="folder for the board images (default out/table)")
    p_play.add_argument("--db", default=None, metavar="FILE",
                        help="SQLite file the game is saved in (default: table.db in --out)")

    p_replay = sub.add_parser(
        "replay", help="run a transcript, or replay a downloaded game file, as JSON Lines",
        description="Runs a transcript (one user command a line, as on Discord) and prints what the bot would "
                    "send, one JSON line a message; or replays a game file downloaded from /politics history move "
                    "by move and checks it reaches the recorded final state (exit 1 if not).")
    p_replay.add_argument("file", metavar="FILE",
                          help="a transcript (.txt) or a game file from /politics history (.json)")
    p_replay.add_argument("--images", metavar="DIR", help="also write the images to this folder")
    p_replay.add_argument("--no-images", action="store_true", help="skip rendering (faster)")

    p_sim = sub.add_parser(
        "simulate", help="AI-vs-AI games, headless; prints one JSON object",
        description="Plays N games of GAME without a front end and prints one JSON object: games, finished, "
                    "errors, speed, winners and, for games that count rounds, how long games lasted.",
        games_epilog="Games:")
    p_sim.add_argument("game", metavar="GAME", help="the game to simulate")
    p_sim.add_argument("-n", type=int, default=100, metavar="N", help="how many games to play (default 100)")
    p_sim.add_argument("--players", type=int, metavar="K",
                       help="seats in each game (default: the game's fewest)")
    p_sim.add_argument("--seed", type=int, default=0, metavar="S",
                       help="seed of the first game; game i uses S+i (default 0), so a run can be repeated")
    p_sim.add_argument("--ai-seats", default="all", metavar="SEATS",
                       help="comma-separated seats played by the AI ('all', 'none', '0,2'); others move at random "
                            "(default all)")
    p_sim.add_argument("--settings", default="", metavar='"KEY=VALUE …"',
                       help='game settings, e.g. "max_rounds=0 stall_rounds=20"')
    p_sim.add_argument("--levels", metavar="LEVELS",
                       help="one AI level per seat in seat order, e.g. hard,normal (easy, normal, hard, flat, random); "
                            "reports wins per level with a 95%% interval")
    p_sim.add_argument("--iterations", type=int, metavar="N",
                       help="--levels: search iterations a move (a run can be replayed)")
    p_sim.add_argument("--budget-ms", type=float, metavar="MS",
                       help="--levels: search time a move in ms (default 1000)")
    p_sim.add_argument("--control", metavar="LEVEL",
                       help="--levels: play every game again from the same seed with the first level's seats at "
                            "LEVEL, and report the first level's gain over it in the same games (e.g. hard's over "
                            "normal's move)")

    p_render = sub.add_parser(
        "render", help="play random legal actions and write the board image(s)",
        description="Sets up GAME, plays random legal moves and writes the board image(s) of the position "
                    "reached as PNG files, printing each path.",
        games_epilog="Games:")
    p_render.add_argument("game", metavar="GAME", help="the game to draw")
    p_render.add_argument("--seed", type=int, default=1, metavar="S",
                          help="seed of the game and of the random moves (default 1)")
    p_render.add_argument("--actions", type=int, default=20, metavar="A",
                          help="how many random legal moves to play first (default 20; fewer if the game ends)")
    p_render.add_argument("--players", type=int, metavar="K", help="seats (default: the game's fewest)")
    p_render.add_argument("--out", default="out/render", metavar="DIR",
                          help="folder the images are written to (default out/render)")

    p_bench = sub.add_parser(
        "bench", help="benchmarks, as ratios against floors measured in the same run",
        description="Measures the engines, the bot layer and the renderers, each as a ratio against a floor "
                    "measured in the same run (so a busy machine slows both); prints JSON. --live and --scale "
                    "run the other benchmarks of docs/performance.md and docs/scaling.md.",
        games_epilog="Games for --game:")
    p_bench.add_argument("--game", action="append", metavar="GAME",
                         help="only these games (repeat for more; default every game)")
    p_bench.add_argument("--quick", action="store_true",
                         help="shorter runs with fewer repetitions: rougher figures, for a quick look")
    p_bench.add_argument("--markdown", action="store_true", help="print the docs/performance.md table instead of JSON")
    p_bench.add_argument("--write", metavar="FILE",
                         help="also put the table into FILE between its bench markers (docs/performance.md)")
    p_bench.add_argument("--live", action="store_true",
                         help="the bot process against a fake Discord on loopback, for 100 and 1,000 channels")
    p_bench.add_argument("--channels", type=int, action="append", metavar="N",
                         help="--live: only these channel counts (repeat for more)")
    p_bench.add_argument("--games", metavar="GAMES",
                         help="--live: these games in turn, comma-separated, or 'all' (default primary-general)")
    p_bench.add_argument("--hard-channels", type=int, default=0, metavar="N",
                         help="--live: N more channels of all-hard AI games searching throughout (their searches "
                              "in the bot's worker processes, as in production)")
    p_bench.add_argument("--bot-tree", metavar="DIR",
                         help="--live: run the bot from this checkout (e.g. an older commit)")
    p_bench.add_argument("--soak", type=int, metavar="MOVES",
                         help="--live: one steady step of this many moves instead of the ladder of rates "
                              "(memory over time)")
    p_bench.add_argument("--rate", type=float, default=60.0, metavar="R",
                         help="--soak: moves offered per second (default 60)")
    p_bench.add_argument("--search", action="store_true",
                         help="how fast the hard AI searches: iterations, states and copies per second")
    p_bench.add_argument("--scale", action="store_true",
                         help="SQLite vs PostgreSQL, stored bytes per game, 1 vs 2 bot processes (docs/scaling.md)")
    p_bench.add_argument("--rest-proxy", action="store_true",
                         help="--live: the bot sends through the REST proxy of compose.yaml (proxy/; needs node)")
    p_bench.add_argument("--processes-only", action="store_true",
                         help="--scale: only the processes' figures (1, then 2 through the REST proxy; 2 shards each)")
    p_bench.add_argument("--rates", metavar="R,R,…",
                         help="--live and --scale: the ladder of moves offered per second (e.g. 60,100,150)")
    p_bench.add_argument("--database-url", metavar="URL",
                         help="--scale: this PostgreSQL database (default: a throwaway server started for the run)")

    p_backup = sub.add_parser(
        "backup", help="copy the SQLite store (DATABASE_PATH) to FILE, safely while the bot runs",
        description="Makes a consistent copy of the SQLite store at DATABASE_PATH (or DATABASE_URL sqlite:///…) "
                    "with SQLite's online backup API: safe while the bot is running and writing. The copy is one "
                    "self-contained file, checked before it takes FILE's name. A PostgreSQL store is backed up with "
                    "pg_dump (docs/operations.md).")
    p_backup.add_argument("file", help="where the copy goes")
    p_backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p_backup.add_argument("--prune", action="store_true",
                          help="after the copy, prune archived games past ARCHIVE_DAYS (as `prune` does)")

    p_restore = sub.add_parser(
        "restore", help="put a backup FILE back as the SQLite store (DATABASE_PATH); the bot must be stopped",
        description="Checks that FILE is a politics-bot database, then copies it into DATABASE_PATH. An existing "
                    "database is replaced only with --force, and never while a bot has it open. For PostgreSQL, "
                    "use pg_restore (docs/operations.md).")
    p_restore.add_argument("file", help="a backup made by `politics-bot backup`")
    p_restore.add_argument("--force", action="store_true", help="replace the database DATABASE_PATH holds")

    p_prune = sub.add_parser(
        "prune", help="drop finished games' moves and archived rows older than ARCHIVE_DAYS (results and ratings stay)",
        description="Retention: finished games' move logs, opening and final states (what a replay needs) and "
                    "archived game rows older than ARCHIVE_DAYS days are dropped; results, stats and ratings stay. "
                    "The bot also does this at startup and daily when ARCHIVE_DAYS is set. Works on either store, "
                    "while the bot runs.")
    p_prune.add_argument("--days", help="this many days instead of ARCHIVE_DAYS")

    sub.add_parser(
        "health", help="ask the running bot's /healthz (METRICS_PORT) and exit 0 when it is healthy, else 1",
        description="The container's health probe (the image has no curl): GET http://127.0.0.1:METRICS_PORT/healthz; "
                    "prints its JSON answer and exits 0 on 200, 1 on anything else or no answer.")

    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from .logs import level_of, parse_log_format, setup_logging
    try:
        setup_logging(level_of(os.environ.get("LOG_LEVEL")), parse_log_format(os.environ.get("LOG_FORMAT")))
    except ValueError as exc:  # a bad setting: its sentence, and the exit code of a usage error
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    try:
        if args.command in (None, "run"):
            return _run(getattr(args, "game", None), getattr(args, "out", "out/table"),
                        getattr(args, "wait_without_token", False))
        if args.command == "play":
            return _play(args)
        if args.command == "health":
            return _health()
        if args.command == "replay":
            return _replay(args)
        if args.command in ("backup", "restore", "prune"):
            return _store_command(args)
        if args.command == "simulate":
            return _simulate(args)
        if args.command == "render":
            return _render(args)
        if args.command == "bench" and args.scale:
            from .bench_scale import markdown_scale, run_scale
            scale = run_scale(args.quick, args.database_url, rates=_rates(args.rates),
                              only_processes=args.processes_only)
            print(markdown_scale(scale) if args.markdown else json.dumps(scale, indent=2))
            _print_checks(dict(scale.get("processes", {})))
            if args.write:
                _write_between(args.write, "<!-- scale:start -->", "<!-- scale:end -->", markdown_scale(scale))
            return 0
        if args.command == "bench" and args.live:
            from .bench_live import markdown_live, run_live
            if args.soak is not None and (args.soak < 1 or args.rate <= 0):
                raise ValueError("--soak takes a number of moves above 0 and --rate a rate above 0.")
            from engines import all_games, get_game
            games = None if not args.games else list(all_games()) if args.games == "all" else \
                [get_game(g.strip()).id for g in args.games.split(",")]
            live = run_live(args.channels, args.quick, args.bot_tree, rates=_rates(args.rates),
                            soak=(args.rate, args.soak) if args.soak else None, games=games, proxy=args.rest_proxy,
                            hard_channels=args.hard_channels)
            print(markdown_live(live, os.path.basename(live["tree"])) if args.markdown else json.dumps(live, indent=2))
            _print_checks({f"{g}, {c} channels": r for g, runs in live["by_game"].items() for c, r in runs.items()})
            return 0
        if args.command == "bench" and args.search:
            from .bench_search import markdown_search, run_search_bench
            searched = run_search_bench(args.game, args.quick)
            print(markdown_search(searched) if args.markdown else json.dumps(searched, indent=2))
            if args.write:
                _write_between(args.write, "<!-- search:start -->", "<!-- search:end -->", markdown_search(searched))
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


def _health() -> int:
    from .health import probe
    from .settings import Settings, SettingsError
    load_dotenv()
    try:
        port = Settings.from_env().metrics_port
    except SettingsError as exc:
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    if port is None:
        print("politics-bot: METRICS_PORT is not set, so the bot serves no health check.", file=sys.stderr)
        return 1
    return probe(port)


def _rates(text: str | None) -> list[float] | None:
    """--rates: moves offered per second, comma-separated, each above 0."""
    if not text:
        return None
    try:
        rates = [float(r) for r in text.split(",")]
    except ValueError:
        rates = []
    if not rates or any(not 0 < r < 10_000 for r in rates):
        raise ValueError(f"--rates takes moves per second above 0, comma-separated (e.g. 60,100,150), not {text!r}.")
    return rates


def _print_checks(runs: dict) -> None:
    """Issue #28's bar as pass/fail lines on stderr (stdout keeps the JSON or the tables)."""
    from .bench_checks import text_checks
    for label, run in runs.items():
        if run.get("checks"):
            print(text_checks(label, run["checks"]), file=sys.stderr)


def _write_between(path: str, start: str, end: str, body: str) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    head, sep, rest = text.partition(start)
    if not sep:
        raise ValueError(f"{path} has no {start} marker")
    _, _, tail = rest.partition(end)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(f"{head}{start}\n{body}{end}{tail}")


def _run(game: str | None, out: str = "out/table", wait_without_token: bool = False) -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except SettingsError as exc:  # a bad setting: its sentence, and the exit code of a usage error
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    from .logs import level_of, setup_logging
    try:
        setup_logging(level_of(os.environ.get("LOG_LEVEL")), settings.log_format)  # .env may have set them
    except ValueError as exc:
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    if not settings.token:
        if not sys.stdin.isatty():
            print("No DISCORD_TOKEN is set, and there is no terminal for the local table: "
                  "set DISCORD_TOKEN (see .env.example) to connect to Discord.", flush=True)
            return _wait_until_stopped() if wait_without_token else 0
        print("No DISCORD_TOKEN is set: opening the local table against AI seats instead "
              "(set DISCORD_TOKEN in .env to connect to Discord).")
        return _play(argparse.Namespace(game=game, bots=1, seed=None, settings=None, out=out, db=None,
                                        resume=False))
    from .discord_app import run_discord
    return run_discord(settings)


def _wait_until_stopped() -> int:
    """Idle until SIGTERM or SIGINT, then exit 0. A container without a token stays up saying
    why (docker logs) rather than exiting into its restart policy, which would start it again
    and again. As PID 1 a process ignores SIGTERM unless it handles or blocks it: the signals are
    blocked before the line is printed and taken by `sigwait`, so a stop sent the moment the line
    is read is never lost. (A handler that set a threading.Event could deadlock: the signal can land
    while the waiting thread holds the event's own lock.)"""
    import signal
    import time
    stops = {signal.SIGTERM, signal.SIGINT}
    can_sigwait = hasattr(signal, "sigwait")
    if can_sigwait:
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    print("Waiting until stopped; after setting DISCORD_TOKEN, start the bot again "
          "(docker compose up -d re-creates it with the new .env).", flush=True)
    if can_sigwait:
        signal.sigwait(stops)
        return 0
    stopped: list[int] = []  # no sigwait (Windows): a handler that only records, and a short poll
    for sig in stops:
        signal.signal(sig, lambda signum, _frame: stopped.append(signum))
    while not stopped:
        time.sleep(0.5)
    return 0


def _writable(folder: str) -> str | None:
    """Why the local table can't keep its images and saved game in `folder`, or None if it can."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None if os.access(folder, os.W_OK | os.X_OK) else "Permission denied"


def _store_command(args) -> int:
    """backup, restore, prune: on the store the bot's settings name (.env read as `run` reads it)."""
    from .backup import PG_DUMP, BackupError, backup_sqlite, is_postgres, parse_days, prune, restore_sqlite, sqlite_path
    load_dotenv()
    target = os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "./data/politics.db")
    try:
        days = parse_days(args.days, "--days") if getattr(args, "days", None) else parse_days(
            os.environ.get("ARCHIVE_DAYS"))
    except ValueError as exc:
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 2
    if args.command == "prune" or getattr(args, "prune", False):
        if days is None:
            print("politics-bot: ARCHIVE_DAYS is not set (archived games are kept forever), so there is nothing "
                  "to prune: set it or pass --days N.", file=sys.stderr)
            return 2
    if args.command in ("backup", "restore") and is_postgres(target):
        tool = PG_DUMP[0] if args.command == "backup" else PG_DUMP[1]
        verb = "back it up" if args.command == "backup" else "restore it"
        print(f"politics-bot: DATABASE_URL is a PostgreSQL database: {verb} with PostgreSQL's own tool, "
              f"`{tool.replace('FILE', args.file)}` (docs/operations.md).", file=sys.stderr)
        return 2
    if args.command == "prune" and not is_postgres(target) and not os.path.isfile(sqlite_path(target)):
        print(f"politics-bot: There is no database at {sqlite_path(target)} to prune: check DATABASE_PATH.",
              file=sys.stderr)
        return 1
    try:
        if args.command == "backup":
            copied = backup_sqlite(sqlite_path(target), args.file, force=args.force)
            print(f"Backed up {sqlite_path(target)} to {copied.path}: {_count(copied.games, 'game')} in progress, "
                  f"{_count(copied.results, 'finished game')}, {copied.size:,} bytes.")
        elif args.command == "restore":
            copied = restore_sqlite(args.file, sqlite_path(target), force=args.force)
            print(f"Restored {args.file} into {copied.path}: {_count(copied.games, 'game')} in progress, "
                  f"{_count(copied.results, 'finished game')}. Start the bot to carry on from there.")
        if args.command == "prune" or getattr(args, "prune", False):
            assert days is not None
            done = asyncio.run(_prune(target, days, prune))
            print(f"Pruned the moves of {_count(done.results, 'finished game')} and "
                  f"{_count(done.archived, 'archived game')} that ended more than {days:g} days ago; "
                  "results and ratings are kept.")
    except BackupError as exc:
        print(f"politics-bot: {exc}", file=sys.stderr)
        return 1
    return 0


def _count(n: int, what: str) -> str:
    return f"{n:,} {what}" if n == 1 else f"{n:,} {what}s"


async def _prune(target: str, days: float, prune):
    from .store import Store
    store = await Store.open(target)
    try:
        return await prune(store, days)
    finally:
        await store.close()


def _play(args) -> int:
    from engines import RuleError, all_games, get_game

    from .registry import InputError
    from .service import check_settings
    from .table import resume_hint, run_table
    if args.game is not None and args.game not in all_games():
        print(f"politics-bot: there is no game '{args.game}'; games: {', '.join(sorted(all_games()))}.",
              file=sys.stderr)
        return 2
    if getattr(args, "ai", None):  # the lobby's ai= setting, as on Discord
        args.settings = f"{args.settings or ''} ai={args.ai}".strip()
    if args.settings and args.game is not None:
        try:
            check_settings(get_game(args.game), args.settings)
        except (InputError, RuleError) as exc:
            print(f"politics-bot: {exc}", file=sys.stderr)
            return 2
    db = args.db or os.path.join(args.out, "table.db")
    for folder in dict.fromkeys((args.out, os.path.dirname(db) or ".")):
        why = _writable(folder)
        if why is not None:
            print(f"politics-bot: the local table can't write to {os.path.abspath(folder)} ({why}): "
                  "give --out (and --db) a folder you can write to.", file=sys.stderr)
            return 2
    try:
        return asyncio.run(run_table(args.game, args.bots, args.seed, args.out, db, args.settings,
                                     resume=args.resume))
    except KeyboardInterrupt:
        print(f"\nStopped. The game is saved in {db}. To continue it: {resume_hint(args.out, db)}", flush=True)
        return 130


def _replay(args) -> int:
    """A transcript or a game file. A file that is neither, or a damaged one, is one sentence
    naming what is wrong and exit 1 (no such file: exit 2)."""
    from .records import ReplayError, read_game_file
    from .transcript import dumps, run_transcript, transcript_lines
    if not os.path.isfile(args.file):
        what = "is a folder, not a file" if os.path.isdir(args.file) else "does not exist"
        print(f"politics-bot: no such transcript or game file: {args.file} {what}.", file=sys.stderr)
        return 2
    try:
        with open(args.file, "rb") as fh:
            text = fh.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        return _bad_file(f"{args.file} is not text (not UTF-8), so it is neither a transcript nor a game file.")
    except OSError as exc:
        return _bad_file(f"{args.file} can't be read ({exc.strerror}), so there is no transcript or game file.")
    if not text.strip():
        return _bad_file(f"{args.file} is empty: a transcript has lines like \"alice: /politics new\", "
                         "and a game file comes from /politics history.")
    if _looks_like_json(text):
        try:
            data = read_game_file(text)
        except ReplayError as exc:
            return _bad_file(str(exc))
        return _replay_game(data, args)
    if not transcript_lines(text.splitlines()):
        return _bad_file(f"{args.file} has no transcript lines (like \"alice: /politics new\") and is not a "
                         "game file (JSON) either.")
    for entry in asyncio.run(run_transcript(args.file, render=not args.no_images, image_dir=args.images)):
        print(dumps(entry))
    return 0


def _bad_file(sentence: str) -> int:
    print(f"politics-bot: {sentence}", file=sys.stderr)
    return 1


def _looks_like_json(text: str) -> bool:
    """A game file, or meant to be one: a transcript line never starts like JSON, nor parses as it."""
    if text.lstrip()[:1] in ("{", "[", '"'):
        return True
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _replay_game(data: dict, args) -> int:
    """Every move of a downloaded game, one JSON line each (with its public events), then the
    final line of a transcript plus whether the replay reached the recorded final state."""
    from render import get_renderer
    from .records import FileMoves, ReplayError, mover, opening, steps
    from .transcript import dumps
    try:
        game, state = opening(data)
        names = [seat.name for seat in FileMoves.model_validate(data).players]
        for n, seat, text, events in steps(game, state, data["log"]):
            print(dumps({"move": n, "seat": mover(seat, text, names), "action": text,
                         "events": [e.text for e in events if e.to is None]}))
        result = game.result(state)
        final = {"game": game.id, "finished": result.finished,
                 "winners": [names[w] if w < len(names) else str(w) for w in result.winners],
                 "scores": result.scores, "state": game.view(state, None), "same_as_recorded": False}
        final["same_as_recorded"] = game.dump(state) == data.get("final")
        renderer = get_renderer(game.id) if args.images and not args.no_images else None
        images = renderer(game.view(state, None)) if renderer is not None else []
    except ReplayError as exc:
        return _bad_file(str(exc))
    except Exception:  # an opening the engine took but can't finish with: the file is anyone's
        logging.getLogger("politics").debug("replaying a game file failed", exc_info=True)
        return _bad_file("The game file's moves lead to a state this bot can't show (it may be damaged).")
    if images:
        os.makedirs(args.images, exist_ok=True)
        for name, png in images:
            with open(os.path.join(args.images, name), "wb") as fh:
                fh.write(png)
    print(dumps({"final": final}))
    if not final["same_as_recorded"]:
        return _bad_file("The game file's moves did not reach its recorded final state (it may be damaged).")
    return 0


def _simulate(args) -> int:
    from engines import get_game
    from .service import parse_settings
    from .simulate import simulate
    game = get_game(args.game)
    if args.levels:
        return _simulate_levels(args, game)
    if args.control is not None:
        raise ValueError("--control goes with --levels: it replays the first level's seats at another level.")
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
            raise ValueError(f"--ai-seats takes all, none or seat numbers like 0,2 "
                             f"(got '{args.ai_seats[:30]}').") from None
        if not ai <= set(range(players)):
            raise ValueError(f"--ai-seats names a seat that a {players}-player game does not have.")
    settings = parse_settings(args.settings)
    game.options(settings)  # a bad setting stops here with one sentence, before any game is played
    print(json.dumps(simulate(args.game, args.n, players, args.seed, ai, settings)))
    return 0


def _simulate_levels(args, game) -> int:
    from engines.search import LEVELS
    from .service import parse_settings
    from .simulate import simulate_levels
    levels = [x.strip() for x in args.levels.split(",") if x.strip()]
    unknown = [x for x in levels + ([args.control] if args.control is not None else []) if x not in LEVELS]
    if unknown:
        raise ValueError(f"'{unknown[0][:20]}' is not an AI level; levels are: {', '.join(LEVELS)}.")
    if args.players is not None and args.players != len(levels):
        raise ValueError(f"--levels names {len(levels)} seats but --players says {args.players}.")
    if args.iterations is not None and args.iterations < 1 or args.budget_ms is not None and args.budget_ms <= 0:
        raise ValueError("--iterations and --budget-ms take a number above 0.")
    settings = parse_settings(args.settings)
    game.options(settings)  # a bad setting stops here with one sentence, before any game is played
    print(json.dumps(simulate_levels(args.game, levels, args.n, args.seed, settings, args.iterations, args.budget_ms,
                                     args.control)))
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
        if not game.random_step(state, rng):
            break
    os.makedirs(args.out, exist_ok=True)
    for name, data in renderer(game.view(state, None)):
        path = os.path.join(args.out, name)
        with open(path, "wb") as fh:
            fh.write(data)
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
