"""A throwaway PostgreSQL server for the test run: initdb into a temporary directory, listen
only on a Unix socket there, stop and delete it when the run ends.

The server binaries are Debian's `postgresql` package (scripts/test.sh installs it when they are
missing). initdb refuses to run as root, so under root the server runs as the `postgres` system
user. Each test gets a fresh schema of its own in one shared database (the URL's search_path
names it, and the store migrates it on opening): about 40 ms, where a fresh database copied from
a template took 250 ms on a busy machine. Tests about whole databases (what the migrations make,
database-wide settings) ask for a fresh database instead.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile

import asyncpg

MISSING = ("PostgreSQL's server binaries (initdb, pg_ctl, postgres) are not installed, so the PostgreSQL "
           "variants of the store tests can't run: run the suite with `bash scripts/test.sh` (it installs "
           "them), or `apt-get install postgresql`, or put their directory on PATH.")
TEMPLATE = "politics_template"
SHARED = "politics_tests"  # the database whose schemas the tests get
# Speed over durability for a server that lives one test run: the store still asks for
# synchronous_commit=on, and a bot killed with SIGKILL (not the server) is what the tests kill.
SERVER_SETTINGS = ["-c", "listen_addresses=", "-c", "max_connections=200", "-c", "shared_buffers=32MB"]
FAST = ["-c", "fsync=off", "-c", "full_page_writes=off"]


def binaries() -> str | None:
    """The directory holding initdb, pg_ctl and postgres: PATH first, then Debian's versions, newest first."""
    found = shutil.which("pg_ctl")
    candidates = [os.path.dirname(os.path.realpath(found))] if found else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda d: int(d.split("/")[-2]), reverse=True)
    for directory in candidates:
        if all(os.access(os.path.join(directory, b), os.X_OK) for b in ("initdb", "pg_ctl", "postgres")):
            return directory
    return None


class PgServer:
    def __init__(self, bin_dir: str, durable: bool = False) -> None:
        # durable: fsync on, as in production, for benchmarks that compare commits
        self.settings = SERVER_SETTINGS if durable else SERVER_SETTINGS + FAST
        self.bin_dir = bin_dir
        self.root = tempfile.mkdtemp(prefix="politics-pg-")
        self.data = os.path.join(self.root, "data")
        self.owner = None
        if os.geteuid() == 0:  # initdb refuses root: the server runs as the postgres system user
            try:
                self.owner = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("Running as root, the test PostgreSQL server needs a `postgres` system user "
                                   "(Debian's postgresql package makes it).") from None
        if self.owner:
            os.chown(self.root, self.owner.pw_uid, self.owner.pw_gid)
        self._names = itertools.count(1)

    def _as_owner(self, *cmd: str) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if self.owner else list(cmd)

    def _run(self, program: str, *args: str, check: bool = True) -> None:
        done = subprocess.run(self._as_owner(os.path.join(self.bin_dir, program), *args),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if check and done.returncode:
            raise RuntimeError(f"{program} failed: {done.stdout[-2000:]}")

    def start(self) -> None:
        """initdb, start, and the template database."""
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C")
        self.start_server()
        asyncio.run(self._make_template())

    def start_server(self) -> None:
        options = " ".join(["-k", self.root, *self.settings])
        self._run("pg_ctl", "-D", self.data, "-w", "-t", "60", "-l", os.path.join(self.root, "server.log"),
                  "-o", options, "start")

    def stop_server(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop", check=False)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    def _admin_now(self, *statements: str, database: str = "postgres") -> None:
        """Run admin statements to completion, also from a test already inside an event loop."""
        with concurrent.futures.ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, self._admin(*statements, database=database)).result()

    async def _admin(self, *statements: str, database: str = "postgres") -> None:
        conn = await asyncpg.connect(self.url(database))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    async def _make_template(self) -> None:
        from bot.store import Store

        await self._admin(f"CREATE DATABASE {TEMPLATE}", f"CREATE DATABASE {SHARED}")
        store = await Store.open(self.url(TEMPLATE))  # migrated once; every test's database copies it
        await store.close()

    def new_schema(self) -> str:
        """A fresh, empty schema in the shared database; the URL of the store that lives there
        (asyncpg passes search_path on to the server, so every table the store makes goes in it)."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self._admin_now(f"CREATE SCHEMA {name}", database=SHARED)
        return f"{self.url(SHARED)}&search_path={name}"

    def new_database(self) -> str:
        """A fresh, migrated, empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self._admin_now(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.split("@/", 1)[1].split("?", 1)[0]
        self._admin_now(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def empty_database(self) -> str:
        """A fresh database without the schema (migrations not yet run); its URL."""
        name = f"empty_{os.getpid()}_{next(self._names)}"
        self._admin_now(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        """Stop the server and delete everything it wrote."""
        self.stop_server("immediate")
        shutil.rmtree(self.root, ignore_errors=True)
