from .game import GAME, Politics1952  # noqa: F401
