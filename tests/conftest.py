import os
import sys

import pytest

# The fake Discord's `harness` fixture, for every test that runs the bot against it.
pytest_plugins = ["testkit.fakediscord.fixtures"]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
# Tests, and the bot processes they start, use only the stores they make themselves: never a
# database a developer's shell points DATABASE_URL at.
os.environ.pop("DATABASE_URL", None)


@pytest.fixture(scope="session")
def pg_server():
    """One throwaway PostgreSQL server for the whole run, started by the first test that needs it.
    Without its binaries the PostgreSQL variants fail (never skip) with a sentence saying how to get them."""
    from testkit.pgserver import MISSING, PgServer, binaries

    bin_dir = binaries()
    if bin_dir is None:
        pytest.fail(MISSING, pytrace=False)
    try:
        server = PgServer(bin_dir)
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """Where a test's store lives, once per backend: a fresh SQLite file, or a fresh schema of a
    PostgreSQL database on the run's throwaway server (its URL). Store.open takes either."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.db")
        return
    # (not dropped after the test: a few hundred KB each, gone with the server at the run's end)
    yield request.getfixturevalue("pg_server").new_schema()


@pytest.fixture
async def runner(database):
    """The transcript runner (bot/transcript.py) on a fresh store of each backend, text boards only."""
    from bot.transcript import TranscriptRunner

    r = await TranscriptRunner.create(database, render=False)
    yield r
    await r.close()
