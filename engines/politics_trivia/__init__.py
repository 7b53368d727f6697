"""Politics: The Game (politics-trivia). GAME is defined in game.py once the engine lands."""
