"""A Gymnasium environment: one seat learns, osteria bots play the others.

The learner's observation is ``{"observation": vector, "action_mask": mask}`` as in the
PettingZoo environments; its reward is its own reward of each deal (:func:`deal_rewards`). The
other seats are bots by name (``make_bot``: a level such as ``facile`` or ``medio``, or
``random``, ``heuristic``...), each seeing only its own observation. An action outside the mask
ends the episode with ``illegal_reward`` and ``info["illegal_action"]``, so that agents which
ignore the mask learn to respect it.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from osteria.bots import Bot, make_bot
from osteria.engine import JSON, Match, RulesError
from osteria.envs.encoding import encoding
from osteria.envs.pettingzoo import check_settings, deal_rewards, observation_space, observe_seat

Observation = dict[str, Any]  # "observation": Vector, "action_mask": Mask


class OsteriaGymEnv(gymnasium.Env[Observation, np.int64]):
    """Seat ``seat`` of a game against bots; ``gymnasium.make`` is not needed."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - declared so by gymnasium.Env

    def __init__(self, game: str, seats: int | None = None, *, seat: int = 0, opponents: str = "medio",
                 episode: str = "deal", illegal_reward: float = -10.0, render_mode: str | None = None,
                 **options: JSON) -> None:
        check_settings(episode, render_mode)
        self.encoding = encoding(game, seats, **options)
        self.rules = self.encoding.rules
        if not isinstance(seat, int) or not 0 <= seat < self.rules.seats:
            raise RulesError(f"seat must be from 0 to {self.rules.seats - 1}, not {seat!r}")
        if seat in self.rules.options.get("morto", ()):
            raise RulesError(f"seat {seat} is a dummy: its partner plays it")
        make_bot(opponents, game=game)  # an unknown name fails here, not at the first reset
        self.seat, self.opponents, self.episode = seat, opponents, episode
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding)
        self.action_space = spaces.Discrete(self.encoding.action_size)
        self.match: Match | None = None
        self.bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        draw = self.np_random.integers
        self.match = Match(self.rules, seed=int(draw(2**63)))
        self.bots = {s: make_bot(self.opponents, game=self.rules.name, seed=int(draw(2**63)))
                     for s in range(self.rules.seats) if s != self.seat}
        self._bots_play()
        return observe_seat(self.encoding, self.match, self.seat), {}

    def _bots_play(self) -> list[float]:
        """Let the bots play until the learner decides or the episode ends; the learner's
        rewards of the deals that ended meanwhile."""
        match = self.match
        assert match is not None
        rewards = []
        while not self._episode_over():
            if match.deal_due:
                match.begin_deal()
            deals = len(match.results)
            if match.decider == self.seat:
                break
            self._bot_move()
            if len(match.results) > deals:
                rewards.append(deal_rewards(match)[self.seat])
        return rewards

    def _bot_move(self) -> None:
        match = self.match
        assert match is not None and match.decider is not None
        observation = match.observation(match.decider)
        match.play(self.bots[match.decider].act(observation, observation["legal_actions"]))

    def _episode_over(self) -> bool:
        match = self.match
        assert match is not None
        return match.finished or (self.episode == "deal" and bool(match.results))

    def step(self, action: int | np.int64) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        match = self.match
        assert match is not None, "reset() the environment first"
        if self._episode_over():
            raise RuntimeError("the episode is over: reset() the environment")
        word = self.encoding.action_word(int(action))
        legal = match.observation(self.seat)["legal_actions"]
        if word not in legal:
            return (observe_seat(self.encoding, match, self.seat), self.illegal_reward, True, False,
                    {"illegal_action": word})
        deals = len(match.results)
        match.play(word)
        reward = deal_rewards(match)[self.seat] if len(match.results) > deals else 0.0
        reward += sum(self._bots_play())
        return observe_seat(self.encoding, match, self.seat), reward, self._episode_over(), False, {}

    def render(self) -> str | None:
        if self.render_mode is None or self.match is None:
            return None
        view = self.match.observation(self.seat)
        return f"seat {self.seat}: hand {' '.join(view['hand'])}; totals {self.match.totals()}"

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots = {}
