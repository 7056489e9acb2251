"""A Gymnasium environment: one seat learns, osteria bots play the others.

The learner's observation is ``{"observation": vector, "action_mask": mask}`` as in the
PettingZoo environments; its reward is its own reward of each deal (:func:`deal_rewards`:
points, or the zero-sum margin). The other seats are bots by name (``make_bot``: a level such
as ``facile`` or ``medio``, or ``random``, ``heuristic``...), each seeing only its own
observation. An action outside the mask ends the episode with ``illegal_reward`` and
``info["illegal_action"]``, so that agents which ignore the mask learn to respect it. The
learner spells its actions a word a step (``actions="steps"``, the default,
:mod:`osteria.envs.actions`) or plays each as one step (``actions="whole"``); the bots always
play whole actions.

When an episode ends, the next one is dealt at once (from the same generator, so the episodes
are those that ``reset()`` would deal) and the terminal observation carries its action mask:
the mask a vector environment's autoreset then acts on is a valid one. ``reset()`` without a
seed begins that episode; a seed deals anew. Importing this module registers every game with
Gymnasium: ``gymnasium.make("osteria/Tressette-v0", opponents="facile")``, and the batched card
play of those the compiled engine plays (:mod:`osteria.envs.batched_envs`):
``gymnasium.make_vec("osteria/TraversoneBatched-v0", num_envs=4096, seats=5, opponents="rule")``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from osteria.bots import Bot, make_bot
from osteria.engine import JSON, Match, RulesError
from osteria.envs.actions import Choice, action_space
from osteria.envs.encoding import encoding
from osteria.envs.live import LiveEncoding
from osteria.envs.pettingzoo import RENDER_MODES, check_settings, deal_rewards, observation_space, seat_text
from osteria.rules import GAMES, batched_games

Observation = dict[str, Any]  # "observation": Vector, "action_mask": Mask


def env_id(game: str) -> str:
    """A game's Gymnasium id: ``osteria/Tressette-v0``."""
    return f"osteria/{game.capitalize()}-v0"


class OsteriaGymEnv(gymnasium.Env[Observation, np.int64]):
    """Seat ``seat`` of a game against bots, made directly or by ``gymnasium.make(env_id(game))``."""

    # "human" prints a line a step and waits on nothing; Gymnasium asks every human mode for a rate.
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 - declared so by gymnasium.Env

    def __init__(self, game: str, seats: int | None = None, *, seat: int = 0, opponents: str = "medio",
                 episode: str = "deal", reward: str = "points", illegal_reward: float = -10.0,
                 actions: str = "steps", render_mode: str | None = None, **options: JSON) -> None:
        check_settings(episode, reward, render_mode)
        self.encoding = encoding(game, seats, **options)
        self.actions = action_space(self.encoding, actions)
        self.rules = self.encoding.rules
        if not isinstance(seat, int) or not 0 <= seat < self.rules.seats:
            raise RulesError(f"seat must be from 0 to {self.rules.seats - 1}, not {seat!r}")
        if seat in self.rules.options.get("morto", ()):
            raise RulesError(f"seat {seat} is a dummy: its partner plays it")
        make_bot(opponents, game=game)  # an unknown name fails here, not at the first reset
        self.seat, self.opponents, self.episode, self.reward = seat, opponents, episode, reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = observation_space(self.actions)
        self.action_space = spaces.Discrete(self.actions.size)
        self.match: Match | None = None
        self.live = LiveEncoding(self.encoding, room=self.actions.observation_size - self.encoding.observation_size)
        self.chosen: list[str] = []  # the words the learner has chosen of its action so far
        self._choice: Choice | None = None  # the learner's, after the steps chosen so far
        self.bots: dict[int, Bot] = {}
        self.over = False  # whether the current episode has ended
        self._next: tuple[Match, dict[int, Bot]] | None = None  # dealt when the last episode ended

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._drop_next()
        self._close_bots()
        self.match, self.bots = self._next or self._deal()
        self._next, self.over, self.chosen = None, False, []
        self.live.follow(self.match)
        self._choice = self._decision(self.match)
        observation = self._observe()
        self._render_human()
        return observation, {}

    def _decision(self, match: Match) -> Choice | None:
        """The learner's choice of its legal actions where it decides now, before a step."""
        deal = match.deal
        return self.actions.decision(deal) if deal is not None and match.decider == self.seat else None

    def _observe(self) -> Observation:
        """The learner's vector, with the words it has chosen so far, and its action mask (all
        zeros where it does not decide)."""
        vector = self.live.vector(self.seat)
        self.actions.show_chosen(vector, self.chosen)
        mask = np.zeros(self.actions.size, np.int8) if self._choice is None else self._choice.mask()
        return {"observation": vector, "action_mask": mask}

    def _deal(self) -> tuple[Match, dict[int, Bot]]:
        """A new episode from the environment's generator, played by the bots up to the learner's
        first decision."""
        draw = self.np_random.integers
        match = Match(self.rules, seed=int(draw(2**63)))
        bots = {s: make_bot(self.opponents, game=self.rules.name, seed=int(draw(2**63)))
                for s in range(self.rules.seats) if s != self.seat}
        self._bots_play(match, bots)
        return match, bots

    def _bots_play(self, match: Match, bots: dict[int, Bot]) -> list[float]:
        """Let the bots play until the learner decides or the episode ends; the learner's
        rewards of the deals that ended meanwhile."""
        rewards = []
        while not self._episode_over(match):
            if match.deal_due:
                match.begin_deal()
            deals = len(match.results)
            decider = match.decider
            if decider == self.seat:
                break
            assert decider is not None
            observation = match.observation(decider)
            match.play(bots[decider].act(observation, observation["legal_actions"]))
            if len(match.results) > deals:
                rewards.append(deal_rewards(match, self.reward)[self.seat])
        return rewards

    def _episode_over(self, match: Match) -> bool:
        return match.finished or (self.episode == "deal" and bool(match.results))

    def step(self, action: int | np.int64) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        match = self.match
        assert match is not None, "reset() the environment first"
        if self.over:
            raise RuntimeError("the episode is over: reset() the environment")
        info: dict[str, Any] = {}
        reward = 0.0
        assert self._choice is not None
        index = int(action)
        try:
            after = self._choice.choose(index, self.chosen)
        except ValueError as exc:
            reward, info["illegal_action"] = self.illegal_reward, str(exc)
            self.over, self.chosen, self._choice = True, [], None
        else:
            if isinstance(after, Choice):  # the learner goes on choosing
                self._choice = after
                self.chosen = self.actions.extended(self.chosen, self.actions.step_word(index))
            else:  # the action is whole: the engine plays it, then the bots
                self.chosen = []
                deals = len(match.results)
                match.apply(after)
                reward = deal_rewards(match, self.reward)[self.seat] if len(match.results) > deals else 0.0
                reward += sum(self._bots_play(match, self.bots))
                self.over = self._episode_over(match)
                self._choice = None if self.over else self._decision(match)
        observation = self._observe()
        if self.over:
            # The mask the next episode starts with: a vector environment's autoreset acts on it.
            self._drop_next()
            self._next = self._deal()
            next_choice = self._decision(self._next[0])
            assert next_choice is not None
            observation["action_mask"] = next_choice.mask()
        self._render_human()
        return observation, reward, self.over, False, info

    def render(self) -> str | None:
        """What the learner sees (``ansi``: returned; ``human``: printed at every step)."""
        if self.render_mode is None or self.match is None:
            return None
        text = seat_text(self.match, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_human(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _close_bots(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots = {}

    def _drop_next(self) -> None:
        if self._next is not None:
            for bot in self._next[1].values():
                bot.close()
            self._next = None

    def close(self) -> None:
        self._close_bots()
        self._drop_next()


def batched_env_id(game: str) -> str:
    """The Gymnasium id of a game's batched card play: ``osteria/TressetteBatched-v0``."""
    return f"osteria/{game.capitalize()}Batched-v0"


def register() -> list[str]:
    """Register every game with Gymnasium (once), and the batched card play of those the
    compiled engine plays, for ``gymnasium.make_vec`` (numba needed only then); their ids."""
    for game in GAMES:
        if env_id(game) not in gymnasium.registry:
            gymnasium.register(env_id(game), entry_point=f"{__name__}:OsteriaGymEnv", kwargs={"game": game})
    for game in batched_games():
        if batched_env_id(game) not in gymnasium.registry:
            gymnasium.register(batched_env_id(game), vector_entry_point="osteria.envs.batched_envs:BatchedVectorEnv",
                               kwargs={"game": game})
    return [env_id(game) for game in GAMES] + [batched_env_id(game) for game in batched_games()]


register()
