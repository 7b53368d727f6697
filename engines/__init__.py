"""Game engines. Each subpackage exposes `GAME`, an instance of engines.core.Game.

Games are discovered by walking this package, so adding a game means adding a
folder here (and a renderer in render/) — the bot never lists games itself.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from .core import Action, Event, Game, Options, Result, RuleError, Seat, SYSTEM, TextPrompt, Timer  # noqa: F401


@lru_cache(maxsize=1)
def all_games() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.id] = game
    return games


def get_game(game_id: str) -> Game:
    games = all_games()
    if game_id not in games:
        known = ", ".join(sorted(games))
        raise RuleError(f"There is no game called '{game_id[:40]}'. Games: {known}.")
    return games[game_id]
