from .game import GAME, RaceWhiteHouse  # noqa: F401
