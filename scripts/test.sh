#!/usr/bin/env bash
# Install politics-bot with its test dependencies into ./.venv and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# tools: pyshp and plotly-geo, so the test that regenerates the committed map geometry runs too
.venv/bin/python -m pip install --quiet -e '.[test,tools]'
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
exec .venv/bin/python -m pytest "$@"
