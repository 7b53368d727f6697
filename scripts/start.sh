#!/usr/bin/env bash
# Install politics-bot into ./.venv (only when needed) and start it. With no DISCORD_TOKEN (env or .env)
# it opens the local table in this terminal, you against AI seats.
#
#   bash scripts/start.sh                       politics-bot run (Discord, or the local table)
#   bash scripts/start.sh play us-president     any other politics-bot command: play, replay, simulate, ...
#
# The install is redone only when .venv is missing or pyproject.toml changed since the last one (a stamp
# file in .venv remembers which pyproject.toml it installed). The bot runs in the repository folder, so
# .env, data/ and out/ are the repository's wherever you start it from.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
# The command the table prints for "continue it" and "play another": this script as you typed it.
POLITICS_BOT_COMMAND="bash $(printf '%q' "$0")"
export POLITICS_BOT_COMMAND
cd "$here"

stamp=.venv/.politics-bot-installed
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ ! -x .venv/bin/politics-bot ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "Installing politics-bot into .venv (once; again only when pyproject.toml changes)..."
    [ -x .venv/bin/python ] || python3 -m venv .venv
    # Quiet: no progress bars, and setuptools' build chatter (its deprecation boxes) stays in the log
    # unless the install fails.
    log="$(mktemp)"
    if ! { .venv/bin/python -m pip install --quiet --upgrade pip &&
           .venv/bin/python -m pip install --quiet -e . ; } >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "The install failed (above); nothing was started." >&2
        exit 1
    fi
    rm -f "$log"
    echo "$wanted" > "$stamp"
fi

case "${1:-}" in
    run|play|replay|simulate|render|bench|backup|restore|prune|-h|--help) exec .venv/bin/politics-bot "$@" ;;
    *) exec .venv/bin/politics-bot run "$@" ;;
esac
