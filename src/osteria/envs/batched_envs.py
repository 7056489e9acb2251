"""The batched compiled engine (:mod:`osteria.envs.batched`) as a Gymnasium ``VectorEnv`` and as a
PettingZoo-style batched environment, for every game it plays.

Both hand out the engine's own arrays, which every step overwrites in place: a caller that keeps
an observation past the next step copies it. Observations are ``{"observation": (N, size) float32,
"action_mask": (N, actions) int8}`` for the seat to move in each deal (Tressette: 367 and 40);
actions are deck positions (the cards in the deck's canonical order), and in a game with a bidding
a pass and alone after them (Calabresella for three: 460 and 42), or Quattrigghiu's call and its
answers (429 and 84: ``BatchedGame.action_name`` names them). Finished deals are replaced in the same step
(Gymnasium's same-step autoreset), so the observation after a deal's last card is already the
next deal's: a deal's end leaves nothing to see or decide, and its reward is in that step.

Needs the ``fast`` extra (numba) and the ``rl`` extra (gymnasium).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from osteria.engine import JSON, RulesError
from osteria.envs.batched import BatchedGame
from osteria.envs.layout import trick_play_of

Observation = dict[str, np.ndarray]


def single_observation_space(engine: BatchedGame) -> spaces.Dict:
    """One deal's observation: the seat's vector and its legal cards."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (engine.observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (engine.actions,), np.int8),
    })


def _observation(engine: BatchedGame) -> Observation:
    # The bool mask seen as int8: the same bytes, no copy.
    return {"observation": engine.observation, "action_mask": engine.legal_mask.view(np.int8)}


def _seed(seed: int | Sequence[int] | None) -> int | None:
    if seed is None or isinstance(seed, int | np.integer):
        return None if seed is None else int(seed)
    raise ValueError(f"seed: one whole number for all the deals (each deal's generator is drawn from it), "
                     f"not {type(seed).__name__}")


class BatchedVectorEnv(gymnasium.vector.VectorEnv[Observation, np.ndarray, np.ndarray]):
    """``num_envs`` deals of a game's card play (``seats`` and ``options`` as for a match): the
    learner plays ``seat`` in each, built-in ``opponents`` (``random`` or ``rule``, one for all or
    one per seat) the others, inside the compiled loop. Rewards at each deal's end: ``points``
    (the learner's side's card points) or ``margin`` (less the other sides' mean; turned round
    where points are poison). A card outside the mask ends that deal with ``illegal_reward``,
    flagged in ``infos["illegal_action"]``."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - declared so by VectorEnv

    def __init__(self, game: str, num_envs: int, *, seat: int = 0, seats: int | None = None,
                 options: dict[str, JSON] | None = None, opponents: str | Sequence[str | None] = "random",
                 reward: str = "points", illegal_reward: float = -10.0) -> None:
        seat_count = trick_play_of(game, seats, options).seats
        if not isinstance(seat, int) or not 0 <= seat < seat_count:
            raise RulesError(f"seat must be from 0 to {seat_count - 1}, not {seat!r}")
        self.engine = BatchedGame(game, num_envs, seats=seats, options=options, outside=(seat,),
                                  opponents=opponents, reward=reward, illegal_reward=illegal_reward, seed=0)
        self.seat = seat
        self.num_envs = num_envs
        self.single_observation_space = single_observation_space(self.engine)
        self.single_action_space = spaces.Discrete(self.engine.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        chosen = _seed(seed)
        super().reset(seed=chosen)
        self.engine.reset(chosen)
        return _observation(self.engine), {}

    def step(self, actions: np.ndarray) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        engine = self.engine
        engine.step(actions)
        infos: dict[str, Any] = {}
        if engine.illegal.any():
            infos["illegal_action"] = engine.illegal.copy()
            infos["_illegal_action"] = engine.illegal.copy()
        return _observation(engine), engine.rewards[:, self.seat], engine.terminated, self._truncations, infos


class TressetteVectorEnv(BatchedVectorEnv):
    """:class:`BatchedVectorEnv` for Tressette."""

    def __init__(self, num_envs: int, **settings: Any) -> None:
        super().__init__("tressette", num_envs, **settings)


class BatchedAEC:
    """Self-play, PettingZoo-style and batched: every seat is an agent (``seat_0``, ``seat_1``
    ...) and each of the ``num_deals`` deals of the game has its own agent to move.

    ``agent_selection`` is the (N,) array of the seat to move in each deal; ``observe()`` its
    observation and mask; ``step(actions)`` plays each deal's action for its selected agent;
    ``last()`` gives the observation, the (N, seats) rewards of that step (every seat's, in the
    step its deal ended), and the (N,) terminations and truncations. An action outside the mask
    raises ``ValueError`` saying which deal and what was legal, and nothing is played.
    """

    def __init__(self, game: str, num_deals: int, *, seats: int | None = None,
                 options: dict[str, JSON] | None = None, reward: str = "points", seed: int | None = None) -> None:
        seat_count = trick_play_of(game, seats, options).seats
        self.engine = BatchedGame(game, num_deals, seats=seats, options=options, outside=range(seat_count),
                                  reward=reward, seed=seed)
        self.num_deals = num_deals
        self.possible_agents = tuple(f"seat_{s}" for s in range(seat_count))
        self.agents = list(self.possible_agents)
        self._observation_space = single_observation_space(self.engine)
        self._action_space = spaces.Discrete(self.engine.actions)
        self._truncations = np.zeros(num_deals, dtype=np.bool_)

    def observation_space(self, agent: str) -> spaces.Dict:
        self._check_agent(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        self._check_agent(agent)
        return self._action_space

    def _check_agent(self, agent: str) -> None:
        if agent not in self.possible_agents:
            raise ValueError(f"{agent!r} is no agent: {', '.join(self.possible_agents)}")

    def reset(self, seed: int | None = None) -> None:
        self.engine.reset(seed)

    @property
    def agent_selection(self) -> np.ndarray:
        return self.engine.to_move

    def observe(self) -> Observation:
        return _observation(self.engine)

    def last(self) -> tuple[Observation, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        engine = self.engine
        return _observation(engine), engine.rewards, engine.terminated, self._truncations, {}

    def step(self, actions: np.ndarray) -> None:
        self.engine.step(actions, strict=True)


class BatchedTressetteAEC(BatchedAEC):
    """:class:`BatchedAEC` for Tressette."""

    def __init__(self, num_deals: int, **settings: Any) -> None:
        super().__init__("tressette", num_deals, **settings)
