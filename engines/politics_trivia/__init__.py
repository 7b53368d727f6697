"""Politics: The Game (politics-trivia)."""
from .game import GAME, PoliticsTrivia  # noqa: F401
