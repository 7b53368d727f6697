"""requirements.lock, which the Docker image installs from, agrees with pyproject.toml: every
dependency is pinned within its range, with hashes, and nothing is pinned that no dependency needs.
Regenerate it with the command in its first lines after changing the dependencies."""
from __future__ import annotations

import pathlib
import re
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def lock() -> dict[str, dict]:
    """name -> {version, hashes, via} from uv's (pip-compile's) output format."""
    pins: dict[str, dict] = {}
    current = None
    in_via = False
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        pin = PIN.match(line)
        if pin:
            current = pins.setdefault(canonicalize_name(pin.group(1)),
                                      {"version": pin.group(2), "hashes": [], "via": []})
            in_via = False
            continue
        text = line.strip()
        if current is None or not text:
            continue
        if text.startswith("--hash=sha256:"):
            current["hashes"].append(text.split(":", 1)[1].rstrip(" \\"))
        elif text.startswith("# via"):
            rest = text[len("# via"):].strip()
            in_via = not rest
            if rest:
                current["via"].append(rest)
        elif in_via and text.startswith("#   "):
            current["via"].append(text[1:].strip())
        else:
            in_via = False
    return pins


def dependencies() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(d) for d in project["dependencies"]]


def test_every_dependency_is_pinned_within_its_range_with_hashes():
    pins = lock()
    for req in dependencies():
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is in pyproject.toml but not in requirements.lock"
        assert req.specifier.contains(pins[name]["version"], prereleases=True), \
            f"requirements.lock pins {req.name}=={pins[name]['version']}, outside {req.specifier}"
        assert "politics-bot (pyproject.toml)" in pins[name]["via"], f"{req.name} is not marked as a direct dependency"
    for name, pin in pins.items():
        assert pin["hashes"] and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in pin["hashes"]), f"{name} has no hashes"


def test_nothing_is_pinned_that_no_dependency_needs():
    pins = lock()
    direct = {canonicalize_name(r.name) for r in dependencies()}
    for name, pin in pins.items():
        assert pin["via"], f"{name} says nothing about why it is pinned"
        needed_by = {canonicalize_name(v.split()[0]) for v in pin["via"] if v != "politics-bot (pyproject.toml)"}
        if "politics-bot (pyproject.toml)" in pin["via"]:
            assert name in direct, f"{name} is marked direct but pyproject.toml no longer lists it"
        assert needed_by <= set(pins), f"{name} is needed by {needed_by - set(pins)}, which is not pinned"
        assert name in direct or needed_by, f"{name} is pinned for nothing"


def test_the_image_installs_from_the_lock_with_its_hashes():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"pip install [^\n]*--require-hashes -r requirements\.lock", dockerfile)
    assert re.search(r"pip install [^\n]*--no-deps \.", dockerfile)  # the bot itself adds no unpinned package
