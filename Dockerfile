# Slim image, run as a non-root user; the database, .env and the local table's files live on the /data volume
# so games survive restarts and upgrades.
#
# The base is pinned by tag and by the digest of its multi-architecture index (amd64 and arm64 alike): a
# rebuild gets the same Python and Debian until this line is changed on purpose. BASE can name a stand-in
# built locally (tests/test_docker.py does, where Docker Hub can't be reached).
ARG BASE=python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d
FROM ${BASE}

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore \
    DATABASE_PATH=/data/politics.db METRICS_PORT=9100
WORKDIR /app

# The dependencies exactly as locked (versions and hashes), in a layer of their own that a code change
# does not rebuild. The lock is made from pyproject.toml; tests/test_lock.py checks they agree.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes -r requirements.lock

# The bot itself, without dependencies (they are all above).
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
COPY testkit ./testkit
RUN pip install --no-cache-dir --no-deps . \
 && rm -rf build ./*.egg-info \
 && useradd --create-home --uid 10001 politics \
 && mkdir -p /data && chown politics:politics /data

USER politics
# The working folder is the volume, writable by the bot's user: the local table (docker run -it without a
# token) writes its board images and saved game to out/table here, and a .env here is read.
WORKDIR /data
VOLUME ["/data"]
# Docker asks the bot itself whether it can serve (gateway, store, render pool: docs/operations.md, Health). The image
# has no curl: `politics-bot health` reads /healthz on METRICS_PORT, which the image turns on (port 9100 stays inside
# the container unless published). start-period covers the gateway's first connect and the commands' sync.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["politics-bot", "health"]
# Without a token and without a terminal the bot says so once and waits to be stopped, instead of exiting
# into a restart policy that would start it again and again (compose.yaml's unless-stopped).
CMD ["politics-bot", "run", "--wait-without-token"]
