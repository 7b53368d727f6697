"""The engines' modules import each other at the top, never inside a function: an import hidden in
a function is how a cycle between two modules (an AI and its game, a rule and its phase) stays out
of sight, and issue #24 removed every one of them."""
from __future__ import annotations

import ast
import pathlib

ENGINES = pathlib.Path(__file__).resolve().parent.parent / "engines"


def _function_level_imports(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").startswith("engines")):
                found.append(f"{path.relative_to(ENGINES.parent)}:{node.lineno} in {fn.name}()")
    return found


def test_no_engine_module_imports_another_inside_a_function():
    found = [hit for path in sorted(ENGINES.rglob("*.py")) for hit in _function_level_imports(path)]
    assert found == [], "function-level imports between engine modules:\n" + "\n".join(found)


def test_the_check_sees_a_function_level_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from .game import X\n    return X\n", encoding="utf-8")
    global ENGINES
    saved, ENGINES = ENGINES, tmp_path
    try:
        found = _function_level_imports(sample)
    finally:
        ENGINES = saved
    assert len(found) == 1 and found[0].endswith("sample.py:2 in f()")
