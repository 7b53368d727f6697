"""`politics-bot bench --scale`: the figures of docs/scaling.md.

- **Store**: one `/politics do` through the bot layer with 1,000 live channels, on SQLite and on
  PostgreSQL, each beside a bare one-row commit on its own connection (bench.bench_actions).
- **Stored bytes per finished game**, in each: games played to the end through the service
  (random legal moves; a typed trivia answer is left to its clock), then the database's size on
  disk divided by the games, and the recorded result's own size.
- **Processes** (bench_live): the real bot against the fake Discord on PostgreSQL, one process
  serving every shard, then two processes splitting them and sending through one REST proxy
  (proxy/, as compose.yaml runs them); the fake enforces Discord's rate limits, counting both
  processes' tokens as one bot's (one global limit and one set of buckets for the two).

PostgreSQL is a throwaway server started for the run (testkit/pgserver.py, with fsync on as in
production) unless `--database-url` names one; its binaries are PostgreSQL's (`initdb`, `pg_ctl`).
"""
from __future__ import annotations

import asyncio
import os
import random
import tempfile
from contextlib import contextmanager

from engines import all_games, get_game

from .bench import bench_actions
from .messages import Ctx, User
from .service import GameService
from .store import Store
from .store.postgres import PostgresStore
from .store.sqlite import SQLiteStore

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUILD = str(4_000_000 << 22)
LIVE_CHANNELS = 1000


@contextmanager
def postgres(url: str | None):
    """A PostgreSQL URL for the run: the one given, or a fresh durable throwaway server's."""
    if url:
        yield url
        return
    from testkit.pgserver import MISSING, PgServer, binaries

    bin_dir = binaries()
    if bin_dir is None:
        raise SystemExit(MISSING)
    server = PgServer(bin_dir, durable=True)
    try:
        server.start()
        yield server.new_database()
    finally:
        server.stop()


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def _disk_bytes(store: Store) -> int:
    """What the database holds on disk once compacted: SQLite's pages (the WAL folded in, free
    pages dropped), or the PostgreSQL tables of the store's schema with their indexes and TOAST
    (dead row versions dropped). Compacted, so the figure is what finished games keep, not the
    garbage of the moves on the way (which each database reuses)."""
    if isinstance(store, PostgresStore):
        await store.pool.execute("VACUUM FULL")  # dead row versions left by updates: what autovacuum reclaims
        return int(await store.pool.fetchval(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'"))
    assert isinstance(store, SQLiteStore), f"no size on disk for {type(store).__name__}"
    await store.db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    await store.db.execute("VACUUM")  # free pages, as PostgreSQL's VACUUM FULL above
    rows = await store.db.execute_fetchall("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
    return int(next(iter(rows))[0])


async def stored_per_game(target: str, game_id: str, games: int, seed: int = 1) -> dict:
    """Play `games` games of `game_id` to the end in a fresh store; bytes per finished game."""
    game = get_game(game_id)
    store = await Store.open(target)
    clock = Clock()
    service = GameService(store, render=False, outbox=True, clock=clock)
    pick = random.Random(seed)
    before = await _disk_bytes(store)
    channels = [f"{7_000_000 + i}" for i in range(games)]
    users = {ch: [User(f"{ch}{p}", f"p{p}") for p in range(game.min_players)] for ch in channels}
    for i, ch in enumerate(channels):
        host, *rest = users[ch]
        await service.handle(Ctx(host, ch, GUILD), "new", {"game": game_id, "seed": seed + i})
        for u in rest:
            await service.handle(Ctx(u, ch, GUILD), "join", {})
        await service.handle(Ctx(host, ch, GUILD), "start", {})
    playing, moves = set(channels), 0
    while playing and moves < 400_000:
        moved = False
        for ch in sorted(playing):
            loaded = await service.load(ch)
            assert loaded is not None, f"channel {ch} lost its game"  # every channel opened one above
            record = loaded.record
            if record.status != "playing":
                playing.discard(ch)
                continue
            assert record.state is not None  # a game in play has its state
            state = game.load(record.state)
            acting = [(s, legal) for s in game.to_act(state) if s >= 0 and (legal := game.legal_actions(state, s))]
            if not acting:
                continue
            seat, legal = acting[0]
            player = next(u for u in users[ch] if u.id == record.players[seat].id)
            out = await service.handle(Ctx(player, ch, GUILD), "do",
                                       {"action": legal[int(pick.random() * len(legal))].text()})
            service.delivered({m.outbox_id for m in out})
            moves += 1
            moved = True
        if not moved:  # only clocks can move these games on (a typed answer nobody gives)
            clock.now += 30
            out = await service.tick()
            service.delivered({m.outbox_id for m in out})
    await service.flush_delivered()
    finished = len(channels) - len(playing)
    after = await _disk_bytes(store)
    results = await store._rows("SELECT avg(length(data)) FROM results")
    rows = await store._rows("SELECT avg(length(record) + coalesce(length(state), 0)) FROM games")
    await store.close()
    return {"games": finished, "moves": moves, "disk_bytes_per_game": round((after - before) / max(1, finished)),
            "result_bytes": round(float(results[0][0] or 0)), "final_row_bytes": round(float(rows[0][0] or 0))}


def run_scale(quick: bool = False, database_url: str | None = None, live: bool = True,
              rates: list[float] | None = None, only_processes: bool = False) -> dict:
    samples, games = (200, 4) if quick else (1000, 20)
    out: dict = {"cores": os.cpu_count(), "store": {}, "stored": {}}
    with tempfile.TemporaryDirectory() as tmp, postgres(database_url) as pg:
        if only_processes:
            out["processes"] = run_processes(pg, quick, rates)
            out["limits"] = all(r.get("limits") for r in out["processes"].values())
            return out
        targets = {"sqlite": os.path.join(tmp, "bench.db"), "postgresql": pg}
        for backend, target in targets.items():
            out["store"][backend] = asyncio.run(bench_actions("primary-general", samples, target))
        for backend in targets:
            out["stored"][backend] = {}
            for n, game_id in enumerate(all_games()):
                where = os.path.join(tmp, f"{game_id}.db") if backend == "sqlite" else _fresh(pg, f"bytes_{n}")
                out["stored"][backend][game_id] = asyncio.run(stored_per_game(where, game_id, games))
        if live:
            out["processes"] = run_processes(pg, quick, rates)
            out["limits"] = all(r.get("limits") for r in out["processes"].values())
    return out


def run_processes(pg: str, quick: bool, rates: list[float] | None = None) -> dict:
    """The live bench on PostgreSQL with the channels spread over 20 servers and two shards a
    process: one bot process holding two shards, then two processes holding two each (four in
    all) and sending through one REST proxy (proxy/), as compose.yaml runs them (a fresh schema
    for each run). Without node or the proxy's packages the two send straight to Discord, and the
    row says so."""
    from testkit.fakediscord.restproxy import missing

    from .bench_live import QUICK_RATES, QUICK_SECONDS, RATES, ROOT as TREE, SECONDS, Deployment, _one

    channels = 200 if quick else LIVE_CHANNELS
    no_proxy = missing()
    out = {}
    for processes in (1, 2):
        proxy = processes > 1 and no_proxy is None
        deploy = Deployment(database=_fresh(pg, f"live_{processes}"), processes=processes,
                            shard_count=2 * processes, guilds=20, proxy=proxy)
        label = f"{processes} process{'es' if processes > 1 else ''} × 2 shards"
        if processes > 1:
            label += " through the REST proxy" if proxy else f" (no proxy: {no_proxy})"
        out[label] = asyncio.run(_one(channels, quick, TREE, rates or (QUICK_RATES if quick else RATES),
                                      QUICK_SECONDS if quick else SECONDS, deployment=deploy))
    return out


def markdown_processes(processes: dict) -> str:
    lines = ["| bot processes on PostgreSQL | channels | sustained actions/s (done p99 ≤ 1 s) | ack p99 (s) "
             "| missed acks | global-limited requests / move | global 429s (all steps) "
             "| CPU / move, ms (render workers; the bench itself) | burst: moves, done p99 (s), busy, missed acks |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for n, r in processes.items():
        best = next((s for s in r["steps"] if s["achieved_per_second"] == r["sustained_actions_per_second"]),
                    r["steps"][0])
        b = r["burst"]
        lines.append(f"| {n} | {r['channels']:,} | {r['sustained_actions_per_second']} | {r['ack_p99_s']} "
                     f"| {r['missed_acks']} | {r['requests_per_move']} "
                     f"| {sum(s.get('global_429s', 0) for s in r['steps'] + [b])} "
                     f"| {best['cpu_ms_per_move']} ({best['render_workers_cpu_ms_per_move']}; "
                     f"{best.get('bench_cpu_ms_per_move', '—')}) "
                     f"| {b['moves']}, {b['done_p99_s']}, {b['busy']}, {b['missed_acks']} |")
    return "\n".join(lines)


def _fresh(url: str, name: str) -> str:
    """A new empty schema of the same database, so each game's size is measured alone."""
    import asyncpg

    async def create() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
        finally:
            await conn.close()

    asyncio.run(create())
    return f"{url}{'&' if '?' in url else '?'}search_path={name}"


def markdown_scale(results: dict) -> str:
    """The tables of docs/scaling.md."""
    lines = ["| store | action median / p99 (ms) | bare commit median / p99 (ms) | action p99 ÷ commit p99 "
             "| action median ÷ commit median | row bytes (median) |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for backend, r in results["store"].items():
        lines.append(f"| {backend} | {r['action_median_ms']} / {r['action_p99_ms']} "
                     f"| {r['bare_commit_median_ms']} / {r['bare_commit_p99_ms']} | {r['action_p99_over_commit_p99']} "
                     f"| {r['action_median_over_commit']} | {r['stored_bytes_median']:,} |")
    backends = list(results["stored"])
    lines += ["", "| game | games | " + " | ".join(f"{b}: bytes on disk per finished game" for b in backends)
              + " | the recorded result (log and seats), bytes |",
              "| --- | ---: | " + " | ".join("---:" for _ in backends) + " | ---: |"]
    for game_id in results["stored"][backends[0]]:
        first = results["stored"][backends[0]][game_id]
        lines.append(f"| {game_id} | {first['games']} | "
                     + " | ".join(f"{results['stored'][b][game_id]['disk_bytes_per_game']:,}" for b in backends)
                     + f" | {first['result_bytes']:,} |")
    processes = results.get("processes")
    if processes:
        from .bench_checks import markdown_checks
        lines += ["", markdown_processes(processes)]
        lines += [line for n, r in processes.items() if r.get("checks")
                  for line in ("", markdown_checks(f"{n}", r["checks"]).rstrip("\n"))]
    return "\n".join(lines) + "\n"
