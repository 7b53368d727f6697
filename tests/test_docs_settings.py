"""Every game doc's settings table says what the code does: the same setting
names as the game's OptionsModel, the same defaults, and (for settings with a
fixed list of choices) the same choices."""
from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from engines import all_games

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "games"
TICKED = re.compile(r"`([^`]*)`")


def settings_table(doc: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the table under '## Settings' (blank lines
    inside the table are tolerated; a row's first cell is a `key`)."""
    section = doc.split("\n## Settings", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.lstrip().startswith("|")]
    header = [h.lower() for h in rows[0]]
    body = [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]
    return header, body


def documented_settings(game_id: str, doc: str) -> dict[str, dict[str, object]]:
    header, body = settings_table(doc)
    default_col = next(i for i, h in enumerate(header) if "default" in h)
    values_col = next((i for i, h in enumerate(header) if h.startswith("values")), None)
    out = {}
    for row in body:
        key = TICKED.fullmatch(row[0])
        assert key, f"{game_id}: a settings row does not start with a `key`: {row}"
        cell = row[default_col]
        ticked = TICKED.findall(cell)
        # "Values (default first)" lists the default first; a "default" column holds it alone
        default = ticked[0] if ticked else cell.split()[0]
        values = TICKED.findall(row[values_col]) if values_col is not None else None
        out[key.group(1)] = {"default": default, "values": values}
    return out


def problems(game_id: str, doc: str) -> list[str]:
    """Where the doc's settings table and the game's OptionsModel disagree."""
    game = all_games()[game_id]
    fields = game.OptionsModel.model_fields
    documented = documented_settings(game_id, doc)
    if list(documented) != list(fields):
        return [f"{game_id}: the doc lists {list(documented)}, the model has {list(fields)}"]
    found = []
    for key, entry in documented.items():
        field = fields[key]
        # read the documented default the way a player's `key=value` is read
        parsed = getattr(game.OptionsModel(**{key: entry["default"]}), key)
        if parsed != field.default:
            found.append(f"{game_id}: `{key}` defaults to {field.default!r}, the doc says {entry['default']!r}")
        if entry["values"] and typing.get_origin(field.annotation) is typing.Literal:
            if set(entry["values"]) != set(typing.get_args(field.annotation)):
                found.append(f"{game_id}: `{key}` takes {typing.get_args(field.annotation)}, "
                             f"the doc says {entry['values']}")
    return found


def declared_doc(game_id: str) -> str:
    """The players' page the game declares (Game.doc, from the repository's root)."""
    doc = all_games()[game_id].doc
    assert doc, f"{game_id} declares no doc"
    return (ROOT / doc).read_text()


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_the_settings_table_matches_the_options_model(game_id):
    assert problems(game_id, declared_doc(game_id)) == []


def test_a_doctored_table_is_caught():
    doc = (DOCS / "us-president.md").read_text()
    wrong_default = doc.replace("| `equal`, `one` | `equal` |", "| `equal`, `one` | `one` |")
    assert wrong_default != doc and "`deal` defaults to 'equal'" in problems("us-president", wrong_default)[0]
    wrong_values = doc.replace("| `aside`, `keep` |", "| `aside`, `stay` |")
    assert wrong_values != doc and "tie_above_holder" in problems("us-president", wrong_values)[0]
    missing = doc.replace("| `recount_aside` |", "| `recount` |")
    assert missing != doc and "the model has" in problems("us-president", missing)[0]
