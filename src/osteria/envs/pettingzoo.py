"""PettingZoo AEC environments for every game and number of seats.

Agents are ``seat_0`` ... ``seat_{n-1}``. The agent selected is the seat that decides (a
Tressette dummy's partner decides for the dummy, from its own observation, which shows the
dummy's hand). An observation is ``{"observation": vector, "action_mask": mask}`` from
:mod:`osteria.envs.encoding`, written from the engine's state by :mod:`osteria.envs.live`, a
new array at each call; the mask is all zeros for a seat that is not to decide. Actions
are spelled a word a step by default (:mod:`osteria.envs.actions`: a scarto is four steps of
one card), the deciding seat staying selected until its action is whole; ``actions="whole"``
makes each action one step of the encoding's flat space. Rewards
come at the end of each deal: each seat's delta in the game's unit (points, stakes, circles),
which partners share by the rules, negated in a game where points are poison (Traversone) so
that more is always better; or with ``reward="margin"`` the deal's margin, which is zero-sum
(:func:`deal_rewards`). An episode is one deal, or with ``episode="match"`` the whole match.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from osteria.cards import make_rng
from osteria.engine import JSON, Match, RulesError
from osteria.envs.actions import ActionSpace, Choice, action_space
from osteria.envs.encoding import Mask, Vector, encoding
from osteria.envs.live import LiveEncoding

EPISODES = ("deal", "match")
REWARDS = ("points", "margin")
RENDER_MODES = ("human", "ansi")


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def deal_rewards(match: Match, reward: str = "points") -> list[float]:
    """Each seat's reward for the last deal played. ``points``: its delta, negated where lower
    wins. ``margin``: that less the mean of its opponents' (the seats not on its side in that
    deal), which adds up to zero over the seats: a Tressette side's margin is its points less
    the other side's. The deltas of a zero-sum game are margins already."""
    rules = match.game
    points = [float(rules.sense) * d for d in match.results[-1].delta]
    if reward == "points" or rules.zero_sum:
        return points
    deal = match.deals[-1].deal
    margins = []
    for seat, own in enumerate(points):
        opponents = [p for other, p in enumerate(points) if not deal.same_side(seat, other)]
        margins.append(own - sum(opponents) / len(opponents))
    return margins


def observation_space(space: ActionSpace) -> spaces.Dict:
    """The space of ``{"observation", "action_mask"}`` for an action space."""
    return spaces.Dict({
        "observation": spaces.Box(space.low, space.high, (space.observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (space.size,), np.int8),
    })


def check_settings(episode: str, reward: str, render_mode: str | None) -> None:
    """RulesError, saying what is allowed, for an unknown episode, reward or render mode."""
    if episode not in EPISODES:
        raise RulesError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
    if reward not in REWARDS:
        raise RulesError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RulesError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}")


def seat_text(match: Match, seat: int) -> str:
    """One line of what a seat sees: its hand, the trick, the totals, and a finished deal's result."""
    view = match.observation(seat)
    trick = " ".join(f"{s}:{card}" for s, card in view["trick"])
    text = f"seat_{seat}: hand {' '.join(view['hand']) or '-'}; trick {trick or '-'}; totals {match.totals()}"
    if match.results and match.decider is None:
        text += f"; last deal {match.results[-1].outcome}, delta {match.results[-1].delta}"
    return text


class OsteriaEnv(AECEnv):  # type: ignore[misc]
    """One osteria game as a PettingZoo AEC environment."""

    def __init__(self, game: str, seats: int | None = None, *, episode: str = "deal", reward: str = "points",
                 actions: str = "steps", render_mode: str | None = None, **options: JSON) -> None:
        super().__init__()
        check_settings(episode, reward, render_mode)
        self.encoding = encoding(game, seats, **options)
        self.actions = action_space(self.encoding, actions)
        self.rules = self.encoding.rules
        self.episode, self.reward = episode, reward
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"osteria_{game}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [agent_name(s) for s in range(self.rules.seats)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = observation_space(self.actions)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self._seeds: random.Random = random.SystemRandom()
        self.match: Match | None = None
        self.live = LiveEncoding(self.encoding, room=self.actions.observation_size - self.encoding.observation_size)
        self.chosen: list[str] = []  # the words the selected agent has chosen of its action so far
        self._decider: int | None = None  # the seat that decides now (match.decider), None once over
        self._choice: Choice | None = None  # the deciding seat's, after the steps chosen so far
        self._rewarded = False  # whether the last step handed out rewards (a deal ended)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # A seed fixes this episode and, through the generator it seeds, the ones after it.
        if seed is not None:
            self._seeds = make_rng(seed)
        self.match = Match(self.rules, seed=self._seeds.getrandbits(64))
        self.match.begin_deal()
        self.live.follow(self.match)
        self.chosen = []
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._rewarded = False
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select_decider()
        if self.render_mode == "human":
            self.render()

    def _select_decider(self) -> None:
        assert self.match is not None
        decider = self._decider = self.match.decider
        assert decider is not None
        self.agent_selection = self.possible_agents[decider]
        self._new_decision()

    def _new_decision(self) -> None:
        """The deciding seat's choice of its legal actions now, before its first step."""
        match = self.match
        assert match is not None
        deal = match.deal
        self._choice = None if self._decider is None or deal is None else self.actions.decision(deal)

    def observe(self, agent: str) -> dict[str, Vector | Mask]:
        assert self.match is not None, "reset() the environment first"
        seat = self._seat_of[agent]
        vector = self.live.vector(seat)
        if agent != self.agent_selection or self._decider != seat:
            return {"observation": vector, "action_mask": np.zeros(self.actions.size, np.int8)}
        if self.chosen:  # the words chosen so far are the selected agent's own: no other seat sees them
            self.actions.show_chosen(vector, self.chosen)
        assert self._choice is not None
        return {"observation": vector, "action_mask": self._choice.mask()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        assert match is not None and action is not None
        index = int(action)
        assert self._choice is not None
        try:
            after = self._choice.choose(index, self.chosen)
        except ValueError as exc:
            raise ValueError(f"{agent} cannot play that: {exc}") from None
        whole: int | None = None
        if isinstance(after, Choice):  # the agent goes on choosing
            self._choice = after
            self.chosen = self.actions.extended(self.chosen, self.actions.step_word(index))
        else:
            self.chosen, whole = [], after
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # a step's rewards are its own: the last one's go
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if whole is not None:  # the action is whole: the engine plays it
            self._play(match, agent, whole)
        if self.render_mode == "human":
            self.render()

    def _play(self, match: Match, agent: str, action: int) -> None:
        deals = len(match.results)
        match.apply(action)
        self._choice = None
        if len(match.results) == deals:  # the deal goes on
            self._select_decider()
            return
        self._decider = match.decider
        for seat, reward in enumerate(deal_rewards(match, self.reward)):
            self.rewards[agent_name(seat)] = reward
        self._rewarded = True
        self._accumulate_rewards()
        if self.episode == "deal" or match.finished:
            self.terminations = {a: True for a in self.agents}
        else:  # a match episode goes on with the next deal
            match.begin_deal()
            self._select_decider()

    def render(self) -> str | None:
        """What the agent selected sees (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.match is None:
            return None
        text = seat_text(self.match, self.possible_agents.index(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.match = None


def env(game: str, seats: int | None = None, **kwargs: Any) -> OsteriaEnv:
    """The AEC environment of a game: ``env("tressette")``, ``env("traversone", 5, episode="match")``."""
    return OsteriaEnv(game, seats, **kwargs)
