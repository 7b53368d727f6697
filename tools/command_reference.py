"""Print (or --write into README.md) the move reference of every game, taken
from the engines' own action classes, so the README can't drift from the code."""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engines import all_games  # noqa: E402

START, END = "<!-- moves:start -->", "<!-- moves:end -->"


def reference() -> str:
    lines = []
    for game in all_games().values():
        doc = game.doc
        seats = f"{game.min_players}–{game.max_players} players"
        lines.append(f"**{game.id}** — {game.title}, {seats} ([rules and examples]({doc}))\n")
        lines.append("| move | what it does |")
        lines.append("| --- | --- |")
        for cls in game.actions:
            usage = " ".join([cls.verb] + [f"<{n}>" for n in cls.model_fields])
            what = " ".join((cls.__doc__ or "").split()) or "—"
            lines.append(f"| `{usage}` | {what} |")
        lines.append("")
    return "\n".join(lines).strip() + "\n"


def block() -> str:
    return f"{START}\n{reference()}{END}"


if __name__ == "__main__":
    if "--write" in sys.argv:
        readme = ROOT / "README.md"
        text = readme.read_text()
        head, _, rest = text.partition(START)
        _, _, tail = rest.partition(END)
        readme.write_text(head + block() + tail)
    else:
        print(reference())
