"""Levels for people: named players from a forgiving one to the strongest honest one.

| level | player |
| --- | --- |
| facile | the game's rule-based player, who plays a random legal action one move in three |
| medio | the game's rule-based player |
| difficile | the game's strongest honest player with 0.1 s a move; in Tressette the learned player |
| maestro | the strongest honest player, 1 s a move (in Tressette reading the others' play; the hybrid solving deeper) |

The strongest honest player measured (docs/strength.md) is PIMC in Tressette, reading the others'
play (+3.3 points a deal over the rule-based player in 1,000 duplicate boards, where the hybrid
gains +0.8), ISMCTS
in Traversone (+0.89 ± 0.12 points a deal over 800 boards, where the hybrid gains nothing
against today's rule-based player), and elsewhere the hybrid: the rule-based player, overruled
by search where search sees clearly further (``osteria.bots.hybrid``); in Calabresella the
hybrid overrules the learned player instead (``hybrid-dmc``: +0.578 ± 0.072 stakes a deal over the
rule-based player at three seats, 800 boards, where the learned player alone gains +0.511 and the
hybrid over the rule +0.074). The pure search players
(PIMC in Tressette, ISMCTS elsewhere) also value every action for hints and analysis.

In Tressette PIMC at a tenth of a second was a step below the maestro's second that 1,032 boards
could not tell from none (+0.09 ± 0.13 points a deal): the two levels played alike. The difficile
there is the learned player, halfway between the rule-based player (+1.6 points a deal over it)
and the maestro, and it answers at once; where its network does not play (a table col morto,
Tressette for two) PIMC at a tenth of a second does.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from osteria.bots.base import Bot
from osteria.bots.hybrid import HybridBot
from osteria.bots.ismcts import IsmctsBot
from osteria.bots.learned import DmcPlayer
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
# The strongest honest player of each game, by name, where it is not the hybrid (docs/strength.md).
STRONGEST = {"tressette": "pimc", "traversone": "ismcts", "calabresella": "hybrid-dmc"}
# The games whose difficile is the learned player (``dmc``), a clear step below the maestro where
# the strongest honest player at 0.1 s was not (the module's description).
LEARNED_DIFFICILE = frozenset({"tressette"})


class LearnedElseSearch(Bot):
    """The learned player where its network plays the table, else a search player: a level as
    strong at a table the network was not trained for as its search makes it."""

    def __init__(self, learned: DmcPlayer, search: Bot) -> None:
        self.learned, self.search = learned, search
        self.name = f"{learned.name}, else {search.name}"

    def player(self, observation: Mapping[str, Any]) -> Bot:
        return self.learned if self.learned.knows(observation) is not None else self.search

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        return self.player(observation).act(observation, legal_actions)

    def runners_up(self, observation: Mapping[str, Any], legal_actions: list[str], choice: str) -> list[str]:
        return self.player(observation).runners_up(observation, legal_actions, choice)


@dataclass(frozen=True)
class Thinking:
    """How a searching level plays: ``seconds`` a move; where the strongest player is PIMC
    (Tressette), whether it ``reads_play`` by the rule-based player (``SearchBot``'s model), each
    sampled deal weighed by what the play tells; where it is the hybrid, whether it ``solves_deeper``
    (``HybridBot(deeper=True)``). A second instead of a tenth alone bought too little to tell the
    two levels apart where the mean of the sampled deals had settled (docs/ai.md): in
    Quattrigghiu solving the last 32 cards instead of 16 is the maestro's step, and in Tressette,
    where the difficile's search plays only at the tables the learned player does not know, the
    reading leads PIMC unread by some 0.3 points a deal at the same 0.1 s."""

    seconds: float
    reads_play: bool
    solves_deeper: bool


THINKING = {"difficile": Thinking(0.1, reads_play=False, solves_deeper=False),
            "maestro": Thinking(1.0, reads_play=True, solves_deeper=True)}


def level_bot(level: str, game: str, heuristic: Bot, seed: int | str | None) -> Bot:
    """The player of a level in a game, given the game's rule-based player."""
    if level == "facile":
        return Careless(heuristic, 1 / 3, seed)
    if level == "medio":
        return heuristic
    if level in THINKING:
        thinking = THINKING[level]
        search = strongest_bot(game, heuristic, seed, time_limit=thinking.seconds, read_play=thinking.reads_play,
                               deeper=thinking.solves_deeper)
        if level == "difficile" and game in LEARNED_DIFFICILE:
            return LearnedElseSearch(DmcPlayer(game, heuristic), search)
        return search
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


def strongest_bot(game: str, heuristic: Bot, seed: int | str | None, *, time_limit: float,
                  samples: int | None = None, read_play: bool | None = None,
                  deeper: bool = False) -> PimcBot | IsmctsBot | HybridBot:
    """The game's strongest honest player (the difficile and maestro levels), thinking
    ``time_limit`` seconds a move, or weighing exactly ``samples`` sampled deals when given.
    PIMC weighs its sampled deals by how well they explain the others' play with ``read_play``,
    not without; by default (None) where the rule-based player counts that at once. The hybrid
    solves from the game's ``deeper_solve_cards`` with ``deeper``."""
    strongest = STRONGEST.get(game)
    if strongest == "pimc":
        return PimcBot.guided(heuristic, seed, read_play=read_play, time_limit=time_limit, samples=samples)
    if strongest == "ismcts":
        return IsmctsBot(seed, time_limit=time_limit, iterations=samples)
    # The hybrid overrules the learned player where it is the stronger, else the rule-based one.
    base = DmcPlayer(game, heuristic) if strongest == "hybrid-dmc" else heuristic
    return HybridBot(base, seed, time_limit=time_limit, samples=samples, deeper=deeper)


def difficile_plays_as(game: str) -> str:
    """The bot (by its name in ``osteria.bots.BOTS``) that plays as the difficile does at the
    game's usual table: the learned player where it is the level's, else the strongest honest
    player at that bot's 0.1 s."""
    return "dmc" if game in LEARNED_DIFFICILE else STRONGEST.get(game, "hybrid")


def search_bot(game: str, seed: int | str | None, *, time_limit: float = THINKING["maestro"].seconds,
               samples: int | None = None) -> IsmctsBot | PimcBot:
    """The game's search player, thinking ``time_limit`` seconds a move (the maestro's by
    default), or weighing exactly ``samples`` sampled deals when given (a reproducible choice)."""
    if SEARCH.get(game, IsmctsBot) is PimcBot:
        return PimcBot(seed, time_limit=time_limit, samples=samples)
    return IsmctsBot(seed, time_limit=time_limit, iterations=samples)
