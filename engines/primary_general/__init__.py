from .game import GAME, PrimaryGeneral  # noqa: F401
