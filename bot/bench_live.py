"""`politics-bot bench --live`: the real bot process against the fake Discord on loopback.

The bot runs as production does (testkit/fakediscord/botproc.py: its own process, discord.py,
SQLite, the render pool); this process plays the fake Discord (testkit/fakediscord/server.py) and
the players: two per channel, primary-general (or `--games`), each move a `/politics do` with a random legal
move, arriving open-loop (Poisson) at a fixed rate per step. For each channel count it reports
the highest rate whose "✓ Done" p99 stays within 1 s (sustained actions/s), the acks' p99, acks
missed (no first answer within Discord's 3 s), requests per move by kind (global-limited ones:
everything but interaction callbacks and follow-ups), the bot's CPU per move (its render workers
apart) and its RSS after every step; then a burst: every channel moves at the same instant.
Every 1,000 moves it reads the RSS of the bot and of each render worker apart (rss_by_moves), and
`--soak MOVES` replaces the ladder of rates with one long steady step (`--rate`, 60/s unless
told), to see whether memory levels off.

`--games all` (or a comma-separated list) runs the same ladder for each game in turn, with as
many players a channel as the game's fewest seats.

The fake enforces Discord's rate limits (testkit/fakediscord/limits.py: 50 global-limited requests
a second per token, per-route buckets), so the figures are what Discord would let through. Every
step and burst keeps `requests_per_move` (global-limited requests Discord served, per move done)
and its split `requests_per_move_by_kind` (dm: messages and DM channels opened; channel_post;
edit; other), `global_429s`, `route_429s` and `route_429_share` (the largest share of one route's
requests answered 429), and `missed_acks`; a step's requests are counted once the bot has gone
quiet after it (what the limits held back included). The top of the JSON says `limits: true`.

`--hard-channels N` adds N channels of all-`hard` AI games searching in the bot's worker processes
(issue #27: no search may delay another channel); "hard_moves" counts the AI moves they made.

`--bot-tree DIR` runs the bot (and opens its games) from another checkout, e.g. an older commit,
with the same players and measurements. Loopback only; every run is bounded in moves and time.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engines import Action, get_game

from .bench_checks import budget, checks, markdown_checks
from .text import plain

if TYPE_CHECKING:  # the fake Discord is imported when a run starts, not with the CLI
    from testkit.fakediscord.stored import FakeInteraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = "primary-general"
DONE_P99_LIMIT = 1.0  # seconds: the "sustainable" bar
ACK_LIMIT = 3.0  # Discord's limit for the first answer
RATES = [30.0, 45.0, 60.0, 75.0, 90.0, 105.0, 120.0, 135.0, 150.0, 180.0, 210.0, 240.0, 300.0]  # a step each
QUICK_RATES = [20.0, 60.0, 120.0]
SECONDS, QUICK_SECONDS = 10.0, 4.0  # a step's length
GRACE = 15.0  # seconds after a step for its last answers
RSS_EVERY = 1000  # moves between two readings of the bot's memory (rss_by_moves)


def _pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def _descendants(pid: int) -> dict[int, int]:
    """The process and all its descendants (render workers, the forkserver), each with its parent."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = {pid: 0}, [pid]
    while todo:
        parent = todo.pop()
        for child in children.get(parent, []):
            out[child] = parent
            todo.append(child)
    return out


def _family(pid: int) -> list[int]:
    return list(_descendants(pid))


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return fh.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and its parts: RssAnon (heap: Python objects, malloc arenas, images) and RssFile
    (mapped files: the interpreter, libraries, fonts)."""
    out = {}
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                    out[key] = int(value.split()[0])
    except (OSError, ValueError):
        pass
    return out


def _rss_mb(pid: int) -> float:
    return _memory_kb(pid).get("VmRSS", 0) / 1024


@dataclass
class Table:
    index: int
    id: str
    users: list  # UserHandle per seat
    state: object
    in_flight: bool = False
    over: bool = False
    moves: list = field(default_factory=list)  # every Sample sent to this table, in order


@dataclass
class Sample:
    """One move: its interaction and what came back."""
    table: Table
    seat: int
    action: Action
    inter: FakeInteraction | None = None
    done_at: float | None = None
    outcome: str = ""  # done | busy | error
    public: list[str] = field(default_factory=list)  # what the move told the channel (its events' text)


@dataclass
class Meters:
    """Several bot processes measured as one (bench --scale's two processes): CPU and RSS summed."""
    meters: list

    @property
    def pid(self) -> int:
        return self.meters[0].pid

    def read(self) -> dict:
        readings = [m.read() for m in self.meters]
        return {k: sum(r[k] for r in readings) for k in readings[0]}

    def processes(self) -> tuple[list[int], list[int]]:
        found = [m.processes() for m in self.meters]
        return [p for w, _ in found for p in w], [p for _, o in found for p in o]

    def rss(self) -> dict:
        readings = [m.rss() for m in self.meters]
        out = {k: round(sum(r[k] for r in readings), 1) for k in readings[0] if k != "each_worker_mb"}
        out["each_worker_mb"] = [x for r in readings for x in r["each_worker_mb"]]
        return out


@dataclass
class Meter:
    """The bot process's CPU (itself, and its descendants: the render workers) and RSS."""
    pid: int
    cpu: dict = field(default_factory=dict)

    def read(self) -> dict:
        family = _family(self.pid)
        return {"main": _cpu_seconds(self.pid), "workers": sum(_cpu_seconds(p) for p in family[1:]),
                "rss_mb": sum(_rss_mb(p) for p in family)}

    def processes(self) -> tuple[list[int], list[int]]:
        """(render workers, the rest of the family: forkserver, resource tracker), by pid."""
        family = _descendants(self.pid)
        forkservers = {p for p, parent in family.items() if parent == self.pid and "forkserver" in _cmdline(p)}
        workers = sorted(p for p, parent in family.items() if parent in forkservers)
        return workers, [p for p in family if p != self.pid and p not in workers]

    def rss(self) -> dict:
        """RSS in MB by process: the bot and its render workers (summed and each), with their
        anonymous part (heap: objects, malloc arenas, images; not mapped files), and the rest."""
        workers, others = self.processes()
        bot = _memory_kb(self.pid)
        each = [_memory_kb(p) for p in workers]
        return {"bot_mb": round(bot.get("VmRSS", 0) / 1024, 1), "bot_anon_mb": round(bot.get("RssAnon", 0) / 1024, 1),
                "workers_mb": round(sum(m.get("VmRSS", 0) for m in each) / 1024, 1),
                "workers_anon_mb": round(sum(m.get("RssAnon", 0) for m in each) / 1024, 1),
                "each_worker_mb": [round(m.get("VmRSS", 0) / 1024, 1) for m in each],
                "others_mb": round(sum(_rss_mb(p) for p in others), 1)}


def _kind(fake, method: str, path: str) -> str:
    """A request's kind, in the words of the figures (the detailed split)."""
    if "/interactions/" in path:
        return "interaction callback"
    if "/webhooks/" in path:
        return "follow-up or reply edit"
    if path.endswith("/users/@me/channels"):
        return "DM channel opened"
    if "/channels/" in path and path.endswith("/messages"):
        cid = path.split("/channels/")[1].split("/")[0]
        return "DM sent" if cid in fake.dm_channels else "channel post"
    if "/channels/" in path and method == "PATCH":
        return "message edited"
    return f"other {method}"


GLOBAL_EXEMPT = {"interaction callback", "follow-up or reply edit"}
# The four kinds issue #28 counts global-limited requests by.
BROAD_KIND = {"DM sent": "dm", "DM channel opened": "dm", "channel post": "channel_post", "message edited": "edit"}


def limit_figures(fake, log_at: int, moves: int) -> dict:
    """What Discord's limits made of the requests since `log_at` in the fake's request log:
    global-limited requests per move, split by kind (DM: messages and DM channels opened; channel
    post; edit; other), the 429s (global, and per route), and the largest share of any route's
    requests answered 429."""
    by_kind = {"dm": 0, "channel_post": 0, "edit": 0, "other": 0}
    routes: dict[str, list[int]] = {}  # route -> [requests, 429s of its own bucket]
    global_429s = route_429s = 0
    for r in fake.request_log[log_at:]:
        if not r.route:
            continue
        count = routes.setdefault(r.route, [0, 0])
        count[0] += 1
        if r.scope == "global":
            global_429s += 1
        elif r.scope == "user":
            route_429s += 1
            count[1] += 1
        if r.global_limited and r.status != 429:  # the requests Discord served (429s counted apart)
            by_kind[BROAD_KIND.get(_kind(fake, r.method, r.path), "other")] += 1
    moves = max(1, moves)
    return {"requests_per_move": round(sum(by_kind.values()) / moves, 2),
            "requests_per_move_by_kind": {k: round(n / moves, 2) for k, n in by_kind.items()},
            "global_429s": global_429s, "route_429s": route_429s,
            "route_429_share": round(max((n429 / n for n, n429 in routes.values() if n), default=0.0), 4),
            "route_429s_by_route": {route: n429 for route, (_n, n429) in sorted(routes.items()) if n429}}


class LiveRun:
    def __init__(self, fake, tables: list[Table], meter: Meter | Meters, db: str, seed: int = 1,
                 rss_every: int = RSS_EVERY, game: str = GAME) -> None:
        self.fake = fake
        self.game_id = game
        self.db = db
        self.renewals = 0
        self.failed_renewals = 0
        self._renewing: set[asyncio.Task] = set()
        self.tables = tables
        self.idle = set(range(len(tables)))
        self.meter = meter
        self.rng = random.Random(seed)
        self.game = get_game(game)
        self.by_inter: dict[str, Sample] = {}
        self.early: dict[str, list] = {}
        self.moves_done = 0  # since the bot started, warm-up included
        self.rss_every = rss_every
        self.rss_by_moves: list[dict] = []  # the bot's memory every `rss_every` moves
        # A debugging aid: with POLITICS_MEMDUMP set, the bot (testkit/fakediscord/botproc.py) writes
        # what its heap holds whenever memory is read here.
        self.memdump = bool(os.environ.get("POLITICS_MEMDUMP"))
        fake.on_reply = self._reply

    def _reply(self, inter, message) -> None:
        sample = self.by_inter.get(inter.id)
        if sample is None:
            self.early.setdefault(inter.id, []).append(message)
            return
        self._settle(sample, message)

    def _read_memory(self) -> None:
        self.rss_by_moves.append({"moves": self.moves_done, **self.meter.rss()})
        if self.memdump:
            for pid in [self.meter.pid] + self.meter.processes()[0]:
                try:
                    os.kill(pid, signal.SIGUSR1)
                except OSError:
                    pass

    def _settle(self, sample: Sample, message) -> None:
        if sample.outcome:
            return
        table = sample.table
        if "✓ Done" in message.content:
            sample.outcome, sample.done_at = "done", self.fake.clock()
            self.moves_done += 1
            if self.moves_done % self.rss_every == 0:
                self._read_memory()
            events = self.game.apply_in_place(table.state, sample.seat, sample.action)
            sample.public = [plain(e.text) for e in events if e.to is None and e.text]
            table.over = self.game.result(table.state).finished
        elif message.content.startswith("Busy"):
            sample.outcome = "busy"
        else:
            sample.outcome = "error"
            table.over = True  # out of step with the bot: leave this table alone
        table.in_flight = False
        if not table.over:
            self.idle.add(table.index)
        elif sample.outcome == "done":
            task = asyncio.ensure_future(self.renew(table))  # the game ended: open the next one
            self._renewing.add(task)
            task.add_done_callback(self._renewing.discard)

    async def _row(self, channel: str, until, tries: int = 400) -> dict:
        """The channel's row once `until(record)` holds (read from the bot's database)."""
        for _ in range(tries):
            found = await _read_row(self.db, channel)
            if found:
                record = json.loads(found[0])
                if found[1] is not None:
                    record["state"] = found[1]
                if until(record):
                    return record
            await asyncio.sleep(0.05)
        raise TimeoutError(f"channel {channel} did not reach the expected state")

    async def renew(self, table: Table) -> None:
        """A new game in a channel whose game ended, by its two players (lobby, join, start)."""
        first, *others = table.users
        self.renewals += 1
        for _attempt in range(5):  # an older bot may answer "something went wrong" (two games ending at once)
            await first.slash_raw("new", {"game": self.game_id, "seed": 10_000 + self.renewals}, channel=table.id,
                                  settle=False)
            try:
                await self._row(table.id, lambda r: r["status"] == "lobby", tries=40)
                break
            except TimeoutError:
                self.failed_renewals += 1
        else:
            return  # this table stays out of the run
        for other in others:
            await other.slash_raw("join", {}, channel=table.id, settle=False)
        await self._row(table.id, lambda r: len(r["players"]) == len(table.users))
        await first.slash_raw("start", {}, channel=table.id, settle=False)
        record = await self._row(table.id, lambda r: r["status"] == "playing")
        by_id = {u.id: u for u in table.users}
        table.users = [by_id[p["id"]] for p in record["players"]]
        table.state = self.game.load(record["state"])
        table.over = False
        self.idle.add(table.index)

    async def move(self, index: int) -> Sample | None:
        table = self.tables[index]
        self.idle.discard(index)
        seats = [s for s in self.game.to_act(table.state) if s >= 0]
        legal = self.game.legal_actions(table.state, seats[0]) if seats else []
        if not legal:
            table.over = True
            return None
        seat = seats[0]
        action = self.rng.choice(legal)
        table.in_flight = True
        sample = Sample(table, seat, action)
        table.moves.append(sample)
        inter = await table.users[seat].slash_raw("do", {"action": action.text()}, channel=table.id, settle=False)
        sample.inter = inter
        self.by_inter[inter.id] = sample
        for message in self.early.pop(inter.id, []):
            self._settle(sample, message)
        return sample

    def _release_unacked(self, samples: list[Sample]) -> None:
        """A move whose first answer came too late was never made: its table may move again."""
        now = self.fake.clock()
        for s in samples:
            inter = s.inter
            if s.outcome or inter is None:
                continue
            if (inter.latency or 0) > ACK_LIMIT or (
                    inter.first_callback_at is None and now - inter.dispatched_at > ACK_LIMIT + 1):
                s.outcome = "unacked"
                s.table.in_flight = False
                if not s.table.over:
                    self.idle.add(s.table.index)

    async def _wait(self, samples: list[Sample], grace: float) -> None:
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            self._release_unacked(samples)
            if all(s.outcome for s in samples):
                return
            await asyncio.sleep(0.05)
        self._release_unacked(samples)

    async def quiet(self, seconds: float = 2.0, limit: float = 180.0) -> None:
        """Wait until the bot has sent nothing for `seconds` (boards and DMs of earlier moves
        delivered), so that a step measures its own moves, not the backlog of the one before."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.fake.clock() - self.fake.last_activity < seconds:
            await asyncio.sleep(0.2)

    async def step(self, rate: float, seconds: float, max_moves: int | None = None) -> dict:
        """Open-loop arrivals at `rate` per second for `seconds` (or until `max_moves` arrived)."""
        await self.quiet()
        before, requests_at, bytes_at = self._reading(), len(self.fake.request_log), self.fake.file_bytes
        samples: list[Sample] = []
        no_table = 0
        tasks: list[asyncio.Task[Sample | None]] = []
        start = time.monotonic()
        due = start
        while True:
            due += self.rng.expovariate(rate)
            if due - start >= seconds or (max_moves is not None and len(tasks) >= max_moves):
                break
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if not self.idle:
                no_table += 1
                continue
            tasks.append(asyncio.ensure_future(self.move(self.rng.choice(tuple(self.idle)))))
        samples = [s for s in await asyncio.gather(*tasks) if s is not None]
        elapsed = time.monotonic() - start
        await self._wait(samples, GRACE)
        await self.quiet()  # the boards and DMs of its moves, some held back by the limits, delivered
        return self._figures(samples, before, requests_at, bytes_at, elapsed, rate, no_table)

    async def burst(self) -> dict:
        """Every idle table moves at the same instant."""
        if self._renewing:
            await asyncio.wait(list(self._renewing), timeout=60)
        await self.quiet()
        before, requests_at, bytes_at = self._reading(), len(self.fake.request_log), self.fake.file_bytes
        start = time.monotonic()
        samples = [s for s in await asyncio.gather(*(self.move(i) for i in list(self.idle))) if s is not None]
        await self._wait(samples, 120.0)
        elapsed = time.monotonic() - start
        await self.quiet()
        return self._figures(samples, before, requests_at, bytes_at, elapsed, None, 0)

    def _reading(self) -> dict:
        """The bot's CPU and memory, and this process's own CPU (the fake Discord and the players
        share the machine's cores with the bot: what they take is not the bot's to use)."""
        return {**self.meter.read(), "bench": time.process_time()}

    def _figures(self, samples, before, requests_at, bytes_at, elapsed, rate, no_table) -> dict:
        after = self.meter.read()
        done = [s for s in samples if s.outcome == "done"]
        done_lat = [s.done_at - s.inter.dispatched_at for s in done]
        # a move that never got its "✓ Done" counts as slower than any that did
        done_all = done_lat + [float("inf")] * (len(samples) - len(done))
        acks = [s.inter.latency if s.inter.latency is not None else float("inf") for s in samples]
        missed = sum(1 for a in acks if a > ACK_LIMIT)
        kinds: dict[str, int] = {}
        for r in self.fake.request_log[requests_at:]:
            k = _kind(self.fake, r.method, r.path)
            kinds[k] = kinds.get(k, 0) + 1
        moves = max(1, len(done))
        main_cpu = after["main"] - before["main"]
        workers_cpu = after["workers"] - before["workers"]
        p99 = _pct(done_all, 0.99)
        return {
            "offered_per_second": rate, "moves": len(samples), "done": len(done),
            "busy": sum(1 for s in samples if s.outcome == "busy"),
            "errors": sum(1 for s in samples if s.outcome == "error"),
            "no_idle_table": no_table,
            "achieved_per_second": round(len(done) / elapsed, 1) if elapsed else None,
            "done_p50_s": _round(_pct(done_all, 0.5)), "done_p99_s": _round(p99),
            "ack_p99_s": _round(_pct(acks, 0.99)), "missed_acks": missed,
            **limit_figures(self.fake, requests_at, len(done)),
            "requests_by_kind_per_move": {k: round(n / moves, 2) for k, n in sorted(kinds.items())},
            "image_kb_per_move": round((self.fake.file_bytes - bytes_at) / 1024 / moves, 1),
            "cpu_ms_per_move": round(1000 * (main_cpu + workers_cpu) / moves, 1),
            "render_workers_cpu_ms_per_move": round(1000 * workers_cpu / moves, 1),
            "rss_mb": round(after["rss_mb"], 1),
            "bench_cpu_ms_per_move": round(1000 * (time.process_time() - before["bench"]) / moves, 1),
            "rss_by_process_mb": self.meter.rss(),
        }


def _round(x: float | None) -> float | None:
    return None if x is None else (x if x == float("inf") else round(x, 3))


@dataclass
class Deployment:
    """Where the bot keeps its games and how many processes serve them: by default one process on
    its own SQLite file (and one server); bench --scale runs PostgreSQL with the shards split
    between processes, the channels spread over `guilds` servers."""
    database: str | None = None  # a PostgreSQL URL; None: a new SQLite file
    processes: int = 1
    shard_count: int = 1
    guilds: int = 1
    proxy: bool = False  # every process sends through one REST proxy (proxy/, testkit/fakediscord/restproxy.py)
    global_limit: int = 50  # the fake's (and the proxy's) global limit: a test lowers it to reach it with few moves
    settings: str = ""  # the measured games' lobby settings (a test turns on dm-turns for DMs to count)


async def _one(channels: int, quick: bool, tree: str, rates: list[float], seconds: float,
               soak: tuple[float, int] | None = None, rss_every: int = RSS_EVERY,
               deployment: Deployment | None = None, game: str = GAME, limits: bool = True,
               hard_channels: int = 0) -> dict:
    from testkit.fakediscord import server as server_module
    from testkit.fakediscord.server import FakeDiscord

    deploy = deployment or Deployment()
    fake = await FakeDiscord(shard_count=deploy.shard_count, limits=limits).start()
    # The processes send tokens of their own (so the fake tells them apart) but are one bot to
    # Discord: one token, one global limit and one set of buckets for all of them.
    fake.limits.bot_of = lambda token: "politics-bot" if token.startswith("fake-token") else token
    fake.limits.global_per_second = deploy.global_limit
    seats = get_game(game).min_players
    fake.keep_files = False
    tmp = tempfile.mkdtemp(prefix="politics-live-")
    db = deploy.database or os.path.join(tmp, "bot.db")
    guilds = ([FakeDiscord.GUILD_ID] if deploy.guilds == 1 else
              [fake.add_guild(f"server {g}", shard=g % deploy.shard_count) for g in range(deploy.guilds)])
    plan: dict[str, Any] = {"game": game, "guild": guilds[0], "channels": [], "settings": deploy.settings}
    handles = {}
    for c in range(channels):
        guild = guilds[c % len(guilds)]
        cid = fake.add_channel(f"live-{c}", guild=None if deploy.guilds == 1 else guild)
        users = [fake.user(f"p{c}{chr(ord('a') + s)}") for s in range(seats)]
        handles[cid] = users
        plan["channels"].append({"channel": cid, "seed": c + 1, "guild": guild,
                                 "users": [[u.id, u.name] for u in users]})
    plan["hard_channels"] = [{"channel": fake.add_channel(f"hard-{c}"), "seed": 5_000 + c,
                              "users": [[fake.user(f"h{c}").id, f"h{c}"]]} for c in range(hard_channels)]
    with open(os.path.join(tmp, "plan.json"), "w", encoding="utf-8") as fh:
        json.dump(plan, fh)
    # the bot under test uses this run's database and proxy, never those of the environment
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_REST_PROXY")}
    env["PYTHONPATH"] = tree
    if hard_channels:  # AI seats searched in worker processes, off the event loop, as in production
        env |= {"POLITICS_TEST_AI_WORKERS": "1", "AI_DELAY": "0"}
    proxy = None
    if deploy.proxy:
        from testkit.fakediscord.restproxy import RestProxy
        proxy = RestProxy(fake.api_base, deploy.global_limit, log_path=os.path.join(tmp, "proxy.log")).start()
        env["DISCORD_REST_PROXY"] = proxy.url
    subprocess.run([sys.executable, os.path.join(os.path.dirname(server_module.__file__), "liveprep.py"), db,
                    os.path.join(tmp, "plan.json")], cwd=tree, env=env, check=True, capture_output=True)
    tables = await _tables(db, handles, game)
    log = open(os.path.join(tmp, "bot.log"), "w", encoding="utf-8")
    procs = []
    for i in range(deploy.processes):
        shards = {}
        if deploy.shard_count > 1:  # process i serves shards i, i + processes, ...
            mine = range(i, deploy.shard_count, deploy.processes)
            shards = {"SHARD_COUNT": str(deploy.shard_count), "SHARD_IDS": ",".join(map(str, mine)),
                      "POLITICS_TEST_TOKEN": f"fake-token-{i}"}
        procs.append(subprocess.Popen(
            [sys.executable, "-m", _botproc(tree), fake.api_base, fake.gateway_url, db],
            cwd=tree, env=env | shards, stdout=log, stderr=subprocess.STDOUT))
    proc = procs[0]
    try:
        await fake.wait_for(lambda: fake.commands or any(p.poll() is not None for p in procs), timeout=120)
        if deploy.shard_count > 1:  # every shard connected
            await fake.wait_for(lambda: len(fake.by_shard) >= deploy.shard_count
                                or any(p.poll() is not None for p in procs), timeout=120)
        if any(p.poll() is not None for p in procs):
            raise RuntimeError(f"a bot process exited; see {log.name}")
        await asyncio.sleep(2.0)  # render workers started, first requests done
        meter: Meter | Meters = Meter(proc.pid) if len(procs) == 1 else Meters([Meter(p.pid) for p in procs])
        run = LiveRun(fake, tables, meter, db, rss_every=rss_every, game=game)
        out: dict = {"game": game, "channels": channels, "limits": fake.limits.enabled, "steps": [],
                     "processes": deploy.processes, "rest_proxy": deploy.proxy}
        # Warm-up, not reported: a short step, then every table moves twice, so that each player
        # has had a DM (a bot that has been running knows its DM channels; one that forgets them
        # opens them again whatever the warm-up).
        await run.step(min(rates), 2.0 if quick else 4.0)
        for _ in range(2):
            await run.burst()
        if soak:
            return await _soak(run, out, *soak)
        for rate in rates:
            figures = await run.step(rate, seconds)
            out["steps"].append(figures)
            if figures["done_p99_s"] is None or figures["done_p99_s"] > DONE_P99_LIMIT:
                break
        out["burst"] = await run.burst()
        passing = [s for s in out["steps"] if s["done_p99_s"] is not None and s["done_p99_s"] <= DONE_P99_LIMIT
                   and s["missed_acks"] == 0]
        best = max(passing, key=lambda s: s["achieved_per_second"] or 0, default=None)
        steps = out["steps"]
        out["sustained_actions_per_second"] = best["achieved_per_second"] if best else 0.0
        out["missed_acks"] = sum(s["missed_acks"] for s in steps) + out["burst"]["missed_acks"]
        out["requests_per_move"] = best["requests_per_move"] if best else steps[0]["requests_per_move"]
        out["ack_p99_s"] = max((s["ack_p99_s"] or 0) for s in steps)
        out["rss_mb_by_step"] = [s["rss_mb"] for s in steps] + [out["burst"]["rss_mb"]]
        out["games_renewed"], out["failed_renewals"] = run.renewals, run.failed_renewals
        out["rss_every"], out["rss_by_moves"] = run.rss_every, run.rss_by_moves
        _limit_totals(out, fake, run)
        if hard_channels:  # the all-AI channels: how many, and the moves their searches made
            rows = [json.loads(r[1]) for r in await _read_rows(db) if r[0] not in handles]
            out["hard_channels"], out["hard_moves"] = len(rows), sum(sum(r["acted"]) for r in rows)
        return out
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        log.close()
        if proxy is not None:
            proxy.stop()
        fake.on_reply = None
        await fake.stop()


async def _soak(run: LiveRun, out: dict, rate: float, moves: int) -> dict:
    """One long steady step instead of the ladder of rates: does the bot's memory level off?"""
    out["soak"] = await run.step(rate, 3 * moves / rate, max_moves=moves)
    out["rss_every"], out["rss_by_moves"] = run.rss_every, run.rss_by_moves
    out["games_renewed"], out["failed_renewals"] = run.renewals, run.failed_renewals
    _limit_totals(out, run.fake, run)
    return out


def _limit_totals(out: dict, fake, run: LiveRun) -> None:
    """The whole run under Discord's limits (warm-up included): 429s by route, the invalid
    requests of the worst 10 minutes against Discord's 10,000, a banned token, and whether every
    move's reply reached its channel once and in order."""
    out["limits_by_route"] = {name: vars(c) for name, c in sorted(fake.limits.by_route.items())}
    out["invalid_requests_peak"] = fake.limits.most_invalid()
    out["banned_tokens"] = len(fake.limits.banned)
    out["delivery"] = delivery_check(fake, run.tables)
    out |= budget(fake)
    out["checks"] = checks(out, fake.limits.global_per_second)


def delivery_check(fake, tables: list[Table]) -> dict:
    """Every "✓ Done" move reached its channel once and in order: the public text its events gave
    is found in the channel's messages (in the order the fake received them), each move's after
    the one before's; and no such text shows up more often than the moves that said it (a resend)."""
    missing = repeated = checked = 0
    for table in tables:
        text = "\n".join(m.content for m in fake.public(table.id) if m.content)
        at = 0
        said: dict[str, int] = {}
        for sample in table.moves:
            if sample.outcome != "done" or not sample.public:
                continue
            checked += 1
            for line in sample.public:
                said[line] = said.get(line, 0) + 1
            for line in sample.public:
                found = text.find(line, at)
                if found < 0:
                    missing += 1
                    break
                at = found + len(line)
        repeated += sum(max(0, text.count(line) - n) for line, n in said.items())
    return {"moves_checked": checked, "moves_missing_or_out_of_order": missing, "repeated_lines": repeated}


async def _read_rows(db: str, channel: str | None = None) -> list[tuple]:
    """(channel, record text, state text) of every game, or of one channel, read straight from the
    bot's database (a SQLite file, or a PostgreSQL URL), as any bot version wrote it."""
    if db.startswith(("postgresql://", "postgres://")):
        import asyncpg

        conn = await asyncpg.connect(db)
        try:
            if channel is None:
                return [tuple(r) for r in await conn.fetch("SELECT channel_id, record, state FROM games")]
            return [tuple(r) for r in await conn.fetch(
                "SELECT channel_id, record, state FROM games WHERE channel_id=$1", channel)]
        finally:
            await conn.close()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        if channel is None:
            return con.execute("SELECT channel_id, record, state FROM games").fetchall()
        return con.execute("SELECT channel_id, record, state FROM games WHERE channel_id=?", (channel,)).fetchall()
    finally:
        con.close()


async def _read_row(db: str, channel: str) -> tuple[str, str | None] | None:
    rows = await _read_rows(db, channel)
    return (rows[0][1], rows[0][2]) if rows else None


async def _tables(db: str, handles: dict, game_id: str = GAME) -> list:
    game = get_game(game_id)
    tables: list[Table] = []
    # the players' own channels only (not --hard-channels' all-AI ones)
    for channel_id, record_text, state_text in [r for r in await _read_rows(db) if r[0] in handles]:
        record = json.loads(record_text)
        state = game.load(state_text if state_text is not None else record["state"])
        by_id = {u.id: u for u in handles[channel_id]}
        tables.append(Table(len(tables), channel_id, [by_id[p["id"]] for p in record["players"]], state))
    return tables


def _botproc(tree: str) -> str:
    """The module that runs the bot of `tree` against the fake: this install's, or an older checkout's,
    whose fake Discord lived in tests/ (so `--bot-tree` still measures commits from before the move)."""
    for module in ("testkit.fakediscord.botproc", "tests.fakediscord.botproc"):
        if os.path.isfile(os.path.join(tree, *module.split(".")) + ".py"):
            return module
    raise SystemExit(f"politics-bot bench --live: {tree} has no bot to run (no testkit/fakediscord/botproc.py).")


def run_live(channel_counts: list[int] | None = None, quick: bool = False, tree: str | None = None,
             rates: list[float] | None = None, seconds: float | None = None,
             soak: tuple[float, int] | None = None, rss_every: int = RSS_EVERY,
             games: list[str] | None = None, limits: bool = True, proxy: bool = False, hard_channels: int = 0) -> dict:
    """Figures for each channel count (see the module's docstring). `soak` = (rate, moves): after
    the warm-up, one steady step of that many moves at that rate instead of the ladder of rates.
    Either way the bot's memory is read every `rss_every` moves (rss_by_moves).

    `games`: each of these games in turn (default primary-general alone): the figures of each are
    in "by_game"; "results" keeps the first game's. With several games and --quick, one channel
    count (100) unless told. `limits`: the fake enforces Discord's rate limits (said by "limits").
    `proxy`: the bot sends through the REST proxy (proxy/), as compose.yaml runs it."""
    tree = os.path.abspath(tree or ROOT)
    _botproc(tree)  # a tree the bench can't start a bot from is said now, not after a channel count
    rates = rates or (QUICK_RATES if quick else RATES)
    seconds = seconds or (QUICK_SECONDS if quick else SECONDS)
    games = games or [GAME]
    counts = channel_counts or ([100] if quick and len(games) > 1 else [100, 1000])
    by_game: dict[str, dict[str, dict]] = {}
    for game in games:
        by_game[game] = {str(channels): asyncio.run(_one(channels, quick, tree, rates, seconds, soak, rss_every,
                                                         game=game, limits=limits, hard_channels=hard_channels,
                                                         deployment=Deployment(proxy=proxy)))
                         for channels in counts}
    return {"limits": limits, "rest_proxy": proxy, "game": games[0], "games": games, "tree": tree,
            "cores": os.cpu_count(), "results": by_game[games[0]], "by_game": by_game}


def markdown_limits(results: dict) -> str:
    """Under Discord's limits, per game and step: what each move cost in global-limited requests
    (by kind) and what the fake answered 429."""
    lines = ["| game | channels | step (offered/s) | moves done/s | global-limited requests / move (DM, channel "
             "post, edit, other) | global 429s | route 429s (largest share of a route) | missed acks |",
             "| --- | ---: | --- | ---: | --- | ---: | ---: | ---: |"]
    for game, counts in results.get("by_game", {"": results["results"]}).items():
        for channels, r in counts.items():
            steps = [(str(s["offered_per_second"]), s) for s in r.get("steps", [])]
            steps += [("burst", r["burst"])] if "burst" in r else []
            steps += [("soak", r["soak"])] if "soak" in r else []
            for name, s in steps:
                k = s["requests_per_move_by_kind"]
                lines.append(f"| {game or results['game']} | {int(channels):,} | {name} | {s['achieved_per_second']} "
                             f"| {s['requests_per_move']} ({k['dm']}, {k['channel_post']}, {k['edit']}, {k['other']}) "
                             f"| {s['global_429s']} | {s['route_429s']} ({100 * s['route_429_share']:.1f} %) "
                             f"| {s['missed_acks']} |")
    return "\n".join(lines) + "\n"


def markdown_live(results: dict, label: str = "") -> str:
    if all("soak" in r for r in results["results"].values()):
        return markdown_rss(results, label)
    lines = ["| bot | channels | sustained actions/s (done p99 ≤ 1 s) | ack p99 (s) | missed acks | "
             "global-limited requests / move | CPU / move, ms (render workers; the bench itself) | image KB / move | "
             "RSS by step (MB) | burst: moves, done p99 (s), busy, missed acks |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for channels, r in results["results"].items():
        best = next((s for s in r["steps"] if s["achieved_per_second"] == r["sustained_actions_per_second"]),
                    r["steps"][0])
        b = r["burst"]
        lines.append(
            f"| {label} | {int(channels):,} | {r['sustained_actions_per_second']} | {r['ack_p99_s']} "
            f"| {r['missed_acks']} | {r['requests_per_move']} "
            f"| {best['cpu_ms_per_move']} ({best['render_workers_cpu_ms_per_move']}; "
            f"{best.get('bench_cpu_ms_per_move', '—')}) | {best['image_kb_per_move']} "
            f"| {' → '.join(str(round(x)) for x in r['rss_mb_by_step'])} "
            f"| {b['moves']}, {b['done_p99_s']}, {b['busy']}, {b['missed_acks']} |")
    return "\n".join(lines) + "\n" + ("\n" + markdown_limits(results) if results.get("limits") else "") + "".join(
        "\n" + markdown_checks(f"{game}, {int(c):,} channels", r["checks"])
        for game, runs in results.get("by_game", {}).items() for c, r in runs.items() if r.get("checks"))


def markdown_rss(results: dict, label: str = "") -> str:
    """The bot's memory every `rss_every` moves, warm-up included (a soak's table): does it level off?"""
    lines = [("| bot | channels | moves | bot RSS, MB (anonymous) | render workers RSS, MB (anonymous) | "
              "each worker (MB) | total with forkserver (MB) |"), "| --- | ---: | ---: | ---: | ---: | --- | ---: |"]
    for channels, r in results["results"].items():
        for m in r.get("rss_by_moves", []):
            total = m["bot_mb"] + m["workers_mb"] + m["others_mb"]
            lines.append(f"| {label} | {int(channels):,} | {m['moves']:,} | {m['bot_mb']} ({m['bot_anon_mb']}) "
                         f"| {m['workers_mb']} ({m['workers_anon_mb']}) "
                         f"| {' + '.join(str(w) for w in m['each_worker_mb'])} "
                         f"| {round(total, 1)} |")
    return "\n".join(lines) + "\n"
