"""Players that choose actions from what their seat may see.

A bot is given an observation (``Match.observation(seat)``) and the legal actions, never the
match itself, so it cannot peek at hidden cards.
"""

from osteria.bots.base import Bot, RandomBot, play_bots

__all__ = ["Bot", "RandomBot", "play_bots"]
