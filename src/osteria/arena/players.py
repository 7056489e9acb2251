"""Who can sit at an arena table: our bots by name, and outside engines as ``cmd:COMMAND``.

A run keeps one player object for each seat of each rotation (:class:`Seating`), told when each
match (board) begins and ends. Our bots are made afresh for every match from its seed; an
outside engine is one program for that seat of that rotation the whole run, so it starts once,
never plays a board twice (each board is played once a rotation), and partners are never one
program.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from osteria.arena.oracle import OraclePlayer
from osteria.arena.protocol import PROTOCOL_V1, EngineBot, TimeControl, engine_bot
from osteria.bots import Bot, make_bot
from osteria.engine import Match


class Player(Protocol):
    """The arena's side of a seat: asked for an action, it consults its bot."""

    name: str

    def begin_match(self, seat: int, seed: str) -> None:
        """A match begins with this player in ``seat``; ``seed`` seeds its random choices."""
        ...

    def choose(self, match: Match, seat: int) -> str: ...

    def end_match(self) -> list[dict[str, Any]]:
        """The match is over: the moves the player forfeited in it, each with where (seat, deal,
        move: the action's place in the deal) and why (kind, reason)."""
        ...

    def close(self) -> None: ...


class BotPlayer:
    """One of our bots, made afresh for every match: shown its seat's observation and the legal
    actions, never the match."""

    def __init__(self, spec: str, game: str) -> None:
        self.name = spec
        self.game = game
        self.bot: Bot | None = None

    def begin_match(self, seat: int, seed: str) -> None:
        self.bot = make_bot(self.name, game=self.game, seed=seed)

    def choose(self, match: Match, seat: int) -> str:
        assert self.bot is not None
        observation = match.observation(seat)
        return self.bot.act(observation, observation["legal_actions"])

    def end_match(self) -> list[dict[str, Any]]:
        if self.bot is not None:
            self.bot.close()
            self.bot = None
        return []

    def close(self) -> None:
        self.end_match()


class EnginePlayer:
    """An outside engine over the bot protocol, one program kept for the whole run."""

    def __init__(self, spec: str, game: str, *, time_control: TimeControl, start_limit: float,
                 known_v1: bool = False) -> None:
        self.name = spec
        self.game = game
        self.bot: EngineBot = engine_bot(spec, time_control=time_control, start_limit=start_limit,
                                         known_v1=known_v1)
        self.forfeits: list[dict[str, Any]] = []

    @property
    def protocol(self) -> str | None:
        """The protocol its engine speaks, once known."""
        return self.bot.info.protocol if self.bot.info is not None else None

    def begin_match(self, seat: int, seed: str) -> None:
        self.bot.new_match(game=self.game, seat=seat, seed=seed)

    def choose(self, match: Match, seat: int) -> str:
        observation = match.observation(seat)
        deal = match.deal
        assert deal is not None
        where = {"seat": seat, "deal": len(match.deals) - 1, "move": len(deal.history)}
        forfeited = len(self.bot.faults)
        action = self.bot.act(observation, observation["legal_actions"])
        for fault in self.bot.faults[forfeited:]:
            self.forfeits.append({**where, "kind": fault.kind, "reason": fault.reason})
        return action

    def end_match(self) -> list[dict[str, Any]]:
        forfeits, self.forfeits = self.forfeits, []
        return forfeits

    def close(self) -> None:
        self.bot.close()


PLAYERS = ("oracle", "oracle-play")  # seated by the arena itself, beside the bots


def make_player(spec: str, *, game: str, time_control: TimeControl, start_limit: float,
                known_v1: bool = False) -> Player:
    """A player from its name: a bot (``random``...), ``oracle`` or ``oracle-play``, or ``cmd:COMMAND`` for an
    outside engine (``known_v1``: one known to speak version 1 of the protocol)."""
    if spec.startswith("cmd:"):
        return EnginePlayer(spec, game, time_control=time_control, start_limit=start_limit, known_v1=known_v1)
    if spec in PLAYERS:
        return OraclePlayer(game, card_play_only=spec == "oracle-play")
    return BotPlayer(spec, game)


class Seating:
    """The players of a run in one process: one for each player in each seat of each rotation,
    made when first needed and kept until ``close``."""

    def __init__(self, specs: Sequence[str], game: str, *, time_control: TimeControl, start_limit: float) -> None:
        self.specs = list(specs)
        self.game = game
        self.time_control = time_control
        self.start_limit = start_limit
        self.players: dict[tuple[int, int, int], Player] = {}

    def player(self, index: int, rotation: int, seat: int) -> Player:
        """Player ``index`` (of the run's players) in ``seat`` of ``rotation``."""
        key = (index, rotation, seat)
        if key not in self.players:
            spec = self.specs[index]
            # An engine found to speak version 1 is spared a second handshake (and its wait).
            known_v1 = any(isinstance(p, EnginePlayer) and p.name == spec and p.protocol == PROTOCOL_V1
                           for p in self.players.values())
            self.players[key] = make_player(spec, game=self.game, time_control=self.time_control,
                                            start_limit=self.start_limit, known_v1=known_v1)
        return self.players[key]

    def close(self) -> None:
        for player in self.players.values():
            player.close()
        self.players.clear()
