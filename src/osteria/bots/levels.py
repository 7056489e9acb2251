"""Levels for people: named players from a forgiving one to the strongest honest one.

| level | player |
| --- | --- |
| facile | the game's rule-based player, who plays a random legal action one move in three |
| medio | the game's rule-based player |
| difficile | ISMCTS with 0.1 s a move |
| maestro | ISMCTS with 1 s a move |

ISMCTS is the strongest honest search here (it beat PIMC and the rule-based players in the
arena; see docs/strength.md), and more time makes it stronger.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.ismcts import IsmctsBot

LEVELS = ("facile", "medio", "difficile", "maestro")


class Careless(Bot):
    """A player that makes a random move now and then: a beginner's table."""

    def __init__(self, player: Bot, slip: float, seed: int | str | None) -> None:
        self.player, self.slip, self.rng = player, slip, random.Random(seed)
        self.name = f"careless {player.name}"

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if self.rng.random() < self.slip:
            return self.rng.choice(legal_actions)
        return self.player.act(observation, legal_actions)


def level_bot(level: str, heuristic: Bot, seed: int | str | None) -> Bot:
    """The player of a level, given the game's rule-based player."""
    if level == "facile":
        return Careless(heuristic, 1 / 3, seed)
    if level == "medio":
        return heuristic
    if level == "difficile":
        return IsmctsBot(seed, time_limit=0.1)
    if level == "maestro":
        return IsmctsBot(seed, time_limit=1.0)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
