"""Renderers: pure functions from a game's *public* view to PNG images.

Each game has a module here named after its id (`us-president` ->
render/us_president.py) exposing

    render(view: dict, previous: dict | None = None) -> list[tuple[str, bytes]]

returning (filename, png bytes) pairs. With `previous` (the public view before
the last action) a renderer may return only the images that changed. Shared
drawing helpers (fonts, palette, the U.S. map) live in render/core.py.
"""
from __future__ import annotations

import importlib
from typing import Callable

Renderer = Callable[..., list[tuple[str, bytes]]]


def get_renderer(game_id: str) -> Renderer | None:
    try:
        module = importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.endswith(game_id.replace('-', '_')):
            return None
        raise
    return getattr(module, "render", None)
