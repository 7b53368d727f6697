"""Figures the reliability report collects: tests append JSON lines to the
file named by FAKE_REPORT (set by testkit.fakediscord.report); otherwise no-op."""
from __future__ import annotations

import json
import os


def record(scenario: str, **figures) -> None:
    path = os.environ.get("FAKE_REPORT")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"scenario": scenario, **figures}) + "\n")


def record_fake(scenario: str, fake, **extra) -> None:
    lat = fake.latencies()
    record(scenario, interactions=len(fake.interactions), answered=len(lat),
           slowest=max(lat) if lat else 0.0, faults=len(fake.faults_injected),
           identifies=fake.identifies, resumes=fake.resumes, **extra)
