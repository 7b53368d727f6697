#!/usr/bin/env bash
# Install politics-bot with its test dependencies into ./.venv and run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
# tools: pyshp and plotly-geo, so the test that regenerates the committed map geometry runs too
.venv/bin/python -m pip install --quiet -e '.[test,tools]'
exec .venv/bin/python -m pytest "$@"
