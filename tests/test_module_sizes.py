"""A module past ~800 lines asks to be split along the game's own phases (or, in bot/, along its
collaborators): this keeps bot/, engines/ and render/ walkable. A file that grows past the
limit fails here with its name and length, before a reviewer has to say it."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 800
PACKAGES = ("bot", "engines", "render")


def test_no_module_of_the_product_is_past_the_limit():
    modules = [path for package in PACKAGES for path in (ROOT / package).rglob("*.py")]
    assert len(modules) > 50  # the walk found the packages (a moved tree would pass vacuously)
    long = {str(path.relative_to(ROOT)): n for path in modules
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert not long, f"split these along their phases or collaborators: {long}"
