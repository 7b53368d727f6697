"""Coin Count, the worked example of docs/adding-a-game.md. It lives in tests/, so it is not
one of the bot's games: tests add it with `engines.register(GAME)` (a package of its own would
declare the entry point `politics_bot.games`)."""
from .game import GAME, CoinCount

__all__ = ["GAME", "CoinCount"]
