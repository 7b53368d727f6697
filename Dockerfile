# Slim image; the SQLite database lives on the /data volume so games survive restarts.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DATABASE_PATH=/data/politics.db
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY engines ./engines
COPY render ./render
COPY testkit ./testkit
RUN pip install --no-cache-dir . \
 && useradd --create-home --uid 10001 politics \
 && mkdir -p /data && chown politics:politics /data

USER politics
VOLUME ["/data"]
CMD ["politics-bot", "run"]
