"""Politics: The Game (politics-trivia).

`game.PoliticsTrivia` is the engine contract (engines/core.py) and nothing more: each hook hands
the state to the module that knows that part of the rules. The rules are plain functions over a
`TriviaState` (models.py), one module per phase of the game; each imports only the ones above it:

    board, models, actions   the map, the cards, the state, the moves (no rules); questions, answers
                             and uploads: the question bank, answer matching, custom questions
    acting                   who may act now; seats' names and tokens
    pile                     drawing questions and finding them again by id
    runoff                   270 and the win, the runoff, speed play, the wrap-up vote
    flow                     beginning and ending turns, D.C.'s pay, the step to move or to ask
    offers, gerrymander      chip offers; Gerrymander cards
    wildcards                Wildcards and the shortfall rules (cash, votes, chips owed)
    turns, asking            a turn's moves; questions and help
    legal, clock, views      legal moves; the timer and its default moves; what each seat sees
    server_data, ai          a server's questions (used, uploaded: uploads.py); the AI (from a seat's view)

`game.HANDLERS` maps each action type to the function that applies it.
"""
from .game import GAME, PoliticsTrivia  # noqa: F401
