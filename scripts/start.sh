#!/usr/bin/env bash
# Install politics-bot into ./.venv and start it. With no DISCORD_TOKEN (env or .env)
# it opens the local table in this terminal, you against AI seats.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
exec .venv/bin/politics-bot run "$@"
