"""Players that choose actions by themselves: a random bot and a Monte Carlo tree search bot.

Example:
    >>> from tabletop import GameEngine
    >>> from tabletop.bots import MctsBot, RandomBot, playout
    >>> from tabletop.games import load
    >>> from tabletop.testing import make_game
    >>> engine = GameEngine(load("tic-tac-toe"))
    >>> game = make_game(engine.definition, players=2, seed=1)
    >>> seats = {"p1": MctsBot(engine, iterations=50, seed=1), "p2": RandomBot(engine, seed=2)}
    >>> final = list(playout(engine, game, seats))[-1].state
    >>> final.result is not None
    True
"""

from tabletop.bots._bot import Bot, new_action_id
from tabletop.bots._determinizer import Determinizer, identity_determinizer
from tabletop.bots._fill import Fill, fill_hidden
from tabletop.bots._mcts import ActionStats, MctsBot
from tabletop.bots._positions import action_key
from tabletop.bots._random import RandomBot, playout

__all__ = [
    "ActionStats",
    "Bot",
    "Determinizer",
    "Fill",
    "MctsBot",
    "RandomBot",
    "action_key",
    "fill_hidden",
    "identity_determinizer",
    "new_action_id",
    "playout",
]
