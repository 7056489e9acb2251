"""Who can sit at an arena table: our bots by name, and outside engines as ``cmd:COMMAND``."""

from __future__ import annotations

from typing import Protocol

from osteria.arena.protocol import EngineBot
from osteria.bots import HEURISTICS, Bot, make_bot
from osteria.bots.pimc import WIDEST, PimcBot
from osteria.engine import Match


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

    In the card play it values every action on the true deal: exactly with the double-dummy
    solver near the end, by many random playouts before. Bids, calls and discards it leaves to
    the game's heuristic player (honestly, from its observation), because random playouts judge
    a contract worse than a rule of thumb does; where a game has no heuristic player, playouts.
    """

    name = "oracle"

    def __init__(self, game: str, seed: int | str) -> None:
        self.valuer = PimcBot(seed, max_nodes=200_000, playouts=24)
        self.heuristic = HEURISTICS[game]() if game in HEURISTICS else None

    def choose(self, match: Match, seat: int) -> str:
        deal = match.deal
        assert deal is not None and deal.to_move is not None
        if self.heuristic is not None and not deal.in_card_play:
            observation = match.observation(seat)
            return self.heuristic.act(observation, observation["legal_actions"])
        actions = {deal.action_str(a): a for a in deal.legal()}
        if len(actions) == 1:
            return next(iter(actions))
        if len(actions) > WIDEST:
            actions = dict(self.valuer.rng.sample(sorted(actions.items()), WIDEST))
        values = (self.valuer.solved_values(deal, actions, deal.to_move)
                  or self.valuer.playout_values(deal, actions, deal.to_move))
        sense = match.game.sense
        return max(values, key=lambda text: sense * values[text])

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
        return OraclePlayer(game, seed)
    return HonestPlayer(make_bot(spec, game=game, seed=seed))
