"""The benches run from the install, not from the checkout: `politics-bot bench --live` started
in a directory outside the repository (no PYTHONPATH pointing back at it) finds the fake Discord and
the bot process it drives, and `bench --scale`'s throwaway PostgreSQL imports the same way."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("politics-bot")  # the console script the install made
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}


def outside(tmp_path: Path) -> Path:
    assert ROOT not in tmp_path.resolve().parents
    return tmp_path


def test_the_live_bench_runs_from_outside_the_repository(tmp_path):
    # the shortest run: two channels, the warm-up, then a soak of ten moves
    proc = subprocess.run([str(SCRIPT), "bench", "--live", "--quick", "--channels", "2", "--soak", "10",
                           "--rate", "20"], cwd=outside(tmp_path), env=ENV, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    soak = json.loads(proc.stdout)["results"]["2"]["soak"]
    assert soak["moves"] == 10 and soak["done"] == 10 and soak["errors"] == 0


def test_the_testkit_imports_from_outside_the_repository(tmp_path):
    code = ("import testkit.pgserver, testkit.fakediscord.botproc, testkit.fakediscord.server, bot.bench_scale; "
            "print(testkit.pgserver.__name__)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=outside(tmp_path), env=ENV, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "testkit.pgserver", proc.stderr[-2000:]


def test_bench_live_says_which_tree_has_no_bot(tmp_path):
    proc = subprocess.run([str(SCRIPT), "bench", "--live", "--quick", "--channels", "2", "--bot-tree", str(tmp_path)],
                          cwd=outside(tmp_path), env=ENV, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "has no bot to run" in proc.stderr and "Traceback" not in proc.stderr
