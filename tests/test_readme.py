"""The README's move reference is generated from the engines: it must be current."""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from command_reference import block  # noqa: E402

from bot.registry import commands  # noqa: E402


def test_readme_move_reference_is_current():
    readme = (ROOT / "README.md").read_text()
    assert block() in readme, "run: python tools/command_reference.py --write"


def test_readme_lists_every_slash_command():
    readme = (ROOT / "README.md").read_text()
    for name in commands():
        assert f"/politics {name.split()[0]}" in readme, name


def test_readme_has_exactly_the_two_newcomer_commands():
    readme = (ROOT / "README.md").read_text()
    assert "bash scripts/start.sh" in readme and "bash scripts/test.sh" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "scripts/test.sh" in ci
