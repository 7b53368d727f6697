from .game import GAME, USPresident  # noqa: F401
