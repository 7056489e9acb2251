"""What the searching players share: a decision's set-up from the observation alone, and the
deals sampled for it within the bot's budget, a fixed number of them or as many as its time
limit allows."""

from __future__ import annotations

import random
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import osteria
from osteria.bots.base import Bot, Evaluation
from osteria.bots.inference import BATCH, weight
from osteria.engine import Deal, Drawing, Game
from osteria.sampling import Unsatisfiable, shows

# The keys of an observation that belong to the match (``Match.observation``), not the deal.
_MATCH_KEYS = ("game", "options", "players", "deal_index", "results", "totals", "finished")
# Batches drawn before a reading search gives up on a decision whose deals never show it.
TRIES = 100


@dataclass(frozen=True)
class Decision:
    """One decision as its seat sees it: the observation, the game's rules with its options,
    the seat to move, and ``sense``, by which a result becomes higher-is-better for the seat
    (-1 where points are poison)."""

    observation: Mapping[str, Any]
    rules: Game
    seat: int
    sense: int

    @classmethod
    def of(cls, observation: Mapping[str, Any]) -> Decision:
        rules = osteria.game_rules(observation["game"], seats=len(observation["players"]),
                                   **observation["options"])
        return cls(observation, rules, observation["to_move"], rules.sense)

    @cached_property
    def match_keys(self) -> dict[str, Any]:
        """What the observation says of the match rather than the deal: the same at every seat."""
        return {key: self.observation[key] for key in _MATCH_KEYS if key in self.observation}

    @cached_property
    def draw(self) -> Callable[[random.Random], Drawing]:
        """The observation's hidden cards drawn (``Game.deal_drawer``), for a search that weighs
        its deals before it builds them."""
        return self.rules.deal_drawer(self.observation)

    @cached_property
    def sample(self) -> Callable[[random.Random], Deal]:
        """A deal sampled from the observation (``Game.deal_sampler``): what the observation
        tells of the hidden cards read once for the decision's every sample."""
        return self.rules.deal_sampler(self.observation)

    def seen_in(self, deal: Deal) -> tuple[dict[str, Any], list[str]]:
        """What the seat that decides now in ``deal``, a deal sampled for this decision, would be
        shown of it (its own observation, with this match's keys) and its legal actions: what a
        player asked to act there is given."""
        assert deal.to_move is not None
        decider = deal.decider(deal.to_move)
        legal = deal.action_strs(deal.legal())
        seen: dict[str, Any] = dict(self.match_keys)
        seen.update(deal.observation(decider))
        seen.update(seat=decider, to_move=deal.to_move, legal_actions=legal)
        return seen, legal


class SearchBot(Bot):
    """A player that weighs its decisions on deals sampled from its observation, all its
    random draws from one generator seeded once, so that with a fixed number of samples the
    same seed makes the same decisions."""

    def __init__(self, seed: int | str | None, *, time_limit: float | None, samples: int | None,
                 model: Bot | None = None) -> None:
        """``model``, the game's rule-based player, reads the others' play: the deals searched
        are drawn in proportion to how well they explain it (``osteria.bots.inference``)."""
        self.rng = random.Random(seed)
        self.time_limit = time_limit
        self.samples = samples
        self.model = model

    def deals(self, decision: Decision) -> Iterator[Deal]:
        """Deals sampled consistently with the decision's observation: ``samples`` of them where
        given (then the time limit is not looked at), else as many as ``time_limit`` seconds
        allow from the first one asked for, at least one. Unsatisfiable where the sampler finds
        no deal at all; where it finds none after some, they are all there is."""
        deadline = time.perf_counter() + (self.time_limit or 0.0)
        done = 0
        while done < self.samples if self.samples else done == 0 or time.perf_counter() < deadline:
            try:
                deal = self.drawn(decision)
            except Unsatisfiable:
                if not done:
                    raise
                return
            yield deal
            done += 1

    def drawn(self, decision: Decision) -> Deal:
        """A deal for the search: sampled from the observation, or, with a model of the others'
        play, the one of ``BATCH`` drawn deals that their weights pick, built and checked once
        picked (one that does not show the observation is dropped and another picked)."""
        if self.model is None:
            return decision.sample(self.rng)
        for _ in range(TRIES):
            drawing = decision.draw(self.rng)
            first = weight(decision, drawing, self.model)
            if first is None:  # the game cannot replay its deals: no reading of the play
                return decision.sample(self.rng)
            batch, weights = [drawing], [first]
            for _ in range(BATCH - 1):
                try:
                    drawing = decision.draw(self.rng)
                except Unsatisfiable:
                    break  # the drawer's tries ran out: choose among those drawn
                found = weight(decision, drawing, self.model)
                assert found is not None  # a game replays every deal of its own, or none
                batch.append(drawing)
                weights.append(found)
            while any(weights):
                picked = self.rng.choices(range(len(batch)), weights)[0]
                deal = batch[picked].build()
                if shows(deal, decision.observation):
                    return deal
                weights[picked] = 0.0
        raise Unsatisfiable(f"no drawn deal in {TRIES} batches showed the observation")


class EvaluatingBot(SearchBot):
    """A searching player that values every action it weighs and plays the best."""

    def act(self, observation: Mapping[str, Any], legal_actions: list[str]) -> str:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return self.evaluate(observation, legal_actions).choice

    @abstractmethod
    def evaluate(self, observation: Mapping[str, Any], legal_actions: list[str]) -> Evaluation:
        """The decision and what it rests on: the value of each action weighed, for the seat to
        move (higher is better, also where points are poison), and the deals sampled."""
