"""Players that choose actions from what their seat may see.

A bot is given an observation (``Match.observation(seat)``) and the legal actions, never the
match itself, so it cannot peek at hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from osteria.bots.base import Bot, RandomBot, play_bots
from osteria.bots.calabresella import CalabresellaHeuristic
from osteria.bots.hybrid import HybridBot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.learned import READERS, DmcPlayer
from osteria.bots.levels import LEVELS, level_bot
from osteria.bots.pimc import PimcBot
from osteria.bots.quattrigghiu import QuattrigghiuHeuristic
from osteria.bots.sancagna import SancagnaHeuristic
from osteria.bots.traversone import TraversoneHeuristic
from osteria.bots.tressette import TressetteHeuristic

# Each game's rule-based player.
HEURISTICS: dict[str, type[Bot]] = {
    "tressette": TressetteHeuristic,
    "quattrigghiu": QuattrigghiuHeuristic,
    "sancagna": SancagnaHeuristic,
    "calabresella": CalabresellaHeuristic,
    "traversone": TraversoneHeuristic,
}


def _heuristic(game: str, seed: int | str | None) -> Bot:
    if game not in HEURISTICS:
        raise ValueError(f"no heuristic player for {game} yet")
    return HEURISTICS[game]()


def _learned(game: str, seed: int | str | None) -> Bot:
    if game not in READERS:
        raise ValueError(f"no learned player for {game} yet: dmc plays {' and '.join(READERS)}")
    return DmcPlayer(game, _heuristic(game, seed))


def _level(level: str, game: str, seed: int | str | None) -> Bot:
    return level_bot(level, game, _heuristic(game, seed), seed)


# name -> factory(game, seed): the bots that tables and the arena can seat by name.
BOTS: dict[str, Callable[[str, int | str | None], Bot]] = {
    "random": lambda game, seed: RandomBot(seed),
    "heuristic": _heuristic,
    "ismcts": lambda game, seed: IsmctsBot(seed),
    "pimc": lambda game, seed: PimcBot.guided(_heuristic(game, seed), seed),
    "hybrid": lambda game, seed: HybridBot(_heuristic(game, seed), seed),
    "dmc": _learned,
    "hybrid-dmc": lambda game, seed: HybridBot(_learned(game, seed), seed),
    **{level: partial(_level, level) for level in LEVELS},
}


def refusal(name: str, game: str) -> str | None:
    """Why bot ``name`` cannot play ``game`` (unknown, or not a player of that game, as the
    learned Tressette player elsewhere); None where it can."""
    try:
        make_bot(name, game=game).close()
    except ValueError as exc:
        return str(exc)
    return None


def make_bot(name: str, *, game: str, seed: int | str | None = None) -> Bot:
    """A bot by name; ValueError, listing the names, for an unknown one."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}")
    return BOTS[name](game, seed)


__all__ = ["BOTS", "Bot", "RandomBot", "make_bot", "play_bots", "refusal"]
