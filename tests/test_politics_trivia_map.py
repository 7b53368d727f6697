"""The trivia movement graph is the committed Census geometry's, unchanged."""
from __future__ import annotations

import pathlib
import sys

from engines.politics_trivia import usmap

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tools"))
from make_trivia_map import OUT, build  # noqa: E402


def test_generated_module_matches_geometry():
    assert OUT.read_text(encoding="utf-8") == build()


def test_borders_are_symmetric_and_cover_51_states():
    assert len(usmap.LAND_BORDERS) == 51
    for code, neighbours in usmap.LAND_BORDERS.items():
        for n in neighbours:
            assert code in usmap.LAND_BORDERS[n]
    assert usmap.LAND_BORDERS["AK"] == () and usmap.LAND_BORDERS["HI"] == ()
    assert set(usmap.LAND_BORDERS["DC"]) == {"MD", "VA"}
