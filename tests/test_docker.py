"""The Docker image: what goes into it (.dockerignore), how it is pinned and whom it runs as; and,
where a Docker daemon runs, the image itself built and run as a server owner would (CI starts no
daemon, so there those tests say they were skipped and why; the image's command is also tested
without Docker in tests/test_first_run.py)."""
from __future__ import annotations

import fnmatch
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def ignore_rules() -> list[tuple[bool, str]]:
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keep = line.startswith("!")
            rules.append((keep, line.lstrip("!").strip("/")))
    return rules


def sent(path: str, rules=None) -> bool:
    """Whether `path` is in the build context: Docker's rule, the last matching pattern wins, and a
    pattern that matches a folder matches what is in it."""
    rules = ignore_rules() if rules is None else rules
    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    included = True
    for keep, pattern in rules:
        bare = pattern[3:] if pattern.startswith("**/") else None
        if any(fnmatch.fnmatchcase(p, pattern) or (bare and fnmatch.fnmatchcase(p.split("/")[-1], bare))
               for p in prefixes):
            included = keep
    return included


def test_the_build_context_holds_the_code_and_nothing_private_or_local():
    for path in ("pyproject.toml", "README.md", "requirements.lock", "bot/cli.py", "engines/__init__.py",
                 "render/fonts/DejaVuSans.ttf", "render/data/us_states.json"):
        assert sent(path), f"{path} must be in the build context"
    for path in (".env", ".venv/bin/python", "out/table/table.db", "data/politics.db", ".git/HEAD",
                 "bot/__pycache__/cli.cpython-311.pyc", "tests/test_cli.py", "docs/images/primary-general.png"):
        assert not sent(path), f"{path} must stay out of the build context"
    # everything the Dockerfile copies is sent
    for source in re.findall(r"^COPY (.+) \S+$", DOCKERFILE, re.M):
        for item in source.split():
            assert sent(item), item


def test_context_size():
    """The whole context is the code (a few MB), whatever lies around in the checkout."""
    total = 0
    for folder, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(folder, ROOT)
        dirs[:] = [d for d in dirs if sent(os.path.normpath(os.path.join(rel, d)))] if rel != "." else \
            [d for d in dirs if d != ".git" and sent(d)]
        for name in files:
            path = os.path.normpath(os.path.join(rel, name))
            if sent(path):
                total += os.path.getsize(os.path.join(folder, name))
    assert total < 30_000_000, f"the build context is {total / 1e6:.0f} MB"


def test_the_base_is_pinned_and_the_bot_runs_as_its_own_user_in_the_volume():
    base = re.search(r"^ARG BASE=(\S+)$", DOCKERFILE, re.M)
    assert base and re.fullmatch(r"python:3\.11\.\d+-slim-bookworm@sha256:[0-9a-f]{64}", base.group(1))
    assert re.search(r"^FROM \$\{BASE\}$", DOCKERFILE, re.M)
    assert re.search(r"^USER politics$", DOCKERFILE, re.M)
    after_user = DOCKERFILE[DOCKERFILE.index("USER politics"):]
    assert re.search(r"^WORKDIR /data$", after_user, re.M)  # where the table may write
    assert '"--wait-without-token"' in re.search(r"^CMD \[.*\]$", DOCKERFILE, re.M).group(0)


def test_the_readme_commands_need_no_env_file_to_exist():
    readme = (ROOT / "README.md").read_text()
    docker = readme[readme.index("### Docker"):readme.index("### Many servers")]
    (commands,) = re.findall(r"```sh\n(.*?)```", docker, re.S)
    assert "--env-file" not in commands  # `docker run --env-file .env` fails where no .env was made
    assert "docker run" in commands and "-e DISCORD_TOKEN " in commands


# ---- with a daemon: the image built and run ---------------------------------------------------------
# The base comes from Docker Hub, which some machines can't reach: POLITICS_TEST_DOCKER_BASE names a
# stand-in image (e.g. Debian bookworm with python3 made by debootstrap) to build on instead.

def _docker(*args, timeout=600, check=True, **kwargs):
    proc = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and proc.returncode != 0:
        raise AssertionError(f"docker {' '.join(args)} failed: {proc.stderr[-2000:]}")
    return proc


def _daemon() -> str | None:
    if shutil.which("docker") is None:
        return "no docker command here"
    proc = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"], capture_output=True, text=True,
                          timeout=60)
    return None if proc.returncode == 0 else "no Docker daemon here (CI starts none; tests/test_first_run.py " \
        "runs the image's command without Docker)"


@pytest.fixture(scope="module")
def image():
    why = _daemon()
    if why:
        pytest.skip(why)
    tag = "politics-bot-test:latest"
    args = ["build", "--network", "host", "-t", tag]
    base = os.environ.get("POLITICS_TEST_DOCKER_BASE")
    if base:
        args += ["--build-arg", f"BASE={base}"]
    _docker(*args, str(ROOT), timeout=1800)
    yield tag
    _docker("rmi", "-f", tag, check=False)


def test_the_image_runs_as_its_user_and_keeps_the_code_read_only(image):
    script = "id -u; pwd; touch /app/x 2>/dev/null && echo app-writable; touch /data/x && echo data-writable"
    out = _docker("run", "--rm", "--network", "none", image, "sh", "-c", script).stdout
    assert out.split() == ["10001", "/data", "data-writable"]


def test_without_a_token_and_terminal_it_says_so_once_and_never_restarts(image):
    name = f"politics-test-{os.getpid()}"
    _docker("run", "-d", "--name", name, "--network", "none", "--restart", "unless-stopped", image)
    try:
        for _ in range(60):
            logs = _docker("logs", name).stdout
            if "Waiting until stopped" in logs:
                break
            time.sleep(0.5)
        time.sleep(5)  # long enough for a restarting container to have restarted several times
        state = _docker("inspect", "--format", "{{.RestartCount}} {{.State.Running}}", name).stdout.split()
        assert state == ["0", "true"]
        assert _docker("logs", name).stdout.count("No DISCORD_TOKEN is set") == 1
        _docker("stop", "-t", "30", name)
        assert _docker("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip() == "0"
    finally:
        _docker("rm", "-f", name, check=False)


def test_docker_run_it_without_a_token_opens_the_table_in_the_volume(image):
    # `docker run -it` with no token: the local table, writing to /data/out/table (no Permission denied).
    proc = subprocess.run(["script", "-qec", f"docker run --rm -i -t --network none {image} politics-bot run "
                           "--game primary-general", "/dev/null"], input="quit\n", capture_output=True, text=True,
                          timeout=300)
    text = proc.stdout.replace("\r\n", "\n")
    assert "local table" in text and "image: out/table/0001-primary-general.png" in text, text[-2000:]
    assert "Permission denied" not in text and "Traceback" not in text
