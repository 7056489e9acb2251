"""Levels for people: named players from a forgiving one to the strongest honest one.

| level | player |
| --- | --- |
| facile | the game's rule-based player, who plays a random legal action one move in three |
| medio | the game's rule-based player |
| difficile | the game's search player with 0.1 s a move |
| maestro | the game's search player with 1 s a move |

The search player is the one that measured strongest in the game (docs/strength.md): PIMC in
Tressette, where it led ISMCTS, ISMCTS elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.pimc import PimcBot

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


SEARCH: dict[str, type[IsmctsBot] | type[PimcBot]] = {"tressette": PimcBot}
THINKING = {"difficile": 0.1, "maestro": 1.0}  # seconds a move


def level_bot(level: str, game: str, heuristic: Bot, seed: int | str | None) -> Bot:
    """The player of a level in a game, given the game's rule-based player."""
    if level == "facile":
        return Careless(heuristic, 1 / 3, seed)
    if level == "medio":
        return heuristic
    if level in THINKING:
        return SEARCH.get(game, IsmctsBot)(seed, time_limit=THINKING[level])
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
