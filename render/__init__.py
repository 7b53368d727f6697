"""Renderers: pure functions from a game's *public* view to PNG images.

A game names its renderer's module (Game.renderer_module, e.g. "render.us_president"; a game
outside this package names its own), which exposes

    render(view: Mapping[str, Any], previous: Mapping[str, Any] | None = None) -> list[tuple[str, bytes]]

returning (filename, png bytes) pairs. With `previous` (the public view before the last action) a
renderer may return only the images that changed. Shared drawing helpers (fonts, palette, the U.S.
map) live in render/core.py. `get_renderer` is the one way to find a game's renderer.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable

from engines import all_games

Images = list[tuple[str, bytes]]
Renderer = Callable[..., Images]  # (view, previous=None) -> images; a renderer may take more keywords


def get_renderer(game_id: str) -> Renderer | None:
    """The render function the game declares, or None for a game without images (or no such game)."""
    game = all_games().get(game_id)
    if game is None or not game.renderer_module:
        return None
    renderer: Renderer | None = getattr(importlib.import_module(game.renderer_module), "render", None)
    return renderer

