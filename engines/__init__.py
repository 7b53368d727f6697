"""Game engines, and the registry every list of games comes from.

Each subpackage here exposes `GAME`, an instance of engines.core.Game; the registry finds them by
walking this package. A game that lives elsewhere (a package of its own, a test's toy game) joins
in one of two ways, and the bot needs no change either way:

- an entry point in the group `politics_bot.games` naming its Game instance (in its pyproject.toml:
  `[project.entry-points."politics_bot.games"] my-game = "my_package.game:GAME"`): every process
  finds it, the render workers included;
- `register(GAME)`, for the process that calls it (a test; `unregister` takes it back out).

A game declares where its renderer, text board and doc are (Game.renderer_module,
Game.text_board_module, Game.doc), as names, so engines never import render/. See
docs/adding-a-game.md.
"""
from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from importlib.metadata import entry_points

from .core import SYSTEM, Action, Event, Game, HandOver, Options, Result, RuleError, Seat, TextPrompt, Timer

__all__ = ["SYSTEM", "Action", "Event", "Game", "HandOver", "Options", "Result", "RuleError", "Seat", "TextPrompt",
           "Timer", "ENTRY_POINT_GROUP", "all_games", "get_game", "register", "unregister"]

ENTRY_POINT_GROUP = "politics_bot.games"

# Games added by register() in this process, by id; and the whole list, made again when that changes.
_registered: dict[str, Game] = {}
_all: dict[str, Game] | None = None


@lru_cache(maxsize=1)
def _discovered() -> dict[str, Game]:
    """The games of this package's folders, then those of installed entry points."""
    games: dict[str, Game] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            games[game.id] = game
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        game = point.load()
        if not isinstance(game, Game):
            raise TypeError(f"entry point {point.name} = {point.value} is not an engines.core.Game instance")
        _add(games, game, f"entry point {point.value}")
    return games


def _add(games: dict[str, Game], game: Game, where: str) -> None:
    if game.id in games and games[game.id] is not game:
        raise ValueError(f"two games are called '{game.id}' (the second from {where})")
    games[game.id] = game


def all_games() -> dict[str, Game]:
    """Every game by id, sorted by id: the one list the bot, the CLI, the tests and the benches use.
    (The same dict on every call until register() or unregister(): read it, don't change it.)"""
    global _all
    if _all is None:
        games = dict(_discovered())
        for game in _registered.values():
            _add(games, game, "register()")
        _all = dict(sorted(games.items()))
    return _all


def register(game: Game) -> Game:
    """Add a game for this process (the render workers, other processes, don't see it: a game
    they must draw is installed with an entry point). Registering the same instance twice is a no-op."""
    if not isinstance(game, Game):
        raise TypeError(f"register() takes an engines.core.Game instance, not {type(game).__name__}")
    global _all
    _add({**_discovered(), **_registered}, game, "register()")
    _registered[game.id] = game
    _all = None
    return game


def unregister(game_id: str) -> None:
    """Take out a game added by register() (a test cleaning up after itself)."""
    global _all
    _registered.pop(game_id, None)
    _all = None


def get_game(game_id: str) -> Game:
    games = all_games()
    if game_id not in games:
        known = ", ".join(games)
        raise RuleError(f"There is no game called '{game_id[:40]}'. Games: {known}.")
    return games[game_id]
