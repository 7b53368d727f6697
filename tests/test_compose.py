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
