"""Who can sit at an arena table: our bots by name, and outside engines as ``cmd:COMMAND``."""

from __future__ import annotations

from typing import Protocol

from osteria.arena.protocol import EngineBot
from osteria.bots import Bot, make_bot
from osteria.engine import Match


class Player(Protocol):
    """The arena's side of a seat: asked for an action, it consults its bot."""

    name: str

    def choose(self, match: Match, seat: int) -> str: ...

    def close(self) -> None: ...


class HonestPlayer:
    """A bot that is shown its seat's observation and the legal actions, never the match."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, match: Match, seat: int) -> str:
        observation = match.observation(seat)
        return self.bot.act(observation, observation["legal_actions"])

    def close(self) -> None:
        self.bot.close()


def make_player(spec: str, *, game: str, seed: int | str, time_limit: float) -> Player:
    """A player from its name: ``random``..., or ``cmd:COMMAND`` for an outside engine."""
    if spec.startswith("cmd:"):
        return HonestPlayer(EngineBot(spec[4:], time_limit=time_limit, seed=seed))
    return HonestPlayer(make_bot(spec, game=game, seed=seed))
