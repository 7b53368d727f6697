"""compose.yaml runs what the README says: PostgreSQL plus bot processes that split every shard
exactly once between them, all on the same database. (No YAML parser is a dependency, so the
few keys that matter are read line by line.)"""
import os
import re

from bot.shards import Shards

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _services() -> dict[str, dict[str, str]]:
    services: dict[str, dict[str, str]] = {}
    current = None
    in_services = False
    for line in open(os.path.join(ROOT, "compose.yaml"), encoding="utf-8"):
        if re.match(r"^services:\s*$", line):
            in_services = True
            continue
        if re.match(r"^\S", line):
            in_services = False
        if not in_services:
            continue
        name = re.match(r"^  ([\w-]+):\s*$", line)
        if name:
            current = services.setdefault(name.group(1), {})
            continue
        setting = re.match(r"^      ([A-Z_]+):\s*\"?([^\"\n]*)\"?\s*$", line)
        if setting and current is not None:
            current[setting.group(1)] = setting.group(2)
    return services


def test_bots_split_every_shard_once_on_one_database():
    services = _services()
    bots = {name: env for name, env in services.items() if "SHARD_IDS" in env}
    assert "db" in services and len(bots) == 2
    counts = {env["SHARD_COUNT"] for env in bots.values()}
    assert len(counts) == 1
    count = int(counts.pop())
    served = [i for env in bots.values() for i in Shards.parse(count, env["SHARD_IDS"]).ids]
    assert sorted(served) == list(range(count))  # each shard exactly once
    urls = {env["DATABASE_URL"] for env in bots.values()}
    assert len(urls) == 1 and urls.pop().startswith("postgresql://")


def _compose() -> str:
    return open(os.path.join(ROOT, "compose.yaml"), encoding="utf-8").read()


def test_the_database_password_comes_from_env_never_from_the_file():
    text = _compose()
    services = _services()
    # the database's password and the bots' URL both read POSTGRES_PASSWORD, and compose refuses to start
    # without it (${VAR:?message}) instead of starting a database with an empty or well-known password
    assert re.fullmatch(r"\$\{POSTGRES_PASSWORD:\?[^}]+\}", services["db"]["POSTGRES_PASSWORD"])
    for name, env in services.items():
        if "SHARD_IDS" in env:
            assert re.fullmatch(r"postgresql://politics:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432/politics",
                                env["DATABASE_URL"]), name
    # no literal password anywhere: every value after "PASSWORD:" or inside a URL's user:password@ is the variable
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        key = re.match(r"\s*\w*PASSWORD\w*:\s+\"?([^\"$\s][^\"\s]*)", line)
        url = re.search(r"://\w+:([^@$]+)@", line)
        assert not key and not url, f"compose.yaml holds a password: {line.strip()}"
    example = open(os.path.join(ROOT, ".env.example"), encoding="utf-8").read()
    assert re.search(r"^POSTGRES_PASSWORD=$", example, re.M)  # documented, and empty in the example


def test_bots_restart_but_stop_cleanly():
    text = _compose()
    anchor = text[text.index("x-bot:"):text.index("services:")]
    assert re.search(r"^  restart: unless-stopped", anchor, re.M)  # a crash or a reboot brings a bot back ...
    assert re.search(r"^  init: true", anchor, re.M)  # ... and docker compose stop stops it at once
    # ... while a bot without a token waits instead of exiting into that restart policy (the image's CMD)
    dockerfile = open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8").read()
    assert "--wait-without-token" in dockerfile and "command:" not in anchor


def test_every_bot_has_a_health_check_on_its_metrics_port():
    text = _compose()
    anchor = text[text.index("x-bot:"):text.index("services:")]
    # every bot service merges the anchor, so each gets the probe; the probe reads METRICS_PORT
    health = re.search(r"^  healthcheck:\n((?:    .*\n)+)", anchor, re.M)
    assert health and '"politics-bot", "health"' in health.group(1)
    for key in ("interval", "timeout", "start_period", "retries"):
        assert re.search(rf"^    {key}: \S+", health.group(1), re.M), key
    for name, env in _services().items():
        if "SHARD_IDS" in env:
            assert 1 <= int(env["METRICS_PORT"]) <= 65535, name
            block = text[text.index(f"  {name}:"):]
            assert block.splitlines()[1].strip() == "<<: *bot", name
    # Docker stops a container 10 s after SIGTERM: the bot's bounded stop must fit within the grace period
    grace = re.search(r"^  stop_grace_period: (\d+)s", anchor, re.M)
    assert grace and int(grace.group(1)) > 8
    dockerfile = open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8").read()
    assert re.search(r'^HEALTHCHECK .*CMD \["politics-bot", "health"\]', dockerfile, re.M)
    assert re.search(r"METRICS_PORT=\d+", dockerfile)
