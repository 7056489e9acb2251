"""Who can sit at an arena table: our bots by name, and outside engines as ``cmd:COMMAND``."""

from __future__ import annotations

import random
from typing import Protocol

from osteria.arena.protocol import EngineBot
from osteria.bots import Bot, make_bot
from osteria.engine import Deal, Match


class Player(Protocol):
    """The arena's side of a seat: asked for an action, it consults its bot."""

    name: str

    def choose(self, match: Match, seat: int) -> str: ...

    def faults(self) -> list[str]:
        """The moves it forfeited, each with what went wrong."""
        ...

    def close(self) -> None: ...


class HonestPlayer:
    """A bot that is shown its seat's observation and the legal actions, never the match."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, match: Match, seat: int) -> str:
        observation = match.observation(seat)
        return self.bot.act(observation, observation["legal_actions"])

    def faults(self) -> list[str]:
        return list(self.bot.faults) if isinstance(self.bot, EngineBot) else []

    def close(self) -> None:
        self.bot.close()


class OraclePlayer:
    """CHEATS: it sees every hand. The arena's upper bound, never a bot for people or tables.

    For each legal action it plays the deal out at random from the true position, a share of a
    fixed number of playouts each, and keeps the action with the best mean result for its seat.
    Where there are very many actions (Calabresella's 1,820 discards) it weighs a random subset.
    """

    name = "oracle"
    playouts = 320  # per decision, shared among the actions weighed
    widest = 40  # actions weighed at most

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def choose(self, match: Match, seat: int) -> str:
        deal = match.deal
        assert deal is not None and deal.to_move is not None
        actions = deal.legal()
        if len(actions) == 1:
            return deal.action_str(actions[0])
        if len(actions) > self.widest:
            actions = self.rng.sample(actions, self.widest)
        sense = -1 if match.game.lower_wins else 1
        each = max(4, self.playouts // len(actions))
        to_move = deal.to_move
        best = max(actions, key=lambda a: sense * self._value(deal, a, to_move, each))
        return deal.action_str(best)

    def _value(self, deal: Deal, action: int, seat: int, playouts: int) -> float:
        total = 0
        choice = self.rng.choice
        for _ in range(playouts):
            rollout = deal.copy()
            rollout.apply(action)
            while rollout.to_move is not None:
                rollout.apply(choice(rollout.legal()))
            total += rollout.result().delta[seat]
        return total / playouts

    def faults(self) -> list[str]:
        return []

    def close(self) -> None:
        pass


PLAYERS = ("oracle",)  # seated by the arena itself, beside the bots


def make_player(spec: str, *, game: str, seed: int | str, time_limit: float) -> Player:
    """A player from its name: a bot (``random``...), ``oracle``, or ``cmd:COMMAND`` for an
    outside engine."""
    if spec.startswith("cmd:"):
        return HonestPlayer(EngineBot(spec[4:], time_limit=time_limit, seed=seed))
    if spec == "oracle":
        return OraclePlayer(seed)
    return HonestPlayer(make_bot(spec, game=game, seed=seed))
