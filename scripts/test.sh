#!/usr/bin/env bash
# Install politics-bot with its test dependencies into ./.venv and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# The install is redone only when .venv is missing or pyproject.toml changed since this script last
# installed (a stamp in .venv); its chatter (setuptools' boxes) is shown only if it fails.
# tools: pyshp and plotly-geo, so the test that regenerates the committed map geometry runs too.
stamp=.venv/.politics-bot-tested
wanted="test $(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -x .venv/bin/pytest ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    [ -x .venv/bin/python ] || python3 -m venv .venv
    log="$(mktemp)"
    if ! { .venv/bin/python -m pip install --quiet --upgrade pip &&
           .venv/bin/python -m pip install --quiet -e '.[test,tools]' ; } >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "The install failed (above); no test ran." >&2
        exit 1
    fi
    rm -f "$log"
    echo "$wanted" > "$stamp"
fi
# The store and service tests also run against a throwaway PostgreSQL server the run starts itself
# (testkit/pgserver.py); on a clean machine its binaries come from Debian's postgresql package.
if ! command -v pg_ctl >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    echo "Installing PostgreSQL's server binaries for the store tests (Debian's postgresql package)..."
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    if ! { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq update &&
           $sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq -y install --no-install-recommends postgresql; } >/dev/null; then
        echo "Could not install postgresql; the PostgreSQL variants of the tests will say what is missing."
    fi
fi
# The REST proxy's packages (proxy/package-lock.json, for tests/test_rest_proxy.py), again whenever the lock
# changed; node and npm from Debian's packages where the machine has none.
if [ ! -f proxy/node_modules/.package-lock.json ] || [ proxy/package-lock.json -nt proxy/node_modules/.package-lock.json ]; then
    if ! command -v npm >/dev/null 2>&1; then
        sudo=""
        if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
        $sudo env DEBIAN_FRONTEND=noninteractive apt-get -qq -y install --no-install-recommends nodejs npm >/dev/null || true
    fi
    if ! (cd proxy && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
        echo "Could not install the REST proxy's packages; tests/test_rest_proxy.py will say what is missing."
    fi
fi
# The house inspectors first (both configured in pyproject.toml): any finding fails the run.
echo "ruff (the whole tree):"
.venv/bin/ruff check .
echo "mypy (bot, engines, render, testkit):"
.venv/bin/mypy
exec .venv/bin/python -m pytest "$@"
