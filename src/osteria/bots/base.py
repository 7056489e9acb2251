"""The bot interface, the random bot, and the loop that lets bots play their seats."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from osteria.engine import Drawing, Match


class Bot(ABC):
    """A player of one seat. It sees the seat's observation and the legal actions, nothing else."""

    name = "bot"

    @abstractmethod
    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        """One of ``legal_actions``."""

    def runners_up(self, observation: Mapping[str, Any], legal_actions: list[str], choice: str) -> list[str]:
        """The actions this player rates next after ``choice`` (what it acts on ``observation``),
        best first, where it rates them one against another (a search weighs these before others
        drawn at random); none by default."""
        return []

    def close(self) -> None:  # noqa: B027 - only bots holding resources need it
        """Release what the bot holds (a process, a pool); it plays no more."""

    def surprises(self, drawing: Drawing, observation: Mapping[str, Any]) -> int | None:
        """How many actions of ``drawing`` (hidden cards a search drew from ``observation``, its
        own), of the seats the observation's seat does not decide for, this bot would have chosen
        otherwise (a card by its card, signals aside), each from the seat's own view of the deal
        replayed from its start, where it counts them all at once from the drawing's hands; None
        where it must be asked action by action (``osteria.bots.inference``)."""
        return None

    @property
    def counts_surprises(self) -> bool:
        """Whether ``surprises`` counts them at once: cheap enough (some microseconds a sampled
        deal) for a search to read the play by this player at any pace."""
        return False


@dataclass(frozen=True)
class Evaluation:
    """A searching bot's decision with what it rests on: its choice, the value it estimates for
    each action it weighed (the mean result for the seat to move, in the deal's result unit,
    higher is better), and on how many sampled deals the estimates rest."""

    choice: str
    values: dict[str, float]
    samples: int


class RandomBot(Bot):
    """Plays a uniformly random legal action: the baseline every other bot must beat."""

    name = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        return self.rng.choice(legal_actions)


def play_bots(match: Match, bots: Mapping[int, Bot]) -> None:
    """Let bots act while the seat that decides has one, dealing each next deal when it is
    due; return when a seat without one must act, or when the match is over. The bot sees
    only its own seat's observation."""
    while not match.finished:
        if match.deal_due:
            match.begin_deal()
        seat = match.decider
        if seat is None or seat not in bots:
            return
        observation = match.observation(seat)
        legal = observation["legal_actions"]
        match.play(bots[seat].act(observation, legal))
